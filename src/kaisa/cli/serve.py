"""``kaisa play`` and ``kaisa club``: the web server, opening the table or the marker's page."""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer

from kaisa import __version__
from kaisa.cli.common import console, fail

CERT_HELP = "Serve HTTPS with this PEM certificate (with --keyfile), e.g. a self-signed one for the club's Wi-Fi."
KEY_HELP = "The PEM private key of --certfile (not encrypted)."
WORKERS_HELP = (
    "Server processes sharing the port and the database (a federation's server on PostgreSQL: every process "
    "hears the others' entries at once; on SQLite within half a second). Opens no browser."
)
WORKER_ENV = "KAISA_WORKER_SETTINGS"
"""How ``--workers`` hands the database and the address to its server processes (which import the app anew)."""


class TlsFilesError(Exception):
    """The certificate or key given for HTTPS cannot be used: the one-line reason."""


@dataclass(frozen=True)
class TlsFiles:
    """A PEM certificate and its private key, checked, for uvicorn's HTTPS."""

    certfile: str
    keyfile: str


def tls_files(certfile: Path | None, keyfile: Path | None) -> TlsFiles | None:
    """The HTTPS files of ``--certfile``/``--keyfile`` (None: plain HTTP), checked before the server
    starts: both given, both readable files, and a PEM certificate with its own unencrypted private key. A
    problem ends the command with one line and exit status 2."""
    try:
        return check_tls_files(certfile, keyfile)
    except TlsFilesError as error:
        fail(str(error))


def check_tls_files(certfile: Path | None, keyfile: Path | None) -> TlsFiles | None:
    """:func:`tls_files`, raising :class:`TlsFilesError` with the reason."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        given, missing = ("--certfile", "--keyfile") if keyfile is None else ("--keyfile", "--certfile")
        raise TlsFilesError(f"{given} needs {missing} too: HTTPS takes a certificate and its private key")
    texts = {}
    for what, path in (("certificate", certfile), ("private key", keyfile)):
        if not path.exists():
            raise TlsFilesError(f"the {what} file {path} does not exist")
        if not path.is_file():
            raise TlsFilesError(f"the {what} file {path} is not a file")
        try:
            texts[what] = path.read_bytes()
        except OSError as error:
            raise TlsFilesError(f"cannot read the {what} file {path}: {error.strerror or error}") from None
    if b"-----BEGIN CERTIFICATE-----" not in texts["certificate"]:
        raise TlsFilesError(f"the certificate file {certfile} is not a PEM certificate (no BEGIN CERTIFICATE block)")
    if b"PRIVATE KEY-----" not in texts["private key"]:
        raise TlsFilesError(f"the private key file {keyfile} is not a PEM private key (no BEGIN PRIVATE KEY block)")
    if b"ENCRYPTED" in texts["private key"]:
        raise TlsFilesError(f"the private key file {keyfile} is encrypted: give an unencrypted key (openssl -nodes)")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(certfile, keyfile, password=lambda: b"")
    except (ssl.SSLError, OSError) as error:
        reason = getattr(error, "reason", None)
        if reason == "KEY_VALUES_MISMATCH":
            raise TlsFilesError(f"the private key {keyfile} does not belong to the certificate {certfile}") from None
        raise TlsFilesError(
            f"{certfile} and {keyfile} are not a usable PEM certificate and private key ({reason or error}); the "
            "README's club section shows how to make a pair with openssl"
        ) from None
    return TlsFiles(str(certfile), str(keyfile))


def play_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (only this machine by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8714,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
    certfile: Annotated[Path | None, typer.Option("--certfile", help=CERT_HELP)] = None,
    keyfile: Annotated[Path | None, typer.Option("--keyfile", help=KEY_HELP)] = None,
) -> None:
    """The browser table: serve the page and its API, and open it in the browser (the main job)."""
    serve(host, port, db, no_browser, "/", tls=tls_files(certfile, keyfile))


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
) -> None:
    """Scorekeeping for real club matches: the same server, opening the marker's page (/club); the spectator
    scoreboard is at /scoreboard."""
    if workers > 1:
        serve_workers(host, port, db, workers, tls=tls_files(certfile, keyfile))
        return
    serve(host, port, db, no_browser, "/club", tls=tls_files(certfile, keyfile))


def listen_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket whose ``proto`` is IPPROTO_TCP.

    asyncio sets TCP_NODELAY on an accepted connection only when the listening socket's ``proto`` is
    IPPROTO_TCP; ``socket.create_server`` leaves it 0, and then every small answer on a kept-alive connection
    waits about 40 ms (Nagle's algorithm meeting the browser's delayed ACK)."""
    infos = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
    )
    family, kind, _, _, address = infos[0]
    sock = socket.socket(family, kind, socket.IPPROTO_TCP)
    try:
        if os.name == "posix":
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen()
    except OSError:
        sock.close()
        raise
    return sock


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


def serve(host: str, port: int, db: str | None, no_browser: bool, page: str, *, tls: TlsFiles | None = None) -> None:
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
        from kaisa.session import warm_up_physics
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
    app = HostGuard(starting, [host])  # DNS rebinding: only IP addresses, localhost and --host reach it
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


def serve_workers(host: str, port: int, db: str | None, workers: int, *, tls: TlsFiles | None = None) -> None:
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
    os.environ[WORKER_ENV] = json.dumps({"db": url, "host": host})
    config = uvicorn.Config(
        "kaisa.cli.serve:worker_app",
        factory=True,
        workers=workers,
        log_level="warning",
        timeout_graceful_shutdown=2,
        ssl_certfile=None if tls is None else tls.certfile,
        ssl_keyfile=None if tls is None else tls.keyfile,
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
    return HostGuard(app, [settings["host"]])
