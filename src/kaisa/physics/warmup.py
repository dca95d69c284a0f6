"""The engine's numba kernels: whether they are compiled and cached on disk, and compiling them.

The first simulation in a fresh environment compiles pooltool's kernels (about 25 s); numba caches them
beside pooltool's sources, so later processes start in a fraction of a second. Interfaces ask
:func:`kernels_cached` and show a spinner around :func:`warm_up` when it is False.
"""

from __future__ import annotations

from pathlib import Path

import pooltool

from kaisa.model import BallId, Position, Stroke
from kaisa.table import OFFICIAL, PocketId, TableSpec

_KERNEL_MODULES = ("evolution/event_based", "physics/evolve", "ptmath/roots", "physics/resolve")
_warm = False


def kernels_cached() -> bool:
    """Whether numba's on-disk cache holds compiled kernels for the engine's main modules."""
    if _warm:
        return True
    root = Path(pooltool.__file__).parent
    return all(any((root / module).rglob("*.nbi")) for module in _KERNEL_MODULES)


def warm_up(spec: TableSpec = OFFICIAL) -> None:
    """Compile (or load) every kernel a Kaisa stroke uses: balls, rails, jaws and a pocket."""
    global _warm
    from kaisa.physics.engine import simulate

    w, length, r = spec.width, spec.length, spec.ball_radius
    position = Position({"W1": (w / 2, length / 4), "R1": (w / 2, length / 2), "K": (w / 4, length - 3 * r)})
    simulate(position, Stroke(BallId.W1, 3.0, 90.0, follow=0.3, side=0.2), spec=spec)  # ball, rails, jaws
    corner = spec.pockets[PocketId.FR].mouth_centre
    simulate(
        Position({"W2": (corner[0] - 0.3, corner[1] - 0.3)}), Stroke(BallId.W2, 1.0, 45.0), trajectories=30, spec=spec
    )
    _warm = True
