"""Schemathesis against the browser table's OpenAPI schema (``/openapi.json``): no operation answers a server
error (5xx), neither to requests the schema allows nor to the malformed ones schemathesis derives from it.

The app runs over a fresh SQLite file holding matches in every phase (ids 1 to 8, see ``_matches``), and half
of the generated match ids are folded onto them, so that fuzzed strokes, placements and undos reach the game
and not only the 404 of an unknown match. The run is bounded and repeatable: a fixed seed, derandomized
generation, 60 examples per operation (plus schemathesis' boundary cases), no example database.

The spectator streams are left out: they answer as long as the client listens (test_web_club.py reads them).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.config import SchemathesisConfig

from kaisa.model import BallId
from kaisa.records.storage import open_store
from kaisa.table import OFFICIAL
from kaisa.web import create_app
from tests.web.test_web_api import (
    POT,
    SOFT_BREAK,
    STRAIGHT,
    new_match,
    play_state,
    post,
    stored_match,
    to_break_two_people,
    to_break_vs_computer,
    to_place_w2_two_people,
)

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient` is deprecated")

_DIRECTORY = Path(tempfile.mkdtemp(prefix="kaisa-web-schema-"))
STORE = open_store(f"sqlite:///{_DIRECTORY / 'schema.sqlite3'}")
APP = create_app(STORE)


@atexit.register
def _remove_database() -> None:
    STORE.close()
    shutil.rmtree(_DIRECTORY, ignore_errors=True)


STORED_MATCHES = 8
W, L = OFFICIAL.width, OFFICIAL.length

CONFIG = SchemathesisConfig.from_dict(
    {
        "seed": 20250601,
        "generation": {"max-examples": 60, "deterministic": True, "database": "none"},
        "operations": [
            # A valid advise request runs the advisor's search (about a second at the club level, more at
            # master): a handful of examples keeps the run short. The API tests cover the advisor's answers.
            {"include-path": "/api/study/advise", "generation": {"max-examples": 4}},
            {"include-path": "/api/matches/{match_id}/hint", "generation": {"max-examples": 4}},
        ],
    }
)
# The browser table's operations. The club scorekeeping router (tag ``club``) is another surface, with a marker
# token and spectator streams that never end, which a fuzzer cannot call as plain requests.
schema = schemathesis.openapi.from_asgi("/openapi.json", APP, config=CONFIG).exclude(path_regex=r"/stream$")


def _fold(params: dict[str, Any]) -> dict[str, Any]:
    """The same path parameters on one of the stored matches (and one of its first actions)."""
    folded = dict(params)
    if isinstance(folded.get("match_id"), int):
        folded["match_id"] = folded["match_id"] % STORED_MATCHES + 1
    if isinstance(folded.get("index"), int):
        folded["index"] = folded["index"] % 6
    return folded


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> st.SearchStrategy[Any]:
    if not isinstance(path_parameters, dict):
        return st.just(path_parameters)
    return st.sampled_from([path_parameters, _fold(path_parameters)])


CALLS = [None, "K FL", "R1 FR", "R2 HL", "W2 ML", "W1 FR", "kyyti R1 K FL", "K rf FL", "R1 2 HR"]
MARGIN = 0.04  # metres: a ball's centre this far inside the cushions is on the bed


def _on_the_bed(point: Any) -> Any:
    if not (isinstance(point, list) and len(point) == 2 and all(isinstance(v, float | int) for v in point)):
        return point
    return [MARGIN + abs(point[0]) % (W - 2 * MARGIN), MARGIN + abs(point[1]) % (L - 2 * MARGIN)]


def _plausible(value: Any) -> Any:
    """The same body with its points moved onto the bed and its call one that the notation reads, so that more
    of the fuzzed strokes and placements reach the physics and the referee."""
    if isinstance(value, list):
        return [_plausible(v) for v in value]
    if not isinstance(value, dict):
        return value
    out = {k: _plausible(v) for k, v in value.items()}
    for key in ("place", "point"):
        if key in out:
            out[key] = _on_the_bed(out[key])
    if isinstance(out.get("balls"), dict):
        out["balls"] = {ball: _on_the_bed(p) for ball, p in out["balls"].items()}
    if "call" in out and (out["call"] is None or isinstance(out["call"], str)):
        out["call"] = CALLS[len(out["call"] or "") % len(CALLS)]
    return out


@schema.hook
def flatmap_body(context: Any, body: Any) -> st.SearchStrategy[Any]:
    plausible = _plausible(body)
    return st.just(body) if plausible == body else st.sampled_from([body, plausible])


@pytest.fixture(scope="module", autouse=True)
def _matches() -> None:
    """Matches 1 to 8, one in each phase the API distinguishes."""
    from fastapi.testclient import TestClient

    client = TestClient(APP, raise_server_exceptions=False)
    ids = [
        new_match(client),  # 1: a person against the computer, in the lag
        to_place_w2_two_people(client),  # 2: two people, player 2 places W2
        to_break_two_people(client),  # 3: two people, W1 breaks from hand
        to_break_vs_computer(client),  # 4: the person breaks from hand against the computer
        to_break_two_people(client, clock="wall"),  # 5: on the competition clock
        new_match(client, ("baseline", "baseline")),  # 6: the computer against itself, in the lag
    ]
    match_id = to_break_vs_computer(client)  # 7: the computer's turn
    post(client, f"/api/matches/{match_id}/shot", {"call": None, "stroke": SOFT_BREAK})
    ids.append(match_id)
    match_id = stored_match(STORE, play_state(STRAIGHT, scores={BallId.W1: 58, BallId.W2: 31}))  # 8: over
    post(client, f"/api/matches/{match_id}/shot", {"call": "R1 FL", "stroke": POT})
    ids.append(match_id)
    assert ids == list(range(1, STORED_MATCHES + 1))


@schema.parametrize()
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_no_operation_answers_a_server_error(case: Any) -> None:
    case.call_and_validate(checks=[schemathesis.checks.not_a_server_error])


def test_the_schema_covers_every_browser_table_operation() -> None:
    from schemathesis.core.result import Ok

    results = list(schema.get_all_operations())
    assert all(isinstance(result, Ok) for result in results)  # the schema holds no invalid operation
    labels = {result.ok().label for result in results if isinstance(result, Ok)}
    assert labels == {
        "GET /api/table",
        "GET /api/players",
        "POST /api/calls/check",
        "GET /api/matches",
        "POST /api/matches",
        "GET /api/matches/{match_id}",
        "GET /api/matches/{match_id}/actions",
        "GET /api/matches/{match_id}/actions/{index}/animation",
        "POST /api/matches/{match_id}/lag",
        "POST /api/matches/{match_id}/choose",
        "POST /api/matches/{match_id}/place-w2",
        "POST /api/matches/{match_id}/shot",
        "POST /api/matches/{match_id}/computer",
        "POST /api/matches/{match_id}/break",
        "POST /api/matches/{match_id}/undo",
        "POST /api/matches/{match_id}/aim",
        "POST /api/matches/{match_id}/preview",
        "POST /api/matches/{match_id}/hint",
        "POST /api/study/shot",
        "POST /api/study/advise",
        "POST /api/study/aim",
        "POST /api/club/matches",
        "GET /api/club/matches/{match_id}/access",
        "POST /api/club/matches/{match_id}/place-w2",
        "POST /api/club/matches/{match_id}/strokes",
        "PUT /api/club/matches/{match_id}/strokes/{index}",
        "POST /api/club/matches/{match_id}/undo",
        "POST /api/club/matches/{match_id}/lag",
        "POST /api/club/matches/{match_id}/break",
        "POST /api/club/matches/{match_id}/forfeit",
        "GET /api/club/matches/{match_id}/export",
        "GET /api/club/matches/{match_id}",
        "POST /api/club/matches/{match_id}/break-start",
        "POST /api/club/matches/{match_id}/shootout-starter",
        "GET /api/club/matches/{match_id}/scoresheet",
        "GET /api/club/matches/{match_id}/scoresheet.pdf",
        "GET /api/club/matches/{match_id}/marker-qr",
        "GET /api/club/marker-facts",
        "GET /api/club/events/{event}",
        "GET /api/club/events/{event}/results",
        "GET /api/kaavio/competitions",
        "POST /api/kaavio/competitions",
        "POST /api/kaavio/competitions/import",
        "GET /api/kaavio/choices",
        "GET /api/kaavio/ranking",
        "GET /api/kaavio/competitions/{cid}",
        "GET /api/kaavio/competitions/{cid}/director",
        "POST /api/kaavio/competitions/{cid}/players",
        "POST /api/kaavio/competitions/{cid}/players/withdraw",
        "POST /api/kaavio/competitions/{cid}/draw",
        "POST /api/kaavio/competitions/{cid}/games/{number}/start",
        "POST /api/kaavio/competitions/{cid}/games/{number}/result",
        "POST /api/kaavio/competitions/{cid}/pair",
        "POST /api/kaavio/competitions/{cid}/prizes",
        "GET /api/kaavio/competitions/{cid}/kaisakaavio.xml",
        "GET /api/kaavio/competitions/{cid}/scoresheets.pdf",
        "GET /api/kaavio/competitions/{cid}/results.pdf",
        "GET /api/kaavio/competitions/{cid}/results.csv",
        "GET /api/kaavio/competitions/{cid}/placings.csv",
        "GET /api/kaavio/competitions/{cid}/games/{number}/scoresheet",
        "GET /api/kaavio/competitions/{cid}/games/{number}/scoresheet.pdf",
    }
