"""The match session: the one way an interface drives a match.

The browser table, the marker's pages, ``kaisa match``, the tournament and the environments all play through
here: load a stored match, push an action through :class:`kaisa.game.Match` (which asks the referee, and
whose chance step executes strokes), record it, and give the view. A session also runs the computer players'
turns and owns the per-match lock, so two requests cannot play the same stroke twice. The running counters
(innings, runs, fouls) live in the match state, so no interface recounts them from stored JSON. No rules live
here.

Where things are:

- :mod:`kaisa.session.registry`: :class:`Sessions`, the sessions of one store: create a match, open one
  (locked) to play on, read its view, its history and a replayed action.
- :mod:`kaisa.session.match`: :class:`MatchSession`, one opened match: push a person's, a computer player's or a
  marker's action and record it; the lag, breaks (6), undo and corrections.
- :mod:`kaisa.session.view`: :class:`MatchView`, the match as a page shows it, and :class:`Played`.
- :mod:`kaisa.session.study`: one stroke from any position and state, ruled as in a match (:func:`study_shot`),
  and the commands' single strokes (``kaisa simulate``, ``kaisa rule``).
- :mod:`kaisa.session.aids`: the advisor (:func:`advise`), the aim helper (:func:`aim`) and why a call cannot
  score (:func:`call_prospects`), in study and during a match.

This package also passes on the referee's values an interface needs (the game state, the rule options, a
ruling and its texts), since the interfaces reach the referee only through the session (the import contracts
in ``pyproject.toml``).
"""

from __future__ import annotations

from kaisa.referee import GameState, LateFall, RuleOptions, Ruling, opponent_of
from kaisa.referee.marker import FLAG_QUESTIONS, FlagQuestion
from kaisa.referee.opening import IllegalPlacementError, check_hand_placement
from kaisa.referee.prospects import call_words
from kaisa.referee.ruling import Text
from kaisa.session.aids import ADVISOR_LEVELS, Aim, advise, aim, call_prospects
from kaisa.session.match import MatchSession, NotYourTurnError, RunningBreak
from kaisa.session.registry import Sessions, UnknownActionError, match_config
from kaisa.session.study import (
    StudyShot,
    StudyStateError,
    check_position,
    check_study_state,
    physics_ready,
    rule_stroke,
    simulate_stroke,
    study_setup,
    study_shot,
    warm_up_physics,
)
from kaisa.session.view import ANIMATION_RATE, MatchView, Played, view_of

__all__ = [
    "ADVISOR_LEVELS",
    "ANIMATION_RATE",
    "FLAG_QUESTIONS",
    "Aim",
    "FlagQuestion",
    "GameState",
    "IllegalPlacementError",
    "LateFall",
    "MatchSession",
    "MatchView",
    "NotYourTurnError",
    "Played",
    "RuleOptions",
    "Ruling",
    "RunningBreak",
    "Sessions",
    "StudyShot",
    "StudyStateError",
    "Text",
    "UnknownActionError",
    "advise",
    "aim",
    "call_prospects",
    "call_words",
    "check_hand_placement",
    "check_position",
    "check_study_state",
    "match_config",
    "opponent_of",
    "physics_ready",
    "rule_stroke",
    "simulate_stroke",
    "study_setup",
    "study_shot",
    "view_of",
    "warm_up_physics",
]
