"""The match records: create a match, record each action as it is pushed, undo, load, resume, list, export.

Every write is one transaction: recording an action inserts its row and moves the match's current state,
status and result in the same commit, so a process killed mid-match loses at most the action in flight and
the database never holds an action without the state it led to. Undo deletes the last action row and moves
the state back in one commit too.

This layer holds no game logic: it stores the game layer's JSON values (``MatchConfig.to_json``,
``MatchState.to_json``, ``action_to_json``, ``Outcome.to_json``) and reads them back with their
``from_json``. The only thing it reads in a state is whether its phase is ``over`` (the match's status).

:class:`Store` is put together here from one part per concern, each in its own module:

- :mod:`~kaisa.records.storage.writes`: create a match, record an action, rewrite, undo, import, copy, delete;
- :mod:`~kaisa.records.storage.entry_keys`: the marker's entry keys, notes and table labels;
- :mod:`~kaisa.records.storage.reads`: open, load, resume and list matches, read their actions;
- :mod:`~kaisa.records.storage.projections`: figures over many matches picked out inside the database;
- :mod:`~kaisa.records.storage.base`: the connection, the transactions and the row look-ups they share;
- :mod:`~kaisa.records.storage.values`: the typed values the store gives back (:class:`MatchInfo`, ...).
"""

from __future__ import annotations

import os

from kaisa.game import Action, Entry, Match
from kaisa.records.storage.engine import make_engine, migrate, parse_url
from kaisa.records.storage.entry_keys import EntryKeys
from kaisa.records.storage.projections import MatchProjections
from kaisa.records.storage.reads import MatchReads
from kaisa.records.storage.values import DuplicateMatchError, MatchInfo, PlayerInfo, StoredAction, StoredMatch
from kaisa.records.storage.writes import MatchWrites, content_hash


class MatchRecorder:
    """The ``on_entry`` callback of ``play_match`` that records each pushed action of one stored match::

    recorder = store.recorder(match_id)
    play_match(match, players, on_entry=recorder)
    recorder.undo(match)  # undo the last action in the database and in memory
    """

    def __init__(self, store: Store, match_id: int) -> None:
        self.store = store
        self.match_id = match_id

    def __call__(self, match: Match, entry: Entry) -> None:
        self.store.record(self.match_id, entry, match.state)

    def undo(self, match: Match) -> Action:
        """Undo the last action in the database, then in ``match`` (its stack, or its state when the stack is
        empty, as after ``resume(..., stack=False)``). Returns the undone action."""
        action = self.store.undo(self.match_id)
        if match.stack:
            match.pop()
        else:
            match.state = self.store.load(self.match_id)[1]
        return action


class Store(MatchWrites, EntryKeys, MatchReads, MatchProjections):
    """Match records in one database. Open it with :func:`open_store`; close it (or use ``with``) when done."""

    def recorder(self, match_id: int) -> MatchRecorder:
        """The ``on_entry`` callback for ``play_match`` that records match ``match_id``'s actions."""
        with self._read(f"finding match {match_id}") as session:
            self._match(session, match_id)
        return MatchRecorder(self, match_id)


def open_store(url: str | os.PathLike[str] | None = None) -> Store:
    """Open the match-records database at ``url`` and bring its tables to the current schema.

    ``url`` is any SQLAlchemy URL (``sqlite:///path.sqlite3``, ``postgresql+psycopg://user:pw@host/db``) or a
    path of an SQLite file. Without it: ``$KAISA_DB`` (a URL or a path), else ``kaisa.sqlite3`` in the user's
    data directory (``platformdirs.user_data_dir("kaisa")``). Raises :class:`DatabaseUnavailableError` for a
    malformed URL, an unknown driver or a database that cannot be reached."""
    parsed = parse_url(url)
    engine = make_engine(parsed)
    try:
        migrate(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine)


__all__ = [
    "DuplicateMatchError",
    "MatchInfo",
    "MatchRecorder",
    "PlayerInfo",
    "Store",
    "StoredAction",
    "StoredMatch",
    "content_hash",
    "open_store",
]
