"""Throughput of the research workloads: ``kaisa tournament``'s games and ``kaisa dataset``'s rows per
CPU-second, on Kaisa's engine and, for the before, with pooltool as the engine (stock, and with the fast
layer, the default before issue 26), side by side in one process.

Each seeded game of a round robin is played by the tournament's own :func:`kaisa.tournament.play_game` and
turned into the data set's rows by :func:`kaisa.research.dataset.match_rows` (which plays it too), once per
engine, the engines rotating which goes first. Games are bounded to ``actions`` actions so that the pooltool
rows finish in minutes; the rate is per game so bounded and per action. CPU time is this process's
(``time.process_time``), so other work on a busy machine does not count. Tests never assert on the figures.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

ENGINES = ("stock", "fast", "engine")
"""Stock pooltool, pooltool with the fast layer (the default before issue 26), and Kaisa's engine."""

LABELS = {"stock": "stock pooltool", "fast": "pooltool + fast layer (before)", "engine": "Kaisa's engine"}


@dataclass
class Throughput:
    """CPU seconds, games, actions and rows per engine."""

    games: int = 0
    actions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENGINES, 0))
    rows: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ENGINES, 0))
    tournament_cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ENGINES, 0.0))
    dataset_cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(ENGINES, 0.0))

    def games_per_cpu_second(self, engine: str) -> float:
        return self.games / self.tournament_cpu[engine] if self.tournament_cpu[engine] else 0.0

    def rows_per_cpu_second(self, engine: str) -> float:
        return self.rows[engine] / self.dataset_cpu[engine] if self.dataset_cpu[engine] else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            **{f"{e}_games_per_cpu_s": self.games_per_cpu_second(e) for e in ENGINES},
            **{f"{e}_rows_per_cpu_s": self.rows_per_cpu_second(e) for e in ENGINES},
            **{f"{e}_actions": self.actions[e] for e in ENGINES},
        }


def _use(engine: str) -> None:
    from kaisa.physics import reference

    if engine == "engine":
        reference.use_kaisa_engine()
    else:
        reference.use_as_engine(stock=engine == "stock")


def throughput(
    games: int = 4,
    actions: int = 40,
    kinds: tuple[str, ...] = ("beginner", "baseline"),
    seed: int = 2014,
    console: Console | None = None,
) -> Throughput:
    """Play the first ``games`` games of a seeded round robin of ``kinds`` (each bounded to ``actions``
    actions) as a tournament game and as data set rows, on each engine in turn."""
    from kaisa.research.dataset import match_rows
    from kaisa.tournament import play_game
    from kaisa.tournament.games import schedule

    specs = [replace(spec, max_actions=actions) for spec in schedule(kinds, games, seed)][:games]
    result = Throughput(games=len(specs))
    _use("engine")
    play_game(replace(specs[0], max_actions=2))  # every kernel loaded before anything is timed
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("games on three engines", total=len(specs) * len(ENGINES))
            for i, spec in enumerate(specs):
                for k in range(len(ENGINES)):
                    engine = ENGINES[(i + k) % len(ENGINES)]
                    _use(engine)
                    t0 = time.process_time()
                    game = play_game(spec)
                    t1 = time.process_time()
                    rows = match_rows(spec)
                    t2 = time.process_time()
                    result.tournament_cpu[engine] += t1 - t0
                    result.dataset_cpu[engine] += t2 - t1
                    result.actions[engine] += len(game.record.splitlines())
                    result.rows[engine] += len(rows.rows)
                    progress.advance(task)
    finally:
        _use("engine")
    return result


def print_throughput_report(result: Throughput, actions: int, console: Console) -> None:
    table = Table(
        title=f"Tournament games and data set rows per CPU-second: {result.games} seeded games, at most {actions} "
        "actions each",
        title_justify="left",
    )
    table.add_column("engine")
    table.add_column("games / CPU-s", justify="right")
    table.add_column("rows / CPU-s", justify="right")
    table.add_column("v before", justify="right")
    before = result.rows_per_cpu_second("fast")
    for engine in ENGINES:
        rows = result.rows_per_cpu_second(engine)
        table.add_row(
            LABELS[engine],
            f"{result.games_per_cpu_second(engine):.3f}",
            f"{rows:.1f}",
            f"{rows / before:.2f}x" if before else "-",
        )
    console.print(table)
    if len(set(result.rows.values())) != 1:
        console.print(f"[red]the engines' games differ in length[/]: rows {result.rows}")
    fast_games, engine_games = result.games_per_cpu_second("fast"), result.games_per_cpu_second("engine")
    console.print(
        f"tournament: [bold]{engine_games / fast_games:.2f}x[/] the games per CPU-second of before; data set: "
        f"[bold]{result.rows_per_cpu_second('engine') / before:.2f}x[/] the rows per CPU-second"
    )


__all__ = ["Throughput", "print_throughput_report", "throughput"]
