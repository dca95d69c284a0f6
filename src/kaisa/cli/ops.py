"""``kaisa backup`` and ``kaisa restore``: a copy of the match records while the server runs, and back."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kaisa.cli.common import DB_HELP, Lang, check_lang, console, fail


def counted(matches: int, competitions: int) -> dict[str, str]:
    """How many matches and competitions, in Finnish and English."""
    return {
        "fi": f"{matches} {'ottelu' if matches == 1 else 'ottelua'}, "
        f"{competitions} {'kilpailu' if competitions == 1 else 'kilpailua'}",
        "en": f"{matches} {'match' if matches == 1 else 'matches'}, "
        f"{competitions} {'competition' if competitions == 1 else 'competitions'}",
    }


FORCE_BACKUP_HELP = "Replace a file already at TARGET."
FORCE_RESTORE_HELP = "Replace what the database already holds with the backup (without it, only an empty one)."


def backup_command(
    target: Annotated[Path, typer.Argument(help="The backup file to write (SQLite file, or pg_dump archive).")],
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_BACKUP_HELP)] = False,
    lang: Lang = "en",
) -> None:
    """Back up the match records into one file, safely while kaisa club runs (SQLite's online backup; pg_dump
    for PostgreSQL)."""
    from kaisa.records.storage.backup import backup
    from kaisa.records.storage.errors import StorageError

    lang = check_lang(lang)
    try:
        done = backup(db, target, overwrite=force)
    except StorageError as error:
        fail(error)
    held = counted(done.matches, done.competitions)
    said = {
        "fi": f"Varmuuskopioitu {done.url} tiedostoon {done.path}: {held['fi']}.",
        "en": f"Backed up {done.url} to {done.path}: {held['en']}.",
    }
    console.print(said[lang], markup=False, soft_wrap=True)


def restore_command(
    source: Annotated[Path, typer.Argument(help="A backup file made by kaisa backup.")],
    db: Annotated[str | None, typer.Option("--db", help=DB_HELP)] = None,
    force: Annotated[bool, typer.Option("--force", help=FORCE_RESTORE_HELP)] = False,
    lang: Lang = "en",
) -> None:
    """Restore a backup into an empty database (stop the servers that use it first)."""
    from kaisa.records.storage.backup import restore
    from kaisa.records.storage.errors import StorageError

    lang = check_lang(lang)
    try:
        done = restore(source, db, replace=force)
    except StorageError as error:
        fail(error)
    said = {
        "fi": f"Palautettu {done.path} tietokantaan {done.url}: {done.matches} ottelua, {done.competitions} kilpailua.",
        "en": f"Restored {done.path} into {done.url}: {done.matches} matches, {done.competitions} competitions.",
    }
    console.print(said[lang], markup=False, soft_wrap=True)


__all__ = ["backup_command", "restore_command"]
