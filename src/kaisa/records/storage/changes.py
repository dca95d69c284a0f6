"""What a committed write changed, told to whoever shows it live: the listeners of this process at once (in the
writing thread, after the commit) and, on PostgreSQL, every process that listens (``NOTIFY`` inside the write's
transaction, so it is delivered at its commit and never for a write rolled back).

A change is named by topics: ``match:<id>`` (a match, its actions or its entry keys, such as a break's start),
``event:<name>`` (a match of that club night) and ``competition:<id>``. Storage knows nothing about views: the
live displays (``kaisa.web.streams``) decide what to read again.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from itertools import chain
from typing import Any

from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import Session

from kaisa.records.storage.models import ActionRow, CompetitionKeyRow, CompetitionRow, EntryKeyRow, MatchRow

CHANNEL = "kaisa_changes"
"""The PostgreSQL notification channel of every change."""
RETRY_SECONDS = 2.0
"""How long a listener whose connection was lost waits before connecting again."""
Listener = Callable[[frozenset[str]], None]


def match_topic(match_id: int) -> str:
    return f"match:{match_id}"


def event_topic(name: str) -> str:
    return f"event:{name}"


def competition_topic(competition_id: int) -> str:
    return f"competition:{competition_id}"


class Changes:
    """The listeners of one database's committed changes in this process. A listener is called in the thread
    that committed, with the topics the transaction changed; it must only hand them on (it holds up the write's
    answer)."""

    def __init__(self) -> None:
        self.source = secrets.token_hex(8)
        """This store's mark on its notifications: it has told its own listeners already, so they skip them."""
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` after every commit that changed something; returns the unsubscribe."""
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def tell(self, topics: frozenset[str]) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            listener(topics)


class ChangeSession(Session):
    """A session that collects the topics its flushes touch and tells them at commit (see the module)."""


def session(engine: Engine, changes: Changes | None) -> ChangeSession:
    return ChangeSession(engine, expire_on_commit=False, info={"changes": changes})


def _topics(row: object) -> Iterable[str]:
    if isinstance(row, MatchRow):
        yield match_topic(row.id)
        if row.event is not None:
            yield event_topic(row.event)
    elif isinstance(row, ActionRow | EntryKeyRow):
        yield match_topic(row.match_id)
    elif isinstance(row, CompetitionRow):
        yield competition_topic(row.id)
    elif isinstance(row, CompetitionKeyRow):
        yield competition_topic(row.competition_id)


@event.listens_for(ChangeSession, "after_flush")
def _collect(flushed: Session, _context: Any) -> None:
    topics = {t for row in chain(flushed.new, flushed.dirty, flushed.deleted) for t in _topics(row)}
    if not topics:
        return
    flushed.info.setdefault("topics", set()).update(topics)
    connection = flushed.connection()
    if connection.dialect.name == "postgresql":
        changes = flushed.info.get("changes")
        source = changes.source if isinstance(changes, Changes) else ""
        # delivered at commit to every listening connection (identical payloads of one transaction once)
        connection.execute(select(func.pg_notify(CHANNEL, payload(source, topics))))


@event.listens_for(ChangeSession, "after_commit")
def _tell(committed: Session) -> None:
    topics = committed.info.pop("topics", None)
    changes = committed.info.get("changes")
    if topics and isinstance(changes, Changes):
        changes.tell(frozenset(topics))


@event.listens_for(ChangeSession, "after_rollback")
def _forget(rolled_back: Session) -> None:
    rolled_back.info.pop("topics", None)


def payload(source: str, topics: Iterable[str]) -> str:
    return json.dumps([source, sorted(topics)], separators=(",", ":"))


@dataclass(frozen=True)
class Note:
    """A notification read back: which store wrote (:attr:`Changes.source`), and what it changed."""

    source: str
    topics: frozenset[str]

    @classmethod
    def from_payload(cls, text: str) -> Note | None:
        """The note, or None for a payload that is not one of ours (anybody may NOTIFY on a channel)."""
        try:
            source, topics = json.loads(text)
        except (ValueError, TypeError):
            return None
        if not isinstance(source, str) or not isinstance(topics, list):
            return None
        return cls(source, frozenset(t for t in topics if isinstance(t, str)))


async def listen(
    engine: Engine, heard: Listener, connected: Callable[[], Awaitable[None] | None], own: str = ""
) -> None:
    """Listen for other stores' changes on PostgreSQL until cancelled (those of the store whose source is
    ``own`` are skipped: its listeners were told at once): ``heard`` gets each note's topics;
    ``connected`` is called whenever the listening connection is (again) open, since changes made while it was
    lost were not heard. A lost connection is opened again after :data:`RETRY_SECONDS`."""
    import psycopg

    args, kwargs = engine.dialect.create_connect_args(engine.url)
    kwargs = {k: v for k, v in kwargs.items() if k in ("host", "port", "user", "password", "dbname", "connect_timeout")}
    kwargs.setdefault("dbname", engine.url.database)
    while True:
        try:
            connection = await psycopg.AsyncConnection.connect(*args, autocommit=True, **kwargs)
            async with connection:
                await connection.execute(f"LISTEN {CHANNEL}")
                done = connected()
                if done is not None:
                    await done
                async for notification in connection.notifies():
                    note = Note.from_payload(notification.payload)
                    if note is not None and note.source != own:
                        heard(note.topics)
        except (psycopg.Error, OSError):
            await asyncio.sleep(RETRY_SECONDS)


__all__ = [
    "CHANNEL",
    "ChangeSession",
    "Changes",
    "Note",
    "competition_topic",
    "event_topic",
    "listen",
    "match_topic",
]
