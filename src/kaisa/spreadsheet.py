"""Cells for the CSV files clubs open in a spreadsheet (match statistics, kaavio results and placings).

Stated once here, below every layer that writes CSV, so the statistics and the kaavio's pure paper module escape
cells the same way without either importing the other.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A cell starting with one of these is read by a spreadsheet as a formula."""


def csv_text(text: str) -> str:
    """A text cell that a spreadsheet shows as text: one starting with ``= + - @``, a tab or a carriage return
    would be read as a formula (``=HYPERLINK(...)`` in a player's name), so it gets a leading apostrophe (the
    OWASP advice). Numbers are written by the caller, never through here."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text
