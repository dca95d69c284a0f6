"""``kaisa club --workers N``: several server processes on one port and one database (a federation's server on
PostgreSQL, where every process hears the others' entries through the database's notifications)."""

from __future__ import annotations

import os
from typing import Any

from kaisa import __version__
from kaisa.cli.common import console, fail
from kaisa.cli.front import Front, TlsFiles, front_of, listen_socket

WORKERS_HELP = (
    "Server processes sharing the port and the database (a federation's server on PostgreSQL: every process "
    "hears the others' entries at once; on SQLite within half a second). Opens no browser."
)
WORKER_ENV = "KAISA_WORKER_SETTINGS"
"""How ``--workers`` hands the database and the address to its server processes (which import the app anew)."""


def serve_workers(
    host: str, port: int, db: str | None, workers: int, *, tls: TlsFiles | None = None, front: Front | None = None
) -> None:
    """``kaisa club --workers N``: N server processes (uvicorn's supervisor, which restarts one that dies) accepting
    on one listening socket, each with its own app (:func:`worker_app`) on the one database. The database is
    opened (and migrated) here first, so that one that cannot be opened stops the command with one line."""
    import json

    import uvicorn
    from uvicorn.supervisors import Multiprocess

    from kaisa.records.storage import StorageError, open_store

    try:
        store = open_store(db)
    except StorageError as error:
        fail(str(error))
    url = store.engine.url.render_as_string(hide_password=False)
    console.print(f"[dim]Matches are saved in {store.url} after every stroke; Ctrl+C stops the server.[/]")
    store.close()
    try:
        sock = listen_socket(host, port)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port (0 picks a free one)")
    scheme = "https" if tls else "http"
    url_shown = f"{scheme}://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{sock.getsockname()[1]}/club"
    console.print(
        f"[bold]Kaisa {__version__}[/]: the marker's page is at [link={url_shown}]{url_shown}[/link] "
        f"({workers} server processes)"
    )
    front = front or Front()
    log = None if front.access_log is None else getattr(front.access_log, "name", None)
    # each process opens the access log for appending itself (a line is one write: processes do not mix lines)
    os.environ[WORKER_ENV] = json.dumps({"db": url, "host": host, "access_log": log})
    config = uvicorn.Config(
        "kaisa.cli.workers:worker_app",
        factory=True,
        workers=workers,
        log_level="warning",
        timeout_graceful_shutdown=2,
        ssl_certfile=None if tls is None else tls.certfile,
        ssl_keyfile=None if tls is None else tls.keyfile,
        **front.uvicorn_options(),
    )
    Multiprocess(config, sockets=[sock]).run()


def worker_app() -> Any:
    """One ``--workers`` server process's app: the store, the app and the host guard as :func:`serve` makes them
    (the settings in ``$KAISA_WORKER_SETTINGS``)."""
    import json

    from kaisa.records.storage import open_store
    from kaisa.web import create_app
    from kaisa.web.security import HostGuard

    settings = json.loads(os.environ[WORKER_ENV])
    app = create_app(open_store(settings["db"]), close_store=True)
    app.state.bind_host = settings["host"]
    log = settings.get("access_log")
    front = front_of("-" if log == "<stderr>" else log, [])  # the proxies are uvicorn's settings, made above
    return front.wrap(HostGuard(app, [settings["host"]]))
