"""Chance, a step of the game: seeded execution noise for strokes, in the computational-pool convention.

The match owns it (OpenSpiel treats chance as a player; so do we, in spirit): a player intends a stroke, the
match executes it with the noise of that player's seat and records both, so a record replays bit for bit
and shows how far off the execution was. No player or environment perturbs its own strokes.

Each stroke parameter gets independent Gaussian noise (sigma: direction 0.125 deg, elevation 0.1 deg,
speed 0.075 m/s, each tip offset 0.5 mm), all scaled by one factor. The same seed gives the same noisy
stroke on every machine (numpy's PCG64). Noisy values are clipped back into what a cue can do, so a
noisy stroke is always a valid :class:`~kaisa.model.Stroke`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kaisa.model import MAX_ELEVATION, MAX_SPEED, MAX_TIP_OFFSET, Stroke
from kaisa.table import OFFICIAL, TableSpec

if TYPE_CHECKING:  # numpy is imported where chance is drawn: a match read back from the records needs none
    import numpy as np
    from numpy.typing import ArrayLike

MIN_NOISY_SPEED = 0.01
"""A noisy speed never drops below this (m/s): the stroke still happens."""


@dataclass(frozen=True)
class StrokeNoise:
    """Gaussian execution noise; ``scale`` multiplies every sigma (0 is a perfect player)."""

    scale: float = 1.0
    direction_sigma: float = 0.125
    """degrees"""
    elevation_sigma: float = 0.1
    """degrees"""
    speed_sigma: float = 0.075
    """m/s"""
    tip_sigma: float = 0.0005
    """metres, for each of side and follow"""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.scale) and self.scale >= 0):
            raise ValueError(f"noise scale must be a finite number >= 0, got {self.scale}")

    def apply(self, stroke: Stroke, rng: np.random.Generator, spec: TableSpec = OFFICIAL) -> Stroke:
        """One noisy execution of ``stroke``, drawing five normals from ``rng``."""
        return self.execute(stroke, rng.standard_normal(5), spec)

    def execute(self, stroke: Stroke, normals: ArrayLike, spec: TableSpec = OFFICIAL) -> Stroke:
        """``stroke`` executed with the given five standard normal draws (direction, elevation, speed, side,
        follow): :meth:`apply` draws them at random; a search may draw them stratified."""
        import numpy as np

        z = np.asarray(normals, dtype=float) * self.scale
        tip = self.tip_sigma / spec.ball_radius
        side = stroke.side + z[3] * tip
        follow = stroke.follow + z[4] * tip
        offset = math.hypot(side, follow)
        if offset > MAX_TIP_OFFSET:
            side, follow = side * MAX_TIP_OFFSET / offset, follow * MAX_TIP_OFFSET / offset
        return Stroke(
            ball=stroke.ball,
            speed=min(MAX_SPEED, max(MIN_NOISY_SPEED, stroke.speed + z[2] * self.speed_sigma)),
            direction=stroke.direction + z[0] * self.direction_sigma,
            elevation=min(MAX_ELEVATION, max(0.0, stroke.elevation + z[1] * self.elevation_sigma)),
            side=side,
            follow=follow,
            place=stroke.place,
        )

    def sample(self, stroke: Stroke, seed: int, count: int = 1, spec: TableSpec = OFFICIAL) -> list[Stroke]:
        """``count`` noisy executions of ``stroke``, determined by ``seed`` alone."""
        import numpy as np

        rng = np.random.default_rng(seed)
        return [self.apply(stroke, rng, spec) for _ in range(count)]


def chance_rng(seed: int, action: int, salt: int = 0) -> np.random.Generator:
    """The generator for the chance step of action number ``action`` of a match seeded ``seed``: a pure
    function of the three, so a resumed or replayed match draws exactly the same noise."""
    import numpy as np

    return np.random.default_rng([seed % 2**64, action, salt])  # a negative 64-bit seed as its bit pattern
