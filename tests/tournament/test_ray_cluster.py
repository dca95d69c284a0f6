"""Ready for a real cluster: an address that answers but is no Ray head, or a head this machine cannot
join, fails in seconds with one line; a two-node Ray cluster on loopback addresses gives the same games as
the local pool. The cluster runs in its own processes, started and stopped by these tests."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kaisa.cli import app
from kaisa.tournament import TournamentError, check_address

pytest.importorskip("ray", reason="the ray extra is not installed")

runner = CliRunner()
LOOPBACK_ENV = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
"""Keep Ray on 127.0.0.1 (it would replace it with the outward address), without token authentication."""


def invoke(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb"})


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A TCP port that accepts connections and never says a word (a half-open firewall, another service)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[socket.socket] = []

    def accept() -> None:
        while True:
            try:
                accepted.append(server.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept, daemon=True).start()
    yield int(server.getsockname()[1])
    server.close()
    for connection in accepted:
        connection.close()


def test_an_address_that_answers_but_is_no_ray_head_is_refused_in_seconds(silent_port: int):
    started = time.monotonic()
    with pytest.raises(TournamentError, match=r"something answers at 127\.0\.0\.1:\d+ but it is not a Ray cluster"):
        check_address(f"127.0.0.1:{silent_port}", timeout=1.0)
    assert time.monotonic() - started < 30  # not ray.init's endless retries


@pytest.mark.parametrize("command", ["tournament", "dataset"])
def test_the_commands_refuse_a_half_reachable_cluster_with_one_line(command: str, silent_port: int, tmp_path: Path):
    extra = ["--out", str(tmp_path / "data")] if command == "dataset" else ["--db", f"sqlite:///{tmp_path / 'k.db'}"]
    result = invoke(
        command, "--players", "baseline,baseline", "--backend", "ray", "--address", f"127.0.0.1:{silent_port}", *extra
    )
    assert result.exit_code == 2
    assert "is not a Ray cluster" in result.output
    assert "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["tournament", "dataset"])
def test_the_commands_refuse_an_unreachable_cluster_with_one_line(command: str, tmp_path: Path):
    extra = ["--out", str(tmp_path / "data")] if command == "dataset" else ["--db", f"sqlite:///{tmp_path / 'k.db'}"]
    result = invoke(command, "--players", "baseline,baseline", "--backend", "ray", "--address", "127.0.0.1:1", *extra)
    assert result.exit_code == 2
    assert "cannot reach the Ray cluster at 127.0.0.1:1" in result.output
    assert len(result.output.strip().splitlines()) == 1


# --- a real two-node cluster on loopback addresses -----------------------------------------------------------

CLUSTER = """
import sys, time
from ray.cluster_utils import Cluster
cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
cluster.add_node(num_cpus=1)
print(cluster.address, flush=True)
sys.stdin.read()  # until the test closes our stdin
cluster.shutdown()
"""

SAME_GAMES = """
import sys
from dataclasses import replace
from kaisa.research import match_rows, table_of
from kaisa.tournament import LocalBackend, RayBackend, play_game, schedule

specs = [replace(s, max_actions=24) for s in schedule(["baseline", "beginner"], 2, seed=5)]
local = dict(LocalBackend(2).__enter__().play(specs))
with RayBackend(sys.argv[1], join_seconds=60) as backend:
    import ray
    nodes = [n for n in ray.nodes() if n["Alive"]]
    assert len(nodes) == 2, nodes
    assert {n["NodeManagerAddress"] for n in nodes} == {"127.0.0.1"}
    on_ray = dict(backend.play(specs))
    rows = dict(backend.play(specs, match_rows))
assert [on_ray[i] for i in range(len(specs))] == [local[i] for i in range(len(specs))]
assert table_of([rows[i] for i in range(len(specs))]).equals(table_of([match_rows(s) for s in specs]))
print("same games on", len(nodes), "nodes:", len(specs), "games,", sum(len(r.rows) for r in rows.values()), "strokes")
"""


@pytest.fixture(scope="module")
def loopback_cluster() -> Iterator[str]:
    """A Ray head and a second node on this machine, on 127.0.0.1 only, in their own process group."""
    head = subprocess.Popen(
        [sys.executable, "-c", CLUSTER],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, **LOOPBACK_ENV}, start_new_session=True,
    )  # fmt: skip
    try:
        assert head.stdout is not None
        address = head.stdout.readline().strip()
        if not address:
            pytest.fail("the loopback Ray cluster did not start")
        yield address
    finally:
        assert head.stdin is not None
        head.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            head.wait(timeout=60)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGKILL)  # the cluster's own process group, nothing else


@pytest.mark.slow
def test_a_two_node_loopback_cluster_joined_by_address_plays_the_same_games(loopback_cluster: str):
    done = subprocess.run(
        [sys.executable, "-c", SAME_GAMES, loopback_cluster],
        capture_output=True, text=True, timeout=600, env={**os.environ, **LOOPBACK_ENV},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "same games on 2 nodes: 2 games" in done.stdout


@pytest.mark.slow
def test_joining_by_loopback_without_the_setting_fails_in_seconds_with_one_line(loopback_cluster: str, tmp_path: Path):
    """Ray replaces 127.0.0.1 with the machine's outward address; where only loopback traffic passes, the join
    cannot work, and the command says so at once instead of retrying for ever."""
    env = {k: v for k, v in os.environ.items() if k != "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"}
    env.update(COLUMNS="200", NO_COLOR="1", RAY_AUTH_MODE="disabled")
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", "from kaisa.cli import main; main()", "tournament", "--players", "baseline,baseline", "--games", "1",
         "--backend", "ray", "--address", loopback_cluster, "--db", f"sqlite:///{tmp_path / 'k.db'}"],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    seconds = time.monotonic() - started
    if done.returncode == 0:  # this machine's outward address is reachable: the join worked
        assert "baseline 1" in done.stdout
        return
    assert done.returncode == 2, done.stderr[-3000:]
    assert "Traceback" not in done.stderr
    assert "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0" in done.stderr
    assert seconds < 120
