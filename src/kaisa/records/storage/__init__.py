"""Match records in a real database (SQLite by default, PostgreSQL or any SQLAlchemy database by URL).

::

    from kaisa.game import Match, MatchConfig
    from kaisa.players import BaselinePlayer, play_match
    from kaisa.records.storage import PlayerInfo, open_store

    store = open_store()  # $KAISA_DB, else kaisa.sqlite3 in the user's data directory
    config = MatchConfig(players=("Aino", "Eero"))
    match_id = store.create_match(config, [PlayerInfo("Aino", "baseline"), PlayerInfo("Eero", "baseline")], seed=7)
    match = Match(config)
    play_match(match, (BaselinePlayer("Aino", 7), BaselinePlayer("Eero", 8)), on_entry=store.recorder(match_id))

    match = store.resume(match_id)  # after a crash: the state after the last recorded action

Each action is recorded in one transaction with the match's new state; opening a database runs the
migrations in ``kaisa/records/storage/migrations`` to the current schema. Storage holds no game logic.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from kaisa.records.storage.errors import (
    AccessDeniedError,
    CorruptRecordError,
    DatabaseUnavailableError,
    StaleStateError,
    StorageError,
    UnknownMatchError,
)

if TYPE_CHECKING:
    from kaisa.records.storage.engine import ENV_VAR, default_url
    from kaisa.records.storage.store import MatchRecorder, Store, open_store
    from kaisa.records.storage.values import DuplicateMatchError, MatchInfo, PlayerInfo, StoredAction, StoredMatch
    from kaisa.records.storage.writes import content_hash

_LAZY = {
    **dict.fromkeys(("ENV_VAR", "default_url"), "kaisa.records.storage.engine"),
    **dict.fromkeys(("MatchRecorder", "Store", "open_store"), "kaisa.records.storage.store"),
    **dict.fromkeys(
        ("DuplicateMatchError", "MatchInfo", "PlayerInfo", "StoredAction", "StoredMatch"),
        "kaisa.records.storage.values",
    ),
    "content_hash": "kaisa.records.storage.writes",
}
"""Names whose modules import SQLAlchemy (a third of a second): loaded on first use, so that what only needs
the storage errors (the match session playing a stroke, ``kaisa simulate``) starts without it."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENV_VAR",
    "AccessDeniedError",
    "CorruptRecordError",
    "DatabaseUnavailableError",
    "DuplicateMatchError",
    "MatchInfo",
    "MatchRecorder",
    "PlayerInfo",
    "StaleStateError",
    "StorageError",
    "Store",
    "StoredAction",
    "StoredMatch",
    "UnknownMatchError",
    "content_hash",
    "default_url",
    "open_store",
]
