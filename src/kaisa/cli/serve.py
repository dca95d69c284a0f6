"""``kaisa play`` and ``kaisa club``: the web server, opening the table or the marker's page."""

from __future__ import annotations

from typing import Annotated

import typer

from kaisa import __version__
from kaisa.cli.common import console, ensure_physics_ready, fail


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


def serve(host: str, port: int, db: str | None, no_browser: bool, page: str) -> None:
    import socket
    import threading
    import webbrowser

    import uvicorn

    from kaisa.records.storage import StorageError, open_store
    from kaisa.web import create_app

    try:
        store = open_store(db)
    except StorageError as exc:
        fail(str(exc))
    ensure_physics_ready()
    try:
        sock = socket.create_server((host, port))
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}; choose another --port (0 picks a free one)")
    bound = sock.getsockname()[1]
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '') else host}:{bound}{page}"
    what = "the marker's page" if page == "/club" else "the table"
    console.print(f"[bold]Kaisa {__version__}[/]: {what} is at [link={url}]{url}[/link]  (matches in {store.url})")
    console.print("[dim]Ctrl+C stops the server; matches are saved after every stroke.[/]")
    if not no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(create_app(store, close_store=True), log_level="warning"))
    try:
        server.run(sockets=[sock])
    finally:
        from kaisa.players.search import close_pool

        close_pool()  # the computer players' and the advisor's worker processes go with the server
