"""Hand-written event logs are checked before they are ruled: every impossible log gets a clear error
(:class:`ImpossibleLogError`) naming the event or ball and what is allowed, from the Python API and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kaisa.cli import app
from kaisa.errors import KaisaError
from kaisa.model import BallId, OffTableEvent, PocketEvent, Position, StrikeEvent
from kaisa.referee import ImpossibleLogError, StrokeLog, validate_log
from kaisa.table import PocketId
from tests.referee_helpers import START, stroke_log

W1, R1, K = BallId.W1, BallId.R1, BallId.K


def test_a_good_log_passes_and_its_final_position_is_where_the_balls_were_last_seen():
    log = stroke_log(("strike W1", "ball W1 K @0.70,1.35", "pocket K FL"))
    assert log.final[W1] == (0.70, 1.35)
    assert K not in log.final


def test_an_impossible_log_is_a_kaisa_error_with_one_line():
    with pytest.raises(KaisaError) as info:
        stroke_log(("strike W1", "ball W1 W1"))
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("steps", "final", "message"),
    [
        (("strike W1",), {**START, "W1": (9.0, 9.0)}, r"W1 in the final position is at \(9, 9\), off the table"),
        (("strike W1",), {**START, "R1": (0.71, 1.42), "R2": (0.71, 1.42)}, "overlap in the final position"),
        (("strike W1", "ball W1 R1 @5,5"), None, r"W1 at event 1 is at \(5, 5\), off the table"),
        (("strike W1", "ball W1 R1 @0.71,1.42"), None, "overlap where the log leaves the balls"),
        (("strike W1", "pocket K FL", "pocket K FR"), None, "event 2: K dropped at event 1, so it cannot drop again"),
        (("strike W1", "pocket K FL", "ball W1 K"), None, "event 2: K dropped at event 1, so it cannot move any more"),
        (("strike W1", "off R1", "rail R1 foot"), None, "event 2: R1 left the table at event 1"),
        (("strike W1", "ball W1 W1"), None, "event 1: W1 cannot collide with itself"),
        (("ball W1 K",), None, "starts with exactly one strike event"),
        (("strike W1", "strike W2"), None, "starts with exactly one strike event"),
        (("strike W1", "pocket K FL"), {**START}, "K dropped or left the table, so it cannot be in the final position"),
    ],
)
def test_impossible_logs_are_refused_with_what_is_wrong(steps, final, message):
    with pytest.raises(ImpossibleLogError, match=message):
        stroke_log(steps, final=final)


def test_a_log_moving_a_ball_that_is_not_on_the_table_is_refused():
    start = {b: p for b, p in START.items() if b != "R2"}
    with pytest.raises(ImpossibleLogError, match="moves R2, which is not in the position"):
        stroke_log(("strike W1", "ball W1 R2"), start=start)


def test_a_start_position_with_overlapping_balls_is_refused():
    with pytest.raises(ImpossibleLogError, match="overlap at the start"):
        stroke_log(("strike W1",), start={**START, "R1": START["W1"]})


def test_a_log_whose_start_is_not_the_given_position_is_refused():
    data = {
        "start": Position({**START, "W1": (0.50, 1.00)}).to_json(),
        "events": [{"t": 0.0, "type": "strike", "ball": "W1"}],
    }
    with pytest.raises(ImpossibleLogError, match=r"another position than the one given \(differs at W1"):
        StrokeLog.from_json(Position(START), data)
    same = {**data, "start": Position(START).to_json()}
    assert StrokeLog.from_json(Position(START), same).start == Position(START)


def test_validate_log_checks_a_log_with_its_final_position():
    start = Position(START)
    events = (StrikeEvent(0.0, W1), PocketEvent(0.5, R1, PocketId.HL))
    validate_log(start, events, start.without(R1))
    with pytest.raises(ImpossibleLogError):
        validate_log(start, (*events, OffTableEvent(0.6, R1)), start.without(R1))


def test_the_cli_refuses_an_impossible_log_in_one_line(tmp_path: Path):
    position = tmp_path / "position.json"
    events = tmp_path / "events.json"
    position.write_text(json.dumps(Position(START).to_json()))
    final = {**START, "W1": (9, 9)}
    events.write_text(
        json.dumps({"events": [{"t": 0.0, "type": "strike", "ball": "W1"}], "final": Position(final).to_json()})
    )
    result = CliRunner().invoke(
        app, ["rule", "--position", str(position), "--call", "K FL", "--events", str(events)], env={"NO_COLOR": "1"}
    )
    assert result.exit_code == 2
    assert "off the table" in result.output
    assert "Traceback" not in result.output
