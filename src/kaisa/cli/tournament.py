"""``kaisa tournament``: a round robin between computer players, locally or on Ray."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import (
    DB_HELP,
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


def tournament_command(
    players: Annotated[str, typer.Option("--players", help=f"Computer players, comma-separated; each is {KIND_HELP}.")],
    games: Games = 2,
    backend: Backend = "local",
    address: Address = None,
    workers: Workers = None,
    seed: RunSeed = 2014,
    noise: Noise = 1.0,
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write results.csv, results.json and ratings.png into this directory.")
    ] = None,
) -> None:
    """A round robin between computer players: every match stored, players rated (Bradley-Terry, Elo scale)."""
    from kaisa.records.storage import StorageError, open_store
    from kaisa.tournament import GameResult, TournamentError, print_tournament, run_tournament, write_outputs

    kinds = split_kinds("--players", players)
    check_run(kinds, games, seed, noise, backend, workers, address)  # before anything runs
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)  # before the games, not after them
        except OSError as exc:
            fail(f"--out {out}: cannot make the results directory: {exc.strerror or exc}")
    try:
        store = open_store(db)
    except StorageError as exc:
        fail(exc)
    ensure_physics_ready()
    if backend == "ray":
        where = f"the Ray cluster at {address}" if address else "a local Ray instance (about 10 s)"
        console.print(f"[dim]starting {where}...[/]")
    bar = progress()
    task = bar.add_task(f"tournament on the {backend} backend", total=None)

    def on_start(total: int) -> None:  # after the local pool's workers are forked
        bar.update(task, total=total)
        bar.start()

    def on_game(result: GameResult) -> None:
        bar.update(task, advance=1, description=f"{result.spec.names[0]} v {result.spec.names[1]}")

    try:
        with store:
            result = run_tournament(
                kinds, games, seed=seed, noise=noise, backend=backend, workers=workers, address=address,
                store=store, on_start=on_start, on_game=on_game,
            )  # fmt: skip
    except (TournamentError, StorageError) as exc:
        bar.stop()
        fail(exc)
    bar.stop()
    print_tournament(result, console)
    if out is not None:
        try:
            paths = write_outputs(result, out)
        except OSError as exc:
            fail(f"cannot write the results into {out}: {exc.strerror or exc}")
        console.print(f"[dim]results written to {out}: {', '.join(p.name for p in paths)}[/]")
