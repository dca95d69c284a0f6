"""The browser table played by hand (issue 31), end to end in Chromium: ten ordinary pots aimed only by dragging the
aim onto the window the page draws (mouse and keys at 1440x900, touch at 390x844); a whole match against the
computer through the page's controls, counting the aim helper's "not possible" for calls a deeper search pots;
and the same power from the same pull on the table with a finger and with the mouse.

Real Chromium, the real server and SQLite, as in test_web_e2e (whose server and browser fixtures these share).
A finger's drag is sent as touch events (the DevTools protocol's Input.dispatchTouchEvent in a context with touch,
which Chromium turns into pointer events of type "touch", as on a phone); Playwright's touchscreen only taps.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, CDPSession, Page, expect

from tests.web import test_web_e2e as e2e
from tests.web.test_web_e2e import L, W, goto

live = e2e.live
browser = e2e.browser

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

DESKTOP = (1440, 900)
PHONE = (390, 844)


# --- a person's hand: the mouse, or a finger -----------------------------------------------------------------------


class Hand:
    """Presses, drags and taps at client points with the mouse, or with one finger (touch events)."""

    def __init__(self, page: Page, touch: bool) -> None:
        self.page, self.touch = page, touch
        self._cdp: CDPSession | None = page.context.new_cdp_session(page) if touch else None

    def _touch(self, kind: str, points: list[tuple[float, float]]) -> None:
        assert self._cdp is not None
        self._cdp.send(
            "Input.dispatchTouchEvent",
            {"type": kind, "touchPoints": [{"x": x, "y": y, "id": 1, "radiusX": 1, "radiusY": 1} for x, y in points]},
        )

    def drag(self, a: tuple[float, float], b: tuple[float, float], steps: int = 12) -> None:
        """Press at client point ``a``, move in ``steps`` even steps to ``b``, hold still there, release."""
        path = [(a[0] + (b[0] - a[0]) * k / steps, a[1] + (b[1] - a[1]) * k / steps) for k in range(1, steps + 1)]
        if self.touch:
            self._touch("touchStart", [a])
            for p in path:
                self._touch("touchMove", [p])
            self._touch("touchEnd", [])
        else:
            self.page.mouse.move(*a)
            self.page.mouse.down()
            for p in path:
                self.page.mouse.move(*p)
            self.page.mouse.up()

    def tap(self, p: tuple[float, float]) -> None:
        if self.touch:
            self.page.touchscreen.tap(*p)
        else:
            self.page.mouse.click(*p)


def person(browser: Browser, size: tuple[int, int], touch: bool, lang: str = "en") -> tuple[Page, list[str]]:
    """A page at ``size`` (with touch: a phone's), sound off, animations quick; with the list its uncaught errors
    and console errors go to."""
    context: BrowserContext = browser.new_context(
        viewport={"width": size[0], "height": size[1]}, has_touch=touch, is_mobile=False, locale="en-US"
    )
    context.add_init_script(
        "localStorage.setItem('kaisa.animSpeed', '50'); localStorage.setItem('kaisa.sound', 'off');"
        f" if (!localStorage.getItem('kaisa.lang')) localStorage.setItem('kaisa.lang', '{lang}');"
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    return page, errors


def client(page: Page, p: tuple[float, float]) -> tuple[float, float]:
    x, y = page.evaluate("p => window.kaisa.toClient(p)", list(p))
    return float(x), float(y)


def study(page: Page, url: str, position: dict[str, list[float]]) -> None:
    """The study screen with ``position`` set up (W1 to play), scrolled to the top: the table as at the turn."""
    page.evaluate(
        "s => { localStorage.setItem('kaisa.study', JSON.stringify(s)); location.hash = '#/'; }",
        {"position": position, "shooter": "W1"},
    )
    page.wait_for_selector("#screen-start:not([hidden])")
    page.evaluate("() => { location.hash = '#/study'; }")
    page.wait_for_selector("#screen-table:not([hidden])")
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.cue")
    page.evaluate("() => window.scrollTo(0, 0)")


def cue(page: Page) -> tuple[float, float]:
    text = page.get_by_test_id("table").get_attribute("data-cue") or ""
    x, y = (float(v) for v in text.split(","))
    return x, y


def direction(page: Page) -> float:
    return float(page.get_by_test_id("direction").input_value().replace(",", "."))


def readout(page: Page) -> str:
    """The power as the page shows it in its bar (m/s), the same text at every size."""
    return page.get_by_test_id("power-bar").inner_text().strip()


# --- 3: the same pull, the same power ------------------------------------------------------------------------------

PULLS = (0.1, 0.2, 0.35)  # m of pull straight back from the cue ball: 0.5 m is full power (8 m/s)
BAR = ((0.2, 0.35), (0.6, 0.45), (0.1, 0.8))  # press-and-pull on the power bar: from, to (fractions of its length)


def pulled(browser: Browser, url: str, size: tuple[int, int], touch: bool) -> tuple[list[str], list[str]]:
    """Power readouts after pulling the cue back from the cue ball by each of :data:`PULLS` metres on the table,
    and after each press-and-pull of :data:`BAR` on the power bar."""
    page, errors = person(browser, size, touch)
    hand = Hand(page, touch)
    try:
        goto(page, url)
        ball = (W / 2, 1.0)
        study(page, url, {"W1": list(ball), "K": [W / 2 + 0.3, L - 0.3], "R1": [0.2, 2.2]})
        # aimed up the table by a tap on the empty cloth ahead of the cue ball
        hand.tap(client(page, (W / 2, 1.8)))
        page.wait_for_function("() => Math.abs(Number(document.getElementById('direction').value) - 90) < 0.01")
        shown = []
        for pull in PULLS:
            start = client(page, ball)
            end = client(page, (ball[0], ball[1] - pull))
            hand.drag(start, end)
            expect(page.get_by_test_id("table")).to_have_attribute("data-cue", f"{ball[0]:.4f},{ball[1]:.4f}")
            shown.append(readout(page))
        bar = page.get_by_test_id("power-bar")
        # scrolled (the side panel at 1440) until the bar is clear of the sticky Shoot bar, as a person would
        bar.evaluate("b => b.scrollIntoView({block: 'center'})")
        box = bar.bounding_box()
        assert box is not None, "no power bar on the screen"
        y = box["y"] + box["height"] / 2
        for a, b in BAR:
            hand.drag((box["x"] + a * box["width"], y), (box["x"] + b * box["width"], y), steps=6)
            shown.append(readout(page))
    finally:
        page.context.close()
    assert not errors, errors
    return shown[: len(PULLS)], shown[len(PULLS) :]


def test_the_same_pull_gives_the_same_power_with_a_finger_and_the_mouse(live: e2e.LiveServer, browser: Browser) -> None:
    """The cue pulled straight back from the cue ball by 10, 20 and 35 cm on the table (each size's pixels for
    it), with the mouse at 1440x900 and a finger at 390x844: the power readout is the same, 8 m/s per 0.5 m of pull;
    the power bar pressed and pulled to the same fraction of its length gives the same power at both sizes too."""
    mouse = pulled(browser, live.url, DESKTOP, touch=False)
    finger = pulled(browser, live.url, PHONE, touch=True)
    print(
        f"\npull {PULLS} m: mouse {mouse[0]}, finger {finger[0]}; power bar {BAR}: mouse {mouse[1]}, finger {finger[1]}"
    )
    assert mouse[0] == [f"{round(p / 0.5 * 8 * 20) / 20:.2f} m/s" for p in PULLS], mouse
    assert finger[0] == mouse[0], (finger, mouse)
    assert mouse[1] == [f"{round((0.1 + b * 7.9) * 20) / 20:.2f} m/s" for _, b in BAR], mouse
    assert finger[1] == mouse[1], (finger, mouse)
