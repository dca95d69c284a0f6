"""The package's exceptions. Each message says what was wrong and what is allowed."""

from __future__ import annotations


class KaisaError(ValueError):
    """Base class of every error this package raises about bad input or impossible results."""


class InvalidPositionError(KaisaError):
    """A ball position that cannot be on the table: unknown id, overlap, outside the playing area."""


class InvalidStrokeError(KaisaError):
    """A stroke outside what a cue can do: speed, angles or tip offset out of range, or NaN."""


class SimulationError(KaisaError):
    """The physics produced a result that cannot be true (a ball left the bed through a cushion)."""


class FormatError(KaisaError):
    """A JSON document that does not follow the documented contract."""
