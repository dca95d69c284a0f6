"""Match records in a real database: every test runs on SQLite (a file in a temporary directory) and on a real
PostgreSQL server that a session fixture starts (tests/postgres_server.py). Without the PostgreSQL server
binaries the PostgreSQL half fails with a message saying what to install; it is never skipped."""

from __future__ import annotations

import contextlib
import importlib.resources
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from platformdirs import user_data_dir
from sqlalchemy import create_engine, delete, event, inspect, make_url, text, update

from kaisa.errors import error_text
from kaisa.game import Match, MatchConfig, MatchState, replay
from kaisa.players import BaselinePlayer, MatchStalledError, play_match
from kaisa.records.storage import (
    CorruptRecordError,
    DatabaseUnavailableError,
    PlayerInfo,
    StorageError,
    Store,
    UnknownMatchError,
    default_url,
    open_store,
)
from kaisa.records.storage.engine import sqlite_url
from kaisa.records.storage.migrations import head_revision, shipped_head
from kaisa.records.storage.models import ActionRow, Base, MatchRow
from tests.postgres_server import PostgresServer, PostgresUnavailableError, free_port, start_server

CONFIG = MatchConfig(players=("Aino", "Eero"), noise=(1.0, 1.0), seed=1)
PLAYER_INFOS = [PlayerInfo("Aino", "baseline"), PlayerInfo("Eero", "baseline")]


def players(seed: int = 1) -> tuple[BaselinePlayer, BaselinePlayer]:
    return BaselinePlayer("Aino", seed=seed), BaselinePlayer("Eero", seed=seed + 1)


# --- fixtures ------------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    reason = ""
    try:
        server = start_server()
    except PostgresUnavailableError as error:
        reason = str(error)
    if reason:  # outside the except block, so the report shows only the reason
        pytest.fail(f"cannot start a PostgreSQL server for the storage tests: {reason}", pytrace=False)
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'kaisa.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database()


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with open_store(db_url) as opened:
        yield opened


def play(match: Match, actions: int, on_entry: Any = None) -> None:
    """Play up to ``actions`` more actions between the two baseline players."""
    with contextlib.suppress(MatchStalledError):
        play_match(match, players(), on_entry=on_entry, max_actions=actions)


def recorded_match(store: Store, actions: int) -> tuple[int, Match]:
    match_id = store.create_match(CONFIG, PLAYER_INFOS, seed=1)
    match = Match(CONFIG)
    play(match, actions, store.recorder(match_id))
    assert len(match.stack) == actions
    return match_id, match


def snapshot(store: Store, match_id: int) -> tuple[int, dict[str, Any], list[dict[str, Any]], int]:
    """Everything stored about a match, and the raw number of its action rows."""
    info = store.match_info(match_id)
    state = store.load(match_id)[1].to_json()
    rows = [a.to_json() for a in store.actions(match_id)]
    with store.engine.connect() as conn:
        raw = conn.execute(text("SELECT count(*) FROM actions WHERE match_id = :m"), {"m": match_id}).scalar_one()
    return info.actions, state, rows, raw


def states_after(match: Match) -> list[dict[str, Any]]:
    """The state after each action of the in-memory match."""
    return [e.before.to_json() for e in match.stack[1:]] + [match.state.to_json()]


# --- round trip ----------------------------------------------------------------------------------------


def test_a_recorded_match_loads_back_exactly(store: Store) -> None:
    match_id, match = recorded_match(store, 8)

    config, state, actions = store.load(match_id)
    assert config.to_json() == CONFIG.to_json()
    assert state.to_json() == match.state.to_json()
    assert actions == [e.action for e in match.stack]

    stored = store.actions(match_id)
    assert [a.index for a in stored] == list(range(8))
    assert [a.state_after.to_json() for a in stored] == states_after(match)
    assert [a.to_json()["action"]["kind"] for a in stored][:4] == ["lag", "choose", "place-w2", "shot"]
    lag, shot = stored[0].outcome, stored[3].outcome
    assert lag["lag"]["winner"] in (0, 1)
    assert lag["records"][0]["events"][0]["type"] == "strike"
    assert all("trajectories" not in r for r in lag["records"])  # animation samples are not stored
    ruling = match.stack[3].outcome.ruling
    assert ruling is not None
    assert shot["ruling"] == json.loads(json.dumps(ruling.to_json()))

    info = store.match_info(match_id)
    assert (info.id, info.players, info.status, info.seed, info.actions) == (
        match_id,
        tuple(PLAYER_INFOS),
        "playing",
        1,
        8,
    )
    assert info.result is None
    assert info.created_at <= info.updated_at
    assert info.created_at.utcoffset() is not None


def test_matches_are_listed_with_their_players_and_status(store: Store) -> None:
    first, _ = recorded_match(store, 3)
    second = store.create_match(CONFIG, ["Aino", PlayerInfo("Kone", "baseline")], seed=None)
    listed = store.list_matches()
    assert [m.id for m in listed] == [first, second]
    assert listed[1].players == (PlayerInfo("Aino", "human"), PlayerInfo("Kone", "baseline"))
    assert (listed[1].actions, listed[1].seed) == (0, None)
    assert [m.id for m in store.list_matches("playing")] == [first, second]
    assert store.list_matches("over") == []
    with pytest.raises(StorageError, match="playing or over"):
        store.list_matches("paused")
    third = store.create_match(CONFIG, kinds=("baseline", "human"))  # config.players' names with their kinds
    assert store.match_info(third).players == (PlayerInfo("Aino", "baseline"), PlayerInfo("Eero", "human"))
    with pytest.raises(StorageError, match="two players"):
        store.create_match(CONFIG, ["Aino"])


def test_a_whole_match_is_stored_as_over_with_its_result(store: Store) -> None:
    match_id = store.create_match(CONFIG, PLAYER_INFOS, seed=5)
    match = Match(CONFIG)
    recorder = store.recorder(match_id)
    play_match(match, players(5), on_entry=recorder)
    assert match.over
    assert match.state.result is not None

    info = store.match_info(match_id)
    assert (info.status, info.result, info.actions) == ("over", match.state.result, len(match.stack))
    assert store.load(match_id)[1].to_json() == match.state.to_json()
    assert [m.id for m in store.list_matches("over")] == [match_id]

    recorder.undo(match)  # the winning stroke taken back: playing again, no result
    info = store.match_info(match_id)
    assert (info.status, info.result) == ("playing", None)
    play(match, 1, recorder)
    assert store.match_info(match_id).result == match.state.result


# --- transactions --------------------------------------------------------------------------------------


@pytest.mark.parametrize("failing", ["INSERT INTO actions", "UPDATE matches"])
def test_a_failed_write_leaves_nothing_half_written(store: Store, failing: str) -> None:
    """The action row and the match's new state are one transaction: whichever statement fails, neither is
    stored, and recording the same action again afterwards works."""
    match_id, match = recorded_match(store, 4)
    play(match, 1)  # one more action, played but not yet recorded
    before = snapshot(store, match_id)
    statements: list[str] = []

    def fail(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        statements.append(statement.split("(")[0].strip())
        if statement.lstrip().upper().startswith(failing.upper()):
            raise RuntimeError(f"injected failure of {failing}")

    event.listen(store.engine, "before_cursor_execute", fail)
    try:
        with pytest.raises(RuntimeError, match="injected failure"):
            store.recorder(match_id)(match, match.stack[-1])
    finally:
        event.remove(store.engine, "before_cursor_execute", fail)
    writes = [s.upper() for s in statements if s.upper().startswith(("INSERT INTO ACTIONS", "UPDATE MATCHES"))]
    assert writes[-1].startswith(failing.upper())  # the failure hit that write (the other may have run before it)
    assert snapshot(store, match_id) == before

    store.recorder(match_id)(match, match.stack[-1])
    count, state, rows, raw = snapshot(store, match_id)
    assert (count, raw, len(rows)) == (5, 5, 5)
    assert state == match.state.to_json() == rows[-1]["state_after"]


def test_recording_out_of_step_is_refused_and_writes_nothing(store: Store) -> None:
    match_id, match = recorded_match(store, 4)
    before = snapshot(store, match_id)
    recorder = store.recorder(match_id)
    with pytest.raises(StorageError, match="not the stored current state"):
        recorder(match, match.stack[-1])  # the same action twice
    assert snapshot(store, match_id) == before

    store.undo(match_id)  # undone in the database but not in memory
    play(match, 1)
    with pytest.raises(StorageError, match="undone only in memory"):
        recorder(match, match.stack[-1])
    assert snapshot(store, match_id)[0] == 3


# --- undo and resume -----------------------------------------------------------------------------------


def test_undo_deletes_exactly_the_last_action(store: Store) -> None:
    match_id, match = recorded_match(store, 6)
    other, _ = recorded_match(store, 2)
    rows = [a.to_json() for a in store.actions(match_id)]

    assert store.undo(match_id) == match.stack[-1].action
    match.pop()
    count, state, after, raw = snapshot(store, match_id)
    assert (count, raw) == (5, 5)
    assert after == rows[:-1]
    assert state == rows[-2]["state_after"] == match.state.to_json()
    assert snapshot(store, other)[0] == 2  # another match is untouched

    recorder = store.recorder(match_id)
    recorder.undo(match)  # in the database and in memory together
    assert len(match.stack) == 4
    assert store.load(match_id)[1].to_json() == match.state.to_json()
    assert [a.to_json() for a in store.actions(match_id)] == rows[:4]

    play(match, 2, recorder)  # play goes on after an undo, recording from where it is
    assert [a.state_after.to_json() for a in store.actions(match_id)] == states_after(match)

    while match.stack:
        recorder.undo(match)
    assert snapshot(store, match_id)[:2] == (0, Match(CONFIG).state.to_json())
    with pytest.raises(StorageError, match="no recorded action to undo"):
        store.undo(match_id)


def test_resume_gives_the_stored_state_and_play_goes_on(store: Store) -> None:
    match_id, match = recorded_match(store, 8)

    resumed = store.resume(match_id)
    assert resumed.state.to_json() == match.state.to_json()
    assert resumed.config.to_json() == match.config.to_json()
    assert [e.action for e in resumed.stack] == [e.action for e in match.stack]
    assert [e.before.to_json() for e in resumed.stack] == [e.before.to_json() for e in match.stack]
    assert store.resume(match_id, stack=False).stack == []

    recorder = store.recorder(match_id)
    play(resumed, 3, recorder)
    play(match, 3)  # the same players and seeds in memory
    assert resumed.state.to_json() == match.state.to_json()
    assert store.load(match_id)[1].to_json() == match.state.to_json()

    resumed.pop()  # the rebuilt stack undoes as the original one does
    match.pop()
    assert resumed.state.to_json() == match.state.to_json()

    bare = store.resume(match_id, stack=False)
    recorder.undo(bare)  # with no stack, the state is read back from the database
    assert bare.state.to_json() == match.state.to_json()


# --- schema, URLs, errors ------------------------------------------------------------------------------


def test_migrations_run_on_an_empty_database_and_are_idempotent(db_url: str) -> None:
    engine = create_engine(db_url)
    try:
        assert inspect(engine).get_table_names() == []
    finally:
        engine.dispose()

    with open_store(db_url) as first:
        tables = set(inspect(first.engine).get_table_names())
        match_tables = {"alembic_version", "players", "matches", "actions", "entry_keys"}
        assert match_tables | {"competitions", "competition_keys"} <= tables  # later revisions may add more
        with first.engine.connect() as conn:
            assert MigrationContext.configure(conn).get_current_revision() == head_revision()
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []  # models == migrations
        match_id = first.create_match(CONFIG, PLAYER_INFOS, seed=3)

    for _ in range(2):
        with open_store(db_url) as again:
            with again.engine.connect() as conn:
                assert MigrationContext.configure(conn).get_current_revision() == head_revision()
                versions = conn.execute(text("SELECT count(*) FROM alembic_version")).scalar_one()
            assert versions == 1
            assert [m.id for m in again.list_matches()] == [match_id]


def test_migrations_ship_inside_the_package() -> None:
    migrations = importlib.resources.files("kaisa.records.storage.migrations")
    assert migrations.joinpath("env.py").is_file()
    assert migrations.joinpath("versions", "r0001_initial.py").is_file()
    assert migrations.joinpath("versions", "r0002_club.py").is_file()
    assert migrations.joinpath("versions", "r0003_keys_hashes_tables.py").is_file()
    assert migrations.joinpath("versions", "r0004_competitions.py").is_file()
    assert head_revision() >= "0004"
    assert shipped_head() == head_revision()  # a current schema is recognised without Alembic


def test_sqlite_has_foreign_keys_and_wal(tmp_path: Path) -> None:
    with open_store(f"sqlite:///{tmp_path / 'k.sqlite3'}") as store, store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one() == 1
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar_one() == "wal"
        with pytest.raises(Exception, match="FOREIGN KEY"):
            conn.execute(
                text(
                    "INSERT INTO actions (match_id, action_index, kind, action, outcome, state_after, created_at) "
                    "VALUES (999, 0, 'shot', '{}', '{}', '{}', '2024-01-01')"
                )
            )


def test_the_default_database_is_in_the_user_data_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KAISA_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = Path(user_data_dir("kaisa")) / "kaisa.sqlite3"
    assert default_url() == sqlite_url(expected)
    if tmp_path in expected.parents:  # platformdirs follows XDG_DATA_HOME (Linux): open it, not the real home
        with open_store() as store:
            assert store.url == sqlite_url(expected)
        assert expected.is_file()

    monkeypatch.setenv("KAISA_DB", str(tmp_path / "elsewhere.sqlite3"))
    with open_store() as store:
        assert store.url == sqlite_url(tmp_path / "elsewhere.sqlite3")
    monkeypatch.setenv("KAISA_DB", f"sqlite:///{tmp_path / 'by-url.sqlite3'}")
    with open_store() as store:
        store.create_match(CONFIG)
    assert (tmp_path / "by-url.sqlite3").is_file()


def test_an_unreachable_database_is_a_clear_error(db_url: str, tmp_path: Path) -> None:
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite":
        bad = [f"sqlite:///{tmp_path / 'no-such-directory' / 'kaisa.sqlite3'}"]
    else:
        bad = [
            url.set(port=free_port(), password="s3cret").render_as_string(hide_password=False),  # nothing listens
            url.set(database="no_such_database").render_as_string(hide_password=False),
        ]
    for each in bad:
        with pytest.raises(DatabaseUnavailableError) as info:
            open_store(each)
        message = str(info.value)
        assert "cannot open the database at" in message
        assert "postgresql+psycopg://user:password@host:5432/dbname" in message
        assert "s3cret" not in message


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("://nothing", "is not a database URL"),
        ("nosuchdb://somewhere/x", "cannot use the database URL"),
        ("postgresql+nosuchdriver://u:s3cret@localhost/kaisa", "cannot use the database URL"),
    ],
)
def test_a_malformed_url_is_a_clear_error(url: str, says: str) -> None:
    with pytest.raises(DatabaseUnavailableError, match=says) as info:
        open_store(url)
    assert "sqlite:///" in str(info.value)
    assert "s3cret" not in str(info.value)


def test_a_text_without_a_scheme_is_the_path_of_an_sqlite_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """issue 16: --db club.sqlite3 was refused as "not a database URL"; a path is an SQLite file, as in $KAISA_DB."""
    monkeypatch.chdir(tmp_path)
    for path, made in (("club.sqlite3", tmp_path / "club.sqlite3"), (str(tmp_path / "x.db"), tmp_path / "x.db")):
        with open_store(path) as store:
            assert store.url == f"sqlite:///{made}"
        assert made.is_file()


def test_an_unknown_match_is_a_clear_error(store: Store) -> None:
    match_id, match = recorded_match(store, 3)
    unknown = match_id + 1000
    calls: list[Callable[[], object]] = [
        lambda: store.load(unknown),
        lambda: store.resume(unknown),
        lambda: store.undo(unknown),
        lambda: store.recorder(unknown),
        lambda: store.actions(unknown),
        lambda: store.match_info(unknown),
        lambda: store.record(unknown, match.stack[-1], match.state),
    ]
    for call in calls:
        with pytest.raises(UnknownMatchError, match=f"^there is no match {unknown}$") as refused:
            call()
        assert error_text(refused.value).fi == f"Ottelua {unknown} ei löydy."  # the web answers with these words
        assert store.url not in str(refused.value)  # and never says where the database lies
    assert issubclass(UnknownMatchError, StorageError)


def test_a_corrupt_row_is_a_clear_error(store: Store) -> None:
    match_id, _ = recorded_match(store, 4)
    good = store.load(match_id)[1].to_json()
    with store.engine.begin() as conn:
        conn.execute(update(MatchRow).where(MatchRow.id == match_id).values(state={"phase": "teleport"}))
    with pytest.raises(CorruptRecordError, match=f"match {match_id}: the stored current state is corrupt"):
        store.load(match_id)
    with pytest.raises(CorruptRecordError):
        store.resume(match_id)

    if store.engine.dialect.name == "sqlite":  # PostgreSQL's json type refuses text that is not JSON
        with store.engine.begin() as conn:
            conn.execute(text("UPDATE matches SET state = 'not json {' WHERE id = :m"), {"m": match_id})
        with pytest.raises(CorruptRecordError, match="not valid JSON"):
            store.load(match_id)

    with store.engine.begin() as conn:
        conn.execute(update(MatchRow).where(MatchRow.id == match_id).values(state=good))
        conn.execute(
            update(ActionRow)
            .where(ActionRow.match_id == match_id, ActionRow.action_index == 2)
            .values(action={"kind": "teleport"})
        )
    with pytest.raises(CorruptRecordError, match=r"the stored action 2 is corrupt \(unknown action kind 'teleport'"):
        store.load(match_id)

    with store.engine.begin() as conn:
        conn.execute(delete(ActionRow).where(ActionRow.match_id == match_id, ActionRow.action_index == 2))
    with pytest.raises(
        CorruptRecordError, match=r"says it has 4 actions, but its action rows are numbered \[0, 1, 3\]"
    ):
        store.actions(match_id)


def test_values_json_cannot_hold_are_refused(store: Store) -> None:
    match_id, match = recorded_match(store, 3)
    play(match, 1)
    bad = replace(match.state, clock=replace(match.state.clock, elapsed=float("nan")))
    with pytest.raises(StorageError, match="cannot be stored as JSON"):
        store.record(match_id, match.stack[-1], bad)
    assert store.match_info(match_id).actions == 3


# --- a crash mid-match ---------------------------------------------------------------------------------

CHILD = textwrap.dedent(
    """
    import sys, time
    from kaisa.players import BaselinePlayer, play_match
    from kaisa.records.storage import open_store

    store = open_store(sys.argv[1])
    match_id = int(sys.argv[2])
    match = store.resume(match_id)
    recorder = store.recorder(match_id)

    def slowly(match, entry):
        recorder(match, entry)
        time.sleep(0.03)

    play_match(match, (BaselinePlayer("Aino", seed=1), BaselinePlayer("Eero", seed=2)), on_entry=slowly)
    print("the match finished before it was killed", flush=True)
    """
)


def test_a_process_killed_mid_match_loses_at_most_the_action_in_flight(store: Store, db_url: str) -> None:
    match_id = store.create_match(CONFIG, PLAYER_INFOS, seed=1)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, db_url, str(match_id)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 45
        while store.match_info(match_id).actions < 8:
            if child.poll() is not None:
                out, err = child.communicate()
                pytest.fail(f"the recording process ended by itself ({child.returncode}):\n{out}\n{err}")
            assert time.monotonic() < deadline, "the recording process committed no actions in 45 s"
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
        child.communicate()
    assert child.returncode == -signal.SIGKILL

    info = store.match_info(match_id)
    stored = store.actions(match_id)
    assert info.status == "playing"
    assert [a.index for a in stored] == list(range(info.actions))
    assert info.actions >= 8

    resumed = store.resume(match_id)
    assert resumed.state.to_json() == stored[-1].state_after.to_json()
    assert isinstance(resumed.state, MatchState)
    # the records replay: the same actions from the start give the same state
    assert replay(CONFIG, [a.action for a in stored]).state.to_json() == resumed.state.to_json()

    play(resumed, 4, store.recorder(match_id))
    assert store.match_info(match_id).actions == info.actions + 4
    assert store.load(match_id)[1].to_json() == resumed.state.to_json()


# --- club matches: events, tokens, corrections -----------------------------------------------------------


def test_a_database_at_the_first_schema_is_upgraded_keeping_its_matches(db_url: str) -> None:
    from alembic import command

    from kaisa.records.storage.migrations import alembic_config

    engine = create_engine(db_url)
    try:
        with engine.begin() as conn:
            command.upgrade(alembic_config(conn), "0001")
        with engine.begin() as conn:
            columns = {c["name"] for c in inspect(conn).get_columns("matches")}
            assert "event" not in columns
            players_id = conn.execute(text("INSERT INTO players (name, kind) VALUES ('Aino', 'human') RETURNING id"))
            pid = players_id.scalar_one()
            state = json.dumps(Match(CONFIG).state.to_json())
            conn.execute(
                text(
                    "INSERT INTO matches (created_at, updated_at, player1_id, player2_id, config, status, "
                    "initial_state, state, action_count) VALUES (:t, :t, :p, :p, :c, 'playing', :s, :s, 0)"
                ),
                {"t": datetime.now(UTC), "p": pid, "c": json.dumps(CONFIG.to_json()), "s": state},
            )
    finally:
        engine.dispose()
    with open_store(db_url) as store:
        [info] = store.list_matches()
        assert info.event is None
        assert not info.has_token
        assert store.load(info.id)[1] == Match(CONFIG).state


def test_matches_of_a_club_night_are_listed_together(store: Store) -> None:
    first = store.create_match(CONFIG, PLAYER_INFOS, event="Club night 2026-12-02")
    store.create_match(CONFIG, PLAYER_INFOS)
    third = store.create_match(CONFIG, PLAYER_INFOS, event="Club night 2026-12-02")
    assert [m.id for m in store.list_matches(event="Club night 2026-12-02")] == [first, third]
    assert store.match_info(first).event == "Club night 2026-12-02"
    before = store.last_change(event="Club night 2026-12-02")
    assert before is not None
    match = Match(CONFIG)
    play(match, 1, store.recorder(third))
    after = store.last_change([third])
    assert after is not None
    assert after >= before
    with pytest.raises(StorageError, match="event name"):
        store.create_match(CONFIG, PLAYER_INFOS, event="x" * 121)


def test_a_marker_token_is_checked_and_only_its_hash_is_stored(store: Store) -> None:
    from kaisa.records.storage import AccessDeniedError

    token = "s3cret-token-for-table-1"
    match_id = store.create_match(CONFIG, PLAYER_INFOS, token=token)
    assert store.match_info(match_id).has_token
    store.check_token(match_id, token)
    for wrong in (None, "", "s3cret-token-for-table-2"):
        with pytest.raises(AccessDeniedError, match="missing or wrong"):
            store.check_token(match_id, wrong)
    with store.engine.connect() as conn:
        stored = conn.execute(text("SELECT token_hash FROM matches WHERE id = :m"), {"m": match_id}).scalar_one()
    assert token not in stored
    open_match = store.create_match(CONFIG, PLAYER_INFOS)
    with pytest.raises(AccessDeniedError, match="not kept with a token"):
        store.check_token(open_match, token)
    with pytest.raises(StorageError, match="at least 16"):
        store.create_match(CONFIG, PLAYER_INFOS, token="short")


def test_a_correction_rewrites_the_actions_after_it_in_one_transaction(store: Store) -> None:
    match_id, match = recorded_match(store, 6)
    keep = 3
    corrected = Match(CONFIG)
    for entry in match.stack[:keep]:
        corrected.push(entry.action)
    play(corrected, 2)  # different players' choices from here on
    store.rewrite(match_id, keep, corrected.stack[keep:], corrected.state)
    assert store.load(match_id)[1] == corrected.state
    assert [a.action for a in store.actions(match_id)] == [e.action for e in corrected.stack]
    assert [a.state_after.to_json() for a in store.actions(match_id)] == states_after(corrected)
    before = snapshot(store, match_id)
    with pytest.raises(StorageError, match="does not start from the stored state"):
        store.rewrite(match_id, 1, corrected.stack[2:], corrected.state)
    with pytest.raises(StorageError, match="cannot rewrite from 9"):
        store.rewrite(match_id, 9, [], corrected.state)
    assert snapshot(store, match_id) == before
