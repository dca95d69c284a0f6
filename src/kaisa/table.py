"""The official Kaisa table: one frozen geometric spec and the questions the rules ask of it.

Coordinates (the project's external contract, REFERENCE.md section 1): metres, ``x`` across the table
from the left long cushion (``x = 0``) to the right one (``x = W``), ``y`` along it from the head cushion
(``y = 0``, where the break is played from) to the foot cushion (``y = L``). "Left" is as seen from the
head end. All cushion lines are *nose* lines: where a ball's surface touches the cushion.

Pockets: a pocket is a channel cut into the cushions. Its two jaw points (haaki, see
:mod:`kaisa.glossary`) sit on the nose lines of the two rails it separates, and the mouth is measured
between them (72 mm corner, 82 mm middle). From each jaw point a *facing* runs into the pocket; each jaw
point is rounded with a small radius (:attr:`TableSpec.jaw_radius`). A ball drops once its centre is
:attr:`TableSpec.capture_depth` past the haaki line, i.e. by default once the whole ball has passed the jaws.

This module is pure geometry: no physics engine, no rules.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import Any

from kaisa.errors import ErrorText, KaisaError

Point = tuple[float, float]
"""A point on the bed, ``(x, y)`` in metres."""

CONTACT_TOLERANCE = 0.0005
"""Two surfaces closer than this (0.5 mm) count as touching: frozen balls, frozen to a cushion, a taken spot."""

PLACEMENT_GAP = 1e-6
"""Gap kept between a placed ball and a cushion: a ball exactly touching a cushion can tunnel through it."""


class PocketId(StrEnum):
    """The six pockets: head corners, middles, foot corners; left/right as seen from the head end."""

    HL = "HL"
    HR = "HR"
    ML = "ML"
    MR = "MR"
    FL = "FL"
    FR = "FR"

    @property
    def is_corner(self) -> bool:
        return self not in (PocketId.ML, PocketId.MR)

    @property
    def is_middle(self) -> bool:
        return not self.is_corner


class RailId(StrEnum):
    """The six cushion segments between the pockets."""

    HEAD = "head"
    FOOT = "foot"
    LEFT_HEAD = "left-head"
    LEFT_FOOT = "left-foot"
    RIGHT_HEAD = "right-head"
    RIGHT_FOOT = "right-foot"

    @property
    def is_long(self) -> bool:
        """A long (side) cushion, as opposed to an end cushion."""
        return self not in (RailId.HEAD, RailId.FOOT)


class SpotId(StrEnum):
    """The five spots on the long axis (REFERENCE.md section 1)."""

    CENTRE = "centre"
    HEAD_STRING = "head-string"
    FOOT_STRING = "foot-string"
    HEAD_END = "head-end"
    FOOT_END = "foot-end"


class BallSize(StrEnum):
    """The ball diameter option: the 2014 rulebook's 68 mm, or the 67 mm used since 2016."""

    MM68 = "68mm"
    MM67 = "67mm"

    @property
    def diameter(self) -> float:
        return 0.068 if self is BallSize.MM68 else 0.067


@dataclass(frozen=True)
class Segment:
    """A straight cushion piece between two points (the nose line of a rail or a pocket facing)."""

    start: Point
    end: Point

    def distance_to(self, p: Point) -> float:
        (ax, ay), (bx, by) = self.start, self.end
        dx, dy = bx - ax, by - ay
        length_sq = dx * dx + dy * dy
        t = 0.0 if length_sq == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length_sq))
        return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


@dataclass(frozen=True)
class Arc:
    """A rounded jaw tip: the cushion surface is a circle of ``radius`` around ``centre``."""

    centre: Point
    radius: float

    def distance_to(self, p: Point) -> float:
        return max(0.0, math.hypot(p[0] - self.centre[0], p[1] - self.centre[1]) - self.radius)


@dataclass(frozen=True)
class Jaw:
    """One side of a pocket: its jaw point (haaki), rounded tip and facing.

    ``side`` is the rail that ends at this jaw, which is how rulings name a jaw ("the ``head`` jaw of
    ``HL``").
    """

    pocket: PocketId
    side: RailId
    point: Point
    tip: Arc
    facing: Segment

    def distance_to(self, p: Point) -> float:
        return min(self.tip.distance_to(p), self.facing.distance_to(p))


@dataclass(frozen=True)
class Rail:
    """A rail's straight nose between the rounded jaws of its two pockets."""

    id: RailId
    nose: Segment
    inward: Point
    """Unit normal pointing from the cushion into the playing area."""
    pockets: tuple[PocketId, PocketId]


@dataclass(frozen=True)
class Pocket:
    """A pocket: its mouth between two jaw points, the haaki line, and the direction into it."""

    id: PocketId
    jaws: tuple[Jaw, Jaw]
    mouth: float
    """Width between the jaw points, metres."""
    axis: Point
    """Unit vector from the mouth into the pocket, away from the bed."""
    capture_centre: Point
    capture_radius: float

    @property
    def mouth_centre(self) -> Point:
        (ax, ay), (bx, by) = self.jaws[0].point, self.jaws[1].point
        return ((ax + bx) / 2, (ay + by) / 2)

    @property
    def haaki_line(self) -> Segment:
        """The line across the mouth between the two jaw points (7g, Kuva 2)."""
        return Segment(self.jaws[0].point, self.jaws[1].point)

    @property
    def adjacent_rails(self) -> tuple[RailId, RailId]:
        """The two rails that end at this pocket's jaws (the "myötävalli" of 7f)."""
        return (self.jaws[0].side, self.jaws[1].side)

    def depth_of(self, p: Point) -> float:
        """How far ``p`` lies past the haaki line, into the pocket (negative: still on the bed side)."""
        cx, cy = self.mouth_centre
        return (p[0] - cx) * self.axis[0] + (p[1] - cy) * self.axis[1]

    def lateral_of(self, p: Point) -> float:
        """Signed distance of ``p`` from the pocket's axis, across the mouth."""
        cx, cy = self.mouth_centre
        return -(p[0] - cx) * self.axis[1] + (p[1] - cy) * self.axis[0]


class TableSpecError(KaisaError):
    """A table the physics cannot play: a number out of its range (says which and what is allowed)."""

    code = "invalid-table"
    kind = ErrorText("Pöydän mitat eivät ole mahdolliset.", "The table's measures are not possible.")


TABLE_RANGES: Mapping[str, tuple[float, float]] = {
    "ball_mass": (0.1, 0.4),
    "width": (0.5, 3.0),
    "length": (1.0, 5.0),
    "corner_mouth": (0.05, 0.15),
    "middle_mouth": (0.05, 0.15),
    "cushion_height_ratio": (0.55, 0.75),
    "jaw_radius": (0.0, 0.03),
    "facing_angle": (-10.0, 30.0),
    "capture_depth_ratio": (0.1, 2.0),
    "head_end_spot_fraction": (0.05, 0.45),
    "foot_end_spot_fraction": (0.55, 0.95),
}
"""Each numeric option of :class:`TableSpec` and the range it may take, around the official table: outside them
the physics stalls (a cushion far above the balls' centres) or fails (a mass of zero or less). Stated here once:
the record's Table tag and every other way of making a table check against it."""


@dataclass(frozen=True)
class TableSpec:
    """The official 10-ft Kaisa table (REFERENCE.md section 1), with its named options.

    The defaults are the federation's: 68 mm balls of 225 g, a 2840 x 1420 mm bed measured nose to nose,
    72 mm corner and 82 mm middle mouths, cushion noses at 0.64 ball diameters.

    Decisions of this project (documented, changeable here):

    - ``jaw_radius`` 5 mm: pyramid-style jaws are nearly sharp; a small rounding keeps contacts with the
      jaw tip well defined. The mouth is still measured between the unrounded jaw points.
    - ``facing_angle`` 0 degrees: the facings run parallel to the pocket's axis, so the throat is as wide
      as the mouth (a 68 mm ball in a 72 mm channel). Positive values open the pocket inwards.
    - ``capture_depth`` = one ball radius: a ball counts as pocketed once its centre is that far past the
      haaki line, i.e. once it has wholly passed the jaws and can no longer touch their tips.
    """

    ball_size: BallSize = BallSize.MM68
    ball_mass: float = 0.225
    width: float = 1.42
    length: float = 2.84
    corner_mouth: float = 0.072
    middle_mouth: float = 0.082
    cushion_height_ratio: float = 0.64
    jaw_radius: float = 0.005
    facing_angle: float = 0.0
    capture_depth_ratio: float = 1.0
    """Capture depth as a fraction of the ball radius."""
    head_end_spot_fraction: float = 1 / 8
    """Where the head-end spot lies along the table, as a fraction of L (option)."""
    foot_end_spot_fraction: float = 7 / 8
    """Where the foot-end spot lies along the table, as a fraction of L (option)."""

    def __post_init__(self) -> None:
        """Refuse a table the physics cannot play: each number in its range of :data:`TABLE_RANGES` (outside them
        the engine stalls, e.g. a cushion a hundred ball diameters high ran a replay for minutes, or fails an
        assertion, e.g. a negative mass), and pocket mouths wider than the ball."""
        if not isinstance(self.ball_size, BallSize):
            raise TableSpecError(f"ball_size is one of {', '.join(b.value for b in BallSize)}, not {self.ball_size!r}")
        problems = []
        for name, (low, high) in TABLE_RANGES.items():
            value = getattr(self, name)
            official = type(self).__dataclass_fields__[name].default
            if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
                problems.append(f"{name} is a number from {low:g} to {high:g} (official {official:g}), not {value!r}")
        if not problems and (self.corner_mouth <= self.ball_diameter or self.middle_mouth <= self.ball_diameter):
            problems.append(
                f"pocket mouths ({self.corner_mouth}, {self.middle_mouth} m) must be wider than the ball "
                f"({self.ball_diameter} m)"
            )
        if problems:
            raise TableSpecError("invalid table: " + "; ".join(problems))

    def to_json(self) -> dict[str, Any]:
        """The table's options (not its derived geometry: :func:`table_to_json` draws that)."""
        return {"ball_size": self.ball_size.value, **{name: getattr(self, name) for name in TABLE_RANGES}}

    @classmethod
    def from_json(cls, data: object) -> TableSpec:
        """A table from its options (any subset; the rest official), each checked against its range."""
        if not isinstance(data, dict):
            raise TableSpecError('a table is a JSON object of its options, e.g. {"ball_mass": 0.21}')
        unknown = sorted(str(k) for k in data if k != "ball_size" and k not in TABLE_RANGES)
        if unknown:
            raise TableSpecError(
                f"{', '.join(unknown)}: not a table option; the options are ball_size, {', '.join(TABLE_RANGES)}"
            )
        values: dict[str, Any] = {k: v for k, v in data.items() if k != "ball_size"}
        size = data.get("ball_size", BallSize.MM68.value)
        if size not in {b.value for b in BallSize}:
            raise TableSpecError(f"ball_size is one of {', '.join(b.value for b in BallSize)}, not {size!r}")
        return cls(BallSize(size), **values)

    # --- balls -------------------------------------------------------------------------------------

    @property
    def ball_diameter(self) -> float:
        return self.ball_size.diameter

    @property
    def ball_radius(self) -> float:
        return self.ball_size.diameter / 2

    @property
    def cushion_height(self) -> float:
        """Height of the cushion nose above the bed."""
        return self.cushion_height_ratio * self.ball_diameter

    @property
    def capture_depth(self) -> float:
        return self.capture_depth_ratio * self.ball_radius

    # --- lines and spots ---------------------------------------------------------------------------

    @property
    def head_string(self) -> float:
        """``y`` of the head string (aloituslinja)."""
        return self.length / 4

    @property
    def centre_line(self) -> float:
        """``y`` of the centre line (keskilinja) through the middle pockets."""
        return self.length / 2

    @property
    def foot_string(self) -> float:
        """``y`` of the foot string (alalinja)."""
        return 3 * self.length / 4

    @property
    def long_axis(self) -> float:
        """``x`` of the long centre line, which splits the table into the two lag halves."""
        return self.width / 2

    @cached_property
    def spots(self) -> Mapping[SpotId, Point]:
        x, length = self.width / 2, self.length
        return {
            SpotId.CENTRE: (x, length / 2),
            SpotId.HEAD_STRING: (x, length / 4),
            SpotId.FOOT_STRING: (x, 3 * length / 4),
            SpotId.HEAD_END: (x, self.head_end_spot_fraction * length),
            SpotId.FOOT_END: (x, self.foot_end_spot_fraction * length),
        }

    def is_behind_head_string(self, p: Point) -> bool:
        """Strictly behind the head string (``y < L/4``); a centre on the line is not behind it."""
        return p[1] < self.head_string

    def spot_is_free(self, spot: SpotId, centres: Iterable[Point]) -> bool:
        """Whether a ball placed on ``spot`` would touch none of the balls at ``centres`` (4)."""
        sx, sy = self.spots[spot]
        limit = self.ball_diameter + CONTACT_TOLERANCE
        return all(math.hypot(x - sx, y - sy) >= limit for x, y in centres)

    # --- pockets, jaws and rails -------------------------------------------------------------------

    @cached_property
    def pockets(self) -> Mapping[PocketId, Pocket]:
        w, length = self.width, self.length
        a = self.corner_mouth / math.sqrt(2)  # distance of a corner jaw point from the corner
        m = self.middle_mouth / 2
        s = 1 / math.sqrt(2)
        r = RailId
        # (pocket, axis, (jaw point, rail ending there) x 2)
        layout: list[tuple[PocketId, Point, tuple[tuple[Point, RailId], tuple[Point, RailId]]]] = [
            (PocketId.HL, (-s, -s), (((a, 0.0), r.HEAD), ((0.0, a), r.LEFT_HEAD))),
            (PocketId.HR, (s, -s), (((w - a, 0.0), r.HEAD), ((w, a), r.RIGHT_HEAD))),
            (PocketId.ML, (-1.0, 0.0), (((0.0, length / 2 - m), r.LEFT_HEAD), ((0.0, length / 2 + m), r.LEFT_FOOT))),
            (PocketId.MR, (1.0, 0.0), (((w, length / 2 - m), r.RIGHT_HEAD), ((w, length / 2 + m), r.RIGHT_FOOT))),
            (PocketId.FL, (-s, s), (((a, length), r.FOOT), ((0.0, length - a), r.LEFT_FOOT))),
            (PocketId.FR, (s, s), (((w - a, length), r.FOOT), ((w, length - a), r.RIGHT_FOOT))),
        ]
        pockets = {}
        for pid, axis, jaw_specs in layout:
            mouth = self.corner_mouth if pid.is_corner else self.middle_mouth
            cx = (jaw_specs[0][0][0] + jaw_specs[1][0][0]) / 2
            cy = (jaw_specs[0][0][1] + jaw_specs[1][0][1]) / 2
            jaws = tuple(self._jaw(pid, point, side, axis, (cx, cy)) for point, side in jaw_specs)
            capture_radius = mouth / 2
            reach = self.capture_depth + capture_radius
            pockets[pid] = Pocket(
                id=pid,
                jaws=(jaws[0], jaws[1]),
                mouth=mouth,
                axis=axis,
                capture_centre=(cx + axis[0] * reach, cy + axis[1] * reach),
                capture_radius=capture_radius,
            )
        return pockets

    def _jaw(self, pocket: PocketId, point: Point, side: RailId, axis: Point, mouth_centre: Point) -> Jaw:
        # The facing leaves the jaw point along the pocket axis, turned outwards by facing_angle.
        outward = (point[0] - mouth_centre[0], point[1] - mouth_centre[1])
        turn = math.radians(self.facing_angle)
        # sign chosen so that a positive angle turns the facing away from the pocket's axis
        cross = axis[0] * outward[1] - axis[1] * outward[0]
        sign = 1.0 if cross > 0 else -1.0
        c, s_ = math.cos(sign * turn), math.sin(sign * turn)
        fdir = (axis[0] * c - axis[1] * s_, axis[0] * s_ + axis[1] * c)
        facing_length = self.capture_depth + self.ball_diameter + 0.01
        # The rail runs from the jaw point along its nose line, away from the pocket.
        along = (1.0, 0.0) if side in (RailId.HEAD, RailId.FOOT) else (0.0, 1.0)
        sign_along = 1.0 if along[0] * outward[0] + along[1] * outward[1] > 0 else -1.0
        rdir = (along[0] * sign_along, along[1] * sign_along)
        # Rounded tip: a circle tangent to both the rail nose and the facing, inside the cushion.
        cos_alpha = rdir[0] * fdir[0] + rdir[1] * fdir[1]
        alpha = math.acos(max(-1.0, min(1.0, cos_alpha)))
        rj = self.jaw_radius
        tangent = rj / math.tan(alpha / 2) if rj > 0 else 0.0
        bis = _unit((rdir[0] + fdir[0], rdir[1] + fdir[1]))
        centre_dist = rj / math.sin(alpha / 2) if rj > 0 else 0.0
        tip = Arc((point[0] + bis[0] * centre_dist, point[1] + bis[1] * centre_dist), rj)
        facing = Segment(
            (point[0] + fdir[0] * tangent, point[1] + fdir[1] * tangent),
            (point[0] + fdir[0] * facing_length, point[1] + fdir[1] * facing_length),
        )
        return Jaw(pocket=pocket, side=side, point=point, tip=tip, facing=facing)

    def _jaw_tangent(self, jaw: Jaw) -> float:
        """Distance from a jaw point to where the rounded tip meets the rail's nose line."""
        return math.hypot(jaw.facing.start[0] - jaw.point[0], jaw.facing.start[1] - jaw.point[1])

    @cached_property
    def rails(self) -> Mapping[RailId, Rail]:
        ends: dict[RailId, list[Jaw]] = {rid: [] for rid in RailId}
        for pocket in self.pockets.values():
            for jaw in pocket.jaws:
                ends[jaw.side].append(jaw)
        inward_of = {
            RailId.HEAD: (0.0, 1.0),
            RailId.FOOT: (0.0, -1.0),
            RailId.LEFT_HEAD: (1.0, 0.0),
            RailId.LEFT_FOOT: (1.0, 0.0),
            RailId.RIGHT_HEAD: (-1.0, 0.0),
            RailId.RIGHT_FOOT: (-1.0, 0.0),
        }
        rails = {}
        for rid, (j1, j2) in ends.items():
            d = _unit((j2.point[0] - j1.point[0], j2.point[1] - j1.point[1]))
            t1, t2 = self._jaw_tangent(j1), self._jaw_tangent(j2)
            nose = Segment(
                (j1.point[0] + d[0] * t1, j1.point[1] + d[1] * t1),
                (j2.point[0] - d[0] * t2, j2.point[1] - d[1] * t2),
            )
            rails[rid] = Rail(id=rid, nose=nose, inward=inward_of[rid], pockets=(j1.pocket, j2.pocket))
        return rails

    def rails_adjacent_to(self, pocket: PocketId) -> tuple[RailId, RailId]:
        """The two rails ending at ``pocket``'s jaws."""
        return self.pockets[pocket].adjacent_rails

    @cached_property
    def jaws(self) -> tuple[Jaw, ...]:
        return tuple(jaw for pocket in self.pockets.values() for jaw in pocket.jaws)

    # --- where a ball can be -----------------------------------------------------------------------

    def rail_gaps(self, p: Point) -> dict[RailId, float]:
        """Gap between a ball at ``p`` and each rail's nose, metres (0 or less: touching)."""
        return {rid: rail.nose.distance_to(p) - self.ball_radius for rid, rail in self.rails.items()}

    def frozen_rails(self, p: Point, tolerance: float = CONTACT_TOLERANCE) -> list[RailId]:
        """Rails that a ball at ``p`` is frozen to (gap under ``tolerance``)."""
        return [rid for rid, gap in self.rail_gaps(p).items() if gap < tolerance]

    def cushion_gap(self, p: Point) -> float:
        """Smallest gap between a ball at ``p`` and any cushion surface (rails and jaws)."""
        nearest = min(
            min(rail.nose.distance_to(p) for rail in self.rails.values()),
            min(jaw.distance_to(p) for jaw in self.jaws),
        )
        return nearest - self.ball_radius

    def pocket_containing(self, p: Point) -> PocketId | None:
        """The pocket whose channel (past its haaki line, not yet in its capture circle) holds ``p``, if any."""
        for pocket in self.pockets.values():
            depth = pocket.depth_of(p)
            if not (
                0 < depth < self.capture_depth + pocket.capture_radius and abs(pocket.lateral_of(p)) < pocket.mouth / 2
            ):
                continue
            cx, cy = pocket.capture_centre
            if math.hypot(p[0] - cx, p[1] - cy) > pocket.capture_radius:
                return pocket.id
        return None

    def is_on_bed(self, p: Point) -> bool:
        """Whether ``p`` lies inside the nose lines or inside a pocket's mouth (a ball in the jaws)."""
        inside = 0 <= p[0] <= self.width and 0 <= p[1] <= self.length
        return inside or self.pocket_containing(p) is not None

    def ball_fits(self, p: Point, tolerance: float = 0.0) -> bool:
        """Whether a ball centred at ``p`` is on the table without overlapping a cushion by more than
        ``tolerance``."""
        return self.is_on_bed(p) and self.cushion_gap(p) >= -tolerance

    def push_off_cushions(self, p: Point, gap: float = PLACEMENT_GAP) -> Point:
        """Move a ball that touches (or barely overlaps) a cushion out to ``gap`` from it.

        The physics engine lets a ball placed exactly on a cushion tunnel through it; callers validate
        with :meth:`ball_fits` first, so this only ever moves a ball by a fraction of a millimetre.
        """
        x, y = p
        for _ in range(4):  # a ball in a corner of the jaws may touch two surfaces
            gaps: list[tuple[float, Segment | Arc]] = [
                (rail.nose.distance_to((x, y)), rail.nose) for rail in self.rails.values()
            ]
            gaps += [(jaw.tip.distance_to((x, y)), jaw.tip) for jaw in self.jaws]
            gaps += [(jaw.facing.distance_to((x, y)), jaw.facing) for jaw in self.jaws]
            distance, nearest = min(gaps, key=lambda g: g[0])
            need = self.ball_radius + gap
            if distance >= need:
                break
            away = _away_from(nearest, (x, y))
            x, y = x + away[0] * (need - distance), y + away[1] * (need - distance)
        return (x, y)


def table_to_json(spec: TableSpec) -> dict[str, Any]:
    """The table as JSON, for drawing it to scale (the browser table) and for other tools."""

    def pt(p: Point) -> list[float]:
        return [p[0], p[1]]

    return {
        "width": spec.width,
        "length": spec.length,
        "ball_radius": spec.ball_radius,
        "ball_mass": spec.ball_mass,
        "cushion_height": spec.cushion_height,
        "lines": {"head_string": spec.head_string, "centre_line": spec.centre_line, "foot_string": spec.foot_string},
        "spots": {sid.value: pt(p) for sid, p in spec.spots.items()},
        "rails": {
            rid.value: {"nose": [pt(r.nose.start), pt(r.nose.end)], "pockets": [p.value for p in r.pockets]}
            for rid, r in spec.rails.items()
        },
        "pockets": {
            pid.value: {
                "mouth": p.mouth,
                "axis": pt(p.axis),
                "jaws": [
                    {
                        "side": j.side.value,
                        "point": pt(j.point),
                        "tip": {"centre": pt(j.tip.centre), "radius": j.tip.radius},
                        "facing": [pt(j.facing.start), pt(j.facing.end)],
                    }
                    for j in p.jaws
                ],
                "capture": {"centre": pt(p.capture_centre), "radius": p.capture_radius},
            }
            for pid, p in spec.pockets.items()
        },
    }


def _unit(v: Point) -> Point:
    n = math.hypot(v[0], v[1])
    return (v[0] / n, v[1] / n)


def _away_from(surface: Segment | Arc, p: Point) -> Point:
    """Unit direction from the nearest point of ``surface`` towards ``p``."""
    if isinstance(surface, Arc):
        return _unit((p[0] - surface.centre[0], p[1] - surface.centre[1]))
    (ax, ay), (bx, by) = surface.start, surface.end
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    qx, qy = ax + t * dx, ay + t * dy
    if math.hypot(p[0] - qx, p[1] - qy) > 0:
        return _unit((p[0] - qx, p[1] - qy))
    return _unit((-dy, dx))


OFFICIAL = TableSpec()
"""The official table with the federation's defaults."""
