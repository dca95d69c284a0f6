"""Error texts a person reads (issues 17 and 18): a bad call, a request the schemas refuse and a marker's bad entry
say in Finnish and in English what is wrong and what is allowed, and the Finnish has no English in it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kaisa.call import CallError, parse_call
from kaisa.errors import error_text
from kaisa.model import BallId
from kaisa.records.storage import Store, open_store
from kaisa.web import create_app
from kaisa.web.invalid import FIELDS
from tests.web.club_helpers import entry

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ENGLISH = re.compile(
    r"\b(the|is|are|not|does|must|should|input|value|error|field|pocket|ball|rail|jaw|call|request|"
    r"less|greater|than|equal|or|and|of|with|exist|unknown|expected)\b",
    re.IGNORECASE,
)
"""Words of English that a Finnish text never needs (konsti words and ball and pocket codes are not here)."""


def english_in(text: str) -> list[str]:
    return ENGLISH.findall(text)


BAD_CALLS = {
    "K XX": ("illegal-call", ("XX", "HL HR ML MR FL FR")),
    "Q HL": ("call-syntax", ("Q", "W1 W2 R1 R2 K")),
    "": ("call-syntax", ("K FL",)),
    "K HL h": ("call-syntax", ("HL HR ML MR FL FR",)),
    "kyyti R1 kara R2 K FL": ("illegal-call", ("kyyti R1", "kara R2")),
    "kyyti FL": ("call-syntax", ("kyyti",)),
    "R1 K FL": ("call-syntax", ("R1", "K")),
    "K kiss": ("call-syntax", ("kiss",)),
    "K HL/rf FL": ("illegal-call", ("HL/rf", "h lh")),
    "K XL/f FL": ("illegal-call", ("XL",)),
    "K FR/q FL": ("call-syntax", ("h f lh lf rh rf",)),
    "2 h K FL": ("call-syntax", ("2",)),
    "K kiss R1 HL kyyti R2": ("call-syntax", ("HL HR ML MR FL FR",)),
}


@pytest.mark.parametrize("text", list(BAD_CALLS))
def test_a_bad_call_says_in_finnish_and_english_what_is_wrong_and_what_is_allowed(text: str) -> None:
    code, named = BAD_CALLS[text]
    with pytest.raises(CallError) as refused:
        parse_call(text)
    assert refused.value.code == code
    said = error_text(refused.value)
    for word in named:
        assert word in said.fi, said.fi
        assert word in said.en, said.en
    assert said.fi.startswith(refused.value.kind.fi)
    assert said.en.startswith(refused.value.kind.en)
    assert said.fi.endswith(".")
    assert said.en.endswith(".")
    assert not english_in(said.fi), said.fi


def test_a_call_of_ones_own_cue_ball_names_the_balls_that_may_be_called() -> None:
    with pytest.raises(CallError) as refused:
        parse_call("W1 FL").check_shooter(BallId.W1)
    said = error_text(refused.value)
    assert "W1 on oma lyöntipallosi" in said.fi
    assert "W2 R1 R2 K" in said.fi
    assert "W1 is your own cue ball" in said.en
    assert not english_in(said.fi), said.fi


def test_every_request_field_has_a_finnish_and_an_english_name() -> None:
    for name, (fi, en) in FIELDS.items():
        assert fi != en, name
        assert fi, name
        assert not english_in(fi), (name, fi)


# --- over HTTP -------------------------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_store(f"sqlite:///{tmp_path / 'texts.sqlite3'}") as opened:
        yield opened


@pytest.fixture
def app(store: Store) -> FastAPI:
    return create_app(store)


@pytest.fixture
def client(app: FastAPI) -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


def test_a_bad_call_is_answered_with_its_finnish_detail(client: TestClient) -> None:
    answer = client.post("/api/calls/check", json={"call": "K XX", "shooter": "W1"})
    assert answer.status_code == 422
    body = answer.json()
    assert body["code"] == "illegal-call"
    assert body["fi"] == "Säännöt eivät salli tätä maalausta. Pussia XX ei ole; pussit ovat HL HR ML MR FL FR."
    assert body["en"] == "The rules do not allow this call. Pocket XX does not exist; pockets are HL HR ML MR FL FR."


@pytest.mark.parametrize(
    ("path", "body", "fi", "en"),
    [
        (
            "/api/matches",
            {"players": [{"name": "Aino", "kind": "human"}, {"name": "Eero", "kind": "human"}], "seed": 10**20},
            "Pyyntö ei kelpaa. Siemenluku saa olla enintään 4\u00a0611\u00a0686\u00a0018\u00a0427\u00a0387\u00a0904.",
            "The seed: input should be less than or equal to 4611686018427387904",
        ),
        (
            "/api/matches",
            {"players": [{"name": "Aino", "kind": "human"}, {"name": "Eero", "kind": "human"}], "clock": "sand"},
            "Kello on oltava jokin näistä: 'off' tai 'wall'.",
            "The clock: input should be 'off' or 'wall'",
        ),
        (
            "/api/matches",
            {"players": [{"name": "", "kind": "human"}, {"name": "Eero", "kind": "human"}]},
            "Nimi (pelaajat, kohta 1) on liian lyhyt: vähintään 1 merkkiä.",
            "The name",
        ),
        ("/api/calls/check", {"shooter": "W1"}, "Maalaus puuttuu.", "The call: field required"),
        ("/api/calls/check", {"call": "K FL", "shooter": "W1", "colour": 1}, "Kenttä colour ei kuulu", "colour"),
    ],
)
def test_a_request_the_schemas_refuse_names_the_field_in_words_and_what_is_allowed(
    client: TestClient, path: str, body: object, fi: str, en: str
) -> None:
    answer = client.post(path, json=body)
    assert answer.status_code == 422, answer.text
    refused = answer.json()
    assert refused["code"] == "invalid-request"
    assert fi in refused["fi"], refused["fi"]
    assert en in refused["en"], refused["en"]
    assert "body." not in refused["fi"]
    assert not english_in(refused["fi"].replace("'off' tai 'wall'", "")), refused
    assert refused["errors"]  # the fields for programs, as before


def test_the_markers_bad_entry_is_refused_in_finnish_naming_the_field_and_the_pockets(client: TestClient) -> None:
    made = client.post("/api/club/matches", json={"players": ["Aino", "Eero"]}).json()
    match_id, token = made["match"]["id"], {"X-Kaisa-Token": made["token"]}
    placed = client.post(f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token)
    assert placed.status_code == 200, placed.text
    answer = client.post(
        f"/api/club/matches/{match_id}/strokes",
        json={"call": "K FL", "marks": {"pots": [["K", "XX"]], "place": [0.5, 0.3]}},
        headers=token,
    )
    assert answer.status_code == 422, answer.text
    refused = answer.json()
    assert refused["code"] == "invalid-request"
    assert "pussiin menneet pallot" in refused["fi"]
    assert "pussia XX ei ole; pussit ovat HL HR ML MR FL FR" in refused["fi"]
    assert "a pocket is one of HL HR ML MR FL FR, not 'XX'" in refused["en"]
    assert not english_in(refused["fi"]), refused["fi"]
    flag = client.post(
        f"/api/club/matches/{match_id}/strokes",
        json={"call": "K FL", "marks": {"double_hit": "yes", "place": [0.5, 0.3]}},
        headers=token,
    ).json()
    assert "kaksoiskosketus (7d)" in flag["fi"], flag
    assert "kyllä tai ei" in flag["fi"], flag


def _club_match(client: TestClient) -> tuple[int, dict[str, str]]:
    made = client.post("/api/club/matches", json={"players": ["Aino", "Eero"]}).json()
    match_id, token = made["match"]["id"], {"X-Kaisa-Token": made["token"]}
    placed = client.post(f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token)
    assert placed.status_code == 200, placed.text
    return match_id, token


def test_the_markers_refusals_are_sentences_naming_strokes_and_players(client: TestClient) -> None:
    """issue 18: a correction of something that is not a stroke, a correction that would change whose stroke a
    later one is, and a wrong marker's link each say in Finnish what is wrong and what to do, with the stroke
    numbers the marker sees and the players' names."""
    match_id, token = _club_match(client)

    def enter(call: str | None, **marks: object) -> None:
        answer = client.post(
            f"/api/club/matches/{match_id}/strokes", json={"call": call, "marks": marks}, headers=entry(token)
        )
        assert answer.status_code == 200, answer.text

    enter("K FL", pots=[["K", "FL"]], first_contact="K", place=[0.5, 0.3])  # Aino scores and plays on
    enter("R1 HR", first_contact="R1")  # Aino misses: Eero's turn
    enter(None, first_contact="R2")
    url = f"/api/club/matches/{match_id}/strokes"
    nothing = client.put(f"{url}/99", json={"call": None, "marks": {"first_contact": "R1"}}, headers=token).json()
    assert nothing["fi"].startswith("Korjattavaa lyöntiä ei löydy: vain kirjattuja lyöntejä voi korjata"), nothing
    assert "3 kirjattua lyöntiä" in nothing["fi"]
    assert nothing["en"].startswith("There is no such stroke to correct"), nothing
    assert not english_in(nothing["fi"]), nothing["fi"]
    actions = client.get(f"/api/matches/{match_id}/actions").json()
    first = next(a["index"] for a in actions if a["action"]["kind"] == "marked")  # the break, stroke 1
    turned = client.put(
        f"{url}/{first}", json={"call": None, "marks": {"first_contact": "R1", "place": [0.5, 0.3]}}, headers=token
    )
    assert turned.status_code == 409, turned.text
    said = turned.json()
    assert said["fi"] == (
        "Korjauksen jälkeen lyönnin 2 lyöisi Eero (W2), mutta se kirjattiin lyöjälle Aino (W1). "
        "Peru kirjaukset siihen asti tai korjaa sekin."
    ), said
    assert said["en"].startswith("After the correction, stroke 2 would be played by Eero (W2)"), said
    wrong = client.post(url, json={"marks": {}}, headers={"X-Kaisa-Token": "wrong-token-of-some-length"})
    assert wrong.status_code == 403
    assert "kirjuritunniste puuttuu tai on väärä: avaa kirjurin linkki" in wrong.json()["fi"], wrong.json()
