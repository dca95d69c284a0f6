"""Physics: the only layer that imports pooltool.

``simulate(position, stroke) -> ShotRecord`` plays one stroke on the official table (or any
:class:`~kaisa.table.TableSpec`) and returns the domain event log.
"""

from kaisa.physics.engine import physics_table, simulate, validate_position
from kaisa.physics.warmup import kernels_cached, warm_up

__all__ = ["kernels_cached", "physics_table", "simulate", "validate_position", "warm_up"]
