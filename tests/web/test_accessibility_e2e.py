"""Accessibility (issue 30, item 6): axe-core's WCAG 2.1 A and AA rules on every page of Kaisa, in a match, at the
marker's page and the director's, on a phone (390x844) and a laptop (1440x900): no serious or critical
violation."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser

from tests.browser import chromium
from tests.web.club_helpers import new_match, serve

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SIZES = {"phone": (390, 844), "laptop": (1440, 900)}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A server with something on every page: a match against the computer, a club match with its marker's link,
    a club night, and a drawn competition with a played game and its director's link."""
    if not AXE.exists():
        import subprocess
        import sys

        npm = Path(sys.executable).parent / "npm"
        subprocess.run([str(npm), "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    with (
        serve(tmp_path_factory.mktemp("a11y") / "a11y.sqlite3") as base,
        httpx.Client(base_url=base, timeout=60) as api,
    ):
        played = api.post(
            "/api/matches", json={"players": [{"name": "Aino", "kind": "human"}, {"name": "Eero", "kind": "human"}]}
        )
        assert played.status_code in (200, 201), played.text
        match_id = played.json()["id"]
        club = api.post("/api/club/matches", json={"players": ["Aino", "Eero"], "event": "Torstai"}).json()
        club_id, token = club["match"]["id"], club["token"]
        new_match(api)
        made = api.post("/api/kaavio/competitions", json={"name": "Ilta", "date": "2026-12-03", "tables": ["1", "2"]})
        competition = made.json()
        headers = {"X-Kaisa-Token": competition["token"]}
        cid = competition["id"]
        for name in ("Aalto Aino", "Berg Eero", "Castren Iida", "Dahl Olli", "Ek Ulla"):
            api.post(f"/api/kaavio/competitions/{cid}/players", json={"name": name, "club": "KS"}, headers=headers)
        api.post(f"/api/kaavio/competitions/{cid}/draw", json={"seed": 1}, headers=headers)
        games = api.get(f"/api/kaavio/competitions/{cid}").json()["games"]
        number = next(g["number"] for g in games if g["state"] == "ready")
        api.post(
            f"/api/kaavio/competitions/{cid}/games/{number}/result",
            json={"points1": "60", "points2": "12"},
            headers=headers,
        )
        yield {
            "start": "/",
            "history": "/#/history",
            "study": "/#/study",
            "match": f"/#/match/{match_id}",
            "club-new": "/club",
            "marker": f"/club#/match/{club_id}/{token}",
            "scoreboard": f"/scoreboard#/match/{club_id}",
            "club-night": "/scoreboard#/event/Torstai",
            "scoresheet": f"/club/scoresheet#/match/{club_id}",
            "kaavio": "/kaavio",
            "director": competition["director_url"],
            "bracket": f"/kaavio#/bracket/{cid}",
            "tv": f"/kaavio#/tv/{cid}",
            "base": base,
        }


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with chromium() as launched:
        yield launched


def serious(browser: Browser, url: str, size: tuple[int, int]) -> list[dict[str, Any]]:
    """axe-core's serious and critical WCAG 2.1 A/AA violations on the page at ``url``, once it is ready."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]}, locale="fi-FI")
    try:
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.wait_for_timeout(300)  # the first view's late parts (streams, fonts)
        page.add_script_tag(path=str(AXE))
        result: dict[str, Any] = page.evaluate(
            "async (tags) => await axe.run(document, { runOnly: { type: 'tag', values: tags } })", TAGS
        )
    finally:
        context.close()
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"][:5]]}
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]


PAGES = [
    "start",
    "history",
    "study",
    "match",
    "club-new",
    "marker",
    "scoreboard",
    "club-night",
    "scoresheet",
    "kaavio",
    "director",
    "bracket",
    "tv",
]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", PAGES)
def test_no_serious_or_critical_accessibility_violation(
    browser: Browser, site: dict[str, str], name: str, size: str
) -> None:
    found = serious(browser, site["base"] + site[name], SIZES[size])
    assert found == [], json.dumps(found, indent=1)
