"""The live views' server-sent-event streams, shared: one watcher per watched match, club night and competition
per process, however many spectators follow it. The watcher reads the view once per change, serialises it once,
and every subscriber's stream sends those same bytes.

A watcher wakes when a write changes what it shows: a write of this process tells it at once (the store's
:class:`~kaisa.records.storage.changes.Changes`), a write of another process on PostgreSQL through
``LISTEN``/``NOTIFY``. It also polls a cheap change marker (every :data:`POLL_SECONDS` on SQLite, where another
process's writes are heard no other way; every :data:`FALLBACK_SECONDS` on PostgreSQL, in case a notification was
lost with its connection). A view that reads the same as the one sent is not sent again.

Each stream sends its watcher's current view when it opens, then each new one (a spectator who falls behind gets
the newest, not every one in between), and a comment line after :data:`HEARTBEAT_SECONDS` of quiet, so that
proxies and phones keep the connection open.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi.responses import StreamingResponse

from kaisa.records.storage import Store
from kaisa.records.storage.changes import listen

T = TypeVar("T")
POLL_SECONDS = 0.5
"""How often a watcher reads its change marker on SQLite (another process's writes are seen no sooner)."""
FALLBACK_SECONDS = 5.0
"""How often a watcher reads its change marker on PostgreSQL, where notifications wake it at once."""
SETTLE_SECONDS = 0.1
"""How long a woken watcher waits before it reads: the write's own answer goes out first (the fan-out to a thousand
streams would hold the server's event loop ahead of it), and changes coming together are read once."""
HEARTBEAT_SECONDS = 15.0
"""A comment line after this long without a view, so that nothing on the way closes a quiet connection."""
HEARTBEAT = b": still here\n\n"
READERS = 2
"""Threads that read the shared watchers' views (each read holds a database connection while it runs)."""
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


@dataclass(frozen=True)
class Built:
    """A view as a stream sends it: its JSON text, and the change topics that make it read again."""

    data: str
    topics: frozenset[str]


@dataclass(frozen=True)
class Watch:
    """What a watcher shows: ``key`` names it (one watcher per key per process); ``build`` reads the view, given
    the topics that changed since the last read (None: anything may have, read it all), ``marker`` a cheap value
    that changes whenever the view may have (both run in a worker thread)."""

    key: Hashable
    build: Callable[[frozenset[str] | None], Built]
    marker: Callable[[], object]


class Watcher:
    """One watched view in this process and its subscribers (see the module)."""

    def __init__(self, streams: Streams, watch: Watch, key: Hashable, wakes: bool) -> None:
        self.streams = streams
        self.watch = watch
        self.key = key
        self.wakes = wakes
        """Whether a write wakes it (else it only polls: the per-stream way, for ``kaisa bench streams``)."""
        self.frame: bytes | None = None
        self.version = 0
        self.topics: frozenset[str] = frozenset()
        self.subscribers = 0
        self.reading = False
        """While it reads, every write wakes it: what it read may not show a change to a topic it did not watch
        yet (a new running game, or before its first read)."""
        self.ended = False
        self.error: BaseException | None = None
        self._wake = asyncio.Event()
        self._woken: set[str] | None = set()
        """The topics heard since the last read (None: read everything)."""
        self._published = asyncio.Event()
        self._first = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._run(), name=f"kaisa-watch-{key!r}")

    def wake(self, topics: frozenset[str] | None) -> None:
        """Read the view again: ``topics`` changed (None: anything may have)."""
        if topics is None or self._woken is None:
            self._woken = None
        else:
            self._woken |= topics
        self._wake.set()

    def _changed(self) -> frozenset[str] | None:
        woken, self._woken = self._woken, set()
        self._wake.clear()
        return None if woken is None else frozenset(woken)

    async def first(self) -> None:
        """Wait for the first view; raise what reading it raised (a match that does not exist: 404)."""
        await asyncio.shield(self._first)

    async def _run(self) -> None:
        streams, watch = self.streams, self.watch
        marker: object = None
        data: str | None = None
        try:
            while True:
                if data is None or self._wake.is_set():
                    if data is not None and self.wakes:
                        await asyncio.sleep(SETTLE_SECONDS)
                    changed = None if data is None else self._changed()
                    marker, built = await self._read(changed)
                else:
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(streams.poll_seconds if self.wakes else POLL_SECONDS):
                            await self._wake.wait()
                    if self._wake.is_set():
                        continue
                    now = await streams.run(watch.marker)
                    if now == marker:
                        continue
                    self._changed()
                    marker, built = await self._read(None)
                self.topics = built.topics
                if built.data != data:
                    data = built.data
                    self._publish(f"event: view\ndata: {data}\n\n".encode())
                if not self._first.done():
                    self._first.set_result(None)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # the view cannot be read (its match was deleted, the database is gone)
            self.error = error
            if not self._first.done():
                self._first.set_exception(error)
                self._first.exception()  # retrieved: the first subscriber raises it
            self.ended = True
            self._publish(None)
            streams._forget(self)

    async def _read(self, changed: frozenset[str] | None) -> tuple[object, Built]:
        self.reading = True
        try:
            return await self.streams.run(_read, self.watch, changed)
        finally:
            self.reading = False

    def _publish(self, frame: bytes | None) -> None:
        self.frame = frame
        self.version += 1
        published, self._published = self._published, asyncio.Event()
        published.set()

    async def frames(self) -> AsyncIterator[bytes]:
        """This subscriber's stream: the current view, each new one, heartbeats; ends with the watcher."""
        sent = 0
        while not self.ended:
            if self.version != sent and self.frame is not None:
                sent = self.version
                yield self.frame
                continue
            published = self._published
            try:
                async with asyncio.timeout(self.streams.heartbeat_seconds):
                    await published.wait()
            except TimeoutError:
                yield HEARTBEAT

    def stop(self) -> None:
        self._task.cancel()


def _read(watch: Watch, changed: frozenset[str] | None) -> tuple[object, Built]:
    """The marker, then the view: a change between the two is seen by the next poll."""
    marker = watch.marker()
    return marker, watch.build(changed)


class Streams:
    """The watchers of one store in this process (made with the app; they start with the first stream)."""

    def __init__(self, store: Store, *, shared: bool = True) -> None:
        self.store = store
        self.shared = shared
        """False: every stream has a watcher of its own that only polls (the way before shared streams, kept
        for ``kaisa bench streams --before``)."""
        self.poll_seconds = FALLBACK_SECONDS if store.engine.dialect.name == "postgresql" else POLL_SECONDS
        self.heartbeat_seconds = HEARTBEAT_SECONDS
        self._watchers: dict[Hashable, Watcher] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._listener: asyncio.Task[None] | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._private = itertools.count()
        self._readers: ThreadPoolExecutor | None = None

    async def run(self, read: Callable[..., T], *args: Any) -> T:
        """Run a watcher's read in a worker thread: shared watchers in :data:`READERS` threads of their own, so
        that a burst of changes neither holds many database connections nor crowds out the markers' answers (the
        per-stream way in any of asyncio's threads, as before)."""
        if not self.shared:
            return await asyncio.to_thread(read, *args)
        if self._readers is None:
            self._readers = ThreadPoolExecutor(READERS, thread_name_prefix="kaisa-watch")
        return await asyncio.get_running_loop().run_in_executor(self._readers, read, *args)

    @property
    def watchers(self) -> int:
        return len(self._watchers)

    async def response(self, watch: Watch) -> StreamingResponse:
        """The stream of ``watch``'s view, once its first view is read (raising its error, e.g. no such match,
        before the response starts)."""
        self._start()
        key = watch.key if self.shared else (watch.key, next(self._private))
        watcher = self._watchers.get(key)
        if watcher is None or watcher.ended:
            watcher = self._watchers[key] = Watcher(self, watch, key, wakes=self.shared)
        watcher.subscribers += 1
        try:
            await watcher.first()
        except BaseException:
            self._release(watcher)
            raise
        return StreamingResponse(self._frames(watcher), media_type="text/event-stream", headers=HEADERS)

    async def _frames(self, watcher: Watcher) -> AsyncIterator[bytes]:
        try:
            async for frame in watcher.frames():
                yield frame
        finally:
            self._release(watcher)

    def _release(self, watcher: Watcher) -> None:
        watcher.subscribers -= 1
        if watcher.subscribers <= 0:
            watcher.stop()
            self._forget(watcher)

    def _forget(self, watcher: Watcher) -> None:
        if self._watchers.get(watcher.key) is watcher:
            del self._watchers[watcher.key]

    def _start(self) -> None:
        """Hear this process's writes and, on PostgreSQL, the other processes' (once, on the server's loop)."""
        loop = asyncio.get_running_loop()
        if self._loop is loop:
            return
        self.close()
        self._loop = loop
        self._unsubscribe = self.store.changes.subscribe(self._heard_here)
        if self.store.engine.dialect.name == "postgresql":
            changes = self.store.changes
            self._listener = loop.create_task(listen(self.store.engine, self._heard, self._reconnected, changes.source))

    def _heard_here(self, topics: frozenset[str]) -> None:
        """A write of this process, told in the writing thread."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._heard, topics)

    def _heard(self, topics: frozenset[str]) -> None:
        for watcher in list(self._watchers.values()):
            if watcher.wakes and (watcher.reading or not watcher.topics.isdisjoint(topics)):
                watcher.wake(topics)

    def _reconnected(self) -> None:
        """Listening (again): whatever changed while the connection was lost is read now."""
        for watcher in list(self._watchers.values()):
            if watcher.wakes:
                watcher.wake(None)

    def close(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._listener is not None:
            self._listener.cancel()
            self._listener = None
        for watcher in list(self._watchers.values()):
            watcher.stop()
        self._watchers.clear()
        self._loop = None
        if self._readers is not None:
            self._readers.shutdown(wait=False)
            self._readers = None


__all__ = ["Built", "Streams", "Watch"]
