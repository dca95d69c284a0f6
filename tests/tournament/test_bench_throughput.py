"""``kaisa bench throughput``: the tournament's and the data set's work with pooltool as the engine and with
Kaisa's, run tiny. Never asserts on times."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kaisa.cli import app

pytest.importorskip("pooltool", reason="pooltool, the reference engine, is a development dependency")


def test_bench_throughput_plays_the_same_matches_on_both_engines_and_prints_the_ratios():
    from kaisa.bench.throughput import throughput_benchmark
    from kaisa.physics import compiled, reference

    engine = compiled.simulate
    result = throughput_benchmark(["baseline", "baseline"], matches=2, seconds=600, seed=3, max_actions=6)
    assert compiled.simulate is engine  # Kaisa's engine plays again afterwards
    assert reference._ENGINE_SIMULATE is None
    for figures in (result.before, result.after):
        assert figures.matches == 2
        assert figures.rows > 0
        assert figures.play_seconds > 0
        assert figures.rows_seconds > 0
    assert result.scheduled == 2
    assert 0 <= result.identical <= 2
    assert result.match_ratio > 0
    assert result.row_ratio > 0


def test_bench_throughput_command_prints_before_after_and_the_ratios():
    result = CliRunner().invoke(
        app,
        ["bench", "throughput", "--matches", "1", "--max-actions", "4", "--seconds", "1"],
        env={"COLUMNS": "160", "NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.output
    assert "before: stock pooltool" in result.output
    assert "after: Kaisa's engine" in result.output
    assert "the matches per CPU-second" in result.output
    assert "the rows per CPU-second (after v before)" in result.output


def test_bench_throughput_refuses_an_unknown_player():
    result = CliRunner().invoke(app, ["bench", "throughput", "--players", "baseline,grandmaster"])
    assert result.exit_code == 2
    assert "grandmaster" in result.output
