"""``kaisa backup`` and ``kaisa restore`` round trips on real databases: SQLite backed up while a ``kaisa club``
process records strokes, PostgreSQL through pg_dump/pg_restore; every match read back equal; a restore over a
database that holds records refused in one line (exit status 2) unless ``--force``."""

from __future__ import annotations

import subprocess
import threading
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from kaisa.game import MatchConfig
from kaisa.records.storage import MatchInfo, PlayerInfo, Store, StoredAction, StoredMatch, open_store
from tests.postgres_server import PostgresServer, PostgresUnavailableError, start_server
from tests.web.club_helpers import KAISA, entry, new_match, pot, start_kaisa_play, stop, wait_for

pytestmark = pytest.mark.slow


def kaisa(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([KAISA, *args], capture_output=True, text=True, timeout=300, check=False)


Everything = dict[int, tuple[MatchInfo, StoredMatch, list[StoredAction], list[tuple[Any, datetime]]]]


def everything(store: Store) -> Everything:
    """Every stored match as typed values: its summary, its entries and state, and its actions with their times."""
    return {
        info.id: (info, store.entries(info.id), store.actions(info.id), store.action_log(info.id))
        for info in store.list_matches()
    }


def some_matches(store: Store, count: int = 3) -> None:
    for seed in range(count):
        store.create_match(MatchConfig(players=("Aino", "Eero")), [PlayerInfo("Aino"), PlayerInfo("Eero")], seed=seed)


class Writer:
    """Club matches entered stroke by stroke through a real ``kaisa club`` server, in a thread, until stopped."""

    def __init__(self, base: str) -> None:
        self.client = httpx.Client(base_url=base, timeout=30)
        self.strokes = 0
        self.stopping = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            while not self.stopping.is_set():
                match_id, token = new_match(self.client)
                for index in range(4):
                    answer = self.client.post(
                        f"/api/club/matches/{match_id}/strokes", json=pot(index), headers=entry(token)
                    )
                    assert answer.status_code == 200, answer.text
                    self.strokes += 1
        except BaseException as error:  # reported by stop()
            self.error = error

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(timeout=60)
        self.client.close()
        assert self.error is None, self.error


def test_sqlite_backup_while_the_server_writes_restores_every_match(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    with open_store(f"sqlite:///{db}") as store:
        some_matches(store)
    process, base = start_kaisa_play(str(db))
    try:
        writer = Writer(base)
        wait_for(lambda: writer.strokes >= 6, "six strokes entered")
        during = kaisa("backup", str(tmp_path / "during.sqlite3"), "--db", str(db))
        assert during.returncode == 0, during.stderr
        assert "Backed up" in during.stdout
        after_backup = writer.strokes
        wait_for(lambda: writer.strokes >= after_backup + 4, "four more strokes entered after the backup")
        writer.stop()
        final = kaisa("backup", str(tmp_path / "final.sqlite3"), "--db", str(db))
        assert final.returncode == 0, final.stderr
    finally:
        stop(process)

    for name in ("during", "final"):
        restored = tmp_path / f"restored-{name}.sqlite3"
        done = kaisa("restore", str(tmp_path / f"{name}.sqlite3"), "--db", str(restored))
        assert done.returncode == 0, done.stderr
        with open_store(f"sqlite:///{db}") as source, open_store(f"sqlite:///{restored}") as copy:
            original, back = everything(source), everything(copy)
            assert back.keys() <= original.keys()
            assert len(back) >= 4  # the three made before the server, and the club's
            for match_id, (info, stored, actions, log) in back.items():
                # a consistent snapshot: each match as it stood at one moment, its state that of its last action
                assert actions == original[match_id][2][: len(actions)]
                assert log == original[match_id][3][: len(log)]
                assert info.actions == len(actions)
                assert stored.state == (actions[-1].state_after if actions else stored.state)
                copy.resume(match_id)
            if name == "final":
                assert back == original  # nothing written after it: every match equal

    # a database that holds records is not restored over, unless --force
    target = tmp_path / "restored-final.sqlite3"
    refused = kaisa("restore", str(tmp_path / "during.sqlite3"), "--db", str(target))
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "is not empty" in refused.stderr
    assert "--force" in refused.stderr
    said = kaisa("restore", str(tmp_path / "during.sqlite3"), "--db", str(target), "--lang", "fi")
    assert said.returncode == 2
    assert "on jo tietoja" in said.stderr
    forced = kaisa("restore", str(tmp_path / "during.sqlite3"), "--db", str(target), "--force")
    assert forced.returncode == 0, forced.stderr
    with (
        open_store(f"sqlite:///{target}") as copy,
        open_store(f"sqlite:///{tmp_path / 'restored-during.sqlite3'}") as d,
    ):
        assert everything(copy) == everything(d)


def test_backup_and_restore_refuse_bad_input_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    with open_store(f"sqlite:///{db}") as store:
        some_matches(store, 1)
    (tmp_path / "not-a-backup.txt").write_text("hello")
    (tmp_path / "taken.sqlite3").write_text("")
    for args, said in (
        (("backup", str(tmp_path / "b.sqlite3"), "--db", str(tmp_path / "missing.sqlite3")), "no SQLite database"),
        (("backup", str(tmp_path / "taken.sqlite3"), "--db", str(db)), "already exists"),
        (("backup", str(tmp_path / "no" / "b.sqlite3"), "--db", str(db)), "does not exist"),
        (("restore", str(tmp_path / "missing.sqlite3"), "--db", str(tmp_path / "n.sqlite3")), "does not exist"),
        (("restore", str(tmp_path / "not-a-backup.txt"), "--db", str(tmp_path / "n.sqlite3")), "not a kaisa backup"),
    ):
        done = kaisa(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


@pytest.fixture(scope="module")
def postgres() -> Iterator[PostgresServer]:
    reason = ""
    try:
        server = start_server()
    except PostgresUnavailableError as error:
        reason = str(error)
    if reason:
        pytest.fail(f"cannot start a PostgreSQL server for the backup tests: {reason}", pytrace=False)
    yield server
    server.stop()


def test_postgresql_backup_restores_every_match(tmp_path: Path, postgres: PostgresServer) -> None:
    source_url, target_url = postgres.create_database(), postgres.create_database()
    process, base = start_kaisa_play(source_url)
    try:
        writer = Writer(base)
        wait_for(lambda: writer.strokes >= 6, "six strokes entered")
        writer.stop()
    finally:
        stop(process)
    archive = tmp_path / "club.pgdump"
    done = kaisa("backup", str(archive), "--db", source_url)
    assert done.returncode == 0, done.stderr
    assert archive.read_bytes().startswith(b"PGDMP")
    into_sqlite = kaisa("restore", str(archive), "--db", str(tmp_path / "x.sqlite3"))
    assert into_sqlite.returncode == 2
    assert "PostgreSQL archive" in into_sqlite.stderr
    done = kaisa("restore", str(archive), "--db", target_url)
    assert done.returncode == 0, done.stderr
    with open_store(source_url) as source, open_store(target_url) as copy:
        original = everything(source)
        assert original
        assert everything(copy) == original
        some_matches(copy, 1)  # the restored sequences go on from the backup's ids
    refused = kaisa("restore", str(archive), "--db", target_url)
    assert refused.returncode == 2
    assert "is not empty" in refused.stderr
    forced = kaisa("restore", str(archive), "--db", target_url, "--force")
    assert forced.returncode == 0, forced.stderr
    with open_store(source_url) as source, open_store(target_url) as copy:
        assert everything(copy) == everything(source)
