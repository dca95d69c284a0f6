"""``kaisa replay`` and ``kaisa stats``: match records and the statistics kept over them."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import console, ensure_physics_ready, err_console, fail
from kaisa.cli.render import print_scoresheet, print_stats
from kaisa.errors import KaisaError


def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record in the match notation.")],
    store_it: Annotated[
        bool, typer.Option("--store", help="After verifying it, store the match in the database.")
    ] = False,
    db: Annotated[
        str | None, typer.Option("--db", help="Database URL for --store (default: SQLite in the user data dir).")
    ] = None,
) -> None:
    """Re-play a match record stroke by stroke and check that every ruling and the result come out the same."""
    from kaisa.records.notation import replay_record

    try:
        text = file.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {file}: {exc.strerror or exc}")
    ensure_physics_ready()
    try:
        with err_console.status("re-playing every stroke..."):
            match = replay_record(text)
    except KaisaError as exc:
        fail(str(exc))
    console.print(
        f"[green]verified[/]: {len(match.stack)} actions, {match.state.strokes} strokes, every ruling as recorded"
    )
    print_scoresheet(match)
    if store_it:
        from kaisa.records.storage import open_store

        try:
            store = open_store(db)
            match_id = store.import_match(match)
        except KaisaError as exc:
            fail(str(exc))
        console.print(f"[dim]stored as match {match_id} in {store.url}[/]")


def stats_command(
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    record: Annotated[
        list[Path] | None, typer.Option("--record", help="Match record files instead of the database.")
    ] = None,
    match_id: Annotated[int | None, typer.Option("--match", help="Only this stored match.")] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Statistics per player: points, innings, runs (sarja), points per inning, called-pot success, fouls."""
    from kaisa.game import replay
    from kaisa.records.stats import aggregate, match_stats, record_stats, to_csv, to_json

    ensure_physics_ready(quiet=as_csv or as_json)
    try:
        if record:
            matches = [record_stats(path.read_text(encoding="utf-8")) for path in record]
        else:
            from kaisa.records.storage import open_store

            store = open_store(db)
            ids = [match_id] if match_id is not None else [m.id for m in store.list_matches()]
            matches = []
            for mid in ids:
                config, _, actions = store.load(mid)
                matches.append(match_stats(replay(config, actions), event=f"match {mid}"))
    except (KaisaError, OSError) as exc:
        fail(str(exc))
    totals = aggregate(matches)
    if as_csv:
        sys.stdout.write(to_csv(totals))
        return
    if as_json:
        sys.stdout.write(to_json(totals) + "\n")
        return
    print_stats(totals, len(matches))
