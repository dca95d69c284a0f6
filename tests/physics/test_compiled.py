"""Kaisa's engine (kaisa.physics.compiled, on the kernels carried in kaisa.physics.port) against pooltool 0.6.0,
its reference, which it must reproduce bit for bit.

pooltool's last bits depend on the processor's BLAS kernel and numpy's vector loops; the engine's do not. The
engine writes out OpenBLAS's Haswell sums, so the comparisons run under
:func:`kaisa.physics.reference.reference_environment` (OpenBLAS's Haswell kernel, numpy's AVX-512 loops off):
a test started in another environment runs itself again in a child pytest under it (:func:`under_reference`).
There every pooltool event (type, agents, time), every ball's final state and every sampled path is equal as
floats, so these tests assert bit-for-bit equality on every stroke; a single differing stroke fails them.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from kaisa.bench.compiled import KINDS, agreement, agreement_cases
from kaisa.model import Position, Stroke
from kaisa.physics import compiled, fast, reference
from kaisa.table import OFFICIAL

ROOT = Path(__file__).resolve().parents[2]


def under_reference(request: pytest.FixtureRequest) -> bool:
    """True where this process is under the reference environment (the test goes on here); elsewhere run this
    very test in a child pytest under it, require that it passed, and return False (the test ends here)."""
    if reference.in_reference_environment():
        return True
    env = {**os.environ, **reference.reference_environment()}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", request.node.nodeid],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"\b1 passed\b", done.stdout), done.stdout[-2000:]
    return False


STROKES = 240


@pytest.mark.slow
def test_compiled_loop_gives_pooltools_events_and_final_states_bit_for_bit(request):
    if not under_reference(request):
        return
    assert fast.is_fast()
    kinds: set[str] = set()
    for kind, position, stroke in agreement_cases(STROKES, seed=20):
        if stroke.place is not None:
            position = position.with_ball(stroke.ball, stroke.place)
        ours = compiled.engine_events(position, stroke)
        theirs = reference.engine_events(position, stroke)
        assert ours == theirs, (kind, position, stroke)
        kinds |= {e[0] for e in theirs[0]}
    # the strokes reached every kind of event the loop resolves
    assert {
        "ball_ball",
        "ball_linear_cushion",
        "ball_circular_cushion",
        "ball_pocket",
        "sliding_rolling",
        "rolling_spinning",
        "rolling_stationary",
        "spinning_stationary",
    } <= kinds


@pytest.mark.slow
def test_agreement_of_records_rulings_final_positions_and_paths_on_500_strokes_of_every_kind():
    """The issue's differential test in CI: 500 strokes (agreement runs itself under the reference kernel)."""
    result = agreement(500, seed=7, paths_every=10)
    assert result.strokes == 500
    assert result.disagreements == []
    assert result.same_sequence == result.same_ruling == result.bit_identical == 500
    assert result.largest_final_difference == 0.0
    assert result.fast_equals_stock == 500
    assert result.paths_compared == result.same_paths == 50


def test_the_agreement_strokes_cover_breaks_frozen_balls_and_balls_on_a_rail():
    cases = list(agreement_cases(60, seed=3))
    assert {kind for kind, _, _ in cases} == set(KINDS)
    r = OFFICIAL.ball_radius
    breaks = [(p, s) for kind, p, s in cases if kind == "break"]
    assert breaks
    assert all(s.place is not None and OFFICIAL.is_behind_head_string(s.place) for _, s in breaks)
    frozen = [p for kind, p, _ in cases if kind == "frozen"]
    assert all(
        any(
            abs(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 - 2 * r) < 1e-9 for a in p.values() for b in p.values()
        )
        for p in frozen
    )
    on_rail = [p for kind, p, _ in cases if kind == "cushion"]
    assert all(any(abs(OFFICIAL.cushion_gap(q)) < 1e-9 for q in p.values()) for p in on_rail)


def test_there_is_one_engine_and_it_plays_with_and_without_paths():
    """kaisa.physics.simulate is the compiled loop, sampled paths or not: the same record apart from the paths."""
    from kaisa.layouts import random_layout, random_stroke
    from kaisa.physics import simulate

    rng = np.random.default_rng(1)
    position = random_layout(rng)
    stroke = random_stroke(rng, position)
    with_paths = simulate(position, stroke, trajectories=30)
    record = simulate(position, stroke)
    assert with_paths.trajectories is not None
    assert record.trajectories is None
    assert record == compiled.simulate(position, stroke)
    assert with_paths == compiled.simulate(position, stroke, trajectories=30)
    assert (record.events, record.final, record.duration) == (with_paths.events, with_paths.final, with_paths.duration)


@pytest.mark.slow
def test_stronge_stick_slip_cases_compiled_give_pooltools_velocities_bit_for_bit(request):
    """Stronge's model (gross slip, stick-slip and slip-stick-slip, the last two with scipy's toms748 in
    pooltool) on random contacts, compiled v pooltool's Python."""
    if not under_reference(request):
        return
    from pooltool.physics.resolve.stronge_compliant import (
        resolve_collinear_compliant_frictional_inelastic_collision as pooltools,
    )

    rng = np.random.default_rng(5)
    eta_squared = 3.5 / 1.0 / 1.8**2
    mass = 0.170097
    for i in range(20_000):
        v_n = -float(10 ** rng.uniform(-4, 1))
        ratio = float(rng.uniform(0, 3)) if i % 3 else float(10 ** rng.uniform(-9, 0.5))
        v_t = v_n * ratio
        mu, e_n = (0.2, 0.85) if i % 2 else (float(rng.uniform(0.05, 0.5)), float(rng.uniform(0.5, 0.99)))
        v_t_f, v_n_f, ok = compiled._collinear(v_t, v_n, mass, mu, e_n, eta_squared)
        assert ok
        assert (v_t_f, v_n_f) == pooltools(v_t, v_n, mass, 3.5, 1.0, mu, e_n, 1e3, eta_squared), (v_t, v_n, mu, e_n)


def test_the_clear_box_holds_only_centres_clear_of_every_cushion():
    """Position checks skip the table's cushion_gap inside engine.clear_box: it must be clear for real."""
    from kaisa.physics.engine import clear_box
    from kaisa.table import PLACEMENT_GAP, BallSize, TableSpec

    rng = np.random.default_rng(11)
    for spec in (OFFICIAL, TableSpec(ball_size=BallSize.MM67)):
        for gap in (0.0, PLACEMENT_GAP):
            box = clear_box(spec, gap)
            assert box is not None
            x0, y0, x1, y1 = box
            edges = [(x0, y0), (x1, y1), (x0, y1), (x1, y0)]
            samples = edges + [(float(rng.uniform(x0, x1)), float(rng.choice([y0, y1]))) for _ in range(2000)]
            samples += [(float(rng.choice([x0, x1])), float(rng.uniform(y0, y1))) for _ in range(2000)]
            for p in samples:
                assert spec.ball_fits(p)
                assert spec.cushion_gap(p) >= gap
                assert spec.push_off_cushions(p, gap=gap) == p
            # a centre just outside the box is within reach of a rail
            assert spec.cushion_gap((x0 - 2e-9, (y0 + y1) / 4)) < gap  # the left rail, away from the pockets
    assert clear_box(OFFICIAL, 1.0) is None  # no centre is a metre clear of every cushion


@pytest.mark.slow
def test_kaisa_bench_compiled_prints_the_agreement_and_the_ratios_and_writes_them(tmp_path):
    from typer.testing import CliRunner

    from kaisa.cli import app

    out = tmp_path / "compiled.json"
    env = {"COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"}
    result = CliRunner().invoke(app, ["bench", "compiled", "--strokes", "12", "--json", str(out)], env=env)
    assert result.exit_code == 0, result.output
    assert "identical event sequences: 100.00% (meets the 99.9% bar)" in result.output
    assert "positions sampled for animation (60 Hz) identical: 2 of 2 strokes" in result.output
    assert "identical rulings: 100.00%" in result.output
    assert re.search(r"compiled v stock = \d+\.\d\dx per stroke", result.output)
    figures = json.loads(out.read_text())
    assert figures["strokes"] == 12
    assert figures["identical_event_sequences"] == figures["bit_identical_records"] == 1.0
    assert figures["compiled_ms"] > 0


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("--strokes", "5"), "--strokes"),
        (("--strokes", "[/]"), "--strokes"),
        (("--json", "/nonexistent-folder/c.json"), "does not exist"),
    ],
)
def test_kaisa_bench_compiled_refuses_a_bad_argument_in_one_line(args, says):
    kaisa = Path(sys.executable).parent / "kaisa"
    out = subprocess.run([str(kaisa), "bench", "compiled", *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert says in lines[0]
    assert "Traceback" not in out.stderr


def _random_ball(rng: np.random.Generator, centre: tuple[float, float], bid: str = "W1") -> Any:
    from kaisa.model import BallId
    from kaisa.physics.reference import build_ball

    ball = build_ball(BallId(bid), centre, OFFICIAL)
    ball.state.rvw[1, :2] = rng.normal(0, 1.5, 2)
    ball.state.rvw[2] = rng.normal(0, 60, 3)
    ball.state.s = int(rng.choice([2, 3]))  # sliding or rolling
    return ball


@pytest.mark.slow
def test_cushion_and_ball_contacts_compiled_resolve_as_pooltool_bit_for_bit(request):
    """Every resolver of the loop against pooltool's own on random contacts: the cushions' make_kiss and
    Stronge model on each jaw tip and rail or facing, the balls' make_kiss, friction and model. (A single
    ``x ** 2`` computed as ``x * x`` differs here in about one contact in a thousand.)"""
    import math

    from kaisa.physics.reference import ENGINE, pooltool_table

    if not under_reference(request):
        return
    rng = np.random.default_rng(8)
    ptable = pooltool_table(OFFICIAL)
    arrays = compiled._arrays(ptable.physics)
    r = OFFICIAL.ball_radius
    eta = 3.5 / 1.0 / 1.8**2
    resolver = ENGINE.resolver
    for i in range(6000):
        # a circular jaw tip, the ball at contact distance (give or take a micrometre), moving
        c = i % len(arrays.circular_ids)
        tip = ptable.table.cushion_segments.circular[arrays.circular_ids[c]]
        angle = float(rng.uniform(0, 2 * math.pi))
        reach = r + tip.radius + float(rng.uniform(-1e-6, 1e-6))
        ball = _random_ball(rng, (tip.a + reach * math.cos(angle), tip.b + reach * math.sin(angle)))
        rvw, state = ball.state.rvw.copy(), ball.state.s
        ok = compiled._resolve_circular(
            rvw, state, tip.a, tip.b, arrays.circ_centre[c], tip.radius, r, ball.params.m, 0.2, 0.85, eta, 2.0
        )
        try:
            resolver.ball_circular_cushion.resolve(ball, tip, inplace=True)
        except (AssertionError, ValueError):
            assert not ok
            continue
        assert ok
        assert np.array_equal(rvw, ball.state.rvw), (i, "tip")
        # a linear segment (a rail's nose or a jaw's facing), the ball at contact distance from a point on it
        k = i % len(arrays.linear_ids)
        seg = ptable.table.cushion_segments.linear[arrays.linear_ids[k]]
        u = float(rng.uniform(0, 1))
        foot = seg.p1[:2] + u * (seg.p2[:2] - seg.p1[:2])
        side = 1 if rng.random() < 0.5 else -1
        centre = foot + side * (r + float(rng.uniform(-1e-6, 1e-6))) * seg.normal[:2]
        ball = _random_ball(rng, (float(centre[0]), float(centre[1])))
        rvw, state = ball.state.rvw.copy(), ball.state.s
        ok = compiled._resolve_linear(
            rvw, state, seg.p1, seg.p2, seg.normal, seg.unit_axis, r, ball.params.m, 0.2, 0.85, eta
        )
        try:
            resolver.ball_linear_cushion.resolve(ball, seg, inplace=True)
        except (AssertionError, ValueError):
            assert not ok
            continue
        assert ok
        assert np.array_equal(rvw, ball.state.rvw), (i, "segment")
        # two balls at contact distance
        a = (float(rng.uniform(0.2, 1.2)), float(rng.uniform(0.2, 2.6)))
        angle = float(rng.uniform(0, 2 * math.pi))
        reach = 2 * r + float(rng.uniform(-1e-6, 1e-6))
        one = _random_ball(rng, a)
        two = _random_ball(rng, (a[0] + reach * math.cos(angle), a[1] + reach * math.sin(angle)), "W2")
        if i % 5 == 0:
            two.state.rvw[1:] = 0.0
            two.state.s = 0
        both = np.array([one.state.rvw, two.state.rvw])
        states = np.array([one.state.s, two.state.s], dtype=np.int64)
        ok = compiled._resolve_ball_ball_event(both, states, 0, 1, r, 0.009951, 0.108, 1.088, 0.95)
        try:
            resolver.ball_ball.resolve(one, two, inplace=True)
        except (AssertionError, ValueError):
            assert not ok
            continue
        assert ok
        assert np.array_equal(both[0], one.state.rvw), (i, "ball 1")
        assert np.array_equal(both[1], two.state.rvw), (i, "ball 2")


@pytest.mark.slow
def test_where_a_pooltool_model_raises_the_engine_refuses_the_stroke_the_same_way():
    """Stroke 8218 of the bench's seed 7: balls on the head rail, the cue ball into them; pooltool's Stronge
    cushion model asserts ``v_n_0 < 0`` on one contact. The engine stops at the same contact with the same
    typed error (a search skips it, a match reports it, a player nudges the stroke and plays again)."""
    from kaisa.bench.compiled import Refusal, _play
    from kaisa.errors import SimulationError
    from tests.refused_stroke import POSITION, STROKE

    theirs = _play(reference.simulate, POSITION, STROKE)
    assert isinstance(theirs, Refusal)
    assert theirs.kind == "SimulationError"  # not a bare AssertionError
    assert "AssertionError" in theirs.message
    ours = _play(compiled.simulate, POSITION, STROKE)
    assert isinstance(ours, Refusal)
    assert ours.kind == "SimulationError"
    with pytest.raises(SimulationError, match="could not resolve a contact"):
        compiled.simulate(POSITION, STROKE)


@pytest.mark.parametrize(
    ("speed", "says"),
    [(float("nan"), "speed"), (float("inf"), "speed"), (-1.0, "speed"), (1e300, "speed")],
)
def test_bad_strokes_are_refused_with_typed_errors_never_a_numba_crash(speed, says):
    from kaisa.errors import KaisaError
    from kaisa.model import BallId

    with pytest.raises((KaisaError, ValueError), match=says):
        compiled.simulate(Position({"W1": (0.7, 1.0)}), Stroke(BallId.W1, speed, 90.0))


def test_overlapping_and_off_the_bed_positions_are_refused_before_the_loop():
    from kaisa.errors import InvalidPositionError
    from kaisa.model import BallId

    with pytest.raises(InvalidPositionError, match="overlap"):
        compiled.simulate(Position({"W1": (0.7, 1.0), "R1": (0.7, 1.01)}), Stroke(BallId.W1, 2.0, 90.0))
    with pytest.raises(InvalidPositionError, match="outside the playing area"):
        compiled.simulate(Position({"W1": (3.0, 1.0)}), Stroke(BallId.W1, 2.0, 90.0))


@pytest.mark.slow
def test_every_table_option_plays_as_pooltool_bit_for_bit(request):
    """Other tables (the 67 mm ball, a small and heavy-ball table, sharp jaws, wide pockets, angled facings,
    a low cushion) with random strokes and sampled paths: the engine's records equal pooltool's."""
    if not under_reference(request):
        return
    from kaisa.bench.compiled import Refusal, _play
    from kaisa.layouts import random_layout, random_stroke
    from kaisa.table import BallSize, TableSpec

    specs = [
        TableSpec(ball_size=BallSize.MM67),
        TableSpec(width=1.2, length=2.4, ball_mass=0.3),
        TableSpec(jaw_radius=0.0, facing_angle=25.0),
        TableSpec(corner_mouth=0.12, middle_mouth=0.13, cushion_height_ratio=0.56),
    ]
    rng = np.random.default_rng(41)
    for spec in specs:
        for i in range(25):
            position = random_layout(rng, spec)
            stroke = random_stroke(rng, position)
            rate = 60.0 if i % 5 == 0 else None
            ours = _play(lambda p, s, r=rate, t=spec: compiled.simulate(p, s, trajectories=r, spec=t), position, stroke)
            theirs = _play(
                lambda p, s, r=rate, t=spec: reference.simulate(p, s, trajectories=r, spec=t), position, stroke
            )
            if isinstance(theirs, Refusal):  # a contact neither can resolve: the same kind of refusal
                assert isinstance(ours, Refusal), (spec, position, stroke)
                assert ours.kind == theirs.kind == "SimulationError"
            else:
                assert ours == theirs, (spec, position, stroke)
