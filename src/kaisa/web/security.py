"""HTTP hygiene for the local servers (``kaisa play``, ``kaisa club``): the API has no login, so it must not be
reachable from other web sites a browser on the same machine or network visits.

- :class:`HostGuard` answers 400 to a request whose ``Host`` is a name not on the allow-list (DNS rebinding: a
  page on ``evil.example`` whose name is re-pointed at 127.0.0.1 sends ``Host: evil.example``). IP literals are
  always allowed (a rebinding attack cannot make the browser send one), as are ``localhost`` and names given in
  ``$KAISA_ALLOWED_HOSTS`` (comma-separated) or ``--host``.
- :class:`OriginGuard` answers 403 to a state-changing request (POST, PUT, PATCH, DELETE) sent by a page of
  another origin: its ``Origin`` names another host, or ``Sec-Fetch-Site`` says ``cross-site``. Browsers send
  these even on body-less requests such as ``POST /api/matches/1/undo``, which CORS never pre-flights.
- Behind an HTTPS proxy (Caddy, docs/DEPLOY.md) the proxy passes the browser's ``Host`` on, so both guards keep
  working; ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from the addresses given to
  ``kaisa club --trusted-proxy`` (uvicorn's proxy headers), never from any other client.
- An id in the path must be plain digits: ``/api/matches/1.0`` is refused, not read as match 1.
- Every answer carries security headers (no sniffing, no framing, no referrer: club links carry tokens), and
  the server's clock in milliseconds (``X-Kaisa-Time``): the live club clock counts from the server's time of
  the last entry, and the ``Date`` header has whole seconds that uvicorn refreshes once a second, so a page
  correcting by it could show a clock standing at 0:00 for seconds after an entry.

Each refusal has the one error shape of the API: ``{"detail", "code", "fi", "en"}``.
"""

from __future__ import annotations

import ipaddress
import itertools
import json
import os
import re
import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

ENV_ALLOWED_HOSTS = "KAISA_ALLOWED_HOSTS"
SERVER_TIME_HEADER = b"x-kaisa-time"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"content-security-policy", b"frame-ancestors 'none'; base-uri 'self'; object-src 'none'; form-action 'self'"),
)


ID_AFTER = frozenset({"matches", "actions", "strokes"})
"""Path segments followed by a numeric id (/api/matches/{match_id}/actions/{index})."""
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


def loose_id(path: str) -> str | None:
    """An id in the path written as a number that is not plain digits (``1.0``, ``+1``, ``1e0``), which the
    API's lax int reading would take as 1; None when every id is plain digits."""
    parts = path.split("/")
    for before, part in itertools.pairwise(parts):
        if before in ID_AFTER and _NUMBER.fullmatch(part) and not part.isdigit():
            return part
    return None


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def host_name(host: str) -> str:
    """The name or address in a ``Host`` header or an origin's netloc, without the port and brackets."""
    host = host.strip().lower()
    if host.startswith("["):  # [::1]:8000
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        return host.split(":", 1)[0]
    return host


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def allowed_hosts(extra: Iterable[str] = ()) -> frozenset[str]:
    """``localhost`` and the names in ``$KAISA_ALLOWED_HOSTS`` and ``extra``, lower-case."""
    names = {"localhost", *(host_name(h) for h in extra if h)}
    names.update(host_name(h) for h in os.environ.get(ENV_ALLOWED_HOSTS, "").split(",") if h.strip())
    return frozenset(n for n in names if n and n not in ("0.0.0.0", "::"))


async def refuse(send: Send, status: int, code: str, fi: str, en: str) -> None:
    body = json.dumps({"detail": en, "code": code, "fi": fi, "en": en}, ensure_ascii=False).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class HostGuard:
    """Refuse requests whose ``Host`` is a name not on the allow-list (see the module's notes)."""

    def __init__(self, app: ASGIApp, extra_hosts: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = allowed_hosts(extra_hosts)

    def allows(self, host: str | None) -> bool:
        if not host:
            return False
        name = host_name(host)
        return _is_ip(name) or name in self.allowed or name.endswith(".localhost")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and not self.allows(_headers(scope).get("host")):
            await refuse(
                send,
                400,
                "bad-host",
                "Palvelin ei vastaa tälle nimelle. Avaa sivu osoitteella, jonka palvelin tulosti käynnistyessään.",
                "This server does not answer to that host name. Open the page at the address the server printed "
                f"when it started (allowed names: {', '.join(sorted(self.allowed))} or an IP address; "
                f"add more in ${ENV_ALLOWED_HOSTS}).",
            )
            return
        await self.app(scope, receive, send)


class OriginGuard:
    """Refuse state-changing requests from pages of another origin, and add the security headers to every
    answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    @staticmethod
    def cross_origin(scope: Scope) -> bool:
        headers = _headers(scope)
        if headers.get("sec-fetch-site") == "cross-site":
            return True
        origin = headers.get("origin")
        if origin is None:
            return False
        if origin == "null":  # a sandboxed frame or a file: page
            return True
        parts = urlsplit(origin)
        return parts.netloc.lower() != headers.get("host", "").lower()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        bad_id = loose_id(scope.get("path", ""))
        if bad_id is not None:
            await refuse(
                send,
                422,
                "invalid-request",
                "Tunnisteen on oltava kokonaisluku, esimerkiksi 12.",
                f"an id in the path is a whole number written in digits, e.g. 12, not {bad_id[:40]!r}",
            )
            return
        if scope["method"] in STATE_CHANGING and self.cross_origin(scope):
            await refuse(
                send,
                403,
                "cross-origin",
                "Toisen sivuston lähettämä muutos hylättiin.",
                "A change sent by a page of another site was refused: use the page this server serves.",
            )
            return

        await self.app(scope, receive, with_security_headers(send))


def with_security_headers(send: Send) -> Send:
    """``send`` adding the security headers (those the answer lacks) and the server's clock to an answer's
    start: the app's answers and the pages served while the app is still loading alike."""

    async def with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            present = {k.lower() for k, _ in message.get("headers", [])}
            message["headers"] = [
                *message.get("headers", []),
                *(h for h in SECURITY_HEADERS if h[0] not in present),
                (SERVER_TIME_HEADER, str(int(time.time() * 1000)).encode()),
            ]
        await send(message)

    return with_headers


__all__ = ["ENV_ALLOWED_HOSTS", "HostGuard", "OriginGuard", "allowed_hosts", "host_name", "with_security_headers"]
