"""Values and their JSON contract: positions, strokes, events."""

import math

import pytest

from kaisa.errors import FormatError, InvalidPositionError, InvalidStrokeError
from kaisa.model import (
    BallContactEvent,
    BallId,
    Event,
    JawEvent,
    OffTableEvent,
    PocketEvent,
    Position,
    RailEvent,
    StrikeEvent,
    Stroke,
    event_from_json,
    event_to_json,
    events_from_json,
)
from kaisa.table import PocketId, RailId


def test_position_is_immutable_ordered_and_round_trips():
    p = Position({"K": (0.71, 1.42), "W1": (0.5, 0.5)})
    assert list(p) == [BallId.W1, BallId.K]
    assert p["K"] == (0.71, 1.42)
    assert Position.from_json(p.to_json()) == p
    assert hash(p) == hash(Position({"W1": (0.5, 0.5), "K": (0.71, 1.42)}))
    with pytest.raises(AttributeError):
        p.x = 1
    assert p.without("K") == Position({"W1": (0.5, 0.5)})
    assert p.with_ball(BallId.R1, (1.0, 1.0))[BallId.R1] == (1.0, 1.0)


def test_position_errors_name_the_problem():
    with pytest.raises(InvalidPositionError, match=r"unknown ball id 'W3'.*W1, W2, R1, R2, K"):
        Position({"W3": (0.1, 0.1)})
    with pytest.raises(InvalidPositionError, match="finite numbers"):
        Position({"W1": (math.nan, 0.1)})
    with pytest.raises(InvalidPositionError, match=r"pair \[x, y\]"):
        Position({"W1": (0.1,)})  # type: ignore[arg-type]
    with pytest.raises(FormatError, match="balls"):
        Position.from_json({"W1": [0.1, 0.1]})


def test_stroke_json_contract_round_trips():
    data = {"ball": "W1", "speed": 2.0, "direction": 135.0, "elevation": 0.0, "side": 0.0, "follow": -0.4}
    stroke = Stroke.from_json(data)
    assert stroke.to_json() == data
    placed = Stroke.from_json({**data, "place": [0.3, 0.4]})
    assert placed.place == (0.3, 0.4)
    assert placed.to_json()["place"] == [0.3, 0.4]


def test_stroke_direction_is_normalised():
    assert Stroke(BallId.W1, 1.0, -90.0).direction == 270.0
    assert Stroke(BallId.W2, 1.0, 450.0).direction == 90.0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"speed": 0.0}, r"speed 0.0 m/s is out of range: allowed is 0.01 to 8.0 m/s"),
        ({"speed": 1e-200}, r"speed 1e-200 m/s is out of range: allowed is 0.01 to 8.0 m/s"),
        ({"speed": 8.01}, "out of range"),
        ({"speed": -1.0}, "out of range"),
        ({"speed": math.nan}, "speed must be a finite number"),
        ({"direction": math.inf}, "direction must be a finite number"),
        ({"elevation": -1.0}, "elevation"),
        ({"elevation": 75.0}, "elevation"),
        ({"side": 0.6}, "outside the legal tip area"),
        ({"side": 0.4, "follow": 0.4}, "outside the legal tip area"),
        ({"follow": "high"}, "follow must be a finite number"),
        ({"ball": "R1"}, "cue ball must be W1 or W2"),
        ({"ball": "X"}, "unknown cue ball"),
    ],
)
def test_bad_strokes_get_clear_errors(changes, message):
    kwargs = {"ball": BallId.W1, "speed": 2.0, "direction": 90.0, **changes}
    with pytest.raises(InvalidStrokeError, match=message):
        Stroke(**kwargs)


def test_stroke_json_errors():
    with pytest.raises(FormatError, match="missing speed"):
        Stroke.from_json({"ball": "W1", "direction": 1.0})
    with pytest.raises(FormatError, match="unknown keys"):
        Stroke.from_json({"ball": "W1", "speed": 1.0, "direction": 1.0, "spin": 3})
    with pytest.raises(FormatError):
        Stroke.from_json([1, 2])
    with pytest.raises(InvalidStrokeError, match="place"):
        Stroke.from_json({"ball": "W1", "speed": 1.0, "direction": 1.0, "place": [1, "a"]})


def test_legal_tip_area_edge_is_allowed():
    Stroke(BallId.W1, 1.0, 0.0, side=0.3, follow=-0.4)  # exactly 0.5 radii


def test_events_round_trip_through_json():
    events: list[Event] = [
        StrikeEvent(0.0, BallId.W1, {BallId.W1: (0.1, 0.2)}),
        BallContactEvent(0.5, BallId.W1, BallId.K),
        RailEvent(0.7, BallId.K, RailId.LEFT_FOOT),
        JawEvent(0.9, BallId.K, PocketId.FL, RailId.FOOT),
        JawEvent(0.95, BallId.K, PocketId.FL, None),
        PocketEvent(1.0, BallId.K, PocketId.FL),
        OffTableEvent(1.2, BallId.W1),
    ]
    data = [event_to_json(e) for e in events]
    assert data[1] == {"t": 0.5, "type": "ball", "ball": "W1", "other": "K"}
    assert data[2] == {"t": 0.7, "type": "rail", "ball": "K", "rail": "left-foot"}
    assert data[5] == {"t": 1.0, "type": "pocket", "ball": "K", "pocket": "FL"}
    assert data[6] == {"t": 1.2, "type": "off", "ball": "W1"}
    assert events_from_json(data) == tuple(events)
    assert events_from_json({"events": data})[0].positions == {BallId.W1: (0.1, 0.2)}


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"t": 0.1, "type": "bounce", "ball": "W1"}, "type 'bounce'"),
        ({"type": "strike", "ball": "W1"}, "needs a time t"),
        ({"t": -1, "type": "strike", "ball": "W1"}, "needs a time t"),
        ({"t": 0.1, "type": "rail", "ball": "W1", "rail": "top"}, "malformed"),
        ({"t": 0.1, "type": "pocket", "ball": "W1", "pocket": "XX"}, "malformed"),
        ({"t": 0.1, "type": "ball", "ball": "W1"}, "malformed"),
        ("strike", "must be an object"),
    ],
)
def test_malformed_events_are_refused(event, message):
    with pytest.raises(FormatError, match=message):
        event_from_json(event)


def test_event_log_must_be_in_time_order():
    with pytest.raises(FormatError, match="time order"):
        events_from_json([{"t": 1.0, "type": "strike", "ball": "W1"}, {"t": 0.5, "type": "off", "ball": "W1"}])
