"""The tournament's results: a rich table and the pairwise matrix, CSV, JSON and a ratings plot."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from kaisa.tournament.run import Tournament

if TYPE_CHECKING:
    from matplotlib.figure import Figure

CSV_COLUMNS = (
    "player",
    "kind",
    "games",
    "wins",
    "losses",
    "unfinished",
    "win_rate",
    "points_per_inning",
    "strength",
    "rating",
    "ci_low",
    "ci_high",
)


def _num(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def results_table(tournament: Tournament) -> Table:
    """Player, games, wins, losses, win rate, points per inning, Bradley-Terry strength, Elo-scale rating and
    its 95% interval; best rating first."""
    t = tournament
    table = Table(
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
        title=f"Round robin: {len(t.names)} players, {t.games} game(s) per pair, seed {t.seed}, noise {t.noise:g}",
        title_justify="left",
        caption="BT: Bradley-Terry strength (geometric mean 1); rating: the same on the Elo scale (mean 1500, "
        "+400 = 10-to-1 odds) with its 95% bootstrap interval"
        + (f"; {t.unfinished} unfinished game(s) not rated" if t.unfinished else ""),
        caption_justify="left",
    )
    for column in ("#", "player", "games", "won", "lost", "win%", "pts/inn", "BT", "rating", "95% CI"):
        table.add_column(
            column, justify="left" if column == "player" else "right", no_wrap=column in ("player", "95% CI")
        )
    for rank, s in enumerate(t.standings(), start=1):
        table.add_row(
            str(rank),
            s.name,
            str(s.games),
            str(s.wins),
            str(s.losses),
            _pct(s.win_rate).rstrip("%"),
            _num(s.points_per_inning),
            _num(s.rating.strength),
            f"{s.rating.rating:.0f}",
            f"{s.rating.low:.0f}-{s.rating.high:.0f}",
        )
    return table


def matrix_table(tournament: Tournament) -> Table:
    """Row player's wins-losses against each column player."""
    t = tournament
    wins = t.matrix()
    table = Table(box=box.SIMPLE_HEAD, title="Pairwise results (row's wins-losses v column)", title_justify="left")
    table.add_column("")
    for name in t.names:
        table.add_column(name, justify="center")
    for i, name in enumerate(t.names):
        cells = ["·" if i == j else f"{wins[i][j]}-{wins[j][i]}" for j in range(len(t.names))]
        table.add_row(name, *cells)
    return table


def print_tournament(tournament: Tournament, console: Console) -> None:
    """The results table, the pairwise matrix and a line on time and storage."""
    t = tournament
    console.print(results_table(t))
    console.print(matrix_table(t))
    games = len(t.results)
    note = f"{games} game(s) in {t.seconds:.1f} s on the {t.backend} backend"
    if t.store_url is not None:
        ids = [i for i in t.match_ids if i is not None]
        note += (
            f"; matches {min(ids)}-{max(ids)} stored in {t.store_url}" if ids else f"; nothing stored in {t.store_url}"
        )
    console.print(f"[dim]{note}[/]")
    for r in t.results:
        if r.error is not None:
            console.print(
                f"[yellow]unfinished:[/] game {r.spec.game + 1} of {r.spec.names[0]} v {r.spec.names[1]}: "
                + escape(r.error)
            )


def to_csv(tournament: Tournament) -> str:
    """The standings as CSV (one row per player, best rating first; the columns of :data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for s in tournament.standings():
        writer.writerow(
            [
                s.name,
                s.kind,
                s.games,
                s.wins,
                s.losses,
                s.totals.unfinished,
                "" if s.win_rate is None else f"{s.win_rate:.4f}",
                "" if s.points_per_inning is None else f"{s.points_per_inning:.4f}",
                f"{s.rating.strength:.6f}",
                f"{s.rating.rating:.1f}",
                f"{s.rating.low:.1f}",
                f"{s.rating.high:.1f}",
            ]
        )
    return out.getvalue()


def ratings_figure(tournament: Tournament) -> Figure:
    """The ratings with their 95% intervals as error bars, best at the top (a matplotlib Figure, no pyplot)."""
    from matplotlib.figure import Figure

    standings = list(reversed(tournament.standings()))
    figure = Figure(figsize=(7.0, 1.2 + 0.5 * len(standings)), layout="constrained")
    axes = figure.subplots()
    ys = list(range(len(standings)))
    ratings = [s.rating.rating for s in standings]
    errors = [[s.rating.rating - s.rating.low for s in standings], [s.rating.high - s.rating.rating for s in standings]]
    axes.errorbar(ratings, ys, xerr=errors, fmt="o", capsize=4, linewidth=2, markersize=7)
    axes.axvline(1500.0, color="grey", linewidth=1, linestyle="--", alpha=0.6)
    axes.set_yticks(ys, [s.name for s in standings])
    axes.set_ylim(-0.6, len(standings) - 0.4)
    axes.set_xlabel("rating (Elo scale, mean 1500) with 95% bootstrap interval")
    axes.set_title(
        f"Kaisa round robin: {tournament.games} game(s) per pair, seed {tournament.seed}, noise {tournament.noise:g}"
    )
    axes.grid(True, axis="x", alpha=0.3)
    return figure


def write_outputs(tournament: Tournament, directory: Path) -> list[Path]:
    """Write ``results.csv``, ``results.json`` and ``ratings.png`` into ``directory`` (made if missing);
    returns their paths. Raises ``OSError`` when the directory cannot be written."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / "results.csv", directory / "results.json", directory / "ratings.png"]
    paths[0].write_text(to_csv(tournament), encoding="utf-8")
    paths[1].write_text(json.dumps(tournament.to_json(), indent=2) + "\n", encoding="utf-8")
    ratings_figure(tournament).savefig(paths[2], dpi=120)
    return paths
