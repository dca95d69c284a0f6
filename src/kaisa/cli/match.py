"""``kaisa match``: a whole match between computer players through the match session, with a live view."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import console, ensure_physics_ready, fail
from kaisa.cli.render import match_view, print_scoresheet
from kaisa.players.kinds import COMPUTER_KINDS


def match_command(
    p1: Annotated[
        str, typer.Option("--p1", help=f"Player 1: a computer player kind ({', '.join(COMPUTER_KINDS)}).")
    ] = "baseline",
    p2: Annotated[
        str, typer.Option("--p2", help=f"Player 2: a computer player kind ({', '.join(COMPUTER_KINDS)}).")
    ] = "baseline",
    seed: Annotated[int, typer.Option("--seed", help="Seed for the players' decisions and the match's chance.")] = 1,
    clock: Annotated[str, typer.Option("--clock", help="Competition clock: off, sim or wall.")] = "off",
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    record: Annotated[Path | None, typer.Option("--record", help="Also write the match notation to this file.")] = None,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store the match in a database.")] = False,
) -> None:
    """Play a whole match between computer players, with a live view, and print the scoresheet."""
    from rich.live import Live

    from kaisa.errors import KaisaError
    from kaisa.game import ClockConfig
    from kaisa.players import MatchStalledError
    from kaisa.records.storage import PlayerInfo, StorageError, open_store
    from kaisa.session import MatchSession, Played, Sessions, match_config

    if clock not in ("off", "sim", "wall"):
        fail(f"--clock must be off, sim or wall, not {clock!r}")
    for kind in (p1, p2):
        if kind not in COMPUTER_KINDS:
            fail(f"unknown player kind {kind!r}; the computer players are {', '.join(COMPUTER_KINDS)}")
    players = [PlayerInfo(f"{p1} 1", p1), PlayerInfo(f"{p2} 2", p2)]
    try:
        config = match_config(players, clock=ClockConfig(clock), seed=seed)
    except ValueError as exc:
        fail(str(exc))
    ensure_physics_ready()
    store_note = ""
    try:
        if no_db:
            sessions = Sessions()
            opened = None
        else:
            store = open_store(db)
            sessions = Sessions(store)
            match_id = sessions.create(players, clock=ClockConfig(clock), seed=seed)
            opened = sessions.open(match_id)
            store_note = f"match {match_id} stored in {store.url}"
    except StorageError as exc:
        fail(str(exc))
    session: MatchSession = sessions.unrecorded(players, config) if opened is None else opened.__enter__()
    try:
        with Live(match_view(session.match), console=console, refresh_per_second=8, transient=False) as live:

            def on_played(played: Played) -> None:
                live.update(match_view(session.match, session.match.stack[-1]))

            session.play_out(on_played)
    except (MatchStalledError, KaisaError) as exc:
        fail(str(exc))
    finally:
        if opened is not None:
            opened.__exit__(None, None, None)
    match = session.match
    print_scoresheet(match)
    if store_note:
        console.print(f"[dim]{store_note}[/]")
    if record is not None:
        from kaisa.records.notation import write_match

        record.write_text(write_match(match), encoding="utf-8")
        console.print(f"[dim]notation written to {record}[/]")
