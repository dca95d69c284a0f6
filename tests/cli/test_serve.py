"""The server of ``kaisa play`` / ``kaisa club``: TCP_NODELAY on every connection, the page before the physics.

Without TCP_NODELAY every small answer on a kept-alive connection waits about 40 ms (Nagle's algorithm
meeting the client's delayed ACK). Timing that would make a flaky test, so the test reads the option off
the server's side of a real kept-alive connection instead: the socket asyncio accepted for the request.
The counter-test shows the same server over ``socket.create_server`` (what ``kaisa play`` used) has it off.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from kaisa.cli.front import listen_socket
from kaisa.cli.serve import StartingApp
from kaisa.records.storage import open_store
from kaisa.web import create_app


@contextmanager
def serving(app: Any, sock: socket.socket) -> Iterator[tuple[str, uvicorn.Server]]:
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive(), "the server stopped while starting"
        assert time.monotonic() < deadline, "the server did not start within 30 s"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", server
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()


def nodelay_of_connections(server: uvicorn.Server) -> list[int]:
    """TCP_NODELAY of each open connection's socket on the server's side."""
    out = []
    for protocol in server.server_state.connections:
        sock = protocol.transport.get_extra_info("socket")
        out.append(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
    return out


def kept_alive_answers(url: str, server: uvicorn.Server) -> list[int]:
    with httpx.Client(base_url=url, timeout=30) as client:
        for _ in range(3):  # three small answers on one kept-alive connection
            answer = client.get("/api/table")
            assert answer.status_code == 200
            assert answer.headers.get("connection", "keep-alive").lower() != "close"
        flags = nodelay_of_connections(server)
    assert len(flags) == 1, "the three requests should share one connection"
    return flags


def app_on(tmp_path: Path) -> Any:
    return create_app(open_store(f"sqlite:///{tmp_path / 'kaisa.db'}"), close_store=True)


def test_every_served_connection_has_tcp_nodelay(tmp_path):
    with serving(app_on(tmp_path), listen_socket("127.0.0.1", 0)) as (url, server):
        assert kept_alive_answers(url, server) == [1]


def test_a_socket_from_create_server_would_leave_nagle_on(tmp_path):
    with serving(app_on(tmp_path), socket.create_server(("127.0.0.1", 0))) as (url, server):
        assert kept_alive_answers(url, server) == [0]


def test_the_page_opens_while_the_app_loads_and_the_api_waits_for_it(tmp_path):
    release = threading.Event()

    def load(make: Callable[[], Any] = lambda: app_on(tmp_path)) -> Any:
        release.wait(30)
        return make()

    starting = StartingApp(load)
    with serving(starting, listen_socket("127.0.0.1", 0)) as (url, _server):
        page = httpx.get(url + "/", timeout=30)
        assert page.status_code == 200
        assert "<html" in page.text.lower()
        assert httpx.get(url + "/static/table/app.js", timeout=30).status_code == 200
        assert not starting.wait(0)  # the page was answered before the app had loaded
        # with the app's security headers (issue 16: the pages served while loading had none)
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["x-content-type-options"] == "nosniff"
        assert "content-security-policy" in page.headers
        answers: list[httpx.Response] = []
        waiting = threading.Thread(target=lambda: answers.append(httpx.get(url + "/api/table", timeout=30)))
        waiting.start()
        waiting.join(0.5)
        assert not answers  # the API waits for the app
        release.set()
        waiting.join(30)
        assert answers
        assert answers[0].status_code == 200
        assert "width" in answers[0].text


def test_a_failed_load_answers_503_with_the_reason():
    def load() -> Any:
        raise RuntimeError("no physics today")

    with serving(StartingApp(load), listen_socket("127.0.0.1", 0)) as (url, _server):
        answer = httpx.get(url + "/api/table", timeout=30)
        assert answer.status_code == 503
        assert "no physics today" in answer.text
        assert answer.headers["x-content-type-options"] == "nosniff"
