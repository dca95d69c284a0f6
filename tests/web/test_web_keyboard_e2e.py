"""The browser table played with the keyboard alone (issue 30, accessibility): a match against the computer in a
real Chromium at 1440x900, started, lagged, placed, called, aimed, spun and shot with Tab, Enter, Space, the arrows,
B and A only: no mouse, no pointer, no script pressing buttons. The rulings come in a live region (read aloud by a
screen reader), and the Tab presses it took are printed.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web import test_web_e2e as e2e
from tests.web.test_web_e2e import goto, open_page

live = e2e.live
browser = e2e.browser
# the computer's search workers forked before the browser exists (else they hold Playwright's pipes open)
_advisor_workers_started_first = e2e._advisor_workers_started_first

pytestmark = pytest.mark.slow

FOCUSED = "() => document.activeElement ? document.activeElement.dataset.testid || '' : ''"


class Keys:
    """Moves the focus with Tab as a keyboard user does, counting the presses."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.tabs = 0

    def focus(self, testid: str, limit: int = 80) -> None:
        """Tab (forwards) until the element named ``testid`` has the focus."""
        for _ in range(limit):
            if self.page.evaluate(FOCUSED) == testid:
                return
            self.page.keyboard.press("Tab")
            self.tabs += 1
        raise AssertionError(f"{testid} never took the focus in {limit} presses of Tab")

    def press(self, testid: str, key: str = "Enter") -> None:
        self.focus(testid)
        self.page.keyboard.press(key)


SEED = "1"
"""The match's seed: the lag it gives leaves W2's place to the person."""

PERSON_TO_ACT = """() => {
  const seen = (id) => { const e = document.querySelector(`[data-testid=${id}]`); return e && e.offsetParent !== null && !e.disabled; };
  const c = document.querySelector('[data-testid=table]');
  if (c.dataset.animating === 'true') return false;
  if (seen('summary') || seen('choose-W2') || seen('place-w2')) return true;
  return ['play', 'shootout'].includes(c.dataset.phase) && c.dataset.cue !== '' && seen('shoot');
}"""
"""Whether the person has something to do: choose a cue ball, place W2, or play a stroke (the match may be over)."""


def test_a_match_played_with_the_keyboard_alone(live: e2e.LiveServer, browser: Browser) -> None:
    page, errors = open_page(browser, 1440, 900, scale=1)
    keys = Keys(page)
    goto(page, live.url)
    keys.focus("name-1")
    page.keyboard.type("Näppäilijä")
    keys.press("start-more")  # the seed, under "More"
    keys.focus("seed")
    page.keyboard.type(SEED)
    keys.press("start-computer")
    expect(page.get_by_test_id("phase")).to_contain_text("Lag")

    # the lag: the table takes the focus, Space plays it
    keys.focus("table")
    page.keyboard.press("Space")
    choose = page.get_by_test_id("choose-W2")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=table]').dataset.phase !== 'lag'", timeout=60_000
    )
    page.wait_for_function(PERSON_TO_ACT, timeout=90_000)
    if choose.is_visible():
        keys.press("choose-W2")  # W2: the person places it, with the arrows
        expect(choose).to_be_hidden()
        page.wait_for_function(PERSON_TO_ACT, timeout=90_000)  # W2's place offered (the answer has come)
    placed_w2 = page.get_by_test_id("place-w2").is_visible()
    if placed_w2:
        expect(page.get_by_test_id("table")).not_to_have_attribute("data-w2", "")
        before = [float(x) for x in (page.get_by_test_id("table").get_attribute("data-w2") or "").split(",")]
        keys.focus("table")
        for _ in range(3):
            page.keyboard.press("ArrowUp")
        after = [float(x) for x in (page.get_by_test_id("table").get_attribute("data-w2") or "").split(",")]
        assert abs(after[0] - before[0]) + abs(after[1] - before[1]) > 0.02, (before, after)
        expect(page.get_by_test_id("key-status")).to_contain_text("W2")
        page.keyboard.press("Enter")
        expect(page.get_by_test_id("place-w2")).to_be_hidden()

    strokes = 0
    for _ in range(12):
        page.wait_for_function(PERSON_TO_ACT, timeout=90_000)
        if page.get_by_test_id("summary").is_visible():
            break
        keys.focus("table")
        cue_before = page.get_by_test_id("table").get_attribute("data-cue")
        if strokes == 0:
            # the cue ball moved by the keyboard where it may be moved (in hand): B, then the arrows
            page.keyboard.press("b")
            said = page.get_by_test_id("key-status").inner_text()
            assert "arrows move" in said or "No ball may be moved now" in said, said  # B always answers
            if "arrows move" in said:
                page.keyboard.press("ArrowRight")
                page.keyboard.press("ArrowRight")
                expect(page.get_by_test_id("table")).not_to_have_attribute("data-cue", cue_before or "")
                page.keyboard.press("b")
                expect(page.get_by_test_id("key-status")).to_contain_text("aim again")
        # the call: the ball and the pocket chosen in their lists with the arrows
        keys.focus("call-ball")
        page.keyboard.press("ArrowDown")
        keys.focus("call-pocket")
        page.keyboard.press("ArrowDown")
        expect(page.get_by_test_id("call-text")).not_to_be_empty()
        # a little follow on the cue-ball diagram
        keys.focus("tip")
        page.keyboard.press("ArrowUp")
        expect(page.get_by_test_id("tip")).to_have_attribute("data-follow", "0.05")
        # A aims at the called pot; Space shoots
        keys.focus("table")
        page.keyboard.press("a")
        expect(page.get_by_test_id("aim-status")).not_to_be_empty(timeout=60_000)
        page.keyboard.press("Space")
        strokes += 1
        expect(page.get_by_test_id("ruling")).not_to_be_empty(timeout=60_000)
        if strokes >= 3:
            break
    assert strokes >= 3, strokes
    assert page.get_by_test_id("ruling").get_attribute("aria-live") == "polite"
    print(f"\nkeyboard alone: {strokes} strokes, {keys.tabs} presses of Tab, W2 placed by the keys: {placed_w2}")
    assert placed_w2  # the seeded lag gives the person W2's place
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_the_study_cue_ball_moves_with_b_and_the_arrows(
    live: e2e.LiveServer, browser: Browser, width: int, height: int
) -> None:
    """In the study the arrows aim; after B they move the cue ball (1 cm a press, up the screen is up whichever way
    the table lies), and B again gives them back to the aim. Said in the live status line in both languages."""
    page, errors = open_page(browser, width, height, scale=1)
    goto(page, live.url + "#/study")
    table = page.get_by_test_id("table")
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.cue")
    keys = Keys(page)
    keys.focus("table")
    cue = table.get_attribute("data-cue")
    direction = page.get_by_test_id("direction").input_value()
    page.keyboard.press("b")
    expect(page.get_by_test_id("key-status")).to_contain_text("The arrows move W1")
    screen_before = page.evaluate("(p) => window.kaisa.toClient(p)", [float(x) for x in (cue or "").split(",")])
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    moved = table.get_attribute("data-cue") or ""
    screen_after = page.evaluate("(p) => window.kaisa.toClient(p)", [float(x) for x in moved.split(",")])
    assert moved != cue
    assert screen_after[1] < screen_before[1] - 1  # up on the screen
    assert abs(screen_after[0] - screen_before[0]) < 1
    assert page.get_by_test_id("direction").input_value() == direction  # the arrows did not aim
    page.keyboard.press("b")
    expect(page.get_by_test_id("key-status")).to_contain_text("The arrows aim again")
    page.keyboard.press("ArrowRight")
    assert page.get_by_test_id("direction").input_value() != direction
    assert table.get_attribute("data-cue") == moved
    page.get_by_test_id("lang-fi").click()
    keys.focus("table")
    page.keyboard.press("b")
    expect(page.get_by_test_id("key-status")).to_contain_text("Nuolet siirtävät palloa W1")
    page.context.close()
    assert not errors, errors
