"""The physics benchmark: :func:`kaisa.physics.simulate` (Kaisa's engine) against stock pooltool, side by side, as a ratio.

Wall-clock numbers on shared machines are noisy; a ratio of two rates measured alternately in one
process is not. Tests never assert on these numbers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.layouts import random_layout, random_stroke
from kaisa.table import OFFICIAL


@dataclass(frozen=True)
class PhysicsBenchmark:
    strokes: int
    ours_seconds: float
    raw_seconds: float
    events: int

    @property
    def ours_rate(self) -> float:
        return self.strokes / self.ours_seconds

    @property
    def raw_rate(self) -> float:
        return self.strokes / self.raw_seconds

    @property
    def ratio(self) -> float:
        """Our strokes per second over raw pooltool's; 1.0 means the wrapper is free."""
        return self.ours_rate / self.raw_rate


def physics_benchmark(strokes: int = 300, seed: int = 2014, console: Console | None = None) -> PhysicsBenchmark:
    """Simulate the same seeded 5-ball strokes with :func:`kaisa.physics.simulate` (Kaisa's engine) and with
    stock pooltool 0.6.0 (the same table, balls and cue, nothing else; the fast layer off), alternating which
    goes first. pooltool is a development dependency (:func:`kaisa.physics.reference.available`)."""
    from kaisa.physics import fast, reference
    from kaisa.physics.compiled import simulate
    from kaisa.physics.reference import build_system, pooltool_table, run_engine

    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(strokes):
        position = random_layout(rng)
        cases.append((position, random_stroke(rng, position)))
    ptable = pooltool_table(OFFICIAL)
    centres = [{b: p for b, p in position.items()} for position, _ in cases]
    for i, (position, stroke) in enumerate(cases[: min(20, strokes)]):  # every kernel loaded before timing
        simulate(position, stroke)
        run_engine(build_system(centres[i], stroke, ptable))
    del reference
    ours = raw = 0.0
    events = 0
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("simulating", total=strokes)
        for i, (position, stroke) in enumerate(cases):
            order = (0, 1) if i % 2 == 0 else (1, 0)
            for which in order:
                if which == 0:
                    t0 = time.perf_counter()
                    record = simulate(position, stroke)
                    ours += time.perf_counter() - t0
                    events += len(record.events)
                else:
                    fast.use_stock()
                    try:
                        t0 = time.perf_counter()
                        run_engine(build_system(centres[i], stroke, ptable))
                        raw += time.perf_counter() - t0
                    finally:
                        fast.use_fast()
            progress.advance(task)
    return PhysicsBenchmark(strokes=strokes, ours_seconds=ours, raw_seconds=raw, events=events)


def print_physics_report(result: PhysicsBenchmark, console: Console) -> None:
    table = Table(title=f"Physics: {result.strokes} seeded 5-ball strokes, 0.5-6 m/s", title_justify="left")
    table.add_column("")
    table.add_column("strokes/s", justify="right")
    table.add_column("ms/stroke", justify="right")
    table.add_row("stock pooltool", f"{result.raw_rate:.1f}", f"{1000 / result.raw_rate:.2f}")
    table.add_row("Kaisa's engine", f"{result.ours_rate:.1f}", f"{1000 / result.ours_rate:.2f}")
    console.print(table)
    verdict = "[green]meets[/]" if result.ratio >= 15 else "[red]short of[/]"
    console.print(
        f"engine v stock pooltool = [bold]{result.ratio:.2f}x[/] ({verdict} the 15x goal); "
        f"{result.events / result.strokes:.1f} domain events per stroke"
    )
