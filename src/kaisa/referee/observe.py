"""Observe: a stroke's event log (and starting position) -> the facts the rules ask about.

Nothing here decides points or turns; :mod:`kaisa.referee.judge` does. The same :class:`Facts` can come
from a marker at a real table (:mod:`kaisa.referee.marker`), so both paths share one rulebook.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from kaisa.call import LEG_ROLES, Call, Cushion, JawCushion, Konsti
from kaisa.errors import ErrorText, KaisaError
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
from kaisa.referee import catalogue as cat
from kaisa.referee.options import DEFAULT_OPTIONS, RuleOptions
from kaisa.referee.ruling import Text
from kaisa.table import CONTACT_TOLERANCE, OFFICIAL, PocketId, Point, RailId, TableSpec


class ImpossibleStateError(KaisaError):
    """Facts and state that cannot belong together: an event log moving a ball that is not on the table, a
    ball in hand placed in front of the head string."""

    code = "impossible-state"
    kind = ErrorText(
        "Tiedot ja tilanne eivät voi pitää paikkaansa yhtä aikaa.", "The facts and the state cannot be true together."
    )


class ImpossibleLogError(ImpossibleStateError):
    """An event log (or the positions with it) that no stroke on a real table can produce: a ball off the
    table's coordinates, balls overlapping at rest, a ball pocketed twice or moving after it dropped, a ball
    colliding with itself, a log whose start is not the position it is ruled from. The message says which
    event or ball and what is allowed."""

    code = "impossible-log"
    kind = ErrorText(
        "Tapahtumaluettelo ei voi syntyä oikealla pöydällä.", "No stroke on a real table makes this event log."
    )


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
    first_cushion_in_front: bool | None
    """The cue ball's first cushion contact before any ball was in front of the head string (or there was none);
    None when a hand-written log gave a contact on a rail crossing the line (left-head, right-head) without
    its point, so nobody can tell (the judge asks for the point when it matters)."""
    crossed_head_string: bool
    """The cue ball crossed the head string, or hit a ball in front of it."""


@dataclass(frozen=True)
class CalledPotFacts:
    """The called ball dropped into the called pocket; how it got there, measured against the call."""

    route_ok: bool
    route_problems: tuple[tuple[str, Text], ...] = ()
    """Every way the route differed from the call, in play order, each with the clause it broke: 1.3 (not as
    called) or 2 (a second konsti)."""
    route_problem: Text | None = None
    """A route problem given as one sentence (the kirjuri's judgement), when ``route_problems`` is empty."""
    route_clause: str = "1.3"
    """The clause of ``route_problem``."""
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
    """7h: the kara or kiss ball, frozen to a cushion or jaw at the stroke, was played off (touched by the cue
    ball for a kara, by the called ball for a kiss)."""
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
    double_hit: bool = False
    """7d: the cue tip struck the cue ball twice (kaksoiskosketus); only a kirjuri can enter it."""
    swapped_by_referee: bool = False
    """7i: after a stroke with the wrong cue ball the referee swapped the cue balls' places."""
    swap_expired: bool = False
    """7i: the cue balls were found swapped from earlier than the previous stroke: the error has expired,
    their places are swapped back and the game goes on (no stroke is ruled)."""
    stopped_balls: bool = False
    """6: in the shoot-out the player stopped moving balls after a miss (-6); elsewhere a touch (7b)."""
    cannot_strike_away: bool = False
    """8b: the cue ball was frozen so that no stroke could go away from the balls it was frozen to."""
    setup_broken: bool = False
    """8b: moving the frozen balls broke the opponent's setup (a foul, 7j); only a kirjuri can enter it."""
    from_log: bool = False
    """Observed from an event log (a simulation): no referee stood at the table, so the referee layer applies
    7j itself (a talonmies foul puts the balls back)."""
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


def _cushions_called(leg_count: int | None, cushions: Sequence[Cushion]) -> Text:
    return cat.cushion_count(leg_count) if leg_count is not None else cat.cushion_list(cushions)


def _role(role: str, ball: BallId) -> Text:
    """A ball in its part of the call ("the kyyti ball (red R1)")."""
    name = cat.ball(ball).text
    return {
        "cue ball": Text(f"lyöntipallo {ball.value}", f"the cue ball {ball.value}"),
        "kyyti ball": Text(f"kyytipallo ({name.fi})", f"the kyyti ball ({name.en})"),
        "cue ball off the kara ball": Text(
            f"karapallosta kimmonnut lyöntipallo {ball.value}", f"the cue ball {ball.value} off the kara ball"
        ),
        "called ball": Text(f"kohdepallo ({name.fi})", f"the called ball ({name.en})"),
        "called ball off the kiss ball": Text(
            f"pallosta kimmonnut kohdepallo ({name.fi})", f"the called ball ({name.en}) off the kiss ball"
        ),
    }[role]


class _RouteReader:
    """Reads the called route's legs off the balls' timelines, listing every way it differs from the call."""

    def __init__(self, call: Call, cue: BallId, lines: dict[BallId, list[_Contact]], drop_index: int) -> None:
        self.call, self.cue, self.lines, self.drop_index = call, cue, lines, drop_index
        self.problems: list[tuple[str, Text]] = []
        self.kaka = False
        self.moving = False

    def fail(self, text: Text, clause: str = "1.3") -> None:
        self.problems.append((clause, text))

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
        who, wanted = _role(role, ball), cat.ball(want).text
        if contact is None:
            text = cat.say("1.3", "hit_nothing", role=who, want=wanted)
        elif contact.pocket is not None:
            text = cat.say("1.3", "hit_pocket", role=who, pocket=cat.pocket(contact.pocket).into, want=wanted)
        else:
            assert contact.other is not None
            text = cat.say("1.3", "hit_other", role=who, got=cat.ball(contact.other).into, want=wanted)
        # Inside a called konsti, a different ball on the way is a second konsti (2).
        if self.call.konsti is not None and role != "cue ball" and contact is not None and contact.other is not None:
            self.fail(cat.say("2", "second_konsti", problem=text), clause="2")
        else:
            self.fail(text)
        return False

    def check_leg(self, number: int, ball: BallId, actual: list[Cushion]) -> None:
        role = LEG_ROLES[self.call.konsti][number]
        want = self.call.legs[number]
        if not want.matches(actual):
            self.fail(
                cat.say(
                    "1.3",
                    "cushions",
                    role=_role(role, ball),
                    called=_cushions_called(want.count, want.cushions),
                    played=cat.cushion_list(actual),
                )
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
        called_name = cat.ball(b).text
        if call.konsti is None or call.konsti is Konsti.KISS:
            self.check_leg(0, cue, cue_leg)
            if not self.expect_ball("cue ball", cue, first, b):
                return
            assert first is not None
            self.driven_at(b, cue, first.index)
            leg1, next_contact = self.leg(b, first.index, end)
            if call.konsti is None:
                self.check_leg(1, b, leg1)
                if next_contact is not None and next_contact.other not in (None, cue):
                    assert next_contact.other is not None
                    self.fail(
                        cat.say("1.3", "uncalled_konsti", ball=called_name, other=cat.ball(next_contact.other).into)
                    )
                return
            assert call.via is not None
            self.check_leg(1, b, leg1)
            if not self.expect_ball("called ball", b, next_contact, call.via):
                return
            assert next_contact is not None
            leg2, after = self.leg(b, next_contact.index, end)
            self.check_leg(2, b, leg2)
            if after is not None and after.other not in (None, cue):
                assert after.other is not None
                self.fail(cat.say("2", "two_konsti", ball=called_name, other=cat.ball(after.other).into), clause="2")
            return
        assert call.via is not None
        x = call.via
        self.check_leg(0, cue, cue_leg)
        if not self.expect_ball("cue ball", cue, first, x):
            return
        assert first is not None
        if call.konsti is Konsti.KYYTI:
            leg1, hit = self.leg(x, first.index, end)
            self.check_leg(1, x, leg1)
            if not self.expect_ball("kyyti ball", x, hit, b):
                return
            assert hit is not None
            self.driven_at(b, x, hit.index)
        else:  # kara: the cue ball comes off X onto the called ball
            leg1, hit = self.leg(cue, first.index, end)
            self.check_leg(1, cue, leg1)
            if not self.expect_ball("cue ball off the kara ball", cue, hit, b):
                return
            assert hit is not None
            self.driven_at(b, cue, hit.index)
        leg2, after = self.leg(b, hit.index, end)
        self.check_leg(2, b, leg2)
        if call.konsti is Konsti.KYYTI and after is not None and after.other == cue:
            self.fail(cat.say("1.3", "kyyti_touch", cue=cue.value, ball=called_name))
        if after is not None and after.other not in (None, cue):
            assert after.other is not None
            self.fail(cat.say("2", "two_konsti", ball=called_name, other=cat.ball(after.other).into), clause="2")


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
    def from_events(
        cls,
        start: Position,
        events: Sequence[Event],
        final: Position | None = None,
        *,
        expected_start: Position | None = None,
        spec: TableSpec = OFFICIAL,
    ) -> StrokeLog:
        """An event log without a simulation behind it, checked by :func:`validate_log`. Without ``final``,
        each ball rests where the log last saw it (its last event position, else its start), and a dropped
        ball is gone. ``expected_start``: the position the log is ruled from (it must equal ``start``)."""
        validate_log(start, events, final, expected_start=expected_start, spec=spec)
        strikes = [e for e in events if isinstance(e, StrikeEvent)]
        if final is None:
            last: dict[BallId, Point] = dict(start.items())
            for e in events:
                last.update(e.positions)
            gone = {e.ball for e in events if isinstance(e, (PocketEvent, OffTableEvent))}
            final = Position({b: p for b, p in last.items() if b not in gone})
            _check_apart(final, "where the log leaves the balls", spec)
        return cls(strikes[0].ball, start, tuple(events), final)

    @classmethod
    def from_json(cls, position: Position, data: object, *, spec: TableSpec = OFFICIAL) -> StrokeLog:
        """An event log as JSON, ruled from ``position``: a list of events, or an object with ``events`` (a
        ``kaisa simulate`` output) and optionally its ``start`` (which must be ``position``) and ``final``.
        Raises :class:`~kaisa.errors.FormatError` for malformed JSON and :class:`ImpossibleLogError` for a log
        no stroke can produce."""
        from kaisa.model import events_from_json

        events = events_from_json(data)
        start = final = None
        if isinstance(data, dict):
            if "start" in data:
                start = Position.from_json(data["start"])
            if "final" in data:
                final = Position.from_json(data["final"])
        return cls.from_events(position, events, final, expected_start=start, spec=spec)


_OVERLAP_SLACK = 5 * CONTACT_TOLERANCE
"""Balls at rest may touch; a hand-written log is allowed this much overlap (metres) before it is refused."""


def _check_on_table(ball: BallId, p: Point, where: str, spec: TableSpec) -> None:
    if not (math.isfinite(p[0]) and math.isfinite(p[1]) and spec.is_on_bed(p)):
        raise ImpossibleLogError(
            f"{ball.value} {where} is at ({p[0]:g}, {p[1]:g}), off the table: coordinates are metres with "
            f"0 <= x <= {spec.width:g} and 0 <= y <= {spec.length:g}"
        )


def _check_apart(position: Position, where: str, spec: TableSpec) -> None:
    for ball, p in position.items():
        _check_on_table(ball, p, where, spec)
    items = list(position.items())
    for i, (a, pa) in enumerate(items):
        for b, pb in items[i + 1 :]:
            gap = math.hypot(pa[0] - pb[0], pa[1] - pb[1]) - spec.ball_diameter
            if gap < -_OVERLAP_SLACK:
                raise ImpossibleLogError(
                    f"{a.value} and {b.value} overlap {where} (centres {math.hypot(pa[0] - pb[0], pa[1] - pb[1]) * 1000:.0f} "
                    f"mm apart; balls at rest are at least {spec.ball_diameter * 1000:.0f} mm apart)"
                )


def validate_log(
    start: Position,
    events: Sequence[Event],
    final: Position | None = None,
    *,
    expected_start: Position | None = None,
    spec: TableSpec = OFFICIAL,
) -> None:
    """Refuse an event log that no stroke can produce, with :class:`ImpossibleLogError` naming the event.

    One strike, first, naming the cue ball; every ball it moves on the table at the start; no ball
    colliding with itself; no event of a ball after it dropped or left the table (so none dropped twice);
    every position on the table; balls at rest (start and final) not overlapping; the final position
    without the balls that dropped; and the start equal to ``expected_start`` when one is given.
    """
    if expected_start is not None and start != expected_start:
        moved = sorted(b.value for b in set(start) | set(expected_start) if start.get(b) != expected_start.get(b))
        raise ImpossibleLogError(
            f"the event log starts from another position than the one given (differs at {', '.join(moved)}): "
            "give the log's own start, or leave it out"
        )
    _check_apart(start, "at the start", spec)
    strikes = [e for e in events if isinstance(e, StrikeEvent)]
    if not events or len(strikes) != 1 or events[0] is not strikes[0]:
        raise ImpossibleLogError("an event log starts with exactly one strike event, which names the cue ball")
    gone: dict[BallId, int] = {}
    for i, e in enumerate(events):
        balls = _balls_of(e)
        if isinstance(e, BallContactEvent) and e.ball == e.other:
            raise ImpossibleLogError(f"event {i}: {e.ball.value} cannot collide with itself")
        for b in balls:
            if b not in start:
                raise ImpossibleLogError(f"event {i}: the log moves {b.value}, which is not in the position")
            if b in gone:
                what = "dropped" if isinstance(events[gone[b]], PocketEvent) else "left the table"
                raise ImpossibleLogError(
                    f"event {i}: {b.value} {what} at event {gone[b]}, so it cannot "
                    f"{'drop again' if isinstance(e, PocketEvent | OffTableEvent) else 'move any more'}"
                )
        for b, p in e.positions.items():
            if not isinstance(e, OffTableEvent | PocketEvent):
                _check_on_table(b, p, f"at event {i}", spec)
        if isinstance(e, PocketEvent | OffTableEvent):
            gone[e.ball] = i
    if final is not None:
        still = sorted(b.value for b in gone if b in final)
        if still:
            raise ImpossibleLogError(
                f"{', '.join(still)} dropped or left the table, so it cannot be in the final position"
            )
        _check_apart(final, "in the final position", spec)


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
        # the pot begins at the cue ball's contact with the called ball, or for a kyyti with the kyyti ball
        opener = call.via if call.konsti is Konsti.KYYTI else call.ball
        hit_called = False
        for c in cue_contacts:
            if c.other == opener and not hit_called:
                hit_called = True
            elif hit_called and c.other is not None:
                nakki.add(c.other)

    frozen_pairs = _frozen_pairs(start, spec, options.frozen_gap)

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
            # only the called ball (7g) and the kara or kiss ball (7h) matter: measure just those
            frozen_cushion = {
                b
                for b in (call.ball, call.via)
                if b is not None and b in start and spec.cushion_gap(start[b]) < options.frozen_gap
            }
            reader = _RouteReader(call, cue, lines, drop)
            reader.read()
            problems = tuple(reader.problems)
            before, rattles = _strip_rattles([c for c in lines[call.ball] if c.index < drop], call.pocket)
            last = before[-1] if before else None
            mankeli = last is not None and last.cushion in spec.rails_adjacent_to(call.pocket)
            called_start = start.get(call.ball)
            via = call.via
            called = CalledPotFacts(
                route_ok=not problems,
                route_problems=problems,
                kaka=reader.kaka,
                moving=reader.moving,
                mankeli=mankeli,
                rattles=rattles,
                frozen_short_of_haaki=(
                    call.ball in frozen_cushion
                    and called_start is not None
                    and spec.pockets[call.pocket].depth_of(called_start) <= 0
                ),
                konsti_ball_frozen_to_cushion=_played_off_frozen(call, cue, lines, drop, frozen_cushion),
                konsti_pair_frozen=via is not None and frozenset((via, call.ball)) in frozen_pairs,
                object_balls_frozen=any(cue not in pair for pair in frozen_pairs),
            )

    hand = _hand_facts(log, lines, first_contact, spec)
    talonmies: float | None = None
    cue_start = start.get(cue)
    leaning: list[float] = []
    if cue_start is not None:
        for pair in frozen_pairs:
            if cue in pair:
                (other,) = pair - {cue}
                op = start[other]
                leaning.append(math.degrees(math.atan2(op[1] - cue_start[1], op[0] - cue_start[0])))
    if log.direction is not None:
        for towards in leaning:
            angle = _angle_between(log.direction, towards)
            talonmies = angle if talonmies is None else min(talonmies, angle)
    trapped = bool(leaning) and cue_start is not None and cannot_strike_away(cue_start, leaning, options, spec)

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
        cannot_strike_away=trapped,
        from_log=True,
        events=events,
    )


def _played_off_frozen(
    call: Call, cue: BallId, lines: dict[BallId, list[_Contact]], drop: int, frozen_cushion: set[BallId]
) -> bool:
    """7h: a kara or kiss off a ball that was frozen to a cushion, and that ball was actually played off
    before the drop (by the cue ball for a kara, by the called ball for a kiss)."""
    via = call.via
    if call.konsti not in (Konsti.KARA, Konsti.KISS) or via is None or via not in frozen_cushion:
        return False
    player = cue if call.konsti is Konsti.KARA else call.ball
    return any(c.other == via and c.index < drop for c in lines[player])


def cannot_strike_away(
    cue: Point, leaning: Sequence[float], options: RuleOptions = DEFAULT_OPTIONS, spec: TableSpec = OFFICIAL
) -> bool:
    """8b: the cue ball at ``cue``, frozen to balls in the directions ``leaning`` (degrees), cannot be struck
    away: no direction (whole degrees) is at least ``talonmies_no_points_below`` from every ball it is frozen
    to ("poispäin") and also more than 90 degrees from every cushion it is frozen to (a stroke into or along a
    cushion it leans on does not get it away)."""
    walls = [_into_rail(rail, spec) for rail in spec.frozen_rails(cue, options.frozen_gap)]
    away = options.talonmies_no_points_below
    for d in range(360):
        if all(_angle_between(d, t) >= away for t in leaning) and all(_angle_between(d, w) > 90 for w in walls):
            return False
    return True


def _into_rail(rail: RailId, spec: TableSpec) -> float:
    """The direction (degrees) from a ball towards ``rail``."""
    if rail is RailId.HEAD:
        return 270.0
    if rail is RailId.FOOT:
        return 90.0
    return 180.0 if rail in (RailId.LEFT_HEAD, RailId.LEFT_FOOT) else 0.0


def _wholly_in_front(cushion: Cushion | None) -> bool | None:
    """Whether a cushion contact given without its point was in front of the head string (REFERENCE 10): the
    foot-half rails and the middle and foot jaws lie wholly in front, the head rail and the head jaws wholly
    behind; the left-head and right-head rails cross the line, so the contact needs its point (None)."""
    if isinstance(cushion, JawCushion):
        return cushion.pocket not in (PocketId.HL, PocketId.HR)
    if cushion in (RailId.FOOT, RailId.LEFT_FOOT, RailId.RIGHT_FOOT):
        return True
    if cushion is RailId.HEAD:
        return False
    return None


def _hand_facts(
    log: StrokeLog, lines: dict[BallId, list[_Contact]], first_contact: BallId | None, spec: TableSpec
) -> HandFacts:
    cue = log.cue_ball
    start = log.start
    first_ball_index = next((c.index for c in lines[cue] if c.other is not None), None)
    before_ball = [c for c in lines[cue] if first_ball_index is None or c.index < first_ball_index]
    cushions_before = [c for c in before_ball if c.cushion is not None]
    first_cushion_in_front: bool | None = True
    if cushions_before:
        first = cushions_before[0]
        p = log.events[first.index].positions.get(cue)
        first_cushion_in_front = p[1] > spec.head_string if p is not None else _wholly_in_front(first.cushion)
    first_ball_in_front = True
    if first_contact is not None and first_contact in start:
        first_ball_in_front = start[first_contact][1] > spec.head_string
    seen = [p for e in log.events for b, p in e.positions.items() if b == cue]
    if cue in log.final:
        seen.append(log.final[cue])
    # 5: the cue ball crossed the head string if it was seen in front, met a ball in front, or met a cushion in
    # front (a contact's own point, or a cushion lying wholly in front when the log gives no point: the same
    # reading as "in front" above, so one log is never both crossed and not crossed)
    rail_in_front = any(
        (p[1] > spec.head_string)
        if (p := log.events[c.index].positions.get(cue)) is not None
        else bool(_wholly_in_front(c.cushion))
        for c in lines[cue]
        if c.cushion is not None
    )
    crossed = (
        any(p[1] > spec.head_string for p in seen)
        or rail_in_front
        or (first_contact is not None and first_ball_in_front)
    )
    return HandFacts(
        first_ball_in_front=first_ball_in_front,
        cushion_before_first_ball=bool(cushions_before),
        first_cushion_in_front=first_cushion_in_front,
        crossed_head_string=crossed,
    )
