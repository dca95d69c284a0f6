"""The referee: observe a stroke's events, then judge them by the 2014 rulebook. Never imports pooltool.

``observe(record, call) -> Facts`` and ``judge(facts, call, state) -> Ruling``; a marker's entry becomes
``Facts`` through :class:`MarkerEntry`. The rulebook itself is :mod:`kaisa.referee.catalogue` (one entry per
clause, with its Finnish and English wordings) and :mod:`kaisa.referee.predicates` (one decision each).
"""

from kaisa.referee.judge import judge
from kaisa.referee.marker import MarkerEntry, MarkerEntryError
from kaisa.referee.observe import (
    CalledPotFacts,
    Facts,
    HandFacts,
    ImpossibleLogError,
    ImpossibleStateError,
    LateFall,
    Pot,
    StrokeLog,
    observe,
    validate_log,
)
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions
from kaisa.referee.ruling import Ruling, RulingItem, Text
from kaisa.referee.state import GameState, opponent_of

__all__ = [
    "DEFAULT_OPTIONS",
    "CalledPotFacts",
    "Facts",
    "GameState",
    "HandFacts",
    "ImpossibleLogError",
    "ImpossibleStateError",
    "LateFall",
    "MarkerEntry",
    "MarkerEntryError",
    "Pot",
    "RuleOptions",
    "Ruling",
    "RulingItem",
    "StrokeLog",
    "Text",
    "judge",
    "observe",
    "opponent_of",
    "validate_log",
]
