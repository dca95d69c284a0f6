"""The referee: observe a stroke's events, then judge them by the 2014 rulebook. Never imports pooltool.

``observe(record, call) -> Facts`` and ``judge(facts, call, state) -> Ruling``; a marker's entry becomes
``Facts`` through :class:`MarkerEntry`.
"""

from kaisa.referee.judge import judge
from kaisa.referee.marker import MarkerEntry, MarkerEntryError
from kaisa.referee.observe import (
    CalledPotFacts,
    Facts,
    HandFacts,
    ImpossibleStateError,
    LateFall,
    Pot,
    StrokeLog,
    observe,
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
]
