"""The browser table's third pass (issue 31), end to end in Chromium: the drawn aid says what the physics says, the
aim keys turn the way their labels say, the aim helper answers without an error when nothing pots, and Shoot and the
phase's own action are on the first screen at every width.

Real Chromium, the real server and SQLite, as in test_web_e2e (whose server and browser fixtures these share).
"""

from __future__ import annotations

import math

import pytest
from playwright.sync_api import Browser, Page, expect

from kaisa.call import parse_call
from kaisa.model import BallId, Position, Stroke
from kaisa.session import GameState
from kaisa.session.aids import aim
from kaisa.table import OFFICIAL, table_to_json
from tests.web import test_web_e2e as e2e
from tests.web.aid_agreement import Trial, measure, trials
from tests.web.test_web_e2e import goto, open_page

live = e2e.live
browser = e2e.browser

pytestmark = pytest.mark.slow


def test_the_drawn_verdict_is_the_previews(live: e2e.LiveServer, browser: Browser) -> None:
    """Random calls a person would try, aimed near the ghost-ball spot: the colour the page draws on the object
    ball's line says what the preview (the physics and the referee) says, every time."""
    page, errors = open_page(browser, 1440, 900, scale=1)
    goto(page, live.url)
    counts = measure(page, live.url, 6, seed=5)
    assert counts["drawn_agrees"] == counts["calls"] == 6, counts
    page.context.close()
    assert not errors, errors


def screen_angle(page: Page) -> float:
    """The aim's direction as seen on the screen (degrees, clockwise from the right, as the screen's y runs down)."""
    return float(
        page.evaluate(
            """() => {
              const c = document.querySelector('[data-testid=table]').dataset.cue.split(',').map(Number);
              const d = Number(document.querySelector('[data-testid=direction]').value.replace(',', '.')) * Math.PI / 180;
              const a = window.kaisa.toClient(c);
              const b = window.kaisa.toClient([c[0] + 0.1 * Math.cos(d), c[1] + 0.1 * Math.sin(d)]);
              return Math.atan2(b[1] - a[1], b[0] - a[0]) * 180 / Math.PI;
            }"""
        )
    )


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_the_aim_keys_and_nudges_turn_the_way_they_say(
    live: e2e.LiveServer, browser: Browser, width: int, height: int
) -> None:
    """→ and the ↻ nudge turn the aim clockwise on the screen, ← and ↺ anticlockwise, whether the table lies on
    its side (1440) or stands (390); the labels and the help say so."""
    page, errors = open_page(browser, width, height, scale=1)
    goto(page, live.url + "#/study")
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.cue")

    def turned(act: str) -> float:
        before = screen_angle(page)
        if act.startswith("key:"):
            page.get_by_test_id("table").focus()
            page.keyboard.press(act[4:])
        else:
            page.get_by_test_id(act).click()
        return (screen_angle(page) - before + 540) % 360 - 180

    assert 0.05 < turned("key:ArrowRight") < 0.15  # clockwise, 0.1 degree
    assert -0.15 < turned("key:ArrowLeft") < -0.05
    assert turned("nudge-minus-01") > 0.05
    assert turned("nudge-plus-01") < -0.05
    assert page.get_by_test_id("nudge-minus-01").get_attribute("aria-label") == "Turn the aim 0.1° clockwise"
    expect(page.get_by_test_id("nudge-plus-1")).to_have_text("↺ 1°")
    page.get_by_test_id("lang-fi").click()
    assert page.get_by_test_id("nudge-minus-01").get_attribute("aria-label") == "Käännä tähtäystä 0,1° myötäpäivään"
    expect(page.get_by_test_id("help").locator("dd").first).to_contain_text("→ myötäpäivään")
    page.context.close()
    assert not errors, errors


def test_the_aim_helper_says_when_nothing_pots_without_an_error(live: e2e.LiveServer, browser: Browser) -> None:
    """A call that no speed or spin pots (the kaisa straight across into a middle pocket behind the shooter): the
    aim stays, the helper says so in the page's language with what to try, and the console shows no error; the
    next language says it in that language; a new setup clears it."""
    balls = {"W1": [0.7, 0.5], "W2": [0.3, 2.5], "R1": [1.1, 2.2], "R2": [0.4, 1.8], "K": [0.71, 1.42]}
    page, errors = open_page(browser, 1440, 900, scale=1)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.context.add_init_script(
        "localStorage.setItem('kaisa.study', JSON.stringify("
        + str({"position": balls, "shooter": "W1"}).replace("'", '"')
        + "));"
    )
    goto(page, live.url + "#/study")
    # the centre of the middle pocket's drawn hole calls the pocket (it re-aimed the cue before)
    ml = page.evaluate("() => window.kaisa.table.pockets.ML.capture.centre")
    page.mouse.click(*page.evaluate("p => window.kaisa.toClient(p)", ml))
    expect(page.get_by_test_id("call-pocket")).to_have_value("ML")
    page.get_by_test_id("call-text").fill("K ML")
    page.get_by_test_id("call-text").press("Enter")
    before = page.get_by_test_id("direction").input_value()
    page.get_by_test_id("aim-call").click()
    status = page.get_by_test_id("aim-status")
    expect(status).to_have_attribute("data-state", "none", timeout=30_000)
    expect(status).to_contain_text("No direction pots the call")
    expect(status).to_contain_text("Try another call")
    assert page.get_by_test_id("direction").input_value() == before
    page.get_by_test_id("lang-fi").click()
    expect(status).to_contain_text("Mikään suunta ei pussita")
    page.get_by_test_id("study-reset").click()
    expect(status).to_be_empty()
    page.context.close()
    assert not console, console
    assert not errors, errors
    assert math.isfinite(float(before.replace(",", ".")))


SIZES = [(360, 740), (390, 844), (820, 1180), (1024, 768), (1179, 820), (1280, 800), (1440, 900), (1920, 1080)]

BOTTOMS = """(ids) => ids.map(id => { const e = document.querySelector(id);
  if (!e || !e.getClientRects().length) return null; return e.getBoundingClientRect().bottom; })"""


def test_shoot_and_the_phases_action_are_on_the_first_screen_at_every_width(
    live: e2e.LiveServer, browser: Browser
) -> None:
    """Lyö (Shoot) at the turn to play, the cue-ball choice after the lag and W2's place, unscrolled, within the
    screen at every width from 360 to 1920 px; on a phone (< 820 px) the call, the aim helper and the power too."""
    people = [{"name": "Aino", "kind": "human"}, {"name": "Eero", "kind": "human"}]
    lags = [
        {"ball": "W1", "speed": 1.41, "direction": 90, "place": [e2e.W / 4, e2e.L / 8]},
        {"ball": "W2", "speed": 1.30, "direction": 90, "place": [3 * e2e.W / 4, e2e.L / 8]},
    ]
    choose = live.api("POST", "/api/matches", {"players": people, "clock": "off"})["id"]
    live.api("POST", f"/api/matches/{choose}/lag", {"strokes": lags})
    place = live.api("POST", "/api/matches", {"players": people, "clock": "off"})["id"]
    live.api("POST", f"/api/matches/{place}/lag", {"strokes": lags})
    live.api("POST", f"/api/matches/{place}/choose", {"cue_ball": "W2"})
    phases = {
        "play": ("#/study", "#shoot"),
        "choose": (f"#/match/{choose}", "#phase-actions button"),
        "place": (f"#/match/{place}", "[data-testid=place-w2]"),
    }
    below: list[str] = []
    for width, height in SIZES:
        page, errors = open_page(browser, width, height, scale=1)
        page.context.add_init_script(
            "localStorage.setItem('kaisa.sound', 'off'); localStorage.setItem('kaisa.lang', 'fi');"
        )
        for phase, (where, action) in phases.items():
            goto(page, live.url + where)
            page.wait_for_selector(action)
            ids = [action] + (["#call-pocket", "#aim-call", "#power-bar"] if phase == "play" and width < 820 else [])
            for name, bottom in zip(ids, page.evaluate(BOTTOMS, ids), strict=True):
                if bottom is None or bottom > height + 0.5:
                    below.append(f"{width}x{height} {phase}: {name} ends at {bottom} px")
        page.context.close()
        assert not errors, errors
    assert not below, below


def windowed_trials(count: int, seed: int) -> list[Trial]:
    """Random calls (as in aid_agreement) that pot at the trial's own power in some direction near the aim."""
    out = []
    for trial in trials(table_to_json(OFFICIAL), 12 * count, seed):
        position = Position.from_json({"balls": trial.position})
        stroke = Stroke(BallId.W1, trial.speed, trial.direction)
        found = aim(position, GameState(), parse_call(trial.call), stroke)
        if found.found and found.speed == trial.speed and found.width >= 0.02:
            out.append(trial)
        if len(out) == count:
            break
    return out


WINDOW_GHOST = """() => {
  // the centre of the green ghost ball the page draws for the potting window
  const c = document.querySelector('[data-testid=table]');
  const cue = c.dataset.cue.split(',').map(Number);
  const d = Number(c.dataset.window) * Math.PI / 180;
  return window.kaisa.toClient([cue[0] + 0.3 * Math.cos(d), cue[1] + 0.3 * Math.sin(d)]);
}"""


@pytest.mark.parametrize(("width", "height", "touch"), [(1440, 900, False), (390, 844, True)])
def test_a_person_pots_by_eye_onto_the_drawn_window(
    live: e2e.LiveServer, browser: Browser, width: int, height: int, touch: bool
) -> None:
    """Without the aim button: the person points the cue at the green window ghost the page draws, then turns
    the aim with the keys (desktop) or the ↺ ↻ buttons (phone) until the white ghost lies on the green one,
    and shoots. Every call goes in."""
    context = browser.new_context(viewport={"width": width, "height": height}, has_touch=touch, locale="en-US")
    context.add_init_script(
        "localStorage.setItem('kaisa.animSpeed', '8'); localStorage.setItem('kaisa.sound', 'off');"
        " localStorage.setItem('kaisa.lang', 'en');"
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    goto(page, live.url)
    pots = 0
    shots = windowed_trials(3, seed=11 if touch else 7)
    for trial in shots:
        page.evaluate(
            "s => { localStorage.setItem('kaisa.study', JSON.stringify(s)); location.hash = '#/'; }",
            {"position": trial.position, "shooter": "W1"},
        )
        page.wait_for_selector("#screen-start:not([hidden])")
        page.evaluate("() => { location.hash = '#/study'; }")
        page.wait_for_selector("#screen-table:not([hidden])")
        page.get_by_test_id("call-text").fill(trial.call)
        page.get_by_test_id("call-text").press("Enter")
        page.evaluate(
            "v => { const e = document.getElementById('speed'); e.value = String(v);"
            " e.dispatchEvent(new Event('input', {bubbles: true})); }",
            trial.speed,
        )
        page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.window")
        page.evaluate("() => window.scrollTo(0, 0)")  # the whole table on the screen, as at the turn
        x, y = page.evaluate(WINDOW_GHOST)
        if touch:
            page.touchscreen.tap(x, y)
        else:
            page.mouse.click(x, y)
        for _ in range(80):  # as the person sees it: the white ghost turned towards the green one
            window = float(page.get_by_test_id("table").get_attribute("data-window") or "nan")
            direction = float(page.get_by_test_id("direction").input_value().replace(",", "."))
            off = (direction - window + 540) % 360 - 180
            if abs(off) < 0.006:
                break
            anticlockwise = off < 0  # a larger direction turns anticlockwise on the screen (both layouts)
            far = abs(off) > 0.5
            if touch:
                page.get_by_test_id(f"nudge-{'plus' if anticlockwise else 'minus'}-{'01' if far else '001'}").tap()
            else:
                page.get_by_test_id("table").focus()
                page.keyboard.press("ArrowLeft" if anticlockwise else "ArrowRight")
        expect(page.get_by_test_id("table")).to_have_attribute("data-verdict", "pots")
        frames = e2e.anim_count(page)
        page.get_by_test_id("shoot").click()
        e2e.wait_for_animation(page, frames)
        expect(page.get_by_test_id("ruling")).not_to_have_attribute("data-legal-pot", "")
        pots += page.get_by_test_id("ruling").get_attribute("data-legal-pot") == "true"
    context.close()
    assert pots == len(shots) == 3, f"{pots} of {len(shots)} went in"
