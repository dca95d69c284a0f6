"""``kaisa bench kaavio``: the search after a result in a 128-player kaavio with 8 unfinished games.

A seeded random tuplakaavio is run on 8 tables; whenever a result leaves exactly 8 games unfinished, the search
is timed (up to 2^8 scenarios: it stops once no pair can come out in every one), and side by side the same
search made to try every scenario (the cost when pairs do come out in all of them, the worst case), and the
baseline: the 8 games' scenarios reduced to one (the search of a single scenario).
"""

from __future__ import annotations

import contextlib
import statistics
import time
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from kaisa.competition import Kaavio, KaavioType
from kaisa.competition import search as search_mod
from kaisa.competition.simulate import run


class _EnoughSamplesError(Exception):
    pass


@dataclass(frozen=True)
class KaavioBench:
    players: int
    samples: list[float]
    baseline: list[float]
    every: list[float]

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def worst(self) -> float:
        return max(self.samples)


def kaavio_benchmark(
    players: int = 128,
    samples: int = 20,
    seed: int = 2024,
    console: Console | None = None,
    max_runs: int = 6,
) -> KaavioBench:
    times: list[float] = []
    base: list[float] = []
    every: list[float] = []

    def check(k: Kaavio, _added: object) -> None:
        open_ = k.unfinished()
        if len(open_) != search_mod.MAX_UNFINISHED or not k.search_allowed():
            return
        games = k.search_games()
        t = time.perf_counter()
        search_mod.search(k.numbers(), games, k.ko)
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        search_mod.search(k.numbers(), games, k.ko, exhaustive=True)
        every.append(time.perf_counter() - t)
        decided = [
            g
            if g.played
            else search_mod.SGame(g.p1, g.p2, g.r1, g.r2, g.round, True, frozenset({g.p2}) if g.p2 else frozenset())
            for g in games
        ]
        t = time.perf_counter()
        search_mod.search(k.numbers(), decided, k.ko)
        base.append(time.perf_counter() - t)
        if console is not None:
            console.print(f"  sample {len(times)}/{samples}: {times[-1] * 1000:.0f} ms", highlight=False)
        if len(times) >= samples:
            raise _EnoughSamplesError

    with contextlib.suppress(_EnoughSamplesError):
        for attempt in range(max_runs):  # states with exactly 8 unfinished games come a few per competition
            run(players, KaavioType.DOUBLE, seed + attempt, tables=8, correction_rate=0.0, check=check)
    return KaavioBench(players, times, base, every)


def print_kaavio_report(b: KaavioBench, console: Console) -> None:
    if not b.samples:
        console.print("no state with 8 unfinished games was reached")
        return
    t = Table(title=f"Search after a result: {b.players} players, 8 unfinished games ({len(b.samples)} samples)")
    t.add_column("")
    t.add_column("median", justify="right")
    t.add_column("worst", justify="right")
    t.add_row("search, 2^8 scenarios", f"{b.median * 1000:.0f} ms", f"{b.worst * 1000:.0f} ms")
    t.add_row(
        "every scenario searched",
        f"{statistics.median(b.every) * 1000:.0f} ms",
        f"{max(b.every) * 1000:.0f} ms",
    )
    bm = statistics.median(b.baseline)
    t.add_row("baseline: one scenario", f"{bm * 1000:.1f} ms", f"{max(b.baseline) * 1000:.1f} ms")
    console.print(t)
    console.print(
        f"ratio (median): {b.median / bm:.0f}x the single-scenario search; target: worst under 1 s "
        f"({'met' if b.worst < 1 else 'not met'}; every scenario searched: "
        f"{'met' if max(b.every) < 1 else 'not met'})"
    )
