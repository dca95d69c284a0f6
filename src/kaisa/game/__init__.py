"""The match: a state machine over the referee, with a stack of actions (push/pop)."""

from kaisa.game.match import ClockConfig, Entry, IllegalActionError, Match, MatchConfig, Outcome, replay
from kaisa.game.state import (
    Action,
    Choose,
    ClockState,
    Lag,
    MatchState,
    Phase,
    PlaceW2,
    Result,
    ShootoutState,
    Shot,
    TakeBreak,
    action_from_json,
    action_to_json,
)

__all__ = [
    "Action",
    "Choose",
    "ClockConfig",
    "ClockState",
    "Entry",
    "IllegalActionError",
    "Lag",
    "Match",
    "MatchConfig",
    "MatchState",
    "Outcome",
    "Phase",
    "PlaceW2",
    "Result",
    "ShootoutState",
    "Shot",
    "TakeBreak",
    "action_from_json",
    "action_to_json",
    "replay",
]
