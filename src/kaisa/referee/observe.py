"""Observe: a stroke's event log (and starting position) -> the facts the rules ask about.

Nothing here decides points or turns; :mod:`kaisa.referee.judge` does. The same :class:`Facts` can come
from a marker at a real table (:mod:`kaisa.referee.marker`), so both paths share one rulebook.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from kaisa.call import LEG_ROLES, RAIL_CODES, Call, Cushion, JawCushion, Konsti
from kaisa.errors import KaisaError
from kaisa.model import (
    BallContactEvent,
    BallId,
    Event,
    JawEvent,
    OffTableEvent,
    PocketEvent,
    Position,
    RailEvent,
    ShotRecord,
    StrikeEvent,
)
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions
from kaisa.referee.ruling import Text
from kaisa.table import OFFICIAL, PocketId, Point, TableSpec


class ImpossibleStateError(KaisaError):
    """Facts and state that cannot belong together: an event log moving a ball that is not on the table, a
    ball in hand placed in front of the head string."""


@dataclass(frozen=True)
class Pot:
    """A ball that dropped; ``cushion_first``: it touched a cushion (not counting jaw rattles) before."""

    ball: BallId
    pocket: PocketId
    cushion_first: bool = False


@dataclass(frozen=True)
class HandFacts:
    """What section 5 asks of a stroke from behind the head string."""

    first_ball_in_front: bool
    """The first ball the cue ball hit lay in front of the head string at the stroke (or no ball was hit)."""
    cushion_before_first_ball: bool
    first_cushion_in_front: bool
    """The cue ball's first cushion contact before any ball was in front of the head string (or there was none)."""
    crossed_head_string: bool
    """The cue ball crossed the head string, or hit a ball in front of it."""


@dataclass(frozen=True)
class CalledPotFacts:
    """The called ball dropped into the called pocket; how it got there, measured against the call."""

    route_ok: bool
    route_problem: Text | None = None
    route_clause: str = "1.3"
    """The clause the route broke: 1.3 (not as called), or 2 (a second konsti)."""
    kaka: bool = False
    """1.3: the cue ball touched the called ball twice before it dropped."""
    moving: bool = False
    """1.3: the called ball was already moving when the cue ball or kyyti ball drove it."""
    mankeli: bool = False
    """7f: the called ball's last contact before the drop (jaw rattles aside) was a rail adjacent to the pocket."""
    rattles: int = 0
    """Jaw contacts at the called pocket just before the drop (röpötys, 1.3): no call needed."""
    frozen_short_of_haaki: bool = False
    """7g: the called ball was frozen to a cushion at the stroke with its centre not past the haaki line."""
    konsti_ball_frozen_to_cushion: bool = False
    """7h: the kara or kiss ball was frozen to a cushion or jaw at the stroke."""
    konsti_pair_frozen: bool = False
    """8c: the konsti ball and the called ball were frozen together at the stroke."""
    object_balls_frozen: bool = False
    """8c, literal reading: any two object balls were frozen together at the stroke."""


@dataclass(frozen=True)
class LateFall:
    """8e: a ball fell into a pocket by itself (or was moved by an outside cause) between strokes."""

    ball: BallId
    caused_by: BallId | None = None
    """The cue ball of the player who caused it, if a player did (then it is a foul, 7j)."""


@dataclass(frozen=True)
class Facts:
    """Everything the judge needs about one stroke."""

    cue_ball: BallId
    """The cue ball that was struck (7i: not necessarily the shooter's)."""
    start: Position
    final: Position
    """Balls at rest on the table after the stroke (dropped and off-table balls absent)."""
    pots: tuple[Pot, ...] = ()
    off_table: tuple[BallId, ...] = ()
    first_contact: BallId | None = None
    nakki: frozenset[BallId] = frozenset()
    """Balls the cue ball touched after its first contact with the called ball (never the called ball or
    the cue ball itself)."""
    called: CalledPotFacts | None = None
    """Present when the called ball dropped into the called pocket."""
    hand: HandFacts | None = None
    kaisa_touched: bool = False
    talonmies_angle: float | None = None
    """The cue ball was frozen to a ball: the angle in degrees between the stroke and the line of centres
    towards that ball (0 = straight at it)."""
    touched_by_player: bool = False
    """7b: a body part, clothing or the cue touched a ball."""
    jump_over_mask: bool = False
    """7e: the pot was made by jumping over a masking ball."""
    restored_by_referee: bool = False
    """7j: the referee put the balls back after a foul."""
    late_fall: LateFall | None = None
    events: tuple[Event, ...] = field(default=(), compare=False)


# --- observing an event log ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Contact:
    index: int
    t: float
    other: BallId | None = None
    cushion: Cushion | None = None
    pocket: PocketId | None = None


def _timelines(events: Sequence[Event]) -> dict[BallId, list[_Contact]]:
    lines: dict[BallId, list[_Contact]] = {b: [] for b in BallId}
    for i, e in enumerate(events):
        if isinstance(e, BallContactEvent):
            lines[e.ball].append(_Contact(i, e.t, other=e.other))
            lines[e.other].append(_Contact(i, e.t, other=e.ball))
        elif isinstance(e, RailEvent):
            lines[e.ball].append(_Contact(i, e.t, cushion=e.rail))
        elif isinstance(e, JawEvent):
            lines[e.ball].append(_Contact(i, e.t, cushion=JawCushion(e.pocket, e.side)))
        elif isinstance(e, PocketEvent):
            lines[e.ball].append(_Contact(i, e.t, pocket=e.pocket))
    return lines


def _strip_rattles(contacts: list[_Contact], pocket: PocketId) -> tuple[list[_Contact], int]:
    """Split off the jaw contacts at ``pocket`` right before the drop (röpötys)."""
    end = len(contacts)
    while end > 0:
        c = contacts[end - 1]
        if isinstance(c.cushion, JawCushion) and c.cushion.pocket is pocket:
            end -= 1
        else:
            break
    return contacts[:end], len(contacts) - end


def _cushion_text(cushions: Sequence[Cushion]) -> str:
    if not cushions:
        return "-"
    words = []
    for c in cushions:
        if isinstance(c, JawCushion):
            words.append(f"{c.pocket.value}/{RAIL_CODES[c.side] if c.side else ''}")
        else:
            words.append(RAIL_CODES[c])
    return " ".join(words)


_ROLE_FI = {
    "cue ball": "lyöntipallo",
    "kyyti ball": "kyytipallo",
    "cue ball off the kara ball": "lyöntipallo karapallon jälkeen",
    "called ball": "kohdepallo",
    "called ball off the kiss ball": "kohdepallo pallosta",
}


class _RouteReader:
    """Reads the called route's legs off the balls' timelines."""

    def __init__(self, call: Call, cue: BallId, lines: dict[BallId, list[_Contact]], drop_index: int) -> None:
        self.call, self.cue, self.lines, self.drop_index = call, cue, lines, drop_index
        self.problem: Text | None = None
        self.problem_clause = "1.3"
        self.kaka = False
        self.moving = False

    def fail(self, fi: str, en: str, clause: str = "1.3") -> None:
        if self.problem is None:
            self.problem = Text(fi, en)
            self.problem_clause = clause

    def leg(self, ball: BallId, after: int, until: int) -> tuple[list[Cushion], _Contact | None]:
        """Cushions ``ball`` touched after event ``after``, up to its next ball contact or pocket before
        ``until``; and that next contact."""
        cushions: list[Cushion] = []
        for c in self.lines[ball]:
            if c.index <= after or c.index > until:
                continue
            if c.cushion is not None:
                cushions.append(c.cushion)
            else:
                if c.pocket is self.call.pocket and ball == self.call.ball:
                    cushions = self._without_rattles(cushions)
                return cushions, c
        return cushions, None

    def _without_rattles(self, cushions: list[Cushion]) -> list[Cushion]:
        """Jaw contacts at the called pocket right before the drop are röpötys: no call needed (1.3)."""
        end = len(cushions)
        while end and isinstance(cushions[end - 1], JawCushion) and cushions[end - 1].pocket is self.call.pocket:  # type: ignore[union-attr]
            end -= 1
        return cushions[:end]

    def expect_ball(self, role: str, ball: BallId, contact: _Contact | None, want: BallId) -> bool:
        if contact is not None and contact.other == want:
            return True
        got = (
            "no ball"
            if contact is None
            else (
                f"pocket {contact.pocket.value}"
                if contact.pocket
                else f"{contact.other.value if contact.other else '?'}"
            )
        )
        # Inside a called konsti, a different ball on the way is a second konsti (2).
        second_konsti = (
            self.call.konsti is not None and role != "cue ball" and contact is not None and contact.other is not None
        )
        self.fail(
            f"{_ROLE_FI[role]} {ball.value}: maalattu osuma palloon {want.value}, toteutui {got}"
            + (" (kaksi konstia)" if second_konsti else ""),
            f"{role} {ball.value}: called to hit {want.value}, hit {got}" + (" (two konsti)" if second_konsti else ""),
            clause="2" if second_konsti else "1.3",
        )
        return False

    def check_leg(self, number: int, ball: BallId, actual: list[Cushion]) -> None:
        role = LEG_ROLES[self.call.konsti][number]
        want = self.call.legs[number]
        if not want.matches(actual):
            called = str(want.count) if want.count is not None else _cushion_text(want.cushions)
            self.fail(
                f"{_ROLE_FI[role]} {ball.value}: maalatut vallit {called}, toteutuneet {_cushion_text(actual)}",
                f"{role} {ball.value}: called cushions {called}, played {_cushion_text(actual)}",
            )

    def driven_at(self, called: BallId, driver: BallId, contact_index: int) -> None:
        """1.3: the called ball must be at rest until ``driver`` drives it at event ``contact_index``."""
        if any(c.index < contact_index and c.other is not None for c in self.lines[called]):
            self.moving = True

    def read(self) -> None:
        call, cue, b = self.call, self.cue, self.call.ball
        end = self.drop_index
        cue_leg, first = self.leg(cue, -1, end)
        cue_hits_called = [c for c in self.lines[cue] if c.other == b and c.index < end]
        self.kaka = len(cue_hits_called) >= 2
        if call.konsti is None or call.konsti is Konsti.KISS:
            if not self.expect_ball("cue ball", cue, first, b):
                return
            assert first is not None
            self.check_leg(0, cue, cue_leg)
            self.driven_at(b, cue, first.index)
            leg1, next_contact = self.leg(b, first.index, end)
            if call.konsti is None:
                self.check_leg(1, b, leg1)
                if next_contact is not None and next_contact.other not in (None, cue):
                    self.fail(
                        f"kohdepallo {b.value} osui palloon {next_contact.other.value} ennen pussia (maalaamaton konsti)",
                        f"called ball {b.value} touched {next_contact.other.value} before the pocket (an uncalled konsti)",
                    )
                return
            assert call.via is not None
            if not self.expect_ball("called ball", b, next_contact, call.via):
                return
            assert next_contact is not None
            self.check_leg(1, b, leg1)
            leg2, after = self.leg(b, next_contact.index, end)
            self.check_leg(2, b, leg2)
            if after is not None and after.other not in (None, cue):
                assert after.other is not None
                self.fail(
                    f"kohdepallo {b.value} osui vielä palloon {after.other.value} (kaksi konstia)",
                    f"called ball {b.value} also touched {after.other.value} (two konsti)",
                    clause="2",
                )
            return
        assert call.via is not None
        x = call.via
        if not self.expect_ball("cue ball", cue, first, x):
            return
        assert first is not None
        self.check_leg(0, cue, cue_leg)
        if call.konsti is Konsti.KYYTI:
            leg1, hit = self.leg(x, first.index, end)
            if not self.expect_ball("kyyti ball", x, hit, b):
                return
            assert hit is not None
            self.check_leg(1, x, leg1)
            self.driven_at(b, x, hit.index)
        else:  # kara: the cue ball comes off X onto the called ball
            leg1, hit = self.leg(cue, first.index, end)
            if not self.expect_ball("cue ball off the kara ball", cue, hit, b):
                return
            assert hit is not None
            self.check_leg(1, cue, leg1)
            self.driven_at(b, cue, hit.index)
        leg2, after = self.leg(b, hit.index, end)
        self.check_leg(2, b, leg2)
        if call.konsti is Konsti.KYYTI and after is not None and after.other == cue:
            self.fail(
                f"lyöntipallo {cue.value} osui kyydin jälkeen liikkuvaan kohdepalloon {b.value}",
                f"the cue ball {cue.value} touched the called ball {b.value}, already moving after the kyyti",
            )
        if after is not None and after.other not in (None, cue):
            assert after.other is not None
            self.fail(
                f"kohdepallo {b.value} osui palloon {after.other.value} ennen pussia (kaksi konstia)",
                f"called ball {b.value} touched {after.other.value} before the pocket (two konsti)",
                clause="2",
            )


def _frozen_pairs(position: Position, spec: TableSpec, gap: float) -> set[frozenset[BallId]]:
    items = list(position.items())
    pairs = set()
    for i, (a, pa) in enumerate(items):
        for b, pb in items[i + 1 :]:
            if math.hypot(pa[0] - pb[0], pa[1] - pb[1]) - spec.ball_diameter < gap:
                pairs.add(frozenset((a, b)))
    return pairs


def _angle_between(a: float, b: float) -> float:
    d = abs(a - b) % 360.0
    return 360.0 - d if d > 180.0 else d


@dataclass(frozen=True)
class StrokeLog:
    """What observing needs of a stroke: a :class:`ShotRecord`, or an event log someone recorded."""

    cue_ball: BallId
    start: Position
    events: tuple[Event, ...]
    final: Position
    direction: float | None = None
    """The stroke's direction in degrees, if known (for talonmies)."""

    @classmethod
    def of(cls, record: ShotRecord) -> StrokeLog:
        return cls(record.stroke.ball, record.position, record.events, record.final, record.stroke.direction)

    @classmethod
    def from_events(cls, start: Position, events: Sequence[Event], final: Position | None = None) -> StrokeLog:
        """An event log without a simulation behind it. Without ``final``, each ball rests where the log
        last saw it (its last event position, else its start), and a dropped ball is gone."""
        strikes = [e for e in events if isinstance(e, StrikeEvent)]
        if len(strikes) != 1 or events[0] is not strikes[0]:
            raise ImpossibleStateError("an event log starts with exactly one strike event, which names the cue ball")
        for e in events:
            for ball in _balls_of(e):
                if ball not in start:
                    raise ImpossibleStateError(f"the event log moves {ball.value}, which is not in the position")
        if final is None:
            last: dict[BallId, Point] = dict(start.items())
            for e in events:
                last.update(e.positions)
            gone = {e.ball for e in events if isinstance(e, (PocketEvent, OffTableEvent))}
            final = Position({b: p for b, p in last.items() if b not in gone})
        return cls(strikes[0].ball, start, tuple(events), final)


def _balls_of(e: Event) -> tuple[BallId, ...]:
    return (e.ball, e.other) if isinstance(e, BallContactEvent) else (e.ball,)


def observe(
    stroke: ShotRecord | StrokeLog,
    call: Call | None,
    *,
    options: RuleOptions = DEFAULT_OPTIONS,
    spec: TableSpec = OFFICIAL,
) -> Facts:
    """The facts of a simulated (or recorded) stroke, measured against ``call`` (``None``: no call)."""
    log = StrokeLog.of(stroke) if isinstance(stroke, ShotRecord) else stroke
    events = log.events
    cue = log.cue_ball
    start = log.start
    lines = _timelines(events)

    pots: list[Pot] = []
    for index, e in enumerate(events):
        if isinstance(e, PocketEvent):
            before = [c for c in lines[e.ball] if c.index < index]
            before, _ = _strip_rattles(before, e.pocket)
            pots.append(Pot(e.ball, e.pocket, any(c.cushion is not None for c in before)))
    off_table = tuple(e.ball for e in events if isinstance(e, OffTableEvent))

    cue_contacts = [c for c in lines[cue] if c.other is not None]
    first_contact = cue_contacts[0].other if cue_contacts else None

    nakki: set[BallId] = set()
    if call is not None:
        hit_called = False
        for c in cue_contacts:
            if c.other == call.ball:
                hit_called = True
            elif hit_called and c.other is not None:
                nakki.add(c.other)

    frozen_pairs = _frozen_pairs(start, spec, options.frozen_gap)
    frozen_cushion = {b for b, p in start.items() if spec.cushion_gap(p) < options.frozen_gap}

    called: CalledPotFacts | None = None
    if call is not None:
        drop = next(
            (
                i
                for i, e in enumerate(events)
                if isinstance(e, PocketEvent) and e.ball == call.ball and e.pocket is call.pocket
            ),
            None,
        )
        if drop is not None:
            reader = _RouteReader(call, cue, lines, drop)
            reader.read()
            before, rattles = _strip_rattles([c for c in lines[call.ball] if c.index < drop], call.pocket)
            last = before[-1] if before else None
            mankeli = last is not None and last.cushion in spec.rails_adjacent_to(call.pocket)
            called_start = start.get(call.ball)
            via = call.via
            called = CalledPotFacts(
                route_ok=reader.problem is None,
                route_problem=reader.problem,
                route_clause=reader.problem_clause,
                kaka=reader.kaka,
                moving=reader.moving,
                mankeli=mankeli,
                rattles=rattles,
                frozen_short_of_haaki=(
                    call.ball in frozen_cushion
                    and called_start is not None
                    and spec.pockets[call.pocket].depth_of(called_start) <= 0
                ),
                konsti_ball_frozen_to_cushion=(
                    call.konsti in (Konsti.KARA, Konsti.KISS) and via is not None and via in frozen_cushion
                ),
                konsti_pair_frozen=via is not None and frozenset((via, call.ball)) in frozen_pairs,
                object_balls_frozen=any(cue not in pair for pair in frozen_pairs),
            )

    hand = _hand_facts(log, lines, first_contact, spec)
    talonmies: float | None = None
    cue_start = start.get(cue)
    if cue_start is not None and log.direction is not None:
        for pair in frozen_pairs:
            if cue in pair:
                (other,) = pair - {cue}
                op = start[other]
                towards = math.degrees(math.atan2(op[1] - cue_start[1], op[0] - cue_start[0]))
                angle = _angle_between(log.direction, towards)
                talonmies = angle if talonmies is None else min(talonmies, angle)

    return Facts(
        cue_ball=cue,
        start=start,
        final=log.final,
        pots=tuple(pots),
        off_table=off_table,
        first_contact=first_contact,
        nakki=frozenset(nakki - {cue} - ({call.ball} if call else set())),
        called=called,
        hand=hand,
        kaisa_touched=any(c.other is not None for c in lines[BallId.K]),
        talonmies_angle=talonmies,
        events=events,
    )


def _hand_facts(
    log: StrokeLog, lines: dict[BallId, list[_Contact]], first_contact: BallId | None, spec: TableSpec
) -> HandFacts:
    cue = log.cue_ball
    start = log.start
    first_ball_index = next((c.index for c in lines[cue] if c.other is not None), None)
    before_ball = [c for c in lines[cue] if first_ball_index is None or c.index < first_ball_index]
    cushions_before = [c for c in before_ball if c.cushion is not None]
    first_cushion_in_front = True
    if cushions_before:
        e = log.events[cushions_before[0].index]
        p = e.positions.get(cue)
        first_cushion_in_front = p is not None and p[1] > spec.head_string
    first_ball_in_front = True
    if first_contact is not None and first_contact in start:
        first_ball_in_front = start[first_contact][1] > spec.head_string
    seen = [p for e in log.events for b, p in e.positions.items() if b == cue]
    if cue in log.final:
        seen.append(log.final[cue])
    crossed = any(p[1] > spec.head_string for p in seen) or (first_contact is not None and first_ball_in_front)
    return HandFacts(
        first_ball_in_front=first_ball_in_front,
        cushion_before_first_ball=bool(cushions_before),
        first_cushion_in_front=first_cushion_in_front,
        crossed_head_string=crossed,
    )
