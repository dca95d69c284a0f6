"""``kaisa tournament``: a round robin between computer players, locally or on Ray."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import console, ensure_physics_ready, fail


def tournament_command(
    players: Annotated[
        str, typer.Option("--players", help="Computer players, comma-separated kinds, e.g. baseline,beginner,club.")
    ],
    games: Annotated[int, typer.Option("--games", help="Games per pair of players (sides alternate).")] = 2,
    backend: Annotated[
        str, typer.Option("--backend", help="Where the games run: local (process pool) or ray.")
    ] = "local",
    address: Annotated[
        str | None, typer.Option("--address", help="Ray cluster to join (host:port, ray://host:port or auto).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Parallel games (local pool, or a local Ray's CPUs); default min(2, cores)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the whole tournament (>= 0).")] = 2014,
    noise: Annotated[float, typer.Option("--noise", help="Stroke-noise scale (1 = the convention).")] = 1.0,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write results.csv, results.json and ratings.png into this directory.")
    ] = None,
) -> None:
    """A round robin between computer players: every match stored, players rated (Bradley-Terry, Elo scale)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from kaisa.records.storage import StorageError, open_store
    from kaisa.tournament import (
        GameResult,
        TournamentError,
        check_address,
        import_ray,
        make_backend,
        print_tournament,
        run_tournament,
        schedule,
        write_outputs,
    )

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
    if out is not None:
        try:
            out.mkdir(parents=True, exist_ok=True)  # before the games, not after them
        except OSError as exc:
            fail(f"--out {out}: cannot make the results directory: {exc.strerror or exc}")
    try:
        store = open_store(db)
    except StorageError as exc:
        fail(str(exc))
    ensure_physics_ready()
    if backend == "ray":
        where = f"the Ray cluster at {address}" if address else "a local Ray instance (about 10 s)"
        console.print(f"[dim]starting {where}...[/]")
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True,
    )  # fmt: skip
    task = progress.add_task(f"tournament on the {backend} backend", total=None)

    def on_start(total: int) -> None:  # after the local pool's workers are forked
        progress.update(task, total=total)
        progress.start()

    def on_game(result: GameResult) -> None:
        progress.update(task, advance=1, description=f"{result.spec.names[0]} v {result.spec.names[1]}")

    try:
        with store:
            result = run_tournament(
                kinds, games, seed=seed, noise=noise, backend=backend, workers=workers, address=address,
                store=store, on_start=on_start, on_game=on_game,
            )  # fmt: skip
    except (TournamentError, StorageError) as exc:
        progress.stop()
        fail(str(exc))
    progress.stop()
    print_tournament(result, console)
    if out is not None:
        try:
            paths = write_outputs(result, out)
        except OSError as exc:
            fail(f"cannot write the results into {out}: {exc.strerror or exc}")
        console.print(f"[dim]results written to {out}: {', '.join(p.name for p in paths)}[/]")
