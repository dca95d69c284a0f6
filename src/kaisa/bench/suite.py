"""``kaisa bench``: every speed figure of the project in one run, each a ratio against a baseline measured
side by side on this machine at the same time.

1. *Physics*: stock pooltool v the fast layer (:mod:`kaisa.physics.fast`) per stroke, alternating stroke by
   stroke in one process; then stock v fast v the compiled event loop (:mod:`kaisa.bench.compiled`, with its
   agreement: identical event sequences, rulings, final positions).
2. *Match length*: the server's work for a stroke's answer, the view, a page of the history, an action's
   animation and an undo, at the start of a match and after ``actions`` actions, in one process on a
   temporary SQLite file. A stroke's answer and an animation contain a simulation whose cost depends on the
   stroke, so their *overhead* (the answer minus the same stroke simulated bare with its paths) is compared.
3. *Start-up*: ``kaisa simulate`` and ``kaisa play`` (until its page answers, and until its API answers with
   the physics loaded) against ``python -c pass``, each started as a fresh process.
4. *Master*: decision time (median, 90th percentile) with 2 workers, 1 worker and as before, and the regret
   against a deeper search (:mod:`kaisa.bench.master`).

Tests never assert on these numbers.
"""

from __future__ import annotations

import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from kaisa.layouts import random_layout, random_stroke

# --- 1. physics ------------------------------------------------------------------------------------------


def physics_stock_v_fast(strokes: int, seed: int, console: Console | None) -> dict[str, float]:
    """Seconds per stroke of :func:`kaisa.physics.simulate` with pooltool as the engine (stock, and with the
    fast layer: the engines before this one) and with Kaisa's engine, alternating stroke by stroke (which goes
    first rotating too)."""
    from kaisa.physics import reference, simulate

    rng = np.random.default_rng(seed)
    cases = []
    for _ in range(strokes):
        position = random_layout(rng)
        cases.append((position, random_stroke(rng, position)))
    for position, stroke in cases[:10]:  # kernels loaded before either side is timed
        simulate(position, stroke)
        reference.simulate(position, stroke)
    backends = ("stock", "fast", "engine")
    spent = dict.fromkeys(backends, 0.0)
    try:
        with Progress(console=console, transient=True) as progress:
            task = progress.add_task("stock pooltool v fast layer v engine", total=strokes)
            for i, (position, stroke) in enumerate(cases):
                for k in range(3):
                    which = backends[(i + k) % 3]
                    if which == "engine":
                        reference.use_kaisa_engine()
                    else:
                        reference.use_as_engine(stock=which == "stock")
                    t0 = time.perf_counter()
                    simulate(position, stroke)
                    spent[which] += time.perf_counter() - t0
                progress.advance(task)
    finally:
        reference.use_kaisa_engine()
    return {
        "strokes": strokes,
        "stock_ms": 1000 * spent["stock"] / strokes,
        "fast_ms": 1000 * spent["fast"] / strokes,
        "engine_ms": 1000 * spent["engine"] / strokes,
        "speed-up": spent["stock"] / spent["fast"],
        "engine_v_stock": spent["stock"] / spent["engine"],
    }


# --- 2. match length -------------------------------------------------------------------------------------


def _median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return 1000 * statistics.median(times)


def match_length(actions: int, repeat: int, seed: int, console: Console | None) -> dict[str, Any]:
    """The server's work at the start of a match and after ``actions`` actions (see the module's notes)."""
    from kaisa.game import MatchConfig, MatchState, Phase
    from kaisa.model import BallId, Stroke
    from kaisa.physics import simulate
    from kaisa.records.storage import open_store
    from kaisa.referee import GameState
    from kaisa.web.service import MatchService

    rng = np.random.default_rng(seed)
    out: dict[str, Any] = {"actions": actions}
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store("sqlite:///" + str(Path(tmp) / "bench.sqlite3"))
        try:
            service = MatchService(store)
            config = MatchConfig(players=("A", "B"))
            start = random_layout(rng)
            state = MatchState(
                phase=Phase.PLAY,
                position=start,
                game=GameState(shooter=BallId.W1),
                owners=(BallId.W1, BallId.W2),
                innings={BallId.W1: 1, BallId.W2: 0},
            )
            match_id = store.create_match(config, state=state)

            def measure(label: str) -> dict[str, float]:
                now = store.match_info(match_id).actions
                page = max(0, now - 20)
                found: dict[str, float] = {}
                found["view_ms"] = _median_ms(lambda: service.view(match_id), repeat)
                found["history_per_action_ms"] = _median_ms(lambda: service.history(match_id, page, 20), repeat) / (
                    now - page
                )
                found["animation_ms"] = _median_ms(lambda: service.animation(match_id, now - 1), repeat)
                stored, before = store.stored_action(match_id, now - 1)
                replayed = getattr(stored.action, "stroke", None)
                if isinstance(replayed, Stroke):
                    at = before.position
                    bare_ms = _median_ms(lambda: simulate(at, replayed, trajectories=60.0), repeat)
                    found["animation_overhead_ms"] = found["animation_ms"] - bare_ms
                answer, bare, undo = [], [], []
                for _ in range(repeat):
                    opened = store.open_match(match_id)
                    position = opened.state.position
                    shooter = opened.state.game.shooter
                    if opened.state.phase is not Phase.PLAY or shooter not in position:
                        break
                    stroke = Stroke(shooter, float(rng.uniform(1.0, 2.5)), float(rng.uniform(0, 360)))
                    t0 = time.perf_counter()
                    service.shot(match_id, None, stroke)
                    answer.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    simulate(position, stroke, trajectories=60.0)
                    bare.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    service.undo(match_id)
                    undo.append(time.perf_counter() - t0)
                if answer:
                    found["stroke_answer_ms"] = 1000 * statistics.median(answer)
                    found["stroke_overhead_ms"] = 1000 * statistics.median(
                        [a - b for a, b in zip(answer, bare, strict=True)]
                    )
                    found["undo_ms"] = 1000 * statistics.median(undo)
                found["at_action"] = float(now)
                out[label] = found
                return found

            with Progress(console=console, transient=True) as progress:
                task = progress.add_task("a long match", total=actions)
                played = 0
                while played < actions:
                    opened = store.open_match(match_id)
                    shooter = opened.state.game.shooter
                    if opened.state.phase is not Phase.PLAY or shooter not in opened.state.position:
                        break
                    stroke = Stroke(shooter, float(rng.uniform(0.8, 2.0)), float(rng.uniform(0, 360)))
                    service.shot(match_id, None, stroke)
                    played += 1
                    if played == 1:
                        measure("start")
                    progress.advance(task)
            measure("long")
        finally:
            store.close()
    start_, long_ = out.get("start", {}), out.get("long", {})
    out["ratios"] = {k: long_[k] / start_[k] for k in start_ if k in long_ and k != "at_action" and start_[k] > 0}
    return out


# --- 3. start-up -----------------------------------------------------------------------------------------


def _kaisa() -> list[str]:
    """The ``kaisa`` command as installed beside this Python (or the same entry point through it)."""
    script = Path(sys.executable).with_name("kaisa")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from kaisa.cli import main; main()"]


def _run_seconds(argv: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"{' '.join(argv[:2])} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _play_seconds(db: str, command: list[str] | None = None) -> tuple[float, float]:
    """``kaisa play``: seconds until its page answers, and until its API answers with the physics loaded."""
    import httpx

    t0 = time.perf_counter()
    process = subprocess.Popen(
        [*(command or _kaisa()), "play", "--no-browser", "--port", "0", "--db", db],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "COLUMNS": "300"},
    )
    try:
        assert process.stdout is not None
        url = None
        for line in process.stdout:
            found = re.search(r"http://[\d.]+:\d+", line)
            if found:
                url = found.group(0)
                break
        if url is None:
            raise RuntimeError("kaisa play printed no address")
        page = api = None
        with httpx.Client(timeout=120) as client:
            while page is None:
                try:
                    if client.get(url + "/").status_code == 200:
                        page = time.perf_counter() - t0
                except httpx.TransportError:
                    time.sleep(0.01)
            while api is None:
                if client.post(url + "/api/calls/check", json={"call": "K FL", "shooter": "W1"}).status_code == 200:
                    api = time.perf_counter() - t0
        return page, api
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()


def startup(repeat: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        position = Path(tmp) / "position.json"
        stroke = Path(tmp) / "stroke.json"
        position.write_text(json.dumps({"balls": {"W1": [0.5, 1.0], "K": [0.5, 2.0]}}))
        stroke.write_text(json.dumps({"ball": "W1", "speed": 2.0, "direction": 90.0}))
        python = _run_seconds([sys.executable, "-c", "pass"], repeat)
        simulate_s = _run_seconds([*_kaisa(), "simulate", "--position", str(position), "--stroke", str(stroke)], repeat)
        plays = [_play_seconds("sqlite:///" + str(Path(tmp) / f"play{i}.sqlite3")) for i in range(repeat)]
    page = statistics.median(p for p, _ in plays)
    api = statistics.median(a for _, a in plays)
    return {
        "python_s": python,
        "simulate_s": simulate_s,
        "play_page_s": page,
        "play_api_s": api,
        "simulate_v_python": simulate_s / python,
        "play_page_v_python": page / python,
        "play_api_v_python": api / python,
    }


# --- everything ------------------------------------------------------------------------------------------


@dataclass
class SuiteResult:
    figures: dict[str, Any]

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(self.figures, indent=1, default=float), encoding="utf-8")


def run_suite(
    console: Console,
    strokes: int = 200,
    actions: int = 300,
    repeat: int = 5,
    positions: int = 6,
    regret_positions: int = 4,
    budget: float = 600.0,
    seed: int = 2014,
) -> SuiteResult:
    from kaisa.bench.master import decision_times, print_master_report, regret_benchmark

    figures: dict[str, Any] = {"machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]}}
    figures["physics"] = physics_stock_v_fast(strokes, seed, console)
    print_physics(figures["physics"], console)
    from kaisa.bench.compiled import agreement, print_agreement_line

    figures["compiled"] = agreement(strokes, seed, console).to_json()
    print_agreement_line(figures["compiled"], console)
    figures["match_length"] = match_length(actions, repeat, seed, console)
    print_match_length(figures["match_length"], console)
    figures["startup"] = startup(max(1, min(repeat, 3)))
    print_startup(figures["startup"], console)
    times = decision_times(positions, seed, console)
    regret = regret_benchmark(regret_positions, seed, budget, console) if regret_positions else None
    figures["master"] = {
        "decisions": [t.to_json() for t in times],
        "regret": None if regret is None else regret.to_json(),
    }
    print_master_report(times, regret, console)
    return SuiteResult(figures)


def print_physics(p: dict[str, float], console: Console) -> None:
    console.print(
        f"[bold]Physics[/] ({p['strokes']:.0f} seeded strokes, rotating): stock pooltool {p['stock_ms']:.2f} ms, "
        f"fast layer {p['fast_ms']:.2f} ms, Kaisa's engine {p['engine_ms']:.3f} ms per stroke: "
        f"[bold]{p['engine_v_stock']:.1f}x[/] v stock (goal 15x), fast layer {p['speed-up']:.2f}x v stock"
    )


def print_match_length(m: dict[str, Any], console: Console) -> None:
    start, long_ = m.get("start", {}), m.get("long", {})
    table = Table(
        title=f"Match length: action {start.get('at_action', 0):.0f} v action {long_.get('at_action', 0):.0f} "
        "(server work, median ms)",
        title_justify="left",
    )
    for column in ("", "start", "long", "long v start"):
        table.add_column(column, justify="right" if column else "left")
    for key, label in (
        ("stroke_answer_ms", "stroke answer"),
        ("stroke_overhead_ms", "stroke answer minus its simulation"),
        ("view_ms", "view"),
        ("history_per_action_ms", "history page, per action"),
        ("animation_ms", "animation"),
        ("animation_overhead_ms", "animation minus its simulation"),
        ("undo_ms", "undo"),
    ):
        if key in start and key in long_:
            ratio = m["ratios"].get(key)
            table.add_row(label, f"{start[key]:.2f}", f"{long_[key]:.2f}", "" if ratio is None else f"{ratio:.2f}x")
    console.print(table)


def print_startup(s: dict[str, float], console: Console) -> None:
    console.print(
        f"[bold]Start-up[/]: python -c pass {s['python_s']:.2f} s; kaisa simulate {s['simulate_s']:.2f} s "
        f"({s['simulate_v_python']:.0f}x); kaisa play: page {s['play_page_s']:.2f} s ({s['play_page_v_python']:.0f}x), "
        f"API with the physics loaded {s['play_api_s']:.2f} s ({s['play_api_v_python']:.0f}x)"
    )
