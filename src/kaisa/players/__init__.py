"""Players: the interface a match asks, a driver, and the computer players."""

from kaisa.players.base import MatchStalledError, Player, play_match
from kaisa.players.baseline import BaselinePlayer

PLAYER_KINDS = ("baseline",)


def make_player(kind: str, name: str, seed: int) -> Player:
    """A computer player by kind (``baseline``)."""
    if kind == "baseline":
        return BaselinePlayer(name=name, seed=seed)
    raise ValueError(f"unknown player kind {kind!r}; the kinds are {', '.join(PLAYER_KINDS)}")


__all__ = ["PLAYER_KINDS", "BaselinePlayer", "MatchStalledError", "Player", "make_player", "play_match"]
