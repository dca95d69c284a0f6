"""Rule options: every interpretation the rulebook leaves open, named, with REFERENCE.md's default."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from kaisa.errors import FormatError
from kaisa.model import finite_number, shown_value
from kaisa.referee.catalogue import CATALOGUE
from kaisa.table import CONTACT_TOLERANCE


@dataclass(frozen=True)
class RuleOptions:
    """A club can switch any of these; the defaults are the decisions of REFERENCE.md."""

    extra_kaisa_value: int = 6
    """2.1: an extra kaisa (not the called ball) dropping in a legal pot is worth this in any pocket."""
    frozen_any_object_balls: bool = False
    """8c: False voids a kyyti or off-a-ball pot when the konsti ball and the called ball were frozen
    together; True takes the literal reading, any two object balls frozen together."""
    talonmies_foul_below: float = 45.0
    """7d/8a: a cue ball frozen to a ball and struck less than this many degrees from the line of centres
    towards it is a foul (7j)."""
    talonmies_no_points_below: float = 90.0
    """7d: from the foul threshold up to this angle it is no foul, but scores nothing and the turn passes."""
    white_at_59_scores_two_only: bool = False
    """3: at 59 or more (``winning_score - 1``) a white with no nakki "adds 2 points". False: 2 for the white
    plus any extra balls (2.1 applies to every legal pot); True: exactly 2, extra balls dropping with it add
    nothing."""
    winning_score: int = CATALOGUE["3"].points["winning_score"]
    """3: the points that win the game, 10 to 200 (a competition's "target points", KAAVIO 2). The rulebook
    plays to 60; at another target rule 3's special cases keep their distance from it: a white by kyyti with a
    red or the kaisa ends the game from ``winning_score - 5`` points (the rulebook's 55), a white with no
    nakki adds 2 and passes the turn from ``winning_score - 1`` (59), and the scoresheet records a winner at
    the target or over it as the target."""
    w2_corridor_clearance: float = 2.5
    """1.2: W2's centre must stay this many ball radii from the kaisa's lines to the foot corners
    (2R + R/2: no part of W2 within half a ball of the path the kaisa sweeps)."""
    frozen_gap: float = CONTACT_TOLERANCE
    """Balls closer than this (metres) to a cushion or to each other count as frozen."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise ValueError(f"rule option {f.name} is true or false, not {value!r}")
            elif f.type in ("int", int):
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ValueError(f"rule option {f.name} is a whole number, not {shown_value(value)}")
            elif (number := finite_number(value)) is None:
                raise ValueError(f"rule option {f.name} is a finite number, not {shown_value(value)}")
            else:
                object.__setattr__(self, f.name, number)
        if not 0 <= self.w2_corridor_clearance <= 10:
            raise ValueError("w2_corridor_clearance is 0 to 10 ball radii")
        if not 0 <= self.talonmies_foul_below <= self.talonmies_no_points_below <= 180:
            raise ValueError("talonmies thresholds must satisfy 0 <= foul_below <= no_points_below <= 180 degrees")
        if not 0 <= self.extra_kaisa_value <= 60:
            raise ValueError("extra_kaisa_value is 0 to 60 points")
        if not 10 <= self.winning_score <= 200:
            raise ValueError("winning_score is 10 to 200 points")
        if not 0 <= self.frozen_gap <= 0.01:
            raise ValueError("frozen_gap is 0 to 0.01 metres (a centimetre)")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: object) -> RuleOptions:
        if not isinstance(data, dict):
            raise FormatError("rule options must be an object of option names and values")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise FormatError(f"unknown rule options {unknown}; the options are {sorted(known)}")
        try:
            return cls(**data)
        except (TypeError, ValueError) as exc:
            raise FormatError(f"bad rule options: {exc}") from None


DEFAULT_OPTIONS = RuleOptions()
