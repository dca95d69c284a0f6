"""The browser table's HTTP API (``kaisa.web``): every endpoint's happy path; bad input refused with a clear
4xx whose ``detail`` names the problem and that leaves the match exactly as it was; two tabs racing on one
match; and a restarted server continuing a match from the database.

Everything runs on the real physics and a real SQLite file.
"""

from __future__ import annotations

import itertools
import json
import math
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from kaisa.game import MatchConfig, MatchState, Phase, replay
from kaisa.model import BallId, Position
from kaisa.players.baseline import lag_speed
from kaisa.records.storage import PlayerInfo, Store, open_store
from kaisa.referee import GameState
from kaisa.table import OFFICIAL, PocketId
from kaisa.web import create_app

if TYPE_CHECKING:
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient` is deprecated")

W, L = OFFICIAL.width, OFFICIAL.length
UNKNOWN = 999

# A straight pot: R1 40 cm from the foot-left pocket on its axis, W1 40 cm behind it on the same line.
_FL = OFFICIAL.pockets[PocketId.FL]


def _on_fl_axis(distance: float) -> list[float]:
    (cx, cy), (ax, ay) = _FL.mouth_centre, _FL.axis
    return [round(cx - ax * distance, 4), round(cy - ay * distance, 4)]


STRAIGHT = {"W1": _on_fl_axis(0.8), "R1": _on_fl_axis(0.4), "W2": [1.1, 0.4], "R2": [0.71, 0.71], "K": [0.71, 1.42]}
POT = {"ball": "W1", "speed": 1.5, "direction": math.degrees(math.atan2(_FL.axis[1], _FL.axis[0])), "follow": -0.3}

# W1's break from hand in the starting position with W2 on the long axis near the foot (the baseline
# player's own aim at K into FR, rounded), and a safe break that calls nothing.
BREAK = {"ball": "W1", "speed": 3.13, "direction": 70.93, "follow": -0.1, "place": [0.426, 0.625]}
SOFT_BREAK = {"ball": "W1", "speed": 2.0, "direction": 80.0, "place": [0.4, 0.4]}
W2_SPOT = [0.71, 2.6]
LAG1 = {"ball": "W1", "speed": 1.4, "direction": 90.0, "place": [W / 4, L / 8]}  # for refusals: never played


# --- helpers --------------------------------------------------------------------------------------------


def lag_json(player: int, speed_offset: float = 0.0) -> dict[str, Any]:
    """A lag stroke that reaches the foot cushion and comes back near the head cushion: player 1 with W1 in
    the left half, player 2 with W2 in the right, both from behind the head string."""
    ball, x = (("W1", W / 4), ("W2", 3 * W / 4))[player]
    return {"ball": ball, "speed": lag_speed() + speed_offset, "direction": 90.0, "place": [x, L / 8]}


def detail(response: Any) -> str:
    """The error's ``detail`` as one string (a domain error's sentence, or pydantic's located messages)."""
    found = response.json()["detail"]
    if isinstance(found, str):
        return found
    return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in found)


def snapshot(client: TestClient, match_id: int) -> tuple[Any, Any]:
    """The match as the page sees it and its whole history."""
    view = client.get(f"/api/matches/{match_id}")
    actions = client.get(f"/api/matches/{match_id}/actions")
    assert view.status_code == 200, view.text
    assert actions.status_code == 200, actions.text
    return view.json(), actions.json()


def unstamped(view: dict[str, Any]) -> dict[str, Any]:
    """The view without its last-change time (an undo restores the match, and is itself a change)."""
    return {k: v for k, v in view.items() if k != "updated_at"}


def refused(
    client: TestClient, match_id: int, method: str, path: str, body: Any, status: int, words: tuple[str, ...]
) -> None:
    """The request is refused with ``status`` and a detail naming ``words``, and the match is unchanged.
    ``body`` may be a function making it (so that collecting the tests simulates nothing)."""
    if callable(body):
        body = body()
    before = snapshot(client, match_id)
    if isinstance(body, str):  # raw JSON text (NaN is not JSON, but Python's parser reads it)
        response = client.request(method, path, content=body, headers={"content-type": "application/json"})
    else:
        response = client.request(method, path, json=body)
    assert response.status_code == status, response.text
    text = detail(response)
    for word in words:
        assert word.lower() in text.lower(), f"{word!r} not in {text!r}"
    assert snapshot(client, match_id) == before


def post(client: TestClient, path: str, body: Any = None, status: int = 200) -> Any:
    """The JSON answer of a request that must succeed with ``status``."""
    response = client.post(path, json=body)
    assert response.status_code == status, response.text
    return response.json()


def new_match(
    client: TestClient, kinds: tuple[str, str] = ("human", "baseline"), clock: str = "off", seed: int = 7
) -> int:
    names = ("Aino", "Eero")
    body = {
        "players": [{"name": n, "kind": k} for n, k in zip(names, kinds, strict=True)],
        "clock": clock,
        "seed": seed,
    }
    view = post(client, "/api/matches", body, 201)
    assert view["phase"] == "lag"
    match_id: int = view["id"]
    return match_id


def to_break_vs_computer(client: TestClient) -> int:
    """A person (W1) against the baseline player, after the lag, the choice and W2's placement: the person
    breaks from hand."""
    match_id = new_match(client)
    played = post(client, f"/api/matches/{match_id}/lag", {"strokes": [lag_json(0), None]})
    assert played["match"]["lag_winner"] == 0, played["outcome"]["lag"]
    post(client, f"/api/matches/{match_id}/choose", {"cue_ball": "W1"})
    played = post(client, f"/api/matches/{match_id}/computer")
    assert played["action"]["kind"] == "place-w2"
    assert played["match"]["from_hand"]
    assert played["match"]["to_move"] == 0
    return match_id


def to_place_w2_two_people(client: TestClient, clock: str = "off") -> int:
    """Two people: player 2 wins the lag (player 1's lag is a little short) and takes W2, which they place."""
    match_id = new_match(client, ("human", "human"), clock)
    played = post(client, f"/api/matches/{match_id}/lag", {"strokes": [lag_json(0, -0.1), lag_json(1)]})
    assert played["match"]["lag_winner"] == 1, played["outcome"]["lag"]
    played = post(client, f"/api/matches/{match_id}/choose", {"cue_ball": "W2"})
    assert played["match"]["phase"] == "place-w2"
    assert played["match"]["to_move"] == 1
    return match_id


def to_break_two_people(client: TestClient, clock: str = "off") -> int:
    match_id = to_place_w2_two_people(client, clock)
    played = post(client, f"/api/matches/{match_id}/place-w2", {"point": W2_SPOT})
    assert played["match"]["phase"] == "play"
    assert played["match"]["to_move"] == 0
    return match_id


def stored_match(store: Store, state: MatchState, kinds: tuple[str, str] = ("human", "human")) -> int:
    config = MatchConfig(players=("Aino", "Eero"))
    return store.create_match(config, [PlayerInfo("Aino", kinds[0]), PlayerInfo("Eero", kinds[1])], 3, state=state)


def play_state(balls: dict[str, list[float]], **game: Any) -> MatchState:
    """A match in play (player 1 owns W1) at ``balls``, with ``game`` for the referee's state."""
    return MatchState(
        phase=Phase.PLAY,
        position=Position.from_json({"balls": balls}),
        game=GameState(**game),
        owners=(BallId.W1, BallId.W2),
        lag_winner=0,
        innings={BallId.W1: 9, BallId.W2: 8},
        strokes=30,
        actions=33,
    )


def distance_to_segment(p: list[float], a: list[float], b: list[float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


# --- fixtures -------------------------------------------------------------------------------------------


def _client(app: FastAPI) -> TestClient:
    from fastapi.testclient import TestClient  # here, under this module's warning filter

    # a server bug answers 500 (as a browser would see it) instead of raising into the test
    return TestClient(app, raise_server_exceptions=False)


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite3'}"


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with open_store(db_url) as opened:
        yield opened


@pytest.fixture
def app(store: Store) -> FastAPI:
    return create_app(store)


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return _client(app)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, TestClient]]:
    """One store for the refusal tests: a refused request changes nothing, so they may share matches (and
    each one checks that it changed nothing)."""
    path = tmp_path_factory.mktemp("web-refusals") / "web.sqlite3"
    with open_store(f"sqlite:///{path}") as opened:
        yield opened, _client(create_app(opened))


@pytest.fixture(scope="module")
def lag_match(shared: tuple[Store, TestClient]) -> int:
    return new_match(shared[1])


@pytest.fixture(scope="module")
def break_match(shared: tuple[Store, TestClient]) -> int:
    return to_break_vs_computer(shared[1])


@pytest.fixture(scope="module")
def w2_match(shared: tuple[Store, TestClient]) -> int:
    return to_place_w2_two_people(shared[1])


@pytest.fixture(scope="module")
def over_match(shared: tuple[Store, TestClient]) -> int:
    """Two people's match that W1 has just won with a red at 58 points (played through the API)."""
    store, client = shared
    match_id = stored_match(store, play_state(STRAIGHT, scores={BallId.W1: 58, BallId.W2: 31}))
    played = post(client, f"/api/matches/{match_id}/shot", {"call": "R1 FL", "stroke": POT})
    assert played["match"]["phase"] == "over", played["outcome"]["ruling"]
    return match_id


# --- reference data -------------------------------------------------------------------------------------


def test_table_is_the_official_table(client: TestClient):
    table = client.get("/api/table").json()
    assert (table["width"], table["length"], table["ball_radius"]) == (W, L, OFFICIAL.ball_radius)
    assert set(table["pockets"]) == {"HL", "HR", "ML", "MR", "FL", "FR"}
    assert set(table["rails"]) == {"head", "foot", "left-head", "left-foot", "right-head", "right-foot"}
    assert table["lines"] == {"head_string": L / 4, "centre_line": L / 2, "foot_string": 3 * L / 4}
    assert table["spots"]["centre"] == [W / 2, L / 2]


def test_players_lists_every_kind_with_a_description(client: TestClient):
    kinds = client.get("/api/players").json()
    assert set(kinds) == {"human", "baseline", "beginner", "club", "master"}
    for kind in kinds.values():
        for text in (kind["name"], kind["description"]):
            assert set(text) == {"fi", "en"}
            assert all(isinstance(t, str) and t for t in text.values())
    assert [k for k, v in kinds.items() if v["computer"]] == ["baseline", "beginner", "club", "master"]
    assert kinds["human"]["noise"] == 0


def test_calls_check_writes_the_canonical_form(client: TestClient):
    assert post(client, "/api/calls/check", {"call": "kyyti r1 k fl"}) == {
        "valid": True,
        "call": "kyyti R1 K FL",
        "ball": "K",
        "pocket": "FL",
        "prospects": [],  # without a match or a position nothing in the state stops it scoring
        "code": None,  # the refusal's code and words, with a verdict asked for
        "fi": None,
        "en": None,
    }
    assert post(client, "/api/calls/check", {"call": "w1 rf fr", "shooter": "W2"})["call"] == "W1 rf FR"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"call": "K FZ"}, ("FZ", "pockets are")),  # syntax: no such pocket
        ({"call": "K"}, ("ends with the pocket",)),  # syntax: no pocket
        ({"call": "kyyti FL"}, ("kyyti", "followed by a ball")),  # syntax: a konsti without its ball
        ({"call": "   "}, ("empty call",)),
        ({"call": "W1 FL"}, ("W1", "own cue ball")),  # illegal: the shooter's own cue ball
        ({"call": "W2 FL", "shooter": "W2"}, ("W2", "own cue ball")),
        ({"call": "kara W1 K FL"}, ("own cue ball", "kara")),
        ({"call": ""}, ("call",)),
        ({"call": "K FL", "shooter": "K"}, ("shooter",)),
        ({"call": "K FL", "extra": 1}, ("extra",)),
    ],
)
def test_calls_check_refuses_bad_calls_with_422(client: TestClient, body: dict[str, Any], words: tuple[str, ...]):
    response = client.post("/api/calls/check", json=body)
    assert response.status_code == 422, response.text
    for word in words:
        assert word.lower() in detail(response).lower()


# --- a match against the computer -----------------------------------------------------------------------


def test_match_against_the_computer_from_the_lag_to_its_turn(client: TestClient):
    view = post(
        client,
        "/api/matches",
        {"players": [{"name": "Aino", "kind": "human"}, {"name": "Kone", "kind": "baseline"}], "seed": 7},
        201,
    )
    match_id = view["id"]
    assert [(p["name"], p["kind"], p["cue_ball"]) for p in view["players"]] == [
        ("Aino", "human", None),
        ("Kone", "baseline", None),
    ]
    assert (view["phase"], view["to_move"], view["computer_to_move"], view["actions"]) == ("lag", None, False, 0)
    assert not view["can_undo"]
    assert view["last"] is None
    assert view["result"] is None
    assert client.get(f"/api/matches/{match_id}").json() == view

    # the lag: the person's stroke, null for the computer's (it plays its own)
    played = post(client, f"/api/matches/{match_id}/lag", {"strokes": [lag_json(0), None]})
    assert played["action"]["kind"] == "lag"
    assert played["outcome"]["lag"] == {"winner": 0, "reasons": [[], []]}
    assert [r["stroke"]["ball"] for r in played["outcome"]["records"]] == ["W1", "W2"]
    assert (
        played["outcome"]["records"][0]["stroke"]
        == played["action"]["strokes"][0]
        == lag_json(0)
        | {
            "elevation": 0.0,
            "side": 0.0,
            "follow": 0.0,
        }
    )
    match = played["match"]
    assert (match["phase"], match["lag_winner"], match["to_move"], match["computer_to_move"]) == ("choose", 0, 0, False)
    assert not match["can_undo"]  # the lag stands: played again it could give another result
    assert match["actions"] == 1

    # the lag winner takes W1: the computer owns W2 and places it first
    played = post(client, f"/api/matches/{match_id}/choose", {"cue_ball": "W1"})
    match = played["match"]
    assert [p["cue_ball"] for p in match["players"]] == ["W1", "W2"]
    assert (match["phase"], match["to_move"], match["computer_to_move"]) == ("place-w2", 1, True)
    assert {c["pocket"] for c in match["w2_corridors"]} == {"FL", "FR"}

    played = post(client, f"/api/matches/{match_id}/computer")
    assert played["action"]["kind"] == "place-w2"
    match = played["match"]
    point = played["action"]["point"]
    assert match["position"]["balls"]["W2"] == point
    assert point[1] > L / 2
    assert (match["phase"], match["to_move"], match["from_hand"], match["opening"]) == ("play", 0, True, True)
    assert match["w2_corridors"] == []

    # the person breaks from hand with a call
    played = post(client, f"/api/matches/{match_id}/shot", {"call": "k fr", "stroke": BREAK})
    assert played["action"]["call"] == "K FR"
    assert played["action"]["stroke"]["place"] == BREAK["place"]
    ruling = played["outcome"]["ruling"]
    assert ruling["shooter"] == "W1"
    assert ruling["clauses"]
    assert ruling["notes"]
    (record,) = played["outcome"]["records"]
    assert record["start"]["balls"]["W1"] == BREAK["place"]
    assert record["trajectories"]["rate"] == 60.0
    match = played["match"]
    assert match["strokes"] == 1
    assert match["actions"] == 4
    assert match["last"] == {k: v for k, v in played["outcome"].items() if k != "records"}
    assert match["position"] == ruling["position"]
    assert match["scores"] == ruling["state"]["scores"]

    # whoever is at the table next: the computer plays its turns, then it is the person's again
    for _ in range(30):
        if not match["computer_to_move"]:
            break
        played = post(client, f"/api/matches/{match_id}/computer")
        assert played["action"]["kind"] == "shot"
        assert played["action"]["stroke"]["ball"] == "W2"
        assert played["outcome"]["ruling"]["shooter"] == "W2"
        match = played["match"]
    assert match["to_move"] == 0
    assert match["shooter"] == "W1"
    assert client.get(f"/api/matches/{match_id}").json() == match


def test_two_people_lag_choose_place_w2_and_a_shot_without_a_call(client: TestClient):
    match_id = new_match(client, ("human", "human"))

    # two equal lags: lag again (the action is recorded, the phase stays)
    played = post(client, f"/api/matches/{match_id}/lag", {"strokes": [lag_json(0), lag_json(1)]})
    assert played["outcome"]["lag"]["winner"] is None
    assert played["match"]["phase"] == "lag"
    assert played["match"]["actions"] == 1

    played = post(client, f"/api/matches/{match_id}/lag", {"strokes": [lag_json(0, -0.1), lag_json(1)]})
    assert played["match"]["lag_winner"] == 1
    assert played["match"]["to_move"] == 1

    played = post(client, f"/api/matches/{match_id}/choose", {"cue_ball": "W2"})
    match = played["match"]
    assert [p["cue_ball"] for p in match["players"]] == ["W1", "W2"]
    assert match["phase"] == "place-w2"
    assert match["to_move"] == 1
    assert not match["computer_to_move"]
    for corridor in match["w2_corridors"]:  # the point used is legal: clear of both corridors
        assert corridor["from"] == match["position"]["balls"]["K"]
        assert distance_to_segment(W2_SPOT, corridor["from"], corridor["to"]) > corridor["clearance"]

    played = post(client, f"/api/matches/{match_id}/place-w2", {"point": W2_SPOT})
    match = played["match"]
    assert match["position"]["balls"]["W2"] == W2_SPOT
    assert (match["phase"], match["shooter"], match["to_move"], match["from_hand"]) == ("play", "W1", 0, True)

    played = post(client, f"/api/matches/{match_id}/shot", {"call": None, "stroke": SOFT_BREAK})
    assert played["action"]["call"] is None
    ruling = played["outcome"]["ruling"]
    assert not ruling["legal_pot"]
    assert ruling["points"] == 0
    assert ruling["turn_passes"]
    match = played["match"]
    assert (match["shooter"], match["to_move"], match["innings"]) == ("W2", 1, {"W1": 1, "W2": 1})

    # W2 on the table plays from where it lies; a blank call is no call
    stroke = {"ball": "W2", "speed": 1.0, "direction": 250.0}
    played = post(client, f"/api/matches/{match_id}/shot", {"call": "  ", "stroke": stroke})
    assert played["action"]["call"] is None
    assert played["outcome"]["ruling"]["shooter"] == "W2"
    assert played["match"]["strokes"] == 2
    assert played["match"]["actions"] == 6


def test_ball_in_hand_is_placed_behind_the_head_string(store: Store, client: TestClient):
    balls = {k: v for k, v in STRAIGHT.items() if k != "W1"}
    match_id = stored_match(store, play_state(balls, shooter=BallId.W1, in_hand=frozenset({BallId.W1})))
    view = client.get(f"/api/matches/{match_id}").json()
    assert view["from_hand"]
    assert "W1" not in view["position"]["balls"]

    stroke = {"ball": "W1", "speed": 1.5, "direction": 90.0, "place": [0.3, 0.3]}
    played = post(client, f"/api/matches/{match_id}/shot", {"call": None, "stroke": stroke})
    assert played["outcome"]["records"][0]["start"]["balls"]["W1"] == [0.3, 0.3]
    assert played["action"]["stroke"]["place"] == [0.3, 0.3]
    assert (played["match"]["shooter"], played["match"]["from_hand"]) == ("W2", False)  # no call: turn passes


def test_the_winning_pot_ends_the_match(store: Store, client: TestClient):
    match_id = stored_match(store, play_state(STRAIGHT, scores={BallId.W1: 58, BallId.W2: 31}))
    played = post(client, f"/api/matches/{match_id}/shot", {"call": "R1 FL", "stroke": POT})
    ruling = played["outcome"]["ruling"]
    assert ruling["legal_pot"]
    assert ruling["points"] == 3
    assert ruling["game_over"]
    assert ruling["winner"] == "W1"
    match = played["match"]
    assert match["phase"] == "over"
    assert not match["computer_to_move"]
    assert match["result"]["winner"] == "W1"
    assert match["result"]["scores"] == {"W1": 61, "W2": 31}
    assert match["result"]["recorded"] == {"W1": 60, "W2": 31}  # 3: the winner is written as 60
    (summary,) = client.get("/api/matches").json()
    assert summary["status"] == "over"
    assert summary["result"] == match["result"]


def test_undo_takes_back_the_persons_action_and_the_computers_after_it(client: TestClient):
    match_id = to_break_vs_computer(client)
    before = snapshot(client, match_id)

    # a break that calls nothing passes the turn, so the computer plays at least once
    match = post(client, f"/api/matches/{match_id}/shot", {"call": None, "stroke": SOFT_BREAK})["match"]
    assert match["computer_to_move"]
    computer_actions = 0
    while match["computer_to_move"] and computer_actions < 30:
        match = post(client, f"/api/matches/{match_id}/computer")["match"]
        computer_actions += 1
    assert match["to_move"] == 0
    assert match["actions"] == before[0]["actions"] + 1 + computer_actions

    view = post(client, f"/api/matches/{match_id}/undo")
    assert unstamped(view) == unstamped(before[0])
    after = snapshot(client, match_id)
    assert (unstamped(after[0]), after[1]) == (unstamped(before[0]), before[1])

    # undo again: the computer's placement of W2 goes back with the person's choice before it
    view = post(client, f"/api/matches/{match_id}/undo")
    assert (view["phase"], view["actions"], view["to_move"]) == ("choose", 1, 0)
    # the lag stands: right after it nothing is offered to undo, and an undo is refused
    assert not view["can_undo"]
    response = client.post(f"/api/matches/{match_id}/undo")
    assert response.status_code == 409, response.text
    assert client.get(f"/api/matches/{match_id}").json()["phase"] == "choose"


def test_undo_in_a_two_person_match_takes_back_one_action(client: TestClient):
    match_id = to_break_two_people(client)
    before = snapshot(client, match_id)
    post(client, f"/api/matches/{match_id}/shot", {"call": None, "stroke": SOFT_BREAK})
    assert unstamped(post(client, f"/api/matches/{match_id}/undo")) == unstamped(before[0])
    after = snapshot(client, match_id)
    assert (unstamped(after[0]), after[1]) == (unstamped(before[0]), before[1])


def test_competition_clock_break_once_per_player_and_no_undo(client: TestClient):
    match_id = to_break_two_people(client, clock="wall")
    view = client.get(f"/api/matches/{match_id}").json()
    assert view["clock"]["mode"] == "wall"
    assert not view["can_undo"]

    played = post(client, f"/api/matches/{match_id}/break", {"cue_ball": "W1", "seconds": 120})
    assert played["action"] == {"kind": "break", "cue_ball": "W1", "seconds": 120.0}
    clock = played["match"]["clock"]
    assert clock["breaks"] == {"W1": 120.0}
    assert clock["limit"] == 3600.0 + 120.0
    assert played["match"]["phase"] == "play"
    assert played["match"]["to_move"] == 0

    refused(
        client,
        match_id,
        "POST",
        f"/api/matches/{match_id}/break",
        {"cue_ball": "W1", "seconds": 60},
        409,
        ("one break",),
    )
    refused(client, match_id, "POST", f"/api/matches/{match_id}/undo", None, 409, ("competition clock",))
    refused(
        client,
        match_id,
        "POST",
        f"/api/matches/{match_id}/break",
        {"cue_ball": "W2", "seconds": 301},
        422,
        ("seconds",),
    )
    refused(
        client, match_id, "POST", f"/api/matches/{match_id}/break", {"cue_ball": "W2", "seconds": 0}, 422, ("seconds",)
    )

    played = post(client, f"/api/matches/{match_id}/shot", {"call": None, "stroke": SOFT_BREAK, "seconds": 42.5})
    assert played["match"]["clock"]["elapsed"] == 42.5


def test_history_and_the_animation_of_each_action(client: TestClient):
    match_id = to_break_vs_computer(client)
    post(client, f"/api/matches/{match_id}/shot", {"call": "K FR", "stroke": BREAK})
    view, history = snapshot(client, match_id)
    assert [a["index"] for a in history] == list(range(view["actions"])) == [0, 1, 2, 3]
    assert [a["action"]["kind"] for a in history] == ["lag", "choose", "place-w2", "shot"]
    assert [a["player"] for a in history] == [None, 0, 1, 0]
    last = history[-1]
    assert last["state_after"]["position"] == view["position"]
    assert last["state_after"]["phase"] == view["phase"]
    assert last["outcome"]["ruling"]["clauses"]
    assert "trajectories" not in last["outcome"]["records"][0]  # stored without paths: the animation replays

    animation = client.get(f"/api/matches/{match_id}/actions/3/animation")
    assert animation.status_code == 200, animation.text
    replayed = animation.json()
    assert replayed["action"] == last["action"]
    assert replayed["outcome"]["ruling"] == last["outcome"]["ruling"]
    assert replayed["match"]["position"] == view["position"]
    (record,) = replayed["outcome"]["records"]
    paths = record["trajectories"]
    assert paths["rate"] == 60.0
    times = paths["t"]
    steps = [b - a for a, b in itertools.pairwise(times)]
    assert times[0] == 0.0
    assert all(math.isclose(step, 1 / 60) for step in steps[:-1])
    assert 0 < steps[-1] <= 1 / 60 + 1e-9
    assert times[-1] == pytest.approx(record["duration"])
    assert set(paths["balls"]) == set(record["start"]["balls"])
    for ball, points in paths["balls"].items():
        assert len(points) == len(times)
        assert points[0] == pytest.approx(record["start"]["balls"][ball], abs=1e-6)
        if ball in record["final"]["balls"]:
            assert points[-1] == pytest.approx(record["final"]["balls"][ball], abs=1e-6)

    # an action without a stroke replays too; the lag's two balls come with their paths
    choice = client.get(f"/api/matches/{match_id}/actions/1/animation").json()
    assert choice["action"] == {"kind": "choose", "cue_ball": "W1"}
    assert "records" not in choice["outcome"]
    lag = client.get(f"/api/matches/{match_id}/actions/0/animation").json()
    assert [len(r["trajectories"]["t"]) > 10 for r in lag["outcome"]["records"]] == [True, True]
    assert snapshot(client, match_id) == (view, history)  # replaying changes nothing


def test_matches_are_listed_newest_first(client: TestClient):
    first = new_match(client, ("human", "human"))
    second = new_match(client, ("baseline", "human"), seed=11)
    third = to_break_vs_computer(client)
    listed = client.get("/api/matches").json()
    assert [m["id"] for m in listed] == [third, second, first]
    assert [m["actions"] for m in listed] == [3, 0, 0]
    assert [m["status"] for m in listed] == ["playing"] * 3
    assert [(p["name"], p["kind"]) for p in listed[1]["players"]] == [("Aino", "baseline"), ("Eero", "human")]
    assert listed[0]["created_at"] <= listed[0]["updated_at"]


def test_computer_only_match_plays_its_lag_by_computer(client: TestClient):
    match_id = new_match(client, ("baseline", "baseline"))
    assert client.get(f"/api/matches/{match_id}").json()["computer_to_move"]
    played = post(client, f"/api/matches/{match_id}/computer")
    assert played["action"]["kind"] == "lag"
    assert played["match"]["actions"] == 1


# --- study ----------------------------------------------------------------------------------------------


def test_study_shot_rules_a_stroke_from_any_position(client: TestClient):
    study = post(client, "/api/study/shot", {"position": {"balls": STRAIGHT}, "stroke": POT, "call": "R1 FL"})
    ruling = study["ruling"]
    assert ruling["legal_pot"]
    assert ruling["points"] == 3
    assert not ruling["turn_passes"]
    assert ruling["clauses"]
    assert all(isinstance(c, str) for c in ruling["clauses"])
    assert [i for i in ruling["items"] if i.get("clause")]  # the points itemised with their clauses
    assert "R1" in ruling["respots"]  # the potted red goes back to its spot
    record = study["record"]
    assert ("pocket", "R1", "FL") in [(e["type"], e.get("ball"), e.get("pocket")) for e in record["events"]]
    assert record["trajectories"]["rate"] == 60.0

    # a given state: W1 at 58 wins with it
    state = {"scores": {"W1": 58, "W2": 0}, "shooter": "W1"}
    body = {"position": {"balls": STRAIGHT}, "stroke": POT, "call": "R1 FL", "state": state}
    assert post(client, "/api/study/shot", body)["ruling"]["game_over"]

    # no call: no legal pot, the turn passes
    ruling = post(client, "/api/study/shot", {"position": {"balls": STRAIGHT}, "stroke": POT})["ruling"]
    assert not ruling["legal_pot"]
    assert ruling["turn_passes"]


def test_study_advise_finds_the_straight_pot(client: TestClient):
    advice = post(client, "/api/study/advise", {"position": {"balls": STRAIGHT}, "level": "beginner", "limit": 3})
    assert 1 <= len(advice) <= 3
    best = advice[0]
    assert (best["call"], best["kind"]) == ("R1 FL", "direct")
    assert best["stroke"]["ball"] == "W1"
    assert best["stroke"]["direction"] == pytest.approx(POT["direction"], abs=3)
    assert 0.0 < best["p_pot"] <= 1.0
    assert best["expected_points"] > 0
    assert 0.0 <= best["p_foul"] <= 1.0
    assert 0.0 <= best["p_win"] <= 1.0
    assert best["window"] >= 0
    assert best["score"] == max(a["score"] for a in advice)


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"balls": {"W1": [0.7, 0.3], "K": [0.7, 0.31]}}, 422, ("overlap",)),
        ({"balls": {"W1": [5.0, 0.3]}}, 422, ("outside the playing area",)),
        ({"balls": {"X1": [0.7, 0.3]}}, 422, ("balls",)),
        ({"balls": {"W1": [0.7]}}, 422, ("balls",)),
        ({"balls": {"K": [0.7, 1.0]}}, 422, ("W1", "not on the table")),
        ({"W1": [0.7, 0.3]}, 422, ("balls",)),
    ],
)
def test_study_shot_refuses_a_bad_position(client: TestClient, body: Any, status: int, words: tuple[str, ...]):
    response = client.post(
        "/api/study/shot", json={"position": body, "stroke": {"ball": "W1", "speed": 1, "direction": 90}}
    )
    assert response.status_code == status, response.text
    for word in words:
        assert word.lower() in detail(response).lower()


def test_study_shot_refuses_a_bad_state_and_call(client: TestClient):
    base: dict[str, Any] = {"position": {"balls": STRAIGHT}, "stroke": POT}
    cases: list[tuple[dict[str, Any], tuple[str, ...]]] = [
        ({"state": {"scores": {"W1": "a"}}}, ("scores",)),
        ({"state": {"shooter": "X"}}, ("X",)),
        ({"state": {"colour": 1}}, ("colour",)),
        ({"call": "W1 FL"}, ("own cue ball",)),
        ({"call": "R1 FZ"}, ("FZ",)),
    ]
    for extra, words in cases:
        response = client.post("/api/study/shot", json=base | extra)
        assert response.status_code == 422, (extra, response.text)
        for word in words:
            assert word.lower() in detail(response).lower(), (extra, detail(response))


# --- bad input: nothing changes -------------------------------------------------------------------------


ENDPOINTS = [
    ("GET", "", None),
    ("GET", "/actions", None),
    ("GET", "/actions/0/animation", None),
    ("POST", "/lag", {"strokes": [None, None]}),
    ("POST", "/choose", {"cue_ball": "W1"}),
    ("POST", "/place-w2", {"point": W2_SPOT}),
    ("POST", "/shot", {"call": None, "stroke": SOFT_BREAK}),
    ("POST", "/computer", None),
    ("POST", "/break", {"cue_ball": "W1", "seconds": 60}),
    ("POST", "/undo", None),
]


@pytest.mark.parametrize(("method", "tail", "body"), ENDPOINTS)
def test_unknown_match_is_404(client: TestClient, method: str, tail: str, body: Any):
    response = client.request(method, f"/api/matches/{UNKNOWN}{tail}", json=body)
    assert response.status_code == 404, response.text
    assert f"no match {UNKNOWN}" in detail(response)


@pytest.mark.parametrize("match_id", [2**63, 10**30])
def test_a_huge_match_id_is_404(shared: tuple[Store, TestClient], match_id: int):
    response = shared[1].get(f"/api/matches/{match_id}")
    assert response.status_code == 404, response.text
    assert str(match_id) in detail(response)


@pytest.mark.parametrize("path", ["/api/matches/-1", f"/api/matches/{-(2**63) - 1}", "/api/matches/1.0"])
def test_an_id_that_is_not_written_in_digits_is_422_with_its_code(shared: tuple[Store, TestClient], path: str):
    response = shared[1].get(path)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid-request"
    assert "digits" in detail(response)


def _bad_strokes() -> list[Any]:
    def shot(call: Any = "K FR", **stroke: Any) -> dict[str, Any]:
        return {"call": call, "stroke": {k: v for k, v in (BREAK | stroke).items() if v is not None}}

    return [
        pytest.param(
            shot(place=[0.426, 0.9]), 422, ("behind the head string", "0.900"), id="hand-in-front-of-the-line"
        ),
        pytest.param(shot(place=[0.426, L / 4]), 422, ("behind the head string",), id="hand-on-the-line"),
        pytest.param(shot(place=[0.71, 0.68]), 422, ("overlap", "R1"), id="hand-overlapping-R1"),
        pytest.param(shot(place=[0.01, 0.3]), 422, ("not on the bed",), id="hand-in-the-cushion"),
        pytest.param(shot(place=[-0.5, 0.3]), 422, ("not on the bed",), id="hand-off-the-table"),
        pytest.param(shot(place=[11.0, 0.3]), 422, ("place",), id="hand-far-away"),
        pytest.param(shot(place=[0.4]), 422, ("place",), id="hand-one-coordinate"),
        pytest.param(shot(place=None), 409, ("from hand", "place"), id="hand-without-place"),
        pytest.param(shot(call="K FZ"), 422, ("FZ",), id="call-no-such-pocket"),
        pytest.param(shot(call="K"), 422, ("pocket",), id="call-without-pocket"),
        pytest.param(shot(call="kyyti FL"), 422, ("kyyti",), id="call-konsti-without-ball"),
        pytest.param(shot(call="R1 2 lh FL"), 422, ("count",), id="call-count-among-rails"),
        pytest.param(shot(call="K FR " * 50), 422, ("call",), id="call-too-long"),
        pytest.param(shot(call=7), 422, ("call",), id="call-not-text"),
        pytest.param(shot(call="W1 FL"), 422, ("W1", "own cue ball"), id="call-own-cue-ball"),
        pytest.param(shot(call="kara W1 K FL"), 422, ("own cue ball",), id="call-own-cue-ball-as-kara"),
        pytest.param(shot(speed=0), 422, ("speed",), id="speed-0"),
        pytest.param(shot(speed=-1), 422, ("speed",), id="speed-negative"),
        pytest.param(shot(speed=9), 422, ("speed", "8"), id="speed-9"),
        pytest.param(shot(speed="fast"), 422, ("speed",), id="speed-text"),
        pytest.param(shot(speed=None), 422, ("speed",), id="speed-missing"),
        pytest.param(shot(side=0.6), 422, ("side",), id="side-0.6"),
        pytest.param(shot(follow=-0.6), 422, ("follow",), id="follow--0.6"),
        pytest.param(shot(side=0.4, follow=0.4), 422, ("tip", "0.5"), id="tip-outside-its-circle"),
        pytest.param(shot(elevation=61), 422, ("elevation",), id="elevation-61"),
        pytest.param(shot(elevation=-1), 422, ("elevation",), id="elevation-negative"),
        pytest.param(shot(direction=1000), 422, ("direction",), id="direction-1000"),
        pytest.param(shot(spin=1.0), 422, ("spin", "extra"), id="stroke-extra-key"),
        pytest.param(shot(ball="K"), 422, ("ball",), id="stroke-cue-ball-K"),
        pytest.param(shot() | {"power": 1}, 422, ("power", "extra"), id="body-extra-key"),
        pytest.param(shot() | {"seconds": -1}, 422, ("seconds",), id="seconds-negative"),
        pytest.param({"call": "K FR"}, 422, ("stroke",), id="no-stroke"),
        pytest.param([], 422, ("body",), id="not-an-object"),
        pytest.param("{not json", 422, ("json",), id="not-json"),
        pytest.param(shot(ball="W2"), 409, ("W1 is at the table",), id="wrong-cue-ball"),
        pytest.param(
            json.dumps(shot()).replace("3.13", "NaN"),
            422,
            ("speed",),
            id="speed-NaN",
        ),
        pytest.param(
            json.dumps(shot()).replace("3.13", "Infinity"),
            422,
            ("speed",),
            id="speed-Infinity",
        ),
    ]


@pytest.mark.parametrize(("body", "status", "words"), _bad_strokes())
def test_a_bad_shot_is_refused_and_changes_nothing(
    shared: tuple[Store, TestClient], break_match: int, body: Any, status: int, words: tuple[str, ...]
):
    refused(shared[1], break_match, "POST", f"/api/matches/{break_match}/shot", body, status, words)


@pytest.mark.parametrize(
    ("tail", "body", "status", "words"),
    [
        ("/choose", {"cue_ball": "W2"}, 409, ("Choose", "play")),
        ("/place-w2", {"point": W2_SPOT}, 409, ("PlaceW2", "play")),
        ("/lag", lambda: {"strokes": [lag_json(0), None]}, 409, ("not in a lag",)),
        ("/computer", None, 409, ("a person",)),
        ("/break", {"cue_ball": "W1", "seconds": 60}, 409, ("clock",)),
    ],
)
def test_an_action_out_of_phase_is_409(
    shared: tuple[Store, TestClient], break_match: int, tail: str, body: Any, status: int, words: tuple[str, ...]
):
    refused(shared[1], break_match, "POST", f"/api/matches/{break_match}{tail}", body, status, words)


def _corridor_point(pocket: str) -> list[float]:
    """The middle of the kaisa's line to ``pocket`` in the starting position."""
    k = (W / 2, L / 2)
    mouth = OFFICIAL.pockets[PocketId(pocket)].mouth_centre
    return [(k[0] + mouth[0]) / 2, (k[1] + mouth[1]) / 2]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        pytest.param({"point": _corridor_point("FL")}, 422, ("line to FL",), id="in-the-FL-corridor"),
        pytest.param({"point": _corridor_point("FR")}, 422, ("line to FR",), id="in-the-FR-corridor"),
        pytest.param({"point": [0.15, 2.6]}, 422, ("line to FL",), id="too-near-the-FL-line"),
        pytest.param({"point": [1.1, 1.0]}, 422, ("centre line",), id="before-the-centre-line"),
        pytest.param({"point": [1.1, L / 2]}, 422, ("centre line",), id="on-the-centre-line"),
        pytest.param({"point": [0.71, 2.16]}, 422, ("overlap", "R2"), id="overlapping-R2"),
        pytest.param({"point": [1.41, 2.5]}, 422, ("not on the bed",), id="in-the-cushion"),
        pytest.param({"point": [0.71]}, 422, ("point",), id="one-coordinate"),
        pytest.param({"point": "foot"}, 422, ("point",), id="not-a-point"),
        pytest.param({"point": W2_SPOT, "ball": "W2"}, 422, ("ball", "extra"), id="extra-key"),
    ],
)
def test_a_bad_w2_placement_is_refused_and_changes_nothing(
    shared: tuple[Store, TestClient], w2_match: int, body: Any, status: int, words: tuple[str, ...]
):
    refused(shared[1], w2_match, "POST", f"/api/matches/{w2_match}/place-w2", body, status, words)


@pytest.mark.parametrize(
    ("tail", "body", "status", "words"),
    [
        ("/shot", {"call": None, "stroke": SOFT_BREAK}, 409, ("Shot", "place-w2")),
        ("/choose", {"cue_ball": "W1"}, 409, ("Choose", "place-w2")),
        ("/computer", None, 409, ("a person",)),
        ("/choose", {"cue_ball": "K"}, 422, ("cue_ball",)),
    ],
)
def test_other_actions_while_w2_is_placed_are_refused(
    shared: tuple[Store, TestClient], w2_match: int, tail: str, body: Any, status: int, words: tuple[str, ...]
):
    refused(shared[1], w2_match, "POST", f"/api/matches/{w2_match}{tail}", body, status, words)


@pytest.mark.parametrize(
    ("tail", "body", "status", "words"),
    [
        pytest.param("/shot", {"call": None, "stroke": SOFT_BREAK}, 409, ("Lag", "lag"), id="shot"),
        pytest.param("/choose", {"cue_ball": "W1"}, 409, ("Lag", "lag"), id="choose"),
        pytest.param("/place-w2", {"point": W2_SPOT}, 409, ("Lag", "lag"), id="place-w2"),
        pytest.param("/computer", None, 409, ("lag stroke",), id="computer"),
        pytest.param("/undo", None, 409, ("nothing to undo",), id="undo-nothing"),
        pytest.param("/lag", {"strokes": [None, None]}, 409, ("person", "lag stroke"), id="lag-null-for-the-person"),
        pytest.param(
            "/lag",
            lambda: {"strokes": [LAG1, LAG1 | {"ball": "W2", "place": [1.065, 0.355]}]},
            409,
            ("computer", "null"),
            id="lag-stroke-for-the-computer",
        ),
        pytest.param("/lag", {"strokes": [LAG1]}, 422, ("strokes",), id="lag-one-stroke"),
        pytest.param("/lag", {"strokes": [LAG1, None, None]}, 422, ("strokes",), id="lag-three-strokes"),
        pytest.param("/lag", {"strokes": [LAG1 | {"speed": 0}, None]}, 422, ("speed",), id="lag-speed-0"),
        pytest.param(
            "/lag",
            {"strokes": [LAG1 | {"place": [1.0, 0.3]}, None]},
            422,
            ("left half",),
            id="lag-in-the-right-half",
        ),
        pytest.param(
            "/lag",
            {"strokes": [LAG1 | {"place": [0.3, 1.0]}, None]},
            422,
            ("head string",),
            id="lag-in-front-of-the-line",
        ),
        pytest.param(
            "/lag",
            {"strokes": [LAG1 | {"place": [0.68, 0.68]}, None]},
            422,
            ("overlap", "R1"),
            id="lag-overlapping-R1",
        ),
        pytest.param(
            "/lag",
            {"strokes": [LAG1 | {"ball": "W2"}, None]},
            422,
            ("W1",),
            id="lag-with-W2-for-player-1",
        ),
    ],
)
def test_a_bad_action_in_the_lag_is_refused_and_changes_nothing(
    shared: tuple[Store, TestClient], lag_match: int, tail: str, body: Any, status: int, words: tuple[str, ...]
):
    refused(shared[1], lag_match, "POST", f"/api/matches/{lag_match}{tail}", body, status, words)


@pytest.mark.parametrize("index", [0, 5])
def test_the_animation_of_an_action_that_does_not_exist_is_404(
    shared: tuple[Store, TestClient], lag_match: int, index: int
):
    response = shared[1].get(f"/api/matches/{lag_match}/actions/{index}/animation")
    assert response.status_code == 404, response.text
    assert "0 to -1" not in detail(response)
    assert "no action" in detail(response)


@pytest.mark.parametrize(
    ("tail", "body"),
    [
        ("/shot", {"call": "R2 FR", "stroke": POT}),
        ("/computer", None),
        ("/choose", {"cue_ball": "W1"}),
        ("/place-w2", {"point": W2_SPOT}),
        ("/lag", {"strokes": [LAG1, LAG1 | {"ball": "W2", "place": [1.065, 0.355]}]}),
    ],
)
def test_no_action_after_the_match_is_over(shared: tuple[Store, TestClient], over_match: int, tail: str, body: Any):
    refused(shared[1], over_match, "POST", f"/api/matches/{over_match}{tail}", body, 409, ("over",))


def test_a_person_may_not_play_the_computers_turn(shared: tuple[Store, TestClient]):
    client = shared[1]
    match_id = new_match(client)
    post(client, f"/api/matches/{match_id}/lag", {"strokes": [lag_json(0), None]})
    post(client, f"/api/matches/{match_id}/choose", {"cue_ball": "W1"})
    tail = f"/api/matches/{match_id}"
    refused(client, match_id, "POST", f"{tail}/place-w2", {"point": W2_SPOT}, 409, ("Eero", "computer", "/computer"))
    refused(client, match_id, "POST", f"{tail}/shot", {"stroke": SOFT_BREAK}, 409, ("computer",))
    refused(client, match_id, "POST", f"{tail}/choose", {"cue_ball": "W2"}, 409, ("computer",))


@pytest.mark.parametrize(
    "options",
    [{"w2_corridor_clearance": "x"}, {"w2_corridor_clearance": -3.0}, {"frozen_any_object_balls": "no"}],
)
def test_bad_rule_options_are_refused(client: TestClient, options: dict[str, Any]):
    response = client.post("/api/matches", json={"players": [{"name": "A"}, {"name": "B"}], "options": options})
    assert response.status_code == 422, response.text
    assert next(iter(options)) in detail(response)
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"players": [{"name": "A"}]}, ("players",)),
        ({"players": [{"name": ""}, {"name": "B"}]}, ("name",)),
        ({"players": [{"name": "A", "kind": "robot"}, {"name": "B"}]}, ("kind",)),
        ({"players": [{"name": "A"}, {"name": "B"}], "clock": "sim"}, ("clock",)),
        ({"players": [{"name": "A"}, {"name": "B"}], "seed": -1}, ("seed",)),
        ({"players": [{"name": "A"}, {"name": "B"}], "options": {"house_rule": 1}}, ("house_rule",)),
    ],
)
def test_a_bad_new_match_is_refused(client: TestClient, body: Any, words: tuple[str, ...]):
    response = client.post("/api/matches", json=body)
    assert response.status_code == 422, response.text
    for word in words:
        assert word in detail(response)
    assert client.get("/api/matches").json() == []


@pytest.mark.parametrize("in_hand", [5, None, "W1"])
@pytest.mark.parametrize("path", ["/api/study/shot", "/api/study/advise"])
def test_study_refuses_a_state_with_a_bad_in_hand(client: TestClient, path: str, in_hand: Any):
    body = {"position": {"balls": STRAIGHT}, "stroke": POT, "state": {"in_hand": in_hand}}
    if path.endswith("advise"):
        body = {"position": {"balls": STRAIGHT}, "level": "beginner", "state": {"in_hand": in_hand}}
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    assert "in_hand" in detail(response)


def test_study_shot_refuses_the_wrong_cue_ball_with_422(client: TestClient):
    body = {"position": {"balls": STRAIGHT}, "stroke": POT | {"ball": "W2"}, "state": {"shooter": "W1"}}
    response = client.post("/api/study/shot", json=body)
    assert response.status_code == 422, response.text
    assert "W1" in detail(response)


@pytest.mark.parametrize("balls", [{}, {"K": [0.71, 1.42]}])
def test_study_advise_refuses_a_position_without_the_cue_ball(client: TestClient, balls: dict[str, Any]):
    response = client.post("/api/study/advise", json={"position": {"balls": balls}, "level": "beginner"})
    assert response.status_code == 422, response.text
    assert "W1" in detail(response)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"position": {"balls": STRAIGHT}, "level": "grandmaster"}, ("level",)),
        ({"position": {"balls": STRAIGHT}, "limit": 0}, ("limit",)),
        ({"position": {"balls": STRAIGHT}, "limit": 21}, ("limit",)),
        ({"position": {"balls": STRAIGHT}, "state": {"shooter": "R1"}}, ("shooter",)),
    ],
)
def test_study_advise_refuses_bad_input(client: TestClient, body: Any, words: tuple[str, ...]):
    response = client.post("/api/study/advise", json=body)
    assert response.status_code == 422, response.text
    for word in words:
        assert word.lower() in detail(response).lower()


@pytest.mark.slow
def test_a_vanishing_speed_is_refused_naming_the_speed(client: TestClient):
    stroke = POT | {"speed": 1e-200}
    response = client.post("/api/study/shot", json={"position": {"balls": STRAIGHT}, "stroke": stroke})
    assert response.status_code == 422, response.text
    assert "speed" in detail(response)


# --- concurrency and persistence ------------------------------------------------------------------------


def _race(clients: list[TestClient], path: str, body: Any) -> list[Any]:
    barrier = threading.Barrier(len(clients))
    answers: list[Any] = [None] * len(clients)

    def run(i: int) -> None:
        barrier.wait()
        answers[i] = clients[i].post(path, json=body)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def _check_one_recorded(store: Store, match_id: int, answers: list[Any], actions_before: int) -> None:
    statuses = sorted(a.status_code for a in answers)
    assert statuses[0] == 200, [a.text for a in answers]
    assert statuses[1] in (409, 422), [a.text for a in answers]
    loser = next(a for a in answers if a.status_code != 200)
    assert "W2 is at the table" in detail(loser) or "not the stored current state" in detail(loser), detail(loser)
    config, state, actions = store.load(match_id)
    assert len(actions) == actions_before + 1
    assert replay(config, actions).state.to_json() == state.to_json()


def test_two_tabs_posting_the_same_shot_record_it_once(store: Store, app: FastAPI, client: TestClient):
    match_id = to_break_two_people(client)
    before = client.get(f"/api/matches/{match_id}").json()["actions"]
    tabs = [client, _client(app)]
    answers = _race(tabs, f"/api/matches/{match_id}/shot", {"call": None, "stroke": SOFT_BREAK})
    _check_one_recorded(store, match_id, answers, before)
    winner = next(a for a in answers if a.status_code == 200).json()
    assert client.get(f"/api/matches/{match_id}").json() == winner["match"]


def test_two_servers_over_one_database_record_a_shot_once(store: Store, db_url: str, client: TestClient):
    """Two server processes share the database but not their locks: the store refuses the late write."""
    match_id = to_break_two_people(client)
    before = client.get(f"/api/matches/{match_id}").json()["actions"]
    with open_store(db_url) as other:
        answers = _race([client, _client(create_app(other))], f"/api/matches/{match_id}/shot", {"stroke": SOFT_BREAK})
    _check_one_recorded(store, match_id, answers, before)


def test_a_restarted_server_continues_the_match(db_url: str):
    with open_store(db_url) as first:
        client = _client(create_app(first))
        match_id = to_break_vs_computer(client)
        post(client, f"/api/matches/{match_id}/shot", {"call": None, "stroke": SOFT_BREAK})
        before = snapshot(client, match_id)
        listed = client.get("/api/matches").json()
    assert before[0]["computer_to_move"]

    with open_store(db_url) as second:
        client = _client(create_app(second))
        assert snapshot(client, match_id) == before
        assert client.get("/api/matches").json() == listed
        played = post(client, f"/api/matches/{match_id}/computer")  # the computer's turn goes on
        assert played["match"]["actions"] == before[0]["actions"] + 1
        assert client.get(f"/api/matches/{match_id}/actions").json()[:-1] == before[1]


def test_the_match_view_schema_is_the_session_views_fields(app: FastAPI):
    """The API's MatchView is made from the session's dataclass (the fields are stated once): every field, the
    required ones required, the documented ones described; the club's view extends it."""
    import dataclasses

    from kaisa.session.view import MatchView

    schemas = app.openapi()["components"]["schemas"]
    view = schemas["MatchView"]
    fields = dataclasses.fields(MatchView)
    assert list(view["properties"]) == [f.name for f in fields]
    assert view["required"] == [f.name for f in fields if f.default is dataclasses.MISSING]
    assert view["properties"]["players"]["items"] == {"$ref": "#/components/schemas/PlayerOut"}
    assert "computer player" in view["properties"]["computer_to_move"]["description"]
    assert "ISO 8601" in view["properties"]["updated_at"]["description"]
    assert set(view["properties"]) < set(schemas["ClubView"]["properties"])


def test_every_page_is_served_as_html(client: TestClient) -> None:
    """Each page of kaisa.web.pages (the list kaisa play also serves while it loads) answers its HTML file."""
    from kaisa.web.pages import PAGES

    for path in PAGES:
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert answer.headers["content-type"].startswith("text/html"), path
        assert "<html" in answer.text.lower(), path
