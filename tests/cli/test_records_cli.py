"""The records command line (kaisa matches, replay --store, stats, match --resume) and the issue-16 bugs it had:
the double --store, Ctrl+C that saved nothing, --record checked only after the match, rich markup in names.
Ctrl+C is a real SIGINT sent to a real ``kaisa match`` process."""

from __future__ import annotations

import os
import re
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
    path.write_text(write_match(match, {"Seed": "1", "Event": "Kerhoilta [3.12.]"}), encoding="utf-8")
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
    assert table.output.split()[:4] == ["Statistics", "over", "1", "match"]  # one match, not "1 match(es)"


def test_stats_in_finnish_fit_80_columns_with_a_decimal_comma(record_file: Path, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    assert invoke("replay", str(record_file), "--store", "--db", db).exit_code == 0
    table = invoke("stats", "--db", db, "--lang", "fi")
    assert table.exit_code == 0, table.output
    assert table.output.split()[:3] == ["Tilastot,", "1", "ottelu"]
    assert "pelaaja" in table.output
    assert "[/] Aino" in table.output
    assert re.search(r"\b\d+,\d\d\b", table.output), "points per inning with a decimal comma"
    assert not re.search(r"\b\d+\.\d\d\b", table.output)
    assert max(len(line) for line in table.output.splitlines()) <= 80
    wrong = invoke("stats", "--db", db, "--lang", "sv")
    assert wrong.exit_code == 2
    assert "--lang is fi or en" in wrong.output


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


def test_resume_refuses_options_it_would_ignore(tmp_path: Path) -> None:
    """A resumed match keeps its own players, seed and clock: --p1 master was silently ignored."""
    result = invoke("match", "--resume", "1", "--p1", "master", "--seed", "5", "--db", f"sqlite:///{tmp_path / 'k'}")
    assert result.exit_code == 2
    assert "leave out --p1, --seed" in result.output


def test_piped_output_keeps_lines_apart_and_the_record_has_its_seed(tmp_path: Path) -> None:
    """issue 16: piped, the live view's last line ran into "Scoresheet", and an empty "final innings:" showed."""
    record = tmp_path / "m.kaisa"
    args = [KAISA, "match", "--no-db", "--seed", "3", "--clock", "sim", "--record", str(record)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=600, env={**os.environ, "NO_COLOR": "1"})
    assert done.returncode == 0, done.stderr
    lines = [line.rstrip() for line in done.stdout.splitlines()]
    assert "Scoresheet" in lines  # a line of its own
    assert not any(line.rstrip().endswith("final innings:") for line in lines)
    assert '[Seed "3"]' in record.read_text(encoding="utf-8")


def test_ctrl_c_saves_the_match_and_says_how_to_resume_it(tmp_path: Path) -> None:
    """issue 16: Ctrl+C printed nothing and the match stayed 'playing' with no command to resume it. A real
    SIGINT is sent to a real process once it has recorded a few actions."""
    path = tmp_path / "k.sqlite3"
    db = f"sqlite:///{path}"
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    record = tmp_path / "so-far.kaisa"
    process = subprocess.Popen(
        [KAISA, "match", "--p1", "club", "--p2", "club", "--db", db, "--seed", "3", "--record", str(record)],
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
    written = record.read_text(encoding="utf-8")  # --record holds the match so far too
    assert '[Seed "3"]' in written
    assert '[Result "*"]' in written
    with open_store(db) as store:
        info = store.match_info(1)
        assert info.status == "playing"
        assert info.actions >= 4
        assert info.players == (PlayerInfo("club 1", "club"), PlayerInfo("club 2", "club"))


def _actions(path: Path) -> int:
    """The actions of the match stored at ``path`` while it is being played (0 before it is stored, -1 once it is
    over: a Ctrl+C then finds no match to interrupt)."""
    try:
        with sqlite3.connect(path) as connection:
            row = connection.execute("select action_count, status from matches").fetchone()
    except sqlite3.Error:
        return 0
    if row is None:
        return 0
    return int(row[0]) if row[1] == "playing" else -1


def _workers_waiting(pid: int) -> bool:
    """Whether ``pid`` has child processes (the search's workers) and all of them are asleep, waiting for work."""
    children: list[str] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            children += (task / "children").read_text().split()
        except OSError:
            continue
    states = []
    for child in children:
        try:
            states.append(Path(f"/proc/{child}/stat").read_text().rsplit(")", 1)[1].split()[0])
        except OSError:
            return False
    return bool(states) and all(state == "S" for state in states)


def test_ctrl_c_at_the_terminal_reaches_the_search_workers_too_and_the_match_ends_in_one_line(tmp_path: Path) -> None:
    """issue 29 (11): a terminal's Ctrl+C goes to the whole process group, the search's worker processes too: a
    worker waiting for work printed a KeyboardInterrupt traceback, or the pool broke under the match. SIGINT is
    sent to the group of a real ``kaisa match`` while the club players' workers wait between decisions, the match
    still being played (one already over has nothing to interrupt)."""
    if not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists():
        pytest.skip("finding the workers needs Linux's /proc/PID/task/TID/children")
    path = tmp_path / "k.sqlite3"
    process = subprocess.Popen(
        [KAISA, "match", "--p1", "club", "--p2", "club", "--db", f"sqlite:///{path}", "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1"},
        start_new_session=True,  # its own process group, as a terminal's foreground job
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 240
    waiting = 0
    while time.monotonic() < deadline and process.poll() is None and waiting < 5:
        waiting = waiting + 1 if _actions(path) >= 4 and _workers_waiting(process.pid) else 0
        time.sleep(0.02)
    assert waiting == 5, "the club player's workers were never seen waiting"
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate(timeout=120)
    assert process.returncode == 130, err
    assert err.splitlines() == ["interrupted: saved as match 1, resume with kaisa match --resume 1"], err
    gone = time.monotonic() + 10
    while time.monotonic() < gone:  # the workers were shut down with the match, none is left behind
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail("a search worker outlived the interrupted match")


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


# --- the same names everywhere: levels, languages, databases ------------------------------------------------


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(
    "command",
    [("match",), ("advise",), ("tournament",), ("dataset",), ("bench", "ai")],
)
def test_every_command_that_takes_a_player_kind_lists_every_kind_in_its_help(command: tuple[str, ...]) -> None:
    from kaisa.players.kinds import COMPUTER_KINDS

    shown = _flat(invoke(*command, "--help").output)
    assert ", ".join(COMPUTER_KINDS) in shown or all(kind in shown for kind in COMPUTER_KINDS), shown


def test_advise_level_baseline_is_the_baseline_players_stroke_with_its_odds() -> None:
    """issue 16: advise --level baseline was refused though every other command takes baseline."""
    result = invoke("advise", "--position", "examples/rule-position.json", "--level", "baseline", "--json")
    assert result.exit_code == 0, result.output
    import json

    data = json.loads(result.output)
    assert data["level"] == "baseline"
    [row] = data["advice"]
    assert row["call"] is not None
    assert row["kind"] == "direct"
    assert 0.0 <= row["p_pot"] <= 1.0
    assert row["position_value"] == 0.0  # the baseline never weighs the position left


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("match", "--p1", "grandmaster", "--no-db"), "--p1: unknown player kind 'grandmaster'"),
        (("match", "--p2", "[/]", "--no-db"), "--p2: unknown player kind '[/]'"),
        (("tournament", "--players", "club,nobody"), "--players: unknown player kind 'nobody'"),
        (("dataset", "--players", "club,,", "--out", "x"), "needs at least two players, not 1"),
        (("dataset", "--players", ",", "--out", "x"), "--players takes comma-separated kinds"),
    ],
)
def test_a_wrong_player_kind_names_the_option_and_every_kind(args: tuple[str, ...], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    shown = _flat(result.output)
    assert message in shown
    if "unknown player kind" in message:
        assert "the computer players are baseline, beginner, club, master" in shown


def test_replay_and_matches_show_speak_finnish(record_file: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "club.sqlite3")  # a plain file path, not a URL
    replayed = invoke("replay", str(record_file), "--lang", "fi", "--store", "--db", db)
    assert replayed.exit_code == 0, replayed.output
    shown = _flat(replayed.output)
    assert "tarkistettu:" in shown
    assert "jokainen tuomio kuten pöytäkirjassa" in shown
    assert "Pöytäkirja" in shown
    assert "voittaja:" in shown
    assert "60 pistettä (3)" in shown
    assert "winner" not in shown
    assert "verified" not in shown
    show = invoke("matches", "show", "1", "--db", db, "--lang", "fi")
    assert show.exit_code == 0, show.output
    assert "Pöytäkirja" in show.output
    assert invoke("replay", str(record_file), "--lang", "sv").exit_code == 2


def test_simulate_speaks_finnish_with_decimal_commas() -> None:
    result = invoke(
        "simulate", "--position", "examples/position.json", "--stroke", "examples/stroke.json", "--lang", "fi"
    )
    assert result.exit_code == 0, result.output
    shown = _flat(result.output)
    assert "tapahtuma" in shown
    assert "Loppuasema" in shown
    assert "pallot pysähtyivät" in shown
    assert "lyönti" in shown
    assert "valli" in shown
    assert re.search(r"\d,\d{3}", shown)
    assert not re.search(r"\b0\.\d{3}\b", shown)


def test_match_live_view_and_scoresheet_in_finnish(tmp_path: Path) -> None:
    record = tmp_path / "m.kaisa"
    result = invoke("match", "--no-db", "--seed", "3", "--lang", "fi", "--record", str(record), "--clock", "sim")
    assert result.exit_code == 0, result.output
    shown = _flat(result.output)
    assert "pelaaja" in shown
    assert "lyöntivuorot" in shown
    assert "kello" in shown
    assert "Pöytäkirja" in shown
    assert "Scoresheet" not in shown
    assert "innings" not in shown


@pytest.mark.parametrize("form", ["plain", "relative", "url"])
def test_db_takes_a_plain_sqlite_file_path_or_a_url(form: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 16: --db /tmp/x.db was refused as "not a database URL"."""
    monkeypatch.chdir(tmp_path)
    db = {"plain": str(tmp_path / "x.db"), "relative": "club.sqlite3", "url": f"sqlite:///{tmp_path / 'y.db'}"}[form]
    result = invoke("matches", "list", "--db", db)
    assert result.exit_code == 0, result.output
    assert "no stored matches" in result.output.lower()
    made = {"plain": tmp_path / "x.db", "relative": tmp_path / "club.sqlite3", "url": tmp_path / "y.db"}[form]
    assert made.is_file()


def test_db_in_a_missing_folder_is_one_error_line(tmp_path: Path) -> None:
    result = invoke("stats", "--db", str(tmp_path / "no" / "such" / "x.db"))
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1
    assert "cannot open the database" in result.output


def test_tournament_and_dataset_share_one_set_of_run_options() -> None:
    """Review finding: the Ray/backend options were written twice; they are common.Backend, Address, ..."""
    import inspect

    from kaisa.cli import common
    from kaisa.cli.dataset import dataset_command
    from kaisa.cli.tournament import tournament_command

    for command in (tournament_command, dataset_command):
        hints = inspect.signature(command).parameters
        for name, shared in (
            ("backend", common.Backend),
            ("address", common.Address),
            ("workers", common.Workers),
            ("seed", common.RunSeed),
            ("noise", common.Noise),
            ("games", common.Games),
        ):
            assert eval(hints[name].annotation, vars(common)) == shared, (command.__name__, name)


def test_replay_store_to_a_database_that_cannot_be_opened_says_so_before_the_replay(
    record_file: Path, tmp_path: Path
) -> None:
    """issue 29: the whole replay was printed before the database's error."""
    db = f"sqlite:///{tmp_path / 'no-such-folder' / 'x.sqlite3'}"
    result = invoke("replay", str(record_file), "--store", "--db", db)
    assert result.exit_code == 2, result.output
    assert "verified" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
