"""The referee benchmark: observe + judge (and the players' shot generation) as shares of simulation time.

Measured side by side on the same seeded strokes in one process; tests never assert on these numbers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.layouts import random_call, random_layout, random_stroke


@dataclass(frozen=True)
class RefereeBenchmark:
    strokes: int
    simulate_seconds: float
    referee_seconds: float
    generate_seconds: float = 0.0
    """Shot generation (every kind, for the shooter) from the same positions."""

    @property
    def share(self) -> float:
        """Observe + judge time as a fraction of simulation time on the same strokes."""
        return self.referee_seconds / self.simulate_seconds

    @property
    def generation_ratio(self) -> float:
        """Shot generation from a position, in simulations of one stroke from it."""
        return self.generate_seconds / self.simulate_seconds


def referee_benchmark(strokes: int = 300, seed: int = 2014, console: Console | None = None) -> RefereeBenchmark:
    """Simulate seeded 5-ball strokes, then observe and judge each one with a random call; time both, and
    the computer players' shot generation from the same positions (a search generates once per decision)."""
    from kaisa.physics import simulate
    from kaisa.players.shots import generate
    from kaisa.referee import GameState, judge, observe

    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(strokes):
        position = random_layout(rng)
        cases.append((position, random_stroke(rng, position), random_call(rng, position)))
    for position, stroke, call in cases[: min(20, strokes)]:  # load kernels and warm caches first
        judge(observe(simulate(position, stroke), call), call, GameState())
        generate(position, GameState())
    sim = ref = gen = 0.0
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("simulating and ruling", total=strokes)
        for position, stroke, call in cases:
            t0 = time.perf_counter()
            record = simulate(position, stroke)
            t1 = time.perf_counter()
            judge(observe(record, call), call, GameState())
            t2 = time.perf_counter()
            generate(position, GameState())
            t3 = time.perf_counter()
            sim += t1 - t0
            ref += t2 - t1
            gen += t3 - t2
            progress.advance(task)
    return RefereeBenchmark(strokes=strokes, simulate_seconds=sim, referee_seconds=ref, generate_seconds=gen)


def print_referee_report(result: RefereeBenchmark, console: Console) -> None:
    table = Table(title=f"Referee: {result.strokes} seeded 5-ball strokes, each ruled", title_justify="left")
    table.add_column("")
    table.add_column("ms/stroke", justify="right")
    table.add_row("simulate", f"{1000 * result.simulate_seconds / result.strokes:.3f}")
    table.add_row("observe + judge", f"{1000 * result.referee_seconds / result.strokes:.3f}")
    table.add_row("shot generation, every kind", f"{1000 * result.generate_seconds / result.strokes:.3f}")
    console.print(table)
    verdict = "[green]within[/]" if result.share < 0.05 else "[red]outside[/]"
    console.print(f"referee/simulate = [bold]{100 * result.share:.2f}%[/] ({verdict} the 5% target)")
    console.print(
        f"shot generation/simulate = [bold]{result.generation_ratio:.2f}[/] (a search generates once per decision"
        " and simulates hundreds of strokes)"
    )
