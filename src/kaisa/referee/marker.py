"""Facts entered by a marker at a real table (the scorekeeping mode), turned into :class:`Facts`.

A marker reports what a simulation cannot: a ball off the table (8f, 8g), a ball touched by a player (7b),
a jump over a masking ball (7e), the wrong cue ball (7i), a ball falling later by itself (8e) and the referee
restoring positions (7j). Whether the called route was played as called (including käkä, a moving ball and
mankeli) is the marker's judgement.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kaisa.call import Call
from kaisa.errors import FormatError, KaisaError
from kaisa.model import BallId, Position
from kaisa.referee.observe import CalledPotFacts, Facts, HandFacts, LateFall, Pot
from kaisa.referee.ruling import Text
from kaisa.table import PocketId


class MarkerEntryError(KaisaError):
    """An entry that cannot describe a real stroke (a ball potted twice, a pocketed ball still on the table)."""


@dataclass(frozen=True)
class MarkerEntry:
    """One stroke as a marker saw it."""

    cue_ball: BallId
    """The ball the player struck (7i if it is not theirs)."""
    start: Position
    final: Position
    """Where the balls stopped on the table (approximate is fine: it decides only which spots are free)."""
    pots: tuple[tuple[BallId, PocketId], ...] = ()
    off_table: tuple[BallId, ...] = ()
    first_contact: BallId | None = None
    nakki: frozenset[BallId] = frozenset()
    called_as_called: bool = True
    """The marker's judgement: the called ball went in along the called route (no käkä, no moving ball)."""
    mankeli: bool = False
    frozen_short_of_haaki: bool = False
    konsti_ball_frozen_to_cushion: bool = False
    konsti_pair_frozen: bool = False
    cushion_pots: frozenset[BallId] = frozenset()
    """Dropped balls that touched a cushion first (matters for middle-pocket extras from hand)."""
    hand_fault: str | None = None
    """A section 5 fault from hand, in words, or None."""
    talonmies_angle: float | None = None
    touched_by_player: bool = False
    jump_over_mask: bool = False
    restored_by_referee: bool = False
    late_fall: LateFall | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "cue_ball": self.cue_ball.value,
            "start": self.start.to_json(),
            "final": self.final.to_json(),
            "pots": [[b.value, p.value] for b, p in self.pots],
            "off_table": [b.value for b in self.off_table],
            "first_contact": None if self.first_contact is None else self.first_contact.value,
            "nakki": sorted(b.value for b in self.nakki),
            "called_as_called": self.called_as_called,
            "mankeli": self.mankeli,
            "frozen_short_of_haaki": self.frozen_short_of_haaki,
            "konsti_ball_frozen_to_cushion": self.konsti_ball_frozen_to_cushion,
            "konsti_pair_frozen": self.konsti_pair_frozen,
            "cushion_pots": sorted(b.value for b in self.cushion_pots),
            "hand_fault": self.hand_fault,
            "talonmies_angle": self.talonmies_angle,
            "touched_by_player": self.touched_by_player,
            "jump_over_mask": self.jump_over_mask,
            "restored_by_referee": self.restored_by_referee,
            "late_fall": None
            if self.late_fall is None
            else {
                "ball": self.late_fall.ball.value,
                "caused_by": None if self.late_fall.caused_by is None else self.late_fall.caused_by.value,
            },
        }

    @classmethod
    def from_json(cls, data: object) -> MarkerEntry:
        """The entry from :meth:`to_json`'s form; unknown keys and bad ids raise :class:`FormatError`."""
        if not isinstance(data, dict):
            raise FormatError("a marker entry must be an object")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(data) - known)
        if unknown:
            raise FormatError(f"unknown marker entry fields {unknown}; the fields are {sorted(known)}")
        try:
            late = data.get("late_fall")
            first = data.get("first_contact")
            angle = data.get("talonmies_angle")
            fault = data.get("hand_fault")
            return cls(
                cue_ball=BallId(data["cue_ball"]),
                start=Position.from_json(data["start"]),
                final=Position.from_json(data["final"]),
                pots=tuple((BallId(b), PocketId(p)) for b, p in data.get("pots", [])),
                off_table=tuple(BallId(b) for b in data.get("off_table", [])),
                first_contact=None if first is None else BallId(first),
                nakki=frozenset(BallId(b) for b in data.get("nakki", [])),
                called_as_called=_flag(data, "called_as_called", True),
                mankeli=_flag(data, "mankeli"),
                frozen_short_of_haaki=_flag(data, "frozen_short_of_haaki"),
                konsti_ball_frozen_to_cushion=_flag(data, "konsti_ball_frozen_to_cushion"),
                konsti_pair_frozen=_flag(data, "konsti_pair_frozen"),
                cushion_pots=frozenset(BallId(b) for b in data.get("cushion_pots", [])),
                hand_fault=None if fault is None else str(fault),
                talonmies_angle=None if angle is None else float(angle),
                touched_by_player=_flag(data, "touched_by_player"),
                jump_over_mask=_flag(data, "jump_over_mask"),
                restored_by_referee=_flag(data, "restored_by_referee"),
                late_fall=None
                if late is None
                else LateFall(
                    BallId(late["ball"]), None if late.get("caused_by") is None else BallId(late["caused_by"])
                ),
            )
        except FormatError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"malformed marker entry: {exc}") from None

    def to_facts(self, call: Call | None) -> Facts:
        dropped = [b for b, _ in self.pots]
        twice = sorted({b.value for b in dropped if dropped.count(b) > 1})
        if twice:
            raise MarkerEntryError(f"{', '.join(twice)} cannot drop twice in one stroke")
        both = sorted(b.value for b in set(dropped) & set(self.off_table))
        if both:
            raise MarkerEntryError(f"{', '.join(both)} cannot both drop and leave the table")
        still = sorted(b.value for b in set(dropped) | set(self.off_table) if b in self.final)
        if still:
            raise MarkerEntryError(f"{', '.join(still)} left the table, so it cannot be in the final position")
        if self.cue_ball not in self.start:
            raise MarkerEntryError(f"the struck ball {self.cue_ball.value} was not on the table")
        named = [*dropped, *self.off_table, *self.nakki]
        if self.first_contact is not None:
            named.append(self.first_contact)
        if self.late_fall is not None:
            named.append(self.late_fall.ball)
        for b in named:
            if b not in self.start:
                raise MarkerEntryError(f"{b.value} was not on the table at the stroke")
        called = None
        if call is not None and (call.ball, call.pocket) in self.pots:
            called = CalledPotFacts(
                route_ok=self.called_as_called,
                route_problem=None if self.called_as_called else Text("merkitsijän arvio", "the marker's judgement"),
                mankeli=self.mankeli,
                frozen_short_of_haaki=self.frozen_short_of_haaki,
                konsti_ball_frozen_to_cushion=self.konsti_ball_frozen_to_cushion,
                konsti_pair_frozen=self.konsti_pair_frozen,
            )
        fault = self.hand_fault is not None
        return Facts(
            cue_ball=self.cue_ball,
            start=self.start,
            final=self.final,
            pots=tuple(Pot(b, p, b in self.cushion_pots) for b, p in self.pots),
            off_table=self.off_table,
            first_contact=self.first_contact,
            nakki=self.nakki - {self.cue_ball},
            called=called,
            hand=HandFacts(
                first_ball_in_front=not fault,
                cushion_before_first_ball=False,
                first_cushion_in_front=True,
                crossed_head_string=True,
            ),
            kaisa_touched=BallId.K in self.nakki or self.first_contact is BallId.K or BallId.K in dropped,
            talonmies_angle=self.talonmies_angle,
            touched_by_player=self.touched_by_player,
            jump_over_mask=self.jump_over_mask,
            restored_by_referee=self.restored_by_referee,
            late_fall=self.late_fall,
        )


def _flag(data: dict[str, Any], key: str, default: bool = False) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise FormatError(f"marker entry field {key} must be true or false, not {value!r}")
    return value
