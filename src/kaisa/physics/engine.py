"""The engine's table, positions and domain log: what the physics means in Kaisa's terms.

The table as the event loop sees it (cushion segments, jaw tips, pocket capture circles, built from a
:class:`~kaisa.table.TableSpec`), the checks a position must pass before a stroke, the project's physical
constants, and the translation of the loop's events into the domain log. The loop itself is
:mod:`kaisa.physics.compiled`; pooltool, the reference it is checked against, is only in
:mod:`kaisa.physics.reference`. Nothing here reads a configuration file: results never depend on
``~/.config/pooltool`` or on anything but the arguments.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from kaisa.errors import InvalidPositionError, SimulationError
from kaisa.model import (
    BallContactEvent,
    BallId,
    Event,
    JawEvent,
    PocketEvent,
    Position,
    RailEvent,
    StrikeEvent,
    Stroke,
)
from kaisa.table import OFFICIAL, PLACEMENT_GAP, PocketId, Point, RailId, TableSpec

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

CUE_BALL_OFFSET_TO_POOLTOOL_SIDE = -1.0
"""pooltool's side offset ``a`` is positive on the ball's *left*; ours is positive on the right."""


BALL_BALL_FRICTION = (0.009951, 0.108, 1.088)
"""Ball-ball friction ``a + b exp(-c slip)`` (Alciatore's fit), pooltool 0.6.0's default."""

CUSHION_OMEGA_RATIO = 1.8
"""The ratio of the tangential to the normal frequency in Stronge's compliant cushion model (pooltool 0.6.0's
default for both linear and circular cushions)."""

POCKET_DEPTH = 0.08
"""How far a pocketed ball drops below the bed (metres; pooltool's default pocket depth)."""


class EngineEvent(enum.StrEnum):
    """The kinds of event the event loop produces (pooltool 0.6.0's ``EventType`` names)."""

    STICK_BALL = "stick_ball"
    BALL_BALL = "ball_ball"
    BALL_LINEAR_CUSHION = "ball_linear_cushion"
    BALL_CIRCULAR_CUSHION = "ball_circular_cushion"
    BALL_POCKET = "ball_pocket"
    SPINNING_STATIONARY = "spinning_stationary"
    ROLLING_STATIONARY = "rolling_stationary"
    ROLLING_SPINNING = "rolling_spinning"
    SLIDING_ROLLING = "sliding_rolling"


# --- the table --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Surface:
    """What a cushion piece is in the domain: a rail, or a jaw of a pocket."""

    rail: RailId | None = None
    pocket: PocketId | None = None
    side: RailId | None = None


F8 = NDArray[np.float64]


@dataclass(frozen=True)
class LinearSegment:
    """A straight cushion piece (a rail's nose or a jaw's facing) from ``p1`` to ``p2`` at cushion height, with
    its line ``lx x + ly y + l0 = 0``, its unit axis and a unit normal, computed as pooltool computes them."""

    id: str
    p1: F8
    p2: F8
    lx: float
    ly: float
    l0: float
    unit_axis: F8
    normal: F8

    @staticmethod
    def between(sid: str, p1: F8, p2: F8) -> LinearSegment:
        p1x, p1y, _ = p1
        p2x, p2y, _ = p2
        lx = 1.0 if (p2x - p1x) == 0 else float(-(p2y - p1y) / (p2x - p1x))
        ly = 0.0 if (p2x - p1x) == 0 else 1.0
        l0 = float(-p1x if (p2x - p1x) == 0 else (p2y - p1y) / (p2x - p1x) * p1x - p1y)
        axis = p2 - p1
        unit_axis = axis / _norm3d(axis)
        plane = np.array([lx, ly, 0.0])
        normal = plane / _norm3d(plane)
        return LinearSegment(sid, p1, p2, lx, ly, l0, unit_axis, normal)


@dataclass(frozen=True)
class CircularSegment:
    """A jaw's rounded tip: a circle of cushion at cushion height."""

    id: str
    centre: F8
    radius: float


@dataclass(frozen=True)
class CapturePocket:
    """A pocket's capture circle on the bed: a ball whose centre enters it drops."""

    id: str
    centre: F8
    radius: float
    depth: float = POCKET_DEPTH


@dataclass(frozen=True)
class PhysicsTable:
    """The table as the event loop sees it, built from a :class:`TableSpec`, and what each piece means. The
    pieces keep the order they are built in: the loop breaks ties between equal times by it."""

    spec: TableSpec
    linear: tuple[LinearSegment, ...]
    circular: tuple[CircularSegment, ...]
    capture: tuple[CapturePocket, ...]
    surfaces: Mapping[str, _Surface]
    pockets: Mapping[str, PocketId]


def _norm3d(v: F8) -> float:
    """pooltool's ``norm3d``: the squares summed left to right."""
    x, y, z = (float(c) for c in v)
    return math.sqrt(x * x + y * y + z * z)


def _xyz(p: Point, z: float) -> F8:
    return np.array([p[0], p[1], z], dtype=np.float64)


@lru_cache(maxsize=8)
def physics_table(spec: TableSpec = OFFICIAL) -> PhysicsTable:
    """Build (once per spec) the engine's table: rails, jaw facings and tips, and capture circles."""
    h = spec.cushion_height
    linear: list[LinearSegment] = []
    circular: list[CircularSegment] = []
    capture: list[CapturePocket] = []
    surfaces: dict[str, _Surface] = {}
    for rail in spec.rails.values():
        sid = rail.id.value
        linear.append(LinearSegment.between(sid, _xyz(rail.nose.start, h), _xyz(rail.nose.end, h)))
        surfaces[sid] = _Surface(rail=rail.id)
    pocket_ids: dict[str, PocketId] = {}
    for pocket in spec.pockets.values():
        for jaw in pocket.jaws:
            base = f"{pocket.id.value}/{jaw.side.value}"
            facing_id = f"{base}/facing"
            linear.append(LinearSegment.between(facing_id, _xyz(jaw.facing.start, h), _xyz(jaw.facing.end, h)))
            surfaces[facing_id] = _Surface(pocket=pocket.id, side=jaw.side)
            if jaw.tip.radius > 0:
                tip_id = f"{base}/tip"
                circular.append(CircularSegment(tip_id, _xyz(jaw.tip.centre, h), jaw.tip.radius))
                surfaces[tip_id] = _Surface(pocket=pocket.id, side=jaw.side)
        pid = pocket.id.value
        capture.append(CapturePocket(pid, _xyz(pocket.capture_centre, 0.0), pocket.capture_radius))
        pocket_ids[pid] = pocket.id
    return PhysicsTable(
        spec=spec,
        linear=tuple(linear),
        circular=tuple(circular),
        capture=tuple(capture),
        surfaces=surfaces,
        pockets=pocket_ids,
    )


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


def prepare(position: Position, stroke: Stroke, spec: TableSpec) -> dict[BallId, Point]:
    """The balls' centres for a stroke: the cue ball placed if in hand, the position checked, and balls at a
    cushion moved :data:`~kaisa.table.PLACEMENT_GAP` off it."""
    if stroke.place is not None:
        position = position.with_ball(stroke.ball, stroke.place)
    elif stroke.ball not in position:
        raise InvalidPositionError(
            f"the cue ball {stroke.ball.value} is not on the table; give the stroke a place [x, y] (ball in hand)"
        )
    validate_position(position, spec)
    clear = clear_box(spec, PLACEMENT_GAP)
    return {ball: p if _clear(p, clear) else spec.push_off_cushions(p) for ball, p in position.items()}


# --- the domain log ----------------------------------------------------------------------------------


RawEvent = tuple[EngineEvent, tuple[str, ...], float, "Mapping[BallId, Point] | Callable[[], Mapping[BallId, Point]]"]
"""An engine event as :func:`domain_events` reads it: type, ids, time, and the positions of its balls
before resolution (or a function giving them, called only for events that are logged)."""


def domain_events(raw: Iterable[RawEvent], ptable: PhysicsTable) -> tuple[Event, ...]:
    """Engine events -> the domain log: strike, ball, rail, jaw and pocket events in time order.

    A burst of contacts between the same two balls, or the same ball and cushion piece, within
    :data:`BURST_WINDOW` of the previous one is one contact. The engine's events and pooltool's (the reference,
    :mod:`kaisa.physics.reference`) are translated here.
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
        if kind == EngineEvent.STICK_BALL:
            out.append(StrikeEvent(t, BallId(ids[1]), where(positions)))
        elif kind == EngineEvent.BALL_BALL:
            a, b = BallId(ids[0]), BallId(ids[1])
            if fresh(("ball", frozenset((a, b))), t):
                out.append(BallContactEvent(t, a, b, where(positions)))
        elif kind in (EngineEvent.BALL_LINEAR_CUSHION, EngineEvent.BALL_CIRCULAR_CUSHION):
            ball = BallId(ids[0])
            surface = ptable.surfaces[ids[1]]
            if not fresh(("cushion", ball, surface), t):
                continue
            if surface.rail is not None:
                out.append(RailEvent(t, ball, surface.rail, where(positions)))
            else:
                assert surface.pocket is not None
                out.append(JawEvent(t, ball, surface.pocket, surface.side, where(positions)))
        elif kind == EngineEvent.BALL_POCKET:
            out.append(PocketEvent(t, BallId(ids[0]), ptable.pockets[ids[1]], where(positions)))
    return tuple(out)


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


def sample_times(duration: float, dt: float) -> tuple[float, ...]:
    """The times at which an animation samples a stroke of ``duration`` seconds: every ``dt`` from 0, and the
    end, where the balls rest."""
    samples_before_end = math.floor(duration / dt + 1e-9) + 1
    grid = [i * dt for i in range(samples_before_end)]
    if grid[-1] < duration - 1e-9:
        grid.append(duration)  # always end on the resting position
    return tuple(grid)
