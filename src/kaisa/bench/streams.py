"""Spectators by the thousand: a club night's markers and its spectator streams on one server process.

The server is its own process (``python -m kaisa.bench.streams serve``: the app on a fresh SQLite file, or on a
PostgreSQL database given, on 127.0.0.1 only), so its CPU time is its own. Six markers (threads of this process)
enter a stroke every two seconds each, each entry with its key; the spectators' streams are read by another
process (``... read``), each stream on its own connection, spread over the six matches' streams and the club
night's. Measured: the markers' answer times; for every stream and every entry of a match it follows, the delay
from the marker's answer to the first view of the match with that entry (a view that comes first counts 0); the
entries lost or doubled (each match's stored actions against the answered entries) and the streams' views out of
order or sent twice; the streams that saw every entry; the server's CPU with the streams open and no entries.

``before`` is the same server with every stream polling on its own (``Streams(shared=False)``: each stream reads
the database every half second and builds its own view, as the streams did before they were shared).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

from rich.console import Console
from rich.table import Table

EVENT = "Bench night"
HAND = [0.5, 0.3]
BASE_ACTIONS = 3
"""A club match's actions before its first stroke: the lag, the choice of cue ball, W2's place."""
MAX_TARGET = 200
"""The matches are played to 200 (the largest target): a run of kaisa pots (6 each) does not end them."""


# --- the stream reader (also used by the tests) --------------------------------------------------------------


@dataclass
class Followed:
    """What one stream showed: for each match, the action counts it saw and when it first saw each."""

    path: str
    seen: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    views: int = 0
    repeated: int = 0
    """Views identical to the one before (a view sent twice)."""
    backwards: int = 0
    """Views of a match with fewer actions than one seen before (out of order)."""
    error: str | None = None

    def count(self, match_id: int) -> int:
        counts = self.seen.get(match_id)
        return counts[-1][0] if counts else 0

    def first_at(self, match_id: int, actions: int) -> float | None:
        """When the stream first showed the match with ``actions`` actions or more."""
        for count, at in self.seen.get(match_id, []):
            if count >= actions:
                return at
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "seen": {str(k): v for k, v in self.seen.items()},
            "views": self.views,
            "repeated": self.repeated,
            "backwards": self.backwards,
            "error": self.error,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Followed:
        seen = {int(k): [(int(c), float(t)) for c, t in v] for k, v in data["seen"].items()}
        return cls(data["path"], seen, data["views"], data["repeated"], data["backwards"], data["error"])


def _counts(view: dict[str, Any]) -> dict[int, int]:
    tables = view.get("tables")
    matches = tables if isinstance(tables, list) else [view]
    return {int(m["id"]): int(m["actions"]) for m in matches}


async def follow(host: str, port: int, followed: Followed, ready: Callable[[], None]) -> None:
    """Read one server-sent-events stream over a plain HTTP/1.1 connection until cancelled or closed."""
    writer = None
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(
            f"GET {followed.path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        if status != 200:
            followed.error = f"HTTP {status}"
            ready()
            return
        chunked = b"transfer-encoding: chunked" in head.lower()
        buffer = b""
        last = b""
        first = True
        while True:
            if chunked:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    break
                data = (await reader.readexactly(size + 2))[:-2]
            else:
                data = await reader.read(65536)
                if not data:
                    break
            buffer += data
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                at = time.time()
                for line in message.split(b"\n"):
                    if not line.startswith(b"data: "):
                        continue
                    payload = line[6:]
                    followed.views += 1
                    if payload == last:
                        followed.repeated += 1
                    last = payload
                    for match_id, count in _counts(json.loads(payload)).items():
                        counts = followed.seen.setdefault(match_id, [])
                        if counts and count < counts[-1][0]:
                            followed.backwards += 1
                        elif not counts or count > counts[-1][0]:
                            counts.append((count, at))
                    if first:
                        first = False
                        ready()
        followed.error = followed.error or "closed by the server"
    except asyncio.CancelledError:
        raise
    except (OSError, ValueError, asyncio.IncompleteReadError) as error:
        followed.error = f"{type(error).__name__}: {error}"
        ready()
    finally:
        if writer is not None:
            writer.close()


async def follow_all(
    host: str,
    port: int,
    followed: Sequence[Followed],
    stop: asyncio.Event,
    progress: Callable[[int], None] | None = None,
) -> None:
    """Open each stream of ``followed`` (a few connections at a time), call ``progress`` with how many have
    shown their first view, and read them all until ``stop`` is set."""
    opened = 0
    gate = asyncio.Semaphore(50)

    def ready() -> None:
        nonlocal opened
        opened += 1
        gate.release()
        if progress is not None:
            progress(opened)

    async def one(f: Followed) -> None:
        told = False

        def once() -> None:
            nonlocal told
            if not told:
                told = True
                ready()

        await gate.acquire()
        await follow(host, port, f, once)

    tasks = [asyncio.create_task(one(f)) for f in followed]
    await stop.wait()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _read_main(port: int, paths: list[str]) -> None:
    """The reader process: prints ``opened N`` as streams open, reads until a line on stdin, then prints its
    findings as one line of JSON."""
    _more_files()

    async def run() -> list[Followed]:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        shown = [0.0]

        def progress(opened: int) -> None:
            if opened == len(paths) or time.monotonic() - shown[0] > 0.5:
                shown[0] = time.monotonic()
                print(f"opened {opened}", flush=True)

        loop.add_reader(sys.stdin.fileno(), stop.set)
        followed = [Followed(path) for path in paths]
        await follow_all("127.0.0.1", port, followed, stop, progress)
        return followed

    followed = asyncio.run(run())
    print(json.dumps([f.to_json() for f in followed]), flush=True)


# --- the server process --------------------------------------------------------------------------------------


def _serve_main(db: str, shared: bool) -> None:
    """The server process: the app on ``db``, on 127.0.0.1 at a free port (printed as ``port N``)."""
    import uvicorn

    from kaisa.records.storage import open_store
    from kaisa.web import create_app

    _more_files()
    store = open_store(db)
    app = create_app(store)
    app.state.streams.shared = shared
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY on accepted ones
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4096)
    print(f"port {sock.getsockname()[1]}", flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", timeout_graceful_shutdown=1, backlog=4096))
    server.run(sockets=[sock])
    store.close()


def _more_files() -> None:
    """A thousand connections need more open files than some systems allow by default."""
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = 8192 if hard == resource.RLIM_INFINITY else min(hard, 8192)
        if soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def cpu_seconds(pid: int) -> float | None:
    """The process's CPU time so far (user and system), where the system tells it (``/proc``), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# --- the run -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StreamsRun:
    """One side's figures (``before``: every stream on its own; ``after``: shared)."""

    label: str
    streams: int
    markers: int
    entries: int
    interval: float
    answered: int
    lost: int
    doubled: int
    refused: int
    answer_seconds: list[float]
    delays: list[float]
    """For every stream and every entry of a match it follows: seconds from the answer to the stream's first view
    with it (infinite: never seen)."""
    complete: int
    """Streams that saw every entry of the matches they follow."""
    repeated: int
    backwards: int
    broken: int
    """Streams that closed or failed."""
    idle_cpu: float | None
    """The server's CPU (share of one core) with the streams open and no entries."""
    busy_cpu: float | None
    """The server's CPU while the markers enter."""
    watchers: str


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile by rank (nearest rank; infinite values count as the largest)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(q / 100 * len(ordered)) - 1))
    return ordered[rank]


class BenchProcessError(RuntimeError):
    """The benchmark's server or stream reader stopped: the one-line reason with the end of its error output."""


class _Process:
    """A child process speaking in lines on stdout."""

    def __init__(self, args: list[str], stdin: bool = False) -> None:
        self.part = "server" if args[0] == "serve" else "stream reader"
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "kaisa.bench.streams", *args],
            stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
        )

    def line(self) -> str:
        assert self.popen.stdout is not None
        text = self.popen.stdout.readline()
        if not text:
            assert self.popen.stderr is not None
            said = self.popen.stderr.read().strip().splitlines()
            raise BenchProcessError(
                f"the benchmark's {self.part} process stopped: {said[-1] if said else 'no error output'}"
            )
        return text.strip()

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait()


def streams_run(
    label: str,
    shared: bool,
    streams: int,
    markers: int,
    entries: int,
    interval: float,
    idle: float,
    tail: float,
    db: str | None,
    console: Console,
) -> StreamsRun:
    import httpx

    with tempfile.TemporaryDirectory() as tmp:
        url = db or f"sqlite:///{Path(tmp) / 'streams.sqlite3'}"
        server = _Process(["serve", url, "shared" if shared else "per-stream"])
        reader: _Process | None = None
        try:
            port = int(server.line().split()[1])
            base = f"http://127.0.0.1:{port}"
            event = f"{EVENT} {uuid.uuid4().hex[:6]}"
            with httpx.Client(base_url=base, timeout=60) as client:
                for _ in range(600):
                    with contextlib.suppress(httpx.TransportError):
                        client.get("/api/table")
                        break
                    time.sleep(0.1)
                tables = [_new_match(client, event, n) for n in range(markers)]
            paths = [f"/api/club/matches/{m}/stream" for m, _ in tables] + [f"/api/club/events/{quote(event)}/stream"]
            chosen = [paths[i % len(paths)] for i in range(streams)]
            reader = _Process(["read", str(port), json.dumps(chosen)], stdin=True)
            console.print(f"[dim]{label}: opening {streams} streams…[/]")
            shown = time.monotonic()
            while True:
                opened = int(reader.line().split()[1])
                if time.monotonic() - shown > 5:
                    shown = time.monotonic()
                    console.print(f"[dim]  {opened}/{streams} streams open[/]")
                if opened >= streams:
                    break
            console.print(f"[dim]{label}: {streams} streams open; {idle:.0f} s with no entries…[/]")
            time.sleep(1.0)
            cpu0, t0 = cpu_seconds(server.popen.pid), time.monotonic()
            time.sleep(idle)
            cpu1, t1 = cpu_seconds(server.popen.pid), time.monotonic()
            idle_cpu = None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / (t1 - t0)
            console.print(f"[dim]{label}: {markers} markers enter {entries} strokes each, one every {interval:g} s…[/]")
            answers, refused, busy_cpu = _mark(base, tables, entries, interval, server.popen.pid, console, label)
            last = max((at for a in answers.values() for _, at, _ in a), default=time.time())
            console.print(f"[dim]{label}: waiting up to {tail:g} s for the streams to show the last entries…[/]")
            time.sleep(max(0.0, last + tail - time.time()))
            assert reader.popen.stdin is not None
            reader.popen.stdin.write("stop\n")
            reader.popen.stdin.flush()
            found = reader.line()
            while not found.startswith("["):
                found = reader.line()
            followed = [Followed.from_json(f) for f in json.loads(found)]
            with httpx.Client(base_url=base, timeout=60) as client:
                stored = {m: client.get(f"/api/club/matches/{m}").json()["actions"] for m, _ in tables}
            watchers = "one per stream" if not shared else f"{len(paths)} (one per match and the club night)"
        finally:
            if reader is not None:
                reader.stop()
            server.stop()
    answered = sum(len(a) for a in answers.values())
    lost = sum(max(0, BASE_ACTIONS + len(answers[m]) - stored[m]) for m, _ in tables)
    doubled = sum(max(0, stored[m] - BASE_ACTIONS - len(answers[m])) for m, _ in tables)
    delays: list[float] = []
    complete = 0
    for f in followed:
        whole = f.error is None or f.error == "closed by the server"
        for match_id in answers if f.path.startswith("/api/club/events/") else [_match_of(f.path)]:
            for count, at, _ in answers[match_id]:
                seen = f.first_at(match_id, count)
                delays.append(math.inf if seen is None else max(0.0, seen - at))
                whole = whole and seen is not None
        complete += whole
    return StreamsRun(
        label=label,
        streams=streams,
        markers=markers,
        entries=entries,
        interval=interval,
        answered=answered,
        lost=lost,
        doubled=doubled,
        refused=refused,
        answer_seconds=[s for a in answers.values() for _, _, s in a],
        delays=delays,
        complete=complete,
        repeated=sum(f.repeated for f in followed),
        backwards=sum(f.backwards for f in followed),
        broken=sum(f.error is not None for f in followed),
        idle_cpu=idle_cpu,
        busy_cpu=busy_cpu,
        watchers=watchers,
    )


def _match_of(path: str) -> int:
    return int(path.split("/")[4])


def _new_match(client: Any, event: str, n: int) -> tuple[int, dict[str, str]]:
    made = client.post(
        "/api/club/matches",
        json={"players": [f"A{n}", f"B{n}"], "event": event, "options": {"winning_score": MAX_TARGET}},
    )
    made.raise_for_status()
    match_id, token = made.json()["match"]["id"], {"X-Kaisa-Token": made.json()["token"]}
    client.post(f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token).raise_for_status()
    return match_id, token


def _mark(
    base: str,
    tables: list[tuple[int, dict[str, str]]],
    entries: int,
    interval: float,
    pid: int,
    console: Console,
    label: str,
) -> tuple[dict[int, list[tuple[int, float, float]]], int, float | None]:
    """Each marker (a thread) enters a kaisa pot every ``interval`` seconds, the markers staggered; returns each
    match's answered entries (actions after it, when answered, answer seconds), the refusals, the server's CPU."""
    import httpx

    answers: dict[int, list[tuple[int, float, float]]] = {m: [] for m, _ in tables}
    refused = [0]
    start = time.monotonic() + 0.5
    cpu0, t0 = cpu_seconds(pid), time.monotonic()

    def marker(n: int, match_id: int, token: dict[str, str]) -> None:
        with httpx.Client(base_url=base, timeout=60) as client:
            for i in range(entries):
                due = start + interval * (i + n / len(tables))
                time.sleep(max(0.0, due - time.monotonic()))
                marks: dict[str, Any] = {"pots": [["K", "FL"]], "first_contact": "K"}
                if i == 0:
                    marks["place"] = HAND
                headers = {**token, "Idempotency-Key": uuid.uuid4().hex}
                sent = time.perf_counter()
                answer = client.post(
                    f"/api/club/matches/{match_id}/strokes", json={"call": "K FL", "marks": marks}, headers=headers
                )
                took = time.perf_counter() - sent
                if answer.status_code != 200:
                    refused[0] += 1
                    continue
                answers[match_id].append((answer.json()["match"]["actions"], time.time(), took))

    threads = [threading.Thread(target=marker, args=(n, m, t)) for n, (m, t) in enumerate(tables)]
    for thread in threads:
        thread.start()
    total = entries * len(tables)
    while any(t.is_alive() for t in threads):
        time.sleep(5)
        done = sum(len(a) for a in answers.values()) + refused[0]
        console.print(f"[dim]  {label}: {done}/{total} entries answered[/]")
    for thread in threads:
        thread.join()
    cpu1, t1 = cpu_seconds(pid), time.monotonic()
    busy = None if cpu0 is None or cpu1 is None else (cpu1 - cpu0) / (t1 - t0)
    return answers, refused[0], busy


def _seconds(value: float) -> str:
    return "never" if math.isinf(value) else f"{value:.2f}"


def print_streams_report(runs: Sequence[StreamsRun], console: Console) -> None:
    first = runs[0]
    table = Table(
        title=f"Spectator streams: {first.streams} streams, {first.markers} markers entering a stroke every "
        f"{first.interval:g} s ({first.entries} each), one server process",
        title_justify="left",
    )
    table.add_column("")
    for run in runs:
        table.add_column(run.label, justify="right")
    rows: list[tuple[str, Callable[[StreamsRun], str]]] = [
        ("watchers", lambda r: r.watchers),
        (
            "entries answered / lost / doubled / refused",
            lambda r: f"{r.answered} / {r.lost} / {r.doubled} / {r.refused}",
        ),
        (
            "marker's answer p50 / p99 s",
            lambda r: f"{percentile(r.answer_seconds, 50):.3f} / {percentile(r.answer_seconds, 99):.3f}",
        ),
        (
            "stream delay p50 / p99 / max s",
            lambda r: " / ".join(_seconds(percentile(r.delays, q)) for q in (50, 99, 100)),
        ),
        ("streams that saw every entry", lambda r: f"{r.complete} of {r.streams}"),
        ("views repeated / out of order", lambda r: f"{r.repeated} / {r.backwards}"),
        ("streams broken", lambda r: str(r.broken)),
        (
            "server CPU, streams open, no entries",
            lambda r: "n/a" if r.idle_cpu is None else f"{100 * r.idle_cpu:.1f}% of a core",
        ),
        ("server CPU while entering", lambda r: "n/a" if r.busy_cpu is None else f"{100 * r.busy_cpu:.1f}% of a core"),
    ]
    for name, cell in rows:
        table.add_row(name, *(cell(run) for run in runs))
    console.print(table)


def main(argv: list[str]) -> None:
    if argv[0] == "serve":
        _serve_main(argv[1], argv[2] == "shared")
    elif argv[0] == "read":
        _read_main(int(argv[1]), json.loads(argv[2]))
    else:
        raise SystemExit(f"unknown part {argv[0]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
