"""What a server's operator relies on: ``/healthz`` (200, or 503 saying why) and the access log (one readable line
per request, no tokens), on real servers and databases."""

from __future__ import annotations

import re
import sqlite3
import subprocess
from pathlib import Path

import httpx
import pytest

from kaisa.records.storage.migrations import shipped_head
from kaisa.web.access import shown_target
from tests.postgres_server import PostgresUnavailableError, start_server
from tests.web.club_helpers import KAISA, entry, new_match, pot, serve, start_kaisa_play, stop

LINE = re.compile(
    r"(?P<time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (?P<client>\S+) (?P<method>[A-Z]+) (?P<target>\S+) "
    r"(?P<status>\d{3}|-) (?P<ms>\d+\.\d)ms"
)


def test_healthz_is_ok_on_a_current_database_and_503_when_the_schema_is_not(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    with serve(db) as base:
        ok = httpx.get(f"{base}/healthz")
        assert ok.status_code == 200
        assert ok.json() == {
            "status": "ok",
            "code": "ok",
            "detail": "All is well.",
            "fi": "Kaikki kunnossa.",
            "en": "All is well.",
            "revision": shipped_head(),
            "expected": shipped_head(),
        }
        assert ok.headers["x-content-type-options"] == "nosniff"
        with sqlite3.connect(db) as connection:  # a newer kaisa migrated the database under this server
            connection.execute("UPDATE alembic_version SET version_num = '9999'")
        stale = httpx.get(f"{base}/healthz")
        assert stale.status_code == 503
        assert stale.headers["retry-after"] == "2"
        body = stale.json()
        assert body["code"] == "schema-not-current"
        assert body["revision"] == "9999"
        assert "9999" in body["fi"]
        assert "9999" in body["en"]


@pytest.mark.slow
def test_healthz_is_503_when_postgresql_is_down() -> None:
    reason = ""
    try:
        server = start_server()
    except PostgresUnavailableError as error:
        reason = str(error)
    if reason:
        pytest.fail(f"cannot start a PostgreSQL server: {reason}", pytrace=False)
    try:
        process, base = start_kaisa_play(server.create_database())
        try:
            assert httpx.get(f"{base}/healthz", timeout=30).status_code == 200
            server.stop()
            down = httpx.get(f"{base}/healthz", timeout=60)
            assert down.status_code == 503
            assert down.json()["code"] == "database-unreachable"
            assert down.json()["fi"].startswith("Tietokantaan ei saada yhteyttä")
        finally:
            stop(process)
    finally:
        server.stop()


@pytest.mark.slow
def test_access_log_has_one_readable_line_per_request_and_no_tokens(tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    process, base = start_kaisa_play(str(tmp_path / "club.sqlite3"), "--access-log", str(log))
    try:
        with httpx.Client(base_url=base, timeout=30) as client:
            match_id, token = new_match(client)
            assert client.post(f"/api/club/matches/{match_id}/strokes", json=pot(0), headers=entry(token)).is_success
            secret = "Zq8sdf7sdfJH23kjhdsf9x"
            assert client.get(f"/api/matches?token={secret}").status_code == 200
            assert client.get(f"/club/{secret}").status_code == 404
            # not trusted without --trusted-proxy: the log names the connection, not the forged address
            assert client.get("/healthz", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 200
    finally:
        stop(process)
    lines = log.read_text().splitlines()
    parsed = [LINE.fullmatch(line) for line in lines]
    assert all(parsed), lines
    seen = [(m["method"], m["target"], m["status"]) for m in parsed if m]
    assert ("POST", "/api/club/matches", "201") in seen
    assert ("POST", f"/api/club/matches/{match_id}/strokes", "200") in seen
    assert ("GET", "/api/matches?token=…", "200") in seen
    assert ("GET", "/club/…", "404") in seen
    assert {m["client"] for m in parsed if m} == {"127.0.0.1"}
    text = log.read_text()
    assert secret not in text
    assert token["X-Kaisa-Token"] not in text


def test_access_log_targets_hide_secrets_and_stay_one_line() -> None:
    assert shown_target("/api/matches/12/actions", b"offset=0&limit=10") == "/api/matches/12/actions?offset=…&limit=…"
    assert shown_target("/club/abcDEF123ghiJKL456mno", b"") == "/club/…"
    assert shown_target("/a b\nc", b"") == "/a%20b%0Ac"
    assert shown_target("/club", b"%%%") == "/club?%25%25%25=…"
    assert len(shown_target("/" + "x" * 500, b"")) == 201
    assert shown_target("/api/competitions/12/games/3", b"") == "/api/competitions/12/games/3"


def test_club_refuses_a_bad_proxy_address_or_an_unwritable_log_in_one_line(tmp_path: Path) -> None:
    for args, said in (
        (("--trusted-proxy", "caddy"), "--trusted-proxy takes the proxy's IP address"),
        (("--access-log", str(tmp_path / "missing" / "access.log")), "cannot write the access log"),
    ):
        done = subprocess.run(
            [KAISA, "club", "--no-browser", "--port", "0", "--db", str(tmp_path / "c.sqlite3"), *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert said in done.stderr
        assert " / " in done.stderr  # and in Finnish
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
