"""A competition night end to end (issue 28), in a real Chromium against a real server: 9 players on three tables
to 20 points, two markers' phones and the director. Three starts of one game at once make one club match; a marker
ends a game on the phone and the page closes with the game's pöytäkirja; the director's result for another game
closes that game's phone at once; a correction after the end reaches the pöytäkirja; at the end of the evening the
club night's scoreboard and the kaavio TV fit a 1920x1080 screen, each game once."""

from __future__ import annotations

import threading
import urllib.parse
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.web.test_web_club_e2e import ARTIFACTS, Pages, Server, browser, goto, live, pages  # noqa: F401
from tests.web.test_web_club_taps_e2e import Marker, stroke
from tests.web.test_web_kaavio import API, NAMES

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]
NINE = [*NAMES[:8], "Törmänen Eeva-Liisa"]


class Director:
    """The director's changes through the API (the director's page is tested in test_web_kaavio_e2e.py)."""

    def __init__(self, server: Server) -> None:
        self.url = server.url
        made = httpx.post(
            f"{server.url}{API}",
            json={
                "name": "Viikkokisa 5.12.",
                "date": "2026-12-05",
                "club": "KS",
                "tables": ["1", "2", "3"],
                "target": 20,
            },
        )
        assert made.status_code == 201, made.text
        self.id, self.token = made.json()["id"], made.json()["token"]

    def post(self, path: str, body: Any) -> dict[str, Any]:
        answer = httpx.post(f"{self.url}{API}/{self.id}{path}", json=body, headers={"X-Kaisa-Token": self.token})
        assert answer.status_code == 200, answer.text
        out: dict[str, Any] = answer.json()
        return out

    def view(self) -> dict[str, Any]:
        out: dict[str, Any] = httpx.get(f"{self.url}{API}/{self.id}").json()
        return out


def no_scroll(page: Page, what: str) -> None:
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight, innerWidth, innerHeight]"
    )
    assert sizes[0] <= sizes[2], f"{what} scrolls sideways: {sizes}"
    assert sizes[1] <= sizes[3], f"{what} scrolls: {sizes}"


def test_a_competition_night_with_two_markers_and_a_director(live: Server, pages: Pages) -> None:  # noqa: F811
    director = Director(live)
    for name in NINE:
        director.post("/players", {"name": name, "club": "KS"})
    director.post("/draw", {"seed": 5})
    # three starts of game 3 at once (two directors' pages and a double tap): one club match, named by every answer
    barrier = threading.Barrier(3)
    answers: list[dict[str, Any]] = []

    def start_3() -> None:
        barrier.wait(timeout=30)
        answers.append(director.post("/games/3/start", {"table": "3"})["answer"])

    threads = [threading.Thread(target=start_3) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len({a["match"] for a in answers}) == 1
    assert len(answers) == 3
    one = director.post("/games/1/start", {"table": "1"})["answer"]
    two = director.post("/games/2/start", {"table": "2"})["answer"]
    assert len(httpx.get(f"{live.url}/api/matches").json()) == 3

    # phone A: game 1 to the end, an ordinary stroke in three taps
    phone_a = pages.open(390, 844, touch=True)
    goto(phone_a, f"{live.url}{one['marker_url']}")
    match_a = one["match"]
    assert live.call(
        "POST", f"/api/club/matches/{match_a}/place-w2", {"point": [0.71, 2.6]}, one["marker_url"].split("/")[-1]
    ).is_success
    plan = [(True, True), (True, False), (True, False), (True, False)]  # 6 + 6 + 6 + 6: over 20
    for n, (pot, from_hand) in enumerate(plan, start=1):
        expect(phone_a.get_by_test_id("quick")).to_be_visible()
        stroke(Marker(phone_a), pot=pot, from_hand=from_hand)
        expect(phone_a.get_by_test_id("strokes")).to_have_attribute("data-count", str(n))
    expect(phone_a.get_by_test_id("decided-text")).to_contain_text("Game 1 ended on this page")
    expect(phone_a.get_by_test_id("quick")).to_be_hidden()
    expect(phone_a.get_by_test_id("undo-last")).to_be_hidden()
    sheet_a = phone_a.get_by_test_id("decided-sheet").get_attribute("href")
    assert sheet_a == f"/club/scoresheet#/kaavio/{director.id}/1"
    game_1 = next(g for g in director.view()["games"] if g["number"] == 1)
    assert game_1["state"] == "played"

    # phone B: the director types game 2's result meanwhile; the phone says so at once and takes no more entries
    phone_b = pages.open(360, 740, touch=True)
    goto(phone_b, f"{live.url}{two['marker_url']}")
    director.post("/games/2/result", {"points1": "20", "points2": "14"})
    expect(phone_b.get_by_test_id("decided-text")).to_contain_text("The director has recorded game 2", timeout=15_000)
    expect(phone_b.get_by_test_id("decided-text")).to_contain_text("20 – 14")
    expect(phone_b.get_by_test_id("entry")).to_be_hidden()
    expect(phone_b.get_by_test_id("place-panel")).to_be_hidden()
    # the game's own scoreboard shows the director's result, not the 0-0 of the strokes entered (none)
    board = pages.open(1440, 900)
    goto(board, f"{live.url}/scoreboard#/match/{two['match']}")
    expect(board.get_by_test_id("result-by-director")).to_contain_text("20–14")
    expect(board.get_by_test_id("score-0")).to_have_text("20")
    expect(board.get_by_test_id("score-1")).to_have_text("14")

    # a correction after the end goes through the director, and the pöytäkirja follows
    loser = "points2" if game_1["points1"] == "20" else "points1"
    fixed = {"points1": game_1["points1"], "points2": game_1["points2"], loser: "3"}
    director.post("/games/1/result", fixed)
    sheet = pages.open(390, 844)
    goto(sheet, f"{live.url}{sheet_a}")
    expect(sheet.get_by_test_id("ss-title")).to_have_text("Scoresheet · Game 1 · Round 1")
    expect(sheet.get_by_test_id("ss-result")).to_contain_text(f"{fixed['points1']} – {fixed['points2']}")
    expect(sheet.get_by_test_id("ss-result")).to_contain_text("recorded by the director")
    no_scroll_sideways = sheet.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert no_scroll_sideways <= 0

    # the rest of the evening: each game started with a marker and typed by the director
    for _ in range(40):
        view = director.view()
        if view["finished"]:
            break
        for g in [g for g in view["games"] if g["state"] == "running"]:
            director.post(f"/games/{g['number']}/result", {"points1": "20", "points2": str(g["number"] % 20)})
        free = [x["table"] for x in director.view()["tables"] if x["game"] is None]
        for g, table in zip([g for g in director.view()["games"] if g["state"] == "ready"], free, strict=False):
            director.post(f"/games/{g['number']}/start", {"table": table})
    view = director.view()
    assert view["finished"]
    started = {g["match_id"] for g in view["games"] if g["match_id"]}

    # the hall's screens at 1920x1080: each game once, none "in progress" at 0-0, nothing scrolls
    label = urllib.parse.quote(f"Viikkokisa 5.12. · kaavio {director.id}")
    board = pages.open(1920, 1080)
    goto(board, f"{live.url}/scoreboard#/event/{label}")
    expect(board.get_by_test_id("sb-done").first).to_be_visible()
    no_scroll(board, "the club night's scoreboard")
    assert board.get_by_test_id("sb-table").count() == 0  # every game typed by the director: none in progress
    shown = board.eval_on_selector_all(
        "[data-testid=sb-done], [data-testid=sb-table]", "(items) => items.map((i) => i.dataset.matchId)"
    )
    assert len(shown) == len(set(shown))
    assert set(shown) <= started
    more = board.get_by_test_id("sb-done-more")
    hidden = int(more.inner_text().split()[1]) if more.count() else 0
    assert len(shown) + hidden == len(started)
    ARTIFACTS.mkdir(exist_ok=True)
    board.screenshot(path=str(ARTIFACTS / "night-scoreboard-1920x1080.png"))
    tv = pages.open(1920, 1080)
    goto(tv, f"{live.url}/kaavio#/tv/{director.id}")
    expect(tv.get_by_test_id("placings")).to_be_visible()
    no_scroll(tv, "the TV")
    assert tv.get_by_test_id("placing-mode").count() == 0
    size = tv.eval_on_selector("[data-testid=placings] td", "(e) => parseFloat(getComputedStyle(e).fontSize)")
    assert size >= 24, f"the TV's placings are in {size} px type"
    tv.screenshot(path=str(ARTIFACTS / "night-tv-1920x1080.png"))


def test_a_phone_refused_for_a_stroke_another_phone_entered_shows_the_stroke_due_at_once(
    live: Server,  # noqa: F811
    pages: Pages,  # noqa: F811
) -> None:
    """Two phones mark one match; the second enters stroke 1 first. The first phone's entry for stroke 1 is refused
    (stroke-not-due), and the phone shows stroke 2 due at once: its stream is cut here, so only the refusal can
    have told it."""
    match_id, token = live.new_match(("Aino", "Eero"))
    first = pages.open(390, 844, touch=True)
    first.route("**/stream", lambda route: route.abort())
    goto(first, f"{live.url}/club#/match/{match_id}/{token}")
    expect(first.get_by_test_id("quick-title")).to_have_text("Stroke 1: Aino (W1)")
    second = pages.open(390, 844, touch=True)
    goto(second, f"{live.url}/club#/match/{match_id}/{token}")
    stroke(Marker(second), pot=True, from_hand=True)
    expect(second.get_by_test_id("strokes")).to_have_attribute("data-count", "1")
    stroke(Marker(first), pot=True, from_hand=True)
    expect(first.get_by_test_id("message-text")).to_contain_text("stroke 2 is due")
    expect(first.get_by_test_id("quick-title")).to_have_text("Stroke 2: Aino (W1)")
    expect(first.get_by_test_id("strokes")).to_have_attribute("data-count", "1")
    assert live.view(match_id)["strokes"] == 1


SMALL = """() => [...document.querySelectorAll('a, button, select, summary, input:not([type=checkbox]):not([type=radio])')]
  .filter((e) => e.offsetParent !== null && !e.closest('dialog:not([open])'))
  .map((e) => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width > 0 && (r.height < 44 || r.width < 44))
  .map(([e, r]) => `${e.dataset.testid || e.id || e.textContent.trim().slice(0, 20)} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
"""The visible links, buttons and fields smaller than a fingertip (44 px) either way."""


def test_the_directors_page_on_a_phone_and_a_wrong_directors_link(live: Server, pages: Pages) -> None:  # noqa: F811
    director = Director(live)
    page = pages.open(390, 844, touch=True)
    goto(page, f"{live.url}/kaavio#/director/{director.id}/{director.token}")
    # each player's own club: the form forgets the last one typed
    for name, club in zip(NINE[:4], ["KS", "PVK", "", "TBK"], strict=True):
        page.get_by_test_id("player-name").fill(name)
        page.get_by_test_id("player-club").fill(club)
        page.get_by_test_id("player-name").press("Enter")
        # the form is cleared when the server has answered: the name (never empty when sent) says so; the club
        # alone would pass at once for a player without one, and the next fill would race the answer
        expect(page.get_by_test_id("player-name")).to_have_value("", timeout=30_000)
        expect(page.get_by_test_id("player-club")).to_have_value("")
    clubs = {p["name"]: p["club"] for p in director.view()["players"]}
    assert clubs == dict(zip(NINE[:4], ["KS", "PVK", "", "TBK"], strict=True))
    assert page.evaluate(SMALL) == []
    director.post("/draw", {"seed": 1})
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    # a game started without a marker does not make the next one start without
    page.get_by_test_id("start-1").click()
    page.get_by_test_id("start-marker").uncheck()
    page.get_by_test_id("start-go").click()
    expect(page.locator("#d-running [data-testid=game-1]")).to_be_visible()  # the page has the start back
    page.get_by_test_id("start-2").click()
    expect(page.get_by_test_id("start-marker")).to_be_checked()
    page.get_by_test_id("start-go").click()
    expect(page.get_by_test_id("marker-2")).to_be_visible()
    assert page.evaluate(SMALL) == []
    # the pöytäkirja of each running game is a tap away
    expect(page.get_by_test_id("sheet-2")).to_have_attribute("href", f"/club/scoresheet#/kaavio/{director.id}/2")
    # a director's link with a wrong token: the bracket as anyone sees it, with the reason, and no director's buttons
    wrong = pages.open(390, 844, touch=True)
    goto(wrong, f"{live.url}/kaavio#/director/{director.id}/not-the-directors-token")
    expect(wrong.get_by_test_id("message")).to_contain_text("ei kelpaa tähän kilpailuun")
    expect(wrong.locator("#screen-director")).to_be_hidden()
    expect(wrong.locator("#screen-bracket")).to_be_visible()
    assert wrong.get_by_test_id("start-3").count() == 0 or not wrong.get_by_test_id("start-3").is_visible()
    refused = httpx.get(f"{live.url}{API}/{director.id}/director", headers={"X-Kaisa-Token": "not-the-directors-token"})
    assert refused.status_code == 403
    assert "johtajan tunniste puuttuu tai on väärä" in refused.json()["fi"]
