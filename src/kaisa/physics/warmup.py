"""The engine's numba kernels: whether they are compiled and cached on disk, and compiling them.

The first simulation in a fresh environment compiles the engine's kernels (55-100 s on a two-core machine);
numba caches them on disk (beside the sources when their folder is writable, else under the user's cache
folder, ``$XDG_CACHE_HOME/numba`` or ``~/.cache/numba``, or under ``$NUMBA_CACHE_DIR`` when it is set), so later
processes start in a fraction of a second, read-only installs included. Whoever simulates first (the command
line, the web server, an environment, a Python user) is told so once per process on stderr
(:func:`notice_first_use`, called by the engine's first stroke), instead of waiting a minute in silence; an
interface that shows its own spinner warms up with ``warm_up(notice=False)``.
"""

from __future__ import annotations

import sys
from typing import TextIO

from kaisa.model import BallId, Position, Stroke
from kaisa.table import OFFICIAL, PocketId, TableSpec

_warm = False

NOTICE = "kaisa: compiling the physics engine's kernels (first use only, under a minute; cached afterwards)..."
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
    """Whether numba's on-disk cache holds the event loop compiled for this machine and these sources, where
    numba itself will look for it (its index is valid only for the source file's current stamp)."""
    if _warm:
        return True
    from kaisa.physics import compiled

    try:
        cache_file = compiled.run_loop._cache._cache_file  # type: ignore[attr-defined]
        return bool(cache_file._load_index())
    except (AttributeError, OSError, EOFError, ValueError):  # an unreadable or foreign index: not cached
        return False


def warm_up(spec: TableSpec = OFFICIAL, *, notice: bool = True) -> None:
    """Compile (or load) every kernel a Kaisa stroke uses: balls, rails, jaws, a pocket and the animation's
    samples. ``notice=False`` for a caller that says why it waits itself (a spinner): the first-use line is
    then not printed."""
    global _warm, noticed
    from kaisa.physics.compiled import simulate

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
