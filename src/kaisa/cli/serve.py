"""``kaisa play`` and ``kaisa club``: the web server, opening the table or the marker's page."""

from __future__ import annotations

import asyncio
import socket
import sys
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from kaisa import __version__
from kaisa.cli.common import console, fail
from kaisa.cli.front import (
    ACCESS_LOG_HELP,
    CERT_HELP,
    KEY_HELP,
    TRUSTED_PROXY_HELP,
    Front,
    TlsFiles,
    front_of,
    listen_socket,
    tls_files,
)
from kaisa.cli.workers import WORKERS_HELP, serve_workers


def play_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (only this machine by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8714,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
    certfile: Annotated[Path | None, typer.Option("--certfile", help=CERT_HELP)] = None,
    keyfile: Annotated[Path | None, typer.Option("--keyfile", help=KEY_HELP)] = None,
    access_log: Annotated[str | None, typer.Option("--access-log", help=ACCESS_LOG_HELP)] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option("--trusted-proxy", help=TRUSTED_PROXY_HELP)] = None,
) -> None:
    """The browser table: serve the page and its API, and open it in the browser (the main job)."""
    front = front_of(access_log, trusted_proxy or [])
    serve(host, port, db, no_browser, "/", tls=tls_files(certfile, keyfile), front=front)


def club_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (0.0.0.0 for the club's tablets).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8714,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
    certfile: Annotated[Path | None, typer.Option("--certfile", help=CERT_HELP)] = None,
    keyfile: Annotated[Path | None, typer.Option("--keyfile", help=KEY_HELP)] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help=WORKERS_HELP)] = 1,
    access_log: Annotated[str | None, typer.Option("--access-log", help=ACCESS_LOG_HELP)] = None,
    trusted_proxy: Annotated[list[str] | None, typer.Option("--trusted-proxy", help=TRUSTED_PROXY_HELP)] = None,
) -> None:
    """Scorekeeping for real club matches: the same server, opening the marker's page (/club); the spectator
    scoreboard is at /scoreboard."""
    front = front_of(access_log, trusted_proxy or [])
    if workers > 1:
        serve_workers(host, port, db, workers, tls=tls_files(certfile, keyfile), front=front)
        return
    serve(host, port, db, no_browser, "/club", tls=tls_files(certfile, keyfile), front=front)


class StartingApp:
    """The server's ASGI app while the real one loads: the pages and their static files are answered at once,
    every other request waits until :func:`load` (kaisa.web with the physics, then the kernels) has finished
    in a background thread. So the page opens while the engine is imported and its kernels loaded, and the
    first stroke is as fast as the tenth."""

    def __init__(
        self, load: Callable[[], Any], report: Callable[[BaseException], None] | None = None, start: bool = True
    ) -> None:
        self._load = load
        self._report = report
        self._app: Any = None
        self._error: BaseException | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kaisa-warm-up", daemon=True)
        if start:
            self.start()

    def start(self) -> None:
        """Start loading (at once unless made with ``start=False``: the server starts it once it listens, so
        that the loading thread does not hold up the first page)."""
        if not self.started:
            self._thread.start()

    def _run(self) -> None:
        try:
            self._app = self._load()
        except BaseException as exc:  # reported on the console (or to ``report``) and to every waiting request
            self._error = exc
            if self._report is not None:
                self._report(exc)
            else:
                console.print(f"[bold red]error:[/] the server could not load: {exc}")
        finally:
            self._ready.set()

    @property
    def started(self) -> bool:
        return self._thread.is_alive() or self._ready.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    @property
    def error(self) -> BaseException | None:
        return self._error

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if not self._ready.is_set():
            if scope["type"] == "http" and scope["path"] == "/healthz":
                await self._starting(scope, receive, send)
                return
            static = scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
            if static and await self._static(scope, receive, send):
                return
            await asyncio.get_running_loop().run_in_executor(None, self._ready.wait)
        if self._app is None:
            from starlette.responses import PlainTextResponse

            from kaisa.web.security import with_security_headers

            if scope["type"] == "http":
                await PlainTextResponse(f"the server failed to start: {self._error}", status_code=503)(
                    scope, receive, with_security_headers(send)
                )
            return
        await self._app(scope, receive, send)

    @staticmethod
    async def _starting(scope: Any, receive: Any, send: Any) -> None:
        """``/healthz`` while loading: 503, starting (a monitor is not held up by the warm-up)."""
        from starlette.responses import JSONResponse

        from kaisa.web.operations import STARTING
        from kaisa.web.security import with_security_headers

        answer = JSONResponse(STARTING.model_dump(), status_code=503, headers={"Retry-After": "2"})
        await answer(scope, receive, with_security_headers(send))

    async def _static(self, scope: Any, receive: Any, send: Any) -> bool:
        from starlette.responses import FileResponse

        from kaisa.web.pages import PAGES
        from kaisa.web.security import with_security_headers

        path = scope["path"]
        static = resources.files("kaisa.web") / "static"
        name = PAGES.get(path) or (path.removeprefix("/static/") if path.startswith("/static/") else None)
        if name is None or ".." in name.split("/"):
            return False
        file = static / name
        if not file.is_file():
            return False
        await FileResponse(str(file))(scope, receive, with_security_headers(send))
        return True


def serve(
    host: str,
    port: int,
    db: str | None,
    no_browser: bool,
    page: str,
    *,
    tls: TlsFiles | None = None,
    front: Front | None = None,
) -> None:
    """Listen, serve the pages at once, and open the database, the app and the physics in the background
    (:class:`StartingApp`): the main thread imports neither SQLAlchemy nor the physics, so the page answers
    about a second after the command starts. A database that cannot be opened stops the server with the
    storage's one-line error (exit status 2), before the browser is opened. ``tls`` (:func:`tls_files`)
    serves HTTPS on the same listening socket (TCP_NODELAY holds for TLS connections too)."""
    import webbrowser

    import uvicorn

    try:
        sock = listen_socket(host, port)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port (0 picks a free one)")
    bound = sock.getsockname()[1]
    scheme = "https" if tls else "http"
    url = f"{scheme}://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{bound}{page}"
    what = "the marker's page" if page == "/club" else "the table"
    stores: list[Any] = []
    refused: list[str] = []
    made = threading.Event()
    servers: list[uvicorn.Server] = []

    def load() -> Any:
        from kaisa.records.storage import open_store

        store = open_store(db)  # StorageError: see refuse
        stores.append(store)
        console.print(f"[dim]Matches are saved in {store.url} after every stroke; Ctrl+C stops the server.[/]")
        if not no_browser:
            webbrowser.open(url)
        from kaisa.session.study import warm_up_physics
        from kaisa.web import create_app

        app = create_app(store)
        app.state.bind_host = host  # the marker's QR link: this server's address on the club's network, if any
        warm_up_physics()  # compiling the kernels on first use, the physics says so on stderr, once
        return app

    def refuse(error: BaseException) -> None:
        from kaisa.records.storage import StorageError

        if not isinstance(error, StorageError):
            console.print(f"[bold red]error:[/] the server could not load: {error}")
            return
        refused.append(str(error))
        made.wait()
        servers[0].should_exit = True

    from kaisa.web.lan import WILDCARD_HOSTS, base_url, lan_address
    from kaisa.web.security import HostGuard

    starting = StartingApp(load, refuse, start=False)
    front = front or Front()
    app = front.wrap(HostGuard(starting, [host]))  # DNS rebinding: only IP addresses, localhost and --host reach it
    console.print(f"[bold]Kaisa {__version__}[/]: {what} is at [link={url}]{url}[/link]")
    if host in WILDCARD_HOSTS:
        lan = lan_address()
        if lan is None:
            console.print("Phones on the club's network: this machine's network address was not found (no network?)")
        else:
            phones = f"{base_url(scheme, lan, bound)}{page}"
            console.print(f"Phones on the club's network: [link={phones}]{phones}[/link]")

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            starting.start()

    server = Server(
        uvicorn.Config(
            app,
            log_level="warning",
            lifespan="off",
            ssl_certfile=None if tls is None else tls.certfile,
            ssl_keyfile=None if tls is None else tls.keyfile,
            **front.uvicorn_options(),
        )
    )
    servers.append(server)
    made.set()
    try:
        server.run(sockets=[sock])
    finally:
        if starting.started:
            starting.wait()
        for store in stores:
            store.close()
        if "kaisa.players.search" in sys.modules:
            from kaisa.players.search import close_pool

            close_pool()  # the computer players' and the advisor's worker processes go with the server
    if refused:
        fail(refused[0])
