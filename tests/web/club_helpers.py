"""What the club API tests share: a real server (uvicorn in a thread, or ``kaisa play`` as its own process that a
test may kill), a club match with W2 placed, keyed entries, and a match driven to the penalty shoot-out through
kaisa.session with marked entries (the clock's seconds given, so nobody waits an hour)."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from kaisa.game import Phase
from kaisa.game.marking import Marks
from kaisa.records.storage import open_store
from kaisa.session.registry import Sessions
from kaisa.web import create_app

POT_K: dict[str, Any] = {"call": "K FL", "marks": {"pots": [["K", "FL"]], "first_contact": "K"}}
HAND = [0.5, 0.3]
"""A legal place for a cue ball in hand (behind the head string)."""
KAISA = str(Path(sys.executable).parent / "kaisa")


@contextmanager
def serve(db: Path, bind_host: str | None = None) -> Iterator[str]:
    """The app on the SQLite file ``db``, served by uvicorn in a thread (as if started with ``--host bind_host``:
    the marker's QR link depends on it); yields its base URL."""
    store = open_store(f"sqlite:///{db}")
    app = create_app(store)
    if bind_host is not None:
        app.state.bind_host = bind_host
    sock = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive(), "the web server stopped while starting"
        assert time.monotonic() < deadline, "the web server did not start within 60 s"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        store.close()


def start_kaisa_play(db: str, *extra: str, port: int = 0, scheme: str = "http") -> tuple[subprocess.Popen[str], str]:
    """``kaisa play`` on the database ``db`` as its own process (so that a test can kill it), once it answers;
    returns the process and its base URL (``port`` 0: any free port)."""
    return start_kaisa_server("play", db, *extra, port=port, scheme=scheme, ready="/api/table")


def start_kaisa_server(
    command: str, db: str, *extra: str, port: int = 0, scheme: str = "http", ready: str = "/api/table"
) -> tuple[subprocess.Popen[str], str]:
    """``kaisa <command>`` (play or club) on ``db`` as its own process, once ``ready`` answers 200: the process
    and its base URL."""
    process = subprocess.Popen(
        [KAISA, command, "--no-browser", "--port", str(port), "--db", db, *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"},
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        assert line, f"kaisa {command} exited with {process.poll()}"
        found = re.search(rf"{scheme}://127\.0\.0\.1:\d+", line)
        if found:
            url = found.group(0)
            for _ in range(1200):
                try:
                    if httpx.get(f"{url}{ready}", timeout=5, verify=False).status_code == 200:
                        return process, url
                except httpx.TransportError:
                    pass
                time.sleep(0.1)
    process.kill()
    raise AssertionError(f"kaisa {command} did not start")


def new_match(client: httpx.Client, **extra: Any) -> tuple[int, dict[str, str]]:
    """A club match between Aino and Eero with W2 placed (Aino breaks with W1 from hand); its id and the marker's
    token header."""
    made = client.post("/api/club/matches", json={"players": ["Aino", "Eero"], **extra})
    assert made.status_code == 201, made.text
    data = made.json()
    assert data["match"]["phase"] == "place-w2"
    assert data["marker_url"] == f"/club#/match/{data['match']['id']}/{data['token']}"
    token = {"X-Kaisa-Token": data["token"]}
    placed = client.post(
        f"/api/club/matches/{data['match']['id']}/place-w2", json={"point": [0.71, 2.6]}, headers=token
    )
    assert placed.status_code == 200, placed.text
    return data["match"]["id"], token


def keyed(token: dict[str, str], key: str) -> dict[str, str]:
    return {**token, "Idempotency-Key": key}


def entry(token: dict[str, str]) -> dict[str, str]:
    """The headers of one new entry: the token and a fresh key, as the marker's phone sends them (an entry needs
    a key or its stroke's number)."""
    return keyed(token, uuid.uuid4().hex)


def pot(index: int) -> dict[str, Any]:
    """The ``index``-th stroke of a run of kaisa pots from the break (the first from hand)."""
    marks: dict[str, Any] = dict(POT_K["marks"])
    body: dict[str, Any] = {"call": POT_K["call"], "marks": marks}
    if index == 0:
        marks["place"] = HAND
    return body


def stroke(
    client: httpx.Client, match_id: int, headers: dict[str, str], call: str | None, **marks: Any
) -> httpx.Response:
    headers = headers if "Idempotency-Key" in headers else entry(headers)
    return client.post(f"/api/club/matches/{match_id}/strokes", json={"call": call, "marks": marks}, headers=headers)


def actions(client: httpx.Client, match_id: int) -> int:
    return len(client.get(f"/api/matches/{match_id}/actions").json())


def state(client: httpx.Client, match_id: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    return client.get(f"/api/matches/{match_id}").json(), client.get(f"/api/matches/{match_id}/actions").json()


def to_shootout_lag(db: Path, match_id: int, token: str) -> int:
    """Drive a club match on the competition clock to its shoot-out lag (6) with marked misses through
    kaisa.session, the first charged the whole hour; returns how many strokes were entered."""
    entered = 0
    with open_store(f"sqlite:///{db}") as store:
        sessions = Sessions(store)
        while True:
            with sessions.open(match_id, token=token, marker=True) as session:
                current = session.state
                if current.phase is Phase.SHOOTOUT_LAG:
                    return entered
                assert current.phase is Phase.PLAY, current.phase
                assert entered < 12, "the final innings do not end"
                marks: dict[str, Any] = {"first_contact": "R2"}
                if current.game.from_hand or current.game.opening:
                    marks["place"] = HAND
                session.mark(None, Marks.from_json(marks), 3600.0 if entered == 0 else 1.0)
                entered += 1


def send_and_drop(base: str, path: str, body: Any, headers: dict[str, str]) -> None:
    """POST ``body`` to ``path`` and drop the connection before the answer (a phone's Wi-Fi that goes away)."""
    host, port = base.removeprefix("http://").split(":")
    request = httpx.Request("POST", f"{base}{path}", json=body, headers=headers)
    raw = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\n"
        + "".join(f"{k}: {v}\r\n" for k, v in request.headers.items() if k.lower() != "host")
        + "Connection: close\r\n\r\n"
    ).encode() + request.read()
    with socket.create_connection((host, int(port))) as sock:
        sock.sendall(raw)
        sock.shutdown(socket.SHUT_WR)  # the answer is never read


def wait_for(check: Any, what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds:g} s"
        time.sleep(0.05)


def stop(process: subprocess.Popen[str]) -> None:
    """Stop a ``kaisa play`` process: politely, then (a page's open stream may hold it) by force."""
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=30)
