"""The computer-player strength benchmark (kaisa.bench.ai) and ``kaisa bench ai``, on tiny seeded runs.

The numbers are checked for consistency (rates in range, counts that add up, positive decision times), never
for their values: a benchmark reports strength, the tests only that it measures it coherently.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from rich.console import Console
from typer.testing import CliRunner

from kaisa.bench.ai import (
    REFERENCE_NAME,
    AiBenchmark,
    Decisions,
    PlayerResult,
    ShotResults,
    ai_benchmark,
    chance_seed,
    columns,
    print_ai_report,
    single_shots,
    sweep_figure,
)
from kaisa.cli import app
from kaisa.layouts import random_layout
from kaisa.model import Position, Stroke
from kaisa.players import BaselinePlayer
from kaisa.referee import GameState
from kaisa.table import TableSpec

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def tiny() -> AiBenchmark:
    """2 layouts, 1 game, the baseline only, a sweep over three noise scales (one of them the main one)."""
    return ai_benchmark(
        ["baseline"], layouts=2, games=1, noise=1.0, seed=11, console=Console(file=io.StringIO()), sweep=(0, 1, 2)
    )


def in_unit(value: float | None) -> bool:
    return value is None or 0.0 <= value <= 1.0


def test_single_shot_numbers_are_consistent(tiny: AiBenchmark):
    assert tiny.kinds == ("baseline",)
    assert (tiny.layouts, tiny.games, tiny.noise, tiny.seed) == (2, 1, 1.0, 11)
    shots = tiny.player("baseline").shots
    assert shots.shots == 2
    assert shots.errors == 0
    assert 0 <= shots.legal_pots <= shots.called <= shots.ruled == 2
    assert 0 <= shots.fouls <= 2
    assert in_unit(shots.called_pot_success)
    assert in_unit(shots.call_rate)
    assert shots.fouls_per_100 is not None
    assert 0 <= shots.fouls_per_100 <= 100
    assert shots.points_per_shot == shots.points / 2
    assert len(shots.decisions.seconds) == 2
    assert all(t > 0 for t in shots.decisions.seconds)
    median, p90 = shots.decisions.median, shots.decisions.p90
    assert median is not None
    assert p90 is not None
    assert 0 < median <= p90


def test_match_numbers_are_consistent(tiny: AiBenchmark):
    matches = tiny.player("baseline").matches
    assert matches is not None
    assert matches.games == 1
    assert matches.wins + matches.losses + matches.unfinished == 1
    assert matches.player.matches == matches.reference.matches == 1
    assert matches.player.name == "baseline"
    assert matches.reference.name == REFERENCE_NAME
    # one game between two players: one's win is the other's loss
    assert (matches.player.wins, matches.player.losses) == (matches.reference.losses, matches.reference.wins)
    assert in_unit(matches.win_rate)
    assert in_unit(matches.called_pot_success)
    assert matches.player.strokes > 0
    assert matches.player.innings > 0
    assert matches.points_per_inning is not None
    assert matches.fouls_per_100 is not None
    assert 0 <= matches.fouls_per_100 <= 100
    assert 0 <= matches.longest_run <= max(matches.player.scored, 0)
    assert matches.errors == matches.stalled == 0
    assert len(matches.decisions.seconds) == matches.player.strokes  # one decision per stroke, timed
    assert all(t > 0 for t in matches.decisions.seconds)


def test_sweep_reuses_the_main_noise_and_is_deterministic(tiny: AiBenchmark):
    result = tiny.player("baseline")
    assert [scale for scale, _ in result.sweep] == [0.0, 1.0, 2.0]
    assert result.sweep[1][1] is result.shots
    for _, shots in result.sweep:
        assert shots.shots == 2
        assert in_unit(shots.called_pot_success)
    # the same player on the same layouts decides and scores the same, whatever the clock says
    rng = np.random.default_rng(11)
    layouts = [random_layout(rng) for _ in range(2)]
    first, second = (single_shots(BaselinePlayer("b", seed=11), layouts, noise=2.0, seed=11) for _ in range(2))
    assert (first.called, first.legal_pots, first.points, first.fouls) == (
        second.called,
        second.legal_pots,
        second.points,
        second.fouls,
    )


def test_report_has_one_column_per_player(tiny: AiBenchmark):
    out = io.StringIO()
    print_ai_report(tiny, Console(file=out, width=140, color_system=None))
    text = out.getvalue()
    for label in ("called-pot success", "points/shot", "win rate", "points/inning", "longest run", "noise 2"):
        assert label in text
    assert "baseline" in text


def test_sweep_figure_has_one_labelled_line_per_player(tiny: AiBenchmark):
    axes = sweep_figure(tiny).axes[0]
    assert [line.get_label() for line in axes.get_lines()] == ["baseline"]
    measured = [r for _, r in tiny.player("baseline").sweep if r.called_pot_success is not None]
    assert len(np.asarray(axes.get_lines()[0].get_xdata())) == len(measured)
    assert axes.get_xlabel() == "noise scale (1 = the stroke-noise convention)"
    assert axes.get_ylabel() == "called-pot success (%)"


def test_sweep_figure_legend_and_gaps_for_several_players():
    def shots(called: int, legal: int) -> ShotResults:
        return ShotResults(shots=10, called=called, legal_pots=legal, decisions=Decisions((0.001,)))

    players = (
        PlayerResult("baseline", shots(8, 2), None, ((0.5, shots(8, 4)), (1.0, shots(8, 2)), (2.0, shots(8, 1)))),
        PlayerResult("a<b&c", shots(9, 6), None, ((0.5, shots(9, 8)), (1.0, shots(0, 0)), (2.0, shots(9, 3)))),
    )
    result = AiBenchmark(("baseline", "a<b&c"), 10, 0, 1.0, 5, players, sweep=(0.5, 1.0, 2.0))
    axes = sweep_figure(result).axes[0]
    lines = axes.get_lines()
    assert [line.get_label() for line in lines] == ["baseline", "a<b&c"]
    assert [len(np.asarray(line.get_xdata())) for line in lines] == [3, 2]  # no calls at noise 1: no point
    assert [float(v) for v in np.asarray(lines[1].get_ydata())] == pytest.approx([100 * 8 / 9, 100 * 3 / 9])
    legend = axes.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["baseline", "a<b&c"]
    with pytest.raises(ValueError, match="no noise sweep"):
        sweep_figure(AiBenchmark(("baseline",), 10, 0, 1.0, 5, players[:1]))


class Recording(BaselinePlayer):
    """A baseline player that remembers the strokes it decided."""

    def __init__(self) -> None:
        super().__init__("b", seed=3)
        self.strokes: list[Stroke] = []

    def shot(self, position: Position, game: GameState, spec: TableSpec, stroke_index: int) -> tuple[Any, Stroke]:
        call, stroke = super().shot(position, game, spec, stroke_index)
        self.strokes.append(stroke)
        return call, stroke


def test_single_shots_are_executed_by_the_matchs_chance_step(monkeypatch: pytest.MonkeyPatch):
    """The player decides the same strokes at every noise; the match executes them with the seat's noise,
    drawn from the benchmark's seed and the layout's index (independent layouts)."""
    from kaisa.game import Match, Shot

    rng = np.random.default_rng(4)
    layouts = [random_layout(rng) for _ in range(3)]
    executed: list[tuple[int, Stroke, Stroke]] = []
    push = Match.push

    def recording_push(self: Match, action: Any) -> Any:
        outcome = push(self, action)
        shot = self.stack[-1].action
        assert isinstance(shot, Shot)
        executed.append((self.config.seed, shot.stroke, shot.played))
        return outcome

    monkeypatch.setattr(Match, "push", recording_push)
    exact, noisy = Recording(), Recording()
    single_shots(exact, layouts, seed=5)
    single_shots(noisy, layouts, noise=2.0, seed=5)
    assert exact.strokes == noisy.strokes  # the player never perturbs its strokes
    assert [s for _, s, _ in executed] == exact.strokes + noisy.strokes
    assert all(intended == played for _, intended, played in executed[:3])  # noise 0: exactly as decided
    assert all(intended != played for _, intended, played in executed[3:])
    assert [seed for seed, _, _ in executed[3:]] == [chance_seed(5, i) for i in range(3)]
    assert len({seed for seed, _, _ in executed[3:]}) == 3


def test_columns_and_unknown_kinds():
    assert columns(["club", "baseline", " master", "club"]) == ("baseline", "club", "master")
    with pytest.raises(ValueError, match="unknown player kind"):
        ai_benchmark(["nobody"], layouts=1, games=0, console=Console(file=io.StringIO()))
    with pytest.raises(ValueError, match="'human' is not a computer player"):
        ai_benchmark(["human"], layouts=1, games=0, console=Console(file=io.StringIO()))


runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, ["bench", "ai", *args], env={"COLUMNS": "120", "NO_COLOR": "1", "TERM": "dumb"})


def test_cli_bench_ai_prints_the_table_and_writes_the_plot(tmp_path: Path):
    plot = tmp_path / "sweep.png"
    result = invoke(
        "--layouts", "2", "--games", "1", "--kinds", "baseline", "--seed", "5", "--sweep", "0,1", "--plot", str(plot)
    )
    assert result.exit_code == 0, result.output
    for label in ("single shots", "called-pot success", "win rate", "noise 0", "plot written to"):
        assert label in result.output
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = tmp_path / "sweep.svg"
    result = invoke("--layouts", "2", "--games", "0", "--kinds", "baseline", "--sweep", "1", "--plot", str(svg))
    assert result.exit_code == 0, result.output
    assert ET.parse(svg).getroot().tag == f"{SVG}svg"


def test_cli_bench_ai_refuses_bad_options():
    result = invoke("--layouts", "1", "--games", "0", "--kinds", "baseline,nobody")
    assert result.exit_code == 2
    assert "unknown player kind 'nobody'" in result.output
    result = invoke("--layouts", "1", "--games", "0", "--kinds", "baseline", "--sweep", "0,x")
    assert result.exit_code == 2
    assert "--sweep" in result.output
    result = invoke("--layouts", "1", "--games", "0", "--kinds", "baseline", "--plot", "sweep.gif")
    assert result.exit_code != 0
    assert ".png, .svg or .pdf" in result.output
