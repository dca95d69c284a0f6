"""Real strokes, really ruled: each test plays strokes on the pooltool engine, then observes and judges them.

The positions are built geometrically (ghost-ball aiming, balls on a pocket's axis, a bank aimed at the
pocket's mirror image). Where the window that pots is narrow, a test plays a small fan of directions and
asserts on every stroke of the fan that pots, and that enough of them do. Tests are named after the clause
of the 2014 rulebook they exercise (REFERENCE.md sections 3-5).

The seeded property tests at the end play random strokes from random layouts with random calls and states
(numpy's ``default_rng``, plain loops) and check what every ruling must keep.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest

from kaisa.call import Call, Konsti, Leg, parse_call
from kaisa.layouts import random_layout, random_stroke
from kaisa.model import BallContactEvent, BallId, JawEvent, PocketEvent, Position, RailEvent, ShotRecord, Stroke
from kaisa.physics import simulate
from kaisa.referee import Facts, GameState, Ruling, judge, observe
from kaisa.table import CONTACT_TOLERANCE, OFFICIAL, PocketId, Point, RailId, SpotId

W, L, R = OFFICIAL.width, OFFICIAL.length, OFFICIAL.ball_radius
SPOTS = OFFICIAL.spots
ALL_BALLS = frozenset(BallId)

# --- geometry --------------------------------------------------------------------------------------


def on_axis(pocket: PocketId, distance: float) -> Point:
    """The point ``distance`` metres out from ``pocket``'s mouth centre along its axis, on the bed."""
    p = OFFICIAL.pockets[pocket]
    (cx, cy), (ax, ay) = p.mouth_centre, p.axis
    return (cx - ax * distance, cy - ay * distance)


def aim(frm: Point, to: Point) -> float:
    """Direction in degrees from ``frm`` to ``to`` (0 = +x, 90 = +y)."""
    return math.degrees(math.atan2(to[1] - frm[1], to[0] - frm[0]))


def ghost(obj: Point, target: Point) -> Point:
    """Where the cue ball's centre must be at contact to send a ball at ``obj`` straight towards ``target``."""
    d = math.hypot(target[0] - obj[0], target[1] - obj[1])
    return (obj[0] - 2 * R * (target[0] - obj[0]) / d, obj[1] - 2 * R * (target[1] - obj[1]) / d)


def fan(centre: float, step: float, lo: int, hi: int) -> list[float]:
    """Directions ``centre + i * step`` for ``lo <= i <= hi``."""
    return [centre + i * step for i in range(lo, hi + 1)]


# --- playing and ruling ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """One simulated stroke, what the referee observed and how it ruled."""

    record: ShotRecord
    call: Call
    facts: Facts
    ruling: Ruling
    state: GameState

    def dropped(self, ball: BallId, pocket: PocketId | None = None) -> bool:
        return any(
            isinstance(e, PocketEvent) and e.ball is ball and (pocket is None or e.pocket is pocket)
            for e in self.record.events
        )

    def jaws(self, ball: BallId, pocket: PocketId) -> int:
        """Jaw contacts of ``ball`` at ``pocket`` right before it dropped there (röpötys)."""
        events = [
            e for e in self.record.events if getattr(e, "ball", None) is ball or getattr(e, "other", None) is ball
        ]
        drop = next(i for i, e in enumerate(events) if isinstance(e, PocketEvent) and e.ball is ball)
        n = 0
        for e in reversed(events[:drop]):
            if not (isinstance(e, JawEvent) and e.pocket is pocket):
                break
            n += 1
        return n

    def contacts(self, a: BallId, b: BallId) -> int:
        """How many separate contacts ``a`` and ``b`` had."""
        return sum(1 for e in self.record.events if isinstance(e, BallContactEvent) and {e.ball, e.other} == {a, b})

    def rails_of(self, ball: BallId) -> list[RailId]:
        """Every rail ``ball`` touched before it dropped (all of them, if it did not)."""
        out = []
        for e in self.record.events:
            if isinstance(e, PocketEvent) and e.ball is ball:
                break
            if isinstance(e, RailEvent) and e.ball is ball:
                out.append(e.rail)
        return out

    @property
    def item_points(self) -> list[tuple[str, int]]:
        return [(i.clause, i.points) for i in self.ruling.items]

    @property
    def foul_points(self) -> list[tuple[str, int]]:
        return [(f.clause, f.points) for f in self.ruling.fouls]


def play(balls: Mapping[str, Point], stroke: Stroke, call: str | Call, state: GameState | None = None) -> Played:
    parsed = parse_call(call) if isinstance(call, str) else call
    state = state or GameState()
    record = simulate(Position(balls), stroke)
    facts = observe(record, parsed)
    return Played(record, parsed, facts, judge(facts, parsed, state), state)


def rule_again(played: Played, call: str, state: GameState | None = None) -> Played:
    """The same simulated stroke, ruled against another call or state."""
    parsed = parse_call(call)
    state = state or GameState()
    facts = observe(played.record, parsed)
    return Played(played.record, parsed, facts, judge(facts, parsed, state), state)


def play_fan(
    balls: Mapping[str, Point], call: str, directions: Iterable[float], speed: float, follow: float = 0.0
) -> tuple[Played, ...]:
    return tuple(play(balls, Stroke(BallId.W1, speed, d, follow=follow), call) for d in directions)


def assert_well_formed(played: Played) -> None:
    """What every ruling keeps, whatever happened (the property tests check more): the points add up, and
    every ball that was in play is on the table or in hand, never both."""
    ruling = played.ruling
    assert ruling.points == sum(i.points for i in ruling.items) + sum(f.points for f in ruling.fouls)
    assert set(ruling.position).isdisjoint(ruling.in_hand)
    assert set(ruling.position) | ruling.in_hand == set(played.record.position) | played.state.in_hand
    if not ruling.legal_pot:
        assert ruling.items == ()
        assert ruling.turn_passes


def assert_legal_pot_continues(played: Played, points: int) -> None:
    r = played.ruling
    assert r.legal_pot, played.facts.called
    assert r.fouls == ()
    assert r.points == points
    assert not r.turn_passes
    assert r.state.shooter is BallId.W1
    assert r.state.scores[BallId.W1] == points
    assert "1.3" in r.clauses  # a legal pot: the inning continues
    assert_well_formed(played)


# --- 2: a straight pot with a nakki; 1.3: jaw rattles need no call ---------------------------------------

NAKKI_BALLS = {"W1": (0.75, 1.75), "K": on_axis(PocketId.FL, 0.5), "R1": (0.49, 2.70)}
"""The kaisa 50 cm out on FL's axis, cut in from the right; after the contact W1 runs on up the table into
R1, which lies clear of the kaisa's path to the pocket."""


@cache
def nakki_fan() -> tuple[Played, ...]:
    k = NAKKI_BALLS["K"]
    centre = aim(NAKKI_BALLS["W1"], ghost(k, on_axis(PocketId.FL, -0.03)))
    return play_fan(NAKKI_BALLS, "K FL", fan(centre, 0.01, -12, 2), 1.5)


def test_2_straight_pot_with_nakki_simulated():
    pots = [p for p in nakki_fan() if p.dropped(BallId.K, PocketId.FL)]
    assert len(pots) >= 3, "no direction in the fan potted the kaisa"
    for p in pots:
        called = p.facts.called
        assert called is not None
        assert called.route_ok
        assert called.route_problem is None
        assert not called.kaka
        assert not called.moving
        assert not called.mankeli
        assert p.facts.first_contact is BallId.K
        assert p.facts.nakki == {BallId.R1}
        assert p.call.is_direct
        # kaisa in a corner with a nakki is worth 9, plus 3 for the red nakki: 12 (REFERENCE.md 3)
        assert p.item_points == [("2", 9), ("2", 3)]
        assert_legal_pot_continues(p, 12)
        # 4: the kaisa goes back to the centre spot, which nothing covers
        assert p.ruling.respots == {BallId.K: SPOTS[SpotId.CENTRE]}
        assert p.ruling.position[BallId.K] == SPOTS[SpotId.CENTRE]


def test_1_3_jaw_rattles_need_no_call_simulated():
    pots = [p for p in nakki_fan() if p.dropped(BallId.K, PocketId.FL)]
    rattled = [p for p in pots if p.jaws(BallId.K, PocketId.FL) > 0]
    clean = [p for p in pots if p.jaws(BallId.K, PocketId.FL) == 0]
    assert rattled, "the fan should pot after jaw rattles too"
    assert clean, "the fan should pot cleanly too"
    for p in rattled:
        called = p.facts.called
        assert called is not None
        assert called.rattles == p.jaws(BallId.K, PocketId.FL)
        assert called.route_ok
        assert not called.mankeli  # a rattle at the called pocket is not the last contact (7f)
        assert_legal_pot_continues(p, 12)
        assert any(n.clause == "1.3" and n.key == "rattles" for n in p.ruling.notes)
    for p in clean:
        assert p.facts.called is not None
        assert p.facts.called.rattles == 0


def test_1_3_called_ball_into_another_pocket_scores_nothing_simulated():
    pot = next(p for p in nakki_fan() if p.dropped(BallId.K, PocketId.FL))
    wrong = rule_again(pot, "K FR")
    assert wrong.facts.called is None
    assert not wrong.ruling.legal_pot
    assert wrong.ruling.points == 0
    assert wrong.ruling.turn_passes
    assert "1.3" in wrong.ruling.clauses
    assert_well_formed(wrong)


# --- 1.3: a bank off one cushion ------------------------------------------------------------------------

BANK_RED = (1.1, 1.2)


@cache
def bank_fan() -> tuple[Played, ...]:
    """R1 off the left-head cushion into MR: aimed at MR's mirror image behind that cushion's nose line; W1
    20 cm behind R1 on that line, struck with draw so that it comes back off R1 and stays out of the way."""
    tx, ty = OFFICIAL.pockets[PocketId.MR].mouth_centre
    mirror = aim(BANK_RED, (2 * R - tx, ty))
    u = (math.cos(math.radians(mirror)), math.sin(math.radians(mirror)))
    balls = {"W1": (BANK_RED[0] - 0.2 * u[0], BANK_RED[1] - 0.2 * u[1]), "R1": BANK_RED, "K": (0.71, 2.0)}
    return play_fan(balls, "R1 lh MR", fan(mirror, 0.02, -20, -6), 2.0, follow=-0.3)


def test_1_3_bank_simulated():
    pots = [p for p in bank_fan() if p.dropped(BallId.R1, PocketId.MR)]
    assert len(pots) >= 4, "no direction in the fan banked R1 into MR"
    for p in pots:
        assert p.rails_of(BallId.R1) == [RailId.LEFT_HEAD]
        called = p.facts.called
        assert called is not None
        assert called.route_ok, called.route_problem
        assert not called.mankeli  # the left-head rail ends at ML, not at MR
        assert p.facts.first_contact is BallId.R1
        assert [(q.ball, q.pocket, q.cushion_first) for q in p.facts.pots] == [(BallId.R1, PocketId.MR, True)]
        assert p.facts.nakki == frozenset()
        assert p.item_points == [("2", 3)]
        assert_legal_pot_continues(p, 3)
        # 4: the red goes to the head-string spot
        assert p.ruling.respots == {BallId.R1: SPOTS[SpotId.HEAD_STRING]}


@pytest.mark.parametrize("call", ["R1 MR", "R1 rh MR", "R1 2 MR", "lh R1 MR"])
def test_1_3_bank_not_as_called_scores_nothing_simulated(call):
    pot = next(p for p in bank_fan() if p.dropped(BallId.R1, PocketId.MR))
    other = rule_again(pot, call)
    assert other.facts.called is not None
    assert not other.facts.called.route_ok
    assert not other.ruling.legal_pot
    assert other.ruling.points == 0
    assert other.ruling.turn_passes
    assert "1.3" in other.ruling.clauses
    assert_well_formed(other)


def test_1_3_bank_called_by_count_simulated():
    pot = next(p for p in bank_fan() if p.dropped(BallId.R1, PocketId.MR))
    counted = rule_again(pot, "R1 1 MR")
    assert counted.facts.called is not None
    assert counted.facts.called.route_ok
    assert_legal_pot_continues(counted, 3)


# --- 2: kyyti ---------------------------------------------------------------------------------------------

KYYTI_BALLS = {"W1": on_axis(PocketId.FL, 1.0), "R1": on_axis(PocketId.FL, 0.7), "K": on_axis(PocketId.FL, 0.35)}
"""W1, R1 and the kaisa in a row on FL's axis: W1 drives R1 into the kaisa, which runs down the axis."""


@cache
def kyyti_fan() -> tuple[Played, ...]:
    centre = aim(KYYTI_BALLS["W1"], OFFICIAL.pockets[PocketId.FL].mouth_centre)
    return play_fan(KYYTI_BALLS, "kyyti R1 K FL", fan(centre, 0.02, -3, 3), 2.0)


def test_2_kyyti_simulated():
    pots = [p for p in kyyti_fan() if p.dropped(BallId.K, PocketId.FL)]
    assert len(pots) >= 3
    for p in pots:
        called = p.facts.called
        assert called is not None
        assert called.route_ok, called.route_problem
        assert not called.kaka
        assert not called.moving
        assert not called.konsti_pair_frozen
        assert p.facts.first_contact is BallId.R1
        contacts = [(e.ball, e.other) for e in p.record.events if isinstance(e, BallContactEvent)]
        assert contacts[:2] == [(BallId.W1, BallId.R1), (BallId.R1, BallId.K)]
        extra = 3 if p.dropped(BallId.R1) else 0  # 2.1: the kyyti ball dropping too is an extra ball
        assert p.item_points[0] == ("2", 6)  # a kyyti earns no nakki (2.1); the kaisa in a corner is 6
        assert_legal_pot_continues(p, 6 + extra)


def test_2_1_kyyti_ball_dropping_too_is_an_extra_ball_simulated():
    """The same kyyti played softer with draw: R1 follows the kaisa into FL. Its 3 points are added (2.1), and
    both are spotted, the kaisa first (4.1)."""
    centre = aim(KYYTI_BALLS["W1"], OFFICIAL.pockets[PocketId.FL].mouth_centre)
    strokes = play_fan(KYYTI_BALLS, "kyyti R1 K FL", fan(centre, 0.02, -1, 1), 1.5, follow=-0.3)
    both = [p for p in strokes if p.dropped(BallId.K, PocketId.FL) and p.dropped(BallId.R1, PocketId.FL)]
    assert both, "R1 never followed the kaisa in"
    for p in both:
        assert p.facts.called is not None
        assert p.facts.called.route_ok
        assert p.item_points == [("2", 6), ("2.1", 3)]
        assert_legal_pot_continues(p, 9)
        assert p.ruling.respots == {BallId.K: SPOTS[SpotId.CENTRE], BallId.R1: SPOTS[SpotId.HEAD_STRING]}
        assert "4.1" in p.ruling.clauses


def test_1_3_uncalled_kyyti_scores_nothing_simulated():
    pot = next(p for p in kyyti_fan() if p.dropped(BallId.K, PocketId.FL))
    direct = rule_again(pot, "K FL")
    assert direct.facts.called is not None
    assert not direct.facts.called.route_ok  # the cue ball's first ball was R1, not the kaisa
    assert not direct.ruling.legal_pot
    assert direct.ruling.points == 0
    assert direct.ruling.turn_passes
    assert_well_formed(direct)


# --- 2: kara (the cue ball off a ball onto the called ball) -----------------------------------------------


def kara_balls() -> dict[str, Point]:
    """The kaisa 35 cm out on FR's axis. W1 must reach the ghost ball along FR's axis, 40 cm out from it; it
    gets there off R2, cut at 45 degrees from the left (W1 travels +x, R2 sits on the tangent line's normal)."""
    k = on_axis(PocketId.FR, 0.35)
    g = ghost(k, on_axis(PocketId.FR, -0.03))
    s = 1 / math.sqrt(2)
    contact = (g[0] - 0.4 * s, g[1] - 0.4 * s)
    return {"W1": (contact[0] - 0.3, contact[1]), "R2": (contact[0] + 2 * R * s, contact[1] - 2 * R * s), "K": k}


@cache
def kara_fan() -> tuple[Played, ...]:
    """Off R2 the rolling cue ball is bent forwards from the tangent line, so the aim is 2.4 degrees below
    straight along +x (found by a coarse scan); the fan covers 0.06 degrees either side of it."""
    return play_fan(kara_balls(), "kara R2 K FR", fan(-2.39, 0.005, -12, 12), 1.5)


def test_2_kara_simulated():
    pots = [p for p in kara_fan() if p.dropped(BallId.K, PocketId.FR)]
    assert len(pots) >= 5
    for p in pots:
        called = p.facts.called
        assert called is not None
        assert called.route_ok, called.route_problem
        assert not called.kaka
        assert not called.moving
        assert not called.konsti_ball_frozen_to_cushion
        assert p.facts.first_contact is BallId.R2
        w1_contacts = [e.other for e in p.record.events if isinstance(e, BallContactEvent) and e.ball is BallId.W1]
        assert w1_contacts[:2] == [BallId.R2, BallId.K]
        assert p.item_points == [("2", 6)]
        assert_legal_pot_continues(p, 6)


def test_1_3_kara_called_as_kyyti_or_direct_scores_nothing_simulated():
    pot = next(p for p in kara_fan() if p.dropped(BallId.K, PocketId.FR))
    for call in ("K FR", "kyyti R2 K FR", "kara R1 K FR"):
        other = rule_again(pot, call)
        assert other.facts.called is not None
        assert not other.facts.called.route_ok, call
        assert not other.ruling.legal_pot
        assert other.ruling.points == 0
        assert_well_formed(other)


# --- 2, 2.1: kiss (the called ball off a ball into the pocket) --------------------------------------------


def kiss_balls() -> dict[str, Point]:
    """The kaisa meets R1 35 cm out from ML at 45 degrees and glances off it along ML's axis; W1 drives the
    kaisa full from 30 cm behind."""
    s = 1 / math.sqrt(2)
    contact = (0.35, L / 2)
    k = (contact[0] + 0.3 * s, contact[1] - 0.3 * s)
    return {"W1": (k[0] + 0.3 * s, k[1] - 0.3 * s), "K": k, "R1": (contact[0], contact[1] + 2 * R)}


@cache
def kiss_fan() -> tuple[Played, ...]:
    """Straight through W1 and the kaisa is 135 degrees; the kiss throws the kaisa a little, which the fan
    (0.6 to 1.9 degrees above it) makes up for."""
    return play_fan(kiss_balls(), "K kiss R1 ML", fan(135.0, 0.1, 6, 19), 1.5)


def test_2_kiss_simulated():
    pots = [p for p in kiss_fan() if p.dropped(BallId.K, PocketId.ML)]
    assert len(pots) >= 5
    for p in pots:
        called = p.facts.called
        assert called is not None
        assert called.route_ok, called.route_problem
        assert p.facts.first_contact is BallId.K
        k_contacts = [e for e in p.record.events if isinstance(e, BallContactEvent) and BallId.K in (e.ball, e.other)]
        assert {k_contacts[1].ball, k_contacts[1].other} == {BallId.K, BallId.R1}
        # 2.1: a kaisa into a middle pocket off a ball scores as in a corner
        assert p.item_points == [("2.1", 6)]
        assert "2.1" in p.ruling.clauses
        assert_legal_pot_continues(p, 6)
        assert not p.ruling.state.last_pot_direct_middle_kaisa


def test_1_3_uncalled_kiss_scores_nothing_simulated():
    pot = next(p for p in kiss_fan() if p.dropped(BallId.K, PocketId.ML))
    direct = rule_again(pot, "K ML")
    assert direct.facts.called is not None
    assert not direct.facts.called.route_ok  # the kaisa touched R1 on the way: an uncalled konsti
    assert not direct.ruling.legal_pot
    assert direct.ruling.points == 0
    assert direct.ruling.turn_passes
    assert_well_formed(direct)


# --- 7a: scratches, by first contact ---------------------------------------------------------------------

SCRATCH_CLEAR: dict[str, Point] = {"W2": (1.1, 0.5), "R1": (0.71, 0.71), "R2": (1.0, 1.8), "K": (0.71, 1.42)}
"""Balls well clear of FL's axis (R1 on the head-string spot, the kaisa on the centre spot)."""


@pytest.mark.parametrize(
    ("first", "penalty"),
    [(None, -2), (BallId.W2, -2), (BallId.R1, -3), (BallId.K, -6)],
    ids=["no-ball", "white-first", "red-first", "kaisa-first"],
)
def test_7a_scratch_simulated(first, penalty):
    """W1 rolled with top spin down FL's axis, through the object ball on that axis (if any) and in after it."""
    balls = dict(SCRATCH_CLEAR)
    balls["W1"] = on_axis(PocketId.FL, 0.5)
    call = "K FR"
    if first is not None:
        balls[first.value] = on_axis(PocketId.FL, 0.2)
        call = f"{first.value} FL"
    centre = aim(balls["W1"], OFFICIAL.pockets[PocketId.FL].mouth_centre)
    strokes = [play(balls, Stroke(BallId.W1, 1.5, d, follow=0.5), call) for d in fan(centre, 0.01, -2, 2)]
    scratches = [p for p in strokes if p.dropped(BallId.W1, PocketId.FL)]
    assert scratches, "W1 never followed through into FL"
    for p in scratches:
        r = p.ruling
        assert p.facts.first_contact is first
        assert p.foul_points == [("7a", penalty)]
        assert r.points == penalty
        assert r.state.scores == {BallId.W1: penalty, BallId.W2: 0}
        assert not r.legal_pot
        assert r.items == ()  # no pot of that stroke scores, not even the called ball that dropped
        assert r.turn_passes
        assert r.state.shooter is BallId.W2
        assert BallId.W1 in r.in_hand
        assert BallId.W1 not in r.position
        assert r.state.in_hand >= {BallId.W1}
        assert "7a" in r.clauses
        if first is not None:
            assert p.dropped(first, PocketId.FL)
        if first is BallId.W2:
            assert r.in_hand == {BallId.W1, BallId.W2}  # 4a: each pocketed white to its owner's hand
        elif first is BallId.R1:
            # 4: the head-string spot was freed by R1 itself, so it goes back there
            assert r.respots == {BallId.R1: SPOTS[SpotId.HEAD_STRING]}
        elif first is BallId.K:
            assert r.respots == {BallId.K: SPOTS[SpotId.CENTRE]}
        assert_well_formed(p)


# --- 7f: mankeli -------------------------------------------------------------------------------------------


def test_7f_mankeli_ball_run_along_the_rail_simulated():
    """The kaisa, 10 mm off the left-foot cushion, driven along it into FL at shallow angles and several
    speeds. On this table such a ball touches the cushion and then jaws out of the 72 mm corner: the engine
    does not produce a mankeli (nor does it along the rails into a middle pocket, where the ball would have
    to move sideways into the pocket). Every stroke is still ruled, and had one dropped after the cushion,
    7f would have to void it."""
    k = (R + 0.01, 2.5)
    ran_along = 0
    for angle in (1.0, 3.0, 8.0):
        u = (-math.sin(math.radians(angle)), math.cos(math.radians(angle)))
        w1 = (k[0] - 0.25 * u[0], k[1] - 0.25 * u[1])
        for speed in (0.7, 1.5):
            p = play({"W1": w1, "K": k}, Stroke(BallId.W1, speed, aim(w1, k)), "K FL")
            k_events = [e for e in p.record.events if BallId.K in (getattr(e, "ball", None), getattr(e, "other", None))]
            touched_rail = any(isinstance(e, RailEvent) and e.rail is RailId.LEFT_FOOT for e in k_events)
            jawed = any(isinstance(e, JawEvent) and e.pocket is PocketId.FL for e in k_events)
            ran_along += touched_rail and jawed
            if p.dropped(BallId.K, PocketId.FL):
                before = k_events[: next(i for i, e in enumerate(k_events) if isinstance(e, PocketEvent))]
                while before and isinstance(before[-1], JawEvent) and before[-1].pocket is PocketId.FL:
                    before.pop()  # röpötys at the called pocket does not count
                last = before[-1] if before else None
                along = isinstance(last, RailEvent) and last.rail in OFFICIAL.rails_adjacent_to(PocketId.FL)
                called = p.facts.called
                assert called is not None
                assert called.mankeli == along
                if called.mankeli:
                    assert not p.ruling.legal_pot
                    assert "7f" in p.ruling.clauses
            else:
                assert p.facts.called is None
                assert not p.ruling.legal_pot
                assert p.ruling.points == 0
                assert p.ruling.turn_passes
            assert_well_formed(p)
    assert ran_along >= 3, "the kaisa should run into the cushion and the jaws of FL"


# --- 2, 2.1: a direct kaisa into a middle pocket ---------------------------------------------------------

MIDDLE_BALLS = {"W1": (0.75, 1.15), "K": (0.35, L / 2), "R1": SPOTS[SpotId.FOOT_STRING], "R2": (1.0, 2.5)}


@cache
def middle_fan() -> tuple[Played, ...]:
    centre = aim(MIDDLE_BALLS["W1"], ghost(MIDDLE_BALLS["K"], OFFICIAL.pockets[PocketId.ML].mouth_centre))
    return play_fan(MIDDLE_BALLS, "K ML", fan(centre, 0.1, -4, 0), 1.0)


def test_2_1_direct_middle_kaisa_scores_12_simulated():
    pots = [p for p in middle_fan() if p.dropped(BallId.K, PocketId.ML)]
    assert len(pots) >= 3
    for p in pots:
        called = p.facts.called
        assert called is not None
        assert called.route_ok, called.route_problem
        assert p.call.is_direct
        assert p.facts.first_contact is BallId.K
        assert p.facts.nakki == frozenset()
        assert p.rails_of(BallId.K) == []
        assert p.item_points == [("2", 12)]
        assert_legal_pot_continues(p, 12)
        assert p.ruling.state.last_pot_direct_middle_kaisa  # remembered for 2.1's "twice in a row"
        assert p.ruling.respots == {BallId.K: SPOTS[SpotId.CENTRE]}


def test_2_1_direct_middle_kaisa_twice_in_a_row_simulated():
    pot = next(p for p in middle_fan() if p.dropped(BallId.K, PocketId.ML))
    second = rule_again(pot, "K ML", GameState(last_pot_direct_middle_kaisa=True))
    assert not second.ruling.legal_pot
    assert second.ruling.points == 0
    assert second.ruling.turn_passes
    assert "2.1" in second.ruling.clauses
    assert not second.ruling.state.last_pot_direct_middle_kaisa
    assert_well_formed(second)


def test_5_direct_middle_kaisa_from_hand_scores_nothing_simulated():
    """From hand only corner pots, or middle pots via cushions, score (5): the same shot, W1 placed by hand
    behind the head string and played at the kaisa in front of it, straight into ML."""
    k = (0.25, 1.35)
    w1 = (0.9, 0.65)
    centre = aim(w1, ghost(k, OFFICIAL.pockets[PocketId.ML].mouth_centre))
    hand = GameState(in_hand=frozenset({BallId.W1}))
    balls = {"K": k, "R1": (1.0, 2.0)}
    pots = []
    for d in fan(centre, 0.05, -4, 3):
        record = simulate(Position(balls), Stroke(BallId.W1, 1.5, d, place=w1))
        call = parse_call("K ML")
        facts = observe(record, call)
        p = Played(record, call, facts, judge(facts, call, hand), hand)
        if p.dropped(BallId.K, PocketId.ML) and not p.dropped(BallId.W1):
            pots.append(p)
    assert pots, "no direction potted the kaisa into ML from hand"
    for p in pots:
        assert p.facts.called is not None
        assert p.facts.called.route_ok
        assert not p.ruling.legal_pot
        assert p.ruling.points == 0
        assert p.ruling.turn_passes
        assert "5" in p.ruling.clauses
        assert_well_formed(p)


# --- 1.3: käkä; 7g, 8c, 7d/8a: frozen balls -----------------------------------------------------------------


def test_1_3_kaka_simulated():
    """The bank of test_1_3_bank_simulated aimed a little finer: R1 comes back off the left-head cushion into
    W1 (drawn back off it) and only then drops into MR. The cue ball touched the called ball twice: käkä."""
    tx, ty = OFFICIAL.pockets[PocketId.MR].mouth_centre
    mirror = aim(BANK_RED, (2 * R - tx, ty))
    u = (math.cos(math.radians(mirror)), math.sin(math.radians(mirror)))
    balls = {"W1": (BANK_RED[0] - 0.2 * u[0], BANK_RED[1] - 0.2 * u[1]), "R1": BANK_RED, "K": (0.71, 2.0)}
    strokes = play_fan(balls, "R1 lh MR", fan(mirror, 0.01, -121, -116), 2.0, follow=-0.3)
    kaka = [p for p in strokes if p.dropped(BallId.R1, PocketId.MR) and p.contacts(BallId.W1, BallId.R1) == 2]
    assert kaka, "no stroke of the fan brought R1 back into W1 before the pot"
    for p in kaka:
        assert p.facts.called is not None
        assert p.facts.called.kaka
        assert not p.ruling.legal_pot
        assert p.ruling.points == 0
        assert p.ruling.turn_passes
        assert "1.3" in p.ruling.clauses
        assert_well_formed(p)


def test_7g_ball_frozen_to_a_cushion_scores_nothing_simulated():
    """The kaisa frozen to the left-head cushion, struck into it from the right: it comes off that cushion and
    runs the length of the table into FR, exactly as called ("K lh FR"). A ball frozen to a cushion, not past
    the haaki line, may not be potted into any pocket (7g)."""
    k = (R, 1.0)
    w1 = (0.4, 1.0)
    strokes = play_fan({"W1": w1, "K": k}, "K lh FR", fan(aim(w1, k) + 5.0, 0.02, -6, 7), 2.0)
    pots = [p for p in strokes if p.dropped(BallId.K, PocketId.FR)]
    assert len(pots) >= 3
    for p in pots:
        called = p.facts.called
        assert called is not None
        assert p.rails_of(BallId.K) == [RailId.LEFT_HEAD]
        assert called.route_ok, called.route_problem
        assert called.frozen_short_of_haaki
        assert not p.ruling.legal_pot
        assert p.ruling.points == 0
        assert p.ruling.turn_passes
        assert "7g" in p.ruling.clauses
        assert_well_formed(p)


def test_8c_kyyti_with_the_balls_frozen_together_scores_nothing_simulated():
    """The kyyti of test_2_kyyti_simulated with R1 frozen to the kaisa: no points for a kyyti (8c)."""
    balls = dict(KYYTI_BALLS)
    balls["R1"] = on_axis(PocketId.FL, 0.35 + 2 * R)
    centre = aim(balls["W1"], OFFICIAL.pockets[PocketId.FL].mouth_centre)
    pots = [p for p in play_fan(balls, "kyyti R1 K FL", fan(centre, 0.02, -3, 3), 2.0) if p.dropped(BallId.K)]
    assert len(pots) >= 3
    for p in pots:
        assert p.facts.called is not None
        assert p.facts.called.konsti_pair_frozen
        assert not p.ruling.legal_pot
        assert p.ruling.points == 0
        assert p.ruling.turn_passes
        assert "8c" in p.ruling.clauses
        assert_well_formed(p)


@pytest.mark.parametrize(
    ("offset", "speed", "foul"),
    [(0.0, 1.5, True), (70.0, 2.0, False), (-70.0, 2.0, False)],
    ids=["towards-foul", "70-left-no-points", "70-right-no-points"],
)
def test_7d_8a_talonmies_simulated(offset, speed, foul):
    """W1 frozen to the kaisa on FL's axis and struck ``offset`` degrees from the line of centres: the kaisa
    drops. Under 45 degrees a talonmies is a foul (8a, 7j: no points, the turn passes, no penalty points);
    from 45 up to 90 it is no foul, but it scores nothing and the turn passes (7d)."""
    k = on_axis(PocketId.FL, 0.3)
    ax, ay = OFFICIAL.pockets[PocketId.FL].axis
    w1 = (k[0] - 2 * R * ax, k[1] - 2 * R * ay)
    p = play({"W1": w1, "K": k}, Stroke(BallId.W1, speed, aim(w1, k) + offset), "K FL")
    assert p.dropped(BallId.K, PocketId.FL)
    assert not p.dropped(BallId.W1)
    assert p.facts.talonmies_angle == pytest.approx(abs(offset), abs=1e-6)
    assert not p.ruling.legal_pot
    assert p.ruling.points == 0
    assert p.ruling.turn_passes
    if foul:
        assert p.foul_points == [("8a", 0)]
        assert {"7d", "7j", "8a"} <= set(p.ruling.clauses)
    else:
        assert p.ruling.fouls == ()
        assert "7d" in p.ruling.clauses
    assert_well_formed(p)


# --- 1.2 the break, 5 and 7c: ball in hand ---------------------------------------------------------------

BREAK_BALLS: dict[str, Point] = {
    "W2": (1.0, 2.5),
    "R1": SPOTS[SpotId.HEAD_STRING],
    "R2": SPOTS[SpotId.FOOT_STRING],
    "K": SPOTS[SpotId.CENTRE],
}
"""The starting position (REFERENCE.md 2) with W2 placed in the foot half, clear of the kaisa's lines."""


def play_from_hand(balls: Mapping[str, Point], place: Point, target: Point, call: str, state: GameState) -> Played:
    stroke = Stroke(BallId.W1, 2.0, aim(place, target), place=place)
    record = simulate(Position(balls), stroke)
    parsed = parse_call(call)
    facts = observe(record, parsed)
    return Played(record, parsed, facts, judge(facts, parsed, state), state)


def test_1_2_break_playing_the_head_string_red_directly_simulated():
    p = play_from_hand(BREAK_BALLS, (0.71, 0.3), BREAK_BALLS["R1"], "R1 HL", GameState(opening=True))
    assert p.facts.first_contact is BallId.R1
    assert p.facts.hand is not None
    assert not p.facts.hand.first_ball_in_front
    assert [f.clause for f in p.ruling.fouls] == ["1.2"]
    assert p.ruling.points == 0
    assert p.ruling.turn_passes
    assert p.ruling.in_hand == frozenset()  # the break is not a ball in hand: no 7c
    assert p.ruling.state.shooter is BallId.W2
    assert not p.ruling.state.opening
    assert_well_formed(p)


def test_1_2_break_at_the_kaisa_simulated():
    p = play_from_hand(BREAK_BALLS, (0.5, 0.4), BREAK_BALLS["K"], "K FL", GameState(opening=True))
    assert p.facts.first_contact is BallId.K
    assert p.ruling.fouls == ()
    assert not p.ruling.legal_pot
    assert p.ruling.turn_passes
    assert p.ruling.points == 0
    assert_well_formed(p)


def test_5_7c_ball_behind_the_head_string_played_directly_from_hand_simulated():
    balls = {"W2": (1.0, 2.5), "R1": (0.9, 0.5), "K": SPOTS[SpotId.CENTRE]}
    state = GameState(in_hand=frozenset({BallId.W1}))
    p = play_from_hand(balls, (0.3, 0.3), balls["R1"], "R1 HR", state)
    assert p.facts.first_contact is BallId.R1
    assert not p.dropped(BallId.W1)
    assert {f.clause for f in p.ruling.fouls} == {"5", "7c"}
    assert p.ruling.points == 0  # section 5 faults carry no penalty points
    assert p.ruling.turn_passes
    assert p.ruling.in_hand == {BallId.W1}  # 7c: the fouler plays from hand again
    assert BallId.W1 not in p.ruling.position
    assert p.ruling.state.shooter is BallId.W2
    assert p.ruling.state.in_hand == {BallId.W1}
    assert_well_formed(p)


# --- seeded properties of rulings on random strokes ---------------------------------------------------------

RULING_JSON_KEYS = {
    "legal_pot",
    "points",
    "items",
    "fouls",
    "turn_passes",
    "in_hand",
    "respots",
    "game_over",
    "winner",
    "events",
}
PENALTY_BY_FIRST = {None: -2, BallId.W1: -2, BallId.W2: -2, BallId.R1: -3, BallId.R2: -3, BallId.K: -6}
VALUE = {BallId.W1: 2, BallId.W2: 2, BallId.R1: 3, BallId.R2: 3, BallId.K: 6}
"""A ball's value as a nakki or an extra ball, and a white's or red's value with no nakki (REFERENCE.md 3)."""
RED_ORDER = (SpotId.HEAD_STRING, SpotId.FOOT_STRING, SpotId.HEAD_END, SpotId.FOOT_END, SpotId.CENTRE)
KAISA_ORDER = (SpotId.CENTRE, SpotId.HEAD_STRING, SpotId.FOOT_STRING, SpotId.HEAD_END, SpotId.FOOT_END)


def expected_pot_points(call: Call, facts: Facts, state: GameState) -> int:
    """The points of a legal pot by the table of REFERENCE.md 3 and the extra balls of 2.1 and 5, written out
    independently of the referee's own code."""
    nakki = facts.nakki if call.konsti is None else frozenset()
    middle_direct = call.ball is BallId.K and call.pocket.is_middle and call.is_direct
    if call.ball is BallId.K:
        own = (15 if middle_direct else 9) if nakki else (12 if middle_direct else 6)
    elif call.ball.is_white:
        own = 1 if nakki else 2
    else:
        own = 3
    extras = 0
    for pot in facts.pots:
        if pot.ball in (call.ball, facts.cue_ball):
            continue
        if state.from_hand and pot.pocket.is_middle and not pot.cushion_first:
            continue  # 5: from hand a middle-pocket extra scores only off a cushion
        extras += VALUE[pot.ball]
    return own + sum(VALUE[b] for b in nakki) + extras


def free_spot(spot: SpotId, centres: Iterable[Point]) -> bool:
    sx, sy = SPOTS[spot]
    return all(math.hypot(sx - x, sy - y) >= 2 * R + CONTACT_TOLERANCE for x, y in centres)


def cushions_before(record: ShotRecord, ball: BallId, start: int, pocket: PocketId | None = None) -> tuple[int, int]:
    """Cushions (rails and jaws) ``ball`` touched from event ``start`` up to its next ball contact or drop, not
    counting jaw rattles at ``pocket`` right before a drop; and the index of the event that ended the count."""
    seen: list[bool] = []  # True: a jaw of ``pocket``
    for i in range(start, len(record.events)):
        e = record.events[i]
        if isinstance(e, BallContactEvent) and ball in (e.ball, e.other):
            return len(seen), i
        if isinstance(e, PocketEvent) and e.ball is ball:
            while seen and seen[-1]:
                seen.pop()
            return len(seen), i
        if isinstance(e, (RailEvent, JawEvent)) and e.ball is ball:
            seen.append(isinstance(e, JawEvent) and e.pocket is pocket)
    return len(seen), len(record.events)


def random_call(rng: np.random.Generator, on_table: Iterable[BallId], record: ShotRecord) -> Call:
    """An object ball on the table (never W1) into a pocket, sometimes with a konsti or cushion counts.
    Mostly, when an object ball dropped, the ball and pocket are those, and then often called in
    hindsight with the cushion counts it really played, so that legal pots happen too."""
    objects = [b for b in on_table if b is not BallId.W1]
    drops = [(e.ball, e.pocket) for e in record.events if isinstance(e, PocketEvent) and e.ball in objects]
    if drops and rng.random() < 0.7:
        ball, pocket = drops[int(rng.integers(len(drops)))]
        if rng.random() < 0.6:
            cue_cushions, first = cushions_before(record, BallId.W1, 1)
            ball_cushions, _ = cushions_before(record, ball, first + 1, pocket)
            return Call(ball, pocket, legs=(Leg(count=cue_cushions), Leg(count=ball_cushions)))
    else:
        ball = objects[int(rng.integers(len(objects)))]
        pocket = list(PocketId)[int(rng.integers(len(PocketId)))]
    others = [b for b in objects if b is not ball]
    konsti: Konsti | None = None
    via: BallId | None = None
    if others and rng.random() < 0.3:
        konsti = list(Konsti)[int(rng.integers(3))]
        via = others[int(rng.integers(len(others)))]
    counts = [0] * (3 if konsti else 2)
    if rng.random() < 0.25:
        counts[-1] = int(rng.integers(1, 3))
    return Call(ball, pocket, konsti=konsti, via=via, legs=tuple(Leg(count=c) for c in counts))


def pot_attempt(rng: np.random.Generator, position: Position) -> Stroke:
    """A stroke of W1 aimed by the ghost ball at sending a random object ball towards a pocket it can be cut
    into (cut under 60 degrees, approaching the pocket within 35 degrees of its axis), preferring balls
    within 80 cm of their pocket, with a little aiming error; a random_stroke when no pot is on."""
    cue = position[BallId.W1]
    near: list[float] = []
    far: list[float] = []
    for ball, obj in position.items():
        if ball is BallId.W1:
            continue
        for pocket in OFFICIAL.pockets.values():
            target = on_axis(pocket.id, -0.02)
            to_pocket = aim(obj, target)
            g = ghost(obj, target)
            cut = abs((aim(cue, g) - to_pocket + 180) % 360 - 180)
            off_axis = abs((to_pocket - math.degrees(math.atan2(pocket.axis[1], pocket.axis[0])) + 180) % 360 - 180)
            if cut < 60 and off_axis < 35 and math.hypot(g[0] - cue[0], g[1] - cue[1]) > R:
                distance = math.hypot(target[0] - obj[0], target[1] - obj[1])
                (near if distance < 0.8 else far).append(aim(cue, g))
    options = near or far
    if not options:
        return random_stroke(rng, position)
    direction = options[int(rng.integers(len(options)))] + float(rng.normal(0, 0.05))
    side, follow = float(rng.uniform(-0.05, 0.05)), float(rng.uniform(-0.3, 0.3))  # side spin swerves: keep it small
    return Stroke(BallId.W1, float(rng.uniform(0.8, 2.5)), direction, side=side, follow=follow)


def plant_pot(rng: np.random.Generator, position: Position) -> tuple[Position, Stroke] | None:
    """Move a random object ball onto a random pocket's axis (10 to 60 cm out) and W1 20 to 60 cm behind it,
    up to 15 degrees off the line, and aim W1 by the ghost ball with a little error, some follow or draw and
    hardly any side; or now and then straight on with full top spin. ``None`` when the planted balls would
    overlap the others or W1 would touch a cushion."""
    objects = [b for b in position if b is not BallId.W1]
    ball = objects[int(rng.integers(len(objects)))]
    pocket = list(PocketId)[int(rng.integers(len(PocketId)))]
    t = float(rng.uniform(0.1, 0.6))
    obj = on_axis(pocket, t)
    ax, ay = OFFICIAL.pockets[pocket].axis
    follow_through = rng.random() < 0.25  # straight on with top spin: W1 often follows the ball in (7a)
    back, turn = float(rng.uniform(0.2, 0.6)), 0.0 if follow_through else math.radians(float(rng.uniform(-15, 15)))
    dx, dy = -ax * math.cos(turn) + ay * math.sin(turn), -ay * math.cos(turn) - ax * math.sin(turn)
    cue = (obj[0] + (2 * R + back) * dx, obj[1] + (2 * R + back) * dy)
    planted = position.with_ball(ball, obj).with_ball(BallId.W1, cue)
    if not OFFICIAL.ball_fits(cue) or OFFICIAL.cushion_gap(cue) < 0.002:
        return None
    items = list(planted.items())
    for i, (_, a) in enumerate(items):
        for _, b in items[i + 1 :]:
            if math.hypot(a[0] - b[0], a[1] - b[1]) < 2 * R + 0.002:
                return None
    direction = aim(cue, ghost(obj, on_axis(pocket, -0.02))) + float(rng.normal(0, 0.1))
    side, follow = float(rng.uniform(-0.05, 0.05)), float(rng.uniform(-0.4, 0.49))  # side spin swerves: keep it small
    if follow_through:
        side, follow = 0.0, 0.5
    return planted, Stroke(BallId.W1, float(rng.uniform(0.5, 3.0)), direction, side=side, follow=follow)


def random_case(rng: np.random.Generator) -> tuple[Position, Stroke, GameState]:
    """A random layout and stroke of W1, and a random state that fits them: W1 sometimes in hand (placed
    behind the head string, possibly on the break), W2 sometimes in its owner's hand (off the table).
    Random strokes seldom pot anything, so about half of the cases plant a pot in the random layout
    (:func:`plant_pot`), or try one by the ghost ball (:func:`pot_attempt`) from hand."""
    position = random_layout(rng)
    from_hand = rng.random() < 0.25
    w2_in_hand = not from_hand and rng.random() < 0.15
    if w2_in_hand:
        position = position.without(BallId.W2)
    stroke: Stroke | None = None
    if from_hand:
        others = [p for b, p in position.items() if b is not BallId.W1]
        while True:
            spot = (float(rng.uniform(R + 0.002, W - R - 0.002)), float(rng.uniform(R + 0.002, L / 4 - 0.01)))
            if all(math.hypot(spot[0] - q[0], spot[1] - q[1]) > 2 * R + 0.002 for q in others):
                break
        position = position.with_ball(BallId.W1, spot)
        attempt = rng.random() < 0.5
        stroke = pot_attempt(rng, position) if attempt else random_stroke(rng, position, soft=0.3, hard=6.0)
        stroke = dataclasses.replace(stroke, place=spot)
    elif rng.random() < 0.55:
        planted = plant_pot(rng, position)
        if planted is not None:
            position, stroke = planted
    if stroke is None:
        stroke = random_stroke(rng, position, soft=0.3, hard=6.0)
    score = int(rng.integers(-10, 60)) if rng.random() < 0.7 else int(rng.integers(52, 60))
    in_hand = frozenset({BallId.W1} if from_hand else set()) | frozenset({BallId.W2} if w2_in_hand else set())
    state = GameState(
        scores={BallId.W1: score, BallId.W2: int(rng.integers(-10, 60))},
        shooter=BallId.W1,
        opening=from_hand and rng.random() < 0.3,
        in_hand=in_hand,
        last_pot_direct_middle_kaisa=bool(rng.random() < 0.2),
        kaisa_off_centre=bool(rng.random() < 0.2),
    )
    return position, stroke, state


def check_ruling_properties(record: ShotRecord, call: Call, facts: Facts, ruling: Ruling, state: GameState) -> None:
    shooter = BallId.W1
    dropped = {(e.ball, e.pocket) for e in record.events if isinstance(e, PocketEvent)}
    down = {b for b, _ in dropped} | set(facts.off_table)

    # no points without the called ball dropping into the called pocket
    if ruling.items:
        assert ruling.legal_pot
        assert (call.ball, call.pocket) in dropped
    if ruling.legal_pot:
        assert (call.ball, call.pocket) in dropped
        assert shooter not in down
        assert ruling.fouls == ()
        if not (call.ball.is_white and state.score(shooter) >= 59):  # 3: the 59+ white has its own rule
            assert ruling.points == expected_pot_points(call, facts, state)
        if not call.ball.is_white:  # 3: reaching 60 on a red or the kaisa ends the game
            assert ruling.game_over == (state.score(shooter) + ruling.points >= 60)
            assert not ruling.turn_passes
    else:
        assert ruling.items == ()
        assert ruling.turn_passes
    # penalties only when the shooter's cue ball dropped or left the table (7a), and then exactly 7a's
    penalties = [f for f in ruling.fouls if f.points < 0]
    if penalties:
        assert shooter in down
    if shooter in down:
        assert [(f.clause, f.points) for f in penalties] == [("7a", PENALTY_BY_FIRST[facts.first_contact])]
        assert shooter in ruling.in_hand
    # all five balls accounted for: on the table or in hand, never both
    assert set(ruling.position).isdisjoint(ruling.in_hand)
    assert set(ruling.position) | ruling.in_hand == ALL_BALLS
    assert ruling.in_hand <= {BallId.W1, BallId.W2}
    for ball in ruling.position:
        if ball not in down and ball not in ruling.respots:
            assert ruling.position[ball] == record.final[ball]
    # respotted balls are object balls on free spots
    spot_points = set(SPOTS.values())
    for ball, point in ruling.respots.items():
        assert not ball.is_white
        assert point in spot_points
        assert ruling.position[ball] == point
        others = [p for b, p in ruling.position.items() if b is not ball]
        assert all(math.hypot(point[0] - q[0], point[1] - q[1]) >= 2 * R + CONTACT_TOLERANCE - 1e-12 for q in others)
    for ball in down:
        assert ball in ruling.in_hand if ball.is_white else ball in ruling.respots
    # 4, 4.1: each dropped object ball on the first spot of its order that was free when it was placed,
    # the kaisa before the reds
    placed = [p for b, p in ruling.position.items() if b not in down]
    for ball in sorted((b for b in down if not b.is_white), key=lambda b: (not b.is_kaisa, b.value)):
        order = KAISA_ORDER if ball.is_kaisa else RED_ORDER
        first_free = next(spot for spot in order if free_spot(spot, placed))
        assert ruling.respots[ball] == SPOTS[first_free], (ball, first_free)
        placed.append(ruling.respots[ball])
    # 4: a kaisa spotted off the centre spot goes back there once it is free, if no ball touched it
    if state.kaisa_off_centre and BallId.K in record.final and BallId.K not in down:
        others = [p for b, p in ruling.position.items() if b is not BallId.K]
        if not facts.kaisa_touched and free_spot(SpotId.CENTRE, others):
            assert ruling.position[BallId.K] == SPOTS[SpotId.CENTRE]
        else:
            assert ruling.position[BallId.K] == record.final[BallId.K]
    # no two balls overlap
    items = list(ruling.position.items())
    for i, (_, a) in enumerate(items):
        for _, b in items[i + 1 :]:
            assert math.hypot(a[0] - b[0], a[1] - b[1]) >= 2 * R - 1e-9
    # the points add up, and go to the shooter
    assert ruling.points == sum(i.points for i in ruling.items) + sum(f.points for f in ruling.fouls)
    assert ruling.state.scores[shooter] == state.scores[shooter] + ruling.points
    assert ruling.state.scores[BallId.W2] == state.scores[BallId.W2]
    assert ruling.game_over == (ruling.winner is not None)
    if ruling.game_over:
        assert ruling.legal_pot
        assert ruling.winner is shooter
    if not ruling.game_over:
        assert ruling.state.shooter is (BallId.W2 if ruling.turn_passes else shooter)
    assert not ruling.state.opening
    # 2.1: what the next stroke must know about a direct middle kaisa in this inning
    middle_direct = call.ball is BallId.K and call.pocket.is_middle and call.is_direct
    assert ruling.state.last_pot_direct_middle_kaisa == (ruling.legal_pot and middle_direct and not ruling.turn_passes)
    # the JSON form
    data = ruling.to_json()
    assert set(data) >= RULING_JSON_KEYS
    assert data["points"] == ruling.points
    assert data["legal_pot"] is ruling.legal_pot
    assert data["turn_passes"] is ruling.turn_passes
    assert sorted(data["in_hand"]) == sorted(b.value for b in ruling.in_hand)
    assert len(data["items"]) == len(ruling.items)
    assert len(data["fouls"]) == len(ruling.fouls)
    assert len(data["events"]) == len(record.events)


@pytest.mark.parametrize("seed", [2014, 60, 7])
def test_rulings_of_random_simulated_strokes_keep_their_invariants(seed):
    """50 random strokes per seed (150 in all), each with a random call and game state."""
    rng = np.random.default_rng(seed)
    legal = 0
    for case in range(50):
        position, stroke, state = random_case(rng)
        record = simulate(position, stroke)
        on_table = [b for b in record.position if b is not BallId.W1]
        call = random_call(rng, on_table, record)
        facts = observe(record, call)
        ruling = judge(facts, call, state)
        try:
            check_ruling_properties(record, call, facts, ruling, state)
        except AssertionError as exc:
            raise AssertionError(
                f"seed {seed} case {case}: call {call}, stroke {stroke}, state {state}, "
                f"events {[e.type + ' ' + str(e.fields_json()) for e in record.events]}"
            ) from exc
        legal += ruling.legal_pot
    assert legal >= 1, "some random cases should be legal pots, or the properties were only half tested"
