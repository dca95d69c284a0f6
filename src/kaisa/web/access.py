"""The access log a server's operator reads: one line per request, written when its answer has been sent.

::

    2026-12-05T18:56:40.123Z 192.0.2.7 POST /api/club/matches/3/strokes 200 12.3ms

time (UTC, milliseconds), client address, method, path, status (``-``: the client left before an answer) and
duration (a live stream's line is written when it closes, with the time it was open). Secrets never reach the log: a query string is shown by its parameters' names only (``?since=…``), a
path segment that looks like a token (long, letters and digits) as ``…``, and headers (where the marker's token
travels) not at all. The client address is the one uvicorn gives: the proxy's ``X-Forwarded-For`` only when the
connection comes from a trusted proxy (``kaisa club --trusted-proxy``), the connection's own address otherwise.

Light on purpose: ``kaisa club`` wraps its app in it before FastAPI is imported.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from typing import Any, TextIO
from urllib.parse import parse_qsl, quote

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_PATH = 200
"""Characters of a path shown; a longer one is cut, with ``…``."""
_SECRET = re.compile(r"[A-Za-z0-9_\-]{16,}")


def shown_segment(segment: str) -> str:
    """A path segment as the log shows it: ``…`` for one that looks like a secret token (16 or more URL-safe
    characters mixing letters and digits, as ``secrets.token_urlsafe`` makes), else itself."""
    if _SECRET.fullmatch(segment) and any(c.isdigit() for c in segment) and any(c.isalpha() for c in segment):
        return "…"
    return segment


def shown_target(path: str, query: bytes) -> str:
    """The request's path and query as the log shows them (see the module's notes), percent-encoded so that a
    line stays one line of printable text."""
    shown = "/".join(shown_segment(part) for part in quote(path, safe="/:@!$&'()*+,;=-._~").split("/"))
    if len(shown) > MAX_PATH:
        shown = shown[:MAX_PATH] + "…"
    if query:
        names = [quote(name, safe="")[:40] for name, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True)]
        shown += "?" + "&".join(f"{name}=…" for name in names[:10]) if names else "?…"
    return shown


class AccessLog:
    """ASGI middleware writing one :mod:`access log <kaisa.web.access>` line per HTTP request to ``stream``."""

    def __init__(self, app: ASGIApp, stream: TextIO) -> None:
        self.app = app
        self.stream = stream
        self._lock = threading.Lock()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status: list[int] = []

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                status.append(int(message["status"]))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except BaseException:
            if not status:
                status.append(500)
            raise
        finally:
            self.write(scope, status[0] if status else None, time.perf_counter() - started)

    def write(self, scope: Scope, status: int | None, seconds: float) -> None:
        client = scope.get("client")
        moment = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        line = (
            f"{moment} {client[0] if client else '-'} {scope.get('method', '-')} "
            f"{shown_target(scope.get('path', ''), scope.get('query_string', b''))} "
            f"{status if status is not None else '-'} {seconds * 1000:.1f}ms\n"
        )
        with self._lock:
            try:
                self.stream.write(line)
                self.stream.flush()
            except (OSError, ValueError):  # a full disk or a closed log stops the log, never the answer
                pass


__all__ = ["AccessLog", "shown_segment", "shown_target"]
