"""The records command line (kaisa matches, replay --store, stats, match --resume) and the issue-16 bugs it had:
the double --store, Ctrl+C that saved nothing, --record checked only after the match, rich markup in names.
Ctrl+C is a real SIGINT sent to a real ``kaisa match`` process."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from kaisa.cli import app
from kaisa.game import Match, MatchConfig
from kaisa.players import BaselinePlayer, play_match
from kaisa.records.notation import write_match
from kaisa.records.storage import PlayerInfo, open_store

pytestmark = pytest.mark.slow

runner = CliRunner()
KAISA = str(Path(sys.executable).with_name("kaisa"))


def invoke(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"})


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A whole match between baseline players, named with rich markup, written in the notation."""
    config = MatchConfig(players=("[/] Aino", "=HYPERLINK(x)"), noise=(1.0, 1.0), seed=1)
    match = Match(config)
    play_match(match, (BaselinePlayer("a", seed=1), BaselinePlayer("b", seed=11)))
    path = tmp_path_factory.mktemp("records") / "match.kaisa"
    path.write_text(write_match(match), encoding="utf-8")
    return path


def test_replay_store_twice_stores_once_and_stats_count_one_win(record_file: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    first = invoke("replay", str(record_file), "--store", "--db", db)
    assert first.exit_code == 0, first.output
    assert "stored as match 1" in first.output
    second = invoke("replay", str(record_file), "--store", "--db", db)
    assert second.exit_code == 0, second.output
    assert "already stored as match 1" in second.output
    stats = invoke("stats", "--db", db, "--json")
    assert stats.exit_code == 0, stats.output
    assert '"matches": 1' in stats.output
    assert '"wins": 2' not in stats.output


def test_matches_list_show_export_delete(record_file: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    assert invoke("replay", str(record_file), "--store", "--db", db).exit_code == 0
    listed = invoke("matches", "list", "--db", db)
    assert listed.exit_code == 0, listed.output
    assert "[/] Aino" in listed.output
    assert "over" in listed.output
    assert max(len(line) for line in listed.output.splitlines()) <= 80
    assert "[/] Aino" not in invoke("matches", "list", "--db", db, "--player", "nobody").output
    shown = invoke("matches", "show", "1", "--db", db)
    assert shown.exit_code == 0
    assert "Scoresheet" in shown.output
    out = tmp_path / "back.kaisa"
    exported = invoke("matches", "export", "1", "--db", db, "-o", str(out))
    assert exported.exit_code == 0, exported.output
    assert out.read_text(encoding="utf-8") == record_file.read_text(encoding="utf-8")
    assert invoke("replay", str(out)).exit_code == 0  # the export reads back and replays
    assert invoke("matches", "delete", "1", "--db", db, "--yes").exit_code == 0
    gone = invoke("matches", "show", "1", "--db", db)
    assert gone.exit_code == 2
    assert "no match 1" in gone.output


def test_stats_reads_stored_rulings_and_fits_80_columns(record_file: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    assert invoke("replay", str(record_file), "--store", "--db", db).exit_code == 0
    table = invoke("stats", "--db", db)
    assert table.exit_code == 0, table.output
    assert "won" in table.output
    assert "[/] Aino" in table.output
    assert max(len(line) for line in table.output.splitlines()) <= 80
    csv = invoke("stats", "--db", db, "--csv")
    assert "'=HYPERLINK(x)" in csv.output


def test_record_path_is_checked_before_the_match(tmp_path: Path) -> None:
    """issue 16: --record /nonexistent/dir/m.kaisa --no-db played the whole match, then died with a traceback."""
    result = invoke("match", "--record", "/nonexistent/dir/m.kaisa", "--no-db")
    assert result.exit_code == 2
    assert "does not exist" in result.output
    assert "Traceback" not in result.output


def test_resume_refuses_a_finished_match_and_an_unknown_one(record_file: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    assert invoke("replay", str(record_file), "--store", "--db", db).exit_code == 0
    over = invoke("match", "--resume", "1", "--db", db)
    assert over.exit_code == 2
    assert "is over" in over.output
    unknown = invoke("match", "--resume", "99", "--db", db)
    assert unknown.exit_code == 2
    assert "no match 99" in unknown.output


def test_ctrl_c_saves_the_match_and_says_how_to_resume_it(tmp_path: Path) -> None:
    """issue 16: Ctrl+C printed nothing and the match stayed 'playing' with no command to resume it. A real
    SIGINT is sent to a real process once it has recorded a few actions."""
    path = tmp_path / "k.sqlite3"
    db = f"sqlite:///{path}"
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    process = subprocess.Popen(
        [KAISA, "match", "--p1", "club", "--p2", "club", "--db", db, "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a shell's background job ignores it
    )
    deadline = time.monotonic() + 240
    recorded = 0
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with sqlite3.connect(path) as connection:
                recorded = connection.execute("select count(*) from actions").fetchone()[0]
        except sqlite3.Error:
            recorded = 0
        if recorded >= 4:
            break
        time.sleep(0.2)
    assert recorded >= 4, "the match recorded no actions in time"
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert "saved as match 1, resume with kaisa match --resume 1" in err
    assert "Traceback" not in err
    with open_store(db) as store:
        info = store.match_info(1)
        assert info.status == "playing"
        assert info.actions >= 4
        assert info.players == (PlayerInfo("club 1", "club"), PlayerInfo("club 2", "club"))


def test_simulate_and_table_draw_pictures(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    shot, table = tmp_path / "shot.png", tmp_path / "table.png"
    result = invoke(
        "simulate", "--position", str(examples / "position.json"), "--stroke", str(examples / "stroke.json"),
        "--plot", str(shot),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert invoke("table", "--plot", str(table)).exit_code == 0
    for picture in (shot, table):
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    refused = invoke("table", "--plot", str(tmp_path / "missing" / "t.png"))
    assert refused.exit_code == 2
    assert "does not exist" in refused.output
