"""The HTTP hygiene bugs of issue 16, each by name, against the real app over a real SQLite file: the 500 on a
401-digit rule option, cross-origin body-less POSTs, DNS rebinding, security headers, a locked database,
lax coercion, NUL in names, and the one error shape ``{detail, code, fi, en, errors?}``.
(The whole API is fuzzed by schemathesis in tests/web/test_web_schema.py.)"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kaisa.records.storage import open_store
from kaisa.web import create_app
from kaisa.web.security import HostGuard

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient` is deprecated")

HUGE_GAP = int("9" * 401)
PLAYERS = [{"name": "Aino", "kind": "human"}, {"name": "Eero", "kind": "human"}]


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "k.sqlite3"


@pytest.fixture
def client(database: Path) -> Iterator[TestClient]:
    store = open_store(f"sqlite:///{database}")
    with TestClient(create_app(store, close_store=True), raise_server_exceptions=False) as test_client:
        yield test_client


def error_shape(answer: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    assert {"detail", "code", "fi", "en"} <= set(body), body
    assert all(isinstance(body[k], str) and body[k] for k in ("detail", "code", "fi", "en"))
    if code is not None:
        assert body["code"] == code
    return body


def test_a_401_digit_frozen_gap_is_a_422_not_a_500(client: TestClient) -> None:
    answer = client.post("/api/matches", json={"players": PLAYERS, "options": {"frozen_gap": HUGE_GAP}})
    error_shape(answer, 422)
    club = client.post("/api/club/matches", json={"players": ["Aino", "Eero"], "options": {"frozen_gap": HUGE_GAP}})
    assert club.status_code == 422, club.text


def test_a_cross_origin_bodiless_post_is_refused(client: TestClient) -> None:
    match_id = client.post("/api/matches", json={"players": PLAYERS}).json()["id"]
    evil = client.post(f"/api/matches/{match_id}/undo", headers={"Origin": "http://evil.example"})
    error_shape(evil, 403, "cross-origin")
    fetch = client.post(f"/api/matches/{match_id}/undo", headers={"Sec-Fetch-Site": "cross-site"})
    error_shape(fetch, 403, "cross-origin")
    same = client.post(f"/api/matches/{match_id}/undo", headers={"Origin": "http://testserver"})
    assert same.status_code != 403  # the page's own request goes through (here: nothing to undo yet)
    assert client.get("/api/matches", headers={"Origin": "http://evil.example"}).status_code == 200  # reads


def test_every_answer_has_security_headers(client: TestClient) -> None:
    for answer in (client.get("/"), client.get("/api/matches"), client.get("/api/matches/999")):
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_every_answer_carries_the_servers_clock_in_milliseconds(client: TestClient) -> None:
    """The club clock corrects for the phone's clock by it (the Date header has whole seconds, up to 2 s late)."""
    before = time.time() * 1000
    answers = (client.get("/"), client.get("/api/matches"), client.get("/api/matches/999"))
    after = time.time() * 1000
    for answer in answers:
        assert before - 1 <= int(answer.headers["x-kaisa-time"]) <= after + 1


def test_dns_rebinding_host_names_are_refused(database: Path) -> None:
    store = open_store(f"sqlite:///{database}")
    guarded = HostGuard(create_app(store, close_store=True), ["kaisa.club.lan"])
    with TestClient(guarded, base_url="http://127.0.0.1:8000", raise_server_exceptions=False) as client:
        assert client.get("/api/matches").status_code == 200
        for good in ("localhost:8000", "192.168.1.10:8000", "[::1]:8000", "kaisa.club.lan"):
            assert client.get("/api/matches", headers={"Host": good}).status_code == 200, good
        rebound = client.get("/api/matches", headers={"Host": "evil.example:8000"})
        error_shape(rebound, 400, "bad-host")


def test_a_locked_database_answers_503_with_retry_after(client: TestClient, database: Path) -> None:
    locker = sqlite3.connect(database, timeout=0)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        answer = client.post("/api/matches", json={"players": PLAYERS})  # a write waits, then gives up
    finally:
        locker.rollback()
        locker.close()
    body = error_shape(answer, 503, "database-unavailable")
    assert int(answer.headers["retry-after"]) > 0
    assert "not available" in body["en"]
    assert "database" not in body["fi"]  # Finnish, no English fragments


def test_lax_coercion_is_refused(client: TestClient) -> None:
    assert client.post("/api/matches", json={"players": PLAYERS}).json()["id"] == 1
    error_shape(client.get("/api/matches/1.0"), 422, "invalid-request")  # not read as match 1
    assert client.get("/api/matches/true").status_code in (404, 422)
    study = {
        "position": {"balls": {"W1": [False, 0.5], "K": [0.71, 1.42]}},
        "call": "K FL",
        "stroke": {"ball": "W1", "speed": 2.0, "direction": 90.0},
    }
    answer = client.post("/api/study/shot", json=study)
    assert answer.status_code == 422, answer.text


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/matches", {"players": PLAYERS, "seed": True}, "seed"),
        ("/api/matches", {"players": PLAYERS, "seed": 1.0}, "seed"),
        ("/api/matches", {"players": PLAYERS, "seed": "3"}, "seed"),
        ("/api/study/advise", {"position": {"balls": {"W1": [0.5, 0.5], "K": [0.71, 1.42]}}, "limit": True}, "limit"),
        ("/api/kaavio/competitions", {"name": "Kerhoilta", "target": True}, "target"),
    ],
)
def test_a_number_is_a_json_number_never_true_or_text(
    client: TestClient, path: str, body: dict[str, object], field: str
) -> None:
    """Pydantic's lax mode took ``true`` as 1 and ``1.0`` as a whole number (``"seed": true`` made a match)."""
    answer = client.post(path, json=body)
    error_shape(answer, 422, "invalid-request")
    assert any(e["loc"][-1] == field for e in answer.json()["errors"]), answer.text


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ("[" * 100_000, 400, "unreadable-body"),  # deeper than the JSON reader goes
        ('{"players": ', 422, "invalid-request"),  # cut short: FastAPI reads it as a JSON error
    ],
)
def test_an_unreadable_body_is_refused_in_the_one_error_shape(
    client: TestClient, body: str, status: int, code: str
) -> None:
    answer = client.post("/api/matches", content=body, headers={"content-type": "application/json"})
    error_shape(answer, status, code)


def test_an_unknown_address_and_a_wrong_method_are_refused_in_the_one_error_shape(client: TestClient) -> None:
    error_shape(client.get("/api/nothing-here"), 404, "not-found")
    error_shape(client.delete("/api/table"), 405, "method-not-allowed")


def test_nul_in_a_name_is_refused_everywhere(client: TestClient) -> None:
    players = [{"name": "Ai\x00no", "kind": "human"}, PLAYERS[1]]
    error_shape(client.post("/api/matches", json={"players": players}), 422)
    club = client.post("/api/club/matches", json={"players": ["Ai\x00no", "Eero"]})
    assert club.status_code == 422, club.text


def test_the_openapi_schema_documents_every_answer(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    undo = schema["paths"]["/api/matches/{match_id}/undo"]["post"]["responses"]
    assert {"400", "403", "404", "409", "422", "503"} <= set(undo)
    error = schema["components"]["schemas"]["ErrorOut"]["properties"]
    assert {"detail", "code", "fi", "en", "errors"} <= set(error)
