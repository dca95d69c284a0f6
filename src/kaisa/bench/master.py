"""The master's decisions: how long they take, and how much a deeper search would gain over them.

*Decision time*: the master deciding on seeded 5-ball layouts, with its two worker processes and with one,
as in the previous session (independent noise draws, no fresh look at the chosen safety) and as it was
before this benchmark's changes (full window scan, stock pooltool as the engine, no second look), side by side in one run.

*Regret*: on each seeded layout the master decides, and so does a deeper search (:func:`deep_level`: more
candidates, a finer scan, five times the samples, about five times the simulations; the measured ratio is
reported), and so does the previous session's master. The choices are then played
:data:`APPRAISAL_SAMPLES` times with the same noise draws and scored as the search scores a stroke
(expected points, position left, win); the regret is the deep choice's score minus the master's, in points
per shot. Positions where either search chose a safety are reported separately. Tests never assert on
these numbers.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, nullcontext
from dataclasses import asdict, dataclass, replace
from multiprocessing import get_context

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.layouts import random_layout
from kaisa.model import Position

APPRAISAL_SAMPLES = 32
"""Noisy plays of each choice when the two searches' choices are compared."""


def deep_level() -> object:
    """The deeper search, about five times the master's simulations (the report prints the measured ratio):
    twice the candidates, half the scan step over every direction, five times the samples, three times the
    evaluated windows and three times the safety samples. (With four times the samples it measured 4.7x the
    previous master's simulations and 4.4x the master's with its second look, over 200 layouts.)"""
    from kaisa.players.levels import LEVELS

    master = LEVELS["master"]
    return replace(
        master,
        name="master-deep",
        candidates=master.candidates * 2,
        scan_step=master.scan_step / 2,
        samples=master.samples * 5,
        evaluate=master.evaluate * 3,
        safety_samples=master.safety_samples * 3,
    )


def layouts(count: int, seed: int) -> list[Position]:
    rng = np.random.default_rng(seed)
    return [random_layout(rng) for _ in range(count)]


# --- regret ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RegretSample:
    index: int
    regret: float
    """Deep choice's appraised score minus the master's (points per shot)."""
    master_safety: bool
    deep_safety: bool
    master_simulations: int
    deep_simulations: int
    same_call: bool
    previous_regret: float = 0.0
    """The same for the previous session's master (:func:`previous_master`), against the same deep choice."""


PREVIOUS_SAMPLES = 12
"""The previous session's master played each evaluated window 12 times and 12 more in the second look."""


@contextmanager
def previous_master() -> Iterator[None]:
    """The search as the previous session left it, for the duration of a ``with``: independent noise draws,
    no fresh look at the chosen safety, :data:`PREVIOUS_SAMPLES` plays per window and per second look."""
    from kaisa.players import levels, search

    saved = search.STRATIFIED, search.SAFETY_RECHECK, search.REFINE_SAMPLES, levels.LEVELS["master"]
    search.STRATIFIED, search.SAFETY_RECHECK, search.REFINE_SAMPLES = False, 0, PREVIOUS_SAMPLES
    levels.LEVELS["master"] = replace(saved[3], samples=PREVIOUS_SAMPLES)
    try:
        yield
    finally:
        search.STRATIFIED, search.SAFETY_RECHECK, search.REFINE_SAMPLES, levels.LEVELS["master"] = saved


def regret_at(args: tuple[int, Position, int]) -> RegretSample:
    """One position: the master's choice and the deep search's, both appraised with the same noise."""
    from kaisa.players import search
    from kaisa.players.search import SearchPlayer
    from kaisa.referee import GameState

    index, position, seed = args
    game = GameState()
    master = SearchPlayer("master", seed=seed + index, parallel=False)
    before = search.simulations()
    ours = master.decide(position, game)
    ours_sims = search.simulations() - before
    deep = SearchPlayer(deep_level(), seed=seed + index, parallel=False)  # type: ignore[arg-type]
    coarse = search.COARSE_FIRST
    search.COARSE_FIRST = False  # the deep search scans every direction
    try:
        before = search.simulations()
        theirs = deep.decide(position, game)
        deep_sims = search.simulations() - before
    finally:
        search.COARSE_FIRST = coarse
    with previous_master():
        earlier = SearchPlayer("master", seed=seed + index, parallel=False).decide(position, game)
    judge = SearchPlayer("master", seed=10_000 + index, parallel=False)
    a = judge.appraise(ours.call, ours.stroke, position, game, APPRAISAL_SAMPLES)
    b = judge.appraise(theirs.call, theirs.stroke, position, game, APPRAISAL_SAMPLES)
    c = judge.appraise(earlier.call, earlier.stroke, position, game, APPRAISAL_SAMPLES)
    return RegretSample(
        index,
        b.score - a.score,
        ours.kind == "safety",
        theirs.kind == "safety",
        ours_sims,
        deep_sims,
        ours.call == theirs.call and ours.kind == theirs.kind,
        b.score - c.score,
    )


@dataclass(frozen=True)
class RegretResult:
    samples: tuple[RegretSample, ...]
    seconds: float

    def _mean(self, keep: Callable[[RegretSample], bool]) -> tuple[float | None, float | None, int]:
        values = [s.regret for s in self.samples if keep(s)]
        if not values:
            return None, None, 0
        se = statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else None
        return statistics.fmean(values), se, len(values)

    @property
    def overall(self) -> tuple[float | None, float | None, int]:
        return self._mean(lambda s: True)

    @property
    def pots(self) -> tuple[float | None, float | None, int]:
        return self._mean(lambda s: not s.master_safety and not s.deep_safety)

    @property
    def safeties(self) -> tuple[float | None, float | None, int]:
        return self._mean(lambda s: s.master_safety or s.deep_safety)

    @property
    def previous(self) -> tuple[float | None, float | None, int]:
        """The previous session's master against the same deep choices."""
        values = [s.previous_regret for s in self.samples]
        if len(values) < 2:
            return (values[0] if values else None), None, len(values)
        return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5, len(values)

    @property
    def gain(self) -> tuple[float | None, float | None]:
        """How much less regret the master has than the previous one, paired position by position (SE)."""
        values = [s.previous_regret - s.regret for s in self.samples]
        if len(values) < 2:
            return (values[0] if values else None), None
        return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5

    @property
    def depth(self) -> float | None:
        ours = sum(s.master_simulations for s in self.samples)
        return sum(s.deep_simulations for s in self.samples) / ours if ours else None

    def to_json(self) -> dict[str, object]:
        mean, se, n = self.overall
        return {
            "positions": n,
            "regret": mean,
            "regret_se": se,
            "regret_pots": self.pots[0],
            "regret_safeties": self.safeties[0],
            "safety_positions": self.safeties[2],
            "depth_ratio": self.depth,
            "previous_regret": self.previous[0],
            "previous_regret_se": self.previous[1],
            "gain": self.gain[0],
            "gain_se": self.gain[1],
            "seconds": self.seconds,
            "samples": [asdict(s) for s in self.samples],
        }


def regret_benchmark(
    positions: int, seed: int = 2014, budget: float = 1e9, console: Console | None = None, workers: int = 2
) -> RegretResult:
    """The regret over ``positions`` seeded layouts, stopping early after ``budget`` seconds (whatever is
    done by then is the result); ``workers`` processes each take whole positions."""
    cases = [(i, p, seed) for i, p in enumerate(layouts(positions, seed))]
    done: list[RegretSample] = []
    start = time.perf_counter()
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=get_context("fork"))
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("master v deep search", total=positions)
            futures = [pool.submit(regret_at, case) for case in cases]
            for future in futures:
                remaining = budget - (time.perf_counter() - start)
                if remaining <= 0:
                    break
                try:
                    done.append(future.result(timeout=remaining))
                except TimeoutError:
                    break
                progress.advance(task)
    finally:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # a position still being searched when the budget ran out
            process.terminate()
    return RegretResult(tuple(done), time.perf_counter() - start)


# --- decision time --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionTimes:
    label: str
    seconds: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def p90(self) -> float:
        return float(np.quantile(self.seconds, 0.9))

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "median": self.median, "p90": self.p90, "seconds": list(self.seconds)}


def decision_times(positions: int, seed: int = 2014, console: Console | None = None) -> list[DecisionTimes]:
    """The master on the same seeded layouts: now with 2 workers, now with 1, as in the previous session
    (:func:`previous_master`; 2 workers), and before (that, with the full scan on stock pooltool and no second
    look; 2 workers); each configuration decides every layout, in turn."""
    from kaisa.players import search
    from kaisa.players.search import REFINE_TOP, SearchPlayer, close_pool
    from kaisa.referee import GameState

    cases = layouts(positions, seed)
    game = GameState()

    def configure(label: str) -> None:
        from kaisa.physics import reference

        close_pool()  # the workers are forked again with the configuration
        if label == "before":
            reference.use_as_engine(stock=True)
        else:
            reference.use_kaisa_engine()
        search.COARSE_FIRST = label != "before"
        search.REFINE_TOP = 0 if label == "before" else REFINE_TOP

    labels = ("2 workers", "1 worker", "previous", "before")
    times: dict[str, list[float]] = {label: [] for label in labels}
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("master decisions", total=positions * len(labels))
            for label in labels:
                configure(label)
                with previous_master() if label in ("previous", "before") else nullcontext():
                    player = SearchPlayer("master", seed=seed, parallel=label != "1 worker")
                    player.decide(cases[0], game)  # forks the workers before timing
                    for i, position in enumerate(cases):
                        t0 = time.perf_counter()
                        player.decide(position, game, stroke_index=i)
                        times[label].append(time.perf_counter() - t0)
                        progress.advance(task)
    finally:
        configure("2 workers")
        close_pool()
    return [DecisionTimes(label, tuple(times[label])) for label in labels]


def print_master_report(times: list[DecisionTimes], regret: RegretResult | None, console: Console) -> None:
    if times:
        table = Table(title="Master decisions (seeded 5-ball layouts)", title_justify="left")
        for column in ("", "median s", "p90 s", "median v now"):
            table.add_column(column, justify="right" if column else "left")
        now = times[0].median
        for t in times:
            table.add_row(t.label, f"{t.median:.2f}", f"{t.p90:.2f}", f"{t.median / now:.2f}x")
        console.print(table)
    if regret is None:
        return
    mean, se, n = regret.overall
    if mean is None:
        console.print("regret: no position finished within the budget")
        return
    pots, safeties = regret.pots, regret.safeties
    depth = regret.depth
    console.print(
        f"regret v a deeper search ({depth:.1f}x the simulations) over {n} positions: "
        f"[bold]{mean:.3f}[/] points per shot (SE {se if se is not None else float('nan'):.3f}); "
        f"pots {pots[0] if pots[0] is not None else float('nan'):.3f} ({pots[2]}), positions with a safety "
        f"{safeties[0] if safeties[0] is not None else float('nan'):.3f} ({safeties[2]})"
    )

    def number(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.3f}"

    before, before_se, _ = regret.previous
    gain, gain_se = regret.gain
    console.print(
        f"the previous session's master on the same positions: {number(before)} (SE {number(before_se)}); "
        f"the master gains {number(gain)} points per shot over it (paired SE {number(gain_se)})"
    )
