"""Physics: Kaisa's own event-based engine (pooltool 0.6.0's physics, compiled; see :mod:`kaisa.physics.compiled`).

``simulate(position, stroke) -> ShotRecord`` plays one stroke on the official table (or any
:class:`~kaisa.table.TableSpec`) and returns the domain event log.

Importing this package imports neither numba nor the engine: they load on the first stroke or on the first
use of a name below, so that whatever holds a match without playing a stroke (the records, the statistics, a
match read back from the database) starts without them. pooltool is not needed at all: it is the reference
the engine is checked against (:mod:`kaisa.physics.reference`, a development dependency).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kaisa.model import Position, ShotRecord, Stroke
from kaisa.table import OFFICIAL, TableSpec

if TYPE_CHECKING:
    from kaisa.physics.engine import physics_table, validate_position
    from kaisa.physics.warmup import kernels_cached, warm_up


def simulate(
    position: Position,
    stroke: Stroke,
    *,
    trajectories: float | None = None,
    spec: TableSpec = OFFICIAL,
) -> ShotRecord:
    """Play ``stroke`` from ``position`` and return what happened (:func:`kaisa.physics.compiled.simulate`,
    imported on the first stroke). ``trajectories`` is a sampling rate in Hz for animation (None: no samples)."""
    from kaisa.physics import warmup
    from kaisa.physics.compiled import simulate as play

    if not warmup.noticed:  # the first stroke of a process: say so if it has to compile the kernels
        warmup.notice_first_use()
    return play(position, stroke, trajectories=trajectories, spec=spec)


_LAZY = {
    "physics_table": "kaisa.physics.engine",
    "validate_position": "kaisa.physics.engine",
    "kernels_cached": "kaisa.physics.warmup",
    "warm_up": "kaisa.physics.warmup",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["kernels_cached", "physics_table", "simulate", "validate_position", "warm_up"]
