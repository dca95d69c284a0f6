"""Property tests (hypothesis): rulings are consistent with the events, whatever the log, call and state."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from kaisa.call import Call, Konsti, Leg
from kaisa.model import BallId
from kaisa.referee import GameState, Ruling, judge, observe
from kaisa.table import OFFICIAL, PocketId, RailId
from tests.referee_helpers import START, stroke_log

BALLS = list(BallId)
OBJECTS = [BallId.W2, BallId.R1, BallId.R2, BallId.K]
HAND_START = {**START, "W1": (0.40, 0.30)}  # W1 behind the head string, for ball in hand


def rail_point(ball: BallId, rail: RailId, in_front: bool) -> str:
    """The point of a contact on a rail that crosses the head string (REFERENCE 10: such a contact needs it);
    each ball gets its own place, so no two balls are left overlapping."""
    if rail not in (RailId.LEFT_HEAD, RailId.RIGHT_HEAD):
        return ""
    x = OFFICIAL.ball_radius if rail is RailId.LEFT_HEAD else OFFICIAL.width - OFFICIAL.ball_radius
    y = 0.30 + 0.08 * BALLS.index(ball) + (0.60 if in_front else 0.0)
    return f" @{x:.4f},{y:.3f}"


@st.composite
def event_steps(draw: st.DrawFn) -> list[str]:
    """A plausible log: W1 struck, then contacts, cushions, jaws, each ball dropping or leaving at most once."""
    steps = ["strike W1"]
    gone: set[BallId] = set()
    for _ in range(draw(st.integers(0, 12))):
        live = [b for b in BALLS if b not in gone]
        if not live:
            break
        ball = draw(st.sampled_from(live))
        kind = draw(st.sampled_from(["ball", "ball", "rail", "jaw", "pocket", "off"]))
        if kind == "ball":
            others = [b for b in live if b != ball]
            if not others:
                continue
            steps.append(f"ball {ball.value} {draw(st.sampled_from(others)).value}")
        elif kind == "rail":
            rail = draw(st.sampled_from(list(RailId)))
            steps.append(f"rail {ball.value} {rail.value}{rail_point(ball, rail, draw(st.booleans()))}")
        elif kind == "jaw":
            pocket = draw(st.sampled_from(list(PocketId)))
            side = draw(st.sampled_from(OFFICIAL.rails_adjacent_to(pocket)))
            steps.append(f"jaw {ball.value} {pocket.value} {side.value}")
        elif kind == "pocket":
            steps.append(f"pocket {ball.value} {draw(st.sampled_from(list(PocketId))).value}")
            gone.add(ball)
        else:
            steps.append(f"off {ball.value}")
            gone.add(ball)
    return steps


@st.composite
def calls(draw: st.DrawFn) -> Call | None:
    if draw(st.booleans()) and draw(st.booleans()):
        return None
    ball = draw(st.sampled_from(OBJECTS))
    pocket = draw(st.sampled_from(list(PocketId)))
    konsti = draw(st.sampled_from([None, None, *Konsti]))
    via = draw(st.sampled_from([b for b in OBJECTS if b != ball])) if konsti else None
    legs = tuple(Leg(count=draw(st.integers(0, 2))) for _ in range(3 if konsti else 2))
    return Call(ball, pocket, konsti, via, legs)


@st.composite
def played_calls(draw: st.DrawFn) -> tuple[list[str], Call]:
    """A call and a log that plays it as called (so legal pots are common), plus random nakki, extra balls
    and, sometimes, a fault: the cue ball following the called ball in."""
    ball = draw(st.sampled_from(OBJECTS))
    pocket = draw(st.sampled_from(list(PocketId)))
    konsti = draw(st.sampled_from([None, None, *Konsti]))
    via = draw(st.sampled_from([b for b in OBJECTS if b != ball])) if konsti else None
    rails = [draw(st.lists(st.sampled_from([RailId.HEAD, RailId.RIGHT_HEAD]), max_size=2)) for _ in range(3)]

    def cushions(b: str, leg: int) -> list[str]:
        return [f"rail {b} {r.value}{rail_point(BallId(b), r, leg > 0)}" for r in rails[leg]]

    b, x = ball.value, via.value if via else ""
    steps = ["strike W1", *cushions("W1", 0)]
    if konsti is None:
        steps += [f"ball W1 {b}", *cushions(b, 1)]
    elif konsti is Konsti.KYYTI:
        steps += [f"ball W1 {x}", *cushions(x, 1), f"ball {x} {b}", *cushions(b, 2)]
    elif konsti is Konsti.KARA:
        steps += [f"ball W1 {x}", *cushions("W1", 1), f"ball W1 {b}", *cushions(b, 2)]
    else:
        steps += [f"ball W1 {b}", *cushions(b, 1), f"ball {b} {x}", *cushions(b, 2)]
    steps.append(f"pocket {b} {pocket.value}")
    for other in draw(st.lists(st.sampled_from([o for o in OBJECTS if o not in (ball, via)]), max_size=3, unique=True)):
        steps.append(f"ball W1 {other.value}")
        if draw(st.booleans()):
            steps.append(f"pocket {other.value} {draw(st.sampled_from(list(PocketId))).value}")
    if draw(st.integers(0, 5)) == 0:
        steps.append(f"pocket W1 {pocket.value}")
    n = 3 if konsti else 2
    call = Call(ball, pocket, konsti, via, tuple(Leg(tuple(rails[i])) for i in range(n)))
    return steps, call


@st.composite
def states(draw: st.DrawFn) -> GameState:
    return GameState(
        scores={BallId.W1: draw(st.integers(-20, 65)), BallId.W2: draw(st.integers(-20, 65))},
        shooter=BallId.W1,
        opening=draw(st.booleans()) and draw(st.booleans()),
        in_hand=frozenset({BallId.W1}) if draw(st.booleans()) else frozenset(),
        last_pot_direct_middle_kaisa=draw(st.booleans()),
        kaisa_off_centre=draw(st.booleans()),
    )


def check(ruling: Ruling, steps: list[str], call: Call | None, state: GameState) -> None:
    pots = {(s.split()[1], s.split()[2]) for s in steps if s.startswith("pocket")}
    down = {s.split()[1] for s in steps if s.startswith(("pocket", "off"))}
    # the sum of the items is the points
    assert ruling.points == sum(i.points for i in ruling.items) + sum(f.points for f in ruling.fouls)
    # no points without a pot of the called ball in the called pocket
    if ruling.items:
        assert call is not None
        assert (call.ball.value, call.pocket.value) in pots
        assert ruling.legal_pot
    # penalties only with the shooter's cue ball down
    if any(f.points < 0 for f in ruling.fouls):
        assert "W1" in down
    # every ball is on the table or in hand; whites are never spotted
    for ball in BallId:
        assert (ball in ruling.position) != (ball in ruling.in_hand) or ball not in ruling.position
        if ball.is_white:
            assert ball not in ruling.respots
            assert ball in ruling.position or ball in ruling.in_hand or ball in state.in_hand
        else:
            assert ball in ruling.position
    # respotted balls stand on free places: no two balls overlap
    balls = list(ruling.position.values())
    for i, p in enumerate(balls):
        for q in balls[i + 1 :]:
            assert math.hypot(p[0] - q[0], p[1] - q[1]) >= 2 * OFFICIAL.ball_radius - 1e-9
    # the next state carries the score and the turn
    assert ruling.state.scores[BallId.W1] == state.scores[BallId.W1] + ruling.points
    assert ruling.state.scores[BallId.W2] == state.scores[BallId.W2]
    if not ruling.legal_pot:
        assert ruling.turn_passes
    assert ruling.state.shooter == (BallId.W2 if ruling.turn_passes else BallId.W1)
    assert ruling.game_over == (ruling.winner is BallId.W1)
    if ruling.game_over:
        assert ruling.legal_pot
    # every line is explained in both languages and cites a clause
    for line in (*ruling.items, *ruling.fouls, *ruling.notes):
        assert line.clause
        assert line.fi
        assert line.en
        assert line.clause in ruling.clauses


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=event_steps(), call=calls(), state=states())
def test_rulings_are_consistent_with_random_event_logs(steps, call, state):
    start = HAND_START if state.from_hand else START
    ruling = judge(observe(stroke_log(tuple(steps), start), call), call, state)
    check(ruling, steps, call, state)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(played=played_calls(), state=states())
def test_rulings_are_consistent_when_the_call_is_played(played, state):
    steps, call = played
    start = HAND_START if state.from_hand else START
    ruling = judge(observe(stroke_log(tuple(steps), start), call), call, state)
    check(ruling, steps, call, state)


@settings(max_examples=200, deadline=None)
@given(steps=event_steps(), call=calls())
def test_the_same_facts_give_the_same_ruling(steps, call):
    log = stroke_log(tuple(steps))
    first = judge(observe(log, call), call, GameState())
    second = judge(observe(log, call), call, GameState())
    assert first.to_json() == second.to_json()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    speed=st.floats(0.3, 8.0),
    spread=st.floats(-4.0, 4.0),
    side=st.floats(-0.3, 0.3),
    follow=st.floats(-0.35, 0.35),
    call=calls(),
    state=states(),
)
def test_rulings_of_simulated_strokes_are_consistent(seed, speed, spread, side, follow, call, state):
    """Real physics: a random layout, W1 struck at a random ball with random speed and spin, a random call."""
    import numpy as np

    from kaisa.layouts import random_layout
    from kaisa.model import PocketEvent, Stroke
    from kaisa.physics import simulate

    position = random_layout(np.random.default_rng(seed))
    if state.from_hand:
        place = (0.5 + (seed % 40) / 100, 0.3)
        assume(all(math.dist(place, p) > 2 * OFFICIAL.ball_radius for b, p in position.items() if b != BallId.W1))
        position = position.with_ball(BallId.W1, place)
    cue = position[BallId.W1]
    target = position[BallId.K]
    aim = math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0])) + spread
    record = simulate(position, Stroke(BallId.W1, speed, aim, side=side, follow=follow))
    ruling = judge(observe(record, call), call, state)
    steps = [f"pocket {e.ball.value} {e.pocket.value}" for e in record.events if isinstance(e, PocketEvent)]
    check(ruling, steps, call, state)
