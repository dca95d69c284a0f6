"""Values read back typed (one codec per value), statistics from stored rulings, a record stored once, and the
bugs of issue 16 that live in the records: huge numbers, the hung Table tag, deep JSON, a corrupt outcome."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kaisa.errors import FormatError, InvalidPositionError, InvalidStrokeError, KaisaError, error_text
from kaisa.game import Match, MatchConfig, Outcome, replay
from kaisa.model import Position, ShotRecord, Stroke, event_from_json, finite_number
from kaisa.players import BaselinePlayer, play_match
from kaisa.records.notation import NotationError, parse_record, replay_record, write_match
from kaisa.records.stats import entries_stats, match_stats, stored_stats, to_csv
from kaisa.records.storage import CorruptRecordError, DuplicateMatchError, Store, content_hash, open_store
from kaisa.records.storage.models import ActionRow
from kaisa.referee import RuleOptions, Ruling
from kaisa.referee.opening import LAG_FAULT_TEXTS, LagResult

pytestmark = pytest.mark.slow

HUGE = 10**400
"""An integer too large for a float: math.isfinite raises OverflowError on it."""


@pytest.fixture(scope="module")
def played() -> Match:
    """A whole match between baseline players, with noise (fouls, lags, runs)."""
    config = MatchConfig(players=("Aino", "Eero"), noise=(1.0, 1.0), seed=1)
    match = Match(config)
    play_match(match, (BaselinePlayer("Aino", seed=1), BaselinePlayer("Eero", seed=11)))
    assert match.state.result is not None
    return match


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'k.sqlite3'}") as opened:
        yield opened


# --- one codec per value ------------------------------------------------------------------------------------


def test_every_outcome_of_a_match_reads_back_equal(played: Match) -> None:
    rulings = 0
    for entry in played.stack:
        data = json.loads(json.dumps(entry.outcome.to_json()))
        back = Outcome.from_json(data)
        assert back.to_json() == entry.outcome.to_json()
        if entry.outcome.ruling is not None:
            rulings += 1
            assert back.ruling == entry.outcome.ruling
            assert Ruling.from_json(data["ruling"]).points == entry.outcome.ruling.points
        for record in back.records:
            assert isinstance(record, ShotRecord)
    assert rulings > 20


def test_lag_reasons_are_bilingual_and_old_english_reasons_read_back() -> None:
    text = LAG_FAULT_TEXTS[0]
    lag = LagResult(1, ((text,), ()))
    data = lag.to_json()
    assert data == {"winner": 1, "reasons": [[{"fi": text.fi, "en": text.en}], []]}
    assert LagResult.from_json(data) == lag
    assert LagResult.from_json({"winner": 1, "reasons": [[text.en], []]}) == lag  # written before issue 16
    with pytest.raises(FormatError):
        LagResult.from_json({"winner": True, "reasons": [[], []]})


def test_a_ruling_whose_points_do_not_add_up_is_refused(played: Match) -> None:
    ruling = next(e.outcome.ruling for e in played.stack if e.outcome.ruling and e.outcome.ruling.points)
    data = ruling.to_json()
    data["points"] += 1
    with pytest.raises(FormatError, match="not the sum"):
        Ruling.from_json(data)


def test_a_config_reads_back_and_refuses_bools_and_huge_numbers() -> None:
    config = MatchConfig(players=("A", "B"), noise=(1.0, 2.0), seed=7)
    assert MatchConfig.from_json(config.to_json()) == config
    for bad in ({"noise": [True, 0]}, {"noise": [HUGE, 0]}, {"seed": HUGE}, {"seed": 1.5}, {"players": ["A", 3]}):
        with pytest.raises(FormatError):
            MatchConfig.from_json({**config.to_json(), **bad})


# --- numbers: no bool, no int too large for a float ----------------------------------------------------------


def test_finite_number_refuses_bools_huge_ints_and_nan() -> None:
    assert finite_number(2) == 2.0
    assert finite_number(True) is None
    assert finite_number(HUGE) is None
    assert finite_number(math.nan) is None
    assert finite_number("1") is None


@pytest.mark.parametrize(
    ("read", "error"),
    [
        (lambda: Position({"W1": (HUGE, 0.3)}), InvalidPositionError),
        (lambda: Position({"W1": (False, 0.3)}), InvalidPositionError),
        (lambda: Stroke.from_json({"ball": "W1", "speed": HUGE, "direction": 0}), InvalidStrokeError),
        (lambda: Stroke.from_json({"ball": "W1", "speed": 2, "direction": 0, "side": True}), InvalidStrokeError),
        (lambda: event_from_json({"t": HUGE, "type": "strike", "ball": "W1"}), FormatError),
        (lambda: RuleOptions.from_json({"frozen_gap": int("9" * 401)}), FormatError),
        (lambda: RuleOptions.from_json({"frozen_gap": 5.0}), FormatError),
        (lambda: RuleOptions.from_json({"extra_kaisa_value": 10**30}), FormatError),
    ],
)
def test_huge_and_bool_numbers_are_refused_with_a_kaisa_error(
    read: Callable[[], object], error: type[Exception]
) -> None:
    with pytest.raises(error) as caught:
        read()
    assert "digits" in str(caught.value) or len(str(caught.value)) < 400  # the number is not echoed whole


def test_errors_have_a_stable_code_and_finnish_and_english_text() -> None:
    error = InvalidStrokeError("stroke speed 9.0 m/s is out of range")
    assert error.code == "invalid-stroke"
    text = error_text(error)
    assert text.fi.startswith("Lyönti ei ole mahdollinen.")
    assert text.en.startswith("The stroke is not possible.")
    assert DuplicateMatchError(3).code == "duplicate-match"


# --- the notation's tags ------------------------------------------------------------------------------------


def test_the_hung_table_tag_is_refused_at_once(played: Match) -> None:
    """issue 16: a Table tag with cushion_height_ratio 100 hung the replay for over 180 s; ball_mass -1 was a
    pooltool assertion. Both are refused by the parser, before anything is simulated."""
    text = write_match(played)
    for table in ('{"cushion_height_ratio":100}', '{"ball_mass":-1}', '{"ball_mass":true}', '{"width":1e999}'):
        bad = text.replace("[Clock ", f"[Table {json.dumps(table)}]\n[Clock ", 1)
        with pytest.raises(NotationError, match="Table"):
            parse_record(bad)  # refused by the parser, before anything is simulated


def test_deep_json_and_huge_numbers_in_tags_are_notation_errors(played: Match) -> None:
    text = write_match(played)
    for tag in ("[" * 100_000, "1" + "0" * 5000, '{"frozen_gap": ' + "9" * 401 + "}"):
        bad = text.replace("[Clock ", f"[Options {json.dumps(tag)}]\n[Clock ", 1)
        with pytest.raises(NotationError):
            parse_record(bad)
    with pytest.raises(NotationError, match="Chance"):
        parse_record(text.replace("[Chance ", '[Chance "' + "9" * 5000 + ' 1 1"]\n[X ', 1))


# --- the store reads typed values, statistics read the stored rulings ------------------------------------


def test_resume_carries_the_stored_outcomes(played: Match, store: Store) -> None:
    match_id = store.import_match(played)
    resumed = store.resume(match_id)
    assert [e.outcome.to_json() for e in resumed.stack] == [
        json.loads(json.dumps(_without_paths(e.outcome.to_json()))) for e in played.stack
    ]
    assert write_match(resumed) == write_match(played)


def _without_paths(outcome: dict) -> dict:  # type: ignore[type-arg]
    for record in outcome.get("records", []):
        record.pop("trajectories", None)
    return outcome


def test_statistics_of_stored_matches_equal_those_of_the_match_played(played: Match, store: Store) -> None:
    match_id = store.import_match(played)
    [fast] = list(stored_stats(store, [match_id]))
    assert fast.to_json() == match_stats(played, event=f"match {match_id}").to_json()
    stored = store.entries(match_id)
    assert entries_stats(stored.config, stored.entries, stored.state, event=f"match {match_id}") == fast
    config, _, actions = store.load(match_id)
    assert match_stats(replay(config, actions), event=f"match {match_id}") == fast


def test_statistics_over_copies_count_each_copy(played: Match, store: Store) -> None:
    match_id = store.import_match(played)
    store.copy_match(match_id, 4)
    stats = list(stored_stats(store))
    assert len(stats) == 5
    assert {json.dumps(s.players[0].to_json()) for s in stats} == {json.dumps(stats[0].players[0].to_json())}


def test_a_record_imported_twice_is_stored_once(played: Match, store: Store) -> None:
    """issue 16: kaisa replay --store twice stored the match twice and stats counted two wins."""
    first = store.import_match(played, unique=True)
    again = replay_record(write_match(played))  # the same record read back from its text
    assert content_hash(again) == content_hash(played)
    with pytest.raises(DuplicateMatchError) as caught:
        store.import_match(again, unique=True)
    assert caught.value.match_id == first
    assert len(store.list_matches()) == 1


def test_delete_removes_the_match_and_its_actions(played: Match, store: Store) -> None:
    keep, gone = store.import_match(played), store.import_match(played)
    store.delete_match(gone)
    assert [m.id for m in store.list_matches()] == [keep]
    with pytest.raises(KaisaError):
        store.match_info(gone)


def test_a_corrupt_stored_ruling_is_a_corrupt_record_error(played: Match, store: Store) -> None:
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    match_id = store.import_match(played)
    with Session(store.engine) as session, session.begin():
        session.execute(
            update(ActionRow)
            .where(ActionRow.match_id == match_id, ActionRow.action_index == 5)
            .values(outcome={"notes": [], "ruling": {"shooter": "W9"}})
        )
    with pytest.raises(CorruptRecordError, match="match"):
        store.resume(match_id)


def test_csv_cells_cannot_become_formulas() -> None:
    from kaisa.records.stats import PlayerTotals

    text = to_csv([PlayerTotals('=HYPERLINK("http://x","y")'), PlayerTotals("-1+1"), PlayerTotals("Aino")])
    lines = text.splitlines()
    assert lines[1].startswith("\"'=HYPERLINK(")
    assert lines[2].startswith("'-1+1")
    assert lines[3].startswith("Aino")


def test_statistics_from_postgresql_equal_those_of_the_match_played(played: Match) -> None:
    """The projection is per dialect (json_extract on SQLite, json_build_array on PostgreSQL): both are real."""
    from tests.postgres_server import start_server

    server = start_server()
    try:
        with open_store(server.create_database()) as pg:
            match_id = pg.import_match(played)
            pg.copy_match(match_id, 2)
            stats = list(stored_stats(pg))
            assert [s.to_json() for s in stats] == [
                match_stats(played, event=f"match {i}").to_json() for i in (match_id, match_id + 1, match_id + 2)
            ]
    finally:
        server.stop()


def test_a_config_keeps_a_table_other_than_the_official_one() -> None:
    """A match played on a club's own table (say 1 mm wider pockets) reads back on that table, not the official one;
    an official match's JSON carries no table, as before."""
    from dataclasses import replace as replaced

    from kaisa.table import OFFICIAL

    assert "table" not in MatchConfig(players=("A", "B")).to_json()
    spec = replaced(OFFICIAL, ball_mass=OFFICIAL.ball_mass + 0.01)
    config = MatchConfig(players=("A", "B"), spec=spec)
    back = MatchConfig.from_json(config.to_json())
    assert back.spec == spec
    assert back == config
    with pytest.raises(FormatError, match="ball_mass"):
        MatchConfig.from_json({**config.to_json(), "table": {"ball_mass": -1}})
