"""Backing up and restoring a match-records database, and its health, for the people who run a server.

- SQLite: SQLite's online backup API copies the file page by page in one read transaction, so a backup taken
  while ``kaisa club`` records strokes is a consistent snapshot (WAL readers never block the writer). The copy
  is written beside the target and renamed into place, so a failed backup never leaves a half-written file.
- PostgreSQL: ``pg_dump --format=custom`` and ``pg_restore`` (the server's own tools, from PATH or
  ``/usr/lib/postgresql/*/bin``); the password travels in ``PGPASSWORD``, never on a command line.

A restore refuses a target database that already holds records unless told to replace them
(:class:`DatabaseNotEmptyError`), and brings an older backup's schema to the current one. A restore into
PostgreSQL runs in one transaction: it is whole or not at all.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import URL, Connection, exc, inspect, text

from kaisa.errors import ErrorText
from kaisa.records.storage.engine import first_line, is_current, make_engine, parse_url, shown
from kaisa.records.storage.errors import DatabaseUnavailableError, StorageError
from kaisa.records.storage.migrations import shipped_head

if TYPE_CHECKING:
    from kaisa.records.storage.store import Store

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"
PG_TOOLS_TIMEOUT = 3600.0
"""Seconds a pg_dump or pg_restore may run (a federation's whole history is well under that)."""


class BackupError(StorageError):
    """A backup or restore could not be made; nothing was changed (a failed restore into PostgreSQL is rolled
    back, a failed backup leaves no file)."""

    code = "backup-failed"
    kind = ErrorText("Varmuuskopiointi tai palautus epäonnistui.", "The backup or restore failed.")


class DatabaseNotEmptyError(BackupError):
    """The restore's target database already holds records: restoring would replace them."""

    code = "database-not-empty"
    kind = ErrorText("Tietokannassa on jo tietoja.", "The database already holds records.")

    def __init__(self, url: str, rows: int) -> None:
        super().__init__(
            f"the database {url} is not empty ({rows} rows): a restore would replace them; restore into a new "
            "database, or give --force to replace its contents with the backup"
        )
        self.text = ErrorText(
            f"Tietokannassa {url} on jo tietoja ({rows} riviä): palautus korvaisi ne. Palauta uuteen "
            "tietokantaan tai anna --force, jos sisältö korvataan varmuuskopiolla.",
            str(self),
        )


@dataclass(frozen=True)
class BackupSummary:
    """What a backup or restore did: the database (without its password), the file, and how many matches and
    competitions the copy holds."""

    url: str
    path: Path
    backend: str
    matches: int
    competitions: int


# --- backing up ---------------------------------------------------------------------------------------------


def backup(url: str | os.PathLike[str] | None, target: Path, *, overwrite: bool = False) -> BackupSummary:
    """Copy the database at ``url`` (as :func:`~kaisa.records.storage.open_store` reads it) into the file
    ``target``: an SQLite database file for SQLite, a ``pg_dump`` custom-format archive for PostgreSQL. A
    file already at ``target`` is refused unless ``overwrite``."""
    parsed = parse_url(url)
    if target.exists() and not overwrite:
        raise BackupError(
            f"the backup file {target} already exists: name a new file, or give --force to replace it",
            fi=f"Varmuuskopiotiedosto {target} on jo olemassa: anna uusi nimi tai --force, jos se korvataan.",
        )
    if target.exists() and not target.is_file():
        raise BackupError(f"{target} is not a file: name a file for the backup")
    if not target.parent.is_dir():
        raise BackupError(
            f"the folder {target.parent} does not exist: create it first, or name a file in an existing folder",
            fi=f"Kansiota {target.parent} ei ole: luo se ensin tai anna tiedosto olemassa olevaan kansioon.",
        )
    _check_source(parsed)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        _sqlite_backup(_sqlite_path(parsed), target)
    elif backend == "postgresql":
        _pg_dump(parsed, target)
    else:
        raise BackupError(f"cannot back up a {backend} database: kaisa backs up SQLite and PostgreSQL")
    return _summary(parsed, target)


def _check_source(url: URL) -> None:
    """The database exists, is reachable and is a kaisa database (its schema at any revision)."""
    if url.get_backend_name() == "sqlite" and not Path(_sqlite_path(url)).is_file():
        raise DatabaseUnavailableError(
            f"there is no SQLite database at {_sqlite_path(url)}: give --db the file the server uses",
            fi=f"Tiedostossa {_sqlite_path(url)} ei ole SQLite-tietokantaa: anna --db-valitsimelle palvelimen "
            "käyttämä tiedosto.",
        )
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            if not inspect(connection).has_table("alembic_version"):
                raise BackupError(
                    f"the database {shown(url)} holds no kaisa records (no schema version): nothing to back up",
                    fi=f"Tietokannassa {shown(url)} ei ole Kaisan tietoja: varmuuskopioitavaa ei ole.",
                )
    except (exc.OperationalError, exc.InterfaceError) as error:
        raise DatabaseUnavailableError(f"cannot open the database at {shown(url)}: {first_line(error)}") from None
    finally:
        engine.dispose()


def _sqlite_path(url: URL) -> str:
    database = url.database or ""
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up or restore into: name a file")
    return database


def _sqlite_backup(source: str, target: Path) -> None:
    handle, scratch = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(handle)
    try:
        with closing(sqlite3.connect(source, timeout=30)) as reading, closing(sqlite3.connect(scratch)) as writing:
            reading.backup(writing)  # every page in one step: one read transaction, one consistent snapshot
            writing.execute("PRAGMA journal_mode = DELETE")  # the copy is one self-contained file
            checked = writing.execute("PRAGMA integrity_check").fetchone()
        if checked is None or checked[0] != "ok":
            raise BackupError(f"the copy of {source} failed SQLite's integrity check: {checked}")
        os.replace(scratch, target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot back up the SQLite database {source} to {target}: {error}") from None
    except OSError as error:
        raise BackupError(f"cannot write the backup {target}: {error.strerror or error}") from None
    finally:
        Path(scratch).unlink(missing_ok=True)


# --- restoring ----------------------------------------------------------------------------------------------


def restore(source: Path, url: str | os.PathLike[str] | None, *, replace: bool = False) -> BackupSummary:
    """Restore the backup ``source`` (made by :func:`backup`) into the database at ``url``, which must be empty
    (a new SQLite file, or a PostgreSQL database without kaisa's tables) unless ``replace``; then bring its
    schema to the current revision. Stop the servers using the database first."""
    parsed = parse_url(url)
    kind = backup_kind(source)
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupError(f"cannot restore into a {backend} database: kaisa restores SQLite and PostgreSQL")
    if kind != backend:
        said = {"sqlite": "an SQLite database file", "postgresql": "a PostgreSQL archive (pg_dump)"}[kind]
        raise BackupError(
            f"{source} is {said}: restore it into a {kind} database, not into {shown(parsed)}",
            fi=f"{source} on {'SQLite-varmuuskopio' if kind == 'sqlite' else 'PostgreSQL-varmuuskopio'}: palauta "
            f"se samanlaiseen tietokantaan, ei tietokantaan {shown(parsed)}.",
        )
    rows = stored_rows(parsed)
    if rows and not replace:
        raise DatabaseNotEmptyError(shown(parsed), rows)
    if backend == "sqlite":
        _sqlite_restore(source, _sqlite_path(parsed))
    else:
        _pg_restore(source, parsed, clean=rows > 0 or replace)
    from kaisa.records.storage.store import open_store

    open_store(parsed.render_as_string(hide_password=False)).close()  # an older backup's schema brought current
    return _summary(parsed, source)


def backup_kind(source: Path) -> str:
    """``sqlite`` or ``postgresql``: which kind of backup the file is, by its first bytes."""
    try:
        with source.open("rb") as stream:
            head = stream.read(len(SQLITE_MAGIC))
    except FileNotFoundError:
        raise BackupError(
            f"the backup file {source} does not exist", fi=f"Varmuuskopiotiedostoa {source} ei ole."
        ) from None
    except OSError as error:
        raise BackupError(f"cannot read the backup file {source}: {error.strerror or error}") from None
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise BackupError(
        f"{source} is not a kaisa backup: expected an SQLite database file or a pg_dump custom-format archive "
        "(what kaisa backup writes)",
        fi=f"{source} ei ole Kaisan varmuuskopio (kaisa backup -komennon tekemä).",
    )


def stored_rows(url: URL) -> int:
    """How many rows the database's tables hold, Alembic's version row aside (0: empty, or no such SQLite file)."""
    if url.get_backend_name() == "sqlite" and not Path(_sqlite_path(url)).exists():
        return 0
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            tables = [t for t in inspect(connection).get_table_names() if t != "alembic_version"]
            preparer = connection.dialect.identifier_preparer
            return sum(
                int(connection.execute(text(f"SELECT count(*) FROM {preparer.quote(t)}")).scalar_one()) for t in tables
            )
    except (exc.OperationalError, exc.InterfaceError) as error:
        raise DatabaseUnavailableError(f"cannot open the database at {shown(url)}: {first_line(error)}") from None
    except exc.DatabaseError as error:
        raise BackupError(f"cannot read the database at {shown(url)}: {first_line(error)}") from None
    finally:
        engine.dispose()


def _sqlite_restore(source: Path, target: str) -> None:
    try:
        with closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as reading:
            checked = reading.execute("PRAGMA integrity_check").fetchone()
            if checked is None or checked[0] != "ok":
                raise BackupError(f"the backup {source} fails SQLite's integrity check: {checked}")
            with closing(sqlite3.connect(target, timeout=30)) as writing:
                reading.backup(writing)  # the target's pages replaced by the backup's, in one transaction
    except sqlite3.Error as error:
        raise BackupError(f"cannot restore {source} into {target}: {error}") from None


# --- PostgreSQL's own tools ---------------------------------------------------------------------------------


def pg_tool(name: str) -> str:
    """``pg_dump`` or ``pg_restore``: from PATH, else the newest ``/usr/lib/postgresql/*/bin``."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda p: p.parent.parent.name)
    if installed:
        return str(installed[-1])
    raise BackupError(
        f"{name} is not installed: PostgreSQL backups use PostgreSQL's own tools "
        "(Debian/Ubuntu: apt-get install postgresql-client)",
        fi=f"{name} puuttuu: PostgreSQL-varmuuskopiot tehdään PostgreSQL:n omilla työkaluilla "
        "(Debian/Ubuntu: apt-get install postgresql-client).",
    )


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """The connection string without the password, and the environment carrying it."""
    from psycopg.conninfo import make_conninfo

    params = {
        key: str(value)
        for key, value in (("host", url.host), ("port", url.port), ("user", url.username), ("dbname", url.database))
        if value is not None
    }
    params.update({k: str(v) for k, v in url.query.items() if isinstance(v, str)})
    env = dict(os.environ)
    if url.password is not None:
        env["PGPASSWORD"] = str(url.password)
    return make_conninfo(**params), env


def _run_pg(command: list[str], env: dict[str, str], doing: str) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=PG_TOOLS_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise BackupError(f"cannot {doing}: {error}") from None
    if done.returncode != 0:
        said = next((line for line in done.stderr.splitlines() if line.strip()), f"exit status {done.returncode}")
        raise BackupError(f"cannot {doing}: {said.strip()}")


def _pg_dump(url: URL, target: Path) -> None:
    conninfo, env = _libpq(url)
    handle, scratch = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent)
    os.close(handle)
    try:
        _run_pg(
            [pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges", f"--file={scratch}", conninfo],
            env,
            f"back up {shown(url)} with pg_dump",
        )
        os.replace(scratch, target)
    finally:
        Path(scratch).unlink(missing_ok=True)


def _pg_restore(source: Path, url: URL, *, clean: bool) -> None:
    conninfo, env = _libpq(url)
    command = [pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction"]
    if clean:
        command += ["--clean", "--if-exists"]
    _run_pg([*command, f"--dbname={conninfo}", str(source)], env, f"restore {source} into {shown(url)}")


# --- what a copy holds, and a running database's health -----------------------------------------------------


def _summary(url: URL, path: Path) -> BackupSummary:
    """Count what the database at ``url`` holds (for a backup of SQLite: the copy itself)."""
    counted = url
    if url.get_backend_name() == "sqlite" and backup_kind(path) == "sqlite" and Path(_sqlite_path(url)) != path:
        counted = URL.create("sqlite", database=str(path))
    engine = make_engine(counted)
    try:
        with engine.connect() as connection:
            matches = int(connection.execute(text("SELECT count(*) FROM matches")).scalar_one())
            competitions = int(connection.execute(text("SELECT count(*) FROM competitions")).scalar_one())
    except exc.SQLAlchemyError as error:
        raise BackupError(f"cannot count the matches in {shown(counted)}: {first_line(error)}") from None
    finally:
        engine.dispose()
    return BackupSummary(shown(url), path, url.get_backend_name(), matches, competitions)


@dataclass(frozen=True)
class Health:
    """Whether a server's database answers and its schema is the one this kaisa writes: ``code`` is ``ok``,
    ``database-unreachable`` or ``schema-not-current``; ``text`` says it to a person."""

    code: str
    revision: str | None
    expected: str
    text: ErrorText

    @property
    def ok(self) -> bool:
        return self.code == "ok"


def health(store: Store) -> Health:
    """Ask the database (one short read): reachable, and its schema at the revision this kaisa ships."""
    expected = shipped_head()
    try:
        with store.engine.connect() as connection:
            current = is_current(connection)
            revision = _revision(connection)
    except exc.SQLAlchemyError as error:
        said = first_line(error)
        return Health(
            "database-unreachable",
            None,
            expected,
            ErrorText(f"Tietokantaan ei saada yhteyttä: {said}", f"The database cannot be reached: {said}"),
        )
    if not current:
        return Health(
            "schema-not-current",
            revision,
            expected,
            ErrorText(
                f"Tietokannan rakenne on versiossa {revision or '–'}, palvelin odottaa versiota {expected}: "
                "käynnistä palvelin uudelleen tai päivitä Kaisa.",
                f"The database's schema is at revision {revision or 'none'}, this server expects {expected}: "
                "restart the server, or upgrade kaisa.",
            ),
        )
    return Health("ok", revision, expected, ErrorText("Kaikki kunnossa.", "All is well."))


def _revision(connection: Connection) -> str | None:
    if not inspect(connection).has_table("alembic_version"):
        return None
    versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return ",".join(str(v) for v in versions) or None


__all__ = [
    "BackupError",
    "BackupSummary",
    "DatabaseNotEmptyError",
    "Health",
    "backup",
    "backup_kind",
    "health",
    "restore",
    "stored_rows",
]
