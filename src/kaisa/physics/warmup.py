"""The engine's numba kernels: whether they are compiled and cached on disk, and compiling them.

The first simulation in a fresh environment compiles pooltool's kernels (55-100 s on a two-core machine);
numba caches them beside pooltool's sources, so later processes start in a fraction of a second. Whoever
simulates first (the command line, the web server, an environment, a Python user) is told so once per process
on stderr (:func:`notice_first_use`, called by the engine's first stroke), instead of waiting a minute in
silence; an interface that shows its own spinner warms up with ``warm_up(notice=False)``.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import TextIO

import pooltool

from kaisa.model import BallId, Position, Stroke
from kaisa.table import OFFICIAL, PocketId, TableSpec

_KERNEL_MODULES = ("evolution/event_based", "physics/evolve", "ptmath/roots", "physics/resolve")

BACKEND_ENV = "KAISA_PHYSICS_BACKEND"
"""``KAISA_PHYSICS_BACKEND=compiled`` plays strokes without trajectories by the compiled event loop
(:mod:`kaisa.physics.compiled`, behind this flag until it agrees with pooltool); unset, pooltool plays. Its
kernels are then part of what :func:`kernels_cached` checks and :func:`warm_up` compiles."""
_warm = False

NOTICE = "kaisa: compiling the physics engine's kernels (first use only, about a minute; cached afterwards)..."
"""The one line said on stderr when a process simulates before the kernels are cached."""
noticed = False
"""Whether this process has checked the cache and, if need be, said :data:`NOTICE` (the engine reads it on each
stroke: a global's truth is the whole cost once it is set)."""


def notice_first_use(stream: TextIO | None = None) -> bool:
    """Say :data:`NOTICE` on ``stream`` (default stderr) if the kernels are not cached yet; once per process,
    whatever the answer. Returns whether it was said."""
    global noticed
    if noticed:
        return False
    noticed = True
    if kernels_cached():
        return False
    out = stream if stream is not None else sys.stderr
    try:
        print(NOTICE, file=out, flush=True)
    except (OSError, ValueError):  # a closed stderr (a daemon): the notice is a courtesy, never a failure
        return False
    return True


def kernels_cached() -> bool:
    """Whether numba's on-disk cache holds compiled kernels for the engine's main modules: beside pooltool's
    sources, or under ``$NUMBA_CACHE_DIR`` when it is set (numba names a source folder's cache there
    ``<folder name>_<sha1 of its absolute path>``)."""
    if _warm:
        return True
    root = Path(pooltool.__file__).parent
    custom = os.environ.get("NUMBA_CACHE_DIR", "").strip()
    if os.environ.get(BACKEND_ENV, "") == "compiled":
        here = Path(os.path.abspath(Path(__file__).parent))
        where = Path(custom) / f"{here.name}_{hashlib.sha1(str(here).encode()).hexdigest()}" if custom else here
        if not any(where.rglob("compiled.*.nbi")):
            return False
    if not custom:
        return all(any((root / module).rglob("*.nbi")) for module in _KERNEL_MODULES)

    def cached(module: str) -> bool:
        source = Path(os.path.abspath(root / module))
        folders = [source, *(p for p in source.rglob("*") if p.is_dir() and p.name != "__pycache__")]
        return any(
            any((Path(custom) / f"{d.name}_{hashlib.sha1(str(d).encode()).hexdigest()}").glob("*.nbi")) for d in folders
        )

    return all(cached(module) for module in _KERNEL_MODULES)


def warm_up(spec: TableSpec = OFFICIAL, *, notice: bool = True) -> None:
    """Compile (or load) every kernel a Kaisa stroke uses: balls, rails, jaws and a pocket. ``notice=False``
    for a caller that says why it waits itself (a spinner): the first-use line is then not printed."""
    global _warm, noticed
    from kaisa.physics.engine import simulate

    if not notice:
        noticed = True
    w, length, r = spec.width, spec.length, spec.ball_radius
    position = Position({"W1": (w / 2, length / 4), "R1": (w / 2, length / 2), "K": (w / 4, length - 3 * r)})
    simulate(position, Stroke(BallId.W1, 3.0, 90.0, follow=0.3, side=0.2), spec=spec)  # ball, rails, jaws
    corner = spec.pockets[PocketId.FR].mouth_centre
    simulate(
        Position({"W2": (corner[0] - 0.3, corner[1] - 0.3)}), Stroke(BallId.W2, 1.0, 45.0), trajectories=30, spec=spec
    )
    _warm = True
