"""Opening a match-records database: the URL, the engine, SQLite's settings and the migrations."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir
from sqlalchemy import URL, Connection, Engine, create_engine, event, exc, inspect, make_url, text

from kaisa.records.storage.errors import DatabaseUnavailableError, StorageError
from kaisa.records.storage.migrations import alembic_config, head_revision, shipped_head

ENV_VAR = "KAISA_DB"
"""Environment variable naming the database: an SQLAlchemy URL, or the path of an SQLite file."""
DEFAULT_FILENAME = "kaisa.sqlite3"
URL_FORMS = (
    "an SQLAlchemy database URL such as sqlite:///relative/path.sqlite3, sqlite:////absolute/path.sqlite3 "
    "or postgresql+psycopg://user:password@host:5432/dbname"
)
SQLITE_BEGIN_OPTION = "kaisa_sqlite_begin"
"""Execution option: how a transaction on SQLite begins (``DEFERRED`` for reads, ``IMMEDIATE`` for writes)."""
POSTGRES_CONNECT_TIMEOUT = 10
"""Seconds to wait for a PostgreSQL server unless the URL says ``?connect_timeout=``."""
MIGRATION_LOCK = 0x4B41_4953_41
"""PostgreSQL advisory lock held while migrating, so that two processes opening one database take turns."""

SQLITE_BUSY_SECONDS = 5.0
"""How long a write waits for another writer's lock on an SQLite file before the database counts as busy
(DatabaseUnavailableError; the web answers 503 with Retry-After). Writers hold it for milliseconds."""
dumps = functools.partial(json.dumps, allow_nan=False, separators=(",", ":"))
"""How JSON columns are written: compact, and refusing NaN and infinities, which JSON cannot hold."""


def default_url() -> str:
    """``$KAISA_DB`` if set (a URL, or a path of an SQLite file), else ``kaisa.sqlite3`` in the user's data
    directory (``platformdirs.user_data_dir("kaisa")``, created if missing)."""
    env = os.environ.get(ENV_VAR, "").strip()
    if env:
        return env if "://" in env else sqlite_url(Path(env).expanduser())
    directory = Path(user_data_dir("kaisa"))
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise DatabaseUnavailableError(
            f"cannot create the data directory {directory} for the default match database: {error}; "
            f"set {ENV_VAR} to {URL_FORMS}"
        ) from None
    return sqlite_url(directory / DEFAULT_FILENAME)


def sqlite_url(path: Path) -> str:
    return URL.create("sqlite", database=str(path.resolve())).render_as_string(hide_password=False)


def parse_url(url: str | os.PathLike[str] | None) -> URL:
    """The URL to open: ``url`` (a path, or a text without ``://`` such as ``club.sqlite3``, means an SQLite
    file, as in ``$KAISA_DB``), else :func:`default_url`."""
    if url is None:
        url = default_url()
    elif not isinstance(url, str):
        url = sqlite_url(Path(url))
    elif "://" not in url and url.strip():
        url = sqlite_url(Path(url).expanduser())
    try:
        return make_url(url)
    except exc.ArgumentError:
        raise DatabaseUnavailableError(f"{url!r} is not a database URL: expected {URL_FORMS}") from None


def shown(url: URL) -> str:
    """The URL as it may appear in messages: without its password."""
    return url.render_as_string(hide_password=True)


def first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def make_engine(url: URL) -> Engine:
    """An engine for ``url``: on SQLite with foreign keys on, WAL journaling and transactions that SQLAlchemy
    begins itself (so reads and DDL are transactional too, and writes take the lock up front)."""
    backend = url.get_backend_name()
    kwargs: dict[str, Any] = {"json_serializer": dumps}
    if backend == "sqlite":
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_SECONDS}
    elif backend == "postgresql":
        kwargs["pool_pre_ping"] = True
        if "connect_timeout" not in url.query:
            kwargs["connect_args"] = {"connect_timeout": POSTGRES_CONNECT_TIMEOUT}
    try:
        engine = create_engine(url, **kwargs)
    except (exc.ArgumentError, exc.NoSuchModuleError, ImportError) as error:
        raise DatabaseUnavailableError(
            f"cannot use the database URL {shown(url)}: {first_line(error)}; expected {URL_FORMS}"
        ) from None
    if backend == "sqlite":
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
    return engine


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # sqlite3 must not begin transactions itself: _sqlite_begin does
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    mode = connection.get_execution_options().get(SQLITE_BEGIN_OPTION, "DEFERRED")
    connection.exec_driver_sql(f"BEGIN {mode}")


def is_current(connection: Connection) -> bool:
    """Whether the database's schema is at the newest shipped revision (a read of Alembic's version table)."""
    if not inspect(connection).has_table("alembic_version"):
        return False
    versions = connection.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    return versions == [shipped_head()]


def migrate(engine: Engine) -> None:
    """Run the migrations to the head revision in one transaction (a no-op when the schema is current, which
    is found without importing Alembic)."""
    url = engine.url
    try:
        with engine.connect() as connection:
            connection.execution_options(**{SQLITE_BEGIN_OPTION: "IMMEDIATE"})
            with connection.begin():
                if engine.dialect.name == "postgresql":
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                if not is_current(connection):
                    _upgrade(connection)
    except (exc.OperationalError, exc.InterfaceError) as error:
        raise DatabaseUnavailableError(
            f"cannot open the database at {shown(url)}: {first_line(error)}; expected {URL_FORMS}, "
            "naming a database that exists and a server that is running"
        ) from None
    except exc.SQLAlchemyError as error:
        raise StorageError(f"cannot prepare the tables in the database at {shown(url)}: {first_line(error)}") from None


def _upgrade(connection: Connection) -> None:
    from alembic import command
    from alembic.util import CommandError

    try:
        command.upgrade(alembic_config(connection), "head")
    except CommandError as error:
        raise StorageError(
            f"cannot bring the database at {shown(connection.engine.url)} to schema revision {head_revision()}: "
            f"{error} (a database written by a newer kaisa needs that version)"
        ) from None


__all__ = ["ENV_VAR", "URL_FORMS", "default_url", "make_engine", "migrate", "parse_url"]
