"""The club's screens in Chromium: the director's card with the marker's QR code (or, on a server phones cannot
reach, how to start one they can) and the club night's scoreboard on a 16:9 TV with four and six tables."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import chromium, docs_images
from tests.web.club_helpers import entry, pot, serve

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


def open_page(browser: Browser, url: str, width: int, height: int, lang: str = "fi-FI") -> Page:
    page = browser.new_context(viewport={"width": width, "height": height}, locale=lang).new_page()
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")
    return page


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def create_on_page(page: Page, names: tuple[str, str]) -> None:
    page.get_by_test_id("name-input-0").fill(names[0])
    page.get_by_test_id("name-input-1").fill(names[1])
    page.get_by_test_id("lag-winner-new-0").check()
    page.get_by_test_id("takes-W1").check()
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("created-title")).to_contain_text(f"{names[0]} – {names[1]}")


# --- the marker's QR code -------------------------------------------------------------------------------------


def test_a_server_phones_cannot_reach_shows_no_qr_code_but_how_to_start_one_they_can(
    tmp_path: Path, browser: Browser
) -> None:
    with serve(tmp_path / "local.sqlite3", bind_host="127.0.0.1") as url:  # `kaisa club`, no --host
        for width, height, lang in ((390, 844, "fi-FI"), (1440, 900, "en-US")):
            page = open_page(browser, url + "/club", width, height, lang)
            create_on_page(page, ("Aino", "Eero"))
            note = page.get_by_test_id("marker-qr-local")
            expect(note).to_be_visible()
            expect(note).to_contain_text("kaisa club --host 0.0.0.0")
            expect(note).to_contain_text("vain tätä konetta" if lang == "fi-FI" else "this machine only")
            assert page.get_by_test_id("marker-qr-svg").count() == 0
            expect(page.get_by_test_id("marker-qr-url")).to_have_text("")
            assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
            shot(page, f"club-qr-local-{width}.png")
            page.context.close()


def test_a_server_on_the_clubs_network_shows_the_qr_code_with_its_address(tmp_path: Path, browser: Browser) -> None:
    with serve(tmp_path / "lan.sqlite3", bind_host="192.168.1.20") as url:  # --host 192.168.1.20
        page = open_page(browser, url + "/club", 390, 844)
        create_on_page(page, ("Aino", "Eero"))
        expect(page.get_by_test_id("marker-qr-svg")).to_be_visible()
        port = url.rsplit(":", 1)[1]
        expect(page.get_by_test_id("marker-qr-url")).to_contain_text(f"http://192.168.1.20:{port}/club#/match/")
        expect(page.get_by_test_id("marker-qr-local")).to_be_hidden()
        page.context.close()


# --- the scoresheet page --------------------------------------------------------------------------------------


def test_the_scoresheet_page_says_the_date_the_breaks_and_the_terms_as_the_pdf_does(
    tmp_path: Path, browser: Browser
) -> None:
    with serve(tmp_path / "sheet.sqlite3") as url:
        made = httpx.post(
            f"{url}/api/club/matches",
            json={"players": ["Aino", "Eero"], "clock": "wall", "event": "Seurailta 3.12.", "table": "3"},
            timeout=30,
        ).json()
        match_id, token = made["match"]["id"], {"X-Kaisa-Token": made["token"]}
        assert httpx.post(
            f"{url}/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token
        ).is_success
        taken = httpx.post(
            f"{url}/api/club/matches/{match_id}/break", json={"cue_ball": "W1", "seconds": 183}, headers=token
        )
        assert taken.is_success, taken.text
        day = made["match"]["updated_at"][:10].split("-")
        page = open_page(browser, f"{url}/club/scoresheet#/match/{match_id}", 390, 844)
        page.get_by_test_id("lang-fi").click()
        expect(page.get_by_test_id("ss-facts")).to_contain_text(f"Päivä: {int(day[2])}.{int(day[1])}.{day[0]}")
        expect(page.get_by_test_id("ss-facts")).to_contain_text("Seurailta: Seurailta 3.12.")
        expect(page.get_by_test_id("ss-table")).to_contain_text("Lyöntivuoro")
        expect(page.get_by_test_id("ss-breaks")).to_have_text("Tauot: Aino (W1) 3:03")
        expect(page.get_by_test_id("ss-totals")).to_contain_text("Lyöntivuorot 0")
        page.get_by_test_id("lang-en").click()
        months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
        expect(page.get_by_test_id("ss-facts")).to_contain_text(
            f"Date: {int(day[2])} {months[int(day[1]) - 1]} {day[0]}"
        )
        expect(page.get_by_test_id("ss-breaks")).to_have_text("Breaks: Aino (W1) 3:03")
        page.context.close()


# --- the club night's scoreboard on a TV ----------------------------------------------------------------------

PLAYERS = [
    ("Matti Virtanen-Korhonen", "Pekka Korhonen"),
    ("Liisa Laine", "Olli Ojala-Hämäläinen"),
    ("Raili Rantanen", "Sami Salonen"),
    ("Anna-Kaisa Lehtinen", "Ville Mäkelä"),
    ("Eero Heikkinen", "Aino Nieminen"),
    ("Juha-Pekka Salminen", "Onni Järvinen"),
]


def club_night(url: str, event: str, tables: int) -> None:
    """``tables`` matches of the club night ``event``, each with W2 placed and the break's stroke (a kaisa)."""
    with httpx.Client(base_url=url, timeout=30) as client:
        for number in range(tables):
            made = client.post(
                "/api/club/matches",
                json={"players": list(PLAYERS[number]), "event": event, "table": str(number + 1), "clock": "wall"},
            ).json()
            match_id, token = made["match"]["id"], {"X-Kaisa-Token": made["token"]}
            assert client.post(
                f"/api/club/matches/{match_id}/place-w2", json={"point": [0.71, 2.6]}, headers=token
            ).is_success
            if number % 2 == 0:
                assert client.post(
                    f"/api/club/matches/{match_id}/strokes", json=pot(0), headers=entry(token)
                ).is_success


def check_scoreboard(page: Page, tables: int, fits: bool) -> None:
    expect(page.get_by_test_id("sb-table")).to_have_count(tables)
    expect(page.get_by_test_id("sb-headline").first).to_be_visible()
    if fits:  # a TV cannot scroll: every table on the screen
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight"), page.evaluate(
            "[document.documentElement.scrollHeight, innerHeight]"
        )
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    cut = page.evaluate(
        """[...document.querySelectorAll('[data-testid=sb-table] .name')]
             .filter((n) => n.scrollWidth > n.clientWidth || n.scrollHeight > n.clientHeight + 1)
             .map((n) => n.textContent)"""
    )
    assert cut == [], cut  # every name whole: wrapped, never cut
    for number in range(tables):  # the table's number once in each card, in its title
        card = page.get_by_test_id("sb-table").nth(number)
        text = card.inner_text()
        assert text.count(f"Pöytä {number + 1}") == 1, text
        for name in PLAYERS[number]:
            assert name in card.get_by_test_id("sb-table-title").inner_text()
            assert name.replace("-", "") in text.replace("\n", "").replace("-", "").replace("\u00ad", "")


@pytest.mark.parametrize("tables", [4, 6])
def test_the_club_nights_scoreboard_fits_a_16_9_tv_and_a_phone_with_every_name_whole(
    tmp_path: Path, browser: Browser, tables: int
) -> None:
    event = f"Seurailta {tables}"
    with serve(tmp_path / "tv.sqlite3") as url:
        club_night(url, event, tables)
        tv = open_page(browser, f"{url}/scoreboard#/event/{event}", 1920, 1080)
        check_scoreboard(tv, tables, fits=True)
        if tables == 4:
            tv.screenshot(path=str(docs_images() / "club-scoreboard-tv.png"))
        shot(tv, f"club-scoreboard-tv-{tables}.png")
        tv.context.close()
        phone = open_page(browser, f"{url}/scoreboard#/event/{event}", 390, 844)
        check_scoreboard(phone, tables, fits=False)
        shot(phone, f"club-scoreboard-phone-{tables}.png")
        phone.context.close()
