"""Facts entered by a marker at a real table (the scorekeeping mode), turned into :class:`Facts`.

A marker reports what a simulation cannot: a ball off the table (8f, 8g), a ball touched by a player (7b),
a jump over a masking ball (7e), the wrong cue ball (7i), a ball falling later by itself (8e) and the referee
restoring positions (7j). Whether the called route was played as called (including käkä, a moving ball and
mankeli) is the marker's judgement.
"""

from __future__ import annotations

from dataclasses import dataclass

from kaisa.call import Call
from kaisa.errors import KaisaError
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
