"""``kaisa match``: a whole match between computer players through the match session, with a live view.

Every action is recorded as it is played, so Ctrl+C (or a killed terminal) loses at most the stroke in flight:
the command says which match it saved and how to resume it (``kaisa match --resume N``)."""

from __future__ import annotations

import os
import sys
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kaisa.cli.common import (
    DB_HELP,
    KIND_HELP,
    Lang,
    check_kinds,
    check_lang,
    console,
    ensure_physics_ready,
    err_console,
    fail,
    parse_match_id,
)
from kaisa.cli.render import match_view, print_scoresheet
from kaisa.players.kinds import COMPUTER_KINDS

if TYPE_CHECKING:
    from kaisa.game import Match


def check_writable(path: Path, option: str = "--record") -> None:
    """Refuse an output path that cannot be written before the work is done, not after."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        fail(f"{option} {path} is a folder: give a file name in it")
    if not folder.is_dir():
        fail(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"{option} {path}: no permission to write there")


def _write_record(match: Match, record: Path, tags: dict[str, str]) -> None:
    from kaisa.records.notation import write_match

    try:
        record.write_text(write_match(match, tags), encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {record}: {exc.strerror or exc}")
    console.print(f"notation written to {record}", markup=False, style="dim")


def match_command(
    p1: Annotated[str, typer.Option("--p1", help=f"Player 1, {KIND_HELP}.")] = "baseline",
    p2: Annotated[str, typer.Option("--p2", help=f"Player 2, {KIND_HELP}.")] = "baseline",
    seed: Annotated[
        int,
        typer.Option("--seed", help="Seed for the players' decisions and the match's chance.", min=0, max=2**63 - 1),
    ] = 1,
    clock: Annotated[str, typer.Option("--clock", help="Competition clock: off, sim or wall.")] = "off",
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    record: Annotated[Path | None, typer.Option("--record", help="Also write the match notation to this file.")] = None,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store the match in a database.")] = False,
    resume: Annotated[
        int | None,
        typer.Option(
            "--resume",
            help="Play on a stored match from where it stopped (its id).",
            parser=parse_match_id,
            metavar="ID",
        ),
    ] = None,
    lang: Lang = "en",
) -> None:
    """Play a whole match between computer players, with a live view, and print the scoresheet."""
    from rich.live import Live

    from kaisa.errors import KaisaError
    from kaisa.game import ClockConfig
    from kaisa.players import MatchStalledError
    from kaisa.records.storage import PlayerInfo, open_store
    from kaisa.session.match import MatchSession
    from kaisa.session.registry import Sessions, match_config
    from kaisa.session.view import Played

    check_lang(lang)
    if clock not in ("off", "sim", "wall"):
        fail(f"--clock must be off, sim or wall, not {clock!r}")
    check_kinds("--p1", [p1])
    check_kinds("--p2", [p2])
    if resume is not None and no_db:
        fail("--resume plays on a stored match, so it needs the database: leave out --no-db")
    if resume is not None:
        given = [
            name
            for name, value, default in (("--p1", p1, "baseline"), ("--p2", p2, "baseline"), ("--seed", seed, 1))
            if value != default
        ] + (["--clock"] if clock != "off" else [])
        if given:
            fail(f"--resume plays the stored match with its own players, seed and clock: leave out {', '.join(given)}")
    if record is not None:
        check_writable(record)
    players = [PlayerInfo(f"{p1} 1", p1), PlayerInfo(f"{p2} 2", p2)]
    try:
        config = match_config(players, clock=ClockConfig(clock), seed=seed)
    except ValueError as exc:
        fail(exc)
    match_id: int | None = None
    tags = {"Seed": str(seed)}  # the notation's free tags; a stored match's own (kaisa matches export writes them too)
    try:
        if no_db:
            sessions = Sessions()
        else:
            store = open_store(db)
            sessions = Sessions(store)
            if resume is not None:
                info = store.match_info(resume)
                if info.status == "over":
                    fail(f"match {resume} is over; kaisa matches show {resume} prints its scoresheet")
                if any(not p.kind or p.kind not in COMPUTER_KINDS for p in info.players):
                    fail(f"match {resume} has a person playing: resume it in the browser (kaisa play)")
                match_id = resume
            else:
                match_id = sessions.create(players, clock=ClockConfig(clock), seed=seed)
            tags = store.match_info(match_id).record_tags()
    except KaisaError as exc:
        fail(exc)
    ensure_physics_ready()
    opened = None if match_id is None else sessions.open(match_id)
    session: MatchSession | None = None
    try:
        session = sessions.unrecorded(players, config) if opened is None else opened.__enter__()
        with Live(match_view(session.match, lang=lang), console=console, refresh_per_second=8, transient=False) as live:

            def on_played(played: Played) -> None:
                assert session is not None
                live.update(match_view(session.match, session.match.stack[-1], lang=lang))

            session.play_out(on_played)
        if not console.is_terminal:
            console.print()  # rich's last frame to a pipe or a file ends without a newline
    except (KeyboardInterrupt, BrokenProcessPool):
        # the search's workers ignore Ctrl+C (this process shuts them down here); were their pool broken all the
        # same (a worker killed), the match is saved as for Ctrl+C
        if "kaisa.players.search" in sys.modules:
            from kaisa.players.search import close_pool

            close_pool()
        if match_id is not None:
            if record is not None:
                _write_record(sessions.store.resume(match_id), record, tags)
            err_console.print(
                f"interrupted: saved as match {match_id}, resume with kaisa match --resume {match_id}", markup=False
            )
        elif record is not None and session is not None:
            _write_record(session.match, record, tags)
            err_console.print(f"interrupted: the match so far is in {record} (not in a database: --no-db)")
        else:
            err_console.print("interrupted: nothing saved (--no-db without --record)", markup=False)
        raise typer.Exit(code=130) from None
    except (MatchStalledError, KaisaError) as exc:
        fail(exc)
    finally:
        if opened is not None:
            opened.__exit__(None, None, None)
    assert session is not None
    match = session.match
    if match_id is not None:
        try:
            match = sessions.store.resume(match_id)  # the whole match, from its first action
        except KaisaError as exc:
            fail(exc)
    print_scoresheet(match, lang)
    if match_id is not None:
        console.print(f"match {match_id} stored in {sessions.store.url}", markup=False, style="dim")
    if record is not None:
        _write_record(match, record, tags)
