"""The marker's vocabulary as the API publishes it (the page builds its yes/no questions from it), and a stroke
entered for another stroke or another player than the one due (an entry a phone kept while offline) refused with
a coded Finnish and English 409, while a repeat of a recorded key still gets the first answer."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx
import pytest

from kaisa.referee.marker import FLAG_QUESTIONS, MarkerFacts, Marks
from tests.web.club_helpers import actions, keyed, new_match, pot, serve

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    with serve(tmp_path / "club.sqlite3") as url:
        yield url


def test_every_yes_no_fact_of_the_vocabulary_is_asked_once_with_its_clause_in_finnish_and_english() -> None:
    flags = {f.name for f in fields(MarkerFacts) if f.type in ("bool", bool)}
    asked = [q.name for q in FLAG_QUESTIONS]
    assert len(asked) == len(set(asked))
    # called_as_called is asked with the call (its yes/no), every other flag in the rare events
    assert set(asked) == flags - {"called_as_called"}
    for q in FLAG_QUESTIONS:
        assert q.text.fi.endswith(")"), q
        assert q.text.en.endswith(")"), q
        assert q.clause in q.text.fi, q
        assert q.clause in q.text.en, q
    section_10 = {"double_hit", "swapped_by_referee", "swap_expired", "stopped_balls", "cannot_strike_away"}
    assert section_10 | {"setup_broken"} <= set(asked)


def test_the_api_publishes_the_vocabulary_the_page_builds_its_form_from(server: str) -> None:
    published = httpx.get(f"{server}/api/club/marker-facts", timeout=30)
    assert published.status_code == 200, published.text
    data = published.json()
    assert data["fields"] == sorted(Marks.field_names())
    assert [f["name"] for f in data["flags"]] == [q.name for q in FLAG_QUESTIONS]
    double = next(f for f in data["flags"] if f["name"] == "double_hit")
    assert double == {
        "name": "double_hit",
        "clause": "7d",
        "fi": "Kaksoiskosketus: kepin kärki osui lyöntipalloon kahdesti (7d)",
        "en": "Double hit: the cue tip struck the cue ball twice (7d)",
    }


def _stroke(body: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {**body, **extra}


def test_a_stroke_entered_for_another_stroke_number_is_refused_and_a_repeat_gets_the_first_answer(
    server: str,
) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client)
        path = f"/api/club/matches/{match_id}/strokes"
        first = keyed(token, uuid.uuid4().hex)
        answered = client.post(path, json=_stroke(pot(0), stroke=1, shooter="W1"), headers=first)
        assert answered.status_code == 200, answered.text
        assert actions(client, match_id) == 4
        # the phone kept a second entry for stroke 1 (made against the match before stroke 1 was recorded)
        late = client.post(path, json=_stroke(pot(1), stroke=1, shooter="W1"), headers=keyed(token, uuid.uuid4().hex))
        assert late.status_code == 409, late.text
        refusal = late.json()
        assert refusal["code"] == "stroke-not-due"
        assert "lyönnille 1" in refusal["fi"]
        assert "vuorossa on lyönti 2" in refusal["fi"]
        assert "stroke 1" in refusal["en"]
        assert "stroke 2 is due" in refusal["en"]
        assert actions(client, match_id) == 4  # nothing recorded
        # the first entry's key sent again: its first answer, although stroke 1 is no longer due
        again = client.post(path, json=_stroke(pot(0), stroke=1, shooter="W1"), headers=first)
        assert again.status_code == 200, again.text
        assert again.json() == answered.json()
        assert actions(client, match_id) == 4
        # the number due is accepted; a number ahead of it is refused too
        ahead = client.post(path, json=_stroke(pot(1), stroke=3), headers=keyed(token, uuid.uuid4().hex))
        assert ahead.status_code == 409
        assert ahead.json()["code"] == "stroke-not-due"
        due = client.post(path, json=_stroke(pot(1), stroke=2, shooter="W1"), headers=keyed(token, uuid.uuid4().hex))
        assert due.status_code == 200, due.text
        assert actions(client, match_id) == 5


def test_a_stroke_entered_for_the_other_player_is_refused_with_both_names(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        match_id, token = new_match(client)
        path = f"/api/club/matches/{match_id}/strokes"
        wrong = client.post(path, json=_stroke(pot(0), stroke=1, shooter="W2"), headers=keyed(token, uuid.uuid4().hex))
        assert wrong.status_code == 409, wrong.text
        refusal = wrong.json()
        assert refusal["code"] == "stroke-other-player"
        assert "Lyönti 1 on pelaajan Aino (W1) lyönti" in refusal["fi"]
        assert "pelaajalle Eero (W2)" in refusal["fi"]
        assert "stroke 1 is Aino's (W1), but it was entered as Eero's (W2)" in refusal["en"]
        assert actions(client, match_id) == 3
        # without the precondition (an older page, a script) the entry is ruled as before
        plain = client.post(path, json=pot(0), headers=keyed(token, uuid.uuid4().hex))
        assert plain.status_code == 200, plain.text
