"""``kaisa play`` and ``kaisa club``: the web server, opening the table or the marker's page."""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from collections.abc import Callable
from importlib import resources
from typing import Annotated, Any

import typer

from kaisa import __version__
from kaisa.cli.common import console, fail


def play_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (only this machine by default).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8714,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
) -> None:
    """The browser table: serve the page and its API, and open it in the browser (the main job)."""
    serve(host, port, db, no_browser, "/")


def club_command(
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on (0.0.0.0 for the club's tablets).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port (0: any free port).")] = 8714,
    db: Annotated[str | None, typer.Option("--db", help="Database URL (default: SQLite in the user data dir).")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="Do not open the page in a browser.")] = False,
) -> None:
    """Scorekeeping for real club matches: the same server, opening the marker's page (/club); the spectator
    scoreboard is at /scoreboard."""
    serve(host, port, db, no_browser, "/club")


PAGES = {
    "/": "index.html",
    "/club": "club.html",
    "/club/scoresheet": "scoresheet.html",
    "/scoreboard": "scoreboard.html",
}
"""The pages (path -> file in kaisa/web/static) that are served while the app is still loading."""


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
    in a background thread. So the page opens while pooltool is imported and its kernels loaded, and the
    first stroke is as fast as the tenth."""

    def __init__(self, load: Callable[[], Any]) -> None:
        self._load = load
        self._app: Any = None
        self._error: BaseException | None = None
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="kaisa-warm-up", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            self._app = self._load()
        except BaseException as exc:  # reported on the console and to every waiting request
            self._error = exc
            console.print(f"[bold red]error:[/] the server could not load: {exc}")
        finally:
            self._ready.set()

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

            if scope["type"] == "http":
                await PlainTextResponse(f"the server failed to start: {self._error}", status_code=503)(
                    scope, receive, send
                )
            return
        await self._app(scope, receive, send)

    async def _static(self, scope: Any, receive: Any, send: Any) -> bool:
        from starlette.responses import FileResponse

        path = scope["path"]
        static = resources.files("kaisa.web") / "static"
        name = PAGES.get(path) or (path.removeprefix("/static/") if path.startswith("/static/") else None)
        if name is None or ".." in name.split("/"):
            return False
        file = static / name
        if not file.is_file():
            return False
        await FileResponse(str(file))(scope, receive, send)
        return True


def serve(host: str, port: int, db: str | None, no_browser: bool, page: str) -> None:
    import webbrowser

    import uvicorn

    from kaisa.records.storage import StorageError, open_store

    try:
        store = open_store(db)
    except StorageError as exc:
        fail(str(exc))
    try:
        sock = listen_socket(host, port)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port (0 picks a free one)")
    bound = sock.getsockname()[1]
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{bound}{page}"
    what = "the marker's page" if page == "/club" else "the table"

    def load() -> Any:
        from kaisa.session import physics_ready, warm_up_physics
        from kaisa.web import create_app

        app = create_app(store)
        if not physics_ready():
            console.print("[dim]Compiling the physics engine's kernels (first run only, about 25 s)...[/]")
        warm_up_physics()
        return app

    from kaisa.web.security import HostGuard

    starting = StartingApp(load)
    app = HostGuard(starting, [host])  # DNS rebinding: only IP addresses, localhost and --host reach it
    console.print(f"[bold]Kaisa {__version__}[/]: {what} is at [link={url}]{url}[/link]  (matches in {store.url})")
    console.print("[dim]Ctrl+C stops the server; matches are saved after every stroke.[/]")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    try:
        server.run(sockets=[sock])
    finally:
        starting.wait()
        store.close()
        from kaisa.players.search import close_pool

        close_pool()  # the computer players' and the advisor's worker processes go with the server
