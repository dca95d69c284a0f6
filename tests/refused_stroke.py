"""A stroke stock pooltool 0.6.0 cannot play (seed 7's stroke 8218 of ``kaisa bench compiled``): three balls on
the head rail and the cue ball into them; its Stronge cushion model asserts ``v_n_0 < 0`` on one contact, and
every direction within 0.01 degrees of it fails the same way."""

from __future__ import annotations

from kaisa.model import BallId, Position, Stroke

POSITION = Position(
    {
        "W1": (1.0847, 1.0851),
        "W2": (1.0050, 0.0340),
        "R1": (0.7785, 0.0340),
        "R2": (0.4939, 0.7225),
        "K": (0.3838, 0.0340),
    }
)
STROKE = Stroke(
    BallId.W1,
    speed=2.758956880330537,
    direction=255.3222721342467,
    side=0.1107708030344049,
    follow=-0.0077237177424938075,
)
