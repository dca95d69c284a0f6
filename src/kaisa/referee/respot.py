"""Putting pocketed and off-table balls back (4, 4.1).

A red goes to the first free of the head-string, foot-string, head-end, foot-end and centre spots; the kaisa
to the first free of the centre, head-string, foot-string, head-end and foot-end spots; the kaisa is placed
before a red (4.1), and the reds in id order. A spot is taken if a ball placed there would touch another.
Whites are never spotted: their owners play from hand (4a, 5).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping

from kaisa.model import BallId, Position
from kaisa.table import CONTACT_TOLERANCE, OFFICIAL, Point, SpotId, TableSpec

RED_SPOTS = (SpotId.HEAD_STRING, SpotId.FOOT_STRING, SpotId.HEAD_END, SpotId.FOOT_END, SpotId.CENTRE)
KAISA_SPOTS = (SpotId.CENTRE, SpotId.HEAD_STRING, SpotId.FOOT_STRING, SpotId.HEAD_END, SpotId.FOOT_END)


def spot_order(ball: BallId) -> tuple[SpotId, ...]:
    return KAISA_SPOTS if ball.is_kaisa else RED_SPOTS


def respot(
    balls: Iterable[BallId], on_table: Position | Mapping[BallId, Point], spec: TableSpec = OFFICIAL
) -> dict[BallId, tuple[SpotId | None, Point]]:
    """Where each of ``balls`` (object balls to put back) goes, given the balls ``on_table``.

    Returns ``{ball: (spot, point)}``. If all five spots are taken (it needs five other balls nearby, so
    practically never) the ball goes on the long axis as near to its first spot as it fits, and the spot is
    ``None`` (a decision; the rulebook is silent).
    """
    occupied: list[Point] = list(on_table.values())
    placed: dict[BallId, tuple[SpotId | None, Point]] = {}
    order = sorted(set(balls), key=lambda b: (not b.is_kaisa, b.value))
    for ball in order:
        if ball.is_white:
            raise ValueError(f"{ball.value} is a cue ball: its owner plays it from hand, it is never spotted")
        for spot in spot_order(ball):
            if spec.spot_is_free(spot, occupied):
                point = spec.spots[spot]
                placed[ball] = (spot, point)
                occupied.append(point)
                break
        else:
            point = _nearest_free_on_axis(spec.spots[spot_order(ball)[0]], occupied, spec)
            placed[ball] = (None, point)
            occupied.append(point)
    return placed


def _nearest_free_on_axis(target: Point, occupied: list[Point], spec: TableSpec) -> Point:
    step = 0.001
    limit = spec.ball_diameter + CONTACT_TOLERANCE
    for k in range(int(spec.length / step)):
        for sign in (1, -1):
            y = target[1] + sign * k * step
            if spec.ball_radius < y < spec.length - spec.ball_radius:
                p = (target[0], y)
                if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= limit for q in occupied):
                    return p
    raise ValueError("no free place on the long axis for a respotted ball")
