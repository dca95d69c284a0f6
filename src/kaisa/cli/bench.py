"""``kaisa bench ...``: the benchmarks; each measures in kaisa.bench and prints its own report."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import KIND_NAMES, console, ensure_physics_ready, fail, split_kinds


def ensure_reference() -> None:
    """The benchmarks that measure the engine against pooltool need pooltool: a development dependency."""
    import importlib.util

    if importlib.util.find_spec("pooltool") is None:
        fail(
            "this benchmark compares Kaisa's engine with pooltool 0.6.0, its reference, which is a development "
            "dependency and not installed here; install it with 'uv sync' in a clone (or "
            "'pip install pooltool-billiards==0.6.0 panda3d==1.10.*')"
        )


def bench_all(
    ctx: typer.Context,
    json_file: Annotated[Path | None, typer.Option("--json", help="Also write every figure to this JSON file.")] = None,
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Strokes, stock v fast.")] = 200,
    actions: Annotated[int, typer.Option("--actions", min=2, max=5000, help="Length of the long match.")] = 300,
    positions: Annotated[int, typer.Option("--positions", min=1, max=10_000, help="Master decisions timed.")] = 6,
    regret_positions: Annotated[
        int, typer.Option("--regret-positions", min=0, max=10_000, help="Positions for the master's regret.")
    ] = 4,
    budget: Annotated[
        float, typer.Option("--budget", min=1.0, help="Seconds at most for the regret (what is done counts).")
    ] = 600.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed for every seeded set.")] = 2014,
) -> None:
    """Every speed figure in one run, as ratios: Kaisa's engine v stock pooltool per stroke; the server's work at action 1
    v a long match; start-up of kaisa simulate and kaisa play v python -c pass; the master's decision time
    (median, p90; 2 v 1 workers; v before) and its regret against a deeper search."""
    if ctx.invoked_subcommand is not None:
        return
    from kaisa.bench.suite import run_suite

    if json_file is not None and not json_file.parent.is_dir():
        fail(f"--json {json_file}: the folder {json_file.parent} does not exist")
    ensure_reference()
    ensure_physics_ready()
    result = run_suite(console, strokes, actions, 5, positions, regret_positions, budget, seed)
    if json_file is not None:
        try:
            result.write(json_file)
        except OSError as exc:
            fail(f"cannot write {json_file}: {exc.strerror or exc}")
        console.print(f"[dim]figures written to {json_file}[/]")


def bench_master(
    positions: Annotated[
        int, typer.Option("--positions", min=1, max=10_000, help="Seeded layouts each configuration decides, timed.")
    ] = 20,
    regret_positions: Annotated[
        int, typer.Option("--regret-positions", min=0, max=10_000, help="Seeded layouts for the regret (0: none).")
    ] = 200,
    budget: Annotated[
        float, typer.Option("--budget", min=1.0, help="Seconds at most for the regret (what is done counts).")
    ] = 7200.0,
    pooltool: Annotated[
        bool,
        typer.Option(
            "--pooltool", help="Also time the master before issue 26 on pooltool (fast layer and stock; slow)."
        ),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the layouts and the players.")] = 2014,
    json_file: Annotated[Path | None, typer.Option("--json", help="Also write the figures to this JSON file.")] = None,
) -> None:
    """The master now beside the master as issue 26 found it (BEFORE_26), in one run: the median decision time
    on 2 workers and 1, and the regret against a five times deeper search of each (with the load average)."""
    import json

    from kaisa.bench.master import (
        DECISION_LABELS,
        ON_KAISA_ENGINE,
        decision_times,
        print_master_report,
        regret_benchmark,
    )

    if json_file is not None and not json_file.parent.is_dir():
        fail(f"--json {json_file}: the folder {json_file.parent} does not exist")
    if pooltool:
        ensure_reference()
    ensure_physics_ready()
    times = decision_times(positions, seed, console, DECISION_LABELS if pooltool else ON_KAISA_ENGINE)
    print_master_report(times, None, console)  # before the long part
    regret = regret_benchmark(regret_positions, seed, budget, console) if regret_positions else None
    print_master_report([], regret, console)
    if json_file is not None:
        figures = {"decisions": [t.to_json() for t in times], "regret": None if regret is None else regret.to_json()}
        try:
            json_file.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            fail(f"cannot write {json_file}: {exc.strerror or exc}")
        console.print(f"[dim]figures written to {json_file}[/]")


def bench_physics(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Strokes per side.")] = 300,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the stroke set.")] = 2014,
) -> None:
    """Kaisa's engine v stock pooltool on the same seeded 5-ball strokes, alternating, in one process."""
    from kaisa.bench.physics import physics_benchmark, print_physics_report

    ensure_reference()
    ensure_physics_ready()
    print_physics_report(physics_benchmark(strokes=strokes, seed=seed, console=console), console)


def bench_compiled(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Seeded strokes to compare.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the strokes and calls.")] = 2014,
    json_file: Annotated[Path | None, typer.Option("--json", help="Also write the figures to this JSON file.")] = None,
) -> None:
    """Kaisa's engine v pooltool 0.6.0 (under its reference kernel) on the same seeded Kaisa strokes:
    identical event sequences, final positions, rulings and sampled paths, and ms per stroke stock : fast : engine."""
    import json

    from kaisa.bench.compiled import agreement, print_agreement_report

    if json_file is not None and not json_file.parent.is_dir():
        fail(f"--json {json_file}: the folder {json_file.parent} does not exist")
    ensure_reference()
    ensure_physics_ready()
    result = agreement(strokes, seed, console)
    print_agreement_report(result, console, seed)
    if json_file is not None:
        try:
            json_file.write_text(json.dumps({"seed": seed, **result.to_json()}, indent=2) + "\n")
        except OSError as exc:
            fail(f"cannot write {json_file}: {exc.strerror or exc}")
        console.print(f"[dim]figures written to {json_file}[/]")


def bench_referee(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Strokes to simulate and rule.")] = 300,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the strokes and calls.")] = 2014,
) -> None:
    """Observe + judge vs simulate on the same seeded strokes: the referee's share of a stroke's cost."""
    from kaisa.bench.referee import print_referee_report, referee_benchmark

    ensure_physics_ready()
    print_referee_report(referee_benchmark(strokes=strokes, seed=seed, console=console), console)


def bench_web(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=10_000, help="Strokes to answer over HTTP.")] = 100,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the layouts, strokes and calls.")] = 2014,
) -> None:
    """The browser table's answer to a stroke (simulate, rule, paths, record) vs the bare simulate call."""
    from kaisa.bench.web import print_web_report, web_benchmark

    ensure_physics_ready()
    print_web_report(web_benchmark(strokes=strokes, seed=seed, console=console), console)


def bench_streams(
    streams: Annotated[int, typer.Option("--streams", min=1, max=5000, help="Spectator streams open at once.")] = 1000,
    markers: Annotated[
        int, typer.Option("--markers", min=1, max=20, help="Markers, each at a table of their own.")
    ] = 6,
    entries: Annotated[int, typer.Option("--entries", min=1, max=30, help="Strokes each marker enters.")] = 15,
    interval: Annotated[
        float, typer.Option("--interval", min=0.2, max=10.0, help="Seconds between a marker's strokes.")
    ] = 2.0,
    idle: Annotated[
        float, typer.Option("--idle", min=1.0, max=60.0, help="Seconds the server's CPU is measured with no entries.")
    ] = 10.0,
    tail: Annotated[
        float, typer.Option("--tail", min=1.0, max=60.0, help="Seconds the streams may take after the last entry.")
    ] = 10.0,
    before: Annotated[
        bool,
        typer.Option(
            "--before/--no-before",
            help="Also run 'before': every stream polling the database and building its view on its own.",
        ),
    ] = False,
    db: Annotated[
        str | None,
        typer.Option("--db", help="An empty PostgreSQL database's URL to run on (default: a fresh SQLite file)."),
    ] = None,
) -> None:
    """A club night's spectators by the thousand on one server process on 127.0.0.1: markers' answer times, the
    delay to every stream, entries lost or doubled, the server's CPU with the streams open (shared streams, and
    with --before every stream on its own, in the same run)."""
    from kaisa.bench.streams import BenchProcessError, print_streams_report, streams_run
    from kaisa.records.storage import StorageError, open_store

    if db is not None:
        try:
            open_store(db).close()  # reachable, and its tables made, before any process starts
        except StorageError as error:
            fail(str(error))
    runs = []
    try:
        for label, shared in ([("before (per stream)", False)] if before else []) + [("after (shared)", True)]:
            runs.append(streams_run(label, shared, streams, markers, entries, interval, idle, tail, db, console))
    except BenchProcessError as error:
        fail(str(error))
    print_streams_report(runs, console)


def bench_env(
    strokes: Annotated[int, typer.Option("--strokes", min=10, max=100_000, help="Strokes to play both ways.")] = 300,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the layouts, strokes and calls.")] = 2014,
) -> None:
    """Environment steps per second next to bare simulate-and-rule calls on the same strokes."""
    from kaisa.bench.env import env_benchmark, print_env_report

    ensure_physics_ready()
    print_env_report(env_benchmark(strokes=strokes, seed=seed, console=console), console)


def bench_throughput(
    games: Annotated[int, typer.Option("--games", min=1, max=1000, help="Seeded games on each engine.")] = 4,
    actions: Annotated[int, typer.Option("--actions", min=2, max=5000, help="Actions at most in a game.")] = 40,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the round robin.")] = 2014,
) -> None:
    """kaisa tournament's games and kaisa dataset's rows per CPU-second: Kaisa's engine v pooltool (stock,
    and with the fast layer: the default before) on the same seeded games, in one process."""
    from kaisa.bench.throughput import print_throughput_report, throughput

    ensure_reference()
    ensure_physics_ready()
    print_throughput_report(throughput(games=games, actions=actions, seed=seed, console=console), actions, console)


def bench_ai(
    layouts: Annotated[
        int, typer.Option("--layouts", min=1, max=100_000, help="Seeded 5-ball layouts for the single-shot tests.")
    ] = 200,
    games: Annotated[
        int, typer.Option("--games", min=0, max=10_000, help="Matches of each kind against the baseline.")
    ] = 10,
    noise: Annotated[float, typer.Option("--noise", min=0.0, help="Stroke-noise scale (1 = the convention).")] = 1.0,
    kinds: Annotated[
        str | None,
        typer.Option(
            "--kinds", help=f"Players to compare with the baseline, comma-separated (default: all): {KIND_NAMES}."
        ),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed for the layouts and the players.")] = 2014,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Write a plot of the noise sweep's called-pot success (.png, .svg or .pdf)."),
    ] = None,
    sweep: Annotated[
        str | None,
        typer.Option("--sweep", help="Noise scales for a sweep, e.g. 0.5,1,2 (with --plot: 0,0.5,1,2,4 if not given)."),
    ] = None,
) -> None:
    """Computer players side by side with the baseline on the same seeded layouts and matches."""
    from kaisa.bench.ai import DEFAULT_SWEEP, ai_benchmark, print_ai_report, write_sweep_plot
    from kaisa.players import PLAYER_KINDS

    chosen = split_kinds("--kinds", kinds) if kinds is not None else list(PLAYER_KINDS)
    if plot is not None and plot.suffix.lower() not in (".png", ".svg", ".pdf"):
        fail(f"--plot {plot}: the plot is written as .png, .svg or .pdf, chosen by the file's suffix")
    scales = list(DEFAULT_SWEEP) if plot is not None and sweep is None else []
    if sweep is not None:
        try:
            scales = [float(part) for part in sweep.split(",") if part.strip()]
        except ValueError:
            fail(f"--sweep takes comma-separated noise scales, e.g. 0.5,1,2, not {sweep!r}")
        if not scales or not all(math.isfinite(s) and s >= 0 for s in scales):
            fail(f"--sweep takes finite noise scales >= 0, not {sweep!r}")
    ensure_physics_ready()
    try:
        result = ai_benchmark(chosen, layouts, games, noise, seed, console, sweep=scales)
    except ValueError as exc:
        fail(exc)
    print_ai_report(result, console)
    if plot is not None:
        try:
            write_sweep_plot(result, plot)
        except OSError as exc:
            fail(f"cannot write {plot}: {exc.strerror or exc}")
        console.print(f"[dim]plot written to {plot}[/]")
