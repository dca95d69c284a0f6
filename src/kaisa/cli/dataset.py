"""``kaisa dataset``: self-play of computer players written to Parquet, locally or on Ray."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import (
    KIND_HELP,
    Address,
    Backend,
    Games,
    Noise,
    RunSeed,
    Workers,
    check_run,
    console,
    ensure_physics_ready,
    fail,
    progress,
    split_kinds,
)


def dataset_command(
    players: Annotated[
        str,
        typer.Option(
            "--players", help=f"Computer players, comma-separated (a kind twice plays itself); each is {KIND_HELP}."
        ),
    ],
    out: Annotated[Path, typer.Option("--out", help="Directory for strokes.parquet and its data card README.md.")],
    games: Games = 2,
    backend: Backend = "local",
    address: Address = None,
    workers: Workers = None,
    seed: RunSeed = 2014,
    noise: Noise = 1.0,
    max_actions: Annotated[
        int | None, typer.Option("--max-actions", min=1, help="Cut each match after this many actions (unfinished).")
    ] = None,
) -> None:
    """Self-play strokes to learn from: every stroke of every match, with its position, state, call, intended and
    executed stroke, ruling and next position, in Parquet with a data card."""
    from kaisa.research import MatchRows, write_dataset
    from kaisa.tournament import TournamentError

    kinds = split_kinds("--players", players)
    check_run(kinds, games, seed, noise, backend, workers, address)  # before anything runs
    if out.exists() and not out.is_dir():
        fail(f"--out {out} is a file: give a directory for strokes.parquet and README.md")
    ensure_physics_ready()
    if backend == "ray":
        where = f"the Ray cluster at {address}" if address else "a local Ray instance (about 10 s)"
        console.print(f"[dim]starting {where}...[/]")
    bar = progress()
    task = bar.add_task(f"matches on the {backend} backend", total=None)
    strokes = 0

    def on_start(total: int) -> None:  # after the local pool's workers are forked
        bar.update(task, total=total)
        bar.start()

    def on_match(result: MatchRows) -> None:
        nonlocal strokes
        strokes += len(result.rows)
        names = " v ".join(result.spec.names)
        bar.update(task, advance=1, description=f"{names}: {strokes} strokes so far")

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
        bar.stop()
        fail(exc)
    bar.stop()
    console.print(
        f"{written.strokes} strokes of {written.matches} matches ({written.unfinished} unfinished) in "
        f"{written.seconds:.0f} s on the {written.backend} backend"
    )
    console.print(f"[dim]written: {written.path} and its data card {written.card}[/]")
