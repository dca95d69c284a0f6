"""The scoresheet (pöytäkirja) of a club match as an A4 PDF, drawn with matplotlib's PDF backend.

The same scoresheet is a print-friendly page (``/club/scoresheet``); this PDF is for filing and e-mail: the
players, table, date, each inning's points and the running score, the runs, innings and fouls with their
clauses, the result and signature lines.
"""

from __future__ import annotations

import io
from typing import Any

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

A4 = (8.27, 11.69)
ROWS_PER_PAGE = 34

WORDS: dict[str, dict[str, Any]] = {
    "fi": {
        "title": "Pöytäkirja",
        "match": "Ottelu",
        "table": "Pöytä",
        "date": "Päivä",
        "event": "Kilpailu",
        "inning": "Vuoro",
        "strokes": "Lyönnit",
        "points": "Pisteet",
        "score": "Tilanne",
        "fouls": "Virheet",
        "runs": "Paras sarja",
        "innings": "Vuoroja",
        "foul_count": "Virheitä",
        "result": "Tulos",
        "winner": "Voittaja",
        "unfinished": "Ottelu kesken",
        "signatures": ("Kirjuri", "Pelaaja 1", "Pelaaja 2"),
        "clause": "kohta",
        "breaks": "Tauot",
        "page": "sivu",
    },
    "en": {
        "title": "Scoresheet",
        "match": "Match",
        "table": "Table",
        "date": "Date",
        "event": "Event",
        "inning": "Inning",
        "strokes": "Strokes",
        "points": "Points",
        "score": "Score",
        "fouls": "Fouls",
        "runs": "Best run",
        "innings": "Innings",
        "foul_count": "Fouls",
        "result": "Result",
        "winner": "Winner",
        "unfinished": "Match not finished",
        "signatures": ("Marker", "Player 1", "Player 2"),
        "clause": "rule",
        "breaks": "Breaks",
        "page": "page",
    },
}


def _strokes(numbers: list[int]) -> str:
    if not numbers:
        return ""
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


def _foul_text(foul: dict[str, Any], lang: str) -> str:
    text = str(foul.get(lang) or foul.get("en") or "")
    return f"{foul['clause']} ({int(foul['points']):+d}) {text}"


def scoresheet_to_pdf(sheet: dict[str, Any], lang: str = "fi") -> bytes:
    """The PDF bytes of ``sheet`` (the JSON of the club API's scoresheet) in ``lang`` (``fi`` or ``en``)."""
    w = WORDS["fi" if lang == "fi" else "en"]
    players = sheet["players"]
    names = [f"{p['name']} ({p.get('cue_ball') or '–'})" for p in players]
    innings = sheet["innings"]
    pages = [innings[i : i + ROWS_PER_PAGE] for i in range(0, len(innings), ROWS_PER_PAGE)] or [[]]
    out = io.BytesIO()
    with PdfPages(out) as pdf:
        for number, rows in enumerate(pages, start=1):
            fig = Figure(figsize=A4)
            fig.text(0.08, 0.95, f"{w['title']} · {w['match']} {sheet['id']}", fontsize=16, weight="bold")
            where = [f"{w['date']}: {sheet['date']}"]
            if sheet.get("table_label"):
                where.append(f"{w['table']}: {sheet['table_label']}")
            if sheet.get("event"):
                where.append(f"{w['event']}: {sheet['event']}")
            fig.text(0.08, 0.925, "   ".join(where), fontsize=10)
            fig.text(0.08, 0.9, f"1: {names[0]}      2: {names[1]}", fontsize=11)
            y = 0.865
            heads = [
                (0.08, w["inning"]),
                (0.17, w["strokes"]),
                (0.3, names[0][:22]),
                (0.5, names[1][:22]),
                (0.7, w["fouls"]),
            ]
            for x, head in heads:
                fig.text(x, y, head, fontsize=9, weight="bold")
            y -= 0.006
            fig.add_artist(_line(fig, y))
            for inning in rows:
                y -= 0.021
                seat = int(inning["player"])
                cell = f"{int(inning['points']):+d}  → {inning['score']}"
                fig.text(0.08, y, str(inning["number"]), fontsize=9)
                fig.text(0.17, y, _strokes(inning["strokes"]), fontsize=9)
                fig.text(0.3 if seat == 0 else 0.5, y, cell, fontsize=9, family="monospace")
                fouls = "; ".join(_foul_text(f, lang) for f in inning["fouls"])
                if fouls:
                    fig.text(0.7, y, fouls[:48], fontsize=7, color="#8a1c12")
            if number == len(pages):
                y -= 0.04
                fig.add_artist(_line(fig, y + 0.015))
                for seat in (0, 1):
                    fig.text(
                        0.08,
                        y,
                        f"{names[seat]}: {w['innings']} {sheet['inning_counts'][seat]} · {w['runs']} "
                        f"{sheet['runs'][seat]} · {w['foul_count']} {sheet['fouls'][seat]}",
                        fontsize=10,
                    )
                    y -= 0.022
                breaks = sheet.get("breaks") or {}
                if breaks:
                    fig.text(
                        0.08,
                        y,
                        w["breaks"] + ": " + ", ".join(f"{b} {s:.0f} s" for b, s in breaks.items()),
                        fontsize=10,
                    )
                    y -= 0.022
                result = sheet.get("result")
                if result:
                    winner = next((p["name"] for p in players if p.get("cue_ball") == result.get("winner")), "")
                    scores = result.get("recorded") or result.get("scores") or {}
                    line = " – ".join(str(scores.get(p.get("cue_ball"), "")) for p in players)
                    fig.text(0.08, y, f"{w['result']}: {line}   {w['winner']}: {winner}", fontsize=12, weight="bold")
                else:
                    fig.text(0.08, y, w["unfinished"], fontsize=12, weight="bold")
                for i, who in enumerate(w["signatures"]):
                    x = 0.08 + i * 0.3
                    fig.add_artist(_line(fig, 0.09, x, x + 0.25))
                    fig.text(x, 0.07, who, fontsize=9)
            fig.text(0.92, 0.03, f"{w['page']} {number}/{len(pages)}", fontsize=8, ha="right")
            pdf.savefig(fig)
    return out.getvalue()


def _line(fig: Figure, y: float, x0: float = 0.08, x1: float = 0.92) -> Any:
    from matplotlib.lines import Line2D

    return Line2D([x0, x1], [y, y], transform=fig.transFigure, color="#333", linewidth=0.6)


__all__ = ["scoresheet_to_pdf"]
