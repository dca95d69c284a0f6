"""Players: the interface a match asks, a driver, and the computer players."""

from kaisa.players.base import MatchStalledError, Player, decide_action, lag_stroke, play_match
from kaisa.players.baseline import BaselinePlayer

PLAYER_KINDS = ("baseline", "beginner", "club", "master")


def make_player(kind: str, name: str, seed: int, noise: float = 1.0) -> Player:
    """A computer player by kind: ``baseline`` or a search level (``beginner``, ``club``, ``master``)."""
    if kind == "baseline":
        return BaselinePlayer(name=name, seed=seed, noise=noise)
    if kind in PLAYER_KINDS:
        from kaisa.players.search import SearchPlayer

        return SearchPlayer(kind, name=name, seed=seed, noise=noise)
    raise ValueError(f"unknown player kind {kind!r}; the kinds are {', '.join(PLAYER_KINDS)}")


__all__ = [
    "PLAYER_KINDS",
    "BaselinePlayer",
    "MatchStalledError",
    "Player",
    "decide_action",
    "lag_stroke",
    "make_player",
    "play_match",
]
