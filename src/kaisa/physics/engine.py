"""Simulate strokes on the Kaisa table with pooltool, and translate its events into the domain log.

This module and its package are the only places that import pooltool. The physics (resolver and ball
parameters) is built here in code, so results never depend on ``~/.config/pooltool``.
"""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Callable, Iterable, Mapping
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

from kaisa.errors import InvalidPositionError, SimulationError
from kaisa.model import (
    BallContactEvent,
    BallId,
    Event,
    JawEvent,
    PocketEvent,
    Position,
    RailEvent,
    ShotRecord,
    StrikeEvent,
    Stroke,
    Trajectories,
)
from kaisa.physics import fast, warmup
from kaisa.table import OFFICIAL, PLACEMENT_GAP, PocketId, Point, RailId, TableSpec

fast.apply_from_environment()  # the faster pooltool layer (same answers), unless KAISA_STOCK_POOLTOOL=1

# pooltool's ball-ball resolver divides 0 by 0 when two balls sit exactly at contact distance; the NaN it gets
# drops that root as intended, so its warning is noise to a user.
warnings.filterwarnings(
    "ignore",
    message="invalid value encountered in divide",
    category=RuntimeWarning,
    module=r"pooltool\.physics\.resolve\.ball_ball\.core",
)

# --- physical constants of this project (documented choices, not read from any config file) ---------

BALL_PARAMETERS: dict[str, Any] = {
    "u_s": 0.2,  # sliding friction, ball-cloth
    "u_r": 0.01,  # rolling friction
    "u_sp_proportionality": 10 * 2 / 5 / 9,  # spinning friction per radius
    "u_b": 0.05,  # ball-ball friction
    "e_b": 0.95,  # ball-ball restitution
    "e_c": 0.85,  # ball-cushion restitution
    "f_c": 0.2,  # ball-cushion friction
    "g": 9.81,
}
"""Ball and cloth parameters beyond size and mass: pooltool 0.6.0's pool values, which suit a pyramid
cloth as well as any published figure does."""

OVERLAP_TOLERANCE = 1e-5
"""Largest overlap (10 micrometres) between two balls, or a ball and a cushion, that is treated as
touching and quietly separated; anything more is an invalid position."""

FINAL_TOLERANCE = 1e-4
"""Largest overlap of a resting ball with a cushion accepted in the engine's results before the result
is rejected as a tunnel."""

BURST_WINDOW = 0.002
"""Contacts between the same two balls (or the same ball and cushion piece) less than this many seconds
after the previous one are one contact: frozen balls make bursts of micro-collisions, while two real
contacts between separating balls cannot happen within 2 ms (friction cannot turn them round so fast)."""

MAX_ENGINE_EVENTS = 50_000
"""A shot with more engine events than this is stopped and reported as a simulation error."""

BACKEND_ENV = warmup.BACKEND_ENV
"""``KAISA_PHYSICS_BACKEND=compiled``: the compiled event loop plays strokes without trajectories."""

CUE_BALL_OFFSET_TO_POOLTOOL_SIDE = -1.0
"""pooltool's side offset ``a`` is positive on the ball's *left*; ours is positive on the right."""


BALL_BALL_FRICTION = (0.009951, 0.108, 1.088)
"""Ball-ball friction ``a + b exp(-c slip)`` (Alciatore's fit), pooltool 0.6.0's default."""


def build_resolver() -> Resolver:
    """The physics resolver, spelled out in code (pooltool's 0.6.0 defaults, pinned here)."""
    return Resolver(
        ball_ball=FrictionalInelastic(friction=AlciatoreBallBallFriction(*BALL_BALL_FRICTION)),
        ball_linear_cushion=StrongeCompliantLinear(omega_ratio=1.8),
        ball_circular_cushion=StrongeCompliantCircular(omega_ratio=1.8),
        ball_pocket=CanonicalBallPocket(),
        stick_ball=InstantaneousPoint(english_throttle=1.0, squirt_throttle=1.0),
        transition=CanonicalTransition(),
        version=None,
    )


ENGINE = PhysicsEngine(resolver=build_resolver())


# --- the table --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Surface:
    """What a pooltool cushion segment is in the domain: a rail, or a jaw of a pocket."""

    rail: RailId | None = None
    pocket: PocketId | None = None
    side: RailId | None = None


@dataclass(frozen=True)
class PhysicsTable:
    """A pooltool table built from a :class:`TableSpec`, and what each of its segments means."""

    spec: TableSpec
    table: pt.Table
    surfaces: Mapping[str, _Surface]
    pockets: Mapping[str, PocketId]


def _xyz(p: Point, z: float) -> np.ndarray[Any, np.dtype[np.float64]]:
    return np.array([p[0], p[1], z], dtype=np.float64)


@lru_cache(maxsize=8)
def physics_table(spec: TableSpec = OFFICIAL) -> PhysicsTable:
    """Build (once per spec) the pooltool table: rails, jaw facings and tips, and capture circles."""
    h = spec.cushion_height
    linear: dict[str, LinearCushionSegment] = {}
    circular: dict[str, CircularCushionSegment] = {}
    surfaces: dict[str, _Surface] = {}
    for rail in spec.rails.values():
        sid = rail.id.value
        linear[sid] = LinearCushionSegment(
            sid, p1=_xyz(rail.nose.start, h), p2=_xyz(rail.nose.end, h), direction=CushionDirection.BOTH
        )
        surfaces[sid] = _Surface(rail=rail.id)
    pockets: dict[str, PtPocket] = {}
    pocket_ids: dict[str, PocketId] = {}
    for pocket in spec.pockets.values():
        for jaw in pocket.jaws:
            base = f"{pocket.id.value}/{jaw.side.value}"
            facing_id = f"{base}/facing"
            linear[facing_id] = LinearCushionSegment(
                facing_id, p1=_xyz(jaw.facing.start, h), p2=_xyz(jaw.facing.end, h), direction=CushionDirection.BOTH
            )
            surfaces[facing_id] = _Surface(pocket=pocket.id, side=jaw.side)
            if jaw.tip.radius > 0:
                tip_id = f"{base}/tip"
                circular[tip_id] = CircularCushionSegment(tip_id, center=_xyz(jaw.tip.centre, h), radius=jaw.tip.radius)
                surfaces[tip_id] = _Surface(pocket=pocket.id, side=jaw.side)
        pid = pocket.id.value
        pockets[pid] = PtPocket(pid, center=_xyz(pocket.capture_centre, 0.0), radius=pocket.capture_radius)
        pocket_ids[pid] = pocket.id
    table = pt.Table(
        cushion_segments=CushionSegments(linear=linear, circular=circular),
        pockets=pockets,
        table_type=TableType.POCKET,
    )
    return PhysicsTable(spec=spec, table=table, surfaces=surfaces, pockets=pocket_ids)


# --- positions ---------------------------------------------------------------------------------------


Box = tuple[float, float, float, float]


def _box_segment(box: Box, a: Point, b: Point) -> float:
    """Distance between an axis-aligned box and a segment (0 if they meet)."""
    x0, y0, x1, y1 = box

    def to_box(p: Point) -> float:
        return math.hypot(max(x0 - p[0], 0.0, p[0] - x1), max(y0 - p[1], 0.0, p[1] - y1))

    def to_segment(p: Point) -> float:
        dx, dy = b[0] - a[0], b[1] - a[1]
        length_sq = dx * dx + dy * dy
        t = 0.0 if length_sq == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length_sq))
        return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))

    corners = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    edges = tuple(zip(corners, corners[1:] + corners[:1], strict=True))

    def crosses(c: Point, d: Point) -> bool:
        def side(p: Point, q: Point, r: Point) -> float:
            return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

        return side(a, b, c) * side(a, b, d) <= 0 and side(c, d, a) * side(c, d, b) <= 0

    if to_box(a) == 0 or any(crosses(c, d) for c, d in edges):
        return 0.0
    return min(to_box(a), to_box(b), *(to_segment(c) for c in corners))


@lru_cache(maxsize=16)
def clear_box(spec: TableSpec, gap: float) -> Box | None:
    """The box of centres at least ``gap`` clear of every cushion surface, proven from the table's own
    pieces (rail noses, jaw tips and facings), with a nanometre to spare; None if a piece reaches into it.

    Inside it, the table's ``cushion_gap`` is known to be at least ``gap`` without computing it: the
    position checks and ``push_off_cushions`` (about 11 us per ball each) run only for balls outside it,
    with the same answers.
    """
    need = spec.ball_radius + gap + 1e-9
    box = (need, need, spec.width - need, spec.length - need)
    if box[0] >= box[2] or box[1] >= box[3]:
        return None
    pieces = [_box_segment(box, rail.nose.start, rail.nose.end) for rail in spec.rails.values()]
    for jaw in spec.jaws:
        pieces.append(_box_segment(box, jaw.facing.start, jaw.facing.end))
        pieces.append(_box_segment(box, jaw.tip.centre, jaw.tip.centre) - jaw.tip.radius)
    return box if min(pieces) >= spec.ball_radius + gap + 1e-12 else None


def _clear(p: Point, box: Box | None) -> bool:
    return box is not None and box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]


def validate_position(position: Position, spec: TableSpec = OFFICIAL) -> None:
    """Raise :class:`InvalidPositionError` if a ball is off the bed, in a cushion, or overlaps another."""
    r = spec.ball_radius
    clear = clear_box(spec, 0.0)
    for ball, p in position.items():
        if _clear(p, clear):
            continue  # on the bed, clear of every cushion
        if not spec.is_on_bed(p):
            raise InvalidPositionError(
                f"{ball.value} at ({p[0]:.4f}, {p[1]:.4f}) is outside the playing area: centres must lie within "
                f"0 <= x <= {spec.width} and 0 <= y <= {spec.length} m, or in a pocket's mouth"
            )
        gap = spec.cushion_gap(p)
        if gap < -OVERLAP_TOLERANCE:
            raise InvalidPositionError(
                f"{ball.value} at ({p[0]:.4f}, {p[1]:.4f}) overlaps a cushion by {-gap * 1000:.2f} mm: a ball's centre "
                f"must be at least its radius ({r * 1000:.1f} mm) from every cushion"
            )
    items = list(position.items())
    for i, (a, pa) in enumerate(items):
        for b, pb in items[i + 1 :]:
            overlap = 2 * r - math.hypot(pa[0] - pb[0], pa[1] - pb[1])
            if overlap > OVERLAP_TOLERANCE:
                raise InvalidPositionError(
                    f"balls {a.value} and {b.value} overlap by {overlap * 1000:.2f} mm: centres must be at least "
                    f"{2 * r * 1000:.1f} mm apart"
                )


def _prepare(position: Position, stroke: Stroke, spec: TableSpec) -> dict[BallId, Point]:
    if stroke.place is not None:
        position = position.with_ball(stroke.ball, stroke.place)
    elif stroke.ball not in position:
        raise InvalidPositionError(
            f"the cue ball {stroke.ball.value} is not on the table; give the stroke a place [x, y] (ball in hand)"
        )
    validate_position(position, spec)
    clear = clear_box(spec, PLACEMENT_GAP)
    return {ball: p if _clear(p, clear) else spec.push_off_cushions(p) for ball, p in position.items()}


# --- simulation --------------------------------------------------------------------------------------


def build_system(centres: Mapping[BallId, Point], stroke: Stroke, ptable: PhysicsTable) -> pt.System:
    """The pooltool system for one stroke: a fresh copy of the table (pockets record their contents)."""
    balls = {b.value: build_ball(b, p, ptable.spec) for b, p in centres.items()}
    return pt.System(cue=build_cue(stroke), table=ptable.table.copy(), balls=balls)


def build_ball(ball: BallId, centre: Point, spec: TableSpec) -> pt.Ball:
    """A resting pooltool ball with this project's parameters."""
    return pt.Ball.create(ball.value, xy=centre, R=spec.ball_radius, m=spec.ball_mass, **BALL_PARAMETERS)


def build_cue(stroke: Stroke) -> pt.Cue:
    """pooltool's cue for ``stroke`` (its side offset is positive on the other side)."""
    return pt.Cue(
        cue_ball_id=stroke.ball.value,
        V0=stroke.speed,
        phi=stroke.direction,
        theta=stroke.elevation,
        a=CUE_BALL_OFFSET_TO_POOLTOOL_SIDE * stroke.side,
        b=stroke.follow,
    )


def run_engine(system: pt.System) -> pt.System:
    """Simulate in place with this project's engine; refuse runaway shots, and a contact pooltool's models
    cannot resolve (its Stronge cushion model asserts ``v_n_0 < 0``; a root finder finds no sign change: about
    one random stroke in 20,000, such as three balls on the head rail and the cue ball into them) as a
    :class:`SimulationError`, which a search skips and a match reports, instead of a bare exception."""
    try:
        pt.simulate(system, engine=ENGINE, inplace=True, max_events=MAX_ENGINE_EVENTS)
    except (AssertionError, ArithmeticError, ValueError) as exc:
        raise SimulationError(
            f"the physics engine could not resolve a contact of this stroke ({type(exc).__name__}"
            f"{': ' + str(exc) if str(exc) else ''}); a slightly different stroke can be played"
        ) from exc
    if len(system.events) > MAX_ENGINE_EVENTS:
        raise SimulationError(f"the shot did not settle within {MAX_ENGINE_EVENTS} physics events")
    return system


def simulate(
    position: Position,
    stroke: Stroke,
    *,
    trajectories: float | None = None,
    spec: TableSpec = OFFICIAL,
) -> ShotRecord:
    """Play ``stroke`` from ``position`` and return what happened.

    ``trajectories`` is a sampling rate in Hz (60 for animation); ``None`` skips sampling.
    Raises :class:`InvalidPositionError` for a position that cannot be on the table and
    :class:`SimulationError` if the engine's result cannot be true.
    """
    if trajectories is not None and not (math.isfinite(trajectories) and 1 <= trajectories <= 1000):
        raise ValueError(f"trajectory rate {trajectories} Hz is out of range: allowed is [1, 1000] Hz")
    if not warmup.noticed:  # the first stroke of a process: say so if it has to compile the kernels
        warmup.notice_first_use()
    if trajectories is None and os.environ.get(BACKEND_ENV) == "compiled":
        from kaisa.physics import compiled  # only behind the flag: the default path never compiles its kernels

        return compiled.simulate(position, stroke, spec=spec)
    return simulate_pooltool(position, stroke, trajectories=trajectories, spec=spec)


def simulate_pooltool(
    position: Position,
    stroke: Stroke,
    *,
    trajectories: float | None = None,
    spec: TableSpec = OFFICIAL,
) -> ShotRecord:
    """:func:`simulate` by pooltool itself, whatever :data:`BACKEND_ENV` says."""
    ptable = physics_table(spec)
    centres = _prepare(position, stroke, spec)
    system = run_engine(build_system(centres, stroke, ptable))
    events = translate_events(system, ptable)
    final = _final_position(system, spec)
    traj = _sample(system, trajectories) if trajectories is not None else None
    start = Position(centres)
    return ShotRecord(
        position=start, stroke=stroke, events=events, final=final, duration=float(system.t), trajectories=traj
    )


def _positions_of(event: Any, ball_ids: tuple[str, ...]) -> dict[BallId, Point]:
    out: dict[BallId, Point] = {}
    for agent in event.agents:
        if agent.id in ball_ids and agent.initial is not None:
            rvw = agent.initial.state.rvw
            out[BallId(agent.id)] = (float(rvw[0, 0]), float(rvw[0, 1]))
    return out


RawEvent = tuple[EventType, tuple[str, ...], float, "Mapping[BallId, Point] | Callable[[], Mapping[BallId, Point]]"]
"""An engine event as :func:`domain_events` reads it: type, ids, time, and the positions of its balls
before resolution (or a function giving them, called only for events that are logged)."""

_LOGGED = frozenset(
    (
        EventType.STICK_BALL,
        EventType.BALL_BALL,
        EventType.BALL_LINEAR_CUSHION,
        EventType.BALL_CIRCULAR_CUSHION,
        EventType.BALL_POCKET,
    )
)


def translate_events(system: pt.System, ptable: PhysicsTable) -> tuple[Event, ...]:
    """pooltool's event list -> the domain log (:func:`domain_events`)."""
    ball_ids = tuple(system.balls)
    return domain_events(
        (
            (ev.event_type, ev.ids, float(ev.time), partial(_positions_of, ev, ball_ids))
            for ev in system.events
            if ev.event_type in _LOGGED
        ),
        ptable,
    )


def domain_events(raw: Iterable[RawEvent], ptable: PhysicsTable) -> tuple[Event, ...]:
    """Engine events -> the domain log: strike, ball, rail, jaw and pocket events in time order.

    A burst of contacts between the same two balls, or the same ball and cushion piece, within
    :data:`BURST_WINDOW` of the previous one is one contact. Both backends (pooltool and
    :mod:`kaisa.physics.compiled`) are translated here.
    """
    out: list[Event] = []
    last_seen: dict[tuple[object, ...], float] = {}

    def fresh(key: tuple[object, ...], t: float) -> bool:
        previous = last_seen.get(key)
        last_seen[key] = t
        return previous is None or t - previous >= BURST_WINDOW

    def where(positions: Mapping[BallId, Point] | Callable[[], Mapping[BallId, Point]]) -> dict[BallId, Point]:
        return dict(positions() if callable(positions) else positions)

    for kind, ids, t, positions in raw:
        if kind == EventType.STICK_BALL:
            out.append(StrikeEvent(t, BallId(ids[1]), where(positions)))
        elif kind == EventType.BALL_BALL:
            a, b = BallId(ids[0]), BallId(ids[1])
            if fresh(("ball", frozenset((a, b))), t):
                out.append(BallContactEvent(t, a, b, where(positions)))
        elif kind in (EventType.BALL_LINEAR_CUSHION, EventType.BALL_CIRCULAR_CUSHION):
            ball = BallId(ids[0])
            surface = ptable.surfaces[ids[1]]
            if not fresh(("cushion", ball, surface), t):
                continue
            if surface.rail is not None:
                out.append(RailEvent(t, ball, surface.rail, where(positions)))
            else:
                assert surface.pocket is not None
                out.append(JawEvent(t, ball, surface.pocket, surface.side, where(positions)))
        elif kind == EventType.BALL_POCKET:
            out.append(PocketEvent(t, BallId(ids[0]), ptable.pockets[ids[1]], where(positions)))
    return tuple(out)


def _final_position(system: pt.System, spec: TableSpec) -> Position:
    return final_position(
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


def final_position(rests: Iterable[tuple[str, Point | None]], spec: TableSpec) -> Position:
    """The balls at rest (None: pocketed) -> the final position; a ball through a cushion is an error."""
    final: dict[BallId, Point] = {}
    clear = clear_box(spec, 0.0)
    for bid, p in rests:
        if p is None:
            continue
        if not (_clear(p, clear) or spec.ball_fits(p, tolerance=FINAL_TOLERANCE)):
            raise SimulationError(
                f"{bid} came to rest at ({p[0]:.4f}, {p[1]:.4f}), through a cushion; the physics engine lost it"
            )
        final[BallId(bid)] = p
    return Position(final)


def _sample(system: pt.System, rate: float) -> Trajectories:
    dt = 1.0 / rate
    duration = float(system.t)
    samples_before_end = math.floor(duration / dt + 1e-9) + 1
    grid = [i * dt for i in range(samples_before_end)]
    if grid[-1] < duration - 1e-9:
        grid.append(duration)  # always end on the resting position
    times = tuple(grid)
    pt.continuize(system, dt=dt, inplace=True)
    balls: dict[BallId, tuple[Point | None, ...]] = {}
    for bid, ball in system.balls.items():
        hist = ball.history_cts
        hist_t = np.array([s.t for s in hist.states])
        samples: list[Point | None] = []
        for t in times:
            i = int(np.searchsorted(hist_t, t + 1e-12, side="right")) - 1
            state = hist.states[max(i, 0)]
            if state.s == ptconst.pocketed:
                samples.append(None)
            else:
                samples.append((float(state.rvw[0, 0]), float(state.rvw[0, 1])))
        balls[BallId(bid)] = tuple(samples)
    return Trajectories(rate=rate, times=times, balls=balls)
