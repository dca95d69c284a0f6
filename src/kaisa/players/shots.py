"""Shot generation: every call the geometry allows from a position, with a first aim, speed and difficulty.

:func:`generate` lists :class:`~kaisa.players.candidates.ShotCandidate` values for the shooter, easiest
first, of six kinds (:data:`~kaisa.players.candidates.KINDS`):

========  ======================  ===================================================================
kind      call                    route
========  ======================  ===================================================================
direct    ``B P``                 cue ball onto B, B straight into P
bank      ``B rail P``            B off one cushion into P
kick      ``rail B P``            the cue ball off one cushion onto B, B straight into P
kyyti     ``kyyti X B P``         the cue ball drives X into B, B into P
kara      ``kara X B P``          the cue ball comes off X onto B, B into P
kiss      ``B kiss X P``          B comes off X into P
========  ======================  ===================================================================

**Geometry.** Aims come from three constructions, with no physics engine:

- *ghost ball*: to send a ball at ``B`` along the unit vector ``u``, the striking ball's centre must be at
  ``B - 2R u`` at contact; the *cut* is the angle between the striking ball's path and ``u``;
- *cushions*: a ball's centre rebounds off the line one radius inside a rail's nose, so a cushion route
  first aims at the mirror image of its target across that line; the contact must fall on the rail's
  straight nose, clear of the rounded jaws;
- *tangent line* (the 90-degree rule): a sliding ball that strikes another leaves along the tangent line,
  perpendicular to the line of centres. Kara (the cue ball off X) and kiss (the called ball off X) first
  aim where that tangent passes through the next target (a Thales circle).

Each first aim is then corrected for three things the pure geometry ignores, in the same plane geometry and
with the engine's friction constants (measured against it; see the tables and :func:`_arrive`):

- *roll*: a ball set moving without spin slides, then rolls (:func:`_arrive` says how much of its natural
  roll it has at a contact). A rolling ball comes off a cushion wider than the mirror, bending on a
  parabola (:data:`CUSHION_ROLLING` against :data:`CUSHION_SLIDING`), and after a cut its forward roll
  bends it from the tangent line towards its old path (it ends rolling at ``(5 u + 2 w) / 7`` of its
  velocity ``u`` after the collision and spin velocity ``w``). Cushion routes are solved again for the
  roll at their speed (a bisection along the rail), kara and kiss routes too (the tangent-line solution
  followed while the roll grows; a rolling ball cannot be deflected far, so some of these vanish). A kara
  is struck with the draw that stuns the cue ball at X where the speed allows it;
- *throw*: friction between the balls turns a cut ball off the line of centres towards the striking
  ball's path (about a degree, :func:`_throw`), so the ghost ball is turned the other way;
- *aim point*: the called ball is aimed at a point :data:`AIM_DEPTH` in front of the pocket's haaki line
  on its axis: a ball arriving at an angle drops best a few millimetres towards the far jaw.

A route is skipped when any ball lies within two radii of one of its legs (the cue ball to its first
contact, each cushion leg, the called ball to the pocket), when a leg would pass close by a pocket it is
not meant for, when a cut is thinner than :data:`MAX_CUT`, when a cushion contact falls off the nose, or
when the first :data:`WAKE` metres of the cue ball's run after its first contact would scratch into a
pocket or cross the called ball's way back (a käkä).

**Difficulty** is ``log2(1 + 1 degree / tolerance)``, where the tolerance is an estimate of how far the
cue's direction may err and still pot: the pocket accepts a lateral error (:data:`CORNER_WINDOW`,
:data:`MIDDLE_WINDOW`, by the angle between the called ball's path and the pocket's axis, measured on the
engine), and every collision shrinks the angular tolerance of the ball before it by
``2R cos(cut) / distance``. Each cushion (:data:`CUSHION_PENALTY`) and each collision beyond the first
(:data:`COLLISION_PENALTY`) adds a fixed amount for what is still not modelled, and a stroke that would
need more than :data:`MAX_STROKE_SPEED` is penalised. One unit of difficulty halves the allowed error; it
is never negative, and about 7 means a tolerance under a hundredth of a degree.

**Speed** is worked backwards from the pocket: the called ball should arrive rolling with pace for another
:data:`FIRM_REACH` metres; a rolling ball runs :data:`ROLL_DISTANCE` ``* v^2`` metres; a ball set moving
without spin (by the cue or a collision) slides first and keeps 5/7 of its speed; a collision hands on
``cos(cut)`` of the speed (``sin(cut)`` to a ball deflected along the tangent); a cushion keeps
:data:`CUSHION_KEEP`; the cue gives the ball :data:`CUE_TO_BALL` times its own speed. The stroke's speed is
clipped to [:data:`MIN_STROKE_SPEED`, :data:`MAX_STROKE_SPEED`].

**Rules** (REFERENCE.md sections 4-5): never the shooter's own cue ball (the opponent's white is an object
ball); no bank off a rail next to its pocket (its last contact would make it a mankeli, 7f); no konsti with
the konsti ball frozen to the called ball (8c). From hand the first ball the cue ball touches must lie in
front of the head string unless the cue ball goes to a cushion first, which must then be in front of the
line (5). The referee's predicates (:mod:`kaisa.referee.predicates`) decide the rest, so the rules are stated
once: which pockets can score in this state (``call_can_score``: 5 and 1.2 from hand, 2.1 the direct middle
kaisa twice, 6 the shoot-out's first pot), which balls can be a kara or kiss ball (``konsti_ball_usable``,
7h) and which directions push a frozen ball (``pushes``, talonmies 7d and 8a; none when the cue ball cannot
be struck away, 8b).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from kaisa.call import Call, Konsti, Leg
from kaisa.model import MAX_TIP_OFFSET, BallId, Position, Stroke
from kaisa.physics.engine import BALL_BALL_FRICTION, BALL_PARAMETERS
from kaisa.players.candidates import KINDS, ShotCandidate
from kaisa.referee.observe import cannot_strike_away
from kaisa.referee.opening import check_hand_placement
from kaisa.referee.options import DEFAULT_OPTIONS
from kaisa.referee.predicates import call_can_score, konsti_ball_usable, pushes
from kaisa.referee.state import GameState
from kaisa.table import OFFICIAL, PocketId, Point, RailId, TableSpec

__all__ = [
    "AIM_DEPTH",
    "CAPS",
    "CORNER_WINDOW",
    "CUSHION_ROLLING",
    "CUSHION_SLIDING",
    "MAX_CUT",
    "MIDDLE_WINDOW",
    "cushion_exit",
    "generate",
    "pocket_window",
]

AIM_DEPTH = -0.006
"""Where the called ball is aimed: this far along the pocket's axis from the mouth centre (negative: in
front of the haaki line, on the bed side)."""

CORNER_WINDOW: tuple[tuple[float, float], ...] = (
    (0.0, 4.5),
    (10.0, 4.0),
    (15.0, 3.5),
    (20.0, 2.5),
    (25.0, 2.0),
)
"""(entry angle in degrees off the pocket's axis, half-width in mm of the lateral error a 72 mm corner
still accepts), measured on the engine (about 1 mm at 27 degrees, none at 35); beyond the last angle a corner
is not played."""

MIDDLE_WINDOW: tuple[tuple[float, float], ...] = (
    (0.0, 11.0),
    (10.0, 10.5),
    (15.0, 10.0),
    (25.0, 8.0),
    (30.0, 6.0),
    (35.0, 4.5),
    (40.0, 2.5),
)
"""The same for the 82 mm middle pockets (about 0.5 mm at 45 degrees)."""

CUSHION_STEP = 5.0
CUSHION_ROLLING: tuple[tuple[float, ...], tuple[float, ...]] = (
    (0.0, 4.0, 8.1, 12.3, 16.8, 21.6, 26.7, 32.2, 37.9, 43.9, 50.0, 56.1, 62.1, 67.8, 73.1, 78.0),
    (0.0, 6.2, 12.5, 18.9, 25.6, 32.5, 39.5, 46.4, 53.2, 59.5, 65.4, 70.6, 75.1, 78.9, 82.2, 84.8),
)
"""How a rolling ball leaves a cushion it meets 0, 5, ..., 75 degrees off the normal: the angle off the normal
it leaves at, and the angle it ends up rolling at (its topspin bends it wider), both in degrees. Measured on
the engine; the same at every speed."""
CUSHION_SLIDING: tuple[tuple[float, ...], tuple[float, ...]] = (
    (0.0, 4.2, 8.2, 11.9, 15.5, 19.4, 23.6, 28.5, 34.3, 41.5, 48.8, 55.7, 62.0, 67.8, 73.1, 77.9),
    (0.0, 3.3, 6.2, 8.9, 11.4, 14.2, 17.5, 21.7, 27.3, 35.1, 43.7, 51.9, 59.4, 66.3, 72.3, 77.6),
)
"""The same for a ball that meets the cushion sliding without spin (just struck)."""
CUSHION_SPEEDS = ((0.77, 0.6), (0.72, 0.57))
"""Shares of its speed a ball has as it leaves a cushion and once it rolls again: (rolling, sliding)."""

MAX_CUT = 70.0
"""Degrees: thinner cuts are not generated."""
MIN_DEFLECTION_CUT = 20.0
"""Degrees: a ball that must go on along the tangent line (the cue ball of a kara, the called ball of a
kiss) needs at least this cut to keep some pace."""
MAX_INCIDENCE = 75.0
"""Degrees off a cushion's normal: a ball grazing a cushion more thinly than this is not relied on."""
RAIL_MARGIN = 0.01
"""A cushion contact must lie this far (metres) inside the straight nose of its rail, clear of the jaws."""
WAKE = 0.3
"""Metres of the cue ball's run after its first contact that must stay out of the pockets and clear of the
called ball's later legs."""
OFF_LINE = 5.0
"""Degrees a deflected ball's line may be off its target before the route counts as missed (restitution
turns a ball a few degrees off the pure tangent line, which the first construction ignores)."""
KONSTI_RUN = 0.5
"""Metres of the kara ball's own path after it is struck that must be clear of the called ball."""

SLIDING_DECELERATION = BALL_PARAMETERS["u_s"] * BALL_PARAMETERS["g"]
"""m/s^2: the engine's cloth (sliding friction 0.2)."""
ROLL_DISTANCE = 1 / (2 * BALL_PARAMETERS["u_r"] * BALL_PARAMETERS["g"])
"""Metres a rolling ball runs per (m/s)^2 of its speed (the engine's rolling friction 0.01), about 5.1."""
SLIDE_DISTANCE = 12 / (49 * SLIDING_DECELERATION)
"""Metres per (m/s)^2 of its speed that a ball set moving without spin slides before it rolls; by then it
has 5/7 of its speed."""
SLIP_DECAY = 3.5 * SLIDING_DECELERATION
"""m/s^2 at which the slip of a sliding ball dies away."""
STRIKE_SPIN = 2.5
"""Spin velocity per unit of follow, as a share of the struck ball's speed (5/2: follow 0.4 rolls)."""
STUN_SPEED = math.sqrt(SLIDING_DECELERATION / 0.375)
"""Ball speed per square-root metre a stun needs: the most draw (0.5) lets the spin die away after
0.375 v^2 / (g u_s) metres."""
SLIDE_LOSS = 7 / 5
"""A ball set moving without spin rolls on at 5/7 of its speed: it needs 7/5 of the speed it rolls at."""
CUE_TO_BALL = 1.42
"""Ball speed over cue speed for a centre-ball stroke (measured on the engine)."""
BALL_FRICTION = BALL_BALL_FRICTION
"""The engine's ball-ball friction, ``a + b exp(-c slip)`` (Alciatore's fit), for throw."""
BALL_RESTITUTION = float(BALL_PARAMETERS["e_b"])
"""Ball-ball restitution (the engine's)."""
BALL_TRANSFER = (1 + BALL_RESTITUTION) / 2
"""Share of the speed along the line of centres handed on in a ball-ball collision."""
CUSHION_KEEP = 0.65
"""Share of its speed a rolling ball keeps off a cushion, the slide after it included (measured)."""
FIRM_REACH = 1.0
"""The called ball arrives with pace enough to roll this much further (metres)."""
FIRM_SPEED = math.sqrt(FIRM_REACH / ROLL_DISTANCE)
MIN_STROKE_SPEED = 1.0
MAX_STROKE_SPEED = 6.0
UNREACHABLE_SPEED = 9.0
"""A route needing a cue speed above this (m/s) is not generated."""

CUSHION_PENALTY = 1.0
COLLISION_PENALTY = 0.75
SPEED_PENALTY = 2.0
"""Difficulty per doubling of the speed a route needs beyond :data:`MAX_STROKE_SPEED`."""

CAPS: Mapping[str, int] = {"direct": 24, "bank": 24, "kick": 24, "kyyti": 16, "kara": 16, "kiss": 16}
"""At most this many candidates of each kind (the easiest) are kept, before ``limit``."""


# --- vectors ---------------------------------------------------------------------------------------------


def _sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def _dot(a: Point, b: Point) -> float:
    return a[0] * b[0] + a[1] * b[1]


def _cross(a: Point, b: Point) -> float:
    return a[0] * b[1] - a[1] * b[0]


def _norm(a: Point) -> float:
    return math.hypot(a[0], a[1])


def _along(a: Point, u: Point, k: float) -> Point:
    return (a[0] + u[0] * k, a[1] + u[1] * k)


def _angle(u: Point, v: Point) -> float:
    """Degrees between two unit vectors, 0..180."""
    return math.degrees(math.acos(max(-1.0, min(1.0, _dot(u, v)))))


def _unit_at(angle: float) -> Point:
    return (math.cos(angle), math.sin(angle))


def _rotate(u: Point, angle: float) -> Point:
    c, s = math.cos(angle), math.sin(angle)
    return (u[0] * c - u[1] * s, u[0] * s + u[1] * c)


def _unit_or(v: Point, fallback: Point) -> Point:
    n = math.hypot(v[0], v[1])
    return fallback if n < 1e-9 else (v[0] / n, v[1] / n)


def _towards(a: Point, b: Point) -> tuple[Point, float] | None:
    """The unit vector from ``a`` to ``b`` and the distance, or ``None`` when they coincide."""
    v = (b[0] - a[0], b[1] - a[1])
    length = math.hypot(v[0], v[1])
    if length < 1e-6:
        return None
    return (v[0] / length, v[1] / length), length


def _segments_apart(a: Point, b: Point, c: Point, d: Point, gap: float) -> bool:
    """Whether the segments a-b and c-d keep at least ``gap`` apart."""
    ab, cd = _sub(b, a), _sub(d, c)
    d1, d2 = _cross(ab, _sub(c, a)), _cross(ab, _sub(d, a))
    d3, d4 = _cross(cd, _sub(a, c)), _cross(cd, _sub(b, c))
    if d1 * d2 < 0 and d3 * d4 < 0:
        return False  # they cross
    return (
        min(
            _segment_distance(c, a, b)[1],
            _segment_distance(d, a, b)[1],
            _segment_distance(a, c, d)[1],
            _segment_distance(b, c, d)[1],
        )
        >= gap
    )


def _segment_distance(p: Point, a: Point, b: Point) -> tuple[float, float]:
    """(parameter along a-b of the point nearest ``p``, before clamping to the segment; its distance)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length_sq = dx * dx + dy * dy
    t = 0.0 if length_sq == 0 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length_sq
    tc = max(0.0, min(1.0, t))
    return t, math.hypot(p[0] - (a[0] + tc * dx), p[1] - (a[1] + tc * dy))


# --- what the balls do, in the simplest terms that hold on the engine ----------------------------------------


def pocket_window(spec: TableSpec, pocket: PocketId, entry: float) -> float:
    """Half-width in metres of the lateral error ``pocket`` accepts from a ball arriving ``entry`` degrees
    off its axis (0: the pocket is not played at that angle). Scaled from the official table by the room
    the mouth leaves the ball."""
    table = CORNER_WINDOW if pocket.is_corner else MIDDLE_WINDOW
    if entry > table[-1][0]:
        return 0.0
    if pocket.is_corner:
        scale = (spec.corner_mouth - spec.ball_diameter) / (OFFICIAL.corner_mouth - OFFICIAL.ball_diameter)
    else:
        scale = (spec.middle_mouth - spec.ball_diameter) / (OFFICIAL.middle_mouth - OFFICIAL.ball_diameter)
    for (a0, w0), (a1, w1) in itertools.pairwise(table):
        if entry <= a1:
            return scale * (w0 + (w1 - w0) * (entry - a0) / (a1 - a0)) / 1000.0
    return scale * table[-1][1] / 1000.0


def cushion_exit(incidence: float, rolling: float) -> tuple[float, float, float, float]:
    """How a ball leaves a cushion it meets ``incidence`` degrees off the normal, with ``rolling`` its spin
    velocity over its speed (0: sliding without spin, 1: rolling): (angle off the normal as it leaves, share
    of its speed then, angle off the normal once it rolls again, share of its speed then)."""
    x = max(0.0, min(incidence, 75.0)) / CUSHION_STEP
    i = min(int(x), len(CUSHION_ROLLING[0]) - 2)
    frac = x - i
    # the roll tells more the steeper the ball comes in: its weight is rolling ** max(1, 45 / incidence)
    share = math.pow(max(0.0, min(1.0, rolling)), min(6.0, max(1.0, 45.0 / max(incidence, 1e-6))))

    def blend(rolls: tuple[float, ...], slides: tuple[float, ...]) -> float:
        roll = rolls[i] + (rolls[i + 1] - rolls[i]) * frac
        slide = slides[i] + (slides[i + 1] - slides[i]) * frac
        return share * roll + (1.0 - share) * slide

    (keep_roll, final_roll), (keep_slide, final_slide) = CUSHION_SPEEDS
    return (
        blend(CUSHION_ROLLING[0], CUSHION_SLIDING[0]),
        share * keep_roll + (1 - share) * keep_slide,
        blend(CUSHION_ROLLING[1], CUSHION_SLIDING[1]),
        share * final_roll + (1 - share) * final_slide,
    )


def _path_miss(start: Point, bend: Point, direction: Point, target: Point) -> float:
    """How far ``target`` lies to the left of a path that curves from ``start`` to ``bend`` (taken as the
    chord) and runs on straight along ``direction`` from there."""
    if _norm(_sub(target, start)) <= _norm(_sub(bend, start)):
        chord = _towards(start, bend)
        if chord is not None:
            return _cross(chord[0], _sub(target, start))
    return _cross(direction, _sub(target, bend))


def _settle(start: Point, u0: Point, final: Point) -> Point:
    """Where a ball that leaves ``start`` at velocity ``u0`` and slides on a parabola until it rolls at
    velocity ``final`` begins to roll (its acceleration is constant while it slides)."""
    slide_time = _norm(_sub(final, u0)) / SLIDING_DECELERATION
    return (start[0] + (u0[0] + final[0]) / 2 * slide_time, start[1] + (u0[1] + final[1]) / 2 * slide_time)


def _arrive(speed: float, distance: float, spin: float = 0.0) -> tuple[float, float]:
    """A ball set moving at ``speed`` with ``spin`` times that as spin velocity (0: none, 1: rolling,
    negative: backspin), ``distance`` metres later: (its speed, its spin velocity over its speed)."""
    if speed <= 0 or spin >= 1:
        return math.sqrt(max(0.0, speed * speed - distance / ROLL_DISTANCE)), 1.0
    slide_time = speed * (1 - spin) / SLIP_DECAY
    slide = speed * slide_time - SLIDING_DECELERATION * slide_time * slide_time / 2
    if distance < slide:
        t = (speed - math.sqrt(max(0.0, speed * speed - 2 * SLIDING_DECELERATION * distance))) / SLIDING_DECELERATION
        v = speed - SLIDING_DECELERATION * t
        return v, (spin * speed + 2.5 * SLIDING_DECELERATION * t) / v
    rolling = speed - SLIDING_DECELERATION * slide_time
    return math.sqrt(max(0.0, rolling * rolling - (distance - slide) / ROLL_DISTANCE)), 1.0


def _stun_follow(speed: float, distance: float) -> float:
    """The follow (negative: draw) that makes a ball struck at ``speed`` (the ball's) arrive ``distance`` away
    without spin, within the legal tip offset; for a stun kara."""
    need = 2 * distance * SLIDING_DECELERATION / (speed * speed) if speed > 0 else 1.0
    if need >= 1:
        return -MAX_TIP_OFFSET
    return max(-MAX_TIP_OFFSET, -1 + math.sqrt(1 - need))


def _throw(speed: float, spin: float, cut: float) -> float:
    """Degrees by which a ball struck with this cut leaves off the line of centres, towards the striking ball's
    path (collision-induced throw): the striking ball arrives at ``speed`` with ``spin`` its spin velocity over
    its speed. Friction at the contact acts against the slip there (sideways from the cut, vertical from the
    spin), with the engine's speed-dependent coefficient, and never more than stops the slip."""
    phi = math.radians(cut)
    sideways, vertical = speed * math.sin(phi), spin * speed * math.cos(phi)
    slip = math.hypot(sideways, vertical)
    if slip < 1e-9 or speed <= 0:
        return 0.0
    a, b, c = BALL_FRICTION
    friction = min(a + b * math.exp(-c * slip), slip / (7 * speed * math.cos(phi)))
    return math.degrees(math.atan(friction * sideways / slip))


def _hit(start: Point, d: Point, target: Point, diameter: float) -> Point | None:
    """Where the centre of a ball going from ``start`` along ``d`` is when it touches the ball at ``target``."""
    rel = _sub(target, start)
    ahead = _dot(rel, d)
    side_sq = _dot(rel, rel) - ahead * ahead
    if ahead <= 0 or side_sq >= diameter * diameter:
        return None
    return _along(start, d, ahead - math.sqrt(diameter * diameter - side_sq))


def _deflect(contact: Point, d: Point, n: Point, speed: float, rolling: float) -> tuple[Point, Point, float] | None:
    """The line a ball follows once it has struck another ball: it arrives at ``contact`` along ``d`` at
    ``speed`` with ``rolling`` of its natural roll, the line of centres being ``n``. It leaves along the
    tangent line, slides on a parabola, and rolls on straight: returns (where it starts rolling, unit
    direction, speed then), or ``None`` if it stops dead."""
    cos_cut = _dot(d, n)
    tangent = (d[0] - cos_cut * n[0], d[1] - cos_cut * n[1])
    kept = (1 - BALL_TRANSFER) * cos_cut  # what restitution leaves along the line of centres
    u0 = (speed * (tangent[0] + kept * n[0]), speed * (tangent[1] + kept * n[1]))
    w = (rolling * speed * d[0], rolling * speed * d[1])
    final = ((5 * u0[0] + 2 * w[0]) / 7, (5 * u0[1] + 2 * w[1]) / 7)
    size = _norm(final)
    if size < 1e-3:
        return None
    return _settle(contact, u0, final), (final[0] / size, final[1] / size), size


def _solve(
    miss: Callable[[float], float | None], x0: float, step: float = 0.002, tolerance: float = 2e-5
) -> float | None:
    """A root of ``miss`` near ``x0`` by the secant method, or ``None``."""
    x1 = x0 + step
    f0, f1 = miss(x0), miss(x1)
    for _ in range(16):
        if f0 is None or f1 is None:
            return None
        if abs(f1) < tolerance:
            return x1
        if f1 == f0:
            return None
        x0, x1 = x1, x1 - f1 * (x1 - x0) / (f1 - f0)
        if abs(x1 - x0) > 0.2:
            return None  # wandered off to another branch
        f0, f1 = f1, miss(x1)
    return None


# --- the table, prepared once per spec -----------------------------------------------------------------


@dataclass(frozen=True)
class _Rail:
    id: RailId
    origin: Point
    """A point on the line the ball's centre touches (the nose moved one radius inwards)."""
    inward: Point
    nose_start: Point
    nose_dir: Point
    nose_length: float
    pockets: tuple[PocketId, PocketId]

    @property
    def outward(self) -> Point:
        return (-self.inward[0], -self.inward[1])

    def bounce(self, a: Point, b: Point, r: float, arrival: tuple[float, float] | None = None) -> Point | None:
        """Where the centre of a ball going from ``a`` off this rail to ``b`` touches it, if on the nose: by the
        mirror (``arrival`` None), else by :func:`cushion_exit` for a ball arriving with (speed, spin velocity
        over speed) ``arrival``, which leaves on a curve and rolls on straight."""
        ha = _dot(_sub(a, self.origin), self.inward)
        hb = _dot(_sub(b, self.origin), self.inward)
        if ha <= 0 or hb <= 0:
            return None
        sa = _dot(_sub(a, self.origin), self.nose_dir)
        sb = _dot(_sub(b, self.origin), self.nose_dir)
        s = sa + (sb - sa) * ha / (ha + hb)
        if arrival is not None and abs(sb - sa) > 1e-9:
            found = self._solve_bounce(a, b, sa, sb, ha, arrival)
            if found is None:
                return None
            s = found
        q = _along(self.origin, self.nose_dir, s)
        along_nose = _dot(_sub(_along(q, self.inward, -r), self.nose_start), self.nose_dir)
        if not RAIL_MARGIN <= along_nose <= self.nose_length - RAIL_MARGIN:
            return None
        return q

    def _solve_bounce(
        self, a: Point, b: Point, sa: float, sb: float, ha: float, arrival: tuple[float, float]
    ) -> float | None:
        speed, rolling = arrival
        sign = 1.0 if sb > sa else -1.0
        across = (self.nose_dir[0] * sign, self.nose_dir[1] * sign)

        def miss(s: float) -> float:
            q = _along(self.origin, self.nose_dir, s)
            incidence = math.degrees(math.atan2(abs(s - sa), ha))
            leave, keep, final, roll_on = cushion_exit(incidence, rolling)
            u0 = _exit_velocity(self.inward, across, leave, speed * keep)
            uf = _exit_velocity(self.inward, across, final, speed * roll_on)
            return _path_miss(q, _settle(q, u0, uf), _exit_velocity(self.inward, across, final, 1.0), b) * sign

        return _bracketed_root(miss, sa, sb)


def _bracketed_root(f: Callable[[float], float], lo: float, hi: float, tolerance: float = 1e-9) -> float | None:
    """A root of ``f`` between ``lo`` and ``hi`` (where it changes sign) by the Illinois method, or ``None``."""
    f_lo, f_hi = f(lo), f(hi)
    if f_lo * f_hi > 0:
        return None
    side, previous = 0, math.inf
    for _ in range(60):
        if f_hi == f_lo:
            break
        x = hi - f_hi * (hi - lo) / (f_hi - f_lo)
        if abs(x - previous) < tolerance:
            return x
        previous, f_x = x, f(x)
        if f_x * f_hi > 0:
            hi, f_hi = x, f_x
            if side == -1:
                f_lo /= 2
            side = -1
        else:
            lo, f_lo = x, f_x
            if side == 1:
                f_hi /= 2
            side = 1
        if abs(hi - lo) < tolerance or f_x == 0:
            return x
    return (lo + hi) / 2


def _exit_velocity(inward: Point, across: Point, angle: float, speed: float) -> Point:
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    return (speed * (c * inward[0] + s * across[0]), speed * (c * inward[1] + s * across[1]))


@dataclass(frozen=True)
class _Pocket:
    id: PocketId
    target: Point
    axis: Point
    mouth_centre: Point
    clearance: float
    """A ball passing this pocket keeps its centre this far from the mouth centre (radius + half mouth)."""


@dataclass(frozen=True)
class _Geometry:
    spec: TableSpec
    r: float
    d: float
    rails: tuple[_Rail, ...]
    pockets: tuple[_Pocket, ...]
    lo: Point
    hi: Point

    @classmethod
    def of(cls, spec: TableSpec) -> _Geometry:
        r = spec.ball_radius
        rails = []
        for rail in spec.rails.values():
            start, end = rail.nose.start, rail.nose.end
            length = _norm(_sub(end, start))
            rails.append(
                _Rail(
                    id=rail.id,
                    origin=_along(start, rail.inward, r),
                    inward=rail.inward,
                    nose_start=start,
                    nose_dir=((end[0] - start[0]) / length, (end[1] - start[1]) / length),
                    nose_length=length,
                    pockets=rail.pockets,
                )
            )
        pockets = tuple(
            _Pocket(
                id=p.id,
                target=_along(p.mouth_centre, p.axis, AIM_DEPTH),
                axis=p.axis,
                mouth_centre=p.mouth_centre,
                clearance=r + p.mouth / 2,
            )
            for p in spec.pockets.values()
        )
        return cls(spec, r, 2 * r, tuple(rails), pockets, (r, r), (spec.width - r, spec.length - r))

    def fits(self, p: Point) -> bool:
        """Whether a ball's centre can be at ``p`` (inside the cushion lines)."""
        eps = 1e-9
        return self.lo[0] - eps <= p[0] <= self.hi[0] + eps and self.lo[1] - eps <= p[1] <= self.hi[1] + eps

    def passes_pockets(self, a: Point, b: Point, allowed: PocketId | None = None) -> bool:
        """Whether a ball going from ``a`` to ``b`` keeps clear of every pocket but ``allowed`` (a pocket it
        only moves away from does not count)."""
        for pocket in self.pockets:
            if pocket.id is allowed:
                continue
            t, distance = _segment_distance(pocket.mouth_centre, a, b)
            if t > 0 and distance < pocket.clearance:
                return False
        return True


_GEOMETRY: dict[TableSpec, _Geometry] = {}


def _geometry(spec: TableSpec) -> _Geometry:
    geometry = _GEOMETRY.get(spec)
    if geometry is None:
        geometry = _GEOMETRY[spec] = _Geometry.of(spec)
    return geometry


# --- one generation ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Route:
    """What a kind's geometry found, before it becomes a candidate."""

    kind: str
    call: Call
    direction: Point
    tolerance: float
    """Radians the cue's direction may err (an estimate)."""
    speed: float
    """The cue speed the route needs, before clipping."""
    follow: float
    cushions: int
    collisions: int


def _pass_on(tolerance: float, cut: float, distance: float, d: float) -> float:
    """The angular tolerance of a ball that travels ``distance`` to a collision at ``cut`` degrees, given the
    tolerance of the direction that collision must produce."""
    return min(math.pi / 4, tolerance * d * math.cos(math.radians(cut)) / max(distance, d))


def _start_speed(distance: float, end_speed: float) -> float:
    """The speed a ball set moving without spin needs to cover ``distance`` and still roll at ``end_speed``."""
    return SLIDE_LOSS * _rolling_at(distance, end_speed)


def _rolling_at(distance: float, end_speed: float) -> float:
    """The speed a rolling ball needs to cover ``distance`` and still roll at ``end_speed``."""
    return math.sqrt(end_speed * end_speed + distance / ROLL_DISTANCE)


def _handed_on(speed: float, cut: float) -> float:
    """The speed a striking ball needs to send another ball off at ``speed`` with this cut."""
    return speed / (BALL_TRANSFER * max(math.cos(math.radians(cut)), 0.2))


def _deflected(speed: float, cut: float) -> float:
    """The speed a ball needs to go on along the tangent line at ``speed`` after a collision with this cut."""
    return speed / max(math.sin(math.radians(cut)), 0.2)


def _stroke_speed(needed: float) -> float:
    return min(MAX_STROKE_SPEED, max(MIN_STROKE_SPEED, needed))


def _cue_stroke(contact_speed: float, distance: float, stun: bool) -> tuple[float, float]:
    """(cue speed before clipping, follow) of a stroke whose cue ball must reach its first contact
    ``distance`` away at ``contact_speed``: struck at the centre (it slides, then rolls), or drawn so that it
    arrives without spin, sliding all the way (a stun)."""
    if not stun:
        return _start_speed(distance, contact_speed) / CUE_TO_BALL, 0.0
    ball = max(
        math.sqrt(contact_speed * contact_speed + 2 * SLIDING_DECELERATION * distance), STUN_SPEED * math.sqrt(distance)
    )
    raw = ball / CUE_TO_BALL
    return raw, _stun_follow(CUE_TO_BALL * _stroke_speed(raw), distance)


def _rolling_in(speed: float) -> Callable[[float, float], tuple[float, float]]:
    """An arrival for :meth:`_Generator.aim`: rolling at ``speed`` whatever the cut and distance."""

    def arrival(cut: float, distance: float) -> tuple[float, float]:
        return speed, 1.0

    return arrival


def _cue_arrival(raw: float, follow: float, distance: float) -> tuple[float, float]:
    """(speed, spin velocity over speed) of the cue ball, struck for ``raw`` (clipped) with ``follow``, when
    it has gone ``distance``."""
    return _arrive(CUE_TO_BALL * _stroke_speed(raw), distance, STRIKE_SPIN * follow)


class _Generator:
    """One generation: the object balls, where the cue ball stands, and the routes of each kind from there."""

    def __init__(self, position: Position, game: GameState, spec: TableSpec, cue: Point) -> None:
        self.g = _geometry(spec)
        self.game = game
        self.cue = cue
        self.objects: dict[BallId, Point] = {b: p for b, p in position.items() if b != game.shooter}
        self.from_hand = game.from_hand
        self.head_string = spec.head_string
        gap = DEFAULT_OPTIONS.frozen_gap
        self.frozen_to_cushion = {
            b for b, p in self.objects.items() if not konsti_ball_usable(p, DEFAULT_OPTIONS, spec)
        }
        self.frozen_pairs = {
            frozenset((a, b))
            for a, pa in self.objects.items()
            for b, pb in self.objects.items()
            if a != b and _norm(_sub(pa, pb)) - self.g.d < gap
        }
        self.leaning_on = [
            way[0] for p in self.objects.values() if (way := _towards(cue, p)) is not None and way[1] - self.g.d < gap
        ]
        """Directions from the cue ball to the balls it is frozen to."""
        self.trapped = bool(self.leaning_on) and cannot_strike_away(
            cue, [math.degrees(math.atan2(u[1], u[0])) for u in self.leaning_on], DEFAULT_OPTIONS, spec
        )
        """8b: the cue ball cannot be struck away from the balls it is frozen to, so it may move them."""

    def pushes(self, d: Point) -> bool:
        """Whether a stroke along ``d`` is a talonmies that cannot score (7d, 8a): the referee's predicate on
        its angle to each ball the cue ball is frozen to; never when the cue ball is trapped (8b)."""
        return not self.trapped and any(pushes(_angle(d, towards)) for towards in self.leaning_on)

    # --- shared checks ---

    def clear(self, a: Point, b: Point, *skip: BallId) -> bool:
        """No object ball (but ``skip``) within two radii of the path of a ball's centre from a to b."""
        d = self.g.d
        return all(ball in skip or _segment_distance(p, a, b)[1] >= d for ball, p in self.objects.items())

    def in_front(self, p: Point) -> bool:
        return p[1] > self.head_string

    def pocket_allowed(self, ball: BallId, pocket: PocketId, *, cushions: int, konsti: bool) -> bool:
        """The referee says whether such a pot can score in this state (5, 1.2, 2.1, 6)."""
        return call_can_score(ball, pocket, cushions=cushions, konsti=konsti, state=self.game)

    def first_ball_allowed(self, p: Point) -> bool:
        """5: from hand the cue ball may go straight only to a ball in front of the head string."""
        return not self.from_hand or self.in_front(p)

    def into(self, pocket: _Pocket, start: Point) -> tuple[Point, float, float] | None:
        """The unit direction from ``start`` to ``pocket``'s aim point, its length and the pocket's window."""
        way = _towards(start, pocket.target)
        if way is None:
            return None
        u, length = way
        window = pocket_window(self.g.spec, pocket.id, _angle(u, pocket.axis))
        if window <= 0:
            return None
        return u, length, window

    def to_pocket(
        self, ball: BallId, start: Point, pocket: _Pocket, *skip: BallId
    ) -> tuple[Point, float, float] | None:
        """:meth:`into`, if the way is clear of the other balls and pockets."""
        entry = self.into(pocket, start)
        if entry is None or not self.clear(start, pocket.target, ball, *skip):
            return None
        if not self.g.passes_pockets(start, pocket.target, pocket.id):
            return None
        return entry

    def aim(
        self, start: Point, target: Point, u: Point, arrival: Callable[[float, float], tuple[float, float]]
    ) -> tuple[Point, Point, float, float] | None:
        """How a ball from ``start`` must strike the ball at ``target`` to send it along ``u``, allowing for
        throw: (ghost ball, unit direction, distance, cut). ``arrival(cut, distance)`` is the striking ball's
        (speed, spin over speed) at the contact."""
        n = u
        for _ in range(3):
            ghost = _along(target, n, -self.g.d)
            way = _towards(start, ghost)
            if way is None:
                return None
            d, length = way
            cut = _angle(d, n)
            if cut > MAX_CUT:
                return None
            throw = math.radians(_throw(*arrival(cut, length), cut))
            n = _rotate(u, -throw if _cross(n, d) > 0 else throw)  # the ball goes off towards d's side
        return ghost, d, length, cut

    def strike(self, target: Point, ball: BallId, u: Point, out_speed: float) -> tuple[Point, float, float] | None:
        """The cue ball straight from its place onto ``ball`` at ``target``, to send it along ``u`` at
        ``out_speed``: (unit direction, distance to the ghost ball, cut), if the path is clear."""

        def arrival(cut: float, distance: float) -> tuple[float, float]:
            return _cue_arrival(_cue_stroke(_handed_on(out_speed, cut), distance, stun=False)[0], 0.0, distance)

        aimed = self.aim(self.cue, target, u, arrival)
        if aimed is None:
            return None
        ghost, d, length, cut = aimed
        if (
            not self.g.fits(ghost)
            or not self.clear(self.cue, ghost, ball)
            or not self.g.passes_pockets(self.cue, ghost)
        ):
            return None
        return d, length, cut

    def wake_clear(
        self, start: Point, d: Point, u: Point, arrival: tuple[float, float], keep_clear: Sequence[tuple[Point, Point]]
    ) -> bool:
        """Whether the cue ball, arriving at ``start`` along ``d`` with ``arrival`` (speed, spin over speed) to
        send a ball off along ``u``, keeps the first :data:`WAKE` metres of its run out of the pockets (no
        scratch, 7a) and clear of the legs ``keep_clear`` (where the called ball comes back: a second touch
        would be a käkä, 1.3)."""
        path = _deflect(start, d, u, *arrival)
        if path is None:  # it stops dead
            return all(_segment_distance(start, a, b)[1] >= self.g.d for a, b in keep_clear)
        settle, direction, rolling_speed = path
        chord = _norm(_sub(settle, start))
        # it rolls on only as far as its speed carries it (a stunned cue ball barely creeps on)
        run = min(WAKE - chord, ROLL_DISTANCE * rolling_speed * rolling_speed + self.g.r)
        if chord >= WAKE:
            mid = end = _along(start, _unit_or(_sub(settle, start), direction), WAKE)
        else:
            mid, end = settle, _along(settle, direction, max(0.0, run))
        g = self.g
        if not (g.passes_pockets(start, mid) and g.passes_pockets(mid, end)):
            return False
        return all(
            _segments_apart(a, b, start, mid, g.d) and _segments_apart(a, b, mid, end, g.d) for a, b in keep_clear
        )

    def natural(
        self,
        contact_speed: float,
        distance: float,
        target: Point,
        d: Point,
        u: Point,
        keep_clear: Sequence[tuple[Point, Point]],
    ) -> tuple[float, float] | None:
        """(cue speed before clipping, follow) of a stroke whose cue ball reaches its first contact ``distance``
        away at ``contact_speed`` and sends the ball at ``target`` along ``u``: struck at the centre, or, where
        the rolling cue ball would follow into a pocket or get in the way (:meth:`wake_clear`), a stun that
        stops it near the contact (a nearly straight pot); ``None`` if neither keeps clear."""
        ghost = _along(target, u, -self.g.d)
        for stun in (False, True):
            raw, follow = _cue_stroke(contact_speed, distance, stun=stun)
            if abs(follow) <= MAX_TIP_OFFSET and self.wake_clear(
                ghost, d, u, _cue_arrival(raw, follow, distance), keep_clear
            ):
                return raw, follow
        return None

    def tangent_contacts(self, via: Point, target: Point) -> list[Point]:
        """Where a ball's centre can touch the ball at ``via`` so that it leaves along the tangent line through
        ``target`` (the two points of the Thales circle)."""
        way = _towards(via, target)
        if way is None or way[1] <= self.g.d * 1.05:
            return []
        base, distance = way
        spread = math.acos(self.g.d / distance)
        return [_along(via, _rotate(base, sign * spread), self.g.d) for sign in (1.0, -1.0)]

    def konsti_pairs(self) -> Iterator[tuple[BallId, Point, BallId, Point]]:
        """(called ball, its place, konsti ball, its place) for every two object balls not frozen together
        (8c)."""
        for ball, b in self.objects.items():
            for via, x in self.objects.items():
                if via != ball and frozenset((ball, via)) not in self.frozen_pairs:
                    yield ball, b, via, x

    def off_line(
        self, start: Point, via: Point, target: Point, speed: float, rolling: float
    ) -> Callable[[float], float | None]:
        """For a ball from ``start`` that strikes the ball at ``via`` and should then roll through ``target``:
        the function from its direction (radians) to how far ``target`` lies off the line it ends up on."""
        diameter = self.g.d

        def miss(angle: float) -> float | None:
            d = _unit_at(angle)
            at = _hit(start, d, via, diameter)
            n = None if at is None else _towards(at, via)
            if at is None or n is None:
                return None
            path = _deflect(at, d, n[0], speed, rolling)
            if path is None or _dot(path[1], _sub(target, at)) <= 0:
                return None
            return _path_miss(at, path[0], path[1], target)

        return miss

    def aim_off(
        self, start: Point, via: Point, target: Point, speed: float, rolling: float, tangent_aim: Point
    ) -> float | None:
        """The direction (radians) in which a ball from ``start`` must strike the ball at ``via`` to roll on
        through ``target``, arriving with ``speed`` and ``rolling`` (its spin velocity over its speed).
        ``tangent_aim`` solves it for the pure tangent line; the solution is followed from there while the
        roll grows in steps, and is ``None`` where it disappears (a rolling ball cannot be deflected that far).
        """
        steps = max(1, math.ceil(abs(rolling) / 0.25))
        angle: float | None = math.atan2(tangent_aim[1], tangent_aim[0])
        for k in range(steps + 1):
            if angle is None:
                return None
            angle = _solve(self.off_line(start, via, target, speed, rolling * k / steps), angle)
        return angle

    # --- the kinds ---

    def direct(self) -> Iterator[_Route]:
        g = self.g
        for ball, b in self.objects.items():
            if not self.first_ball_allowed(b):
                continue
            for pocket in g.pockets:
                if not self.pocket_allowed(ball, pocket.id, cushions=0, konsti=False):
                    continue
                entry = self.to_pocket(ball, b, pocket)
                if entry is None:
                    continue
                u, length, window = entry
                out_speed = _start_speed(length, FIRM_SPEED)
                hit = self.strike(b, ball, u, out_speed)
                if hit is None:
                    continue
                d, cue_length, cut = hit
                stroke = self.natural(_handed_on(out_speed, cut), cue_length, b, d, u, ())
                if stroke is None:
                    continue
                tolerance = _pass_on(window / length, cut, cue_length, g.d)
                yield _Route("direct", Call(ball, pocket.id), d, tolerance, *stroke, 0, 1)

    def bank(self) -> Iterator[_Route]:
        g = self.g
        for ball, b in self.objects.items():
            if not self.first_ball_allowed(b):
                continue
            for pocket in g.pockets:
                if not self.pocket_allowed(ball, pocket.id, cushions=1, konsti=False):
                    continue
                for rail in g.rails:
                    if pocket.id in rail.pockets:
                        continue  # the last contact would be a rail next to the pocket: mankeli (7f)
                    ideal = self.bank_route(ball, b, pocket, rail, rail.bounce(b, pocket.target, g.r))
                    if ideal is None:
                        continue
                    route, cue_length, cut, length1 = ideal
                    v = _cue_arrival(route.speed, route.follow, cue_length)[0]
                    arrival = _arrive(BALL_TRANSFER * v * math.cos(math.radians(cut)), length1)
                    real = self.bank_route(ball, b, pocket, rail, rail.bounce(b, pocket.target, g.r, arrival))
                    if real is not None:
                        yield real[0]

    def bank_route(
        self, ball: BallId, b: Point, pocket: _Pocket, rail: _Rail, q: Point | None
    ) -> tuple[_Route, float, float, float] | None:
        """The bank of ``ball`` off ``rail`` at ``q``: (route, cue distance, cut, distance to the cushion)."""
        if q is None:
            return None
        g = self.g
        entry, way = self.to_pocket(ball, q, pocket), _towards(b, q)
        if entry is None or way is None:
            return None
        _, length2, window = entry
        u1, length1 = way
        if _angle(u1, rail.outward) > MAX_INCIDENCE or not (self.clear(b, q, ball) and g.passes_pockets(b, q)):
            return None
        v = _start_speed(length1, _rolling_at(length2, FIRM_SPEED) / CUSHION_KEEP)
        hit = self.strike(b, ball, u1, v)
        if hit is None:
            return None
        d, cue_length, cut = hit
        stroke = self.natural(_handed_on(v, cut), cue_length, b, d, u1, ((q, pocket.target),))
        if stroke is None:
            return None  # the called ball would come back into the cue ball
        tolerance = _pass_on(window / (length1 + length2), cut, cue_length, g.d)
        call = Call(ball, pocket.id, legs=(Leg(), Leg((rail.id,))))
        return _Route("bank", call, d, tolerance, *stroke, 1, 1), cue_length, cut, length1

    def kick(self) -> Iterator[_Route]:
        g = self.g
        for ball, b in self.objects.items():
            for pocket in g.pockets:
                if not self.pocket_allowed(ball, pocket.id, cushions=1, konsti=False):
                    continue
                entry = self.to_pocket(ball, b, pocket)
                if entry is None:
                    continue
                u = entry[0]
                for rail in g.rails:
                    ghost = _along(b, u, -g.d)
                    ideal = self.kick_route(ball, b, ghost, entry, pocket, rail, rail.bounce(self.cue, ghost, g.r))
                    if ideal is None:
                        continue
                    route, length1, contact_speed = ideal
                    arrival = _cue_arrival(route.speed, 0.0, length1)
                    q: Point | None = rail.bounce(self.cue, ghost, g.r, arrival)
                    for _ in range(2):  # allow for throw, aiming from the cushion
                        if q is None:
                            break
                        aimed = self.aim(q, b, u, _rolling_in(contact_speed))
                        if aimed is None:
                            q = None
                            break
                        ghost = aimed[0]
                        q = rail.bounce(self.cue, ghost, g.r, arrival)
                    real = self.kick_route(ball, b, ghost, entry, pocket, rail, q)
                    if real is not None:
                        yield real[0]

    def kick_route(
        self,
        ball: BallId,
        b: Point,
        ghost: Point,
        entry: tuple[Point, float, float],
        pocket: _Pocket,
        rail: _Rail,
        q: Point | None,
    ) -> tuple[_Route, float, float] | None:
        """The cue ball off ``rail`` at ``q`` onto ``ball`` (at ``b``, the ghost ball at ``ghost``): (route,
        distance to the cushion, speed at the called ball)."""
        if q is None or (self.from_hand and not self.in_front(q)):
            return None  # 5: from hand the first cushion must be in front of the head string
        g = self.g
        _, length, window = entry
        first, second, centres = _towards(self.cue, q), _towards(q, ghost), _towards(ghost, b)
        if first is None or second is None or centres is None or not g.fits(ghost):
            return None
        (d1, length1), (d2, length2) = first, second
        cut = _angle(d2, centres[0])
        if cut > MAX_CUT or _angle(d1, rail.outward) > MAX_INCIDENCE:
            return None
        if not (
            self.clear(self.cue, q)
            and self.clear(q, ghost, ball)
            and g.passes_pockets(self.cue, q)
            and g.passes_pockets(q, ghost)
        ):
            return None
        contact_speed = _handed_on(_start_speed(length, FIRM_SPEED), cut)
        if not self.wake_clear(ghost, d2, centres[0], (contact_speed, 1.0), ()):
            return None  # the cue ball would follow into a pocket
        tolerance = _pass_on(window / length, cut, length1 + length2, g.d)
        raw = _start_speed(length1, _rolling_at(length2, contact_speed) / CUSHION_KEEP) / CUE_TO_BALL
        call = Call(ball, pocket.id, legs=(Leg((rail.id,)), Leg()))
        return _Route("kick", call, d1, tolerance, raw, 0.0, 1, 1), length1, contact_speed

    def kyyti(self) -> Iterator[_Route]:
        g = self.g
        for ball, b, via, x in self.konsti_pairs():
            if not self.first_ball_allowed(x):
                continue
            for pocket in g.pockets:
                if not self.pocket_allowed(ball, pocket.id, cushions=0, konsti=True):
                    continue
                entry = self.to_pocket(ball, b, pocket, via)
                if entry is None:
                    continue
                u, length, window = entry
                out_speed = _start_speed(length, FIRM_SPEED)

                def arrival(cut: float, distance: float, out_speed: float = out_speed) -> tuple[float, float]:
                    return _arrive(_start_speed(distance, _handed_on(out_speed, cut)), distance)

                aimed = self.aim(x, b, u, arrival)
                if aimed is None or aimed[2] < 0.005:
                    continue
                ghost, u1, length1, cut2 = aimed
                if not (g.fits(ghost) and self.clear(x, ghost, ball, via) and g.passes_pockets(x, ghost)):
                    continue
                v = _start_speed(length1, _handed_on(out_speed, cut2))
                hit = self.strike(x, via, u1, v)
                if hit is None:
                    continue
                d, cue_length, cut1 = hit
                stroke = self.natural(_handed_on(v, cut1), cue_length, x, d, u1, ((b, pocket.target),))
                if stroke is None:
                    continue  # the cue ball would follow into the called ball's way
                tolerance = _pass_on(_pass_on(window / length, cut2, length1, g.d), cut1, cue_length, g.d)
                call = Call(ball, pocket.id, konsti=Konsti.KYYTI, via=via)
                yield _Route("kyyti", call, d, tolerance, *stroke, 0, 2)

    def kara(self) -> Iterator[_Route]:
        g = self.g
        for ball, b, via, x in self.konsti_pairs():
            if via in self.frozen_to_cushion or not self.first_ball_allowed(x):
                continue  # 7h: not off a ball frozen to a cushion
            for pocket in g.pockets:
                if not self.pocket_allowed(ball, pocket.id, cushions=0, konsti=True):
                    continue
                entry = self.to_pocket(ball, b, pocket, via)
                if entry is None:
                    continue
                ghost = _along(b, entry[0], -g.d)
                if not g.fits(ghost):
                    continue
                for contact in self.tangent_contacts(x, ghost):
                    way = _towards(self.cue, contact)
                    if way is None:
                        continue
                    ideal = self.kara_route(ball, via, x, pocket, entry, ghost, way[0], None)
                    if ideal is None:
                        continue
                    arrival = _cue_arrival(ideal.speed, ideal.follow, way[1])
                    angle = self.aim_off(self.cue, x, ghost, *arrival, way[0])
                    if angle is None:
                        continue
                    real = self.kara_route(ball, via, x, pocket, entry, ghost, _unit_at(angle), arrival)
                    if real is not None:
                        yield real

    def kara_route(
        self,
        ball: BallId,
        via: BallId,
        x: Point,
        pocket: _Pocket,
        entry: tuple[Point, float, float],
        ghost: Point,
        d: Point,
        arrival: tuple[float, float] | None,
    ) -> _Route | None:
        """The cue ball along ``d`` off ``via`` (at ``x``) onto the called ball's ghost ball ``ghost``, arriving
        at the kara with (speed, spin over speed) ``arrival`` (``None``: the pure tangent line)."""
        g = self.g
        u, length, window = entry
        contact = _hit(self.cue, d, x, g.d)
        n = None if contact is None else _towards(contact, x)
        if contact is None or n is None:
            return None
        path = _deflect(contact, d, n[0], *(arrival or (1.0, 0.0)))
        if path is None:
            return None
        bend, t, _ = path
        way = _towards(bend, ghost)
        if way is None or _angle(way[0], t) > OFF_LINE:
            return None  # it would meet X elsewhere first, or leave along the other half of the tangent line
        cue_length = _norm(_sub(contact, self.cue))
        length1 = _norm(_sub(bend, contact)) + way[1]
        cut1, cut2 = _angle(d, n[0]), _angle(way[0], u)
        if not (MIN_DEFLECTION_CUT <= cut1 <= MAX_CUT and cut2 <= MAX_CUT):
            return None
        if not (
            g.fits(contact)
            and self.clear(self.cue, contact, via)
            and self.clear(contact, bend, via, ball)
            and self.clear(bend, ghost, via, ball)
            and self.clear(x, _along(x, n[0], KONSTI_RUN), via)
            and g.passes_pockets(self.cue, contact)
            and g.passes_pockets(contact, ghost)
        ):
            return None
        tolerance = _pass_on(_pass_on(window / length, cut2, length1, g.d), cut1, cue_length, g.d)
        v = _start_speed(length1, _handed_on(_start_speed(length, FIRM_SPEED), cut2))
        # a stun where the speed allows it, so that the cue ball leaves X along the tangent line
        stun = STUN_SPEED * math.sqrt(cue_length) <= CUE_TO_BALL * MAX_STROKE_SPEED
        raw, follow = _cue_stroke(_deflected(v, cut1), cue_length, stun)
        call = Call(ball, pocket.id, konsti=Konsti.KARA, via=via)
        return _Route("kara", call, d, tolerance, raw, follow, 0, 2)

    def kiss(self) -> Iterator[_Route]:
        g = self.g
        for ball, b, via, x in self.konsti_pairs():
            if via in self.frozen_to_cushion or not self.first_ball_allowed(b):
                continue  # 7h
            for pocket in g.pockets:
                if not self.pocket_allowed(ball, pocket.id, cushions=0, konsti=True):
                    continue
                for contact in self.tangent_contacts(x, pocket.target):
                    way = _towards(b, contact)
                    if way is None:
                        continue
                    ideal = self.kiss_route(ball, b, via, x, pocket, way[0], None)
                    if ideal is None:
                        continue
                    route, cue_length, cut1 = ideal
                    v = _cue_arrival(route.speed, route.follow, cue_length)[0]
                    arrival = _arrive(BALL_TRANSFER * v * math.cos(math.radians(cut1)), way[1])
                    angle = self.aim_off(b, x, pocket.target, *arrival, way[0])
                    if angle is None:
                        continue
                    real = self.kiss_route(ball, b, via, x, pocket, _unit_at(angle), arrival)
                    if real is not None:
                        yield real[0]

    def kiss_route(
        self,
        ball: BallId,
        b: Point,
        via: BallId,
        x: Point,
        pocket: _Pocket,
        u1: Point,
        arrival: tuple[float, float] | None,
    ) -> tuple[_Route, float, float] | None:
        """The called ball sent along ``u1`` off ``via`` (at ``x``) into ``pocket``, arriving at the kiss with
        (speed, spin over speed) ``arrival`` (``None``: the pure tangent line): (route, cue distance, cut on the
        called ball)."""
        g = self.g
        contact = _hit(b, u1, x, g.d)
        n = None if contact is None else _towards(contact, x)
        if contact is None or n is None:
            return None
        path = _deflect(contact, u1, n[0], *(arrival or (1.0, 0.0)))
        if path is None:
            return None
        bend, t, _ = path
        entry = self.into(pocket, bend)
        if entry is None or _angle(entry[0], t) > OFF_LINE:
            return None  # it would meet X elsewhere first, or leave along the other half of the tangent line
        _, length2, window = entry
        length1 = _norm(_sub(contact, b))
        length2 += _norm(_sub(bend, contact))
        cut2 = _angle(u1, n[0])
        if not MIN_DEFLECTION_CUT <= cut2 <= MAX_CUT:
            return None
        if not (
            g.fits(contact)
            and self.clear(b, contact, ball, via)
            and self.clear(contact, bend, ball, via)
            and self.clear(bend, pocket.target, ball, via)
            and g.passes_pockets(b, contact)
            and g.passes_pockets(contact, pocket.target, pocket.id)
        ):
            return None
        v = _start_speed(length1, _deflected(_start_speed(length2, FIRM_SPEED), cut2))
        hit = self.strike(b, ball, u1, v)
        if hit is None:
            return None
        d, cue_length, cut1 = hit
        legs = ((_along(b, u1, g.d), contact), (bend, pocket.target))  # from where it has left the cue ball
        stroke = self.natural(_handed_on(v, cut1), cue_length, b, d, u1, legs)
        if stroke is None:
            return None  # the cue ball would follow into the called ball's way
        tolerance = _pass_on(_pass_on(window / length2, cut2, length1, g.d), cut1, cue_length, g.d)
        call = Call(ball, pocket.id, konsti=Konsti.KISS, via=via)
        return _Route("kiss", call, d, tolerance, *stroke, 0, 2), cue_length, cut1


def _candidate(route: _Route, shooter: BallId, place: Point | None) -> ShotCandidate | None:
    if route.speed > UNREACHABLE_SPEED:
        return None
    difficulty = math.log2(1.0 + 1.0 / math.degrees(route.tolerance))
    difficulty += CUSHION_PENALTY * route.cushions + COLLISION_PENALTY * (route.collisions - 1)
    if route.speed > MAX_STROKE_SPEED:
        difficulty += SPEED_PENALTY * math.log2(route.speed / MAX_STROKE_SPEED)
    direction = math.degrees(math.atan2(route.direction[1], route.direction[0])) % 360.0
    speed = round(_stroke_speed(route.speed), 3)
    stroke = Stroke(shooter, speed, round(direction, 6), follow=round(route.follow, 4), place=place)
    return ShotCandidate(route.call, stroke, round(difficulty, 6), route.kind)


def _order(c: ShotCandidate) -> tuple[float, int, str]:
    return (c.difficulty, KINDS.index(c.kind), str(c.call))


def generate(
    position: Position,
    game: GameState,
    spec: TableSpec = OFFICIAL,
    *,
    cue: Point | None = None,
    kinds: Sequence[str] = KINDS,
    limit: int | None = None,
) -> list[ShotCandidate]:
    """Every shot of ``kinds`` the geometry allows for ``game.shooter`` from ``position``, easiest first.

    The cue ball stands at ``cue`` (default: its place in ``position``). From hand (``game.from_hand``)
    ``cue`` must be given, a legal place behind the head string (else
    :class:`~kaisa.referee.opening.IllegalPlacementError`), and every stroke carries ``place=cue``. At most
    :data:`CAPS` candidates of each kind are kept, and ``limit`` in all. Deterministic: the same arguments
    give the same list.
    """
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        raise ValueError(f"unknown shot kinds {unknown}; the kinds are {', '.join(KINDS)}")
    shooter = game.shooter
    others = position.without(shooter)
    place: Point | None = None
    if game.from_hand:
        if cue is None:
            raise ValueError(f"{shooter.value} plays from hand: pass the cue ball's place behind the head string")
        check_hand_placement(others, shooter, cue, spec)
        place = cue
    elif cue is None:
        if shooter not in position:
            raise ValueError(f"the cue ball {shooter.value} is not in the position; pass its place as cue")
        cue = position[shooter]
    generator = _Generator(others, game, spec, cue)
    out: list[ShotCandidate] = []
    for kind in KINDS:
        if kind not in kinds:
            continue
        routes: Iterator[_Route] = getattr(generator, kind)()
        found = [c for c in (_candidate(r, shooter, place) for r in routes if not generator.pushes(r.direction)) if c]
        found.sort(key=_order)
        out.extend(found[: CAPS[kind]])
    out.sort(key=_order)
    return out if limit is None else out[: max(0, limit)]
