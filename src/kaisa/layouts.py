"""Positions to play from, shared by tests, benchmarks, the environments and the match: the official
starting position, the break, and seeded random layouts, strokes and calls.

Everything here is plain data from the table and the model; nothing simulates.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kaisa.call import Call, Konsti
from kaisa.model import BALL_ORDER, BallId, Position, Stroke
from kaisa.table import OFFICIAL, PocketId, SpotId, TableSpec

if TYPE_CHECKING:  # the generators are the caller's: a match read back from the records imports no numpy
    import numpy as np


def starting_position(spec: TableSpec = OFFICIAL) -> Position:
    """The object balls on their spots before the lag (1.2): the kaisa on the centre spot, red 1 on the head
    string's spot and red 2 on the foot string's."""
    spots = spec.spots
    return Position({"K": spots[SpotId.CENTRE], "R1": spots[SpotId.HEAD_STRING], "R2": spots[SpotId.FOOT_STRING]})


def random_layout(rng: np.random.Generator, spec: TableSpec = OFFICIAL, balls: int = 5) -> Position:
    """``balls`` balls at uniformly random places on the bed, none touching a cushion or each other."""
    r = spec.ball_radius
    margin = r + 0.002
    placed: dict[str, tuple[float, float]] = {}
    for ball in BALL_ORDER[:balls]:
        while True:
            p = (float(rng.uniform(margin, spec.width - margin)), float(rng.uniform(margin, spec.length - margin)))
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 2 * r + 0.002 for q in placed.values()):
                placed[ball.value] = p
                break
    return Position(placed)


def random_stroke(rng: np.random.Generator, position: Position, soft: float = 0.5, hard: float = 6.0) -> Stroke:
    """A stroke of W1 at a random ball of ``position``, soft to hard, with some spin."""
    targets = [b for b in position if b.value != "W1"]
    cue = position["W1"]
    target = position[targets[int(rng.integers(len(targets)))]]
    aim = math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0])) + float(rng.normal(0, 3))
    side, follow = rng.uniform(-0.3, 0.3, size=2)
    return Stroke(
        BallId.W1, speed=float(rng.uniform(soft, hard)), direction=aim, side=float(side), follow=float(follow)
    )


def wild_stroke(rng: np.random.Generator) -> Stroke:
    """A stroke of W1 in any direction at 0.5-8 m/s with any spin a cue gives: banks, kicks, pots off the jaws
    (the physics checks' strokes that aim at nothing)."""
    return Stroke(
        BallId.W1,
        speed=float(rng.uniform(0.5, 8.0)),
        direction=float(rng.uniform(0, 360)),
        side=float(rng.uniform(-0.35, 0.35)),
        follow=float(rng.uniform(-0.35, 0.35)),
    )


def random_call(rng: np.random.Generator, position: Position) -> Call:
    """A plausible call for W1: a random object ball on the table into a random pocket, sometimes via a ball."""
    objects = [b for b in position if b is not BallId.W1]
    ball = objects[int(rng.integers(len(objects)))]
    pocket = list(PocketId)[int(rng.integers(6))]
    others = [b for b in objects if b is not ball]
    if others and rng.random() < 0.3:
        return Call(ball, pocket, konsti=list(Konsti)[int(rng.integers(3))], via=others[int(rng.integers(len(others)))])
    return Call(ball, pocket)
