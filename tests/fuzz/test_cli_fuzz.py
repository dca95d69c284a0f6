"""Hypothesis over the command line's inputs and record files: every answer is a result (exit 0) or one error
line (exit 2), never a traceback. Bounded: a fixed number of examples per property, no example database,
each property well under a minute here.

The inputs are the JSON files of ``kaisa simulate`` and ``kaisa rule`` (any JSON, and near-valid positions
and strokes with bools, huge integers, NaN and deep nesting), calls with rich markup, and match records mutated
line by line (tags with huge numbers or deep JSON, non-UTF-8 bytes, truncated lines)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from kaisa.cli import app
from kaisa.game import Lag, Match, MatchConfig
from kaisa.model import BallId, Stroke
from kaisa.records.notation import write_match

pytestmark = pytest.mark.slow

runner = CliRunner()
BOUNDED = settings(
    max_examples=40, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
)


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"})


def assert_clean(result: Result) -> None:
    """Exit 0, or exit 2 with one line on stderr; never an exception escaping the command."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"the command raised {result.exception!r}") from result.exception
    assert result.exit_code in (0, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2 and "Usage:" not in result.output:  # the console script words usage errors
        errors = [line for line in result.output.splitlines() if line.startswith("error:")]
        assert len(errors) == 1, result.output


numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.just(10**400),
    st.booleans(),
    st.sampled_from([0.5, 1.0, 2.0, -1.0, 0.0]),
)
balls = st.sampled_from(["W1", "W2", "R1", "R2", "K", "X", "", "[/]"])
points = st.one_of(st.lists(numbers, min_size=0, max_size=3), numbers, st.none(), st.text(max_size=5))
positions = st.one_of(
    st.fixed_dictionaries({"balls": st.dictionaries(balls, points, max_size=5)}),
    st.recursive(
        st.none() | st.booleans() | numbers | st.text(max_size=5),
        lambda c: st.lists(c) | st.dictionaries(st.text(max_size=3), c),
        max_leaves=10,
    ),
)
strokes = st.fixed_dictionaries(
    {"ball": balls, "speed": numbers, "direction": numbers},
    optional={"elevation": numbers, "side": numbers, "follow": numbers, "place": points},
)


def _json_text(value: Any) -> str:
    try:
        return json.dumps(value)
    except ValueError:  # an int with more digits than Python writes
        return '{"balls": {"W1": [' + "9" * 5000 + ", 0.5]}}"


@BOUNDED
@given(position=positions, stroke=strokes, deep=st.booleans())
def test_simulate_never_raises(
    tmp_path_factory: pytest.TempPathFactory, position: Any, stroke: Any, deep: bool
) -> None:
    folder = tmp_path_factory.mktemp("sim")
    position_file, stroke_file = folder / "position.json", folder / "stroke.json"
    position_file.write_text("[" * 100_000 if deep else _json_text(position), encoding="utf-8")
    stroke_file.write_text(_json_text(stroke), encoding="utf-8")
    assert_clean(invoke("simulate", "--position", str(position_file), "--stroke", str(stroke_file), "--json"))


@BOUNDED
@given(call=st.text(max_size=20) | st.sampled_from(["K [/] FL", "[bold]K FL", "R1 [x, y]", "kyyti R1 K FL"]))
def test_rule_never_raises_on_calls(tmp_path_factory: pytest.TempPathFactory, call: str) -> None:
    folder = tmp_path_factory.mktemp("rule")
    position = folder / "position.json"
    position.write_text(json.dumps({"balls": {"W1": [0.4, 0.5], "K": [0.71, 1.42]}}), encoding="utf-8")
    events = folder / "events.json"
    events.write_text(json.dumps([{"t": 0.0, "type": "strike", "ball": "W1"}]), encoding="utf-8")
    assert_clean(invoke("rule", "--position", str(position), "--call", call, "--events", str(events)))


@pytest.fixture(scope="module")
def short_record() -> str:
    """A record of the lag and the choice: short enough to replay in a moment."""
    match = Match(MatchConfig(players=("Aino", "Eero")))
    lag = Stroke(BallId.W1, 1.4, 90.0, place=(0.355, 0.355)), Stroke(BallId.W2, 1.3, 90.0, place=(1.065, 0.355))
    match.push(Lag(lag))
    return write_match(match)


TAG_VALUES = st.sampled_from(
    [
        '{"cushion_height_ratio":100}',
        '{"ball_mass":-1}',
        "[" * 50_000,
        '{"frozen_gap":' + "9" * 401 + "}",
        "9" * 5000 + " 1 1",
        "",
        "W1 60-0",
        "\\",
    ]
)


@BOUNDED
@given(
    tag=st.sampled_from(["Table", "Options", "Chance", "Result", "Score", "Clock", "SecondsPerStroke", "Player1"]),
    value=TAG_VALUES,
    cut=st.integers(min_value=0, max_value=2000),
    junk=st.binary(max_size=8),
)
def test_replay_never_raises_on_mutated_records(
    tmp_path_factory: pytest.TempPathFactory, short_record: str, tag: str, value: str, cut: int, junk: bytes
) -> None:
    folder = tmp_path_factory.mktemp("replay")
    tagged = short_record.replace("[Clock ", f"[{tag} {json.dumps(value)}]\n[Clock ", 1)
    for text in (tagged, short_record[:cut]):
        path = folder / "match.kaisa"
        path.write_bytes(text.encode("utf-8") + junk)
        assert_clean(invoke("replay", str(path)))
        assert_clean(invoke("stats", "--record", str(path), "--json"))


@BOUNDED
@given(match_id=st.text(max_size=12) | st.integers().map(str))
def test_matches_commands_never_raise_on_ids(tmp_path_factory: pytest.TempPathFactory, match_id: str) -> None:
    db = f"sqlite:///{tmp_path_factory.mktemp('db') / 'k.sqlite3'}"
    for command in ("show", "export", "delete"):
        extra = ["--yes"] if command == "delete" else []
        assert_clean(invoke("matches", command, match_id, "--db", db, *extra))
    assert_clean(invoke("match", "--resume", match_id, "--db", db))
    assert_clean(invoke("advise", "--position", "/nonexistent.json", "--seed", match_id))


def test_a_name_with_markup_and_a_non_utf8_record_are_one_error_line(tmp_path: Path) -> None:
    record = tmp_path / "bad.kaisa"
    record.write_bytes(b'[Player1 "\xff\xfe"]\n')
    result = invoke("replay", str(record))
    assert_clean(result)
    assert "not UTF-8" in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["matches", "show", "abc"],
        ["matches", "show", "1.0"],
        ["nosuch"],
        ["simulate", "--position"],
        ["advise", "--position", "p.json", "--seed", "-5"],
        ["match", "--seed", "99999999999999999999999"],
        ["tournament", "--players", "baseline,baseline", "--games", "0"],
        ["dataset", "--players", "baseline,baseline", "--out", "/nonexistent/out", "--games", "0"],
    ],
)
def test_the_console_script_words_a_usage_error_in_one_line(args: list[str]) -> None:
    import subprocess
    import sys

    kaisa = str(Path(sys.executable).with_name("kaisa"))
    done = subprocess.run([kaisa, *args], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith("error: ")
    assert "Traceback" not in done.stderr


def test_help_shows_brackets_as_written() -> None:
    result = invoke("simulate", "--help")
    assert '{"W1": [x, y], ...}' in " ".join(result.output.split())


NUMBER_OPTIONS = [
    ("stats", "--match"),
    ("match", "--resume"),
    ("match", "--seed"),
    ("advise", "--seed"),
    ("tournament", "--players", "club,club", "--games"),
    ("dataset", "--players", "club,club", "--out", "/nonexistent/out", "--games"),
    ("tournament", "--players", "club,club", "--workers"),
    ("bench", "records", "--matches"),
    ("matches", "list", "--last"),
]
"""Commands with a whole-number option, the option last (ids, seeds, counts)."""


@pytest.mark.parametrize("command", NUMBER_OPTIONS, ids=lambda c: " ".join(c))
@pytest.mark.parametrize("value", ["99999999999999999999999", "-1", "[/]"])
def test_a_bad_or_huge_number_is_one_error_line_never_a_traceback_nor_a_hang(
    command: tuple[str, ...], value: str, tmp_path: Path
) -> None:
    """issue 16 (second pass): kaisa stats --match 10**23 was an SQLite OverflowError traceback and
    tournament --games 99999999999 ran for ever; every such value is now refused before any work."""
    db = ["--db", str(tmp_path / "k.sqlite3")] if command[0] in ("stats", "match", "matches") else []
    position = ["--position", "/nonexistent.json"] if command[0] == "advise" else []
    result = invoke(*command[:-1], *db, *position, command[-1], value)
    assert_clean(result)
    assert result.exit_code == 2, result.output


@pytest.mark.parametrize("command", ["simulate", "rule", "advise", "replay"])
def test_a_device_or_a_pipe_as_an_input_file_is_refused_not_read_for_ever(command: str, tmp_path: Path) -> None:
    """issue 16 (second pass): kaisa simulate --stroke /dev/zero read for ever."""
    import os

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for path in ("/dev/zero", str(pipe)):
        args = {
            "simulate": ["simulate", "--position", path, "--stroke", path],
            "rule": ["rule", "--position", path, "--call", "K FL", "--events", path],
            "advise": ["advise", "--position", path],
            "replay": ["replay", path],
        }[command]
        result = invoke(*args)
        assert_clean(result)
        assert "is not a regular file" in " ".join(result.output.split())


def test_stats_csv_and_json_together_is_one_error_line(tmp_path: Path) -> None:
    result = invoke("stats", "--csv", "--json", "--db", str(tmp_path / "k.sqlite3"))
    assert_clean(result)
    assert "give --csv or --json, not both" in result.output
