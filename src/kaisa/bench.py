"""Benchmarks: our layers measured side by side with a baseline in the same process, as ratios.

Wall-clock numbers on shared machines are noisy; a ratio of two rates measured alternately in one
process is not. Tests never assert on these numbers.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.model import BALL_ORDER, BallId, Position, Stroke
from kaisa.table import OFFICIAL, TableSpec

if TYPE_CHECKING:
    from kaisa.call import Call


def random_layout(rng: np.random.Generator, spec: TableSpec = OFFICIAL, balls: int = 5) -> Position:
    """``balls`` balls at uniformly random places on the bed, none touching a cushion or each other."""
    r = spec.ball_radius
    margin = r + 0.002
    placed: dict[str, tuple[float, float]] = {}
    for ball in BALL_ORDER[:balls]:
        while True:
            p = (float(rng.uniform(margin, spec.width - margin)), float(rng.uniform(margin, spec.length - margin)))
            if all(math.hypot(p[0] - q[0], p[1] - q[1]) > 2 * r + 0.002 for q in placed.values()):
                placed[ball.value] = p
                break
    return Position(placed)


def random_stroke(rng: np.random.Generator, position: Position, soft: float = 0.5, hard: float = 6.0) -> Stroke:
    """A stroke of W1 at a random ball of ``position``, soft to hard, with some spin."""
    targets = [b for b in position if b.value != "W1"]
    cue = position["W1"]
    target = position[targets[int(rng.integers(len(targets)))]]
    aim = math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0])) + float(rng.normal(0, 3))
    side, follow = rng.uniform(-0.3, 0.3, size=2)
    return Stroke(
        BallId.W1, speed=float(rng.uniform(soft, hard)), direction=aim, side=float(side), follow=float(follow)
    )


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
    """Simulate the same seeded 5-ball strokes with :func:`kaisa.physics.simulate` and with raw pooltool
    (the same table, balls and cue, nothing else), alternating which goes first."""
    from kaisa.physics.engine import build_system, physics_table, run_engine, simulate

    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(strokes):
        position = random_layout(rng)
        cases.append((position, random_stroke(rng, position)))
    ptable = physics_table(OFFICIAL)
    centres = [{b: p for b, p in position.items()} for position, _ in cases]
    for position, stroke in cases[: min(20, strokes)]:  # load every kernel before timing either side
        simulate(position, stroke)
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
                    t0 = time.perf_counter()
                    run_engine(build_system(centres[i], stroke, ptable))
                    raw += time.perf_counter() - t0
            progress.advance(task)
    return PhysicsBenchmark(strokes=strokes, ours_seconds=ours, raw_seconds=raw, events=events)


def print_physics_report(result: PhysicsBenchmark, console: Console) -> None:
    table = Table(title=f"Physics: {result.strokes} seeded 5-ball strokes, 0.5-6 m/s", title_justify="left")
    table.add_column("")
    table.add_column("strokes/s", justify="right")
    table.add_column("ms/stroke", justify="right")
    table.add_row("raw pooltool", f"{result.raw_rate:.1f}", f"{1000 / result.raw_rate:.2f}")
    table.add_row("kaisa simulate", f"{result.ours_rate:.1f}", f"{1000 / result.ours_rate:.2f}")
    console.print(table)
    verdict = "[green]within[/]" if result.ratio >= 0.9 else "[red]outside[/]"
    console.print(
        f"ratio kaisa/raw = [bold]{result.ratio:.3f}[/] ({verdict} the 0.9 target); "
        f"{result.events / result.strokes:.1f} domain events per stroke"
    )


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


def random_call(rng: np.random.Generator, position: Position) -> Call:
    """A plausible call for W1: a random object ball on the table into a random pocket, sometimes via a ball."""
    from kaisa.call import Call, Konsti
    from kaisa.table import PocketId

    objects = [b for b in position if b is not BallId.W1]
    ball = objects[int(rng.integers(len(objects)))]
    pocket = list(PocketId)[int(rng.integers(6))]
    others = [b for b in objects if b is not ball]
    if others and rng.random() < 0.3:
        return Call(ball, pocket, konsti=list(Konsti)[int(rng.integers(3))], via=others[int(rng.integers(len(others)))])
    return Call(ball, pocket)


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
