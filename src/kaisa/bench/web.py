"""The browser table's answer to a stroke, measured side by side with the bare simulate call.

A real server (uvicorn, in a thread of this process) with a temporary SQLite database answers
``POST /api/matches/{id}/shot`` for seeded 5-ball strokes over HTTP; the same strokes are also simulated
bare (no paths, no referee, no database), alternately, so both see the same machine load. The server's
answer includes everything the page needs: the simulation with 60 Hz paths, the ruling, the transaction
that records the stroke and the match view.
"""

from __future__ import annotations

import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.layouts import random_call, random_layout, random_stroke
from kaisa.model import BallId


@dataclass(frozen=True)
class WebBenchmark:
    strokes: int
    server_ms: list[float]
    simulate_ms: list[float]

    @property
    def median_ratio(self) -> float:
        return statistics.median(self.server_ms) / statistics.median(self.simulate_ms)


def _percentile(values: list[float], q: float) -> float:
    return float(np.percentile(values, q))


def web_benchmark(strokes: int = 100, seed: int = 2014, console: Console | None = None) -> WebBenchmark:
    import httpx
    import uvicorn

    from kaisa.call import format_call
    from kaisa.game import MatchConfig, MatchState, Phase
    from kaisa.physics import simulate
    from kaisa.records.storage import open_store
    from kaisa.referee import GameState
    from kaisa.web import create_app

    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(strokes):
        position = random_layout(rng)
        cases.append((position, random_stroke(rng, position), random_call(rng, position)))
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store("sqlite:///" + str(Path(tmp) / "bench.sqlite3"))
        sock = socket.create_server(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(create_app(store), log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        config = MatchConfig(players=("A", "B"))
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                for _ in range(200):
                    if server.started:
                        break
                    time.sleep(0.05)
                server_ms: list[float] = []
                simulate_ms: list[float] = []
                warm = min(10, strokes)
                with Progress(console=console, transient=True) as progress:
                    task = progress.add_task("strokes over HTTP and bare", total=strokes + warm)
                    for i, (position, stroke, call) in enumerate([*cases[:warm], *cases]):
                        state = MatchState(
                            phase=Phase.PLAY,
                            position=position,
                            game=GameState(shooter=BallId.W1),
                            owners=(BallId.W1, BallId.W2),
                            innings={BallId.W1: 1, BallId.W2: 0},
                        )
                        match_id = store.create_match(config, state=state)
                        body = {"call": format_call(call), "stroke": stroke.to_json()}
                        t0 = time.perf_counter()
                        answer = client.post(f"/api/matches/{match_id}/shot", json=body)
                        t1 = time.perf_counter()
                        simulate(position, stroke)
                        t2 = time.perf_counter()
                        answer.raise_for_status()
                        if i >= warm:
                            server_ms.append(1000 * (t1 - t0))
                            simulate_ms.append(1000 * (t2 - t1))
                        progress.advance(task)
        finally:
            server.should_exit = True
            thread.join(timeout=10)
            store.close()
    return WebBenchmark(strokes, server_ms, simulate_ms)


def print_web_report(result: WebBenchmark, console: Console) -> None:
    table = Table(
        title=f"Browser table: {result.strokes} seeded 5-ball strokes, answered over HTTP and simulated bare",
        title_justify="left",
    )
    for col in ("", "median ms", "p90 ms", "mean ms"):
        table.add_column(col, justify="right" if col else "left")
    for name, values in (("server answer (shot)", result.server_ms), ("bare simulate", result.simulate_ms)):
        table.add_row(
            name,
            f"{statistics.median(values):.1f}",
            f"{_percentile(values, 90):.1f}",
            f"{statistics.fmean(values):.1f}",
        )
    console.print(table)
    median = statistics.median(result.server_ms)
    verdict = "[green]within[/]" if median < 100 else "[red]outside[/]"
    console.print(
        f"server/simulate median ratio = [bold]{result.median_ratio:.2f}[/]; server median {median:.1f} ms "
        f"({verdict} the 100 ms target)"
    )
