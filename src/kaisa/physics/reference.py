"""pooltool 0.6.0 itself, the reference the engine is checked against: the same stroke on the same table,
simulated by pooltool and translated into the same domain record.

pooltool is a development dependency (``uv sync`` installs it; ``pip install kaisa`` does not): the
differential tests, ``kaisa bench compiled`` and ``kaisa bench physics`` import this module when it is
installed (:func:`available`). Nothing a player, a club or an environment runs imports it. The resolver and
ball parameters are built here in code, so results never depend on ``~/.config/pooltool``.

pooltool's results depend on the processor's BLAS kernel (it calls ``np.dot``) and on numpy's vector loops;
the engine writes those operations out as OpenBLAS's Haswell kernels compute them, so pooltool agrees with
it bit for bit when run with ``OPENBLAS_CORETYPE=Haswell`` and numpy's AVX-512 loops switched off
(:data:`REFERENCE_ENVIRONMENT`).
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import os
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

import numpy as np
import pooltool as pt
import pooltool.constants as ptconst
from pooltool.events import EventType
from pooltool.objects.table.components import (
    CircularCushionSegment,
    CushionDirection,
    CushionSegments,
    LinearCushionSegment,
)
from pooltool.objects.table.components import Pocket as PtPocket
from pooltool.objects.table.specs import TableType
from pooltool.physics.engine import PhysicsEngine
from pooltool.physics.resolve.ball_ball.friction import AlciatoreBallBallFriction
from pooltool.physics.resolve.ball_ball.frictional_inelastic import FrictionalInelastic
from pooltool.physics.resolve.ball_cushion.stronge_compliant.model import (
    StrongeCompliantCircular,
    StrongeCompliantLinear,
)
from pooltool.physics.resolve.ball_pocket import CanonicalBallPocket
from pooltool.physics.resolve.resolver import Resolver
from pooltool.physics.resolve.stick_ball.instantaneous_point import InstantaneousPoint
from pooltool.physics.resolve.transition import CanonicalTransition

from kaisa.errors import SimulationError
from kaisa.model import BallId, Event, Position, ShotRecord, Stroke, Trajectories
from kaisa.physics import engine, fast
from kaisa.table import OFFICIAL, Point, TableSpec

fast.apply_from_environment()  # the faster pooltool layer (same answers), unless KAISA_STOCK_POOLTOOL=1

# pooltool's ball-ball resolver divides 0 by 0 when two balls sit exactly at contact distance; the NaN it gets
# drops that root as intended, so its warning is noise to a user.
warnings.filterwarnings(
    "ignore",
    message="invalid value encountered in divide",
    category=RuntimeWarning,
    module=r"pooltool\.physics\.resolve\.ball_ball\.core",
)

REFERENCE_ENVIRONMENT = {
    "OPENBLAS_CORETYPE": "Haswell",
    "NPY_DISABLE_CPU_FEATURES": "AVX512F AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL",
}
"""The environment under which pooltool computes what the engine computes, bit for bit: OpenBLAS's Haswell
kernels (whose sums the engine writes out) and numpy's AVX-512 loops off (its scalar sines and cosines then
are the C library's, as the engine's). Read by numpy and OpenBLAS at import: a child process's environment."""


def reference_environment() -> dict[str, str]:
    """:data:`REFERENCE_ENVIRONMENT` for this machine: numpy refuses to disable a feature the processor lacks,
    so only those present are named."""
    features: dict[str, bool] = importlib.import_module("numpy._core._multiarray_umath").__cpu_features__
    present = [f for f in REFERENCE_ENVIRONMENT["NPY_DISABLE_CPU_FEATURES"].split() if features.get(f)]
    env = {"OPENBLAS_CORETYPE": REFERENCE_ENVIRONMENT["OPENBLAS_CORETYPE"]}
    if present:
        env["NPY_DISABLE_CPU_FEATURES"] = " ".join(present)
    return env


def in_reference_environment() -> bool:
    """Whether this process runs under :func:`reference_environment`."""
    return all(os.environ.get(k) == v for k, v in reference_environment().items())


def available() -> bool:
    """Whether pooltool (the development dependency) is installed."""
    return importlib.util.find_spec("pooltool") is not None


def build_resolver() -> Resolver:
    """The physics resolver, spelled out in code (pooltool's 0.6.0 defaults, pinned here)."""
    return Resolver(
        ball_ball=FrictionalInelastic(friction=AlciatoreBallBallFriction(*engine.BALL_BALL_FRICTION)),
        ball_linear_cushion=StrongeCompliantLinear(omega_ratio=engine.CUSHION_OMEGA_RATIO),
        ball_circular_cushion=StrongeCompliantCircular(omega_ratio=engine.CUSHION_OMEGA_RATIO),
        ball_pocket=CanonicalBallPocket(),
        stick_ball=InstantaneousPoint(english_throttle=1.0, squirt_throttle=1.0),
        transition=CanonicalTransition(),
        version=None,
    )


ENGINE = PhysicsEngine(resolver=build_resolver())


@dataclass(frozen=True)
class PooltoolTable:
    """A pooltool table built from the engine's table (the same pieces in the same order)."""

    physics: engine.PhysicsTable
    table: pt.Table


@lru_cache(maxsize=8)
def pooltool_table(spec: TableSpec = OFFICIAL) -> PooltoolTable:
    ptable = engine.physics_table(spec)
    linear = {
        seg.id: LinearCushionSegment(seg.id, p1=seg.p1.copy(), p2=seg.p2.copy(), direction=CushionDirection.BOTH)
        for seg in ptable.linear
    }
    circular = {
        seg.id: CircularCushionSegment(seg.id, center=seg.centre.copy(), radius=seg.radius) for seg in ptable.circular
    }
    pockets = {p.id: PtPocket(p.id, center=p.centre.copy(), radius=p.radius) for p in ptable.capture}
    table = pt.Table(
        cushion_segments=CushionSegments(linear=linear, circular=circular),
        pockets=pockets,
        table_type=TableType.POCKET,
    )
    return PooltoolTable(ptable, table)


def build_system(centres: Mapping[BallId, Point], stroke: Stroke, table: PooltoolTable) -> pt.System:
    """The pooltool system for one stroke: a fresh copy of the table (pockets record their contents)."""
    balls = {b.value: build_ball(b, p, table.physics.spec) for b, p in centres.items()}
    return pt.System(cue=build_cue(stroke), table=table.table.copy(), balls=balls)


def build_ball(ball: BallId, centre: Point, spec: TableSpec) -> pt.Ball:
    """A resting pooltool ball with this project's parameters."""
    return pt.Ball.create(ball.value, xy=centre, R=spec.ball_radius, m=spec.ball_mass, **engine.BALL_PARAMETERS)


def build_cue(stroke: Stroke) -> pt.Cue:
    """pooltool's cue for ``stroke`` (its side offset is positive on the other side)."""
    return pt.Cue(
        cue_ball_id=stroke.ball.value,
        V0=stroke.speed,
        phi=stroke.direction,
        theta=stroke.elevation,
        a=engine.CUE_BALL_OFFSET_TO_POOLTOOL_SIDE * stroke.side,
        b=stroke.follow,
    )


def run_engine(system: pt.System) -> pt.System:
    """Simulate in place with pooltool; a contact its models cannot resolve is a :class:`SimulationError`."""
    try:
        pt.simulate(system, engine=ENGINE, inplace=True, max_events=engine.MAX_ENGINE_EVENTS)
    except (AssertionError, ArithmeticError, ValueError) as exc:
        raise SimulationError(
            f"the physics engine could not resolve a contact of this stroke ({type(exc).__name__}"
            f"{': ' + str(exc) if str(exc) else ''}); a slightly different stroke can be played"
        ) from exc
    if len(system.events) > engine.MAX_ENGINE_EVENTS:
        raise SimulationError(f"the shot did not settle within {engine.MAX_ENGINE_EVENTS} physics events")
    return system


def simulate(
    position: Position,
    stroke: Stroke,
    *,
    trajectories: float | None = None,
    spec: TableSpec = OFFICIAL,
) -> ShotRecord:
    """:func:`kaisa.physics.simulate`, played by pooltool 0.6.0."""
    if trajectories is not None and not (math.isfinite(trajectories) and 1 <= trajectories <= 1000):
        raise ValueError(f"trajectory rate {trajectories} Hz is out of range: allowed is [1, 1000] Hz")
    table = pooltool_table(spec)
    centres = engine.prepare(position, stroke, spec)
    system = run_engine(build_system(centres, stroke, table))
    events = translate_events(system, table.physics)
    final = engine.final_position(
        (
            (
                bid,
                None
                if ball.state.s == ptconst.pocketed
                else (float(ball.state.rvw[0, 0]), float(ball.state.rvw[0, 1])),
            )
            for bid, ball in system.balls.items()
        ),
        spec,
    )
    traj = sample(system, trajectories) if trajectories is not None else None
    return ShotRecord(
        position=Position(centres),
        stroke=stroke,
        events=events,
        final=final,
        duration=float(system.t),
        trajectories=traj,
    )


def _positions_of(event: Any, ball_ids: tuple[str, ...]) -> dict[BallId, Point]:
    out: dict[BallId, Point] = {}
    for agent in event.agents:
        if agent.id in ball_ids and agent.initial is not None:
            rvw = agent.initial.state.rvw
            out[BallId(agent.id)] = (float(rvw[0, 0]), float(rvw[0, 1]))
    return out


_LOGGED = {
    EventType.STICK_BALL: engine.EngineEvent.STICK_BALL,
    EventType.BALL_BALL: engine.EngineEvent.BALL_BALL,
    EventType.BALL_LINEAR_CUSHION: engine.EngineEvent.BALL_LINEAR_CUSHION,
    EventType.BALL_CIRCULAR_CUSHION: engine.EngineEvent.BALL_CIRCULAR_CUSHION,
    EventType.BALL_POCKET: engine.EngineEvent.BALL_POCKET,
}


def translate_events(system: pt.System, ptable: engine.PhysicsTable) -> tuple[Event, ...]:
    """pooltool's event list -> the domain log (:func:`kaisa.physics.engine.domain_events`)."""
    ball_ids = tuple(system.balls)
    return engine.domain_events(
        (
            (_LOGGED[ev.event_type], ev.ids, float(ev.time), partial(_positions_of, ev, ball_ids))
            for ev in system.events
            if ev.event_type in _LOGGED
        ),
        ptable,
    )


def engine_events(
    position: Position, stroke: Stroke, *, spec: TableSpec = OFFICIAL
) -> tuple[list[tuple[str, tuple[str, ...], float]], list[tuple[str, int, tuple[float, ...]]]]:
    """pooltool's every event as (type, ids, time) and each ball's final (id, motion state, rvw): the form of
    :func:`kaisa.physics.compiled.engine_events`, for comparing the two event for event."""
    centres = {b: spec.push_off_cushions(p) for b, p in position.items()}
    system = run_engine(build_system(centres, stroke, pooltool_table(spec)))
    events = [
        (ev.event_type.value, tuple(ev.ids), float(ev.time)) for ev in system.events if ev.event_type != EventType.NONE
    ]
    finals = [(bid, int(ball.state.s), tuple(ball.state.rvw.ravel().tolist())) for bid, ball in system.balls.items()]
    return events, finals


def sample(system: pt.System, rate: float) -> Trajectories:
    """The balls' positions every ``1 / rate`` seconds and at the end, from pooltool's ``continuize``."""
    dt = 1.0 / rate
    duration = float(system.t)
    times = engine.sample_times(duration, dt)
    pt.continuize(system, dt=dt, inplace=True)
    balls: dict[BallId, tuple[Point | None, ...]] = {}
    for bid, ball in system.balls.items():
        hist = ball.history_cts
        hist_t = np.array([s.t for s in hist.states])
        samples: list[Point | None] = []
        for t in times:
            i = int(np.searchsorted(hist_t, t + 1e-12, side="right")) - 1
            state = hist.states[max(i, 0)]
            samples.append(None if state.s == ptconst.pocketed else (float(state.rvw[0, 0]), float(state.rvw[0, 1])))
        balls[BallId(bid)] = tuple(samples)
    return Trajectories(rate=rate, times=times, balls=balls)


_ENGINE_SIMULATE: Any = None


def use_as_engine(*, stock: bool = True) -> None:
    """Benchmarks only, for a before/after: make :func:`kaisa.physics.simulate` play by pooltool (stock, or with
    the fast layer) in this process and the processes it forks, until :func:`use_kaisa_engine`."""
    global _ENGINE_SIMULATE
    from kaisa.physics import compiled

    if _ENGINE_SIMULATE is None:
        _ENGINE_SIMULATE = compiled.simulate
    (fast.use_stock if stock else fast.use_fast)()
    compiled.simulate = simulate


def use_kaisa_engine() -> None:
    """Undo :func:`use_as_engine`: Kaisa's engine plays again."""
    global _ENGINE_SIMULATE
    from kaisa.physics import compiled

    if _ENGINE_SIMULATE is not None:
        compiled.simulate = _ENGINE_SIMULATE
        _ENGINE_SIMULATE = None
    fast.use_fast()
