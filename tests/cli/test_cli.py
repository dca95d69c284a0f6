"""The ``kaisa`` console script and the README's examples, run as a user would."""

import json
import re
import shlex
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from kaisa.cli import app

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args), env={"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"})


def readme_block(after: str, language: str) -> str:
    """The first ``language`` code block after the text ``after`` in the README."""
    start = README.index(after)
    match = re.search(rf"```{language}\n(.*?)```", README[start:], re.S)
    assert match, f"no {language} block after {after!r}"
    return match.group(1)


def normalised_lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.strip().splitlines()]


def test_readme_simulate_example_runs_as_shown():
    command = readme_block("## Simulate a stroke", "sh").strip()
    assert command.startswith(".venv/bin/kaisa simulate ")
    result = invoke(*command.split()[1:])
    assert result.exit_code == 0, result.output
    expected = readme_block("prints (a bank", "text")
    assert normalised_lines(result.output) == normalised_lines(expected)


def test_readme_json_example_is_what_simulate_prints():
    shown = json.loads(readme_block("Abridged:", "json"))
    result = invoke("simulate", "--position", "examples/position.json", "--stroke", "examples/stroke.json", "--json")
    assert result.exit_code == 0, result.output
    actual = json.loads(result.output)
    events = [{k: v for k, v in e.items() if k != "positions"} for e in actual["events"]]
    assert len(events) == len(shown["events"])
    for got, want in zip(events, shown["events"], strict=True):
        assert got.keys() == want.keys()
        assert got["t"] == pytest.approx(want["t"], rel=1e-9, abs=1e-12)
        assert {k: v for k, v in got.items() if k != "t"} == {k: v for k, v in want.items() if k != "t"}
    assert actual["final"] == shown["final"]
    # the example files in the README are the ones on disk
    assert json.loads(readme_block("`examples/position.json`:", "json")) == json.loads(
        (ROOT / "examples/position.json").read_text()
    )
    assert json.loads(readme_block("`examples/stroke.json`", "json")) == json.loads(
        (ROOT / "examples/stroke.json").read_text()
    )


def test_readme_python_example_runs():
    code = readme_block("From Python:", "python")
    namespace: dict[str, object] = {}
    exec(compile(code, "README.md", "exec"), namespace)
    record = namespace["record"]
    assert [e.type for e in record.events][-1] == "pocket"  # type: ignore[attr-defined]


def test_simulate_json_contract(tmp_path: Path):
    position = tmp_path / "p.json"
    stroke = tmp_path / "s.json"
    position.write_text(json.dumps({"balls": {"W1": [0.7, 0.8], "K": [0.7, 1.2]}}))
    stroke.write_text(json.dumps({"ball": "W1", "speed": 2.0, "direction": 90.0, "follow": -0.4}))
    result = invoke("simulate", "--position", str(position), "--stroke", str(stroke), "--json", "--trajectories", "30")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"events", "final"} <= set(data)
    assert data["events"][0] == {**data["events"][0], "t": 0.0, "type": "strike", "ball": "W1"}
    for event in data["events"]:
        assert event["type"] in {"strike", "ball", "rail", "jaw", "pocket", "off"}
        assert isinstance(event["t"], float)
    assert data["events"][1]["type"] == "ball"
    assert data["events"][1]["other"] == "K"
    assert set(data["final"]["balls"]) <= {"W1", "K"}
    assert data["trajectories"]["rate"] == 30


@pytest.mark.parametrize(
    ("position", "stroke", "message"),
    [
        ('{"balls": {"W1": [0.5, 0.5]', None, "is not valid JSON"),
        ('{"balls": {"W9": [0.5, 0.5]}}', None, "unknown ball id 'W9'"),
        ('{"balls": {"W1": [0.5, 0.5], "K": [0.52, 0.5]}}', None, "overlap"),
        (None, '{"ball": "W1", "speed": 9, "direction": 0}', "out of range"),
        (None, '{"ball": "W1", "speed": 1, "direction": 0, "side": 0.6}', "legal tip area"),
        (None, '{"ball": "W1", "speed": 1}', "missing direction"),
    ],
)
def test_simulate_bad_input_exits_2_with_a_clear_message(tmp_path: Path, position, stroke, message):
    p = tmp_path / "p.json"
    s = tmp_path / "s.json"
    p.write_text(position or '{"balls": {"W1": [0.5, 0.5]}}')
    s.write_text(stroke or '{"ball": "W1", "speed": 1.0, "direction": 0.0}')
    result = invoke("simulate", "--position", str(p), "--stroke", str(s))
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_simulate_missing_file(tmp_path: Path):
    result = invoke("simulate", "--position", str(tmp_path / "nope.json"), "--stroke", str(tmp_path / "s.json"))
    assert result.exit_code == 2
    assert "cannot read the position file" in result.output


def test_demo_breaks_from_the_starting_position():
    result = invoke("demo")
    assert result.exit_code == 0, result.output
    assert "strike" in result.output
    assert "Final position" in result.output
    assert re.search(r"│ ball\s+│ W1\s+│ K", result.output), "the break should hit the kaisa first"


def test_table_command_json():
    result = invoke("table", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["width"] == 1.42
    assert data["length"] == 2.84
    assert invoke("table").exit_code == 0


def test_bench_physics_prints_the_ratio():
    result = invoke("bench", "physics", "--strokes", "10")
    assert result.exit_code == 0, result.output
    assert re.search(r"engine v stock pooltool = \d+\.\d\dx", result.output)
    assert "stock pooltool" in result.output
    assert "Kaisa's engine" in result.output


@pytest.mark.slow
def test_bench_master_times_the_master_beside_the_master_before_issue_26(tmp_path: Path) -> None:
    """kaisa bench master: the master now (2 workers, 1) and as issue 26 found it, on the same layouts in one
    run, each with its processor seconds and the load average; no regret asked for, none measured."""
    out = tmp_path / "master.json"
    result = invoke("bench", "master", "--positions", "1", "--regret-positions", "0", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert "Master decisions" in result.output
    assert "now, 2 workers" in result.output
    figures = json.loads(out.read_text(encoding="utf-8"))
    assert [d["label"] for d in figures["decisions"]] == [
        "now, 2 workers",
        "now, 1 worker",
        "before issue 26's changes, on Kaisa's engine",
    ]
    assert all(d["cpu"] > 0 and len(d["seconds"]) == 1 and len(d["load"]) == 2 for d in figures["decisions"])
    assert figures["regret"] is None
    refused = invoke("bench", "master", "--regret-positions", "0", "--json", str(tmp_path / "no" / "m.json"))
    assert refused.exit_code == 2
    assert "does not exist" in refused.output


def test_version_and_help():
    assert "kaisa 0.1.0" in invoke("--version").output
    assert "simulate" in invoke("--help").output


def test_readme_rule_example_prints_what_the_readme_shows():
    command = readme_block("## Rule a stroke", "sh").strip()
    args = shlex.split(command)
    assert args[0] == ".venv/bin/kaisa"
    result = invoke(*args[1:])
    assert result.exit_code == 0, result.output
    actual = json.loads(result.output)
    shown = json.loads(readme_block("The output, without its", "json"))
    assert {k: actual[k] for k in shown} == shown
    assert {"events", "position", "state"} <= set(actual)
    assert actual["events"][0]["type"] == "strike"


def test_rule_json_contract_keys_on_a_given_event_log(tmp_path: Path):
    events = tmp_path / "e.json"
    events.write_text(
        json.dumps(
            [
                {"t": 0.0, "type": "strike", "ball": "W1"},
                {"t": 0.3, "type": "ball", "ball": "W1", "other": "K"},
                {"t": 0.9, "type": "pocket", "ball": "K", "pocket": "FL"},
                {"t": 1.1, "type": "pocket", "ball": "W1", "pocket": "FR"},
            ]
        )
    )
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"scores": {"W1": 10, "W2": 4}, "shooter": "W1"}))
    result = invoke(
        "rule", "--position", "examples/rule-position.json", "--events", str(events), "--call", "K FL",
        "--state", str(state), "--json",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    for key in (
        "legal_pot",
        "points",
        "items",
        "fouls",
        "turn_passes",
        "in_hand",
        "respots",
        "game_over",
        "winner",
        "events",
    ):
        assert key in data
    assert data["legal_pot"] is False
    assert data["points"] == -6  # 7a: the cue ball went down after the kaisa first
    assert [f["clause"] for f in data["fouls"]] == ["7a"]
    assert data["in_hand"] == ["W1"]
    assert data["turn_passes"] is True
    assert data["respots"] == {"K": [0.71, 1.42]}
    assert data["state"]["scores"] == {"W1": 4, "W2": 4}
    assert data["state"]["shooter"] == "W2"
    assert len(data["events"]) == 4


def test_rule_text_output_in_finnish():
    result = invoke(
        "rule", "--position", "examples/rule-position.json", "--stroke", "examples/rule-stroke.json",
        "--call", "K FL", "--lang", "fi",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "Tuomio" in result.output
    assert "Nakki: punainen R1" in result.output
    assert "pisteet: +12" in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--call", "K XX"], "pocket XX does not exist"),
        (["--call", "K"], "a call ends with the pocket"),
        (["--call", "W1 FL"], "W1 is your own cue ball"),
        (["--call", "kyyti R1 kiss R2 K FL"], "only one konsti"),
        (["--call", "K FL", "--lang", "sv"], "--lang is fi or en"),
    ],
)
def test_rule_bad_calls_exit_2_with_a_clear_message(args, message):
    result = invoke("rule", "--position", "examples/rule-position.json", "--stroke", "examples/rule-stroke.json", *args)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_rule_needs_exactly_one_of_stroke_or_events():
    result = invoke("rule", "--position", "examples/rule-position.json", "--call", "K FL")
    assert result.exit_code == 2
    assert "exactly one of --stroke" in " ".join(result.output.split())


def test_rule_rejects_a_bad_state_and_a_log_moving_an_absent_ball(tmp_path: Path):
    state = tmp_path / "state.json"
    state.write_text(json.dumps({"scores": {"W1": "ten", "W2": 0}}))
    result = invoke(
        "rule", "--position", "examples/rule-position.json", "--stroke", "examples/rule-stroke.json",
        "--call", "K FL", "--state", str(state),
    )  # fmt: skip
    assert result.exit_code == 2
    assert "scores must be whole numbers" in result.output
    events = tmp_path / "e.json"
    events.write_text(
        json.dumps([{"t": 0, "type": "strike", "ball": "W1"}, {"t": 1, "type": "pocket", "ball": "K", "pocket": "HL"}])
    )
    position = tmp_path / "p.json"
    position.write_text(json.dumps({"balls": {"W1": [0.5, 0.5]}}))
    result = invoke("rule", "--position", str(position), "--events", str(events), "--call", "K HL")
    assert result.exit_code == 2
    assert "moves K, which is not in the position" in " ".join(result.output.split())


def test_bench_referee_prints_the_share():
    result = invoke("bench", "referee", "--strokes", "10")
    assert result.exit_code == 0, result.output
    assert re.search(r"referee/simulate = \d+\.\d\d%", result.output)
    assert re.search(r"shot generation/simulate = \d+\.\d\d", result.output)


@pytest.mark.slow
def test_match_replay_and_stats_commands(tmp_path: Path):
    """The README's promise: a seeded baseline match plays to a result, its record replays identically,
    and its statistics come from the database."""
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    record = tmp_path / "m.kaisa"
    played = invoke("match", "--p1", "baseline", "--p2", "baseline", "--seed", "1", "--db", db, "--record", str(record))
    assert played.exit_code == 0, played.output
    assert "winner:" in played.output
    assert "[Result " in record.read_text()
    replayed = invoke("replay", str(record))
    assert replayed.exit_code == 0, replayed.output
    assert "verified" in replayed.output
    stats = invoke("stats", "--db", db, "--json")
    assert stats.exit_code == 0, stats.output
    totals = json.loads(stats.output)
    rows = totals if isinstance(totals, list) else totals.get("players", totals)
    assert sum(row["wins"] for row in rows) == 1
    csv_out = invoke("stats", "--record", str(record), "--csv")
    assert csv_out.output.startswith("name,matches,wins")


@pytest.mark.slow
def test_a_corrupt_or_truncated_record_is_refused_without_touching_the_database(tmp_path: Path):
    from kaisa.game import Match, MatchConfig
    from kaisa.players import BaselinePlayer, MatchStalledError, play_match
    from kaisa.records.notation import write_match
    from kaisa.records.storage import open_store

    match = Match(MatchConfig(players=("a", "b"), noise=(1.0, 1.0), seed=3))
    with pytest.raises(MatchStalledError):
        play_match(match, (BaselinePlayer("a", 3), BaselinePlayer("b", 4)), max_actions=25)
    text = write_match(match)
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    store = open_store(db)
    truncated = tmp_path / "truncated.kaisa"
    truncated.write_text(text[: len(text) // 2].rsplit("\n", 1)[0] + "\n" + "99. W1 K FL | 2.0\n")
    corrupt = tmp_path / "corrupt.kaisa"
    corrupt.write_text(text.replace("; ", "; +99 ", 1) if "; " in text else text + "junk\n")
    for bad in (truncated, corrupt):
        result = invoke("replay", str(bad), "--store", "--db", db)
        assert result.exit_code == 2, result.output
        assert "line " in result.output
        assert store.list_matches() == []
    good = tmp_path / "good.kaisa"
    good.write_text(text)
    result = invoke("replay", str(good), "--store", "--db", db)
    assert result.exit_code == 0, result.output
    (stored,) = store.list_matches()
    assert store.resume(stored.id).state.to_json() == match.state.to_json()


def test_replay_refuses_a_tampered_record(tmp_path: Path):
    record = tmp_path / "bad.kaisa"
    record.write_text('[Player1 "a"]\n[Player2 "b"]\n\n1. lag W1 nope\n')
    result = invoke("replay", str(record))
    assert result.exit_code == 2
    assert "line 4" in result.output


def test_match_rejects_unknown_player_kinds_and_clock():
    assert "unknown player kind" in " ".join(invoke("match", "--p1", "grandmaster", "--no-db").output.split())
    assert "--clock must be off, sim or wall" in " ".join(invoke("match", "--clock", "fast", "--no-db").output.split())


def test_advise_lists_calls_with_odds_as_json():
    result = invoke("advise", "--position", "examples/rule-position.json", "--level", "beginner", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["level"] == "beginner"
    assert data["advice"]
    for row in data["advice"]:
        assert 0.0 <= row["p_pot"] <= 1.0
        assert 0.0 <= row["p_foul"] <= 1.0
    bad = invoke("advise", "--position", "examples/rule-position.json", "--level", "grandmaster")
    assert bad.exit_code == 2
    assert "--level: unknown player kind 'grandmaster'" in " ".join(bad.output.split())


@pytest.mark.slow
def test_play_serves_the_page_and_the_api_and_stops_cleanly(tmp_path: Path):
    import subprocess
    import sys
    import time

    import httpx

    db = tmp_path / "play.sqlite3"
    process = subprocess.Popen(
        [str(Path(sys.executable).parent / "kaisa"), "play", "--no-browser", "--port", "0", "--db", f"sqlite:///{db}"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={"COLUMNS": "200", "NO_COLOR": "1", "TERM": "dumb", **__import__("os").environ},
    )
    try:
        assert process.stdout is not None
        url = None
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            assert line, f"kaisa play exited early with {process.poll()}"
            found = re.search(r"http://127\.0\.0\.1:\d+/", line)
            url = found.group(0) if found else None
        assert url is not None
        for _ in range(100):
            try:
                page = httpx.get(url, timeout=5)
                break
            except httpx.ConnectError:
                time.sleep(0.1)
        assert page.status_code == 200
        assert "<html" in page.text.lower()
        # the API waits for the physics to load in the background: give it the time a loaded machine needs
        table = httpx.get(url + "api/table", timeout=180).json()
        assert table["ball_radius"] > 0
        created = httpx.post(url + "api/matches", json={"players": [{"name": "A"}, {"name": "B"}]}, timeout=180)
        assert created.status_code == 201
        assert created.json()["phase"] == "lag"
    finally:
        process.terminate()
        process.wait(timeout=30)
    assert db.exists()  # the match went into the database given


def test_play_refuses_a_busy_port_with_a_clear_message(tmp_path: Path):
    import socket

    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        result = invoke("play", "--no-browser", "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    assert result.exit_code != 0
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


@pytest.mark.slow
def test_bench_web_prints_the_server_and_simulate_medians():
    result = invoke("bench", "web", "--strokes", "10")
    assert result.exit_code == 0, result.output
    assert "server answer (shot)" in result.output
    assert "bare simulate" in result.output
    assert "server/simulate median ratio" in result.output


def test_a_rule_state_with_a_score_past_the_target_is_refused_in_one_line(tmp_path: Path) -> None:
    """issue 29: a 401-digit score exited 0 and declared the game over."""
    events = tmp_path / "events.json"
    events.write_text(json.dumps([{"t": 0.0, "type": "strike", "ball": "W1"}]))
    state = tmp_path / "state.json"
    state.write_text('{"scores": {"W1": ' + "9" * 401 + ', "W2": 0}, "shooter": "W1"}')
    args = ("rule", "--position", "examples/rule-position.json", "--events", str(events), "--call", "K FL")
    result = invoke(*args, "--state", str(state))
    assert result.exit_code == 2, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert "more than 60 points" in result.output
    assert "9" * 20 not in result.output


def test_lang_fi_says_the_packages_errors_in_finnish(tmp_path: Path) -> None:
    """issue 29: cli/common.fail printed every error in English whatever --lang said."""
    events = tmp_path / "events.json"
    events.write_text(json.dumps([{"t": 0.0, "type": "strike", "ball": "W1"}]))
    state = tmp_path / "state.json"
    state.write_text('{"scores": {"W1": 75, "W2": 0}, "shooter": "W1"}')
    args = ("rule", "--position", "examples/rule-position.json", "--events", str(events), "--call", "K FL")
    finnish = invoke(*args, "--state", str(state), "--lang", "fi")
    assert finnish.exit_code == 2, finnish.output
    assert finnish.output.startswith("virhe: Pelaajalla W1 on 75 pistettä"), finnish.output
    assert "[invalid-study-state]" in finnish.output
    english = invoke(*args, "--state", str(state))  # the next command in the same process speaks English again
    assert english.output.startswith("error:"), english.output


@pytest.mark.parametrize("error", [KeyboardInterrupt, BrokenProcessPool])
def test_ctrl_c_while_the_search_workers_start_saves_the_match_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: type[BaseException]
) -> None:
    """issue 29 (11): Ctrl+C as the search workers start broke their pool: a BrokenProcessPool traceback, exit 1,
    no "saved as" line and no record."""
    from kaisa.session.match import MatchSession

    played = MatchSession.play_out

    def interrupted(self: MatchSession, on_played: Any = None, max_actions: int = 5000) -> None:
        seen: list[object] = []

        def then_break(done: Any) -> None:  # the lag and a few actions, then the workers' pool breaks
            if on_played is not None:
                on_played(done)
            seen.append(done)
            if len(seen) == 3:
                raise error()

        played(self, then_break, max_actions)

    monkeypatch.setattr(MatchSession, "play_out", interrupted)
    db = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    record = tmp_path / "m.txt"
    result = invoke("match", "--p1", "baseline", "--p2", "baseline", "--seed", "1", "--db", db, "--record", str(record))
    assert result.exit_code == 130, result.output
    assert "interrupted: saved as match 1" in result.output
    assert "Traceback" not in result.output
    assert record.exists()
