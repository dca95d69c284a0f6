"""A competition game's club match once the game is decided (issue 28): closed to entries with a clear refusal,
the decision and who made it on the marker's view; corrections through the director reach the bracket and the
pöytäkirja together; starts sent at once open one club match; the club night's scoreboard shows each game once.
Real parts: the app on a SQLite file, and a uvicorn server over SQLite and PostgreSQL for concurrent starts."""

from __future__ import annotations

import threading
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.records.test_storage import db_url, postgres_server  # noqa: F401  (fixtures)
from tests.web.club_helpers import entry
from tests.web.test_web_kaavio import API, NAMES, Night, client, mark_to_60, server  # noqa: F401  (fixtures)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
POT = {"call": "K FL", "marks": {"pots": [["K", "FL"]], "first_contact": "K"}}


def marker(url: str) -> tuple[str, dict[str, str]]:
    match_id, token = url.split("/")[-2:]
    return f"/api/club/matches/{match_id}", {"X-Kaisa-Token": token}


def refused_as_decided(answer: httpx.Response, by: str) -> None:
    assert answer.status_code == 409, answer.text
    body = answer.json()
    assert body["code"] == "game-decided"
    assert "ratkaistu" in body["fi"]
    assert "kilpailunjohtaja" in body["fi"]
    assert "decided" in body["en"]
    assert "director" in body["en"]
    assert by in body["fi"]


def test_a_result_typed_by_the_director_closes_the_games_marker_link(client: TestClient) -> None:  # noqa: F811
    night = Night(client, target=20)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    url = night.ok("/games/1/start", {})["answer"]["marker_url"]
    base, headers = marker(url)
    assert client.post(f"{base}/place-w2", json={"point": [0.71, 2.6]}, headers=entry(headers)).is_success
    live = client.get(base).json()["competition"]
    assert (live["game"], live["round"], live["state"], live["decided_by"]) == (1, 1, "running", None)
    night.ok("/games/1/result", {"points1": "20", "points2": "14"})
    # the marker's page: decided, by the director, with the result; every entry is refused
    seen = client.get(base).json()["competition"]
    assert (seen["state"], seen["decided_by"], seen["points"]) == ("played", "director", ["20", "14"])
    stroke = {**POT, "marks": {**POT["marks"], "place": [0.5, 0.3]}}
    refused_as_decided(client.post(f"{base}/strokes", json=stroke, headers=entry(headers)), "Kilpailunjohtaja")
    refused_as_decided(client.post(f"{base}/undo", headers=entry(headers)), "Kilpailunjohtaja")
    refused_as_decided(client.post(f"{base}/forfeit", json={"cue_ball": "W1"}, headers=entry(headers)), "20–14")
    assert night.game(1)["points1"] == "20"


def test_after_the_marker_ends_a_game_only_the_director_corrects_it_and_the_pöytäkirja_follows(
    client: TestClient,  # noqa: F811
) -> None:
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    url = night.ok("/games/1/start", {})["answer"]["marker_url"]
    match_id = mark_to_60(client, url)
    base, headers = marker(url)
    assert night.game(1)["points1"] == "60"
    ended = client.get(base).json()["competition"]
    assert ended["decided_by"] == "marker"
    assert ended["scoresheet_url"] == f"/club/scoresheet#/kaavio/{night.id}/1"
    refused_as_decided(client.post(f"{base}/undo", headers=entry(headers)), "kirjurin sivulla")
    fix = {"call": "K FL", "marks": {"pots": [["K", "FL"]], "first_contact": "K", "place": [0.5, 0.3]}}
    refused_as_decided(client.put(f"{base}/strokes/3", json=fix, headers=entry(headers)), "kirjurin sivulla")
    assert client.get(base).json()["result"] is not None  # not reopened
    # the director's correction: the bracket, the marker's view and the pöytäkirja say the same
    night.ok("/games/1/result", {"points1": "60", "points2": "12"})
    assert (night.game(1)["points1"], night.game(1)["points2"]) == ("60", "12")
    assert client.get(base).json()["competition"]["decided_by"] == "director"
    sheet = client.get(f"{API}/{night.id}/games/1/scoresheet").json()
    assert sheet["id"] == match_id
    assert sheet["competition"]["points"] == ["60", "12"]
    assert sheet["competition"]["decided_by"] == "director"
    assert sheet["competition"]["name"] == "Viikkokisa 3.12."
    assert sheet["competition"]["round"] == 1
    assert len(sheet["innings"]) == 1
    pdf = client.get(f"{API}/{night.id}/games/1/scoresheet.pdf")
    assert pdf.status_code == 200
    assert pdf.content.startswith(b"%PDF")


def test_every_games_pöytäkirja_names_the_competition_the_round_and_the_game(client: TestClient) -> None:  # noqa: F811
    night = Night(client)
    night.register(NAMES[:4])
    night.ok("/draw", {"seed": 1})
    night.ok("/games/1/result", {"points1": "60", "points2": "30"})  # played without a marker
    url = night.ok("/games/2/start", {})["answer"]["marker_url"]
    typed = client.get(f"{API}/{night.id}/games/1/scoresheet").json()
    assert typed["id"] is None
    assert typed["innings"] == []
    assert typed["competition"]["game"] == 1
    assert typed["competition"]["points"] == ["60", "30"]
    assert [p["name"] for p in typed["players"]] == night.game(1)["names"]
    marked = client.get(f"{API}/{night.id}/games/2/scoresheet").json()
    assert marked["id"] == int(url.split("/")[-2])
    assert (marked["competition"]["game"], marked["competition"]["round"]) == (2, 1)
    assert client.get(f"/api/club/matches/{marked['id']}/scoresheet").json()["competition"]["game"] == 2
    missing = client.get(f"{API}/{night.id}/games/99/scoresheet")
    assert missing.status_code == 422
    assert missing.json()["code"] == "no-such-game"


def test_the_club_nights_scoreboard_shows_each_started_game_once_with_its_table(client: TestClient) -> None:  # noqa: F811
    night = Night(client)
    night.register(NAMES[:6])
    night.ok("/draw", {"seed": 3})
    first = night.ok("/games/1/start", {"table": "1"}, key="a")["answer"]
    assert night.ok("/games/1/start", {"table": "1"}, key="b")["answer"] == first  # sent again, new key
    assert night.post("/games/2/start", {"table": "1"}).status_code == 409  # the table is busy: no match left
    night.ok("/games/2/start", {"table": "2"})
    night.ok("/games/1/result", {"points1": "60", "points2": "41"})
    event = client.get("/api/club/events/" + f"Viikkokisa 3.12. · kaavio {night.id}").json()
    tables = [(t["table_label"], t["competition"]["game"], t["competition"]["decided_by"]) for t in event["tables"]]
    assert sorted(tables, key=lambda t: t[1]) == [("1", 1, "director"), ("2", 2, None)]
    assert len(client.get("/api/matches").json()) == 2


@pytest.mark.parametrize("keyed", [False, True], ids=["no-key", "one-key"])
def test_three_starts_of_one_game_at_once_open_one_club_match_that_every_answer_names(server: str, keyed: bool) -> None:  # noqa: F811
    with httpx.Client(base_url=server, timeout=60) as client:  # noqa: F811
        night = Night(client)
        night.register(NAMES[:4])
        night.ok("/draw", {"seed": 1})
        barrier = threading.Barrier(3)
        answers: list[dict[str, Any]] = []

        def start() -> None:
            with httpx.Client(base_url=server, timeout=60) as own:
                headers = {**night.headers, **({"Idempotency-Key": "start-game-1"} if keyed else {})}
                barrier.wait(timeout=30)
                answer = own.post(f"{API}/{night.id}/games/1/start", json={}, headers=headers)
                assert answer.status_code == 200, answer.text
                answers.append(answer.json()["answer"])

        threads = [threading.Thread(target=start) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
        assert len(answers) == 3
        matches = client.get("/api/matches").json()
        assert len(matches) == 1
        assert {a["match"] for a in answers} == {matches[0]["id"]}
        assert {a["marker_url"] for a in answers} == {answers[0]["marker_url"]}
        assert night.game(1)["live"]["match"] == matches[0]["id"]
        base, headers = marker(answers[0]["marker_url"])
        assert client.post(f"{base}/place-w2", json={"point": [0.71, 2.6]}, headers=entry(headers)).is_success
