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
from kaisa.table import OFFICIAL, PocketId, SpotId
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


def test_aim_helper_without_a_window_says_so_and_what_to_try(store: Store, client: TestClient) -> None:
    blocked = {**CUT, "R2": on_fl_axis(0.2)}  # R2 stands between K and the pocket
    match_id = stored_match(store, blocked)
    stroke = {"ball": "W1", "speed": 2.0, "direction": ghost_direction(CUT["W1"], CUT["K"])}
    aim = post(client, f"/api/matches/{match_id}/aim", {"call": "K FL", "stroke": stroke})  # 200: no error
    assert aim["found"] is False
    assert aim["width"] == 0
    assert aim["speed"] == 2.0  # the person's stroke is left as it was
    assert "Try another call" in aim["said"]["en"]
    assert "Kokeile toista maalausta" in aim["said"]["fi"]
    assert "1,00–6,00 m/s" in aim["said"]["fi"]


def test_aim_helper_searches_other_speeds_before_giving_up(store: Store, client: TestClient) -> None:
    """A speed at which the call pots in no direction near the aim: the helper finds one that does, says so in
    both languages, and the preview of its stroke pots."""
    match_id = stored_match(store, CUT)
    stroke = {"ball": "W1", "speed": 0.3, "direction": ghost_direction(CUT["W1"], CUT["K"]), "follow": -0.4}
    aim = post(client, f"/api/matches/{match_id}/aim", {"call": "K FL", "stroke": stroke})
    assert aim["found"]
    assert aim["speed"] > 0.3
    assert "m/s" in aim["said"]["en"]
    assert "m/s" in aim["said"]["fi"]
    aimed = {
        **stroke,
        "direction": aim["direction"],
        "speed": aim["speed"],
        "side": aim["side"],
        "follow": aim["follow"],
    }
    preview = post(client, f"/api/matches/{match_id}/preview", {"call": "K FL", "stroke": aimed})
    assert preview["ruling"]["legal_pot"]


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


# --- the hint: the advisor during a match ---------------------------------------------------------------------


def test_a_hint_advises_the_person_to_move_and_changes_nothing(store: Store, client: TestClient) -> None:
    match_id = stored_match(store, CUT)
    before = client.get(f"/api/matches/{match_id}").json(), client.get(f"/api/matches/{match_id}/actions").json()
    hints = post(client, f"/api/matches/{match_id}/hint", {"level": "beginner", "limit": 3})
    assert 1 <= len(hints) <= 3
    best = hints[0]
    assert best["call"] == "K FL"
    assert best["words"] == {
        "fi": "kaisa alapään vasempaan kulmapussiin suoraan",
        "en": "the kaisa into the left foot corner directly",
    }
    assert best["stroke"]["ball"] == "W1"
    assert 0.0 < best["p_pot"] <= 1.0
    assert best["stroke"]["direction"] == pytest.approx(ghost_direction(CUT["W1"], CUT["K"]), abs=2)
    # a read: the match, its history and its last change stand as they were, and asking again gives the same
    after = client.get(f"/api/matches/{match_id}").json(), client.get(f"/api/matches/{match_id}/actions").json()
    assert after == before
    assert post(client, f"/api/matches/{match_id}/hint", {"level": "beginner", "limit": 3}) == hints


def test_a_hint_from_hand_places_the_cue_ball_behind_the_head_string(store: Store, client: TestClient) -> None:
    balls = {k: v for k, v in CUT.items() if k != "W1"}
    match_id = stored_match(store, balls, in_hand=frozenset({BallId.W1}))
    hints = post(client, f"/api/matches/{match_id}/hint", {"level": "beginner", "limit": 2})
    assert hints
    place = hints[0]["stroke"]["place"]
    assert place is not None
    assert place[1] < OFFICIAL.head_string


def test_a_hint_is_refused_when_no_persons_stroke_is_due(store: Store, client: TestClient) -> None:
    lag = post(client, "/api/matches", {"players": [{"name": "A"}, {"name": "B"}]}, 201)["id"]
    answer = client.post(f"/api/matches/{lag}/hint", json={})
    assert answer.status_code == 409, answer.text
    assert all(answer.json()[k] for k in ("code", "fi", "en"))
    state = MatchState(
        phase=Phase.PLAY,
        position=Position.from_json({"balls": CUT}),
        game=GameState(shooter=BallId.W2),
        owners=(BallId.W1, BallId.W2),
        innings={BallId.W1: 1, BallId.W2: 1},
    )
    config = MatchConfig(players=("Aino", "Botti"))
    computer = store.create_match(
        config, [PlayerInfo("Aino", "human"), PlayerInfo("Botti", "baseline")], 3, state=state
    )
    assert client.post(f"/api/matches/{computer}/hint", json={}).status_code == 409
    assert client.post("/api/matches/999/hint", json={}).status_code == 404
    refused = client.post(f"/api/matches/{computer}/hint", json={"level": "grandmaster"})
    assert refused.status_code == 422
    assert "level" in refused.json()["detail"]


# --- study: the game state set by hand --------------------------------------------------------------------------

# K on the centre spot, W1 straight across from it: K goes directly into the left middle pocket (ML)
MIDDLE = {"W1": [1.15, 1.42], "K": [0.71, 1.42], "R1": [0.71, 0.71], "R2": [0.4, 2.2], "W2": [1.2, 2.5]}
MIDDLE_POT = {"ball": "W1", "speed": 1.6, "direction": 180.0, "follow": -0.2}


def study(client: TestClient, balls: dict[str, Any], stroke: dict[str, Any], call: str | None, **state: Any) -> Any:
    body = {"position": {"balls": balls}, "stroke": stroke, "call": call, "state": state}
    return post(client, "/api/study/shot", body)["ruling"]


def test_study_plays_a_direct_middle_kaisa_with_the_2_1_flag_as_a_match_would(client: TestClient) -> None:
    scored = study(client, MIDDLE, MIDDLE_POT, "K ML", scores={"W1": 20, "W2": 31})
    assert scored["legal_pot"], scored
    assert scored["state"]["scores"]["W1"] > 20
    assert scored["state"]["last_pot_direct_middle_kaisa"]
    again = study(client, MIDDLE, MIDDLE_POT, "K ML", scores={"W1": 20, "W2": 31}, last_pot_direct_middle_kaisa=True)
    assert not again["legal_pot"]
    assert "2.1" in [n["clause"] for n in again["notes"]]
    assert again["state"]["scores"] == {"W1": 20, "W2": 31}
    assert again["state"]["shooter"] == "W2"


def test_study_plays_the_other_players_ball_in_hand_from_where_it_is_set(client: TestClient) -> None:
    balls = {**MIDDLE, "W2": [0.9, 0.4]}
    stroke = {"ball": "W2", "speed": 2.0, "direction": 100.0}
    ruling = study(client, balls, stroke, None, shooter="W2", in_hand=["W2"], scores={"W1": 12, "W2": 30})
    assert ruling["shooter"] == "W2"
    assert ruling["state"]["shooter"] == "W1"
    assert ruling["state"]["scores"]["W1"] == 12
    # from hand it must stand behind the head string: the section 5 placement error, in both languages
    body = {
        "position": {"balls": {**MIDDLE, "W2": [0.9, 1.0]}},
        "stroke": stroke,
        "state": {"shooter": "W2", "in_hand": ["W2"]},
    }
    answer = client.post("/api/study/shot", json=body)
    assert answer.status_code == 422, answer.text
    assert "(5)" in answer.json()["fi"]
    assert "head string" in answer.json()["en"]


def test_study_plays_the_break_from_hand(client: TestClient) -> None:
    balls = {"W1": [0.4, 0.4], "W2": [0.71, 2.6], "R1": OFFICIAL.spots[SpotId.HEAD_STRING], "K": [0.71, 1.42]}
    balls |= {"R2": OFFICIAL.spots[SpotId.FOOT_STRING]}
    middle = {"ball": "W1", "speed": 2.0, "direction": 80.0}
    ruling = study(client, balls, middle, "K ML", opening=True)
    assert ruling["state"]["opening"] is False
    answer = client.post(
        "/api/calls/check", json={"call": "K ML", "position": {"balls": balls}, "state": {"opening": True}}
    )
    assert [p["clause"] for p in answer.json()["prospects"]] == ["1.2", "5"]


@pytest.mark.parametrize(
    ("state", "words"),
    [
        ({"scores": {"W1": 60, "W2": 0}}, ("60", "3")),
        ({"opening": True, "shooter": "W2"}, ("W1", "1.2")),
        ({"opening": True, "scores": {"W1": 4, "W2": 0}}, ("0–0", "1.2")),
        ({"in_hand": ["W1"], "last_pot_direct_middle_kaisa": True}, ("2.1",)),
        ({"in_hand": ["W2"]}, ("W2",)),
    ],
)
def test_study_refuses_a_game_state_no_match_can_be_in(
    client: TestClient, state: dict[str, Any], words: tuple[str, ...]
):
    for path, body in (
        ("/api/study/shot", {"position": {"balls": MIDDLE}, "stroke": MIDDLE_POT, "state": state}),
        ("/api/study/advise", {"position": {"balls": MIDDLE}, "level": "beginner", "state": state}),
        ("/api/study/aim", {"position": {"balls": MIDDLE}, "call": "K ML", "stroke": MIDDLE_POT, "state": state}),
    ):
        answer = client.post(path, json=body)
        assert answer.status_code == 422, (path, answer.text)
        error = answer.json()
        assert error["code"] == "invalid-study-state"
        assert error["fi"] != error["en"]
        for word in words:
            assert word in error["fi"], error
            assert word in error["en"], error


def test_aim_helper_not_deep_tries_only_the_stroke_as_set(store: Store, client: TestClient) -> None:
    """The page's window drawn on the aim asks with ``deep`` false: the person's own power only, so a power that
    pots in no direction gets no window (and says so), where the deep helper finds another power."""
    match_id = stored_match(store, CUT)
    stroke = {"ball": "W1", "speed": 0.3, "direction": ghost_direction(CUT["W1"], CUT["K"])}
    quick = post(client, f"/api/matches/{match_id}/aim", {"call": "K FL", "stroke": stroke, "deep": False})
    assert not quick["found"]
    assert "0,30 m/s" in quick["said"]["fi"]
    assert post(client, f"/api/matches/{match_id}/aim", {"call": "K FL", "stroke": stroke})["found"]
