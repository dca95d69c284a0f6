"""issue 29: no wrong answer from the API. Every router's ids and query numbers are digits, every body's
numbers are numbers and its booleans booleans at any depth, text holds no control characters, a marker's lists
are bounded, a key sent again with another body is refused, and an entry says which stroke it is. Each refusal
is a 422 with a stable code and Finnish and English, never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kaisa.records.storage import open_store
from kaisa.web import create_app
from tests.web.club_helpers import entry

API = "/api/kaavio/competitions"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = open_store(f"sqlite:///{tmp_path / 'strict.sqlite3'}")
    with TestClient(create_app(store, close_store=True), raise_server_exceptions=False) as c:
        yield c


def _competition(client: TestClient, players: int = 4) -> tuple[int, dict[str, str]]:
    made = client.post(API, json={"name": "Viikkokisa", "tables": ["1", "2"]})
    assert made.status_code == 201, made.text
    cid, headers = made.json()["id"], {"X-Kaisa-Token": made.json()["token"]}
    for i in range(players):
        assert client.post(f"{API}/{cid}/players", json={"name": f"Pelaaja {i}"}, headers=headers).is_success
    return cid, headers


def _club_match(client: TestClient) -> tuple[int, dict[str, str]]:
    made = client.post("/api/club/matches", json={"players": ["Aino", "Eero"]}).json()
    match_id, token = made["match"]["id"], {"X-Kaisa-Token": made["token"]}
    assert client.post(f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token).is_success
    return match_id, token


def _refused(answer: Any, code: str = "invalid-request") -> dict[str, Any]:
    assert answer.status_code == 422, answer.text
    body: dict[str, Any] = answer.json()
    assert body["code"] == code, body
    assert body["fi"], body
    assert body["en"], body
    return body


def test_ids_written_other_than_as_digits_are_refused_by_every_router(client: TestClient) -> None:
    cid, headers = _competition(client)
    client.post(f"{API}/{cid}/draw", json={"seed": 1}, headers=headers)
    for wrong in ("1.0", "+1", "1e0", " 1"):
        _refused(client.get(f"{API}/{wrong}"))
        _refused(client.post(f"{API}/{cid}/games/{wrong}/start", json={"marker": False}, headers=headers))
        _refused(client.post(f"{API}/{cid}/games/{wrong}/result", json={"points1": "60", "points2": "3"}))
        _refused(client.get(f"/api/matches/{wrong}"))
        _refused(client.get(f"/api/club/matches/{wrong}"))
    said = _refused(client.get(f"{API}/1.0")).get("fi", "")
    assert "kilpailun numero" in said.lower(), said
    assert "0–9" in said, said
    games = client.get(f"{API}/{cid}").json()["games"]
    assert all(g["state"] != "running" for g in games)  # nothing started by a refused id


def test_a_history_offset_beyond_the_databases_integers_is_refused_not_a_500(client: TestClient) -> None:
    made = client.post("/api/matches", json={"players": [{"name": "A"}, {"name": "B"}]})
    match_id = made.json()["id"]
    for offset in ("9223372036854775808", "1" * 40):
        said = _refused(client.get(f"/api/matches/{match_id}/actions?offset={offset}"))
        assert "enintään 18 numeroa" in said["fi"], said
    assert client.get(f"/api/matches/{match_id}/actions?offset=0").status_code == 200


def test_numbers_and_booleans_are_not_taken_for_each_other_at_any_depth(client: TestClient) -> None:
    cid, headers = _competition(client)
    prizes = {"sbil": {"amount": 10, "percent": 1}}
    said = _refused(client.post(f"{API}/{cid}/prizes", json=prizes, headers=headers))
    assert "kyllä tai ei" in said["fi"], said
    assert client.post(f"{API}/{cid}/draw", json={"seed": 1}, headers=headers).is_success
    _refused(client.post(f"{API}/{cid}/games/1/start", json={"marker": 1}, headers=headers))
    _refused(client.post(f"{API}/{cid}/games/1/start", json={"marker": False, "lag_winner": True}, headers=headers))
    result = {"points1": "60", "points2": "3", "expect": [True, 2]}
    _refused(client.post(f"{API}/{cid}/games/1/result", json=result, headers=headers))
    _refused(client.post(f"{API}/{cid}/games/1/result", json={**result, "expect": [1.0, 2]}, headers=headers))
    _refused(client.post("/api/club/matches", json={"players": ["Aino", "Eero"], "lag_winner": True}))
    assert client.post("/api/club/matches", json={"players": ["Aino", "Eero"], "lag_winner": 1}).status_code == 201


def test_text_with_a_nul_byte_is_refused_in_names_and_events(client: TestClient) -> None:
    said = _refused(client.post("/api/club/matches", json={"players": ["Aino", "Eero"], "event": "Ilta\x00"}))
    assert "ohjausmerkkejä" in said["fi"], said
    _refused(client.post("/api/club/matches", json={"players": ["Ai\x00no", "Eero"]}))
    _refused(client.post(API, json={"name": "Kisa\x00", "tables": ["1"]}))
    cid, headers = _competition(client, players=0)
    _refused(client.post(f"{API}/{cid}/players", json={"name": "Matti\x00"}, headers=headers))
    _refused(client.post(f"{API}/{cid}/players", json={"name": "Matti", "club": "K\x00S"}, headers=headers))
    assert client.get(f"{API}/{cid}").json()["players"] == []


def test_a_markers_list_of_balls_names_at_most_the_five_balls(client: TestClient) -> None:
    match_id, token = _club_match(client)
    marks = {"first_contact": "R1", "place": [0.5, 0.3], "nakki": ["R2"] * 100_000}
    said = _refused(client.post(f"/api/club/matches/{match_id}/strokes", json={"marks": marks}, headers=entry(token)))
    assert "enintään 5 palloa" in said["fi"], said
    assert len(said["en"]) < 1000  # the list is not echoed back


def test_a_konsti_flag_with_a_call_naming_no_konsti_is_refused_not_a_500(client: TestClient) -> None:
    match_id, token = _club_match(client)
    marks = {"pots": [["K", "HR"]], "first_contact": "K", "place": [0.5, 0.3], "konsti_ball_frozen_to_cushion": True}
    answer = client.post(
        f"/api/club/matches/{match_id}/strokes", json={"call": "K HR", "marks": marks}, headers=entry(token)
    )
    said = _refused(answer, "impossible-entry")
    assert "konstimaalaukseen" in said["fi"], said
    assert client.get(f"/api/club/matches/{match_id}").status_code == 200  # the connection still answers


def test_a_competition_key_sent_again_with_another_body_is_refused(client: TestClient) -> None:
    cid, headers = _competition(client, players=0)
    keyed = {**headers, "Idempotency-Key": "player-1"}
    first = client.post(f"{API}/{cid}/players", json={"name": "Matti"}, headers=keyed)
    assert first.status_code == 200, first.text
    again = client.post(f"{API}/{cid}/players", json={"name": "Matti"}, headers=keyed)
    assert again.json()["answer"] == first.json()["answer"]  # the same change sent again: answered the same
    said = _refused(client.post(f"{API}/{cid}/players", json={"name": "Liisa"}, headers=keyed), "change-key-reused")
    assert "uuden tunnisteen" in said["fi"], said
    assert [p["name"] for p in client.get(f"{API}/{cid}").json()["players"]] == ["Matti"]


def test_a_markers_entry_without_a_key_or_a_stroke_number_is_refused(client: TestClient) -> None:
    match_id, token = _club_match(client)
    body = {"call": "K FL", "marks": {"pots": [["K", "FL"]], "first_contact": "K", "place": [0.5, 0.3]}}
    said = _refused(
        client.post(f"/api/club/matches/{match_id}/strokes", json=body, headers=token), "entry-unidentified"
    )
    assert "lyönnin numero" in said["fi"], said
    numbered = client.post(f"/api/club/matches/{match_id}/strokes", json={**body, "stroke": 1}, headers=token)
    assert numbered.status_code == 200, numbered.text
    again = client.post(f"/api/club/matches/{match_id}/strokes", json={**body, "stroke": 1}, headers=token)
    assert again.status_code != 200  # stroke 1 is not due again: not recorded twice
