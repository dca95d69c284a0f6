"""The package's exceptions. Each message says what was wrong and what is allowed.

Every error has a stable ``code`` (for programs: the API's error body, tests) and a ``kind`` in Finnish and
English saying what kind of problem it is (for people: :func:`error_text` gives the whole error in both
languages). Subclasses set both; the message itself stays the detailed English sentence.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorText:
    """What kind of problem an error is, in Finnish and English."""

    fi: str
    en: str


class KaisaError(ValueError):
    """Base class of every error this package raises about bad input or impossible results."""

    code: str = "invalid-input"
    """Stable, for programs; an instance may set its own (a refusal with its own Finnish and English ``text``)."""
    kind: ErrorText = ErrorText("Virheellinen syöte.", "Invalid input.")

    def __init__(self, *args: object, fi: str | None = None) -> None:
        super().__init__(*args)
        self.fi_detail = fi
        """The detailed message in Finnish, when the raiser wrote one (the message itself is the English)."""


def error_text(error: KaisaError) -> ErrorText:
    """The error for people in Finnish and English: its own ``text`` when it has one (a refusal worded in both
    languages), else its kind followed by the detail (in Finnish when the raiser gave it; else the Finnish is
    the kind alone, as a Finnish text has no English fragments)."""
    own = getattr(error, "text", None)
    fi, en = getattr(own, "fi", None), getattr(own, "en", None)
    if isinstance(fi, str) and isinstance(en, str):
        return ErrorText(fi, en)
    detail = str(error)
    if getattr(error, "fi_detail", None):
        return ErrorText(f"{error.kind.fi} {error.fi_detail}", f"{error.kind.en} {detail[:1].upper()}{detail[1:]}.")
    return ErrorText(error.kind.fi, f"{error.kind.en} {detail}")


class InvalidPositionError(KaisaError):
    """A ball position that cannot be on the table: unknown id, overlap, outside the playing area."""

    code = "invalid-position"
    kind = ErrorText("Pallojen asema ei ole mahdollinen.", "The ball position is not possible.")


class InvalidStrokeError(KaisaError):
    """A stroke outside what a cue can do: speed, angles or tip offset out of range, or NaN."""

    code = "invalid-stroke"
    kind = ErrorText("Lyönti ei ole mahdollinen.", "The stroke is not possible.")


class SimulationError(KaisaError):
    """The physics produced a result that cannot be true (a ball left the bed through a cushion)."""

    code = "simulation-failed"
    kind = ErrorText("Lyönnin simulointi epäonnistui.", "The stroke could not be simulated.")


class FormatError(KaisaError):
    """A JSON document that does not follow the documented contract."""

    code = "bad-format"
    kind = ErrorText("Tiedon muoto on virheellinen.", "The data is not in the documented format.")


__all__ = [
    "ErrorText",
    "FormatError",
    "InvalidPositionError",
    "InvalidStrokeError",
    "KaisaError",
    "SimulationError",
    "error_text",
]
