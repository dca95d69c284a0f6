"""``kaisa dataset``: self-play of computer players written to Parquet, locally or on Ray."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import console, ensure_physics_ready, fail


def dataset_command(
    players: Annotated[
        str,
        typer.Option(
            "--players", help="Computer players, comma-separated kinds; a kind twice plays itself, e.g. club,club."
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="Directory for strokes.parquet and its data card README.md.")],
    games: Annotated[int, typer.Option("--games", help="Matches per pair of players (sides alternate).")] = 2,
    backend: Annotated[
        str, typer.Option("--backend", help="Where the matches run: local (process pool) or ray.")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="Ray cluster to join (host:port, ray://host:port or auto).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Parallel matches (local pool, or a local Ray's CPUs); default min(2, cores)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole data set (>= 0).")] = 2014,
    noise: Annotated[float, typer.Option("--noise", help="Stroke-noise scale (1 = the convention).")] = 1.0,
    max_actions: Annotated[
        int | None, typer.Option("--max-actions", min=1, help="Cut each match after this many actions (unfinished).")
    ] = None,
) -> None:
    """Self-play strokes to learn from: every stroke of every match, with its position, state, call, intended and
    executed stroke, ruling and next position, in Parquet with a data card."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kaisa.research import MatchRows, write_dataset
    from kaisa.tournament import TournamentError, check_address, import_ray, make_backend, schedule

    kinds = [k.strip() for k in players.split(",") if k.strip()]
    try:
        schedule(kinds, games, seed, noise)  # checks the players, games, seed and noise before anything runs
        make_backend(backend, workers=workers, address=address)
        if backend == "ray":
            import_ray()
            if address is not None:
                check_address(address)
    except TournamentError as exc:
        fail(str(exc))
    if out.exists() and not out.is_dir():
        fail(f"--out {out} is a file: give a directory for strokes.parquet and README.md")
    ensure_physics_ready()
    if backend == "ray":
        where = f"the Ray cluster at {address}" if address else "a local Ray instance (about 10 s)"
        console.print(f"[dim]starting {where}...[/]")
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True,
    )  # fmt: skip
    task = progress.add_task(f"matches on the {backend} backend", total=None)
    strokes = 0

    def on_start(total: int) -> None:  # after the local pool's workers are forked
        progress.update(task, total=total)
        progress.start()

    def on_match(result: MatchRows) -> None:
        nonlocal strokes
        strokes += len(result.rows)
        names = " v ".join(result.spec.names)
        progress.update(task, advance=1, description=f"{names}: {strokes} strokes so far")

    words = ["kaisa", "dataset", "--players", ",".join(kinds), "--games", str(games), "--out", str(out)]
    words += ["--seed", str(seed), "--noise", f"{noise:g}", "--backend", backend]
    words += ["--address", address] if address else []
    words += ["--max-actions", str(max_actions)] if max_actions else []
    command = " ".join(shlex.quote(w) for w in words)  # the command that makes the same rows again
    try:
        written = write_dataset(
            kinds, games, out, seed=seed, noise=noise, backend=backend, workers=workers, address=address,
            max_actions=max_actions, on_start=on_start, on_match=on_match, command=command,
        )  # fmt: skip
    except TournamentError as exc:
        progress.stop()
        fail(str(exc))
    progress.stop()
    console.print(
        f"{written.strokes} strokes of {written.matches} matches ({written.unfinished} unfinished) in "
        f"{written.seconds:.0f} s on the {written.backend} backend"
    )
    console.print(f"[dim]written: {written.path} and its data card {written.card}[/]")
