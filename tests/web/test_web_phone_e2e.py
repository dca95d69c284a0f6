"""The browser table on a phone (390x844): the whole table on the screen whenever balls move or the person is to
aim or place, the bars on one line, every control a fingertip's size, the history readable as cards; and the
table's own drawing (the zoomed insets) and gestures (the study's cue ball moved, or the cue pulled from behind it).

Real Chromium, the real server and SQLite, as in test_web_e2e (whose server and browser fixtures these share).
"""

from __future__ import annotations

import math
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web import test_web_e2e as e2e
from tests.web.test_web_e2e import WAIT, L, LiveServer, W, drag, goto, open_page, point

# the server and the browser of test_web_e2e, one of each for this module
live = e2e.live
browser = e2e.browser

pytestmark = pytest.mark.slow

PHONE = (390, 844)


# --- helpers ---------------------------------------------------------------------------------------------------


def two_people_after_the_lag(live: LiveServer, clock: str = "off") -> int:
    """Two people; both lags sent, Aino (player 1) won and is to choose her cue ball."""
    players = [{"name": "Aino", "kind": "human"}, {"name": "Eero", "kind": "human"}]
    match_id: int = live.api("POST", "/api/matches", {"players": players, "clock": clock})["id"]
    lags = [
        {"ball": "W1", "speed": 1.41, "direction": 90, "place": [W / 4, L / 8]},
        {"ball": "W2", "speed": 1.30, "direction": 90, "place": [3 * W / 4, L / 8]},
    ]
    view = live.api("POST", f"/api/matches/{match_id}/lag", {"strokes": lags})["match"]
    assert view["phase"] == "choose", view["phase"]
    return match_id


def at_the_break(live: LiveServer, clock: str = "off") -> int:
    """Two people after the lag, the choice and W2's placement: W1 breaks from hand."""
    match_id = two_people_after_the_lag(live, clock)
    live.api("POST", f"/api/matches/{match_id}/choose", {"cue_ball": "W1"})
    live.api("POST", f"/api/matches/{match_id}/place-w2", {"point": [W / 2, 2.6]})
    return match_id


TABLE_ON_SCREEN = """() => {
  // the table's box against the band between the sticky top bar and a bar fixed at the foot
  const r = document.querySelector('canvas#table').getBoundingClientRect();
  const top = document.querySelector('.topbar').getBoundingClientRect().bottom;
  let bottom = window.innerHeight;
  for (const id of ['dock', 'shoot-row', 'replay-buttons']) {
    const bar = document.getElementById(id);
    if (bar && bar.getClientRects().length && getComputedStyle(bar).position === 'fixed')
      bottom = Math.min(bottom, bar.getBoundingClientRect().top);
  }
  return {top: r.top, bottom: r.bottom, band: [top, bottom], scrollY: window.scrollY};
}"""


def assert_table_on_screen(box: dict[str, Any], when: str) -> None:
    top, bottom = box["band"]
    where = (
        f"{when}: the table is at {box['top']:.0f}..{box['bottom']:.0f} px, the screen shows {top:.0f}..{bottom:.0f}"
    )
    assert box["top"] >= top - 0.5, where
    assert box["bottom"] <= bottom + 0.5, where


def table_on_screen(page: Page, when: str) -> None:
    assert_table_on_screen(page.evaluate(TABLE_ON_SCREEN), when)


WATCH_STROKE = """() => {
  // where the table is when a stroke starts to play (its canvas says data-animating="true")
  window.__strokeBoxes = [];
  const canvas = document.querySelector('canvas#table');
  new MutationObserver(() => {
    if (canvas.dataset.animating === 'true') window.__strokeBoxes.push((TABLE_ON_SCREEN)());
  }).observe(canvas, {attributes: true, attributeFilter: ['data-animating']});
}""".replace("TABLE_ON_SCREEN", TABLE_ON_SCREEN)


def scroll_to_the_foot(page: Page) -> None:
    """As a person who has scrolled down to the controls or the ruling: the table above the screen."""
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    box = page.evaluate(TABLE_ON_SCREEN)
    assert box["top"] < box["band"][0], "the page is too short to scroll the table away: the test proves nothing"


def phone(browser: Browser, lang: str = "en") -> tuple[Page, list[str]]:
    """A page at 390x844 in `lang`, sound off; with the list its uncaught errors go to."""
    page, errors = open_page(browser, *PHONE, scale=1)
    page.context.add_init_script(
        f"localStorage.setItem('kaisa.lang', '{lang}'); localStorage.setItem('kaisa.sound', 'off');"
    )
    return page, errors


def close(page: Page, errors: list[str]) -> None:
    page.context.close()
    assert not errors, errors


# --- 1: the table on the screen --------------------------------------------------------------------------------


def test_a_phone_keeps_the_whole_table_on_the_screen_at_the_turn_and_while_a_stroke_plays(
    live: LiveServer, browser: Browser
) -> None:
    """Scrolled down to the buttons below the table (the choice of cue ball, W2's placement, the controls), the
    person's next turn at the table and every stroke, in the match and in its replay, bring the whole table back
    between the top bar and the bar at the foot; both bars are one line."""
    match_id = two_people_after_the_lag(live)
    page, errors = phone(browser)
    try:
        goto(page, f"{live.url}#/match/{match_id}")
        expect(page.get_by_test_id("table")).to_have_attribute("data-phase", "choose")
        topbar = page.locator(".topbar").bounding_box()
        assert topbar is not None
        assert topbar["height"] <= 50, f"the top bar wraps: {topbar['height']} px"
        scroll_to_the_foot(page)
        page.get_by_test_id("choose-W1").click()  # below the table: the page scrolls there
        expect(page.get_by_test_id("table")).to_have_attribute("data-phase", "place-w2")
        table_on_screen(page, "W2 to place after the ruling of the lag")
        scroll_to_the_foot(page)
        page.get_by_test_id("place-w2").click()
        expect(page.get_by_test_id("table")).to_have_attribute("data-phase", "play")
        expect(page.get_by_test_id("shoot")).to_be_enabled()
        table_on_screen(page, "the break from hand")

        page.get_by_test_id("no-call").check()  # a safety
        page.evaluate(WATCH_STROKE)
        scroll_to_the_foot(page)
        page.get_by_test_id("shoot").click()  # in the bar at the foot
        expect(page.get_by_test_id("ruling-summary")).to_be_visible(timeout=WAIT)
        boxes = page.evaluate("window.__strokeBoxes")
        assert boxes, "no stroke was seen to start"
        assert_table_on_screen(boxes[0], "the break as it plays")
        expect(page.get_by_test_id("shoot")).to_be_enabled(timeout=WAIT)
        table_on_screen(page, "the next turn after the break's ruling")

        # the bar at the foot stays one line, however long Undo's label is
        bar = page.locator("#shoot-row")
        page.evaluate(
            "document.getElementById('undo').textContent = 'Undo your stroke and the two strokes of the other player before it'"
        )
        box = bar.bounding_box()
        assert box is not None
        assert box["height"] <= 62, f"the bar at the foot wraps: {box['height']} px"
        assert box["y"] + box["height"] <= PHONE[1] + 0.5

        # the replay: its buttons in the bar at the foot, the stroke played on the screen
        goto(page, f"{live.url}#/replay/{match_id}/-1")
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-index", "-1")
        buttons = page.get_by_test_id("replay-buttons").bounding_box()
        assert buttons is not None
        assert buttons["y"] >= 0, buttons
        assert buttons["y"] + buttons["height"] <= PHONE[1] + 0.5, buttons
        assert buttons["height"] <= 62, f"the replay's buttons wrap: {buttons['height']} px"
        page.evaluate(WATCH_STROKE)
        scroll_to_the_foot(page)
        page.get_by_test_id("replay-next").click()  # the lag: both balls run
        expect(page.get_by_test_id("replay-step")).to_have_attribute("data-index", "0")
        expect(page.get_by_test_id("table")).to_have_attribute("data-animating", "false")
        boxes = page.evaluate("window.__strokeBoxes")
        assert boxes, "no replayed stroke was seen to start"
        assert_table_on_screen(boxes[0], "the replayed lag as it plays")
    finally:
        close(page, errors)


# --- 2: touch targets --------------------------------------------------------------------------------------------

SMALL_TARGETS = """() => {
  // every control on the page a finger taps, under 44 px either way (a checkbox is tapped by its label)
  const small = [];
  for (const e of document.querySelectorAll('button, a[href], select, input, textarea, summary, [role=slider]')) {
    const target = e.matches('input[type=checkbox], input[type=radio]') && e.closest('label') ? e.closest('label') : e;
    const r = target.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(target).visibility === 'hidden') continue;
    if (r.width < 44 || r.height < 44) {
      const name = e.dataset.testid || e.id || `${e.tagName.toLowerCase()} "${e.textContent.trim().slice(0, 24)}"`;
      small.push(`${name} ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return small;
}"""


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_every_control_on_a_phone_is_a_fingertip_wide(live: LiveServer, browser: Browser, lang: str) -> None:
    """At 390x844 no button, link, field, list or checkbox of the match (with the clock), the history, the replay
    and the study (every fold opened) is under 44 px either way."""
    match_id = at_the_break(live, clock="wall")
    page, errors = phone(browser, lang)
    try:
        found: dict[str, list[str]] = {}
        for screen, url, ready in [
            ("match", f"#/match/{match_id}", "shoot"),
            ("history", "#/history", "replay"),
            ("replay", f"#/replay/{match_id}/0", "replay-next"),
            ("study", "#/study", "advise"),
        ]:
            goto(page, live.url + url)
            expect(page.get_by_test_id(ready).first).to_be_visible()
            page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
            found[screen] = page.evaluate(SMALL_TARGETS)
        assert found == {"match": [], "history": [], "replay": [], "study": []}
        # the keys' help fits its sheet (a long gesture's name above what it does)
        page.get_by_test_id("help-open").click()
        sheet = page.locator("#help .sheet")
        expect(sheet).to_be_visible()
        assert sheet.evaluate("s => s.scrollWidth <= s.clientWidth"), "the keys' help is wider than its sheet"
        assert page.evaluate(SMALL_TARGETS) == []
    finally:
        close(page, errors)


# --- 3: the history on a phone -------------------------------------------------------------------------------------

BROKEN_WORDS = """() => {
  // every word of the history's rows that the layout splits over two lines
  const broken = [];
  const walker = document.createTreeWalker(document.getElementById('screen-history'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize("lang", ["fi", "en"])
def test_the_history_on_a_phone_breaks_no_word(live: LiveServer, browser: Browser, lang: str) -> None:
    """The history at 390 px: each match a card (no column so narrow that "Strokes" or "Continue" breaks in the
    middle), the strokes labelled, Continue and Replay at hand."""
    at_the_break(live)
    page, errors = phone(browser, lang)
    try:
        goto(page, live.url + "#/history")
        row = page.get_by_test_id("history-row").first
        expect(row).to_be_visible()
        assert page.evaluate(BROKEN_WORDS) == []
        label = page.evaluate(
            "() => getComputedStyle(document.querySelector('[data-testid=history-strokes]'), '::before').content"
        )
        assert re.search("Lyöntejä" if lang == "fi" else "Strokes", label), label
        for test_id in ("continue", "replay"):
            box = row.get_by_test_id(test_id).bounding_box()
            assert box is not None
            assert box["x"] >= 0
            assert box["x"] + box["width"] <= PHONE[0]
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    finally:
        close(page, errors)


# --- 5: the study's cue ball: moved from on it, pulled back from behind it ---------------------------------------


@pytest.mark.parametrize("size", [(1440, 900), PHONE])
def test_in_the_study_the_cue_ball_dragged_straight_back_moves_and_a_pull_from_behind_it_sets_the_power(
    live: LiveServer, browser: Browser, size: tuple[int, int]
) -> None:
    """Issue 31: in the study, a drag that starts on the cue ball moves it, straight back along the aim too, and the
    power stays; a pull that starts behind the ball (off it, on the aim line) takes the cue: the power follows how far
    (0,5 m of pull is full power, 8 m/s) and the ball stays. The same at the desktop's size and a phone's."""
    page, errors = open_page(browser, *size, scale=1)
    try:
        goto(page, live.url + "#/study")
        table = page.get_by_test_id("table")
        expect(table).to_have_attribute("data-phase", "study")
        expect(page.get_by_test_id("speed-out")).to_have_text("2.00 m/s")
        radius = page.evaluate("window.kaisa.table.ball_radius")
        cue = point(page, "data-cue")
        direction = math.radians(float(page.get_by_test_id("direction").input_value()))
        along = (math.cos(direction), math.sin(direction))

        # pressed on the ball and dragged straight back along the aim: the ball goes there, the power stays
        back = (cue[0] - 0.12 * along[0], cue[1] - 0.12 * along[1])
        drag(page, cue, back)
        moved = point(page, "data-cue")
        assert math.dist(moved, back) < 0.01, f"the cue ball dragged straight back is at {moved}, not at {back}"
        expect(page.get_by_test_id("speed-out")).to_have_text("2.00 m/s")

        # pressed behind the ball on the aim line (off the ball) and pulled 0,2 m back from its centre: 3,2 m/s
        direction = math.radians(float(page.get_by_test_id("direction").input_value()))
        along = (math.cos(direction), math.sin(direction))
        behind = (moved[0] - 4 * radius * along[0], moved[1] - 4 * radius * along[1])
        pulled = (moved[0] - 0.2 * along[0], moved[1] - 0.2 * along[1])
        drag(page, behind, pulled)
        expect(page.get_by_test_id("speed-out")).to_have_text("3.20 m/s")
        assert point(page, "data-cue") == moved, "the pull from behind the cue ball moved it"
        page.get_by_test_id("help-open").click()
        expect(page.get_by_test_id("help")).to_contain_text("pressing on the ball itself moves it")
    finally:
        page.context.close()
    assert not errors, errors


# --- 4: the zoomed insets hide nothing that matters --------------------------------------------------------------

INSETS_OVER = """() => {
  // what each zoomed inset (its centre and radius in the canvas, CSS px) covers: balls and pockets
  const canvas = document.querySelector('canvas#table');
  const rect = canvas.getBoundingClientRect();
  const insets = JSON.parse(canvas.dataset.insets || '[]');
  const px = (p) => { const [x, y] = window.kaisa.toClient(p); return [x - rect.left, y - rect.top]; };
  const scale = Math.abs(px([1, 0])[0] - px([0, 0])[0]) || Math.abs(px([1, 0])[1] - px([0, 0])[1]);
  const things = [];
  for (const [id, p] of Object.entries(window.kaisa.balls()))
    things.push([`ball ${id}`, px(p), window.kaisa.table.ball_radius * scale]);
  for (const [id, pocket] of Object.entries(window.kaisa.table.pockets))
    things.push([`pocket ${id}`, px(pocket.capture.centre), pocket.capture.radius * scale]);
  const covered = [];
  insets.forEach(([x, y, r], i) => {
    for (const [name, [tx, ty], tr] of things) if (Math.hypot(x - tx, y - ty) < r + tr) covered.push(`inset ${i + 1} over ${name}`);
    insets.slice(i + 1).forEach(([x2, y2, r2], j) => {
      if (Math.hypot(x - x2, y - y2) < r + r2) covered.push(`inset ${i + 1} over inset ${i + j + 2}`);
    });
  });
  return {count: insets.length, covered};
}"""


@pytest.mark.parametrize("size", [(1440, 900), PHONE])
def test_the_zoomed_insets_cover_no_ball_pocket_or_each_other(
    live: LiveServer, browser: Browser, size: tuple[int, int]
) -> None:
    """With the full aiming aid and a call, the two zoomed insets (the contact, the called pocket's mouth) are drawn
    where they cover no ball, no pocket and not each other: on the desktop's table on its side and the phone's
    upright one, for the study's starting aim and for a second aim to another pocket."""
    page, errors = open_page(browser, *size, scale=1)
    try:
        goto(page, live.url + "#/study")
        expect(page.get_by_test_id("table")).to_have_attribute("data-phase", "study")
        page.get_by_test_id("aids").select_option("full")
        for pocket in ("FR", "HL"):
            page.get_by_test_id("call-ball").select_option("K")
            page.get_by_test_id("call-pocket").select_option(pocket)
            page.get_by_test_id("aim-call").click()
            expect(page.get_by_test_id("aim-status")).not_to_have_attribute("data-state", "working", timeout=WAIT)
            over = page.evaluate(INSETS_OVER)
            assert over["count"] == 2, over
            assert over["covered"] == [], f"the call K {pocket}: {over['covered']}"
    finally:
        page.context.close()
    assert not errors, errors
