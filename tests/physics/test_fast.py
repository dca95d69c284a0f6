"""The fast pooltool layer (kaisa.physics.fast) gives bit for bit the answers of stock pooltool.

Stock and fast run side by side in one process on the same strokes: every pooltool event (type, agents,
time) and every ball's final state must be equal as floats, not merely close, and so must the domain
records (events with their positions, final position, duration, sampled paths).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import numpy as np
import pooltool
import pytest

from kaisa.layouts import random_layout, random_stroke, wild_stroke
from kaisa.model import Position, Stroke
from kaisa.physics import fast
from kaisa.physics.reference import build_system, run_engine, simulate
from kaisa.physics.reference import pooltool_table as physics_table
from kaisa.table import OFFICIAL

STROKES = 500


def _strokes(n: int, seed: int = 20) -> Iterator[tuple[Position, Stroke]]:
    """Aimed strokes at a ball (with spin), wild strokes in any direction (banks, kicks, pots off the
    jaws), hard breaks up to 8 m/s, and two-ball layouts; every tenth stroke slightly elevated."""
    rng = np.random.default_rng(seed)
    for i in range(n):
        position = random_layout(rng, balls=5 if i % 5 else 2)
        stroke = random_stroke(rng, position, soft=0.3, hard=8.0)
        if i % 3 == 1:
            stroke = wild_stroke(rng)
        if i % 10 == 7:
            stroke = replace(stroke, elevation=5.0)
        yield position, stroke


def _engine_log(position: Position, stroke: Stroke) -> tuple[Any, ...]:
    """pooltool's own answer: each event's type, agents and time, and each ball's final state, as floats."""
    ptable = physics_table(OFFICIAL)
    centres = {b: OFFICIAL.push_off_cushions(p) for b, p in position.items()}
    system = run_engine(build_system(centres, stroke, ptable))
    events = tuple((e.event_type.value, tuple(e.ids), float(e.time)) for e in system.events)
    finals = tuple((bid, ball.state.s, tuple(ball.state.rvw.ravel().tolist())) for bid, ball in system.balls.items())
    return events, finals


@pytest.fixture
def restore_fast() -> Iterator[None]:
    yield
    fast.use_fast()


@pytest.mark.slow
def test_fast_layer_gives_stock_pooltools_events_and_positions_bit_for_bit(restore_fast):
    cases = list(_strokes(STROKES))
    kinds: set[int] = set()
    for i, (position, stroke) in enumerate(cases):
        rate = 30.0 if i % 25 == 0 else None  # the sampled paths too, now and then
        fast.use_stock()
        stock_log = _engine_log(position, stroke)
        stock_record = simulate(position, stroke, trajectories=rate)
        fast.use_fast()
        fast_log = _engine_log(position, stroke)
        fast_record = simulate(position, stroke, trajectories=rate)
        assert fast_log == stock_log, (position, stroke)
        assert fast_record == stock_record, (position, stroke)
        kinds |= {e[0] for e in stock_log[0]}
    # the strokes reached every kind of event the layer touches: ball, linear and circular cushion, pocket
    assert {"ball_ball", "ball_linear_cushion", "ball_circular_cushion", "ball_pocket"} <= kinds


def test_the_switch_puts_stock_functions_back_and_the_fast_ones_in(restore_fast):
    assert fast.is_fast()
    fast.use_stock()
    assert not fast.is_fast()
    assert all(getattr(p.owner, p.attribute) is p.stock for p in fast.PATCHES)
    fast.use_fast()
    assert all(getattr(p.owner, p.attribute) is p.fast for p in fast.PATCHES)


def test_other_pooltool_versions_are_refused(monkeypatch):
    monkeypatch.setattr(pooltool, "__version__", "0.6.1")
    with pytest.raises(fast.PooltoolVersionError, match=r"0\.6\.0.*0\.6\.1.*KAISA_STOCK_POOLTOOL"):
        fast.use_fast()


@pytest.mark.slow
def test_the_environment_variable_runs_stock_pooltool():
    code = "import kaisa.physics.reference; from kaisa.physics import fast; print(fast.is_fast())"
    for value, expected in (("1", "False"), ("", "True")):
        env = {**os.environ, fast.STOCK_ENV: value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        assert out.stdout.strip() == expected
