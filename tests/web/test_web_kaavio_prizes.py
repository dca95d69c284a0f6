"""KAAVIO 10 on the web API: the prize split's settings (at creation and by the director later) and the ranking
series' bonus options."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from kaisa.competition.placings import prize_split
from kaisa.records.storage import open_store
from kaisa.web import create_app
from tests.web.test_web_kaavio import API, NAMES, Night, finish

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = open_store(f"sqlite:///{tmp_path / 'kaavio.sqlite3'}")
    with TestClient(create_app(store, close_store=True)) as c:
        yield c


def test_10_the_prize_split_uses_the_competitions_shares_weight_and_paid_places(client: TestClient) -> None:
    prizes = {"sbil": {"amount": 10, "percent": True}, "club": {"amount": 20}, "winner_weight": 50, "paid_places": 3}
    night = Night(client, entry_fee=20, prizes=prizes)
    night.register(NAMES[:8])
    night.ok("/draw", {"seed": 3})
    view = finish(night, 3)
    # 8 x 20 = 160 €; SBiL 10 % = 16 € rounded up to 20 €; the club 20 €: 120 € to split
    assert view["prize_money"] == {"entry_fees": 160, "sbil": 20, "club": 20, "pot": 120}
    places = [p["place"] for p in view["placings"]["points"]]
    assert [p["amount"] for p in view["prizes"]] == prize_split(120, places, 3, 0.5)
    assert sum(p["amount"] for p in view["prizes"]) == 120
    assert view["settings"]["prizes"]["sbil"] == {"amount": 10, "percent": True}

    # the director changes the split after the night: no shares, the winner weighted more, 4 paid places
    changed = night.ok("/prizes", {"winner_weight": 80, "paid_places": 4})["competition"]
    assert changed["prize_money"] == {"entry_fees": 160, "sbil": 0, "club": 0, "pot": 160}
    assert [p["amount"] for p in changed["prizes"]] == prize_split(160, places, 4, 0.8)
    assert len(changed["prizes"]) >= 4
    fee = night.ok("/prizes", {"entry_fee": 5, "club": {"amount": 50, "percent": True}})["competition"]
    assert fee["prize_money"] == {"entry_fees": 40, "sbil": 0, "club": 20, "pot": 20}


def test_10_prize_settings_are_checked_and_need_the_directors_token(client: TestClient) -> None:
    night = Night(client, entry_fee=10)
    for bad in ({"sbil": {"amount": 150, "percent": True}}, {"winner_weight": 101}, {"paid_places": 0}):
        answer = night.post("/prizes", bad)
        assert answer.status_code in (400, 422), answer.text
        assert answer.json()["fi"]
    assert night.post("/prizes", {"paid_places": 2}, token=None).status_code == 403
    made = client.post(API, json={"name": "x", "tables": ["1"], "prizes": {"club": {"amount": 101, "percent": True}}})
    assert made.status_code in (400, 422)


def test_10_ranking_bonus_options_on_the_api(client: TestClient) -> None:
    views: list[dict[str, Any]] = []
    for i, date in enumerate(("2026-11-05", "2026-12-03")):
        night = Night(client, name=f"Viikkokisa {i}", date=date)
        night.register(NAMES[:6])
        night.ok("/draw", {"seed": i})
        views.append(finish(night, i))
    plain = {r["name"]: r["points"] for r in client.get("/api/kaavio/ranking").json()["rows"]}
    bonus = {r["name"]: r["points"] for r in client.get("/api/kaavio/ranking", params={"beat_1": 7}).json()["rows"]}
    # November's winner tops the series going into December: a December win over him is worth 7 more
    nov = {p["name"]: p for p in views[0]["placings"]["points"]}
    first = min(nov, key=lambda n: (nov[n]["place"], n))
    tied_first = [n for n in nov if nov[n]["place"] == 1]
    assert tied_first == [first]
    dec = views[1]
    number = {p["name"]: p["number"] for p in dec["players"]}
    wins_over_first: dict[str, int] = {}
    for g in dec["games"]:
        involved = number[first] in (g["player1"], g["player2"])
        if g["player2"] is not None and involved and g["winner"] not in (None, number[first]):
            winner = next(n for n, x in number.items() if x == g["winner"])
            wins_over_first[winner] = wins_over_first.get(winner, 0) + 1
    assert {n: bonus[n] - plain[n] for n in plain} == {n: 7 * wins_over_first.get(n, 0) for n in plain}
    assert client.get("/api/kaavio/ranking", params={"beat_1": -1}).status_code == 422
