"""A competition on paper and in files: the pelipöytäkirja (KAAVIO 9), the results by round as an A4 PDF, and
the results and placings as CSV, in Finnish and English. Pure rendering from the domain (no web, no database):
a kaavio in, bytes out, so the director's page serves exactly what ``kaisa kaavio pdf|csv`` writes.

* ``scoresheets_pdf(k, lang, games=None, blanks=0)``: pelipöytäkirjat, A4 landscape, 10 per page (2 x 5). By
  default one for every game not yet played whose players are known; ``blanks`` adds empty sheets (KAAVIO 9).
  [?] KaisaKaavio's page counter assumes 8 per page; here the counter counts the 10 actually printed.
* ``results_pdf(k, lang)``: the bracket as results by round (every game with its points, table and state),
  who is out and who waits, and the placings once the competition has ended. A4 portrait.
* ``results_csv(k, lang)`` and ``placings_csv(k, lang)``: UTF-8 with a byte order mark (so a spreadsheet
  reads ä and ö), one row per game or per player. A text cell that a spreadsheet would read as a formula gets
  a leading apostrophe.

Drawn with matplotlib's PDF backend, in the style of the club match's scoresheet PDF.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kaisa.competition.kaavio import Kaavio
from kaisa.competition.model import Game, GameState, Outcome, hand_reason
from kaisa.spreadsheet import csv_text

if TYPE_CHECKING:  # matplotlib (half a second) is imported by what draws, not by the server that may draw
    from matplotlib.figure import Figure

A4_PORTRAIT = (8.27, 11.69)
A4_LANDSCAPE = (11.69, 8.27)
SHEETS_PER_PAGE = 10
ROWS_PER_PAGE = 44

WORDS: dict[str, dict[str, str]] = {
    "fi": {
        "sheet": "PELIPÖYTÄKIRJA",
        "game": "Peli",
        "player": "Pelaaja",
        "result": "Tulos",
        "vs": "vs",
        "longest": "Pisin sarja / nimi",
        "table": "Pöytä",
        "round": "Kierros",
        "results": "Tulokset kierroksittain",
        "out": "Pudonneet",
        "waiting": "Odottavat vastustajaa",
        "placings": "Sijoitukset",
        "place": "Sija",
        "wins": "Voitot",
        "points": "Pisteet",
        "games": "Pelit",
        "page": "sivu",
        "walkover": "luovutusvoitto",
        "ready": "valmis alkamaan",
        "running": "käynnissä",
        "empty": "ei vielä valmis",
        "played": "pelattu",
        "winner": "Voittaja",
        "no_games": "Ei pelejä.",
        "by_hand": "haettu käsin",
        "ranking": "Ranking",
    },
    "en": {
        "sheet": "GAME SCORESHEET",
        "game": "Game",
        "player": "Player",
        "result": "Result",
        "vs": "vs",
        "longest": "Longest run / name",
        "table": "Table",
        "round": "Round",
        "results": "Results by round",
        "out": "Out",
        "waiting": "Waiting for an opponent",
        "placings": "Placings",
        "place": "Place",
        "wins": "Wins",
        "points": "Points",
        "games": "Games",
        "page": "page",
        "walkover": "walkover",
        "ready": "ready to start",
        "running": "running",
        "empty": "not ready yet",
        "played": "played",
        "winner": "Winner",
        "no_games": "No games.",
        "by_hand": "paired by hand",
        "ranking": "Ranking",
    },
}

CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "fi": (
        "peli",
        "kierros",
        "pelaajan 1 kierros",
        "pelaajan 2 kierros",
        "pelaaja 1 nro",
        "pelaaja 1",
        "seura 1",
        "pisteet 1",
        "pisteet 2",
        "pelaaja 2 nro",
        "pelaaja 2",
        "seura 2",
        "voittaja",
        "tila",
        "pöytä",
        "lyöntivuoroja",
        "pisin sarja 1",
        "pisin sarja 2",
        "huomautus",
    ),
    "en": (
        "game",
        "round",
        "player 1 round",
        "player 2 round",
        "player 1 number",
        "player 1",
        "club 1",
        "points 1",
        "points 2",
        "player 2 number",
        "player 2",
        "club 2",
        "winner",
        "state",
        "table",
        "innings",
        "longest run 1",
        "longest run 2",
        "comment",
    ),
}
PLACING_COLUMNS: dict[str, tuple[str, ...]] = {
    "fi": ("sija", "numero", "pelaaja", "seura", "voitot", "pisteet", "pelit", "rankingpisteet"),
    "en": ("place", "number", "player", "club", "wins", "points", "games", "ranking points"),
}


MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date_text(iso: str, lang: str = "fi") -> str:
    """A competition's date as people write it: 3.12.2026 in Finnish, 3 Dec 2026 in English (as the pages do);
    anything that is not a YYYY-MM-DD date is shown as written."""
    parts = iso.split("-")
    if len(parts) != 3 or not all(x.isdigit() for x in parts):
        return iso
    year, month, day = (int(x) for x in parts)
    if not 1 <= month <= 12:
        return iso
    return f"{day}.{month}.{year}" if lang == "fi" else f"{day} {MONTHS_EN[month - 1]} {year}"


def comment_text(g: Game, lang: str = "fi") -> str:
    """A game's comment for people: a game paired by hand says so in the language, with the director's reason
    in his own words."""
    reason = hand_reason(g.comment)
    if reason is None:
        return g.comment
    label = _w(lang)["by_hand"]
    label = label[0].upper() + label[1:]
    return f"{label}: {reason}" if reason else label


def _w(lang: str) -> dict[str, str]:
    return WORDS["fi" if lang == "fi" else "en"]


def _name(k: Kaavio, number: int | None) -> str:
    return "" if number is None else k.player(number).name


def _club(k: Kaavio, number: int | None) -> str:
    return "" if number is None else k.player(number).club


def _state(g: Game, w: dict[str, str]) -> str:
    if g.player2 is None:
        return w["walkover"]
    return w[g.state.value]


def _winner(k: Kaavio, g: Game) -> int | None:
    if g.state != GameState.PLAYED:
        return None
    o = g.outcome(k.target)
    return g.player1 if o == Outcome.P1 else g.player2 if o == Outcome.P2 else None


# -- CSV ---------------------------------------------------------------------------------------------------------


def _csv_bytes(header: Sequence[str], rows: list[list[object]]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_text(c) if isinstance(c, str) else c for c in row])
    return out.getvalue().encode("utf-8-sig")


def results_csv(k: Kaavio, lang: str = "fi") -> bytes:
    """Every game, one row each, in game-number order (UTF-8 with a byte order mark)."""
    w = _w(lang)
    rows: list[list[object]] = []
    for g in k.games:
        winner = _winner(k, g)
        rows.append(
            [
                g.number,
                g.round,
                g.round1,
                g.round2,
                g.player1,
                _name(k, g.player1),
                _club(k, g.player1),
                g.points1,
                g.points2,
                "" if g.player2 is None else g.player2,
                _name(k, g.player2),
                _club(k, g.player2),
                _name(k, winner),
                _state(g, w),
                g.table,
                g.innings or "",
                g.longest1 or "",
                g.longest2 or "",
                comment_text(g, lang),
            ]
        )
    return _csv_bytes(CSV_COLUMNS["fi" if lang == "fi" else "en"], rows)


def placings_csv(k: Kaavio, lang: str = "fi") -> bytes:
    """The placings with ranking points, one row per player; only the header while the competition runs."""
    from kaisa.competition.placings import placings, ranking_points

    rows: list[list[object]] = []
    if k.finished:
        pts = ranking_points(k)
        for p in placings(k):
            rows.append([p.place, p.number, p.name, k.player(p.number).club, p.wins, p.points, p.games, pts[p.number]])
    return _csv_bytes(PLACING_COLUMNS["fi" if lang == "fi" else "en"], rows)


# -- the pelipöytäkirja (KAAVIO 9) ---------------------------------------------------------------------------------


def _to_play(k: Kaavio) -> list[Game]:
    return [g for g in k.games if g.player2 is not None and g.state != GameState.PLAYED]


def scoresheets_pdf(k: Kaavio, lang: str = "fi", games: Sequence[int] | None = None, blanks: int = 0) -> bytes:
    """Pelipöytäkirjat: the given game numbers (default: every game not yet played), then ``blanks`` empty ones."""
    chosen: list[Game | None] = list(_to_play(k) if games is None else [k.game(n) for n in games])
    chosen += [None] * max(0, blanks)
    return _pdf(_sheet_pages(k, lang, chosen))


def _pdf(figures: list[Figure]) -> bytes:
    from matplotlib.backends.backend_pdf import PdfPages

    out = io.BytesIO()
    with PdfPages(out) as pdf:
        for fig in figures:
            pdf.savefig(fig)
    return out.getvalue()


def _sheet_pages(k: Kaavio, lang: str, chosen: list[Game | None]) -> list[Figure]:
    from matplotlib.figure import Figure

    pages = [chosen[i : i + SHEETS_PER_PAGE] for i in range(0, len(chosen), SHEETS_PER_PAGE)] or [[]]
    w = _w(lang)
    figures = []
    for number, sheets in enumerate(pages, start=1):
        fig = Figure(figsize=A4_LANDSCAPE)
        for i, g in enumerate(sheets):
            col, row = i % 2, i // 2
            _sheet(fig, k, g, w, x=0.03 + col * 0.48, y=0.795 - row * 0.19, lang=lang)
        fig.text(0.97, 0.012, f"{k.settings.name} · {w['page']} {number}/{len(pages)}", fontsize=7, ha="right")
        figures.append(fig)
    return figures


def _sheet(fig: Figure, k: Kaavio, g: Game | None, w: dict[str, str], x: float, y: float, lang: str) -> None:
    """One sheet in a box 0.46 wide and 0.175 high with its lower left corner at (x, y)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Ellipse, Rectangle

    wd, ht = 0.46, 0.175
    fig.add_artist(Rectangle((x, y), wd, ht, transform=fig.transFigure, fill=False, linewidth=0.8, color="#222"))
    title = w["sheet"] + (f"   {w['game']} {g.number}" if g is not None else f"   {w['game']} ____")
    fig.text(x + 0.01, y + ht - 0.025, title, fontsize=10, weight="bold")
    head = " · ".join(t for t in (k.settings.name, date_text(k.settings.date, lang)) if t)
    fig.text(x + wd - 0.01, y + ht - 0.025, head[:48], fontsize=7, ha="right", color="#444")
    names = [("", ""), ("", "")]
    if g is not None:
        names = [(_name(k, g.player1), _club(k, g.player1)), (_name(k, g.player2), _club(k, g.player2))]
    # Player 1 | Result | vs | Result | Player 2: names and clubs above, the result boxes below each name
    for side, (nx, ha) in enumerate(((x + 0.01, "left"), (x + wd - 0.01, "right"))):
        name, club = names[side]
        fig.text(nx, y + 0.118, name[:34] or f"{w['player']} {side + 1}", fontsize=9, ha=ha, weight="bold")
        fig.text(nx, y + 0.1, club[:40], fontsize=7, ha=ha, color="#444")
    for bx, lx, ha in ((x + 0.13, x + 0.125, "right"), (x + 0.27, x + 0.335, "left")):
        fig.add_artist(
            Rectangle((bx, y + 0.045), 0.06, 0.042, transform=fig.transFigure, fill=False, linewidth=0.8, color="#222")
        )
        fig.text(lx, y + 0.06, w["result"], fontsize=7, ha=ha, color="#444")
    fig.text(x + wd / 2, y + 0.06, w["vs"], fontsize=9, ha="center")
    # Pisin sarja / nimi, Pöytä (a circle), Kierros
    by = y + 0.014
    fig.text(x + 0.01, by, f"{w['longest']}:", fontsize=7)
    fig.add_artist(Line2D([x + 0.115, x + 0.27], [by - 0.003] * 2, transform=fig.transFigure, lw=0.6, color="#333"))
    fig.text(x + 0.29, by, w["table"], fontsize=7)
    aspect = A4_LANDSCAPE[1] / A4_LANDSCAPE[0]  # a circle on the page, in figure fractions
    fig.add_artist(
        Ellipse((x + 0.345, by + 0.006), 0.045 * aspect, 0.045, transform=fig.transFigure, fill=False, lw=0.8)
    )
    if g is not None and g.table:
        fig.text(x + 0.345, by + 0.002, g.table[:3], fontsize=8, ha="center")
    fig.text(x + 0.375, by, f"{w['round']} {g.round if g is not None else '___'}", fontsize=7)


# -- results by round ----------------------------------------------------------------------------------------------


def _lines(k: Kaavio, w: dict[str, str], lang: str) -> list[tuple[str, str]]:
    """(style, text) lines: h = heading, g = a game, t = plain text."""
    out: list[tuple[str, str]] = []
    rounds = sorted({g.round for g in k.games})
    if not rounds:
        out.append(("t", w["no_games"]))
    for r in rounds:
        out.append(("h", f"{w['round']} {r}"))
        for g in (g for g in k.games if g.round == r):
            left = f"{g.player1} {_name(k, g.player1)}"
            if g.player2 is None:
                out.append(("g", f"{g.number:>3}  {left[:30]:<30}  {w['walkover']}"))
                continue
            right = f"{g.player2} {_name(k, g.player2)}"
            score = f"{g.points1 or '':>3} – {g.points2 or '':<3}"
            extra = "" if g.state == GameState.PLAYED else _state(g, w)
            if g.table and g.state == GameState.RUNNING:
                extra += f", {w['table'].lower()} {g.table}"
            extra = extra.lstrip(", ")
            reason = hand_reason(g.comment)
            if reason is not None:
                extra += f", {w['by_hand']}" + (f": {reason[:40]}" if reason else "")
            extra = extra.lstrip(", ")
            out.append(("g", f"{g.number:>3}  {left[:26]:<26} {score} {right[:26]:<26}  {extra}"))
    if not k.finished:
        busy = {x for g in k.unfinished() for x in g.pair()}
        for head, who in (
            (w["out"], [p for p in k.players if not k.still_in(p.number)]),
            (w["waiting"], [p for p in k.players if k.drawn and k.still_in(p.number) and p.number not in busy]),
        ):
            if who:
                out.append(("h", head))
                out.extend(("t", line) for line in _wrap([f"{p.number} {p.name}" for p in who], 100))
    if k.finished:
        from kaisa.competition.placings import placings, ranking_points

        pts = ranking_points(k)
        out.append(("h", w["placings"]))
        out.append(
            ("g", f"{w['place']:>4}  {w['player']:<30} {w['wins']:>6} {w['points']:>8} {w['games']:>6}  {w['ranking']}")
        )
        for p in placings(k):
            out.append(
                ("g", f"{p.place:>4}  {p.name[:30]:<30} {p.wins:>6} {p.points:>8} {p.games:>6}  {pts[p.number]:>7}")
            )
    return out


def _wrap(items: list[str], width: int) -> list[str]:
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 2 + len(item) <= width:
            lines[-1] += ", " + item
        else:
            lines.append(item)
    return lines


def results_pdf(k: Kaavio, lang: str = "fi") -> bytes:
    """The results by round, who is out and who waits, and the placings at the end: A4 portrait pages."""
    return _pdf(_results_pages(k, lang))


def _results_pages(k: Kaavio, lang: str) -> list[Figure]:
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    w = _w(lang)
    lines = _lines(k, w, lang)
    pages = [lines[i : i + ROWS_PER_PAGE] for i in range(0, len(lines), ROWS_PER_PAGE)] or [[]]
    s = k.settings
    figures = []
    for number, rows in enumerate(pages, start=1):
        fig = Figure(figsize=A4_PORTRAIT)
        fig.text(0.07, 0.955, s.name, fontsize=15, weight="bold")
        sub = " · ".join(t for t in (date_text(s.date, lang), s.club, s.kind.label(lang), w["results"]) if t)
        fig.text(0.07, 0.935, sub, fontsize=9, color="#333")
        winner = k.winner()
        if winner is not None:
            fig.text(0.93, 0.955, f"{w['winner']}: {_name(k, winner)}", fontsize=11, ha="right", weight="bold")
        y = 0.905
        for style, text in rows:
            if style == "h":
                y -= 0.006
                fig.text(0.07, y, text, fontsize=10, weight="bold")
                fig.add_artist(Line2D([0.07, 0.93], [y - 0.004] * 2, transform=fig.transFigure, lw=0.5, color="#555"))
            else:
                fig.text(0.07, y, text, fontsize=8, family="monospace")
            y -= 0.019
        fig.text(0.93, 0.03, f"{w['page']} {number}/{len(pages)}", fontsize=8, ha="right")
        figures.append(fig)
    return figures


__all__: list[Any] = ["comment_text", "date_text", "placings_csv", "results_csv", "results_pdf", "scoresheets_pdf"]
