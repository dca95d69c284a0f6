"""The master's decisions: how long they take, and how much a deeper search would gain over them.

*Decision time*: the master deciding on seeded 5-ball layouts, with its two worker processes and with one, and
the master as issue 26 found it (:func:`master_before_26`: its parameters, on Kaisa's engine, on the fast
pooltool layer that was the engine before issue 26, and on stock pooltool), side by side in one run.

*Regret*: on each seeded layout the master decides, and so does a deeper search (:func:`deep_level`: more
candidates, a finer scan, five times the samples, about five times the simulations; the measured ratio is
reported), and so do the master as issue 26 found it and the previous session's master. The master before
issue 26 is also set against its own deeper search (:func:`deep_level` of its level), so that its regret
before and the master's after are each against a search five times deeper than itself. The choices are then
played :data:`APPRAISAL_SAMPLES` times with the same noise draws and scored as the search scores a stroke
(expected points, position left, win); the regret is the deep choice's score minus the master's, in points
per shot. Positions where either search chose a safety are reported separately. Tests never assert on
these numbers.
"""

from __future__ import annotations

import os
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
from kaisa.players.candidates import KINDS
from kaisa.players.levels import Level

APPRAISAL_SAMPLES = 32
"""Noisy plays of each choice when the two searches' choices are compared."""


def deep_level(master: Level | None = None) -> Level:
    """The deeper search, about five times ``master``'s simulations (default: the master's level; the report
    prints the measured ratio): twice the candidates, half the scan step over every direction, five times the
    samples, three times the evaluated windows and three times the safety samples."""
    from kaisa.players.levels import LEVELS

    master = master or LEVELS["master"]
    return replace(
        master,
        name="master-deep",
        candidates=master.candidates * 2,
        scan_step=master.scan_step / 2,
        samples=master.samples * 5,
        evaluate=master.evaluate * 3,
        safety_samples=master.safety_samples * 3,
    )


BEFORE_26 = Level(
    name="master",
    noise=1.0,
    kinds=KINDS,
    candidates=6,
    scan_half_width=0.8,
    scan_step=0.08,
    samples=20,
    speeds=(0.75, 1.1),
    evaluate=3,
    placements=9,
    position_weight=1.0,
    reply_kinds=KINDS,
    safety_below=1.0,
    safety_samples=6,
)
"""The master's level as issue 26 found it (``kaisa.players.levels`` at commit 5fef489)."""

BEFORE_26_SEARCH = {
    "REFINE_TOP": 2,
    "REFINE_SAMPLES": 20,
    "REFINE_MARGIN": 1.5,
    "SAFETY_RECHECK": 12,
    "PLAY_PARTS": 1,
}
"""The search's constants that issue 26 changed, as it found them (``kaisa.players.search`` at 5fef489;
one part per evaluation is the search as it was, bit for bit)."""


@contextmanager
def master_before_26() -> Iterator[None]:
    """The master as issue 26 found it, for the duration of a ``with``: :data:`BEFORE_26` and
    :data:`BEFORE_26_SEARCH` (in this process and the workers it forks after entering)."""
    from kaisa.players import levels, search

    saved = {name: getattr(search, name) for name in BEFORE_26_SEARCH}, levels.LEVELS["master"]
    for name, value in BEFORE_26_SEARCH.items():
        setattr(search, name, value)
    levels.LEVELS["master"] = BEFORE_26
    try:
        yield
    finally:
        for name, value in saved[0].items():
            setattr(search, name, value)
        levels.LEVELS["master"] = saved[1]


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
    before_regret: float = 0.0
    """The same for the master as issue 26 found it (:func:`master_before_26`), against the same deep choice."""
    before_own_regret: float = 0.0
    """The master as issue 26 found it against its own deeper search (:func:`deep_level` of :data:`BEFORE_26`)."""
    before_simulations: int = 0
    before_deep_simulations: int = 0


PREVIOUS_SAMPLES = 12
"""The previous session's master played each evaluated window 12 times and 12 more in the second look."""


@contextmanager
def previous_master() -> Iterator[None]:
    """The search as the previous session left it, for the duration of a ``with``: the master before issue 26
    (:func:`master_before_26`) with independent noise draws, no fresh look at the chosen safety and
    :data:`PREVIOUS_SAMPLES` plays per window and per second look."""
    from kaisa.players import levels, search

    with master_before_26():
        saved = search.STRATIFIED, search.SAFETY_RECHECK, search.REFINE_SAMPLES
        search.STRATIFIED, search.SAFETY_RECHECK, search.REFINE_SAMPLES = False, 0, PREVIOUS_SAMPLES
        levels.LEVELS["master"] = replace(BEFORE_26, samples=PREVIOUS_SAMPLES)
        try:
            yield
        finally:
            search.STRATIFIED, search.SAFETY_RECHECK, search.REFINE_SAMPLES = saved


def regret_at(args: tuple[int, Position, int]) -> RegretSample:
    """One position: the master's choice and the deep search's, both appraised with the same noise; and the
    same for the master before issue 26 (against this deep choice and against its own deep search's) and for
    the previous session's master."""
    from kaisa.players import search
    from kaisa.players.search import SearchPlayer
    from kaisa.referee import GameState

    index, position, seed = args
    game = GameState()

    def decide(level: str | Level) -> tuple[search.Evaluation, int]:
        before = search.simulations()
        player = SearchPlayer(level, seed=seed + index, parallel=False)
        if isinstance(level, str):
            return player.decide(position, game), search.simulations() - before
        coarse = search.COARSE_FIRST
        search.COARSE_FIRST = False  # the deep search scans every direction
        try:
            return player.decide(position, game), search.simulations() - before
        finally:
            search.COARSE_FIRST = coarse

    ours, ours_sims = decide("master")
    theirs, deep_sims = decide(deep_level())
    with master_before_26():
        old, old_sims = decide("master")
        old_deep, old_deep_sims = decide(deep_level(BEFORE_26))
    with previous_master():
        earlier, _ = decide("master")
    judge = SearchPlayer("master", seed=10_000 + index, parallel=False)

    def score(choice: search.Evaluation) -> float:
        return judge.appraise(choice.call, choice.stroke, position, game, APPRAISAL_SAMPLES).score

    deep_score = score(theirs)
    old_score = score(old)
    return RegretSample(
        index,
        deep_score - score(ours),
        ours.kind == "safety",
        theirs.kind == "safety",
        ours_sims,
        deep_sims,
        ours.call == theirs.call and ours.kind == theirs.kind,
        deep_score - score(earlier),
        deep_score - old_score,
        score(old_deep) - old_score,
        old_sims,
        old_deep_sims,
    )


@dataclass(frozen=True)
class RegretResult:
    samples: tuple[RegretSample, ...]
    seconds: float
    load: tuple[float, float] = (0.0, 0.0)
    """The machine's 1-minute load average when the measurement started and when it ended."""

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
    def before(self) -> tuple[float | None, float | None, int]:
        """The master as issue 26 found it against the same deep choices."""
        return _mean_se([s.before_regret for s in self.samples])

    @property
    def before_own(self) -> tuple[float | None, float | None, int]:
        """The master as issue 26 found it against its own deeper search: the regret before issue 26."""
        return _mean_se([s.before_own_regret for s in self.samples])

    @property
    def gain_over_before(self) -> tuple[float | None, float | None]:
        """How much less regret the master has than the one before issue 26, paired against the same deep
        choices (SE)."""
        mean, se, _ = _mean_se([s.before_regret - s.regret for s in self.samples])
        return mean, se

    @property
    def depth(self) -> float | None:
        ours = sum(s.master_simulations for s in self.samples)
        return sum(s.deep_simulations for s in self.samples) / ours if ours else None

    @property
    def before_depth(self) -> float | None:
        ours = sum(s.before_simulations for s in self.samples)
        return sum(s.before_deep_simulations for s in self.samples) / ours if ours else None

    def simulations(self) -> dict[str, float | None]:
        """Mean simulations per decision: the master, its deep search, the master before issue 26 and its."""
        n = len(self.samples)

        def mean(values: list[int]) -> float | None:
            return sum(values) / n if n else None

        return {
            "master": mean([s.master_simulations for s in self.samples]),
            "deep": mean([s.deep_simulations for s in self.samples]),
            "before": mean([s.before_simulations for s in self.samples]),
            "before_deep": mean([s.before_deep_simulations for s in self.samples]),
        }

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
            "simulations_per_decision": self.simulations(),
            "same_call": sum(s.same_call for s in self.samples),
            "before_regret": self.before[0],
            "before_regret_se": self.before[1],
            "before_own_regret": self.before_own[0],
            "before_own_regret_se": self.before_own[1],
            "before_depth_ratio": self.before_depth,
            "gain_over_before": self.gain_over_before[0],
            "gain_over_before_se": self.gain_over_before[1],
            "previous_regret": self.previous[0],
            "previous_regret_se": self.previous[1],
            "gain": self.gain[0],
            "gain_se": self.gain[1],
            "seconds": self.seconds,
            "load": list(self.load),
            "samples": [asdict(s) for s in self.samples],
        }


def regret_benchmark(
    positions: int, seed: int = 2014, budget: float = 1e9, console: Console | None = None, workers: int = 2
) -> RegretResult:
    """The regret over ``positions`` seeded layouts, stopping early after ``budget`` seconds (whatever is
    done by then is the result); ``workers`` processes each take whole positions."""
    cases = [(i, p, seed) for i, p in enumerate(layouts(positions, seed))]
    done: list[RegretSample] = []
    load = _load()
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
    return RegretResult(tuple(done), time.perf_counter() - start, (load, _load()))


def _load() -> float:
    """The 1-minute load average (0 where the system does not say): decision times depend on it."""
    try:
        return os.getloadavg()[0]
    except OSError:
        return 0.0


def _mean_se(values: list[float]) -> tuple[float | None, float | None, int]:
    if len(values) < 2:
        return (values[0] if values else None), None, len(values)
    return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5, len(values)


# --- decision time --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class DecisionTimes:
    label: str
    seconds: tuple[float, ...]
    load: tuple[float, float] = (0.0, 0.0)
    """The machine's 1-minute load average before and after this configuration's decisions."""
    cpu: float = 0.0
    """Processor seconds per decision, the main process's and its workers' (a warm-up decision included):
    unlike the wall-clock seconds, hardly moved by the other processes on the machine."""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def p90(self) -> float:
        return float(np.quantile(self.seconds, 0.9))

    def to_json(self) -> dict[str, object]:
        return {
            "label": self.label,
            "median": self.median,
            "p90": self.p90,
            "load": list(self.load),
            "cpu": self.cpu,
            "seconds": list(self.seconds),
        }


NOW, ONE_WORKER = "now, 2 workers", "now, 1 worker"
BEFORE_KAISA, BEFORE_FAST, BEFORE_STOCK = (
    "before issue 26's changes, on Kaisa's engine",
    "before, on the fast pooltool layer (the engine before issue 26)",
    "before, on stock pooltool",
)
DECISION_LABELS = (NOW, ONE_WORKER, BEFORE_KAISA, BEFORE_FAST, BEFORE_STOCK)
"""The configurations :func:`decision_times` times: the master now, with 2 and 1 worker processes, and the
master as issue 26 found it (:func:`master_before_26`) on each engine, 2 workers."""

ON_KAISA_ENGINE = (NOW, ONE_WORKER, BEFORE_KAISA)
"""The configurations that need no pooltool (``kaisa bench master`` without ``--pooltool``)."""


def decision_times(
    positions: int, seed: int = 2014, console: Console | None = None, labels: tuple[str, ...] = DECISION_LABELS
) -> list[DecisionTimes]:
    """The master on the same seeded layouts in each of ``labels`` (of :data:`DECISION_LABELS`, the first of
    them the yardstick of the report's ratios); each configuration decides every layout, in turn."""
    from kaisa.players.search import SearchPlayer, close_pool
    from kaisa.referee import GameState

    cases = layouts(positions, seed)
    game = GameState()

    def configure(label: str) -> None:
        from kaisa.physics import reference

        close_pool()  # the workers are forked again with the configuration
        if label in (BEFORE_FAST, BEFORE_STOCK):
            reference.use_as_engine(stock=label == BEFORE_STOCK)
        else:
            reference.use_kaisa_engine()

    times: dict[str, list[float]] = {label: [] for label in labels}
    loads: dict[str, tuple[float, float]] = {}
    cpu: dict[str, float] = {}
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("master decisions", total=positions * len(labels))
            for label in labels:
                with master_before_26() if label not in (NOW, ONE_WORKER) else nullcontext():
                    configure(label)
                    used = _cpu()
                    player = SearchPlayer("master", seed=seed, parallel=label != ONE_WORKER)
                    player.decide(cases[0], game)  # forks the workers before timing
                    load = _load()
                    for i, position in enumerate(cases):
                        t0 = time.perf_counter()
                        player.decide(position, game, stroke_index=i)
                        times[label].append(time.perf_counter() - t0)
                        progress.advance(task)
                    loads[label] = (load, _load())
                    close_pool()  # joins the workers: their processor time is counted now
                    cpu[label] = (_cpu() - used) / (len(cases) + 1)
    finally:
        configure(NOW)
        close_pool()
    return [DecisionTimes(label, tuple(times[label]), loads[label], cpu[label]) for label in labels]


def _cpu() -> float:
    """Processor seconds of this process and of its children that have ended."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def print_master_report(times: list[DecisionTimes], regret: RegretResult | None, console: Console) -> None:
    if times:
        table = Table(title="Master decisions (seeded 5-ball layouts)", title_justify="left")
        for column in ("", "median s", "p90 s", "median v now", "CPU s", "load"):
            table.add_column(column, justify="right" if column else "left")
        now = times[0].median
        for t in times:
            load = f"{t.load[0]:.1f}-{t.load[1]:.1f}"
            table.add_row(t.label, f"{t.median:.2f}", f"{t.p90:.2f}", f"{t.median / now:.2f}x", f"{t.cpu:.2f}", load)
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

    sims = regret.simulations()
    old, old_se, _ = regret.before_own
    old_depth = regret.before_depth
    console.print(
        f"the master before issue 26 (BEFORE_26) v its own deeper search ({old_depth or float('nan'):.1f}x): "
        f"{number(old)} (SE {number(old_se)}); simulations per decision: the master {sims['master'] or 0:.0f}, "
        f"its deep search {sims['deep'] or 0:.0f}, before {sims['before'] or 0:.0f}, its deep search "
        f"{sims['before_deep'] or 0:.0f}"
    )
    against, against_se, _ = regret.before
    gain, gain_se = regret.gain_over_before
    console.print(
        f"against the master's deep search, on the same positions: before issue 26 {number(against)} (SE "
        f"{number(against_se)}), the master gains {number(gain)} points per shot over it (paired SE {number(gain_se)})"
    )
    previous, previous_se, _ = regret.previous
    console.print(f"the previous session's master, the same: {number(previous)} (SE {number(previous_se)})")
    console.print(
        f"[dim]regret measured in {regret.seconds:.0f} s, load average {regret.load[0]:.1f} at the start, "
        f"{regret.load[1]:.1f} at the end[/]"
    )
