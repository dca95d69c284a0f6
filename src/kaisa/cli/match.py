"""``kaisa match``: a whole match between computer players, with a live view."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kaisa.cli.common import console, ensure_physics_ready, fail
from kaisa.cli.render import match_view, print_scoresheet


def match_command(
    p1: Annotated[str, typer.Option("--p1", help="Player 1: a computer player kind (baseline).")] = "baseline",
    p2: Annotated[str, typer.Option("--p2", help="Player 2: a computer player kind (baseline).")] = "baseline",
    seed: Annotated[int, typer.Option("--seed", help="Seed for the players' decisions and noise.")] = 1,
    clock: Annotated[str, typer.Option("--clock", help="Competition clock: off, sim or wall.")] = "off",
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    record: Annotated[Path | None, typer.Option("--record", help="Also write the match notation to this file.")] = None,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store the match in a database.")] = False,
) -> None:
    """Play a whole match between computer players, with a live view, and print the scoresheet."""
    from rich.live import Live

    from kaisa.game import ClockConfig, Match, MatchConfig
    from kaisa.players import MatchStalledError, make_player, play_match

    if clock not in ("off", "sim", "wall"):
        fail(f"--clock must be off, sim or wall, not {clock!r}")
    try:
        players = (make_player(p1, f"{p1} 1", seed), make_player(p2, f"{p2} 2", seed + 1))
    except ValueError as exc:
        fail(str(exc))
    config = MatchConfig(players=(players[0].name, players[1].name), clock=ClockConfig(clock))
    ensure_physics_ready()
    match = Match(config)
    callbacks = []
    store_note = ""
    if not no_db:
        from kaisa.records.storage import StorageError, open_store

        try:
            store = open_store(db)
            match_id = store.create_match(config, seed=seed, kinds=(p1, p2))
        except StorageError as exc:
            fail(str(exc))
        callbacks.append(store.recorder(match_id))
        store_note = f"match {match_id} stored in {store.url}"
    with Live(match_view(match), console=console, refresh_per_second=8, transient=False) as live:

        def on_entry(m: Any, entry: Any) -> None:
            for callback in callbacks:
                callback(m, entry)
            live.update(match_view(m, entry))

        try:
            play_match(match, players, on_entry=on_entry)
        except MatchStalledError as exc:
            fail(str(exc))
    print_scoresheet(match)
    if store_note:
        console.print(f"[dim]{store_note}[/]")
    if record is not None:
        from kaisa.records.notation import write_match

        record.write_text(write_match(match), encoding="utf-8")
        console.print(f"[dim]notation written to {record}[/]")
