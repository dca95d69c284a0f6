"""Players: the interface a match asks, a driver, the kinds of player and the computer players.

The driver and the players (which import the game, the referee and numpy) are imported on first use, so that
the command line can read the kinds of player (:mod:`kaisa.players.kinds`) without them."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kaisa.players.kinds import BASELINE, COMPUTER_KINDS, HUMAN, KINDS, PlayerKind, player_kind, seat_noise
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions

if TYPE_CHECKING:
    from kaisa.players.base import MatchStalledError, Player, decide_action, lag_stroke, play_match, push_nudged
    from kaisa.players.baseline import BaselinePlayer

_LAZY = {
    "MatchStalledError": "kaisa.players.base",
    "Player": "kaisa.players.base",
    "decide_action": "kaisa.players.base",
    "lag_stroke": "kaisa.players.base",
    "play_match": "kaisa.players.base",
    "push_nudged": "kaisa.players.base",
    "BaselinePlayer": "kaisa.players.baseline",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


PLAYER_KINDS = COMPUTER_KINDS
"""The computer players' kinds (kept for the command line's choices)."""


def make_player(kind: str, name: str, seed: int, noise: float = 1.0, options: RuleOptions = DEFAULT_OPTIONS) -> Player:
    """A computer player by kind: ``baseline`` or a search level (``beginner``, ``club``, ``master``).

    ``noise`` scales the noise the player *believes* it plays with (the search evaluates its options under
    it); the noise it really plays with is the match's chance step, from its seat (:func:`seat_noise`).
    ``options`` are the match's rules, which a search player rules its candidate strokes by (its target)."""
    if kind == BASELINE:
        from kaisa.players.baseline import BaselinePlayer

        return BaselinePlayer(name=name, seed=seed)
    if kind in COMPUTER_KINDS:
        from kaisa.players.search import SearchPlayer

        return SearchPlayer(kind, name=name, seed=seed, noise=noise, options=options)
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
    "push_nudged",
    "seat_noise",
]
