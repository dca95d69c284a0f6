"""The director's Rahanjako card in Chromium (KAAVIO 10): after the night he sets SBiL's share as a percentage and
the club's in euros and the paid places, saves, and the placings show each paid place's prize and the pot's sum."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import expect

from kaisa.competition.placings import prize_split
from tests.browser import chromium
from tests.postgres_server import free_port
from tests.web.test_web_club_e2e import Server

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

API = "/api/kaavio/competitions"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "kaavio.sqlite3", free_port())
    s.start()
    yield s
    s.stop()


@pytest.mark.parametrize("size", [(390, 844), (1440, 900)])
def test_10_the_director_sets_the_prize_split_on_his_page(server: Server, size: tuple[int, int]) -> None:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        made = client.post(API, json={"name": "Viikkokisa", "tables": ["1", "2"], "entry_fee": 10}).json()
        cid, headers = made["id"], {"X-Kaisa-Token": made["token"]}
        for i in range(8):
            assert client.post(f"{API}/{cid}/players", json={"name": f"Pelaaja {i + 1}"}, headers=headers).is_success
        view = client.post(f"{API}/{cid}/draw", json={"seed": 2}, headers=headers).json()["competition"]
        rng = random.Random(2)
        while not view["finished"]:
            game = next(g for g in view["games"] if g["state"] == "ready")
            typed = ["60", str(rng.randrange(60))]
            rng.shuffle(typed)
            answer = client.post(
                f"{API}/{cid}/games/{game['number']}/result",
                json={"points1": typed[0], "points2": typed[1]},
                headers=headers,
            )
            view = answer.json()["competition"]
    places = [p["place"] for p in view["placings"]["points"]]
    with chromium() as browser:
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(f"{server.url}/kaavio#/director/{cid}/{made['token']}")
        page.wait_for_selector("body[data-ready=true]")
        card = page.get_by_test_id("d-prizes-card")
        card.locator("summary").click()
        expect(page.get_by_test_id("d-fee")).to_have_value("10")
        page.get_by_test_id("d-sbil").fill("10")
        page.get_by_test_id("d-sbil-unit").select_option("pct")
        page.get_by_test_id("d-club-share").fill("5")
        page.get_by_test_id("d-paid").fill("2")
        save = page.get_by_test_id("d-prizes-save")
        expect(save).to_be_enabled()
        save.click()
        # 8 x 10 = 80 €; SBiL 10 % = 8 €; the club 5 €: 67 € over 2 places
        expect(page.get_by_test_id("prize-money")).to_have_text(
            "Osallistumismaksut 80 € − SBiL:n osuus 8 € − seuran osuus 5 € = jaettavana 67 €"
        )
        amounts = prize_split(67, places, 2, 0.5)
        prizes = page.get_by_test_id("d-final").get_by_test_id("prize")
        for i, amount in enumerate(amounts):
            expect(prizes.nth(i)).to_have_text(f"{amount} €")
        expect(prizes.nth(len(amounts))).to_have_text("")
        assert page.evaluate("() => document.documentElement.scrollWidth - innerWidth") <= 0
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        expect(page.get_by_test_id("d-sbil-unit")).to_have_value("pct")
        expect(page.get_by_test_id("d-paid")).to_have_value("2")
