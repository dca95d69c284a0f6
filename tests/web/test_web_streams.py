"""Shared spectator streams (kaisa.web.streams): a hundred streams on one server, and streams on several server
processes over one PostgreSQL database. Real servers (uvicorn; ``kaisa club`` processes), real HTTP streams read
over their own connections, real SQLite and PostgreSQL. No timing is asserted: a test waits (boundedly) until every
stream has shown the last entry, then checks that nothing was lost, doubled or shown out of order."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import uvicorn

from kaisa.bench.streams import Followed, follow_all
from kaisa.records.storage import open_store
from kaisa.web import create_app
from tests.postgres_server import PostgresServer, PostgresUnavailableError, start_server
from tests.web.club_helpers import KAISA, start_kaisa_server, stop

BASE_ACTIONS = 3
"""A club match's actions before its first stroke: the lag, the choice of cue ball, W2's place."""


class Spectators:
    """Streams read in a thread of their own (an event loop with one connection per stream)."""

    def __init__(self, port: int, paths: list[str]) -> None:
        self.port = port
        self.followed = [Followed(path) for path in paths]
        self.opened = 0
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        async def main() -> None:
            self._stop = asyncio.Event()
            await follow_all("127.0.0.1", self.port, self.followed, self._stop, self._progress)

        self._loop.run_until_complete(main())

    def _progress(self, opened: int) -> None:
        self.opened = opened

    def close(self) -> None:
        assert self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(timeout=60)
        assert not self._thread.is_alive()
        self._loop.close()


def wait_until(what: str, done: Any, seconds: float = 120.0) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, f"{what} did not happen within {seconds:g} s"
        time.sleep(0.05)


def new_match(client: httpx.Client, event: str, names: tuple[str, str]) -> tuple[int, dict[str, str]]:
    made = client.post("/api/club/matches", json={"players": list(names), "event": event})
    assert made.status_code == 201, made.text
    match_id, token = made.json()["match"]["id"], {"X-Kaisa-Token": made.json()["token"]}
    placed = client.post(f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token)
    assert placed.status_code == 200, placed.text
    return match_id, token


def pot(client: httpx.Client, match_id: int, token: dict[str, str], first: bool) -> int:
    """A kaisa pot entered with its key; the match's actions after it."""
    marks: dict[str, Any] = {"pots": [["K", "FL"]], "first_contact": "K"}
    if first:
        marks["place"] = [0.5, 0.3]
    answer = client.post(
        f"/api/club/matches/{match_id}/strokes",
        json={"call": "K FL", "marks": marks},
        headers={**token, "Idempotency-Key": uuid.uuid4().hex},
    )
    assert answer.status_code == 200, answer.text
    actions: int = answer.json()["match"]["actions"]
    return actions


def matches_of(f: Followed, matches: list[int]) -> list[int]:
    return matches if "/events/" in f.path else [int(f.path.split("/")[4])]


def check_streams(followed: list[Followed], final: dict[int, int]) -> None:
    """Every stream showed each of its matches at its final count, never went back, never sent a view twice."""
    for f in followed:
        assert f.error is None, (f.path, f.error)
        assert f.backwards == 0, f.path
        assert f.repeated == 0, f.path
        for match_id in matches_of(f, list(final)):
            counts = [count for count, _ in f.seen[match_id]]
            assert counts == sorted(set(counts)), (f.path, counts)
            assert counts[-1] == final[match_id], (f.path, counts)


def caught_up(followed: list[Followed], final: dict[int, int]) -> bool:
    return all(f.count(m) >= final[m] for f in followed for m in matches_of(f, list(final)))


# --- a hundred streams on one server ---------------------------------------------------------------------------


@contextmanager
def serving(db: str) -> Iterator[tuple[str, Any]]:
    """The app on ``db``, served by uvicorn in a thread: its base URL and the app."""
    store = open_store(db)
    app = create_app(store)
    sock = socket.create_server(("127.0.0.1", 0), backlog=1024)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    wait_until("the server's start", lambda: server.started, 60)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", app
    finally:
        server.should_exit = True
        thread.join(timeout=20)
        store.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Any]]:
    with serving(f"sqlite:///{tmp_path / 'streams.sqlite3'}") as it:
        yield it


def test_a_hundred_streams_see_every_entry_once_from_one_watcher_per_view(served: tuple[str, Any]) -> None:
    base, app = served
    port = int(base.rsplit(":", 1)[1])
    event, strokes = "Streams night", 5
    with httpx.Client(base_url=base, timeout=60) as client:
        tables = [new_match(client, event, (f"A{n}", f"B{n}")) for n in range(3)]
    matches = [m for m, _ in tables]
    paths = [f"/api/club/matches/{m}/stream" for m in matches] + [f"/api/club/events/{quote(event)}/stream"]
    spectators = Spectators(port, [paths[i % len(paths)] for i in range(100)])
    try:
        wait_until("100 streams' first views", lambda: spectators.opened == 100)
        assert app.state.streams.watchers == len(paths)  # one per match and one for the night, not one per stream
        answered: dict[int, list[int]] = {m: [] for m in matches}

        def marker(match_id: int, token: dict[str, str]) -> None:
            with httpx.Client(base_url=base, timeout=60) as client:
                for i in range(strokes):
                    answered[match_id].append(pot(client, match_id, token, i == 0))

        threads = [threading.Thread(target=marker, args=table) for table in tables]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        final = {m: BASE_ACTIONS + strokes for m in matches}
        assert answered == {m: list(range(BASE_ACTIONS + 1, final[m] + 1)) for m in matches}  # each entry once
        wait_until("every stream's view of the last entries", lambda: caught_up(spectators.followed, final))
    finally:
        spectators.close()
    check_streams(spectators.followed, final)
    with httpx.Client(base_url=base, timeout=60) as client:
        assert {m: client.get(f"/api/club/matches/{m}").json()["actions"] for m in matches} == final
    # the spectators gone, so are the watchers
    wait_until("the watchers' end", lambda: app.state.streams.watchers == 0, 60)


def test_a_stream_of_a_match_that_does_not_exist_is_refused_before_it_starts(served: tuple[str, Any]) -> None:
    base, app = served
    with httpx.Client(base_url=base, timeout=30) as client:
        answer = client.get("/api/club/matches/999/stream")
        assert answer.status_code == 404
        assert answer.json()["code"] == "unknown-match"
        assert client.get("/api/kaavio/competitions/999/stream").status_code == 404
    assert app.state.streams.watchers == 0


def test_the_club_nights_stream_reads_again_only_the_table_that_changed_and_shows_every_change(
    served: tuple[str, Any],
) -> None:
    """A break begun at one table (noted, not an action) and a stroke at the other: the night's stream shows each
    as it happens, and the table not changed keeps what it showed (its break still running)."""
    base, _ = served
    event = "Clock night"
    views: list[dict[str, Any]] = []

    def watch() -> None:
        with httpx.stream("GET", f"{base}/api/club/events/{quote(event)}/stream", timeout=60) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    views.append(json.loads(line[6:]))
                    if len(views) == 3:
                        return

    with httpx.Client(base_url=base, timeout=60) as client:
        made = [
            client.post("/api/club/matches", json={"players": [a, b], "event": event, "clock": "wall"})
            for a, b in (("Aino", "Eero"), ("Kalle", "Liisa"))
        ]
        tables = []
        for answer in made:
            match_id, token = answer.json()["match"]["id"], {"X-Kaisa-Token": answer.json()["token"]}
            client.post(f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token)
            tables.append((match_id, token))
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        wait_until("the night's first view", lambda: len(views) == 1)
        (first, token1), (second, token2) = tables
        began = client.post(f"/api/club/matches/{second}/break-start", json={"cue_ball": "W1"}, headers=token2)
        assert began.status_code == 200, began.text
        wait_until("the break on the night's stream", lambda: len(views) == 2)
        pot(client, first, token1, True)
        watcher.join(timeout=60)
    assert len(views) == 3
    shown = [{t["id"]: t for t in v["tables"]} for v in views]
    assert [s[second]["break_running"] is not None for s in shown] == [False, True, True]
    assert [s[first]["actions"] for s in shown] == [BASE_ACTIONS, BASE_ACTIONS, BASE_ACTIONS + 1]


# --- several server processes on one PostgreSQL database -------------------------------------------------------


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    reason = ""
    try:
        server = start_server()
    except PostgresUnavailableError as error:
        reason = str(error)
    if reason:
        pytest.fail(f"cannot start a PostgreSQL server for the streams tests: {reason}", pytrace=False)
    yield server
    server.stop()


def test_an_entry_through_one_server_wakes_the_streams_of_another_by_a_postgresql_notification(
    postgres: PostgresServer,
) -> None:
    """Two apps (each with its own store, as two processes) on one PostgreSQL database; the second's watchers poll
    only once an hour, so only a notification from the first's writes can show its entries on the second's
    streams."""
    db = postgres.create_database()
    with serving(db) as (writer, _), serving(db) as (reader, app):
        app.state.streams.poll_seconds = 3600.0
        event, strokes = "Notified night", 3
        with httpx.Client(base_url=writer, timeout=60) as client:
            match_id, token = new_match(client, event, ("Aino", "Eero"))
            paths = [f"/api/club/matches/{match_id}/stream", f"/api/club/events/{quote(event)}/stream"] * 3
            spectators = Spectators(int(reader.rsplit(":", 1)[1]), paths)
            try:
                wait_until("the streams' first views", lambda: spectators.opened == len(paths))
                for i in range(strokes):
                    pot(client, match_id, token, i == 0)
                final = {match_id: BASE_ACTIONS + strokes}
                wait_until("every stream's view of the last entry", lambda: caught_up(spectators.followed, final))
            finally:
                spectators.close()
    check_streams(spectators.followed, final)


def start_club(db: str, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """``kaisa club`` on ``db`` as its own process (with ``extra`` options), once it answers: the process and its
    base URL."""
    return start_kaisa_server("club", db, *extra, ready="/api/club/marker-facts")


@pytest.mark.slow
def test_two_servers_one_with_two_workers_on_one_postgresql_share_every_entry(postgres: PostgresServer) -> None:
    """``kaisa club`` and ``kaisa club --workers 2`` on one PostgreSQL database: markers enter through either in
    turn, spectators follow on both; every entry is stored once and in order, and every stream on either server
    shows every entry, in order, each view once."""
    db = postgres.create_database()
    one, one_url = start_club(db)
    two, two_url = start_club(db, "--workers", "2")
    spectators: list[Spectators] = []
    try:
        event, strokes = "Two servers night", 6
        urls = (one_url, two_url)
        with httpx.Client(base_url=one_url, timeout=60) as a, httpx.Client(base_url=two_url, timeout=60) as b:
            tables = [new_match(a, event, ("Aino", "Eero")), new_match(b, event, ("Kalle", "Liisa"))]
        matches = [m for m, _ in tables]
        paths = [f"/api/club/matches/{m}/stream" for m in matches] + [f"/api/club/events/{quote(event)}/stream"]
        for url in urls:
            spectators.append(Spectators(int(url.rsplit(":", 1)[1]), [paths[i % len(paths)] for i in range(12)]))
        wait_until("the streams' first views", lambda: all(s.opened == 12 for s in spectators))
        answered: dict[int, list[int]] = {m: [] for m in matches}

        def marker(n: int, match_id: int, token: dict[str, str]) -> None:
            clients = [httpx.Client(base_url=url, timeout=60) for url in urls]
            try:
                for i in range(strokes):  # through one server, then the other
                    answered[match_id].append(pot(clients[(i + n) % 2], match_id, token, i == 0))
            finally:
                for client in clients:
                    client.close()

        threads = [threading.Thread(target=marker, args=(n, *table)) for n, table in enumerate(tables)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=180)
        final = {m: BASE_ACTIONS + strokes for m in matches}
        assert answered == {m: list(range(BASE_ACTIONS + 1, final[m] + 1)) for m in matches}
        followed = [f for s in spectators for f in s.followed]
        wait_until("every stream's view of the last entries", lambda: caught_up(followed, final))
        for s in spectators:
            s.close()
        spectators.clear()
        check_streams(followed, final)
        for url in urls:
            with httpx.Client(base_url=url, timeout=60) as client:
                for m in matches:
                    actions = client.get(f"/api/matches/{m}/actions").json()
                    assert [a["index"] for a in actions] == list(range(final[m]))
                    assert [a["action"]["kind"] for a in actions[BASE_ACTIONS:]] == ["marked"] * strokes
    finally:
        for s in spectators:
            s.close()
        stop(one)
        stop(two)


@pytest.mark.parametrize(
    "command",
    [["club", "--workers", "2", "--no-browser"], ["bench", "streams", "--streams", "5", "--entries", "1"]],
)
def test_workers_and_the_streams_bench_on_a_database_that_cannot_be_opened_say_so_in_one_line(
    command: list[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "no" / "such" / "x.sqlite3")
    done = subprocess.run(
        [KAISA, *command, "--db", db],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1", "TERM": "dumb"},
        check=False,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    said = (done.stdout + done.stderr).strip().splitlines()
    assert len(said) == 1, said
    assert "cannot open the database" in said[0]
