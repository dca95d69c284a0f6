"""``kaisa replay``, ``kaisa stats`` and ``kaisa matches``: match records, the statistics kept over them, and the
stored matches (list, show, export to the notation, delete)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kaisa.cli.common import (
    DB_HELP,
    MAX_ID,
    Lang,
    check_lang,
    console,
    ensure_physics_ready,
    err_console,
    fail,
    parse_match_id,
    progress,
    read_text,
)
from kaisa.cli.render import print_match_list, print_scoresheet, print_stats
from kaisa.errors import KaisaError

if TYPE_CHECKING:
    from kaisa.records.storage import Store


def _open(db: str | None) -> Store:
    from kaisa.records.storage import open_store

    try:
        return open_store(db)
    except KaisaError as exc:
        fail(exc)


def replay_command(
    file: Annotated[Path, typer.Argument(help="A match record in the match notation.")],
    store_it: Annotated[
        bool,
        typer.Option("--store", help="After verifying it, store the match in the database (once: a copy is refused)."),
    ] = False,
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    lang: Lang = "en",
) -> None:
    """Re-play a match record stroke by stroke and check that every ruling and the result come out the same."""
    from kaisa.records.notation import parse_record, replay_record

    check_lang(lang)
    text = read_text(file, "match record")
    try:
        record = parse_record(text)
    except KaisaError as exc:
        fail(exc)
    actions = len(record.actions)
    store = _open(db) if store_it else None  # a database that cannot be opened is said before the replay
    ensure_physics_ready()
    try:
        with progress() as bar:
            task = bar.add_task("re-playing the record", total=actions)
            match = replay_record(text, on_action=lambda: bar.advance(task))
    except KaisaError as exc:
        fail(exc)
    verified = {
        "fi": "[green]tarkistettu[/]: {0} kirjausta, {1} lyöntiä, jokainen tuomio kuten pöytäkirjassa",
        "en": "[green]verified[/]: {0} actions, {1} strokes, every ruling as recorded",
    }[lang]
    console.print(verified.format(len(match.stack), match.state.strokes))
    print_scoresheet(match, lang)
    if store is not None:
        from kaisa.records.storage import DuplicateMatchError

        try:
            seed_tag = record.tags.get("Seed", "")
            seed = int(seed_tag) if seed_tag.isdigit() and int(seed_tag) < 2**63 else None  # free text in a record
            match_id = store.import_match(match, unique=True, event=record.tags.get("Event") or None, seed=seed)
        except DuplicateMatchError as exc:
            console.print(f"already stored as match {exc.match_id} in {store.url}: not stored again", markup=False)
            return
        except KaisaError as exc:
            fail(exc)
        console.print(f"stored as match {match_id} in {store.url}", markup=False, style="dim")


def stats_command(
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    record: Annotated[
        list[Path] | None, typer.Option("--record", help="Match record files instead of the database.")
    ] = None,
    match_id: Annotated[
        int | None, typer.Option("--match", help="Only this stored match.", parser=parse_match_id, metavar="ID")
    ] = None,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
    lang: Lang = "en",
) -> None:
    """Statistics per player: wins, points, innings, runs (sarja), points per inning, called-pot success, fouls.

    Stored matches are read from their stored rulings (no stroke is simulated again); record files are re-played
    and checked."""
    from kaisa.records.stats import MatchStats, aggregate, record_stats, stored_stats, to_csv, to_json

    check_lang(lang)
    if as_csv and as_json:
        fail("give --csv or --json, not both")
    quiet = as_csv or as_json
    matches: list[MatchStats] = []
    try:
        if record:
            texts = [read_text(path, "match record") for path in record]
            ensure_physics_ready(quiet=quiet)
            with progress(quiet) as bar:
                task = bar.add_task("re-playing the records", total=len(texts))
                for text in texts:
                    matches.append(record_stats(text))
                    bar.advance(task)
        else:
            store = _open(db)
            ids = [match_id] if match_id is not None else [m.id for m in store.list_matches()]
            with progress(quiet) as bar:
                task = bar.add_task("reading the stored rulings", total=len(ids))
                for stats in stored_stats(store, ids):
                    matches.append(stats)
                    bar.advance(task)
    except KaisaError as exc:
        fail(exc)
    totals = aggregate(matches)
    if as_csv:
        sys.stdout.write(to_csv(totals))
        return
    if as_json:
        sys.stdout.write(to_json(totals) + "\n")
        return
    print_stats(totals, len(matches), lang)


# --- kaisa matches ---------------------------------------------------------------------------------------

matches_app = typer.Typer(
    help="The stored matches: list them, show one, export one to the match notation, delete one.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@matches_app.command("list")
def matches_list(
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    status: Annotated[str | None, typer.Option("--status", help="Only matches playing or over.")] = None,
    player: Annotated[
        str | None, typer.Option("--player", help="Only matches of a player whose name has this.")
    ] = None,
    event: Annotated[str | None, typer.Option("--event", help="Only matches of this event (club night).")] = None,
    last: Annotated[int | None, typer.Option("--last", help="Only the last N matches.", min=1, max=MAX_ID)] = None,
) -> None:
    """List the stored matches, oldest first: id, players, status, score, actions, when."""
    if status not in (None, "playing", "over"):
        fail(f"--status is playing or over, not {status!r}")
    store = _open(db)
    try:
        infos = store.list_matches(status=status, event=event)
    except KaisaError as exc:
        fail(exc)
    if player is not None:
        needle = player.casefold()
        infos = [m for m in infos if any(needle in p.name.casefold() for p in m.players)]
    if last is not None:
        infos = infos[-last:]
    print_match_list(infos, store.url)


@matches_app.command("show")
def matches_show(
    match_id: Annotated[
        int, typer.Argument(help="The stored match's id (kaisa matches list).", parser=parse_match_id, metavar="ID")
    ],
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    lang: Lang = "en",
) -> None:
    """Show one stored match: its players, where it stands and its scoresheet (no stroke is simulated)."""
    check_lang(lang)
    store = _open(db)
    try:
        info = store.match_info(match_id)
        match = store.resume(match_id)
    except KaisaError as exc:
        fail(exc)
    print_match_list([info], store.url)
    print_scoresheet(match, lang)
    if info.status == "playing":
        console.print(f"resume with: kaisa match --resume {match_id}", markup=False)


@matches_app.command("export")
def matches_export(
    match_id: Annotated[
        int, typer.Argument(help="The stored match's id (kaisa matches list).", parser=parse_match_id, metavar="ID")
    ],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the record here (default: print it).")] = None,
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
) -> None:
    """Export a stored match to the match notation (kaisa replay reads it back)."""
    from kaisa.records.notation import write_match

    store = _open(db)
    try:
        text = write_match(store.resume(match_id), store.match_info(match_id).record_tags())
    except KaisaError as exc:
        fail(exc)
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {out}: {exc.strerror or exc}")
    err_console.print(f"match {match_id} written to {out}", markup=False)


@matches_app.command("delete")
def matches_delete(
    match_id: Annotated[
        int, typer.Argument(help="The stored match's id (kaisa matches list).", parser=parse_match_id, metavar="ID")
    ],
    yes: Annotated[bool, typer.Option("--yes", help="Delete without asking.")] = False,
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
) -> None:
    """Delete a stored match with all its actions (export it first to keep a copy)."""
    store = _open(db)
    try:
        info = store.match_info(match_id)
    except KaisaError as exc:
        fail(exc)
    names = " v ".join(p.name for p in info.players)
    if not yes and not typer.confirm(f"delete match {match_id} ({names}, {info.actions} actions)?", default=False):
        fail("not deleted")
    try:
        store.delete_match(match_id)
    except KaisaError as exc:
        fail(exc)
    console.print(f"match {match_id} deleted", markup=False)


def bench_records_command(
    matches: Annotated[
        int, typer.Option("--matches", min=1, max=100_000, help="Stored matches for kaisa stats.")
    ] = 1000,
    played: Annotated[int, typer.Option("--played", min=1, max=50, help="Matches played and timed both ways.")] = 3,
    seed: Annotated[int, typer.Option("--seed", min=0, max=2**31, help="Seed of the played matches.")] = 2014,
    db: Annotated[
        str | None, typer.Option("--db", help="An empty database to fill (default: a temporary SQLite file).")
    ] = None,
) -> None:
    """Statistics of stored matches read from the stored rulings v re-played through the physics, per match,
    side by side; and kaisa stats over --matches stored matches (copies of the played ones)."""
    import tempfile

    from kaisa.bench.records import print_records_bench, run_records_bench

    ensure_physics_ready()
    with tempfile.TemporaryDirectory(prefix="kaisa-bench-records-") as folder:
        url = db or f"sqlite:///{Path(folder) / 'records.sqlite3'}"
        if db is not None and _open(db).list_matches():
            fail(f"--db {db} already holds matches: give an empty database (copies would be added to it)")
        try:
            result = run_records_bench(console, url, played, matches, seed)
        except KaisaError as exc:
            fail(exc)
    print_records_bench(console, result)
