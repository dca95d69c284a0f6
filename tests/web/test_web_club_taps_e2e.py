"""Taps and scrolls per stroke on the marker's phone (issue 28): a whole game to 20 points entered by touch in a real
Chromium at 360x740 and 390x844, as a marker does it, counting every tap and every scroll needed to bring the next
thing to tap into view. An ordinary stroke (the call, then "went as called" or the first ball hit, then confirm)
takes at most 3 taps and no scroll, the break from hand one tap more (where the cue ball was placed); the counts are printed and written to test-artifacts/taps.json.

The marker's path: where the page offers a one-tap outcome under the call (``quick-*``, the stroke entered as it is
confirmed) it is taken; otherwise the entry form's own controls (how a stroke was entered before), so the same test
measures either page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_web_club_e2e import ARTIFACTS, Pages, Server, browser, goto, live, on_table, pages  # noqa: F401

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

VISIBLE = """(e) => {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.bottom <= 0 || r.top >= window.innerHeight || r.right <= 0 || r.left >= window.innerWidth) return false;
  const x = Math.min(Math.max(r.left + r.width / 2, 1), window.innerWidth - 1);
  const y = Math.min(Math.max(r.top + r.height / 2, 1), window.innerHeight - 1);
  const hit = document.elementFromPoint(x, y);
  return hit === e || e.contains(hit);
}"""
"""Whether a finger can tap the element where the page is now: in the window and not under a bar that sticks."""


class Marker:
    """Taps what the marker taps, scrolling only when the next thing to tap is not on screen (each counted)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.taps = 0
        self.scrolls = 0

    def has(self, testid: str) -> bool:
        found = self.page.get_by_test_id(testid)
        return found.count() > 0 and found.first.is_visible()

    def tap(self, testid: str) -> None:
        target = self.page.get_by_test_id(testid).first
        expect(target).to_be_visible()
        if not target.evaluate(VISIBLE):
            self.scrolls += 1
            target.evaluate("(e) => e.scrollIntoView({ block: 'center', behavior: 'instant' })")
        self.taps += 1
        target.tap()

    def tap_table(self, table: str, p: tuple[float, float]) -> None:
        canvas = self.page.get_by_test_id(f"{table}-table")
        expect(canvas).to_be_visible()
        if not canvas.evaluate(VISIBLE):
            self.scrolls += 1
        x, y = on_table(self.page, table, p)  # scrolls the small table to the middle of the window
        self.taps += 1
        self.page.touchscreen.tap(x, y)


def stroke(marker: Marker, *, pot: bool, from_hand: bool) -> None:
    """One called stroke: (the cue ball placed from hand), the call K FL, then the kaisa dropped as called or the
    kaisa hit first and missed, confirmed."""
    if from_hand:
        marker.tap_table("hand", (0.5, 0.3))
    if marker.has("quick-ball-K"):
        marker.tap("quick-ball-K")
        marker.tap("quick-pocket-FL")
        marker.tap("quick-as-called" if pot else "quick-first-K")  # the outcome and the confirmation in one tap
        return
    marker.tap("call-ball-K")
    marker.tap("call-pocket-FL")
    marker.tap("pot-as-called" if pot else "first-K")
    marker.tap("enter-stroke")


def whole_game(opened: Pages, server: Server, width: int, height: int) -> list[dict[str, Any]]:
    """A game to 20: Aino breaks from hand and pots the kaisa, misses; Eero pots it, misses; Aino pots it to 18 and
    to 24 (over 20: the game is over). Each stroke's taps and scrolls."""
    made = server.call("POST", "/api/club/matches", {"players": ["Aino", "Eero"], "options": {"winning_score": 20}})
    assert made.status_code == 201, made.text
    match_id, token = made.json()["match"]["id"], made.json()["token"]
    assert server.call("POST", f"/api/club/matches/{match_id}/place-w2", {"point": [0.71, 2.6]}, token).is_success
    page = opened.open(width, height, touch=True)
    goto(page, f"{server.url}/club#/match/{match_id}/{token}")
    plan = [(True, True), (False, False), (True, False), (False, False), (True, False), (True, False), (True, False)]
    counts = []
    for n, (pot, from_hand) in enumerate(plan, start=1):
        marker = Marker(page)
        stroke(marker, pot=pot, from_hand=from_hand)
        expect(page.get_by_test_id("strokes")).to_have_attribute("data-count", str(n))
        counts.append({"stroke": n, "pot": pot, "from_hand": from_hand, "taps": marker.taps, "scrolls": marker.scrolls})
        if server.view(match_id)["phase"] == "over":
            break
    assert server.view(match_id)["phase"] == "over"
    return counts


@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844)])
def test_an_ordinary_stroke_takes_three_taps_and_no_scroll(
    live: Server,  # noqa: F811
    pages: Pages,  # noqa: F811
    width: int,
    height: int,
) -> None:
    counts = whole_game(pages, live, width, height)
    ordinary = [c for c in counts if not c["from_hand"]]
    taps = sum(c["taps"] for c in counts)
    scrolls = sum(c["scrolls"] for c in counts)
    summary = {
        "viewport": f"{width}x{height}",
        "strokes": len(counts),
        "taps": taps,
        "scrolls": scrolls,
        "taps_per_stroke": round(taps / len(counts), 2),
        "scrolls_per_stroke": round(scrolls / len(counts), 2),
        "each": counts,
    }
    print(json.dumps(summary))
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / f"taps-{width}x{height}.json").write_text(json.dumps(summary, indent=1))
    assert all(c["taps"] <= 3 for c in ordinary), counts
    assert all(c["scrolls"] == 0 for c in ordinary), counts
    # the break from hand: the page shows the hand's table first, and the call once the ball is placed
    from_hand = [c for c in counts if c["from_hand"]]
    assert all(c["taps"] <= 4 and c["scrolls"] == 0 for c in from_hand), counts


def test_the_marker_pages_ruling_is_announced_once(live: Server, pages: Pages) -> None:  # noqa: F811
    """The ruling box is a live region (a screen reader reads what changes in it): a new ruling changes it once, and
    an update of the match that brings no new ruling (here another phone starting a break) leaves it alone."""
    match_id, token = live.new_match(("Aino", "Eero"), clock="wall")
    page = pages.open(390, 844, touch=True)
    goto(page, f"{live.url}/club#/match/{match_id}/{token}")
    expect(page.get_by_test_id("ruling")).to_have_attribute("aria-live", "polite")
    page.evaluate(
        """() => { window.rulingChanges = 0;
                   new MutationObserver(() => window.rulingChanges++).observe(
                     document.querySelector('[data-testid=ruling]'), { childList: true, subtree: true }); }"""
    )
    stroke(Marker(page), pot=True, from_hand=True)
    expect(page.get_by_test_id("strokes")).to_have_attribute("data-count", "1")
    expect(page.get_by_test_id("ruling")).to_contain_text("K")
    assert page.evaluate("window.rulingChanges") == 1
    shooter = live.view(match_id)["shooter"]
    started = live.call("POST", f"/api/club/matches/{match_id}/break-start", {"cue_ball": shooter}, token)
    assert started.is_success, started.text
    expect(page.get_by_test_id("break-running")).to_be_visible()
    assert page.evaluate("window.rulingChanges") == 1
