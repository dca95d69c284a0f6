"""``kaisa tournament`` and ``kaisa dataset`` throughput: matches and rows per CPU-second, before and after.

*Before* is pooltool 0.6.0 as the physics engine (stock, :func:`kaisa.physics.reference.use_as_engine`), as
every stroke was played before issue 26; *after* is Kaisa's own engine. Both play the same seeded matches of
the same schedule (:func:`kaisa.tournament.schedule`) in this process, alternating which engine plays a match
first, so both see the same machine load; the clock is this process's CPU time (what other processes on a
shared machine take does not count).

What is timed is the work a tournament's or a data set's worker process does for one match:
:func:`kaisa.tournament.play_game` (the players' decisions, the strokes, the referee, the record), and for a
data set also turning the match's stack into rows (:func:`kaisa.research.dataset.stroke_rows`), an Arrow table
and Parquet bytes. The process pool, the database and the ratings around them are the same for both engines
and are left out. Tests never assert on these numbers.
"""

from __future__ import annotations

import io
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

if TYPE_CHECKING:
    from kaisa.tournament import GameSpec

ENGINES = ("pooltool", "kaisa")
"""Before (stock pooltool as the engine) and after (Kaisa's engine)."""


@dataclass
class EngineThroughput:
    """What one engine did: matches, their strokes (a data set's rows) and the CPU seconds they took."""

    engine: str
    matches: int = 0
    rows: int = 0
    play_seconds: float = 0.0
    """CPU seconds of :func:`kaisa.tournament.play_game`."""
    rows_seconds: float = 0.0
    """CPU seconds turning the played matches into rows, an Arrow table and Parquet bytes."""

    @property
    def matches_per_second(self) -> float:
        """A tournament's matches per CPU-second."""
        return self.matches / self.play_seconds if self.play_seconds > 0 else 0.0

    @property
    def rows_per_second(self) -> float:
        """A data set's rows (strokes) per CPU-second: playing and writing."""
        seconds = self.play_seconds + self.rows_seconds
        return self.rows / seconds if seconds > 0 else 0.0


@dataclass(frozen=True)
class ThroughputBenchmark:
    kinds: tuple[str, ...]
    seed: int
    noise: float
    max_actions: int | None
    before: EngineThroughput
    after: EngineThroughput
    identical: int
    """Matches whose records the two engines played identically (pooltool agrees with the engine bit for bit
    only under its reference BLAS kernel: elsewhere a match may take another course)."""
    scheduled: int
    """Matches asked for; fewer were played when the time budget ran out."""

    @property
    def match_ratio(self) -> float:
        """After over before: a tournament's matches per CPU-second."""
        return self.after.matches_per_second / self.before.matches_per_second if self.before.matches_per_second else 0.0

    @property
    def row_ratio(self) -> float:
        """After over before: a data set's rows per CPU-second."""
        return self.after.rows_per_second / self.before.rows_per_second if self.before.rows_per_second else 0.0


def _warm_up(spec: GameSpec) -> None:
    """Load both engines (Kaisa's kernels, pooltool's imports and numba functions) and everything a match and its
    rows import, with a few actions of ``spec`` on each engine, before anything is timed."""
    from kaisa.physics import reference

    for engine in ENGINES:
        _use(engine)
        try:
            _play(replace(spec, max_actions=4))
        finally:
            reference.use_kaisa_engine()


def _play(spec: GameSpec) -> tuple[str, int, float, float]:
    """Play ``spec`` as a tournament's worker does, then make its rows, an Arrow table and Parquet bytes as a data
    set does: the record, the rows and the CPU seconds of each part."""
    import pyarrow.parquet as pq

    from kaisa.research.dataset import MatchRows, stroke_rows, table_of
    from kaisa.tournament import play_game

    t0 = time.process_time()
    result = play_game(spec)
    t1 = time.process_time()
    assert result.match is not None
    rows = MatchRows(spec, tuple(stroke_rows(result.match, spec)), result.finished, result.error)
    pq.write_table(table_of([rows]), io.BytesIO(), compression="zstd")
    t2 = time.process_time()
    return result.record, len(rows.rows), t1 - t0, t2 - t1


def _use(engine: str) -> None:
    from kaisa.physics import reference

    if engine == "pooltool":
        reference.use_as_engine(stock=True)
    else:
        reference.use_kaisa_engine()


def throughput_benchmark(
    kinds: Sequence[str] = ("baseline", "baseline"),
    matches: int = 6,
    seconds: float = 600.0,
    seed: int = 2014,
    noise: float = 1.0,
    max_actions: int | None = None,
    console: Console | None = None,
) -> ThroughputBenchmark:
    """Play the first ``matches`` matches of the round robin between ``kinds`` (seeded by ``seed``) once with
    each engine, alternating which goes first, until ``seconds`` of wall-clock time are spent (a match begun is
    finished; at least one is played). ``max_actions`` cuts each match after that many actions. pooltool is a
    development dependency (:func:`kaisa.physics.reference.available`)."""
    from kaisa.physics import reference
    from kaisa.tournament import schedule

    pairs = len(kinds) * (len(kinds) - 1) // 2
    specs = schedule(kinds, max(1, -(-matches // max(1, pairs))), seed, noise)[:matches]
    if max_actions is not None:
        specs = tuple(replace(s, max_actions=max_actions) for s in specs)
    _warm_up(specs[0])
    done = {engine: EngineThroughput(engine) for engine in ENGINES}
    identical = 0
    started = time.perf_counter()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("matches, each engine in turn", total=2 * len(specs))
        for i, spec in enumerate(specs):
            if i > 0 and time.perf_counter() - started > seconds:
                break
            records = []
            for engine in ENGINES if i % 2 == 0 else ENGINES[::-1]:
                _use(engine)
                try:
                    record, rows, play_seconds, rows_seconds = _play(spec)
                finally:
                    reference.use_kaisa_engine()
                figures = done[engine]
                figures.matches += 1
                figures.rows += rows
                figures.play_seconds += play_seconds
                figures.rows_seconds += rows_seconds
                records.append(record)
                progress.advance(task)
            identical += records[0] == records[1]
    return ThroughputBenchmark(
        kinds=tuple(kinds),
        seed=seed,
        noise=noise,
        max_actions=max_actions,
        before=done["pooltool"],
        after=done["kaisa"],
        identical=identical,
        scheduled=len(specs),
    )


def print_throughput_report(result: ThroughputBenchmark, console: Console) -> None:
    cut = f", cut at {result.max_actions} actions" if result.max_actions is not None else ""
    played = result.after.matches
    table = Table(
        title=f"Throughput: {played} seeded {' v '.join(result.kinds)} matches per engine{cut} (CPU time)",
        title_justify="left",
    )
    table.add_column("engine")
    table.add_column("matches", justify="right")
    table.add_column("strokes", justify="right")
    table.add_column("tournament: matches/CPU-s", justify="right")
    table.add_column("dataset: rows/CPU-s", justify="right")
    for label, figures in (("before: stock pooltool", result.before), ("after: Kaisa's engine", result.after)):
        table.add_row(
            label,
            str(figures.matches),
            str(figures.rows),
            f"{figures.matches_per_second:.3f}",
            f"{figures.rows_per_second:.1f}",
        )
    console.print(table)
    console.print(
        f"kaisa tournament: [bold]{result.match_ratio:.1f}x[/] the matches per CPU-second; "
        f"kaisa dataset: [bold]{result.row_ratio:.1f}x[/] the rows per CPU-second (after v before)"
    )
    notes = [f"{result.identical} of {played} matches played identically by both engines"]
    if played < result.scheduled:
        notes.append(f"the time budget stopped it after {played} of {result.scheduled} matches")
    console.print(f"[dim]{'; '.join(notes)}[/]")
