"""The Alembic migrations of the match-records database, shipped inside the package.

``open_store`` runs them to the head revision every time it opens a database (a no-op when the schema is
current). They need no ``alembic.ini``: :func:`alembic_config` builds the configuration. To write the next
revision after changing ``kaisa/records/storage/models.py``, against a scratch database at the current head::

    from alembic import command
    from kaisa.records.storage.migrations import alembic_config

    command.upgrade(alembic_config(url="sqlite:///scratch.sqlite3"), "head")
    command.revision(alembic_config(url="sqlite:///scratch.sqlite3"), "what changed", autogenerate=True)

then read and tidy the generated file in ``versions/`` (name it ``rNNNN_slug.py`` with ``revision = "NNNN"``:
:func:`shipped_head` reads the newest revision from those names, so that opening a database whose schema is
current needs no Alembic, whose import is a third of a second of every command's start-up).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Connection

LOCATION = Path(__file__).resolve().parent
_REVISION_FILE = re.compile(r"r(\d{4})_\w+\.py")


def alembic_config(connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic configuration for these migrations, on an open ``connection`` (used as it is, inside the
    caller's transaction) or on a database ``url``."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(LOCATION).replace("%", "%%"))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest revision these migrations know, as Alembic reads it from the revisions' files."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def shipped_head() -> str:
    """The newest revision by the revision files' names (``rNNNN_slug.py``), without importing Alembic; the
    revisions form one line, so it is :func:`head_revision` (a test checks they agree)."""
    numbers = [m.group(1) for p in (LOCATION / "versions").iterdir() if (m := _REVISION_FILE.fullmatch(p.name))]
    return max(numbers)


__all__ = ["LOCATION", "alembic_config", "head_revision", "shipped_head"]
