"""The baseline computer player: geometric ghost-ball aim at the easiest direct pot, no search.

It is the reference opponent that stronger players are measured against: it calls only direct pots
(``BALL POCKET``), aims the cue ball at the ghost-ball position, picks the pot with the smallest cut and
distance whose paths are clear, and plays a soft safety onto a ball in front when it sees nothing.
Every decision is deterministic for (seed, action index). It returns the stroke it intends; the match's chance
step executes it with the noise of its seat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from kaisa.call import Call
from kaisa.model import BallId, Position, Stroke
from kaisa.referee import DEFAULT_OPTIONS, GameState, RuleOptions
from kaisa.referee.opening import IllegalPlacementError, check_hand_placement, check_w2_placement
from kaisa.table import OFFICIAL, PocketId, Point, TableSpec

MAX_CUT = 65.0
"""Degrees: thinner cuts are not attempted."""
MAX_ENTRY_ANGLE = {True: 25.0, False: 40.0}
"""Degrees off the pocket's axis at which an object ball still enters: corners (True) are tight."""


@dataclass(frozen=True)
class Candidate:
    ball: BallId
    pocket: PocketId
    direction: float
    speed: float
    difficulty: float
    cue: Point


def _angle(v: Point) -> float:
    return math.degrees(math.atan2(v[1], v[0]))


def _diff(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return 360 - d if d > 180 else d


def _clear(a: Point, b: Point, balls: list[Point], width: float) -> bool:
    """No ball centre within ``width`` of the segment a-b (ignoring balls at its ends)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length_sq = dx * dx + dy * dy
    for p in balls:
        t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length_sq if length_sq else 0.0
        if t <= 0.0 or t >= 1.0:
            continue
        if math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy)) < width:
            return False
    return True


def frozen_to(cue: Point, position: Position, me: BallId, spec: TableSpec) -> list[Point]:
    """The balls the cue ball at ``cue`` is frozen to (touching, within the referee's frozen gap)."""
    limit = spec.ball_diameter + DEFAULT_OPTIONS.frozen_gap
    return [p for b, p in position.items() if b != me and math.dist(cue, p) <= limit]


def _towards_any(direction: float, cue: Point, balls: list[Point]) -> bool:
    """Whether a stroke in ``direction`` is played towards any of ``balls`` (within 90 degrees: 8a)."""
    return any(_diff(direction, _angle((p[0] - cue[0], p[1] - cue[1]))) < 90.0 for p in balls)


def candidates(cue: Point, position: Position, game: GameState, spec: TableSpec, cue_ball: BallId) -> list[Candidate]:
    """Every direct pot the cue ball at ``cue`` can see, easiest first."""
    r = spec.ball_radius
    out = []
    for ball, b in position.items():
        if ball.is_white and ball == cue_ball:
            continue
        if game.from_hand and not b[1] > spec.head_string:
            continue  # 5: balls on or behind the line only via a cushion
        others = [p for o, p in position.items() if o not in (ball, cue_ball)]
        for pocket in spec.pockets.values():
            middle = pocket.id.is_middle
            if middle and game.from_hand:
                continue  # 5: a middle pot from hand scores only via cushions
            if middle and ball.is_kaisa and game.last_pot_direct_middle_kaisa:
                continue  # 2.1
            target = (pocket.mouth_centre[0] + pocket.axis[0] * 0.02, pocket.mouth_centre[1] + pocket.axis[1] * 0.02)
            to_pocket = (target[0] - b[0], target[1] - b[1])
            d_obj = math.hypot(*to_pocket)
            if d_obj < 1e-6:
                continue
            u = (to_pocket[0] / d_obj, to_pocket[1] / d_obj)
            if _diff(_angle(u), _angle(pocket.axis)) > MAX_ENTRY_ANGLE[not middle]:
                continue
            ghost = (b[0] - u[0] * 2 * r, b[1] - u[1] * 2 * r)
            to_ghost = (ghost[0] - cue[0], ghost[1] - cue[1])
            d_cue = math.hypot(*to_ghost)
            if d_cue < 1e-6:
                continue
            cut = _diff(_angle(to_ghost), _angle(u))
            if cut > MAX_CUT:
                continue
            if not (_clear(cue, ghost, others, 2 * r) and _clear(b, target, [*others, cue], 2 * r)):
                continue
            difficulty = d_cue + 2.0 * d_obj + (cut / 30.0) ** 2 + (0.5 if middle else 0.0)
            speed = min(5.0, max(1.2, 1.0 + 0.9 * (d_cue + d_obj) / math.cos(math.radians(cut))))
            out.append(Candidate(ball, pocket.id, _angle(to_ghost), speed, difficulty, cue))
    return sorted(out, key=lambda c: c.difficulty)


@lru_cache(maxsize=4)
def lag_speed(spec: TableSpec = OFFICIAL) -> float:
    """The cue speed that brings a lag ball back to a few centimetres from the head cushion (found once by
    bisection on the real physics)."""
    from kaisa.model import RailEvent
    from kaisa.physics import simulate
    from kaisa.table import RailId

    start = (spec.width / 4, spec.length / 8)
    low, high = 0.5, 8.0
    for _ in range(20):
        mid = (low + high) / 2
        record = simulate(Position(), Stroke(BallId.W1, mid, 90.0, place=start), spec=spec)
        if any(isinstance(e, RailEvent) and e.rail is RailId.HEAD for e in record.events):
            high = mid  # back onto the head cushion: too hard
        else:
            low = mid
    return low


class BaselinePlayer:
    """Ghost-ball aim at the easiest direct pot."""

    def __init__(self, name: str = "baseline", seed: int = 0) -> None:
        self.name = name
        self.seed = seed

    def lag(self, ball: BallId, half: str, position: Position, spec: TableSpec, stroke_index: int) -> Stroke:
        x = spec.width / 4 if half == "left" else 3 * spec.width / 4
        return Stroke(ball, lag_speed(spec), 90.0, place=(x, spec.length / 8))

    def choose_cue_ball(self) -> BallId:
        return BallId.W1

    def place_w2(self, position: Position, spec: TableSpec, options: RuleOptions) -> Point:
        for fx, fy in ((0.5, 0.92), (0.5, 0.85), (0.2, 0.7), (0.8, 0.7), (0.5, 0.6)):
            point = (spec.width * fx, spec.length * fy)
            try:
                check_w2_placement(position, point, spec, options)
            except IllegalPlacementError:
                continue
            return point
        raise IllegalPlacementError("the baseline player found no legal place for W2")

    def shot(
        self, position: Position, game: GameState, spec: TableSpec, stroke_index: int
    ) -> tuple[Call | None, Stroke]:
        me = game.shooter
        if game.from_hand:
            best: Candidate | None = None
            others = position.without(me)
            for fx in np.linspace(0.1, 0.9, 9):
                for fy in (0.08, 0.15, 0.22):
                    cue = (float(spec.width * fx), float(spec.length * fy))
                    try:
                        check_hand_placement(others, me, cue, spec)
                    except IllegalPlacementError:
                        continue
                    found = candidates(cue, others, game, spec, me)
                    if found and (best is None or found[0].difficulty < best.difficulty):
                        best = found[0]
            place = best.cue if best else self._safe_place(others, me, spec)
            if best is not None:
                return Call(best.ball, best.pocket), Stroke(me, best.speed, best.direction, follow=-0.1, place=place)
            return None, self._safety(place, others, me, game, spec, place)
        cue = position[me]
        frozen = frozen_to(cue, position, me, spec)
        found = [c for c in candidates(cue, position, game, spec, me) if not _towards_any(c.direction, cue, frozen)]
        if frozen and not found:
            # 8a: a cue ball frozen to a ball is played away from it; roll softly straight away from them
            away = (sum(cue[0] - p[0] for p in frozen), sum(cue[1] - p[1] for p in frozen))
            return None, Stroke(me, 1.5, _angle(away))
        if found:
            best = found[0]
            return Call(best.ball, best.pocket), Stroke(me, best.speed, best.direction, follow=-0.1)
        return None, self._safety(cue, position, me, game, spec, None)

    def _safe_place(self, others: Position, me: BallId, spec: TableSpec) -> Point:
        for fx in (0.5, 0.3, 0.7, 0.15, 0.85):
            point = (spec.width * fx, spec.length * 0.15)
            try:
                check_hand_placement(others, me, point, spec)
            except IllegalPlacementError:
                continue
            return point
        raise IllegalPlacementError("the baseline player found no place behind the head string")

    def _safety(
        self, cue: Point, position: Position, me: BallId, game: GameState, spec: TableSpec, place: Point | None
    ) -> Stroke:
        """No pot in sight: roll softly into the nearest ball it may hit (in front of the line from hand)."""
        targets = [p for b, p in position.items() if b != me and (not game.from_hand or p[1] > spec.head_string)]
        if not targets:
            return Stroke(me, 2.0, 90.0, place=place)
        target = min(targets, key=lambda p: math.hypot(p[0] - cue[0], p[1] - cue[1]))
        distance = math.hypot(target[0] - cue[0], target[1] - cue[1])
        return Stroke(me, min(3.0, 0.8 + 0.6 * distance), _angle((target[0] - cue[0], target[1] - cue[1])), place=place)
