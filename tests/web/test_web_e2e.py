"""The browser table end to end: a real server (uvicorn in a background thread over a temporary SQLite store) and
the page in a real headless Chromium, driven with Playwright.

The browser is Debian's ``chromium`` (``/usr/bin/chromium``; ``apt-get install -y chromium``, which .ci/run does
on a fresh machine); Playwright's own browser downloads are not used. Without Chromium the tests fail with a
message saying what to install; they are never skipped. Screenshots of the table go to ``test-artifacts/``.

The computer players are deterministic for a seed and the physics is deterministic, so every stroke here has one
outcome; animations run at 8x (a page setting kept in localStorage) to keep the suite quick.
"""

from __future__ import annotations

import json
import math
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from kaisa.records.storage import open_store
from kaisa.table import OFFICIAL, PocketId
from kaisa.web import create_app
from tests.browser import chromium, chromium_executable, docs_images
from tests.postgres_server import free_port

pytestmark = pytest.mark.slow

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
W, L, R = 1.42, 2.84, 0.034
HEAD_STRING, CENTRE_LINE = L / 4, L / 2
WAIT = 60_000  # ms: a computer's turn with its animations, on a busy machine
SEED = 7


# --- the server ------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module", autouse=True)
def _advisor_workers_started_first() -> None:
    """Start the advisor's worker processes before the browser and the servers exist.

    The advisor (/api/study/advise) runs its simulations in a process pool that forks the whole process on first
    use. Forked while Playwright runs, the workers would inherit the Playwright driver's pipes (so closing
    Playwright would wait for them); they close inherited sockets themselves (see
    test_port_is_free_after_the_advisor_ran), not pipes. Forked here, they inherit neither.
    """
    from kaisa.players.search import _pool

    assert _pool().submit(int, 1).result(timeout=60) == 1


class LiveServer:
    """``kaisa play``'s app on a SQLite file, served by uvicorn in a thread; ``restart`` serves the same file again
    from a new app and store on the same port (a server restart)."""

    def __init__(self, db: Path, port: int) -> None:
        self.db, self.port = db, port
        self.url = f"http://127.0.0.1:{port}/"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        store = open_store(f"sqlite:///{self.db}")
        config = uvicorn.Config(
            create_app(store, close_store=True), host="127.0.0.1", port=self.port, log_level="warning"
        )
        server = uvicorn.Server(config)
        thread = threading.Thread(target=server.run, name=f"kaisa-web-{self.port}", daemon=True)
        thread.start()
        self._server, self._thread = server, thread
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if not thread.is_alive():
                raise RuntimeError(f"the web server on port {self.port} stopped while starting")
            try:
                with urllib.request.urlopen(self.url + "api/table", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.05)
        raise RuntimeError(f"the web server on port {self.port} did not answer within 30 s")

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(timeout=15)
            assert not self._thread.is_alive(), "the web server thread did not stop"
        self._server = self._thread = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def api(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url + path.lstrip("/"), data=data, method=method, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.load(answer)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("web") / "kaisa.sqlite3", free_port())
    server.start()
    yield server
    server.stop()


# --- the browser -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


class PageErrors(list[str]):
    pass


def open_page(browser: Browser, width: int = 1280, height: int = 900, scale: float = 2) -> tuple[Page, PageErrors]:
    context = browser.new_context(
        viewport={"width": width, "height": height}, device_scale_factor=scale, locale="en-US"
    )
    context.add_init_script(
        "if (!localStorage.getItem('kaisa.animSpeed')) localStorage.setItem('kaisa.animSpeed', '8');"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = PageErrors()
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, errors


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    opened, errors = open_page(browser)
    yield opened
    opened.context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def goto(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def point(page: Page, attribute: str) -> tuple[float, float]:
    """A ball position the table canvas reports (``data-cue``, ``data-w2``), in metres."""
    text = page.get_by_test_id("table").get_attribute(attribute)
    assert text, f"the table reports no {attribute}"
    x, y = (float(v) for v in text.split(","))
    return x, y


def client(page: Page, p: tuple[float, float]) -> tuple[float, float]:
    x, y = page.evaluate("p => window.kaisa.toClient(p)", list(p))
    return float(x), float(y)


def drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Press at table point ``start``, move to ``end`` and release, with the mouse."""
    a, b = client(page, start), client(page, end)
    page.mouse.move(*a)
    page.mouse.down()
    page.mouse.move(*b, steps=10)
    page.mouse.up()


def click_table(page: Page, p: tuple[float, float]) -> None:
    page.mouse.click(*client(page, p))


def segment_distance(p: tuple[float, float], a: list[float], b: list[float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / (dx * dx + dy * dy)))
    return math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy))


def scoreboard(page: Page) -> dict[str, str]:
    ids = ["score-0", "score-1", "innings-0", "innings-1", "fouls-0", "fouls-1"]
    board = {i: page.get_by_test_id(i).inner_text() for i in ids}
    board["phase"] = page.get_by_test_id("phase").get_attribute("data-phase") or ""
    return board


def wait_for_animation(page: Page, count_before: int) -> int:
    """Wait until the table has finished one more animation; returns the frames it drew."""
    page.wait_for_function(
        "n => { const c = document.querySelector('[data-testid=table]');"
        " return Number(c.dataset.animCount || 0) > n && c.dataset.animating === 'false'; }",
        arg=count_before,
        timeout=WAIT,
    )
    return int(page.get_by_test_id("table").get_attribute("data-anim-frames") or 0)


def anim_count(page: Page) -> int:
    return int(page.get_by_test_id("table").get_attribute("data-anim-count") or 0)


def start_match_against(page: Page, live: LiveServer, name: str, level: str) -> int:
    goto(page, live.url)
    page.get_by_test_id("name-1").fill(name)
    page.get_by_test_id("level").select_option(level)
    page.get_by_test_id("form-computer").locator("summary").click()
    page.get_by_test_id("seed").fill(str(SEED))
    page.get_by_test_id("start-computer").click()
    page.wait_for_url(re.compile(r".*#/match/\d+$"))
    return int(page.url.rsplit("/", 1)[1])


# --- the tests -------------------------------------------------------------------------------------------------


def test_missing_chromium_fails_with_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    with pytest.raises(RuntimeError, match=r"apt-get install -y chromium"):
        chromium_executable(("/nonexistent/chromium",))


def test_match_against_the_computer(live: LiveServer, page: Page) -> None:
    """Lag, choice, the computer's W2, a called break that scores, a safety, the computer's inning; the same
    match after a reload and after a server restart; rulings and labels in Finnish and English; undo."""
    match_id = start_match_against(page, live, "Aino", "baseline")
    phase = page.get_by_test_id("phase")
    expect(phase).to_have_attribute("data-phase", "lag")
    expect(page.get_by_test_id("name-0")).to_have_text("Aino")
    expect(page.get_by_test_id("clock")).to_contain_text("no clock")

    # the lag: Aino's W1 from the left half, the computer's stroke is its own (null in the request)
    assert page.get_by_test_id("table").get_attribute("data-lag") == "0:0.3550,0.3550"
    page.get_by_test_id("speed").fill("1.45")  # the default lag power is a little random (so defaults never decide)
    frames = anim_count(page)
    page.get_by_test_id("shoot").click()
    assert wait_for_animation(page, frames) > 10
    expect(page.get_by_test_id("lag-result")).to_contain_text("Aino wins")
    expect(phase).to_have_attribute("data-phase", "choose")
    page.get_by_test_id("choose-W1").click()
    # the computer places W2 (the page asks it), then Aino breaks from hand
    expect(page.get_by_test_id("in-hand-0")).to_be_visible(timeout=WAIT)
    expect(phase).to_have_attribute("data-phase", "play")
    expect(page.get_by_test_id("prompt")).to_contain_text("ball in hand")

    # ball in hand: drag W1 onto the line of a straight kaisa pot into FL
    kaisa = (W / 2, L / 2)
    mouth = (0.025455844122715707, L - 0.025455844122715707)
    along = (mouth[0] - kaisa[0], mouth[1] - kaisa[1])
    norm = math.hypot(*along)
    target = (kaisa[0] - 0.9 * along[0] / norm, kaisa[1] - 0.9 * along[1] / norm)
    drag(page, point(page, "data-cue"), target)
    placed = point(page, "data-cue")
    assert math.dist(placed, target) < 0.006
    assert placed[1] < HEAD_STRING

    # aiming with the pointer: press on the cloth and drag; the direction follows
    drag(page, (0.3, 2.0), (0.25, 2.4))
    aimed = float(page.get_by_test_id("direction").input_value())
    expected = math.degrees(math.atan2(2.4 - placed[1], 0.25 - placed[0]))
    assert abs(aimed - expected) < 1.0

    # an illegal call: the server's reason is shown, and the stroke is not played
    page.get_by_test_id("call-text").fill("W1 FR")
    expect(page.get_by_test_id("call-status")).to_contain_text("own cue ball")
    page.get_by_test_id("shoot").click()
    expect(page.get_by_test_id("message")).to_be_visible()
    expect(page.get_by_test_id("message-text")).to_contain_text("own cue ball")
    page.get_by_test_id("message-close").click()

    # call by clicking the kaisa and the pocket; the call is checked by the server
    click_table(page, kaisa)
    click_table(page, mouth)
    expect(page.get_by_test_id("call-text")).to_have_value("K FL")
    expect(page.get_by_test_id("call-status")).to_contain_text("valid call: K FL")
    page.get_by_test_id("speed").fill("1.6")
    expect(page.get_by_test_id("speed-out")).to_have_text("1.60 m/s")
    # the aim helper: the centre of the window of directions that pots K FL at this power (the physics)
    page.get_by_test_id("aim-call").click()
    expect(page.get_by_test_id("aim-status")).to_have_attribute("data-state", "ok", timeout=WAIT)
    expect(page.get_by_test_id("aim-status")).to_contain_text("potting window")
    expect(page.get_by_test_id("preview-status")).to_have_attribute("data-state", "pots", timeout=WAIT)
    screenshot(page, "match-aim.png")

    frames = anim_count(page)
    page.get_by_test_id("shoot").click()
    assert wait_for_animation(page, frames) > 10
    item = page.get_by_test_id("ruling-item").filter(has_text="Called the kaisa")
    expect(item).to_be_visible()
    expect(item).to_have_attribute("data-clause", "2")
    expect(item.get_by_test_id("clause")).to_have_text("§ 2")
    expect(page.get_by_test_id("ruling-summary")).to_contain_text("the inning continues")
    expect(page.get_by_test_id("score-0")).to_have_text("6")
    expect(page.get_by_test_id("run")).to_contain_text("6")
    screenshot(page, "match-break-ruled.png")

    # a safety without a call: the turn passes and the computer plays its inning
    page.get_by_test_id("no-call").check()
    page.get_by_test_id("speed").fill("1.0")
    page.get_by_test_id("shoot").click()
    expect(page.get_by_test_id("ruling-summary")).to_contain_text("the turn passes", timeout=WAIT)
    page.wait_for_function("() => document.querySelectorAll('[data-testid=log-item]').length >= 3", timeout=WAIT)
    expect(page.get_by_test_id("at-table-0")).to_be_visible(timeout=WAIT)
    expect(page.get_by_test_id("shoot")).to_be_enabled(timeout=WAIT)
    expect(page.get_by_test_id("ruling-item").first).to_be_visible()
    board = scoreboard(page)
    assert board["phase"] == "play", board
    assert board["innings-1"] != "0", board
    view = live.api("GET", f"/api/matches/{match_id}")
    assert board["score-0"] == str(view["scores"]["W1"])
    assert board["score-1"] == str(view["scores"]["W2"])
    screenshot(page, "match-after-computer.png")

    # a reload finds the same match; so does a reload after a server restart
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.get_by_test_id("score-0")).to_have_text(board["score-0"])
    assert scoreboard(page) == board
    live.restart()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.get_by_test_id("score-0")).to_have_text(board["score-0"])
    assert scoreboard(page) == board
    assert page.url.endswith(f"#/match/{match_id}")
    expect(page.get_by_test_id("ruling-item").first).to_be_visible()

    # the language switch changes the referee's words and the labels, and is remembered
    english = page.get_by_test_id("ruling-text").all_inner_texts()
    page.get_by_test_id("lang-fi").click()
    expect(page.get_by_test_id("nav-history")).to_have_text("Historia")
    expect(page.get_by_test_id("phase")).to_have_text("Vaihe: Peli")
    expect(page.get_by_test_id("shoot")).to_have_text("Lyö")
    finnish = page.get_by_test_id("ruling-text").all_inner_texts()
    # the computer goes by its level's name in the page's language, never the English one
    expect(page.get_by_test_id("player-1").get_by_test_id("name-1")).to_have_text("Vertailupelaaja")
    assert "Baseline" not in page.locator("body").inner_text()
    # Undo says what it takes back: Aino's safety (no call) and the computer's inning after it (the whole sentence
    # is the button's title; its text where it fits on the bar's line, else "your stroke" alone)
    replies = live.api("GET", f"/api/matches/{match_id}")["strokes"] - 2
    full = "Peru lyöntisi ilman maalausta ja tietokoneen " + ("lyönti" if replies == 1 else f"{replies} lyöntiä")
    expect(page.get_by_test_id("undo")).to_have_attribute("title", full)
    expect(page.get_by_test_id("undo")).to_have_text(re.compile(f"^({re.escape(full)}|Peru lyöntisi)$"))
    assert finnish != english
    assert len(finnish) == len(english)
    assert any("Lyöntivuoro" in text or "Maalattu" in text or "Virhe" in text for text in finnish), finnish
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.get_by_test_id("nav-history")).to_have_text("Historia")
    screenshot(page, "match-finnish.png")
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("nav-history")).to_have_text("History")
    expect(page.get_by_test_id("ruling-text").first).to_have_text(english[0])

    # undo takes back Aino's safety and the computer's inning after it
    expect(page.get_by_test_id("player-1").get_by_test_id("name-1")).to_have_text("Baseline")
    full = "Undo your stroke without a call and the computer's " + ("stroke" if replies == 1 else f"{replies} strokes")
    expect(page.get_by_test_id("undo")).to_have_attribute("title", full)
    expect(page.get_by_test_id("undo")).to_have_text(re.compile(f"^({re.escape(full)}|Undo your stroke)$"))
    page.get_by_test_id("undo").click()
    expect(page.get_by_test_id("score-0")).to_have_text("6")
    expect(page.get_by_test_id("score-1")).to_have_text("0")
    expect(page.get_by_test_id("at-table-0")).to_be_visible()
    assert live.api("GET", f"/api/matches/{match_id}")["scores"] == {"W1": 6, "W2": 0}
    expect(page.get_by_test_id("undo")).to_have_attribute("title", "Undo your stroke “K FL”")
    expect(page.get_by_test_id("undo")).to_have_text(re.compile("^(Undo your stroke “K FL”|Undo “K FL”)$"))


def test_two_players_lag_placement_and_ball_in_hand(live: LiveServer, page: Page) -> None:
    """Two people at one screen with the competition clock: both lag balls stay in their halves, W2 stays out of
    the kaisa's corridors and beyond the centre line, the ball in hand stays behind the head string and off the
    other balls; a clock break extends the limit."""
    goto(page, live.url)
    page.get_by_test_id("two-name-1").fill("Eero")
    page.get_by_test_id("two-name-2").fill("Helmi")
    page.get_by_test_id("two-clock-on").check()
    page.get_by_test_id("start-two").click()
    page.wait_for_url(re.compile(r".*#/match/\d+$"))
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "lag")
    expect(page.get_by_test_id("clock-time")).to_have_text("0:00 / 60:00")
    expect(page.get_by_test_id("undo")).to_be_hidden()

    # each lag ball stays in its own half behind the head string
    drag(page, (W / 4, L / 8), (W * 0.9, L * 0.6))
    lags = dict(part.split(":") for part in (page.get_by_test_id("table").get_attribute("data-lag") or "").split(";"))
    x0, y0 = (float(v) for v in lags["0"].split(","))
    assert x0 < W / 2, lags
    assert y0 < HEAD_STRING, lags
    page.get_by_test_id("lag-active-1").click()
    expect(page.get_by_test_id("prompt")).to_contain_text("Helmi (W2)")
    drag(page, (3 * W / 4, L / 8), (0.1, L / 8))
    lags = dict(part.split(":") for part in (page.get_by_test_id("table").get_attribute("data-lag") or "").split(";"))
    x1, _ = (float(v) for v in lags["1"].split(","))
    assert x1 > W / 2, lags
    drag(page, (x1, L / 8), (3 * W / 4, L / 8))  # back to a plain lag
    page.get_by_test_id("direction").fill("90")
    page.get_by_test_id("direction").press("Tab")
    page.get_by_test_id("speed").fill("1.3")  # shorter than Eero's: level lags would be played again
    page.get_by_test_id("lag-active-0").click()
    # each player's lag starts near a good power, a little different, so the defaults do not decide the lag
    default = float(page.get_by_test_id("speed-out").inner_text().split()[0])
    assert abs(default - 1.41) <= 0.151, default
    page.get_by_test_id("speed").fill("1.41")
    drag(page, (x0, y0), (W / 4, L / 8))
    frames = anim_count(page)
    page.get_by_test_id("shoot").click()
    wait_for_animation(page, frames)
    expect(page.get_by_test_id("lag-result")).to_contain_text("Eero wins")
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "choose")

    # the winner takes W2 and places it first
    page.get_by_test_id("choose-W2").click()
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "place-w2")
    match_id = int(page.url.rsplit("/", 1)[1])
    corridors = live.api("GET", f"/api/matches/{match_id}")["w2_corridors"]
    assert len(corridors) == 2
    start = point(page, "data-w2")
    on_line = (W / 2 - 0.3, L / 2 + 0.6)  # on the kaisa's line to FL
    drag(page, start, on_line)
    w2 = point(page, "data-w2")
    for corridor in corridors:
        assert segment_distance(w2, corridor["from"], corridor["to"]) >= corridor["clearance"], (w2, corridor)
    drag(page, w2, (W / 2 + 0.4, L / 2 - 0.4))  # towards the head: stays beyond the centre line
    w2 = point(page, "data-w2")
    assert w2[1] > CENTRE_LINE
    screenshot(page, "place-w2-corridors.png")
    page.get_by_test_id("place-w2").click()
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "play")

    # W1 breaks from hand: it stays behind the head string, inside the cushions, off the red on the string
    cue = point(page, "data-cue")
    drag(page, cue, (1.0, 1.3))
    cue = point(page, "data-cue")
    assert cue[1] < HEAD_STRING
    assert R <= cue[0] <= W - R
    drag(page, cue, (W / 2, HEAD_STRING))  # onto R1 on the head-string spot
    cue = point(page, "data-cue")
    assert math.dist(cue, (W / 2, HEAD_STRING)) >= 2 * R
    assert cue[1] < HEAD_STRING
    drag(page, cue, (-0.5, 0.2))  # beyond the left cushion
    cue = point(page, "data-cue")
    assert cue[0] >= R
    screenshot(page, "ball-in-hand.png")

    # the cue tip: a click outside the legal circle is clamped to half the ball radius
    tip = page.get_by_test_id("tip")
    box = tip.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] - 2)
    expect(page.get_by_test_id("tip-out")).to_have_text("side 0.00 · draw 0.50")
    page.mouse.click(box["x"] + box["width"] * 0.9, box["y"] + box["height"] * 0.1)
    side, follow = float(tip.get_attribute("data-side") or 0), float(tip.get_attribute("data-follow") or 0)
    assert side > 0
    assert follow > 0
    assert math.hypot(side, follow) <= 0.5 + 1e-9
    page.get_by_test_id("tip-centre").click()
    expect(page.get_by_test_id("tip-out")).to_have_text("side 0.00 · follow 0.00")
    page.get_by_test_id("elevation").fill("30")
    expect(page.get_by_test_id("elevation-out")).to_have_text("30°")

    # one break per player, added to the playing time (6)
    page.get_by_test_id("take-break").click()
    expect(page.get_by_test_id("resume")).to_be_visible()
    page.wait_for_timeout(1100)
    page.get_by_test_id("resume").click()
    expect(page.get_by_test_id("clock-time")).to_contain_text("/ 60:0")
    expect(page.get_by_test_id("clock-time")).not_to_contain_text("/ 60:00")
    expect(page.get_by_test_id("take-break")).to_be_hidden()


def test_clock_final_innings_and_shootout(live: LiveServer, page: Page) -> None:
    """The competition clock runs out (strokes sent through the API with their seconds): the warning, the final
    innings, then the shoot-out lag on an empty table played on the page, and the shoot-out on the scoreboard."""
    created = live.api(
        "POST",
        "/api/matches",
        {"players": [{"name": "Eero", "kind": "human"}, {"name": "Helmi", "kind": "human"}], "clock": "wall"},
    )
    match_id = created["id"]
    lags = [
        {"ball": "W1", "speed": 1.41, "direction": 90, "place": [W / 4, L / 8]},
        {"ball": "W2", "speed": 1.30, "direction": 90, "place": [3 * W / 4, L / 8]},
    ]
    live.api("POST", f"/api/matches/{match_id}/lag", {"strokes": lags})
    live.api("POST", f"/api/matches/{match_id}/choose", {"cue_ball": "W1"})
    view = live.api("POST", f"/api/matches/{match_id}/place-w2", {"point": [W / 2, 2.6]})["match"]

    def safety(seconds: float) -> dict[str, Any]:
        stroke: dict[str, Any] = {"ball": view["shooter"], "speed": 0.6, "direction": 90}
        if view["from_hand"]:
            stroke["place"] = [0.3, 0.3]
        played = live.api("POST", f"/api/matches/{match_id}/shot", {"call": None, "stroke": stroke, "seconds": seconds})
        return dict(played["match"])

    view = safety(3400)  # five minutes left
    goto(page, f"{live.url}#/match/{match_id}")
    # the wall clock runs on from the stroke's 3,400 s while the page loads (a loaded machine took 5 s)
    expect(page.get_by_test_id("clock-time")).to_contain_text(re.compile(r"56:[45]\d / 60:00"))
    expect(page.get_by_test_id("clock-warning")).to_be_visible()
    view = safety(300)  # time is up: two final innings each, the W2 player last
    page.reload()
    expect(page.get_by_test_id("clock-final")).to_contain_text("final innings W1, W2, W1, W2")
    expect(page.get_by_test_id("outcome-note")).to_contain_text("time is up")
    for _ in range(4):
        view = safety(10)
    assert view["phase"] == "shootout-lag"
    page.reload()
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "shootout-lag")
    expect(page.get_by_test_id("table")).to_have_attribute("data-balls", "W1,W2")  # the lag on an empty table
    page.get_by_test_id("lag-active-0").click()
    page.get_by_test_id("speed").fill("1.41")  # each lag as its player sets it (the defaults differ a little)
    page.get_by_test_id("lag-active-1").click()
    page.get_by_test_id("speed").fill("1.3")
    frames = anim_count(page)
    page.get_by_test_id("shoot").click()
    wait_for_animation(page, frames)
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "shootout")
    expect(page.get_by_test_id("shootout")).to_contain_text("Eero (W1) 0/10 innings")
    expect(page.get_by_test_id("table")).to_have_attribute("data-balls", "K,W1")
    expect(page.get_by_test_id("in-hand-0")).to_be_visible()
    screenshot(page, "shootout.png")
    page.get_by_test_id("lang-fi").click()
    expect(page.get_by_test_id("shootout")).to_contain_text("Rankkari")
    expect(page.get_by_test_id("clock-final")).to_contain_text("viimeiset lyöntivuorot on pelattu")


def test_study_advise_and_shot(live: LiveServer, page: Page) -> None:
    """The study table: drag a ball anywhere, ask the advisor, load its call, play it and see it ruled."""
    goto(page, live.url + "#/study")
    table = page.get_by_test_id("table")
    expect(table).to_have_attribute("data-phase", "study")
    drag(page, (W / 2, L / 2), (W / 2 + 0.2, L * 0.7))  # the kaisa, beyond any placement rule
    page.get_by_test_id("advise-level").select_option("beginner")
    page.get_by_test_id("advise").click()
    expect(page.get_by_test_id("advice-item").first).to_be_visible(timeout=WAIT)
    count = int(table.get_attribute("data-advice-count") or 0)
    assert count == page.get_by_test_id("advice-item").count() >= 1
    screenshot(page, "study-advice.png")
    page.get_by_test_id("advice-item").first.click()
    frames = anim_count(page)
    page.get_by_test_id("shoot").click()
    wait_for_animation(page, frames)
    expect(page.get_by_test_id("ruling-summary")).to_be_visible()
    expect(page.get_by_test_id("study-back")).to_be_enabled()


def test_history_lists_and_replays_a_match(live: LiveServer, page: Page) -> None:
    created = live.api(
        "POST",
        "/api/matches",
        {"players": [{"name": "Saara", "kind": "human"}, {"name": "Botti", "kind": "baseline"}], "seed": SEED},
    )
    match_id = created["id"]
    lag = {"ball": "W1", "speed": 1.41, "direction": 90, "place": [W / 4, L / 8]}
    live.api("POST", f"/api/matches/{match_id}/lag", {"strokes": [lag, None]})
    goto(page, live.url + "#/history")
    row = page.locator(f"[data-testid=history-row][data-match-id='{match_id}']")
    expect(row).to_contain_text("Saara")
    expect(row.get_by_test_id("continue")).to_be_visible()
    row.get_by_test_id("replay").click()
    page.wait_for_url(re.compile(rf".*#/replay/{match_id}/-1$"))
    # the replay counts strokes: the lag is an action of its own, not a stroke
    expect(page.get_by_test_id("replay-step")).to_have_text("stroke 0 / 0")
    frames = anim_count(page)
    page.get_by_test_id("replay-next").click()
    assert wait_for_animation(page, frames) > 10
    expect(page.get_by_test_id("replay-step")).to_have_attribute("data-index", "0")
    expect(page.get_by_test_id("replay-step")).to_have_text("stroke 0 / 0")
    expect(page.get_by_test_id("lag-result")).to_contain_text("wins")
    screenshot(page, "replay-lag.png")
    goto(page, live.url + "#/history")
    page.locator(f"[data-testid=history-row][data-match-id='{match_id}']").get_by_test_id("continue").click()
    page.wait_for_url(re.compile(rf".*#/match/{match_id}$"))
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "choose")


def test_replayed_view_is_the_match_after_that_action(live: LiveServer) -> None:
    created = live.api(
        "POST", "/api/matches", {"players": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]}
    )
    match_id = created["id"]
    lags = [
        {"ball": "W1", "speed": 1.41, "direction": 90, "place": [W / 4, L / 8]},
        {"ball": "W2", "speed": 1.30, "direction": 90, "place": [3 * W / 4, L / 8]},
    ]
    live.api("POST", f"/api/matches/{match_id}/lag", {"strokes": lags})
    live.api("POST", f"/api/matches/{match_id}/choose", {"cue_ball": "W1"})
    live.api("POST", f"/api/matches/{match_id}/place-w2", {"point": [W / 2, 2.6]})
    scratch = {"ball": "W1", "speed": 1.0, "direction": 225, "place": [0.2, 0.2]}  # straight into HL: 7a
    played = live.api("POST", f"/api/matches/{match_id}/shot", {"call": None, "stroke": scratch})
    assert played["match"]["fouls"] == {"W1": 1, "W2": 0}
    replayed = live.api("GET", f"/api/matches/{match_id}/actions/2/animation")["match"]  # W2's placement
    assert replayed["phase"] == "play"
    assert replayed["fouls"] == {"W1": 0, "W2": 0}
    assert replayed["actions"] == 3


def test_phone_layout_fits_and_is_crisp(live: LiveServer, browser: Browser) -> None:
    page, errors = open_page(browser, width=390, height=844, scale=3)
    try:
        created = live.api(
            "POST", "/api/matches", {"players": [{"name": "A", "kind": "human"}, {"name": "B", "kind": "human"}]}
        )
        goto(page, f"{live.url}#/match/{created['id']}")
        table = page.get_by_test_id("table")
        expect(table).to_have_attribute("data-phase", "lag")
        box = table.bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390
        assert box["height"] <= 844
        size = page.evaluate(
            "() => { const c = document.querySelector('canvas#table'); return [c.width, c.clientWidth]; }"
        )
        assert size[0] == round(size[1] * 3)
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        screenshot(page, "phone-lag.png")
    finally:
        page.context.close()
    assert not errors, errors


RESTART_AFTER_ADVICE = """
import json, socket, sys, threading, time, urllib.request
import uvicorn
from kaisa.records.storage import open_store
from kaisa.web import create_app

port, db = int(sys.argv[1]), sys.argv[2]
server = uvicorn.Server(uvicorn.Config(create_app(open_store("sqlite:///" + db), close_store=True),
                                       host="127.0.0.1", port=port, log_level="warning"))
thread = threading.Thread(target=server.run, daemon=True)
thread.start()
for _ in range(600):
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/api/table", timeout=2)
        break
    except OSError:
        time.sleep(0.05)
position = {"W1": [0.5, 0.4], "K": [0.71, 1.42], "R1": [0.71, 0.71], "R2": [0.71, 2.13], "W2": [0.71, 2.6]}
body = json.dumps({"position": {"balls": position}, "level": "beginner", "limit": 1}).encode()
request = urllib.request.Request(f"http://127.0.0.1:{port}/api/study/advise", data=body,
                                 headers={"content-type": "application/json"})
urllib.request.urlopen(request, timeout=120).read()
server.should_exit = True
thread.join(30)
probe = socket.socket()
probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    probe.bind(("127.0.0.1", port))
except OSError as error:
    sys.exit(f"the stopped server's port {port} is still taken: {error}")
print("port free")
"""


def test_port_is_free_after_the_advisor_ran(tmp_path: Path) -> None:
    """A server that has answered /api/study/advise and then stopped leaves its port free for a restart. Run in a
    fresh interpreter, so the advisor's pool is first used inside the server as in ``kaisa play``."""
    done = subprocess.run(
        [sys.executable, "-c", RESTART_AFTER_ADVICE, str(free_port()), str(tmp_path / "kaisa.sqlite3")],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# --- aiming a person can pot with --------------------------------------------------------------------------------


def seeded_pots(table: dict[str, Any], count: int = 10, seed: int = 17) -> list[dict[str, Any]]:
    """``count`` called pots of K into a corner pocket for W1, 0.5-2 m in all (cue ball to K to the pocket),
    from straight to half-ball cuts (0-30 degrees), K within 12 degrees of the pocket's axis, on a table with
    only the two balls."""
    import random

    rng = random.Random(seed)
    pockets = {p: table["pockets"][p]["jaws"] for p in ("HL", "HR", "FL", "FR")}
    out: list[dict[str, Any]] = []
    margin = 2.5 * R
    while len(out) < count:
        pocket = rng.choice(sorted(pockets))
        a, b = (j["point"] for j in pockets[pocket])
        mouth = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        # the pocket's axis: square to the line between its jaw points, into the table
        axis = (-(b[1] - a[1]), b[0] - a[0])
        if axis[0] * (W / 2 - mouth[0]) + axis[1] * (L / 2 - mouth[1]) < 0:
            axis = (-axis[0], -axis[1])
        line = math.atan2(axis[1], axis[0]) + math.radians(rng.uniform(-12, 12))
        object_run = rng.uniform(0.25, 0.9)
        k = (mouth[0] + object_run * math.cos(line), mouth[1] + object_run * math.sin(line))
        cut = math.radians(rng.uniform(0, 30)) * rng.choice((-1, 1))
        cue_run = rng.uniform(0.25, 1.1)
        ghost = (k[0] + 2 * R * math.cos(line), k[1] + 2 * R * math.sin(line))
        w1 = (ghost[0] + cue_run * math.cos(line + cut), ghost[1] + cue_run * math.sin(line + cut))
        total = object_run + cue_run
        on_bed = all(margin < p[0] < W - margin and margin < p[1] < L - margin for p in (k, w1))
        if on_bed and 0.5 <= total <= 2.0:
            out.append({"W1": list(w1), "K": list(k), "pocket": pocket, "ghost": ghost, "cut": math.degrees(cut)})
    return out


def try_pot(page: Page, url: str, pot: dict[str, Any], aids: str) -> bool:
    """A person at the study table: calls K and the pocket by tapping them, aims by tapping the ghost ball,
    with ``aids`` full also asks the aim helper (the A key), and shoots with Space. Whether the call scored."""
    position = {"position": {"W1": pot["W1"], "K": pot["K"]}, "shooter": "W1"}
    goto(page, url + "#/study")
    page.evaluate(
        "([s, a]) => { localStorage.setItem('kaisa.study', JSON.stringify(s)); localStorage.setItem('kaisa.aids', a); }",
        [position, aids],
    )
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    click_table(page, tuple(pot["K"]))
    mouth = page.evaluate(
        "p => { const j = window.kaisa.table.pockets[p].jaws; return [(j[0].point[0] + j[1].point[0]) / 2, "
        "(j[0].point[1] + j[1].point[1]) / 2]; }",
        pot["pocket"],
    )
    click_table(page, (mouth[0], mouth[1]))
    expect(page.get_by_test_id("call-text")).to_have_value(f"K {pot['pocket']}")
    click_table(page, pot["ghost"])  # aim at the ghost ball as a player sees it
    if aids == "full":
        page.keyboard.press("a")
        page.wait_for_function(
            "() => ['ok', 'none'].includes(document.querySelector('[data-testid=aim-status]').dataset.state)",
            timeout=WAIT,
        )
    before = anim_count(page)
    page.keyboard.press("Space")
    wait_for_animation(page, before)
    ruling = page.get_by_test_id("ruling")
    expect(ruling).to_have_attribute("data-legal-pot", re.compile("true|false"), timeout=WAIT)
    return ruling.get_attribute("data-legal-pot") == "true"


def test_a_person_pots_seeded_called_pots_with_the_aim_helper(live: LiveServer, browser: Browser) -> None:
    """10 seeded called pots of 0.5-2 m, straight to half-ball cuts, aimed only with the page's controls (taps on
    the table, the A key of the aim helper, Space): at least 8 go in with full aids. With no aids the same
    person taps the ghost ball and shoots; that count is printed for the record (the ghost ball alone ignores
    throw and the pocket's jaws)."""
    table = live.api("GET", "api/table")
    pots = seeded_pots(table)
    page, errors = open_page(browser, 1440, 900, 1)
    try:
        full = [try_pot(page, live.url, pot, "full") for pot in pots]
        bare = [try_pot(page, live.url, pot, "none") for pot in pots]
        screenshot(page, "aim-study.png")
    finally:
        page.context.close()
    print(f"\ncalled pots potted: {sum(full)}/10 with full aids, {sum(bare)}/10 with no aids")
    assert sum(full) >= 8, f"only {sum(full)} of 10 called pots went in with full aids: {full}"
    assert not errors, errors


# --- a whole match, the summary, the history and a replay, in both languages and at both sizes ----------------------

DOCS_IMAGES = docs_images()
SIZES = {"desktop": (1440, 900), "phone": (390, 844)}


def no_sideways_scroll(page: Page) -> None:
    over = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert over <= 0, f"the page scrolls sideways by {over} px"


def shoot_reachable(page: Page) -> None:
    """Shoot is on the screen without scrolling (a phone: in the bar at the foot)."""
    expect(page.get_by_test_id("shoot")).to_be_visible(timeout=WAIT)
    box = page.get_by_test_id("shoot").bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert box is not None
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= height, box


def doc_shot(page: Page, name: str) -> None:
    """A screenshot of a main screen for the README (docs/images) and the test artifacts."""
    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_IMAGES / name))
    screenshot(page, name)


def press_if_ready(page: Page, test_id: str) -> bool:
    """Click the button if it is on the screen and enabled now (it may go while the computer plays)."""
    ready = page.evaluate(
        "id => { const b = document.querySelector(`[data-testid=${id}]`);"
        " return Boolean(b && !b.disabled && b.offsetParent !== null); }",
        test_id,
    )
    if not ready:
        return False
    try:
        page.get_by_test_id(test_id).click(timeout=2000)
    except PlaywrightError:
        return False
    return True


def shown_name(live: LiveServer, player: dict[str, Any], lang: str) -> str:
    """A player's name as the page shows it: a computer player named after its level by the level's name in the
    page's language ("Vertailupelaaja"), a name given as it is."""
    if player["kind"] == "human" or player["name"].lower() != player["kind"]:
        return str(player["name"])
    level = str(live.api("GET", "/api/players")[player["kind"]]["name"][lang])
    return level[0].upper() + level[1:]


def play_to_the_summary(page: Page, lang: str, shots: str | None = None) -> None:
    """Play the person's side as a beginner would (the lag as set, the break and every later stroke as safeties
    without a call, Space to shoot) until the match ends and its summary opens."""
    deadline = time.monotonic() + 240
    saw_aim = False
    while time.monotonic() < deadline:
        if page.get_by_test_id("summary").is_visible():
            return
        if press_if_ready(page, "choose-W1") or press_if_ready(page, "place-w2"):
            continue
        shoot = page.get_by_test_id("shoot")
        if shoot.is_visible() and shoot.is_enabled() and page.get_by_test_id("prompt").inner_text():
            no_call = page.get_by_test_id("no-call")
            if no_call.is_visible() and not no_call.is_checked():
                no_call.check()
            if shots and not saw_aim and page.locator("#call-controls").is_visible():
                shoot_reachable(page)
                page.evaluate("window.scrollTo(0, 0)")  # back at the table to aim (a phone: the call is set below it)
                doc_shot(page, f"{shots}-aim.png")
                saw_aim = True
            page.get_by_test_id("table").focus()  # the keys work on the table, not in a form field
            page.keyboard.press("Space")
            page.wait_for_timeout(300)
            continue
        page.wait_for_timeout(250)
    screenshot(page, f"stuck-{lang}.png")
    raise AssertionError(f"the match did not end within 240 s ({lang})")


@pytest.mark.parametrize(("lang", "size"), [("fi", "desktop"), ("en", "phone")])
def test_a_whole_match_against_the_computer_to_the_summary_and_its_replay(
    live: LiveServer, browser: Browser, lang: str, size: str
) -> None:
    """From the lag to the end-of-match summary against the computer, the history and a replay jumped to
    stroke N, in Finnish at 1440x900 and in English at 390x844 (then the same screens in the other language
    and size): no console errors, no sideways scroll, Shoot within reach."""
    width, height = SIZES[size]
    page, errors = open_page(browser, width, height, 1)
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.context.add_init_script(
        f"localStorage.setItem('kaisa.lang', '{lang}'); localStorage.setItem('kaisa.sound', 'off');"
        "localStorage.setItem('kaisa.animSpeed', '50');"
    )
    try:
        goto(page, live.url)
        doc_shot(page, f"start-{lang}-{size}.png")
        no_sideways_scroll(page)
        page.get_by_test_id("name-1").fill("Aino")
        page.get_by_test_id("level").select_option("baseline")
        page.get_by_test_id("form-computer").locator("summary").click()
        page.get_by_test_id("seed").fill("11")
        page.get_by_test_id("start-computer").click()
        page.wait_for_url(re.compile(r".*#/match/\d+$"))
        match_id = int(page.url.rsplit("/", 1)[1])
        shoot_reachable(page)
        no_sideways_scroll(page)
        page.get_by_test_id("speed").fill("1.45")  # the default lag power is a little random (so defaults never decide)
        page.get_by_test_id("table").focus()
        page.keyboard.press("Space")  # the lag
        expect(page.get_by_test_id("lag-distance-0")).to_be_visible(timeout=WAIT)
        expect(page.get_by_test_id("lag-distance-1")).to_contain_text("cm")
        doc_shot(page, f"lag-{lang}-{size}.png")
        play_to_the_summary(page, lang, shots=f"match-{lang}-{size}")
        doc_shot(page, f"summary-{lang}-{size}.png")
        view = live.api("GET", f"/api/matches/{match_id}")
        assert view["phase"] == "over"
        assert not view["can_undo"]
        winner = shown_name(live, next(p for p in view["players"] if p["cue_ball"] == view["result"]["winner"]), lang)
        expect(page.get_by_test_id("summary-title")).to_contain_text(winner)
        if lang == "fi":  # the computer by its level's Finnish name, never the English one
            expect(page.get_by_test_id("summary-table")).to_contain_text("Vertailupelaaja")
            assert "Baseline" not in page.locator("body").inner_text()
        for i, p in enumerate(view["players"]):
            expect(page.get_by_test_id(f"summary-points-{i}")).to_have_text(
                str(view["result"]["recorded"][p["cue_ball"]])
            )
            expect(page.get_by_test_id(f"summary-innings-{i}")).to_have_text(str(view["innings"][p["cue_ball"]]))
        # the winning stroke's ruling says the match is over, and no card shows more than the recorded 60
        expect(page.get_by_test_id("ruling-summary")).to_contain_text(
            "ottelu päättyi" if lang == "fi" else "the match is over"
        )
        assert max(int(page.get_by_test_id(f"score-{i}").inner_text()) for i in (0, 1)) == 60
        page.get_by_test_id("summary-close").click()
        expect(page.get_by_test_id("undo")).to_be_hidden()
        no_sideways_scroll(page)

        # the history: names, date, winner and strokes
        page.goto(live.url + "#/history")
        row = page.locator(f"[data-testid=history-row][data-match-id='{match_id}']")
        expect(row.get_by_test_id("history-winner")).to_contain_text(winner)
        expect(row.get_by_test_id("history-strokes")).to_have_text(str(view["strokes"]))
        if lang == "fi":
            expect(row).to_contain_text("Vertailupelaaja")
            assert "Baseline" not in page.locator("body").inner_text()
        doc_shot(page, f"history-{lang}-{size}.png")
        no_sideways_scroll(page)

        # the replay jumped to stroke N from the list of strokes, then moved with the scrubber, stroke by stroke
        row.get_by_test_id("replay").click()
        items = page.get_by_test_id("replay-item")
        expect(items.first).to_be_visible()
        n = min(5, items.count() - 1)
        items.nth(n).locator("button").click()
        step = page.get_by_test_id("replay-step")
        expect(step).to_have_attribute("data-index", str(n))
        expect(page.get_by_test_id("ruling")).not_to_be_empty()
        k = int(step.get_attribute("data-stroke") or 0)
        word = "lyönti" if lang == "fi" else "stroke"
        # the words are the counter's name; a phone's bar shows the numbers alone
        expect(step).to_have_attribute("aria-label", f"{word} {k} / {view['strokes']}")
        expect(step).to_have_text(re.compile(f"^({word} )?{k} / {view['strokes']}$"))
        page.get_by_test_id("replay-scrub").fill(str(k + 1))
        expect(step).to_have_attribute("data-stroke", str(k + 1))
        expect(step).to_have_attribute("aria-label", f"{word} {k + 1} / {view['strokes']}")
        shown = int(step.get_attribute("data-index") or -1)
        expect(items.nth(shown)).to_have_attribute("aria-current", "step")
        expect(items.nth(shown)).to_contain_text(f"{k + 1}. ")
        page.evaluate("window.scrollTo(0, 0)")  # the table the list and the scrubber moved (a phone: below it)
        doc_shot(page, f"replay-{lang}-{size}.png")
        no_sideways_scroll(page)

        # the other language at the same size: the summary's screens read right there too
        other = "en" if lang == "fi" else "fi"
        page.get_by_test_id(f"lang-{other}").click()
        expect(page.locator("html")).to_have_attribute("lang", other)
        no_sideways_scroll(page)
        page.goto(live.url + "#/study")
        page.wait_for_selector("#study-controls:visible")
        shoot_reachable(page)
        doc_shot(page, f"study-{other}-{size}.png")
        no_sideways_scroll(page)
    finally:
        page.context.close()
    assert not errors, errors
    assert not console, console


# --- the hint, the study's game state, respots and a long history ------------------------------------------------


def two_people_at_the_break(live: LiveServer, clock: str = "off") -> int:
    """Two people after the lag, the choice and W2's placement: W1 breaks from hand."""
    players = [{"name": "Aino", "kind": "human"}, {"name": "Eero", "kind": "human"}]
    match_id: int = live.api("POST", "/api/matches", {"players": players, "clock": clock})["id"]
    lags = [
        {"ball": "W1", "speed": 1.41, "direction": 90, "place": [W / 4, L / 8]},
        {"ball": "W2", "speed": 1.30, "direction": 90, "place": [3 * W / 4, L / 8]},
    ]
    live.api("POST", f"/api/matches/{match_id}/lag", {"strokes": lags})
    live.api("POST", f"/api/matches/{match_id}/choose", {"cue_ball": "W1"})
    live.api("POST", f"/api/matches/{match_id}/place-w2", {"point": [W / 2, 2.6]})
    return match_id


@pytest.mark.parametrize(("lang", "width", "height"), [("fi", 1440, 900), ("en", 390, 844)])
def test_a_hint_is_drawn_taken_or_dismissed_and_changes_nothing(
    live: LiveServer, browser: Browser, lang: str, width: int, height: int
) -> None:
    """The person at the table asks for a hint: progress while the advisor thinks, then the call on the table and
    in words with its odds; Dismiss takes it away, Take fills the call and the aim; the match records nothing
    until the person shoots."""
    page, errors = open_page(browser, width, height, scale=1)
    try:
        match_id = two_people_at_the_break(live)
        page.context.add_init_script(f"localStorage.setItem('kaisa.lang', '{lang}')")
        goto(page, live.url + f"#/match/{match_id}")
        before = live.api("GET", f"/api/matches/{match_id}")
        page.get_by_test_id("hint-level").select_option("club")
        page.get_by_test_id("hint").click()
        assert page.get_by_test_id("hint-box").get_attribute("data-state") in ("thinking", "shown")
        expect(page.get_by_test_id("hint-take")).to_be_visible(timeout=WAIT)
        # the same turn, the same seed: the page shows what the API advises
        hint = live.api("POST", f"/api/matches/{match_id}/hint", {"level": "club", "limit": 3})[0]
        expect(page.get_by_test_id("hint-call")).to_have_text(hint["call"])
        expect(page.get_by_test_id("hint-words")).to_have_text(hint["words"][lang])
        expect(page.get_by_test_id("hint-odds")).to_contain_text("%")
        expect(page.get_by_test_id("table")).to_have_attribute("data-hint", hint["call"])
        expect(page.get_by_test_id("hint-take")).to_be_in_viewport()
        no_sideways_scroll(page)
        doc_shot(page, f"hint-{lang}-{'desktop' if width > 800 else 'phone'}.png")
        assert live.api("GET", f"/api/matches/{match_id}") == before  # a read: nothing recorded
        page.get_by_test_id("hint-dismiss").click()
        expect(page.get_by_test_id("hint-box")).to_be_hidden()
        expect(page.get_by_test_id("table")).to_have_attribute("data-hint", "")
        page.get_by_test_id("hint").click()
        page.get_by_test_id("hint-take").click()
        expect(page.get_by_test_id("hint-box")).to_be_hidden()
        expect(page.get_by_test_id("call-text")).to_have_value(hint["call"])
        direction = float(page.get_by_test_id("direction").input_value().replace(",", ".").replace("−", "-"))
        assert (direction - hint["stroke"]["direction"] + 180) % 360 - 180 == pytest.approx(0, abs=0.006)
        assert point(page, "data-cue") == pytest.approx(tuple(hint["stroke"]["place"]), abs=1e-3)
        assert live.api("GET", f"/api/matches/{match_id}") == before
        frames = anim_count(page)
        page.get_by_test_id("shoot").click()
        wait_for_animation(page, frames)
        expect(page.get_by_test_id("ruling-summary")).to_be_visible(timeout=WAIT)
        assert live.api("GET", f"/api/matches/{match_id}")["actions"] == before["actions"] + 1
        # two people: Undo names whose stroke it takes back, the call set apart
        # (where the whole sentence does not fit on the bar's line the short form shows; the whole is the title)
        call = hint["call"]
        full = f"Peru lyönti ”{call}” (Aino)" if lang == "fi" else f"Undo Aino's stroke “{call}”"
        expect(page.get_by_test_id("undo")).to_have_attribute("title", full)
        short = f"Peru ”{call}” (Aino)" if lang == "fi" else f"Undo “{call}” (Aino)"
        expect(page.get_by_test_id("undo")).to_have_text(re.compile(f"^({re.escape(full)}|{re.escape(short)})$"))
    finally:
        page.context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def test_study_sets_the_game_state_and_plays_on_as_a_match_would(live: LiveServer, page: Page) -> None:
    """Study sets whose turn, who is in hand, the break, the 2.1 flag and both scores; an impossible state is
    refused in the page's language; a stroke is ruled in that state and the study goes on from the ruling's."""
    goto(page, live.url + "#/study")
    page.get_by_test_id("study-state").locator("summary").click()
    page.get_by_test_id("study-shooter").select_option("W2")
    page.get_by_test_id("study-hand-W2").check()
    for ball, score in (("W1", "40"), ("W2", "55")):
        page.get_by_test_id(f"study-score-{ball}").fill(score)
        page.get_by_test_id(f"study-score-{ball}").dispatch_event("change")
    expect(page.get_by_test_id("study-state-summary")).to_have_text("W2 to play · 40–55 · W2 in hand")
    assert point(page, "data-cue")[1] < HEAD_STRING  # W2 in hand went behind the head string
    page.get_by_test_id("no-call").check()
    page.get_by_test_id("study-twice").check()  # a direct middle kaisa before, yet in hand: no match is like that
    page.get_by_test_id("shoot").click()
    expect(page.get_by_test_id("message-text")).to_contain_text("(2.1)")
    page.get_by_test_id("lang-fi").click()
    page.get_by_test_id("shoot").click()
    expect(page.get_by_test_id("message-text")).to_contain_text("Edellinen suoraan keskipussiin mennyt kaisa")
    page.get_by_test_id("lang-en").click()
    page.get_by_test_id("study-twice").uncheck()
    page.get_by_test_id("message-close").click()
    frames = anim_count(page)
    page.get_by_test_id("shoot").click()
    wait_for_animation(page, frames)
    expect(page.get_by_test_id("ruling-who")).to_contain_text("W2")
    expect(page.get_by_test_id("ruling-summary")).to_contain_text("the turn passes")  # no call: nothing scores
    # the study keeps the person's cue ball and the scores as set (practice points never end a game)
    expect(page.get_by_test_id("study-state-summary")).to_contain_text("W2 to play · 40–55")
    screenshot(page, "study-state.png")
    page.get_by_test_id("study-back").click()
    expect(page.get_by_test_id("study-state-summary")).to_have_text("W2 to play · 40–55 · W2 in hand")


def test_a_respotted_ball_goes_to_its_spot_with_the_rulings_line(live: LiveServer, browser: Browser) -> None:
    """R1 potted as called goes back to its spot after the balls stop, when the ruling's 4 line says so."""
    fl = OFFICIAL.pockets[PocketId.FL]  # R1 40 cm out on the foot-left corner's axis, W1 40 cm behind it
    mouth, axis = fl.mouth_centre, fl.axis
    r1 = [round(mouth[0] - axis[0] * 0.4, 4), round(mouth[1] - axis[1] * 0.4, 4)]
    w1 = [round(mouth[0] - axis[0] * 0.8, 4), round(mouth[1] - axis[1] * 0.8, 4)]
    study = {"position": {"W1": w1, "R1": r1, "W2": [1.1, 0.4], "R2": [0.71, 0.71], "K": [0.71, 1.42]}, "shooter": "W1"}
    page, errors = open_page(browser)
    try:
        page.context.add_init_script(f"localStorage.setItem('kaisa.study', '{json.dumps(study)}')")
        goto(page, live.url + "#/study")
        page.get_by_test_id("call-text").fill("R1 FL")
        page.get_by_test_id("direction").fill(str(round(math.degrees(math.atan2(axis[1], axis[0])), 2)))
        page.get_by_test_id("direction").dispatch_event("change")
        page.get_by_test_id("speed").fill("1.2")
        expect(page.get_by_test_id("call-status")).not_to_be_empty()
        frames = anim_count(page)
        page.get_by_test_id("shoot").click()
        wait_for_animation(page, frames)
        expect(page.get_by_test_id("ruling-summary")).to_be_visible(timeout=WAIT)
        table = page.get_by_test_id("table")
        expect(table).to_have_attribute("data-respot-order", re.compile(r"(^|;)R1@4$"))
        expect(page.locator("[data-testid=ruling-item][data-clause='4']")).to_contain_text("R1")
    finally:
        page.context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def test_a_long_match_is_replayed_from_pages_of_its_history(live: LiveServer, browser: Browser) -> None:
    """The replay of a long match reads its history a page at a time: the first page to open, the page of a
    scrubbed-to action when it is needed; the list numbers the strokes from the first."""
    body = {"players": [{"name": "Alfa", "kind": "baseline"}, {"name": "Beeta", "kind": "baseline"}], "seed": 11}
    match_id = live.api("POST", "/api/matches", body)["id"]
    live.api("POST", f"/api/matches/{match_id}/lag", {"strokes": [None, None]})
    view = live.api("GET", f"/api/matches/{match_id}")
    while view["actions"] < 120 and view["phase"] != "over":
        view = live.api("POST", f"/api/matches/{match_id}/computer")["match"]
    count = view["actions"]
    page, errors = open_page(browser, 390, 844, scale=1)
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/actions" in r.url and "/animation" not in r.url else None)
    try:
        goto(page, live.url + f"#/replay/{match_id}/-1")
        expect(page.get_by_test_id("replay-item")).to_have_count(count)
        assert asked, "the replay read no history"
        limits = [re.search(r"[?&]limit=(\d+)", u) for u in asked]
        assert all(m is not None and int(m[1]) <= 50 for m in limits), asked
        assert "offset=0&" in asked[0]
        asked.clear()
        # the scrubber goes by stroke: the last stroke's action is read and shown
        strokes = view["strokes"]
        page.get_by_test_id("replay-scrub").fill(str(strokes))
        step = page.get_by_test_id("replay-step")
        expect(step).to_have_attribute("data-stroke", str(strokes))
        expect(step).to_have_attribute("aria-label", f"stroke {strokes} / {strokes}")
        last = int(step.get_attribute("data-index") or -1)
        assert any(f"offset={last // 50 * 50}&" in u for u in asked), asked
        expect(page.get_by_test_id("replay-action")).not_to_have_text(re.compile("loading"))
        stored = live.api("GET", f"/api/matches/{match_id}/actions?offset={last}&limit=1")[0]
        assert stored["action"]["kind"] == "shot"
        assert stored["state_after"]["strokes"] == strokes
        item = page.locator(f"[data-testid=replay-item][data-index='{last}']")
        expect(item).to_contain_text(f"{strokes}. ")
        no_sideways_scroll(page)
    finally:
        page.context.close()
    assert not errors, f"uncaught errors in the page: {errors}"


def clock_seconds(page: Page) -> tuple[float, float]:
    """The competition clock as the page shows it: (playing time, limit) in seconds."""
    text = page.get_by_test_id("clock-time").inner_text()
    minutes = [part.strip().split(":") for part in text.split("/")]
    elapsed, limit = (int(m) * 60 + int(s) for m, s in minutes)
    return elapsed, limit


def clock_at_least(page: Page, seconds: int) -> None:
    """Wait until the page's clock shows at least ``seconds`` of playing time."""
    page.wait_for_function(
        "s => { const e = document.querySelector('[data-testid=clock-time]');"
        " if (!e) return false; const [m, x] = e.textContent.split('/')[0].trim().split(':');"
        " return Number(m) * 60 + Number(x) >= s; }",
        arg=seconds,
        timeout=WAIT,
    )


def test_6_the_clock_keeps_the_turns_time_over_a_break_and_a_reload(live: LiveServer, page: Page) -> None:
    """The competition clock (6) counts the stroke due from the moment the server states (the last entry other
    than a break): time thought before a break is kept after Resume, the break extends the limit, and a reloaded
    page (or a second screen) shows the same time instead of starting the turn again."""
    match_id = two_people_at_the_break(live, clock="wall")
    since = live.api("GET", f"/api/matches/{match_id}")["clock_since"]
    assert since is not None
    goto(page, live.url + f"#/match/{match_id}")
    clock_at_least(page, 3)
    page.get_by_test_id("take-break").click()
    expect(page.get_by_test_id("resume")).to_be_visible()
    during, _ = clock_seconds(page)
    assert during >= 3
    page.get_by_test_id("resume").click()
    expect(page.get_by_test_id("take-break")).to_be_hidden()
    expect(page.get_by_test_id("clock-time")).not_to_contain_text("/ 60:00")
    view = live.api("GET", f"/api/matches/{match_id}")
    assert view["last_action"]["kind"] == "break"
    assert view["clock_since"] == since  # a break does not restart the turn
    after, limit = clock_seconds(page)
    assert after >= during
    assert 3600 < limit <= 3600 + 300  # the break extends the limit by its length
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.get_by_test_id("clock-time")).to_be_visible()
    reloaded, _ = clock_seconds(page)
    assert reloaded >= after
    # the stroke sends the whole turn's time: the server's clock goes on from there
    page.get_by_test_id("call-text").fill("K HL")
    frames = anim_count(page)
    page.get_by_test_id("shoot").click()
    wait_for_animation(page, frames)
    expect(page.get_by_test_id("ruling-summary")).to_be_visible(timeout=WAIT)
    played = live.api("GET", f"/api/matches/{match_id}")
    assert played["clock"]["elapsed"] >= reloaded
    assert played["clock_since"] != since


def club_match_forfeited(live: LiveServer) -> int:
    """A stored finished match: a club match to 40 points between Aino and Eero that Eero (W2) forfeits after W2's
    placement."""

    def post(path: str, body: Any, token: str | None = None) -> Any:
        headers = {"content-type": "application/json", **({"X-Kaisa-Token": token} if token else {})}
        request = urllib.request.Request(live.url + path, json.dumps(body).encode(), headers, method="POST")
        with urllib.request.urlopen(request, timeout=120) as answer:
            return json.load(answer)

    made = post("api/club/matches", {"players": ["Aino", "Eero"], "options": {"winning_score": 40}})
    match_id, token = int(made["match"]["id"]), str(made["token"])
    post(f"api/club/matches/{match_id}/place-w2", {"point": [W / 2, 2.6]}, token)
    post(f"api/club/matches/{match_id}/forfeit", {"cue_ball": "W2"}, token)
    return match_id


def test_the_summary_of_a_finished_match_offers_a_rematch_and_a_new_game(live: LiveServer, page: Page) -> None:
    """A finished match opened on the table shows its summary again (Summary); Rematch starts a new match of the
    same players and opens it; New game goes to the start screen."""
    match_id = club_match_forfeited(live)
    finished = live.api("GET", f"/api/matches/{match_id}")
    assert finished["phase"] == "over"
    goto(page, live.url + f"#/match/{match_id}")
    page.get_by_test_id("summary-open").click()
    expect(page.get_by_test_id("summary")).to_be_visible()
    expect(page.get_by_test_id("summary-title")).to_contain_text("Aino")
    expect(page.get_by_test_id("rematch")).to_be_enabled()
    page.get_by_test_id("rematch").click()
    page.wait_for_url(lambda url: re.search(r"#/match/\d+$", url) is not None and not url.endswith(f"/{match_id}"))
    rematch_id = int(page.url.rsplit("/", 1)[1])
    assert rematch_id != match_id
    expect(page.get_by_test_id("summary")).to_be_hidden()
    expect(page.get_by_test_id("phase")).to_have_attribute("data-phase", "lag")
    expect(page.get_by_test_id("name-0")).to_have_text("Aino")
    expect(page.get_by_test_id("player-1").get_by_test_id("name-1")).to_have_text("Eero")
    rematch = live.api("GET", f"/api/matches/{rematch_id}")
    assert [(p["name"], p["kind"]) for p in rematch["players"]] == [(p["name"], p["kind"]) for p in finished["players"]]
    assert rematch["clock"]["mode"] == finished["clock"]["mode"]
    assert rematch["winning_score"] == finished["winning_score"] == 40  # the same length of game
    assert rematch["actions"] == 0

    goto(page, live.url + f"#/match/{match_id}")
    page.get_by_test_id("summary-open").click()
    expect(page.get_by_test_id("new-game")).to_be_visible()
    page.get_by_test_id("new-game").click()
    expect(page.get_by_test_id("summary")).to_be_hidden()
    expect(page.get_by_test_id("start-computer")).to_be_visible()
    assert not page.url.endswith(f"#/match/{match_id}")
