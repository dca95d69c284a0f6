"""The hall TV fits one screen whatever the field (a TV cannot scroll): 32 players on 6 tables mid-night in Chromium
at 1920x1080 and 1440x900: no scrolling either way, the tables strip shows all six tables (each game in progress with
its score), and the lists that do not fit say how many more there are. The picture goes to docs/images/."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.browser import chromium, docs_images
from tests.postgres_server import free_port
from tests.web.test_web_club_e2e import Server

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

API = "/api/kaavio/competitions"
FIRST = ("Virtanen", "Korhonen", "Mäkinen", "Nieminen", "Hämäläinen", "Laine", "Heikkinen", "Koskinen")
LAST = ("Matti", "Aino", "Eero", "Liisa")


@pytest.fixture(scope="module")
def night(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A 32-player double elimination on 6 tables, mid-night: round 1 and part of round 2 typed, 6 games running."""
    server = Server(tmp_path_factory.mktemp("tv") / "kaavio.sqlite3", free_port())
    server.start()
    try:
        with httpx.Client(base_url=server.url, timeout=60) as client:
            made = client.post(
                API, json={"name": "Syysturnaus 2026", "date": "2026-12-03", "club": "KS", "tables": list("123456")}
            ).json()
            cid, headers = made["id"], {"X-Kaisa-Token": made["token"]}

            def ok(path: str, body: dict[str, Any]) -> dict[str, Any]:
                answer = client.post(f"{API}/{cid}{path}", json=body, headers=headers)
                assert answer.status_code == 200, answer.text
                out: dict[str, Any] = answer.json()["competition"]
                return out

            for i in range(32):
                ok("/players", {"name": f"{FIRST[i % 8]} {LAST[i // 8]}", "club": "KS"})
            view = ok("/draw", {"seed": 7})
            rng = random.Random(7)
            for _ in range(26):
                game = next(g for g in view["games"] if g["state"] == "ready")
                typed = ["60", str(rng.randrange(60))]
                rng.shuffle(typed)
                view = ok(f"/games/{game['number']}/result", {"points1": typed[0], "points2": typed[1]})
            for _ in range(6):
                game = next(g for g in view["games"] if g["state"] == "ready")
                view = ok(f"/games/{game['number']}/start", {"marker": False})
            assert sum(1 for g in view["games"] if g["state"] == "ready") > 0
            yield server.url, cid
    finally:
        server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.mark.parametrize("size", [(1920, 1080), (1440, 900)])
def test_the_hall_tv_fits_one_screen_with_32_players_on_6_tables(
    night: tuple[str, int], browser: Browser, size: tuple[int, int]
) -> None:
    url, cid = night
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        page.goto(f"{url}/kaavio#/tv/{cid}")
        page.wait_for_selector("body[data-ready=true]")
        board = page.get_by_test_id("tv-board")
        expect(board).to_be_visible()
        tables = page.get_by_test_id("tv-tables").get_by_test_id("tv-table")
        expect(tables).to_have_count(6)
        for i in range(6):
            expect(tables.nth(i)).to_be_in_viewport(ratio=1)
            expect(tables.nth(i).get_by_test_id("tv-live")).to_have_text("0–0")
        heights = page.evaluate("() => [document.scrollingElement.scrollHeight, window.innerHeight]")
        assert heights[0] <= heights[1], f"the TV scrolls: {heights[0]} px on a {heights[1]} px screen"
        widths = page.evaluate("() => [document.scrollingElement.scrollWidth, window.innerWidth]")
        assert widths[0] <= widths[1], f"the TV scrolls sideways: {widths[0]} px on a {widths[1]} px screen"
        for testid in ("tv-latest", "tv-ready", "tv-out"):
            box = page.get_by_test_id(testid)
            expect(box.locator("li").first).to_be_in_viewport(ratio=1)
            overflow = box.evaluate("(e) => e.scrollHeight - e.clientHeight")
            assert overflow <= 1, f"{testid} is cut off by {overflow} px"
        # who is out: the players as chips, those that do not fit counted
        out = page.get_by_test_id("tv-out")
        expect(out.locator("li.tv-chip").first).to_be_visible()
        chips = out.locator("li.tv-chip").count()
        out_count = page.evaluate(
            f"async () => (await (await fetch('/api/kaavio/competitions/{cid}')).json()).players.filter((p) => p.out).length"
        )
        assert out_count > 0
        if chips < out_count:
            expect(out.get_by_test_id("tv-more")).to_have_text(f"+{out_count - chips} muuta")
        boxes = out.locator("li").evaluate_all(
            "(items) => items.map((e) => e.getBoundingClientRect()).map((r) => [r.top, r.bottom, r.left, r.right])"
        )
        for i, a in enumerate(boxes):
            assert a[1] - a[0] > 10, "a chip has no height"
            for b in boxes[i + 1 :]:
                assert a[1] <= b[0] + 1 or b[1] <= a[0] + 1 or a[3] <= b[2] + 1 or b[3] <= a[2] + 1, "chips overlap"
        # 26 results do not fit: the newest are shown and the rest are counted
        latest = page.get_by_test_id("tv-latest")
        more = latest.get_by_test_id("tv-more")
        shown = latest.locator("li.tv-item").count()
        assert shown >= 4
        if shown < 26:
            expect(more).to_have_text(f"+{26 - shown} muuta")
        if size == (1920, 1080):
            page.screenshot(path=str(docs_images() / "kaavio-tv-night.png"))
        else:
            page.screenshot(path=str(docs_images() / "kaavio-tv-night-1440.png"))
    finally:
        page.close()
