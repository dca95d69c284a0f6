"""What the pages say (issues 17 and 18), checked in Chromium: the ruling notes a person needs, and nothing that
changed nothing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import chromium
from tests.web.club_helpers import serve

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(tmp_path_factory.mktemp("texts") / "texts.sqlite3") as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


@pytest.fixture
def page(browser: Browser, url: str) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="fi-FI")
    context.add_init_script("localStorage.setItem('kaisa.lang', 'fi')")
    opened = context.new_page()
    opened.set_default_timeout(15_000)
    opened.goto(url + "/")
    opened.wait_for_selector("body[data-ready=true]")
    yield opened
    context.close()


def _note(clause: str, fi: str, en: str) -> dict[str, Any]:
    return {"clause": clause, "points": 0, "fi": fi, "en": en}


RATTLE = {
    **_note("1.3", "Röpötystä (2 haakiosumaa) ei tarvitse maalata", "(known by its key, whatever its words)"),
    "key": "rattles",
}
STORED_RATTLE = _note(  # stored before ruling items carried their wording's key: known by its English
    "1.3", "Röpötystä (2 haakiosumaa) ei tarvitse maalata", "Rattling in the jaws needs no call (2 jaw rattles)"
)
OLD_RATTLE = _note("1.3", "Röpötystä (1 haakiosuma) ei tarvitse maalata", "Jaw rattles (1 jaw rattle) need no call")
CONTINUES = _note("1.3", "Sääntöjenmukainen pussitus: lyöntivuoro jatkuu", "A legal pot: the inning continues")
RESPOT = _note("4", "Valkoinen W2 on käsipallo omistajalleen", "White W2: its owner plays from hand")


def shown(page: Page, notes: list[dict[str, Any]], game_over: bool) -> list[str]:
    texts: list[str] = page.evaluate(
        """async ([notes, over]) => {
            const ui = await import("/static/shared/ui.js");
            return ui.shownNotes({ notes, game_over: over }).map((n) => n.fi);
        }""",
        [notes, game_over],
    )
    return texts


def test_the_rattle_note_and_respots_after_the_last_stroke_are_not_shown(page: Page) -> None:
    """issue 17: "§ 1.3 Röpötystä ... ei tarvitse maalata" changed no ruling and filled most scoring rulings; the
    winning stroke's ruling said who plays from hand next when there is no next turn."""
    notes = [RATTLE, STORED_RATTLE, OLD_RATTLE, CONTINUES, RESPOT]
    assert shown(page, notes, game_over=False) == [CONTINUES["fi"], RESPOT["fi"]]
    assert shown(page, notes, game_over=True) == [CONTINUES["fi"]]


def test_the_referees_rattle_note_carries_the_key_the_page_knows() -> None:
    from kaisa.referee.catalogue import CATALOGUE
    from kaisa.referee.ruling import RulingItem

    note = CATALOGUE["1.3"].item("rattles", rattles="2 jaw rattles")
    assert note.key == "rattles"
    assert RulingItem.from_json(note.to_json()) == note  # the key is stored and read back
    assert Path(__file__).parents[2].joinpath("src/kaisa/web/static/shared/ui.js").read_text().count('"rattles"')


def test_the_direction_and_its_nudges_are_written_in_the_pages_language(page: Page, url: str) -> None:
    """issue 17: the Finnish page wrote the direction "99.73" and the English page's nudges "+0,1": numbers follow
    the page's language, and the direction field takes a decimal comma or a point in either."""
    page.goto(url + "/#/study")
    page.wait_for_selector("body[data-ready=true]")
    direction = page.get_by_test_id("direction")
    # the nudges turn the aim as seen on the screen: ↺ anticlockwise, ↻ clockwise (issue 31)
    expect(page.get_by_test_id("nudge-plus-01")).to_have_text("↺ 0,1°")
    expect(page.get_by_test_id("nudge-minus-001")).to_have_text("↻ 0,01°")
    for typed in ("99,73", "99.73"):
        direction.fill("12,5")
        direction.press("Tab")
        expect(direction).to_have_value("12,50")
        direction.fill(typed)
        direction.press("Tab")
        expect(direction).to_have_value("99,73")
    direction.fill("suunta")
    direction.press("Tab")
    expect(direction).to_have_value("99,73")  # not a number: the direction is kept
    page.get_by_test_id("nudge-plus-01").click()
    expect(direction).to_have_value("99,83")
    page.get_by_test_id("lang-en").click()
    expect(page.get_by_test_id("nudge-plus-01")).to_have_text("↺ 0.1°")
    expect(direction).to_have_value("99.83")
    direction.fill("−45,5")
    direction.press("Tab")
    expect(direction).to_have_value("-45.50")


def test_the_preview_says_no_call_was_made_and_a_mistyped_call_logs_no_failed_request(page: Page, url: str) -> None:
    """issue 17: with no call the preview said "the called ball does not go in"; a mistyped call put two failed
    requests (422) in the console. The call is checked with a verdict (200) and previewed only once accepted."""
    failed: list[str] = []
    page.on("console", lambda message: failed.append(message.text) if message.type == "error" else None)
    page.goto(url + "/#/study")
    page.wait_for_selector("body[data-ready=true]")
    preview = page.get_by_test_id("preview-status")
    expect(preview).to_contain_text("Ennuste: maalausta ei tehty, joten pisteitä ei tule", timeout=60_000)
    call = page.get_by_test_id("call-text")
    call.fill("K XX")
    status = page.get_by_test_id("call-status")
    expect(status).to_have_attribute("data-state", "bad")
    expect(status).to_contain_text("Pussia XX ei ole; pussit ovat HL HR ML MR FL FR.")
    expect(preview).to_have_text("")
    call.fill("K FL")
    expect(status).to_have_attribute("data-state", "ok")
    expect(preview).to_contain_text("Ennuste: ", timeout=60_000)
    expect(preview).not_to_contain_text("maalausta ei tehty")
    assert not failed, failed
