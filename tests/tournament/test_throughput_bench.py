"""``kaisa bench throughput``: tournament games and data set rows per CPU-second on Kaisa's engine and with
pooltool as the engine (the before), side by side. The figures are the bench's; here only that it runs, plays
the same games on every engine and refuses bad arguments in one line."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from kaisa.bench.throughput import ENGINES, throughput


@pytest.mark.slow
def test_the_same_games_are_played_on_every_engine_and_rated_per_cpu_second():
    result = throughput(games=1, actions=6)
    assert result.games == 1
    assert all(result.tournament_cpu[e] > 0 and result.dataset_cpu[e] > 0 for e in ENGINES)
    assert result.rows["engine"] >= 1
    figures = result.to_json()
    assert figures["engine_games_per_cpu_s"] > 0


@pytest.mark.slow
def test_kaisa_bench_throughput_prints_the_ratios():
    kaisa = Path(sys.executable).parent / "kaisa"
    out = subprocess.run(
        [str(kaisa), "bench", "throughput", "--games", "1", "--actions", "4"],
        capture_output=True,
        text=True,
        timeout=600,
        env={"COLUMNS": "120", "NO_COLOR": "1", "PATH": str(kaisa.parent), "HOME": str(Path.home())},
    )
    assert out.returncode == 0, out.stderr
    assert "Kaisa's engine" in out.stdout
    assert re.search(r"tournament: \d+\.\d\dx the games per CPU-second of before", out.stdout)


@pytest.mark.parametrize(("args", "says"), [(("--games", "0"), "--games"), (("--actions", "[x]"), "--actions")])
def test_kaisa_bench_throughput_refuses_a_bad_argument_in_one_line(args, says):
    kaisa = Path(sys.executable).parent / "kaisa"
    out = subprocess.run([str(kaisa), "bench", "throughput", *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 2
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1
    assert says in lines[0]
    assert "Traceback" not in out.stderr
