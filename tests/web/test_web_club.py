"""The scorekeeping mode's API: club matches entered by markers, corrections, access, live streams, exports,
concurrency and a server killed mid-match."""

from __future__ import annotations

import csv
import io
import json
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.web.club_helpers import (
    HAND,
    entry,
    keyed,
    new_match,
    serve,
    start_kaisa_play,
    state,
    stroke,
    to_shootout_lag,
)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A real server in a thread on a temporary SQLite database; yields its base URL."""
    with serve(tmp_path / "club.sqlite3") as url:
        yield url


def test_a_marker_enters_a_break_a_foul_and_ball_in_hand_and_the_referee_keeps_the_score(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client)
        potted = stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", place=[0.5, 0.3])
        assert potted.status_code == 200, potted.text
        ruling = potted.json()["outcome"]["ruling"]
        assert ruling["points"] == 6
        assert "4" in ruling["clauses"]  # the kaisa goes back to its spot
        assert ruling["respots"]["K"] == [0.71, 1.42]
        foul = stroke(client, match_id, token, "R1 HR", pots=[["W1", "HL"]], first_contact="R1")
        view = foul.json()["match"]
        assert view["scores"] == {"W1": 3, "W2": 0}
        assert view["shooter"] == "W2"
        assert view["fouls"]["W1"] == 1
        assert "7a" in [f["clause"] for f in foul.json()["outcome"]["ruling"]["fouls"]]
        # W2 plays from the table; later W1 comes back from hand and must say where it was placed
        assert stroke(client, match_id, token, None, first_contact="R2").status_code == 200
        refused = stroke(client, match_id, token, "K FR", first_contact="K")
        assert refused.status_code == 409
        assert "from hand" in refused.json()["detail"]
        assert stroke(client, match_id, token, "K FR", first_contact="K", place=[0.9, 0.35]).status_code == 200


def test_a_respot_onto_an_occupied_spot_goes_to_the_next_free_spot(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client)
        answer = stroke(
            client,
            match_id,
            token,
            "K FL",
            pots=[["K", "FL"]],
            first_contact="K",
            place=[0.5, 0.3],
            moves={"W1": [0.71, 1.42]},
        )
        ruling = answer.json()["outcome"]["ruling"]
        assert ruling["respots"]["K"] == [0.71, 0.355]  # centre taken, then R1's and R2's spots: the head end
        assert answer.json()["match"]["position"]["balls"]["K"] == [0.71, 0.355]


def test_white_at_59_and_a_finish(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client)

        def enter(call: str | None, **marks: Any) -> dict[str, Any]:
            answer = stroke(client, match_id, token, call, **marks)
            assert answer.status_code == 200, answer.text
            view: dict[str, Any] = answer.json()["match"]
            return view

        place: list[float] | None = [0.5, 0.3]
        for _ in range(9):  # the kaisa nine times, respotted each time: 54
            view = enter("K FL", pots=[["K", "FL"]], first_contact="K", place=place)
            place = None
        assert view["scores"]["W1"] == 54
        view = enter("W2 FR", pots=[["W2", "FR"]], first_contact="W2")  # the white below 59: 2, play on
        view = enter("R1 HR", pots=[["R1", "HR"]], first_contact="R1")
        assert (view["scores"]["W1"], view["shooter"]) == (59, "W1")
        view = enter(None, first_contact="R2")  # W1 misses
        view = enter(None, first_contact="R2", place=[0.9, 0.3])  # W2 from hand, misses
        view = enter("W2 HR", pots=[["W2", "HR"]], first_contact="W2")
        # 3: at 59 or more the white without nakki gives 2, does not finish, and the turn passes
        assert view["scores"]["W1"] == 61
        assert view["phase"] == "play"
        assert view["shooter"] == "W2"
        view = enter(None, first_contact="R1", place=[0.9, 0.3])
        view = enter("R2 FL", pots=[["R2", "FL"]], first_contact="R2")
        assert view["phase"] == "over"
        assert view["result"]["winner"] == "W1"
        assert view["result"]["recorded"]["W1"] == 60
        late = stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K")
        assert late.status_code == 409


def test_3_a_club_match_played_to_a_target_of_40_ends_at_40_and_says_so(server: str):
    """The rule option winning_score (a competition's target points): the match view carries it, the game ends
    when 40 is reached, the scoresheet records 40, and a target outside 10-200 is refused saying what is allowed."""
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client, options={"winning_score": 40})
        assert client.get(f"/api/club/matches/{match_id}").json()["winning_score"] == 40
        for n in range(7):  # the kaisa seven times: 36, then 42
            place = {"place": HAND} if n == 0 else {}
            answer = stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", **place)
            assert answer.status_code == 200, answer.text
            view = answer.json()["match"]
            assert view["phase"] == ("over" if n == 6 else "play")
        assert view["result"]["recorded"] == {"W1": 40, "W2": 0}
        assert view["result"]["reason"] == "40 points (3)"
        notes = [n for n in answer.json()["outcome"]["ruling"]["notes"] if n["clause"] == "3"]
        assert [(n["fi"], n["en"]) for n in notes] == [
            ("Peli päättyi: 40 pistettä saavutettu", "Game over: 40 points reached")
        ]
        default, _ = new_match(client)
        assert client.get(f"/api/club/matches/{default}").json()["winning_score"] == 60
        refused = client.post("/api/club/matches", json={"players": ["Aino", "Eero"], "options": {"winning_score": 5}})
        assert refused.status_code in (400, 422), refused.text
        assert "winning_score is 10 to 200 points" in refused.text


def test_bad_entries_are_refused_with_a_clear_message_and_change_nothing(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client)
        before = state(client, match_id)
        cases = [
            (
                {"call": "K FL", "marks": {"pots": [["K", "FL"], ["K", "HL"]], "place": [0.5, 0.3]}},
                token,
                422,
                "K cannot drop twice",
            ),
            (
                {"call": "K FL", "marks": {"pots": [["K", "XL"]], "place": [0.5, 0.3]}},
                token,
                422,
                "a pocket is one of HL HR ML MR FL FR, not 'XL'",
            ),
            ({"call": "K XX", "marks": {"place": [0.5, 0.3]}}, token, 422, "pocket XX does not exist"),
            ({"call": "K FL", "marks": {"place": [0.5, 1.3]}}, token, 422, "behind the head string"),
            (
                {"call": "K FL", "marks": {"place": [0.5, 0.3]}},
                {"X-Kaisa-Token": "wrong-token-of-some-length"},
                403,
                "missing or wrong",
            ),
            ({"call": "K FL", "marks": {"place": [0.5, 0.3]}}, {}, 403, "missing or wrong"),
            (
                {"call": "K FL", "marks": {"place": [0.5, 0.3], "colour": "red"}},
                token,
                422,
                "unknown marker entry fields",
            ),
        ]
        for body, headers, status, message in cases:
            answer = client.post(f"/api/club/matches/{match_id}/strokes", json=body, headers=entry(headers))
            assert answer.status_code == status, (body, answer.text)
            assert message in json.dumps(answer.json()), (body, answer.text)
            assert state(client, match_id) == before
        assert client.post("/api/club/matches/999/strokes", json={"marks": {}}, headers=token).status_code in (403, 404)
        undo = client.post(f"/api/club/matches/{match_id}/undo", headers=token)
        assert undo.status_code == 200  # the W2 placement
        assert client.post(f"/api/club/matches/{match_id}/undo", headers=token).status_code == 409


def test_a_correction_recomputes_everything_after_it(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client)
        stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", place=[0.5, 0.3])
        stroke(client, match_id, token, "R1 HR", first_contact="R1")  # a miss: the turn passes
        stroke(client, match_id, token, None, first_contact="R2")  # W2 misses too
        assert state(client, match_id)[0]["scores"] == {"W1": 6, "W2": 0}
        # the break also dropped R2 (3 more points): everything after it is recomputed
        fixed = client.put(
            f"/api/club/matches/{match_id}/strokes/3",
            json={
                "call": "K FL",
                "marks": {"pots": [["K", "FL"], ["R2", "FR"]], "first_contact": "K", "place": [0.5, 0.3]},
            },
            headers=token,
        )
        assert fixed.status_code == 200, fixed.text
        assert fixed.json()["scores"] == {"W1": 9, "W2": 0}
        assert fixed.json()["actions"] == 6
        # a correction that makes a later stroke somebody else's is refused, and nothing changes
        before = state(client, match_id)
        refused = client.put(
            f"/api/club/matches/{match_id}/strokes/3",
            json={"call": "K FL", "marks": {"first_contact": "K", "place": [0.5, 0.3]}},
            headers=token,
        )
        assert refused.status_code == 409
        said = refused.json()
        assert said["code"] == "correction-turn"
        assert "stroke 2 would be played by Eero (W2)" in said["en"]  # strokes as the marker numbers them
        assert said["fi"].startswith("Korjauksen jälkeen lyönnin 2 lyöisi Eero (W2), mutta se kirjattiin lyöjälle")
        assert state(client, match_id) == before


def test_the_spectator_stream_sends_the_scoreboard_when_it_changes(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client, event="Club night")
        views: list[dict[str, Any]] = []

        def watch() -> None:
            with httpx.stream("GET", f"{server}/api/club/events/Club night/stream", timeout=30) as events:
                for line in events.iter_lines():
                    if line.startswith("data: "):
                        views.append(json.loads(line[6:]))
                        if len(views) == 2:
                            return

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        for _ in range(100):
            if views:
                break
            time.sleep(0.05)
        stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", place=[0.5, 0.3])
        watcher.join(timeout=20)
        assert len(views) == 2
        assert views[0]["tables"][0]["scores"]["W1"] == 0
        assert views[1]["tables"][0]["scores"]["W1"] == 6
        # spectators read, they cannot write: the match's stream is public but entering needs the token
        assert stroke(client, match_id, {}, None, first_contact="R1").status_code == 403


def test_exports_of_a_match_and_of_a_club_night(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        first, token1 = new_match(client, event="Night")
        second, token2 = new_match(client, event="Night", players=["Kalle", "Liisa"])
        stroke(client, first, token1, "K FL", pots=[["K", "FL"]], first_contact="K", place=[0.5, 0.3])
        client.post(f"/api/club/matches/{second}/forfeit", json={"cue_ball": "W2"}, headers=token2)
        match_json = client.get(f"/api/club/matches/{first}/export").json()
        assert match_json["kind"] == "match"
        assert match_json["players"][0]["points"] == 6
        rows = list(csv.DictReader(io.StringIO(client.get("/api/club/events/Night/results?format=csv").text)))
        assert [r["name"] for r in rows] == ["Aino", "Eero", "Kalle", "Liisa"]
        assert rows[2]["recorded"] == "60"
        players = client.get("/api/club/events/Night/results?by=player").json()
        assert players["kind"] == "players"
        assert {p["name"] for p in players["players"]} == {"Aino", "Eero", "Kalle", "Liisa"}


def test_several_tables_entering_at_the_same_time_do_not_interfere(server: str):
    with httpx.Client(base_url=server, timeout=60) as client:
        tables = [new_match(client, event="Busy night") for _ in range(4)]
    errors: list[str] = []

    def mark(match_id: int, token: dict[str, str]) -> None:
        with httpx.Client(base_url=server, timeout=60) as client:
            place: list[float] | None = [0.5, 0.3]
            for _ in range(6):
                answer = stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", place=place)
                place = None
                if answer.status_code != 200:
                    errors.append(answer.text)

    threads = [threading.Thread(target=mark, args=table) for table in tables]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    with httpx.Client(base_url=server, timeout=30) as client:
        for match_id, _token in tables:
            view, actions = state(client, match_id)
            assert view["scores"]["W1"] == 36
            assert len(actions) == 3 + 6
            assert [a["index"] for a in actions] == list(range(9))


def test_two_markers_on_one_table_are_serialised(server: str):
    with httpx.Client(base_url=server, timeout=60) as client:
        match_id, token = new_match(client)
        stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", place=[0.5, 0.3])
    answers: list[int] = []

    def mark() -> None:
        with httpx.Client(base_url=server, timeout=60) as client:
            answers.append(stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K").status_code)

    threads = [threading.Thread(target=mark) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert answers == [200, 200]  # one after the other, each against the state the other left
    with httpx.Client(base_url=server, timeout=30) as client:
        view, actions = state(client, match_id)
    assert view["scores"]["W1"] == 18
    assert len(actions) == 6


@pytest.mark.slow
def test_killing_the_server_mid_match_loses_no_entered_stroke(tmp_path: Path):
    db = f"sqlite:///{tmp_path / 'killed.sqlite3'}"
    process, url = start_kaisa_play(db)
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            match_id, token = new_match(client)
            place: list[float] | None = [0.5, 0.3]
            for _ in range(3):
                assert (
                    stroke(
                        client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", place=place
                    ).status_code
                    == 200
                )
                place = None
            before = state(client, match_id)
    finally:
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
    process, url = start_kaisa_play(db)
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            after = state(client, match_id)
            assert after == before
            assert after[0]["scores"]["W1"] == 18
            assert stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K").status_code == 200
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_a_club_match_cannot_be_changed_through_the_browser_tables_api(server: str):
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, _token = new_match(client)
        before = state(client, match_id)
        soft = {"ball": "W1", "speed": 1.0, "direction": 90.0, "place": [0.5, 0.3]}
        for path, body in (("/shot", {"call": None, "stroke": soft}), ("/undo", None), ("/computer", None)):
            answer = client.post(f"/api/matches/{match_id}{path}", json=body)
            assert answer.status_code == 403, (path, answer.text)
            assert "club match kept by a marker" in answer.json()["detail"]
        assert state(client, match_id) == before


def test_6_the_shootout_lag_winner_chooses_who_starts_once_before_the_first_stroke(tmp_path: Path):
    db = tmp_path / "club.sqlite3"
    with serve(db) as url, httpx.Client(base_url=url, timeout=30) as client:
        match_id, token = new_match(client, clock="wall")
        base = f"/api/club/matches/{match_id}"
        early = client.post(f"{base}/shootout-starter", json={"cue_ball": "W1"}, headers=token)
        assert early.status_code == 409, early.text
        assert early.json()["code"] == "shootout-starter-closed"
        assert "Rankkarin aloittajaa ei voi nyt valita" in early.json()["fi"]
        to_shootout_lag(db, match_id, token["X-Kaisa-Token"])
        lag = client.post(f"{base}/lag", json={"winner": 0}, headers=token)  # Aino (W1) wins the shoot-out's lag
        assert lag.status_code == 200, lag.text
        assert lag.json()["match"]["shootout"] == {"first": "W1", "innings": {"W1": 0, "W2": 0}, "choice_open": True}
        count = len(state(client, match_id)[1])
        assert client.post(f"{base}/shootout-starter", json={"cue_ball": "W2"}).status_code == 403  # no token
        # she lets Eero start; the answer is sent twice (a lost answer): one choice is recorded
        key = keyed(token, "starter-" + uuid.uuid4().hex)
        chosen = client.post(f"{base}/shootout-starter", json={"cue_ball": "W2"}, headers=key)
        assert chosen.status_code == 200, chosen.text
        view = chosen.json()["match"]
        assert view["shootout"] == {"first": "W2", "innings": {"W1": 0, "W2": 0}}
        assert view["shooter"] == "W2"
        assert view["from_hand"]
        assert chosen.json()["outcome"]["notes"] == ["6: W2 starts the penalty shoot-out"]
        again = client.post(f"{base}/shootout-starter", json={"cue_ball": "W2"}, headers=key)
        assert again.text == chosen.text
        assert len(state(client, match_id)[1]) == count + 1
        # the choice is made once
        late = client.post(f"{base}/shootout-starter", json={"cue_ball": "W1"}, headers=token)
        assert late.status_code == 409
        assert late.json()["code"] == "shootout-starter-closed"
        # the scoreboard's view says who started
        assert client.get(base).json()["shootout"]["first"] == "W2"
        assert stroke(client, match_id, token, "K FL", pots=[["K", "FL"]], first_contact="K", place=HAND).is_success
        assert client.get(base).json()["scores"]["W2"] == 6

        # another match: the first stroke entered without a choice is the lag winner starting, and closes it
        other, other_token = new_match(client, clock="wall")
        to_shootout_lag(db, other, other_token["X-Kaisa-Token"])
        assert client.post(f"/api/club/matches/{other}/lag", json={"winner": 1}, headers=other_token).is_success
        assert stroke(client, other, other_token, None, first_contact="K", place=HAND).is_success
        closed = client.post(
            f"/api/club/matches/{other}/shootout-starter", json={"cue_ball": "W1"}, headers=other_token
        )
        assert closed.status_code == 409
        assert client.get(f"/api/club/matches/{other}").json()["shootout"]["first"] == "W2"
