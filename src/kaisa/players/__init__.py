"""Players: the interface a match asks, a driver, the kinds of player and the computer players."""

from kaisa.players.base import MatchStalledError, Player, decide_action, lag_stroke, play_match
from kaisa.players.baseline import BaselinePlayer
from kaisa.players.kinds import BASELINE, COMPUTER_KINDS, HUMAN, KINDS, PlayerKind, player_kind, seat_noise

PLAYER_KINDS = COMPUTER_KINDS
"""The computer players' kinds (kept for the command line's choices)."""


def make_player(kind: str, name: str, seed: int, noise: float = 1.0) -> Player:
    """A computer player by kind: ``baseline`` or a search level (``beginner``, ``club``, ``master``).

    ``noise`` scales the noise the player *believes* it plays with (the search evaluates its options under
    it); the noise it really plays with is the match's chance step, from its seat (:func:`seat_noise`)."""
    if kind == BASELINE:
        return BaselinePlayer(name=name, seed=seed)
    if kind in COMPUTER_KINDS:
        from kaisa.players.search import SearchPlayer

        return SearchPlayer(kind, name=name, seed=seed, noise=noise)
    raise ValueError(f"unknown computer player kind {kind!r}; the kinds are {', '.join(COMPUTER_KINDS)}")


__all__ = [
    "BASELINE",
    "COMPUTER_KINDS",
    "HUMAN",
    "KINDS",
    "PLAYER_KINDS",
    "BaselinePlayer",
    "MatchStalledError",
    "Player",
    "PlayerKind",
    "decide_action",
    "lag_stroke",
    "make_player",
    "play_match",
    "player_kind",
    "seat_noise",
]
