"""issue 16: a fresh environment spends a minute compiling the physics kernels, and only the command line said
so. The notice now lives in the physics: whoever simulates first (the CLI, the web server, an environment, a
Python user) gets one line on stderr, once per process. An empty ``$NUMBA_CACHE_DIR`` is a real fresh cache."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kaisa.physics.warmup import NOTICE

pytestmark = pytest.mark.slow

FIRST_STROKE = """
from kaisa.model import BallId, Position, Stroke
from kaisa.physics import simulate
simulate(Position({"W1": (0.7, 0.5), "K": (0.7, 1.4)}), Stroke(BallId.W1, 2.0, 90.0))
simulate(Position({"W1": (0.7, 0.5), "K": (0.7, 1.4)}), Stroke(BallId.W1, 2.0, 90.0))
print("done", flush=True)
"""


def _env(cache: Path | None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    return env


def test_a_python_users_first_stroke_in_a_fresh_cache_says_it_compiles(tmp_path: Path) -> None:
    """The first simulate() of a plain Python program prints the notice before it compiles (the process is
    stopped once the line is read: the compilation itself takes a minute)."""
    process = subprocess.Popen(
        [sys.executable, "-c", FIRST_STROKE],
        env=_env(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    stderr = process.stderr
    assert stderr is not None
    try:
        deadline = time.monotonic() + 240  # importing pooltool on a loaded machine
        line = ""
        while time.monotonic() < deadline and process.poll() is None:
            ready, _, _ = select.select([stderr], [], [], 1.0)
            if ready:
                line = stderr.readline()
                if line.strip():
                    break
        assert line.strip() == NOTICE
    finally:
        process.kill()
        process.wait()


def test_the_notice_is_said_once_per_process(tmp_path: Path) -> None:
    code = "from kaisa.physics.warmup import notice_first_use as n; print(n(), n(), n())"
    done = subprocess.run([sys.executable, "-c", code], env=_env(tmp_path), capture_output=True, text=True, timeout=240)
    assert done.stdout.split() == ["True", "False", "False"]
    assert done.stderr.splitlines() == [NOTICE]


def test_with_the_kernels_cached_nothing_is_said() -> None:
    """The suite's environment has its kernels compiled (tasks.py set-up): two strokes, a silent stderr."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST_STROKE], env=_env(None), capture_output=True, text=True, timeout=600
    )
    assert done.stdout.strip() == "done"
    assert NOTICE not in done.stderr
