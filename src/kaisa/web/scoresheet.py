"""The scoresheet (pöytäkirja) of a club match as an A4 PDF, drawn with matplotlib's PDF backend.

The same scoresheet is a print-friendly page (``/club/scoresheet``, with the same words and date); this PDF is for
filing and e-mail: the players, table, date, each inning's points and the running score, the runs, innings and
fouls with their clauses, the result and signature lines. Every foul is written out in full, wrapped in its
column (a row is as tall as its fouls); the totals, breaks and result come after the last inning with room to
sign under them, on a page of their own when the last page has no room left.
"""

from __future__ import annotations

import io
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kaisa.competition.paper import date_text

if TYPE_CHECKING:  # matplotlib (half a second) is imported when a PDF is drawn, not when the server starts
    from matplotlib.figure import Figure

A4 = (8.27, 11.69)
LEFT, RIGHT = 0.08, 0.92
TABLE_TOP = 0.865
"""The column heads' line; the header (title, facts, players) is above it."""
PAGE_BOTTOM = 0.06
"""Rows end above this (the page number is under it)."""
SIGN_LINE = 0.09
"""The signature lines (their labels under them)."""
SIGN_ROOM = 0.06
"""Free height above the signature lines to sign in."""
COLUMNS = {"inning": 0.08, "strokes": 0.2, "seat0": 0.3, "seat1": 0.46, "fouls": 0.62}
HEAD_CHARS = 15
"""Characters on a line of a player's column head (9 pt bold in 0.16 of the page's width): a longer name wraps."""
HEAD_LINE = 0.012
SIGN_CHARS = 26
"""Characters on a line of a signature's label (9 pt under a line of 0.25 of the page's width)."""
FOUL_CHARS = 44
"""Characters on a line of the foul column (7 pt DejaVu Sans in 0.31 of the page's width, with room to spare)."""
ROW = 0.021
"""A row's height with one line."""
FOUL_LINE = 0.0125
"""The height of each further line of a row's fouls."""
SUMMARY_LINE = 0.022
RESULT_LINE = 0.03
SUMMARY_CHARS, RESULT_CHARS = 88, 66
"""Characters on a line of the summary (10 pt) and of the result (12 pt bold) across the page."""
WORDS: dict[str, dict[str, Any]] = {
    "fi": {
        "title": "Pöytäkirja",
        "match": "Ottelu",
        "game": "Peli",
        "round": "Kierros",
        "competition": "Kilpailu",
        "by_director": "kilpailunjohtajan kirjaama",
        "table": "Pöytä",
        "date": "Päivä",
        "event": "Seurailta",
        "inning": "Lyöntivuoro",
        "strokes": "Lyönnit",
        "fouls": "Virheet (sääntökohta)",
        "runs": "Paras sarja",
        "innings": "Lyöntivuorot",
        "foul_count": "Virheitä",
        "result": "Tulos",
        "winner": "Voittaja",
        "unfinished": "Ottelu on kesken.",
        "marker": "Kirjuri",
        "player": "Pelaaja",
        "breaks": "Tauot",
        "page": "sivu",
    },
    "en": {
        "title": "Scoresheet",
        "match": "Match",
        "game": "Game",
        "round": "Round",
        "competition": "Competition",
        "by_director": "recorded by the director",
        "table": "Table",
        "date": "Date",
        "event": "Club night",
        "inning": "Inning",
        "strokes": "Strokes",
        "fouls": "Fouls (rule)",
        "runs": "Best run",
        "innings": "Innings",
        "foul_count": "Fouls",
        "result": "Result",
        "winner": "Winner",
        "unfinished": "The match is not finished.",
        "marker": "Marker",
        "player": "Player",
        "breaks": "Breaks",
        "page": "page",
    },
}
"""The sheet's words, as the scoresheet page says them (club-strings.js, ``ss.*``)."""


def minutes(seconds: float) -> str:
    """A break's length as m:ss."""
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def _strokes(numbers: list[int]) -> str:
    if not numbers:
        return ""
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _foul_text(foul: dict[str, Any], lang: str) -> str:
    text = str(foul.get(lang) or foul.get("en") or "")
    return f"§ {foul['clause']} ({int(foul['points']):+d}) {text}"


def foul_lines(fouls: list[dict[str, Any]], lang: str) -> list[str]:
    """Every foul of an inning, each from a new line, wrapped to the foul column."""
    lines: list[str] = []
    for foul in fouls:
        lines.extend(textwrap.wrap(_foul_text(foul, lang), FOUL_CHARS, break_long_words=True) or [""])
    return lines


@dataclass(frozen=True)
class Row:
    inning: dict[str, Any]
    fouls: list[str]

    @property
    def height(self) -> float:
        return ROW + FOUL_LINE * max(0, len(self.fouls) - 1)


def _summary(sheet: dict[str, Any], w: dict[str, Any], names: list[str]) -> list[tuple[str, float, bool]]:
    """The lines after the last inning, wrapped to the page: (text, font size, bold)."""
    texts = [
        f"{names[seat]}: {w['innings']} {sheet['inning_counts'][seat]} · {w['runs']} {sheet['runs'][seat]} · "
        f"{w['foul_count']} {sheet['fouls'][seat]}"
        for seat in (0, 1)
    ]
    breaks = sheet.get("breaks") or {}
    if breaks:
        who = {p.get("cue_ball"): p["name"] for p in sheet["players"]}
        taken = ", ".join(f"{who.get(ball, ball)} ({ball}) {minutes(float(s))}" for ball, s in breaks.items())
        texts.append(f"{w['breaks']}: {taken}")
    lines = [(line, 10.0, False) for text in texts for line in textwrap.wrap(text, SUMMARY_CHARS)]
    result = sheet.get("result")
    game = sheet.get("competition") or {}
    if game.get("points") and (game.get("decided_by") == "director" or not result):
        said = f"{w['result']}: {game['points'][0]} – {game['points'][1]}"
        if game.get("decided_by") == "director" and sheet.get("id") is not None:
            said += f" ({w['by_director']})"
    elif result:
        players = sheet["players"]
        winner = next((p["name"] for p in players if p.get("cue_ball") == result.get("winner")), "")
        scores = result.get("recorded") or result.get("scores") or {}
        score = " – ".join(str(scores.get(p.get("cue_ball"), "")) for p in players)
        said = f"{w['result']}: {score}   {w['winner']}: {winner}"
    else:
        said = w["unfinished"]
    lines.extend((line, 12.0, True) for line in textwrap.wrap(said, RESULT_CHARS))
    return lines


def _summary_height(lines: list[tuple[str, float, bool]]) -> float:
    """From the last row down to the summary's last line's foot."""
    return 0.012 + sum(RESULT_LINE if size > 10 else SUMMARY_LINE for _, size, _ in lines) + 0.01


def _head(name: str) -> list[str]:
    """A player's column head: the name with the cue ball, wrapped (three lines at most)."""
    return textwrap.wrap(name, HEAD_CHARS, break_long_words=True, max_lines=3, placeholder="…")


def paginate(rows: list[Row], summary: float, top: float) -> list[tuple[list[Row], bool]]:
    """The rows of each page (from ``top`` down), and whether the page ends with the summary and the signatures:
    rows fill a page down to its foot; the summary (``summary`` high) and room to sign follow the last row, on a
    page of its own when the last page has no room left for them."""
    pages: list[tuple[list[Row], bool]] = []
    current: list[Row] = []
    y = top
    for row in rows:
        if current and y - row.height < PAGE_BOTTOM:
            pages.append((current, False))
            current, y = [], top
        current.append(row)
        y -= row.height
    if current and y - summary < SIGN_LINE + SIGN_ROOM:
        # no room left to sum up and sign: the last row goes to the next page with them, not the summary alone
        carried = current[-1:] if len(current) > 1 else []
        pages.append((current[: len(current) - len(carried)], False))
        current = carried
    pages.append((current, True))
    return pages


def scoresheet_figures(sheet: dict[str, Any], lang: str = "fi") -> list[Figure]:
    """The pages of ``sheet`` (the JSON of the club API's scoresheet) in ``lang`` (``fi`` or ``en``), drawn."""
    from matplotlib.figure import Figure

    lang = "fi" if lang == "fi" else "en"
    w = WORDS[lang]
    players = sheet["players"]
    names = [f"{p['name']} ({p.get('cue_ball') or '–'})" for p in players]
    rows = [Row(inning, foul_lines(inning["fouls"], lang)) for inning in sheet["innings"]]
    summary = _summary(sheet, w, names)
    heads = [[w["inning"]], [w["strokes"]], *(_head(name) for name in names), [w["fouls"]]]
    pages = paginate(rows, _summary_height(summary), TABLE_TOP - 0.006 - HEAD_LINE * (len(max(heads, key=len)) - 1))
    figures = []
    for number, (page_rows, last) in enumerate(pages, start=1):
        fig = Figure(figsize=A4)
        game = sheet.get("competition")
        if game and game.get("game") is not None:
            title = f"{w['title']} · {w['game']} {game['game']} · {w['round']} {game['round']}"
        else:
            title = f"{w['title']} · {w['match']} {sheet['id']}"
        fig.text(LEFT, 0.95, title, fontsize=16, weight="bold")
        where = [f"{w['date']}: {date_text(sheet['date'], lang)}"]
        if sheet.get("table_label"):
            where.append(f"{w['table']}: {sheet['table_label']}")
        if game:
            where.append(f"{w['competition']}: {game['name']}")
        elif sheet.get("event"):
            where.append(f"{w['event']}: {sheet['event']}")
        fig.text(LEFT, 0.925, "   ".join(where), fontsize=10)
        fig.text(LEFT, 0.9, f"1: {names[0]}      2: {names[1]}", fontsize=11)
        y = TABLE_TOP
        if page_rows or not last:
            for x, head in zip(COLUMNS.values(), heads, strict=True):
                for i, line in enumerate(head):
                    fig.text(x, y - i * HEAD_LINE, line, fontsize=9, weight="bold")
            y -= 0.006 + HEAD_LINE * (len(max(heads, key=len)) - 1)
            fig.add_artist(_line(y))
        for row in page_rows:
            inning = row.inning
            top = y - ROW + 0.006
            cell = f"{int(inning['points']):+d}  → {inning['score']}"
            fig.text(COLUMNS["inning"], top, str(inning["number"]), fontsize=9)
            fig.text(COLUMNS["strokes"], top, _strokes(inning["strokes"]), fontsize=9)
            seat = COLUMNS["seat0"] if int(inning["player"]) == 0 else COLUMNS["seat1"]
            fig.text(seat, top, cell, fontsize=9, family="monospace")
            for i, line in enumerate(row.fouls):
                fig.text(COLUMNS["fouls"], top - i * FOUL_LINE, line, fontsize=7, color="#8a1c12")
            y -= row.height
        if last:
            y -= 0.012
            fig.add_artist(_line(y))
            for text, size, bold in summary:
                y -= RESULT_LINE if size > 10 else SUMMARY_LINE
                fig.text(LEFT, y, text, fontsize=size, weight="bold" if bold else "normal")
            signers = [w["marker"], *(f"{w['player']}: {p['name']}" for p in players)]
            for i, who in enumerate(signers):
                x = LEFT + i * 0.3
                fig.add_artist(_line(SIGN_LINE, x, x + 0.25))
                for j, line in enumerate(textwrap.wrap(who, SIGN_CHARS, max_lines=2, placeholder="…")):
                    fig.text(x, SIGN_LINE - 0.02 - j * HEAD_LINE, line, fontsize=9)
        fig.text(RIGHT, 0.03, f"{w['page']} {number}/{len(pages)}", fontsize=8, ha="right")
        figures.append(fig)
    return figures


def scoresheet_to_pdf(sheet: dict[str, Any], lang: str = "fi") -> bytes:
    """The PDF bytes of ``sheet`` (the JSON of the club API's scoresheet) in ``lang`` (``fi`` or ``en``)."""
    from matplotlib.backends.backend_pdf import PdfPages

    out = io.BytesIO()
    with PdfPages(out) as pdf:
        for fig in scoresheet_figures(sheet, lang):
            pdf.savefig(fig)
    return out.getvalue()


def _line(y: float, x0: float = LEFT, x1: float = RIGHT) -> Any:
    from matplotlib.lines import Line2D

    return Line2D([x0, x1], [y, y], color="#333", linewidth=0.6)


__all__ = ["minutes", "paginate", "scoresheet_figures", "scoresheet_to_pdf"]
