"""Shot generation (:mod:`kaisa.players.shots`): every call it proposes is well formed and may be called, its
geometric aims pot on the real engine as ruled by the real referee, and it keeps the rules that restrict calls
(5: from hand; 2.1: no direct middle kaisa twice). No mocks: real physics, real referee.

The direction search validates the geometry: around each candidate's aim it plays the stroke at offsets of
0, +-0.02, +-0.04, ... up to +-1.5 degrees (nearest first) until the referee rules the called pot legal. Only
candidates whose estimated tolerance the search can resolve are asked (difficulty at most 8: a window of about
a hundredth of a degree); harder ones are real, but a 0.02-degree step steps over them.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Sequence
from functools import cache

import numpy as np
import pytest

from kaisa.call import Call, Konsti, format_call, parse_call
from kaisa.errors import SimulationError
from kaisa.layouts import random_layout
from kaisa.model import BallId, Position, RailEvent
from kaisa.physics import simulate
from kaisa.players.candidates import KINDS, ShotCandidate
from kaisa.players.shots import generate
from kaisa.referee import GameState, Ruling, judge, observe
from kaisa.referee.opening import IllegalPlacementError, check_hand_placement
from kaisa.table import OFFICIAL, PocketId, Point, SpotId

W, L, R = OFFICIAL.width, OFFICIAL.length, OFFICIAL.ball_radius
W1, W2, R1, R2, K = BallId.W1, BallId.W2, BallId.R1, BallId.R2, BallId.K
SEEDS = range(24)
SEARCH_STEP, SEARCH_SPAN = 0.02, 1.5
RESOLVABLE = 8.0
"""Candidates at most this difficult have a window the 0.02-degree search can find."""


@cache
def layout(seed: int) -> Position:
    return random_layout(np.random.default_rng(seed))


@cache
def generated(seed: int, shooter: BallId = W1) -> tuple[ShotCandidate, ...]:
    return tuple(generate(layout(seed), GameState(shooter=shooter)))


def rule(position: Position, candidate: ShotCandidate, state: GameState, direction: float | None = None) -> Ruling:
    stroke = candidate.stroke if direction is None else dataclasses.replace(candidate.stroke, direction=direction)
    record = simulate(position, stroke)
    return judge(observe(record, candidate.call), candidate.call, state)


def search(position: Position, candidate: ShotCandidate, state: GameState) -> float | None:
    """The offset (degrees) nearest the aim at which the call is a legal pot, or ``None``."""
    steps = round(SEARCH_SPAN / SEARCH_STEP)
    for i in [0, *(k * sign for k in range(1, steps + 1) for sign in (1, -1))]:
        try:
            if rule(position, candidate, state, candidate.stroke.direction + i * SEARCH_STEP).legal_pot:
                return i * SEARCH_STEP
        except SimulationError:
            continue  # an engine failure on one stroke is no verdict on the geometry
    return None


def on_axis(pocket: PocketId, distance: float) -> Point:
    p = OFFICIAL.pockets[pocket]
    return (p.mouth_centre[0] - p.axis[0] * distance, p.mouth_centre[1] - p.axis[1] * distance)


def first_ball(call: Call) -> BallId:
    """The ball the cue ball meets first on the called route."""
    return call.via if call.konsti in (Konsti.KYYTI, Konsti.KARA) and call.via is not None else call.ball


def assert_well_formed(candidates: Sequence[ShotCandidate], shooter: BallId) -> None:
    assert [c.difficulty for c in candidates] == sorted(c.difficulty for c in candidates)
    for c in candidates:
        assert parse_call(format_call(c.call)) == c.call
        c.call.check_shooter(shooter)
        assert c.kind in KINDS
        assert c.stroke.ball is shooter
        assert 0 < c.stroke.speed <= 6.0
        assert c.difficulty >= 0
        cushions = [leg.cushion_count for leg in c.call.legs]
        expected_konsti = {"kyyti": Konsti.KYYTI, "kara": Konsti.KARA, "kiss": Konsti.KISS}.get(c.kind)
        assert c.call.konsti is expected_konsti
        assert all(leg.count is None for leg in c.call.legs)  # the exact rails, never a bare count
        assert cushions == {"direct": [0, 0], "bank": [0, 1], "kick": [1, 0]}.get(c.kind, [0, 0, 0]), c


# --- the calls --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("shooter", [W1, W2])
def test_every_call_parses_back_and_may_be_called_by_the_shooter(shooter):
    seen_opponent_white = False
    for seed in SEEDS:
        candidates = generated(seed, shooter)
        assert_well_formed(candidates, shooter)
        seen_opponent_white |= any(c.call.ball is not shooter and c.call.ball.is_white for c in candidates)
    assert seen_opponent_white  # the opponent's white is an object ball like any other


def test_every_kind_is_generated_somewhere():
    kinds = {c.kind for seed in SEEDS for c in generated(seed)}
    assert kinds == set(KINDS)


def test_generation_is_deterministic_and_kinds_and_limit_select():
    position, state = layout(3), GameState(shooter=W1)
    full = generate(position, state)
    assert generate(position, state) == full
    assert generate(position, state, limit=3) == full[:3]
    for kind in KINDS:
        assert generate(position, state, kinds=(kind,)) == [c for c in full if c.kind == kind]
    with pytest.raises(ValueError, match="unknown shot kinds"):
        generate(position, state, kinds=("masse",))


# --- the geometry, on the engine -------------------------------------------------------------------------


def straight_in(blocker: Point | None = None) -> Position:
    """The kaisa half a metre out on FL's axis, W1 another half metre behind it, the rest far away."""
    balls = {"W1": on_axis(PocketId.FL, 1.0), "K": on_axis(PocketId.FL, 0.5), "W2": (1.1, 0.5), "R2": (0.5, 0.9)}
    balls["R1"] = blocker or (1.0, 1.0)
    return Position(balls)


def test_a_straight_in_pot_comes_first_and_is_a_legal_pot_played_as_aimed():
    position, state = straight_in(), GameState(shooter=W1)
    best = generate(position, state)[0]
    assert best.kind == "direct"
    assert best.call == Call(K, PocketId.FL)
    ruling = rule(position, best, state)
    assert ruling.legal_pot
    assert ruling.points > 0


@pytest.mark.parametrize("distance", [0.25, 0.8], ids=["object-ball-path", "cue-ball-path"])
def test_a_blocked_pot_is_not_generated(distance):
    state = GameState(shooter=W1)
    blocked = generate(straight_in(on_axis(PocketId.FL, distance)), state)
    assert Call(K, PocketId.FL) not in [c.call for c in blocked]
    assert Call(K, PocketId.FL) in [c.call for c in generate(straight_in(), state)]


@pytest.mark.parametrize("kind", ["direct", "bank"])
def test_a_direction_search_around_the_geometric_aim_finds_a_legal_pot(kind):
    state = GameState(shooter=W1)
    found, asked = [], 0
    for seed in SEEDS:
        top = [c for c in generated(seed) if c.kind == kind and c.difficulty <= RESOLVABLE][:2]
        for candidate in top:
            asked += 1
            offset = search(layout(seed), candidate, state)
            if offset is not None:
                found.append(offset)
    assert asked >= 10
    print(f"{kind}: legal pot found for {len(found)}/{asked}, offsets {found}")
    assert len(found) / asked >= 0.7
    assert statistics.median(abs(o) for o in found) <= 0.5  # the aims are close, not just somewhere in range


# --- the rules that restrict calls ---------------------------------------------------------------------------


def hand_places(others: Position) -> list[Point]:
    places = []
    for x in (0.25, 0.71, 1.15):
        for y in (0.2, 0.55):
            try:
                check_hand_placement(others, W1, (x, y))
            except IllegalPlacementError:
                continue
            places.append((x, y))
    return places


def test_from_hand_every_candidate_is_placed_legally_and_keeps_section_5():
    state = GameState(shooter=W1, in_hand=frozenset({W1}))
    counted = 0
    for seed in range(12):
        others = layout(seed).without(W1)
        for place in hand_places(others):
            candidates = generate(others, state, cue=place)
            assert_well_formed(candidates, W1)
            for c in candidates:
                counted += 1
                assert c.stroke.place == place
                check_hand_placement(others, W1, c.stroke.place)
                assert not (c.call.pocket.is_middle and c.call.cushion_count == 0), c  # 5: middles via cushions
                if c.call.legs[0].cushion_count == 0:
                    assert others[first_ball(c.call)][1] > OFFICIAL.head_string, c  # 5: directly only in front
    assert counted > 100


def test_from_hand_the_referee_finds_no_section_5_fault_in_the_best_strokes():
    state = GameState(shooter=W1, in_hand=frozenset({W1}))
    played = 0
    for seed in range(6):
        others = layout(seed).without(W1)
        for place in hand_places(others)[:2]:
            for c in generate(others, state, cue=place)[:2]:
                ruling = rule(others, c, state)
                assert not [f for f in ruling.fouls if f.clause == "5"], (c, ruling.fouls)
                played += 1
    assert played >= 10


def test_from_hand_a_kick_meets_its_first_cushion_in_front_of_the_head_string():
    state = GameState(shooter=W1, in_hand=frozenset({W1}))
    kicks = 0
    for seed in range(12):
        others = layout(seed).without(W1)
        for place in hand_places(others)[:1]:
            for c in generate(others, state, cue=place, kinds=("kick",))[:2]:
                record = simulate(others, c.stroke)
                first_rail = next(e for e in record.events if isinstance(e, RailEvent) and e.ball is W1)
                assert first_rail.positions[W1][1] > OFFICIAL.head_string, c
                assert observe(record, c.call).hand is not None
                kicks += 1
    assert kicks >= 5


def test_from_hand_the_place_is_required_and_checked():
    state = GameState(shooter=W1, in_hand=frozenset({W1}))
    others = layout(0).without(W1)
    with pytest.raises(ValueError, match="from hand"):
        generate(others, state)
    with pytest.raises(IllegalPlacementError):
        generate(others, state, cue=(0.7, OFFICIAL.head_string + 0.1))


def test_the_break_plays_neither_the_red_on_the_head_string_nor_the_kaisa_into_a_middle_directly():
    spots = OFFICIAL.spots
    position = Position(
        {"K": spots[SpotId.CENTRE], "R1": spots[SpotId.HEAD_STRING], "R2": spots[SpotId.FOOT_STRING], "W2": (0.4, 2.5)}
    )
    state = GameState(shooter=W1, opening=True)
    candidates = generate(position, state, cue=(0.9, 0.4))
    assert candidates
    for c in candidates:
        if c.call.legs[0].cushion_count == 0:
            assert first_ball(c.call) is not R1, c  # on the line: only via a cushion (1.2, 5)
        assert not (c.call.pocket.is_middle and c.call.cushion_count == 0), c


def test_no_direct_middle_kaisa_right_after_one():
    position = Position({"W1": (0.9, L / 2), "K": (0.45, L / 2), "R1": (1.1, 0.6), "R2": (0.3, 2.4), "W2": (1.2, 2.5)})
    before = generate(position, GameState(shooter=W1))
    after = generate(position, GameState(shooter=W1, last_pot_direct_middle_kaisa=True))
    assert before[0].call == Call(K, PocketId.ML)
    direct_middle_kaisa = [c for c in after if c.call.ball is K and c.call.pocket.is_middle and c.call.is_direct]
    assert direct_middle_kaisa == []
    assert [c for c in after if c.call != Call(K, PocketId.ML)] == [c for c in before if c.call != Call(K, PocketId.ML)]


def test_a_cue_ball_frozen_to_a_ball_is_never_struck_towards_it():
    cue, kaisa = (0.7, 1.0), (0.7, 1.0 + 2 * R)
    candidates = generate(Position({"W1": cue, "K": kaisa, "R1": (1.2, 2.2)}), GameState(shooter=W1))
    assert candidates  # away from the kaisa, e.g. off the head cushion and back
    for c in candidates:
        d = math.radians(c.stroke.direction)
        assert math.cos(d) * (kaisa[0] - cue[0]) + math.sin(d) * (kaisa[1] - cue[1]) <= 0, c  # talonmies, 7d


# --- the module's physical constants are the engine's -----------------------------------------------------------


def test_the_resolver_uses_the_friction_the_generator_plans_with():
    from kaisa.physics.reference import build_resolver
    from kaisa.players.shots import BALL_FRICTION

    friction = build_resolver().ball_ball.friction  # type: ignore[attr-defined]
    assert (friction.a, friction.b, friction.c) == pytest.approx(BALL_FRICTION)
