"""The browser table's aiming and call endpoints: the aim helper aims at a direction that pots (the physics'
window, not the ghost ball), the full aids' preview rules the stroke without recording it, the call checker
says from the referee why a call cannot score in the match's state (1.2, 2.1, 5), and a finished match
offers no undo. Real physics, a real SQLite file.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kaisa.game import MatchConfig, MatchState, Phase
from kaisa.model import BallId, Position
from kaisa.records.storage import PlayerInfo, Store, open_store
from kaisa.referee import GameState
from kaisa.table import OFFICIAL, PocketId
from kaisa.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient` is deprecated")

_FL = OFFICIAL.pockets[PocketId.FL]


def on_fl_axis(distance: float, aside: float = 0.0) -> list[float]:
    (cx, cy), (ax, ay) = _FL.mouth_centre, _FL.axis
    return [round(cx - ax * distance - ay * aside, 4), round(cy - ay * distance + ax * aside, 4)]


# K 50 cm from the foot-left pocket on its axis; W1 60 cm behind it and 15 cm aside: a cut of about 14 degrees
CUT = {"W1": on_fl_axis(1.1, 0.15), "K": on_fl_axis(0.5), "R1": [0.71, 0.71], "R2": [1.2, 0.4], "W2": [1.2, 2.5]}


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'table.sqlite3'}") as opened:
        yield opened


@pytest.fixture
def client(store: Store) -> TestClient:
    return TestClient(create_app(store))


def stored_match(store: Store, balls: dict[str, list[float]], **game: Any) -> int:
    state = MatchState(
        phase=Phase.PLAY,
        position=Position.from_json({"balls": balls}),
        game=GameState(**game),
        owners=(BallId.W1, BallId.W2),
        lag_winner=0,
        innings={BallId.W1: 3, BallId.W2: 2},
        strokes=8,
        actions=10,
    )
    config = MatchConfig(players=("Aino", "Eero"))
    return store.create_match(config, [PlayerInfo("Aino", "human"), PlayerInfo("Eero", "human")], 3, state=state)


def post(client: TestClient, path: str, body: Any, status: int = 200) -> Any:
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def ghost_direction(cue: list[float], ball: list[float]) -> float:
    (cx, cy), r = _FL.mouth_centre, OFFICIAL.ball_radius
    u = (cx - ball[0], cy - ball[1])
    n = math.hypot(*u)
    ghost = (ball[0] - 2 * r * u[0] / n, ball[1] - 2 * r * u[1] / n)
    return math.degrees(math.atan2(ghost[1] - cue[1], ghost[0] - cue[0]))


def test_aim_helper_aims_at_the_centre_of_the_potting_window(store: Store, client: TestClient) -> None:
    match_id = stored_match(store, CUT)
    stroke = {"ball": "W1", "speed": 2.0, "direction": ghost_direction(CUT["W1"], CUT["K"])}
    aim = post(client, f"/api/matches/{match_id}/aim", {"call": "K FL", "stroke": stroke})
    assert 0 < aim["width"] < 2
    assert abs(aim["direction"] - stroke["direction"]) < 3
    aimed = {**stroke, "direction": aim["direction"], "speed": aim["speed"]}
    # the preview rules it as the stroke will be played, and records nothing
    preview = post(client, f"/api/matches/{match_id}/preview", {"call": "K FL", "stroke": aimed})
    assert preview["ruling"]["legal_pot"]
    assert client.get(f"/api/matches/{match_id}").json()["actions"] == 0
    # half a window off still pots; the played stroke scores the kaisa
    played = post(client, f"/api/matches/{match_id}/shot", {"call": "K FL", "stroke": aimed})
    assert played["outcome"]["ruling"]["legal_pot"]
    assert played["outcome"]["ruling"]["points"] > 0


def test_aim_helper_takes_a_speed_that_pots_when_the_persons_does_not(store: Store, client: TestClient) -> None:
    match_id = stored_match(store, CUT)
    stroke = {"ball": "W1", "speed": 0.3, "direction": ghost_direction(CUT["W1"], CUT["K"])}
    aim = post(client, f"/api/matches/{match_id}/aim", {"call": "K FL", "stroke": stroke})
    assert aim["speed"] > 0.3  # 0.3 m/s does not reach the pocket: the geometric route's speed is taken


def test_aim_helper_without_a_window_says_what_to_change(store: Store, client: TestClient) -> None:
    blocked = {**CUT, "R2": on_fl_axis(0.2)}  # R2 stands between K and the pocket
    match_id = stored_match(store, blocked)
    stroke = {"ball": "W1", "speed": 2.0, "direction": ghost_direction(CUT["W1"], CUT["K"])}
    response = client.post(f"/api/matches/{match_id}/aim", json={"call": "K FL", "stroke": stroke})
    assert response.status_code == 422, response.text
    assert "no direction" in response.json()["detail"]
    assert "speed, spin or call" in response.json()["detail"]


def test_study_aim_in_any_position(client: TestClient) -> None:
    stroke = {"ball": "W1", "speed": 2.0, "direction": ghost_direction(CUT["W1"], CUT["K"])}
    body = {"position": {"balls": CUT}, "state": {"shooter": "W1"}, "call": "K FL", "stroke": stroke}
    aim = post(client, "/api/study/aim", body)
    shot = {"position": {"balls": CUT}, "state": {"shooter": "W1"}, "call": "K FL"}
    played = post(client, "/api/study/shot", {**shot, "stroke": {**stroke, "direction": aim["direction"]}})
    assert played["ruling"]["legal_pot"]


def prospects(client: TestClient, call: str, **where: Any) -> list[str]:
    answer = post(client, "/api/calls/check", {"call": call, "shooter": "W1", **where})
    return [p["clause"] for p in answer["prospects"]]


def test_1_2_call_checker_knows_the_break(store: Store, client: TestClient) -> None:
    match_id = stored_match(store, {k: v for k, v in CUT.items() if k != "W1"}, opening=True)
    assert prospects(client, "K ML", match=match_id) == ["1.2", "5"]
    assert prospects(client, "K h ML", match=match_id) == []
    assert prospects(client, "K FL", match=match_id) == []
    answer = post(client, "/api/calls/check", {"call": "K ML", "shooter": "W1", "match": match_id})
    assert all(p["fi"] and p["en"] for p in answer["prospects"])


def test_2_1_call_checker_knows_a_direct_middle_kaisa_before(store: Store, client: TestClient) -> None:
    match_id = stored_match(store, CUT, last_pot_direct_middle_kaisa=True)
    assert prospects(client, "K ML", match=match_id) == ["2.1"]
    assert prospects(client, "K FL", match=match_id) == []


def test_5_call_checker_knows_the_ball_in_hand(client: TestClient) -> None:
    balls = {k: v for k, v in CUT.items() if k != "W1"}
    state = {"shooter": "W1", "in_hand": ["W1"]}
    # R1 on the head string: from hand only via a cushion; a middle pocket only via a cushion
    assert prospects(client, "R1 MR", position={"balls": balls}, state=state) == ["5", "5"]
    assert prospects(client, "lf R1 FL", position={"balls": balls}, state=state) == []
    assert prospects(client, "K FL", position={"balls": balls}, state=state) == []
    # without a state the call is only parsed
    assert prospects(client, "K ML") == []


def test_a_finished_match_offers_no_undo(store: Store, client: TestClient) -> None:
    balls = {"W1": on_fl_axis(0.8), "R1": on_fl_axis(0.4), "W2": [1.1, 0.4], "R2": [0.71, 0.71], "K": [0.71, 1.42]}
    match_id = stored_match(store, balls, scores={BallId.W1: 58, BallId.W2: 31})
    axis = math.degrees(math.atan2(_FL.axis[1], _FL.axis[0]))
    stroke = {"ball": "W1", "speed": 1.5, "direction": axis, "follow": -0.3}
    played = post(client, f"/api/matches/{match_id}/shot", {"call": "R1 FL", "stroke": stroke})
    view = played["match"]
    assert view["phase"] == "over"
    assert played["outcome"]["ruling"]["game_over"]
    assert not view["can_undo"]
    response = client.post(f"/api/matches/{match_id}/undo")
    assert response.status_code == 409, response.text
    assert "over" in response.json()["detail"]
