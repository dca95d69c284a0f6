"""Competitions in the club database (kaisa.competition.store) on SQLite and on a real PostgreSQL server: the
kaavio reads back as it was written, every change is one transaction (a refused change writes nothing), a change
sent twice with the same key is applied once, and several tables reporting at the same time lose nothing."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from kaisa.competition import CompetitionError, GameState, Kaavio, KaavioType, Settings
from kaisa.competition.store import CompetitionStore, UnknownCompetitionError
from kaisa.records.storage import AccessDeniedError, Store, open_store
from tests.records.test_storage import db_url, postgres_server  # noqa: F401  (fixtures)

TOKEN = "director-secret-token-0123"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:  # noqa: F811
    with open_store(db_url) as opened:
        yield opened


def drawn(players: int = 9, kind: KaavioType = KaavioType.KO3) -> Kaavio:
    k = Kaavio(Settings("Viikkokisa", "2026-12-03", "Kaisaseura", kind, tables=("1", "2", "3")))
    for i in range(players):
        k.add_player(f"Pelaaja {i + 1}", "KS")
    k.draw(7)
    return k


def test_a_competition_reads_back_as_it_was_written(store: Store) -> None:
    competitions = CompetitionStore(store)
    k = drawn()
    k.start(1, "2", match_id="17")
    cid = competitions.create(k, TOKEN)
    stored = competitions.get(cid)
    assert stored.kaavio.to_json() == k.to_json()
    assert stored.kaavio.game(1).state == GameState.RUNNING
    assert stored.version == 0
    listed = competitions.summaries()
    assert [(c.id, c.name, c.players, c.drawn, c.finished) for c in listed] == [(cid, "Viikkokisa", 9, True, False)]


def test_the_directors_token_is_checked_and_stored_only_as_a_hash(store: Store) -> None:
    competitions = CompetitionStore(store)
    cid = competitions.create(drawn(), TOKEN)
    competitions.check_token(cid, TOKEN)
    for wrong in (None, "", "director-secret-token-0124"):
        with pytest.raises(AccessDeniedError):
            competitions.check_token(cid, wrong)
    with store.engine.connect() as conn:
        (stored_hash,) = conn.exec_driver_sql("SELECT token_hash FROM competitions").one()
    assert TOKEN not in stored_hash
    assert len(stored_hash) == 64


def test_an_unknown_competition_is_a_clear_error(store: Store) -> None:
    competitions = CompetitionStore(store)
    for cid in (1, 0, -3, 2**63):
        with pytest.raises(UnknownCompetitionError, match=f"there is no competition {cid}"):
            competitions.get(cid)


def test_a_refused_change_writes_nothing(store: Store) -> None:
    competitions = CompetitionStore(store)
    cid = competitions.create(drawn(), TOKEN)
    before = competitions.get(cid)

    def half_done(k: Kaavio, markers: dict[str, str]) -> dict[str, object]:
        k.record(1, "60", "12")  # applied in memory ...
        markers["1"] = "x"
        k.record(99, "60", "12")  # ... then refused
        return {}

    with pytest.raises(CompetitionError, match="no game number 99"):
        competitions.change(cid, half_done, key="k1")
    after = competitions.get(cid)
    assert after.kaavio.to_json() == before.kaavio.to_json()
    assert after.version == before.version
    assert after.markers == {}
    assert competitions.answered(cid, "k1") is None  # the key was not taken: a retry may still apply it


def test_a_change_sent_twice_with_the_same_key_is_applied_once(store: Store) -> None:
    competitions = CompetitionStore(store)
    cid = competitions.create(drawn(), TOKEN)
    applied = []

    def result(k: Kaavio, _m: dict[str, str]) -> dict[str, object]:
        applied.append(1)
        k.record(1, "60", "12")
        return {"game": 1}

    first = competitions.change(cid, result, key="tap-1")
    again = competitions.change(cid, result, key="tap-1")
    assert (first.repeated, again.repeated) == (False, True)
    assert again.answer == first.answer == {"game": 1}
    assert len(applied) == 1
    assert competitions.get(cid).version == 1


def test_several_tables_reporting_at_once_lose_nothing(store: Store) -> None:
    """Four round-1 results sent at the same moment from four threads (four tables), each also sent twice with
    its key: every result is recorded once, in whatever order they came."""
    competitions = CompetitionStore(store)
    k = drawn(players=8, kind=KaavioType.DOUBLE)
    cid = competitions.create(k, TOKEN)
    round1 = [g.number for g in k.games if g.round == 1]
    assert len(round1) == 4
    barrier = threading.Barrier(len(round1) * 2)
    errors: list[BaseException] = []

    def report(number: int) -> None:
        def act(k: Kaavio, _m: dict[str, str]) -> dict[str, object]:
            k.record(number, "60", str(number))
            return {"game": number}

        try:
            barrier.wait(timeout=30)
            competitions.change(cid, act, key=f"table-{number}")
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=report, args=(n,)) for n in round1 for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert errors == []
    stored = competitions.get(cid)
    assert stored.version == len(round1)
    assert [(g.points1, g.points2) for g in stored.kaavio.games if g.round == 1] == [("60", str(n)) for n in round1]


def test_deleting_a_competition_deletes_its_keys(store: Store) -> None:
    competitions = CompetitionStore(store)
    cid = competitions.create(drawn(), TOKEN)
    competitions.change(cid, lambda k, m: {"n": len(k.games)}, key="a")
    competitions.delete(cid)
    with pytest.raises(UnknownCompetitionError):
        competitions.get(cid)
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("SELECT count(*) FROM competition_keys").scalar_one() == 0
