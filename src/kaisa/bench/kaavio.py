"""``kaisa bench kaavio``: the slowest search over many random 128-player competitions, run as a club runs a night.

Each competition is a seeded random tuplakaavio on ``tables`` tables; whenever a table frees up, a ready game is
started *at random* (a club calls the games it likes, not in list order: that is how a round-3 search with 8
round-1/2 games unfinished arises, where every pair it makes comes out in all 2^8 outcomes and each of them has to
be searched to its end). Every search after a result is timed (wall and CPU time of the process); the report gives
the median and the worst, and the state the worst was found in. A line per competition shows the progress.
"""

from __future__ import annotations

import contextlib
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from kaisa.competition import KaavioType
from kaisa.competition import search as search_mod
from kaisa.competition.simulate import run


@dataclass(frozen=True)
class Timed:
    """One search: wall and CPU seconds, its unfinished games (with their rounds) and the pairs it made."""

    wall: float
    cpu: float
    unfinished: int
    rounds: tuple[int, ...]
    pairs: int
    competition: int


@dataclass
class KaavioBench:
    players: int
    tables: int
    competitions: int
    searches: list[Timed] = field(default_factory=list)

    @property
    def worst(self) -> Timed:
        return max(self.searches, key=lambda t: t.cpu)

    @property
    def median_cpu(self) -> float:
        return statistics.median(t.cpu for t in self.searches)


@contextlib.contextmanager
def _timing(into: list[Timed], competition: list[int]) -> Iterator[None]:
    """Time every search the kaavio runs (search_once is what Kaavio.run_search calls)."""
    real = search_mod.search_once

    def timed(players: Any, games: Any, ko: int, *args: Any, **kwargs: Any) -> search_mod.Found:
        wall, cpu = time.perf_counter(), time.process_time()
        found = real(players, games, ko, *args, **kwargs)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        open_ = [g for g in games if not g.played]
        into.append(
            Timed(wall, cpu, len(open_), tuple(sorted(g.round for g in open_)), len(found.pairs), competition[0])
        )
        return found

    search_mod.search_once = timed
    try:
        yield
    finally:
        search_mod.search_once = real


def kaavio_benchmark(
    players: int = 128,
    competitions: int = 20,
    seed: int = 2024,
    tables: int = 8,
    console: Console | None = None,
) -> KaavioBench:
    bench = KaavioBench(players, tables, competitions)
    current = [0]
    with _timing(bench.searches, current):
        for i in range(competitions):
            current[0] = seed + i
            start = time.perf_counter()
            run(players, KaavioType.DOUBLE, seed + i, tables=tables, correction_rate=0.0, random_start=True)
            if console is not None:
                worst = bench.worst
                console.print(
                    f"  competition {i + 1}/{competitions} (seed {seed + i}): {time.perf_counter() - start:.1f} s; "
                    f"slowest search so far {worst.cpu * 1000:.0f} ms CPU",
                    highlight=False,
                )
    return bench


def print_kaavio_report(b: KaavioBench, console: Console) -> None:
    if not b.searches:
        console.print("no search was run")
        return
    t = Table(
        title=f"Searches after a result: {b.competitions} random {b.players}-player tuplakaaviot, {b.tables} tables, "
        f"games started at random ({len(b.searches)} searches)"
    )
    t.add_column("")
    t.add_column("median", justify="right")
    t.add_column("99th percentile", justify="right")
    t.add_column("worst", justify="right")
    for name, values in (
        ("CPU time", sorted(s.cpu for s in b.searches)),
        ("wall time", sorted(s.wall for s in b.searches)),
    ):
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))]
        t.add_row(
            name,
            f"{statistics.median(values) * 1000:.1f} ms",
            f"{p99 * 1000:.0f} ms",
            f"{values[-1] * 1000:.0f} ms",
        )
    console.print(t)
    w = b.worst
    console.print(
        f"slowest search: {w.cpu * 1000:.0f} ms CPU ({w.wall * 1000:.0f} ms wall), competition seed {w.competition}, "
        f"{w.unfinished} unfinished games (rounds {', '.join(map(str, w.rounds)) or '-'}), {w.pairs} pairs made; "
        f"target: under 1 s ({'met' if w.cpu < 1 else 'not met'})"
    )
