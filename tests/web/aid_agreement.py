"""Does the drawn aiming aid tell the truth? Random called pots in the study screen: the verdict the page draws
(the object ball's colour, ``data-verdict`` on the table) against the preview's verdict (the server's physics and
referee: ``data-state`` of the preview line), and against the old geometric line's colour (the ghost-ball line ending
within a pocket's reach), which the page drew before.

    PYTHONPATH=src python -m tests.web.aid_agreement --calls 200

starts a server on a temporary SQLite file and Chromium, and prints the agreements. The e2e test runs a few calls.
"""

from __future__ import annotations

import argparse
import math
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

BALLS = ("R1", "R2", "K")
POCKETS = ("HL", "HR", "ML", "MR", "FL", "FR")


@dataclass(frozen=True)
class Trial:
    position: dict[str, list[float]]
    call: str
    direction: float
    speed: float


def mouth(table: dict[str, Any], pocket: str) -> tuple[float, float]:
    jaws = table["pockets"][pocket]["jaws"]
    return ((jaws[0]["point"][0] + jaws[1]["point"][0]) / 2, (jaws[0]["point"][1] + jaws[1]["point"][1]) / 2)


def trials(table: dict[str, Any], count: int, seed: int) -> list[Trial]:
    """Calls a person would try: the object ball 20-80 cm from the pocket, cut at most 40 degrees, the cue ball
    30-120 cm away, aimed within 0.6 degrees of the ghost-ball spot (so some pot and some miss), 1-3.5 m/s."""
    rng = random.Random(seed)
    w, length, r = float(table["width"]), float(table["length"]), float(table["ball_radius"])

    def on_bed(p: tuple[float, float]) -> bool:
        return r + 0.01 < p[0] < w - r - 0.01 and r + 0.01 < p[1] < length - r - 0.01

    out: list[Trial] = []
    while len(out) < count:
        ball, pocket = rng.choice(BALLS), rng.choice(POCKETS)
        m = mouth(table, pocket)
        towards = math.atan2(w / 2 - m[0], length / 2 - m[1])  # from the pocket into the table
        a = towards + rng.uniform(-0.6, 0.6)
        d = rng.uniform(0.2, 0.8)
        obj = (m[0] + d * math.sin(a), m[1] + d * math.cos(a))
        to_pocket = math.atan2(m[1] - obj[1], m[0] - obj[0])
        back = to_pocket + math.pi + rng.uniform(-math.radians(40), math.radians(40))
        e = rng.uniform(0.3, 1.2)
        cue = (obj[0] + e * math.cos(back), obj[1] + e * math.sin(back))
        if not (on_bed(obj) and on_bed(cue)):
            continue
        balls = {"W1": cue, ball: obj}
        for other in ("W2", *BALLS):
            if other in balls:
                continue
            for _ in range(50):
                p = (rng.uniform(r + 0.01, w - r - 0.01), rng.uniform(r + 0.01, length - r - 0.01))
                if all(math.dist(p, q) > 2 * r + 0.02 for q in balls.values()):
                    balls[other] = p
                    break
        if len(balls) < 5:
            continue
        ghost = (obj[0] - 2 * r * math.cos(to_pocket), obj[1] - 2 * r * math.sin(to_pocket))
        aim = math.degrees(math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])) + rng.uniform(-0.6, 0.6)
        position = {k: [round(v[0], 4), round(v[1], 4)] for k, v in balls.items()}
        out.append(
            Trial(position, f"{ball} {pocket}", round((aim + 180) % 360 - 180, 2), round(rng.uniform(1, 3.5), 2))
        )
    return out


def measure(page: Page, base_url: str, count: int, seed: int = 31) -> dict[str, int]:
    """Play ``count`` trials in the study screen of the page (already open at ``base_url``); returns the counts:
    calls, preview pots, drawn agrees with preview, old geometric colour agrees with preview."""
    table = page.evaluate("() => window.kaisa.table")
    counts = {"calls": 0, "pots": 0, "drawn_agrees": 0, "geometry_agrees": 0}
    for trial in trials(table, count, seed):
        page.evaluate(
            "s => { localStorage.setItem('kaisa.study', JSON.stringify(s)); location.hash = '#/'; }",
            {"position": trial.position, "shooter": "W1"},
        )
        page.wait_for_selector("#screen-start:not([hidden])")
        page.evaluate("() => { location.hash = '#/study'; }")
        page.wait_for_selector("#screen-table:not([hidden])")
        page.get_by_test_id("call-text").fill(trial.call)
        page.get_by_test_id("call-text").press("Enter")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=call-status]').dataset.state === 'ok' || document.querySelector('[data-testid=call-status]').dataset.state === 'warn'"
        )
        page.evaluate(
            "s => { const set = (id, v) => { const e = document.getElementById(id); e.value = v;"
            " e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); };"
            " set('speed', String(s.speed)); set('direction', String(s.direction)); }",
            {"speed": trial.speed, "direction": trial.direction},
        )
        page.wait_for_function(
            "() => ['pots', 'misses'].includes(document.querySelector('[data-testid=preview-status]').dataset.state)"
            " && document.querySelector('[data-testid=table]').dataset.verdict !== 'checking'",
            timeout=30_000,
        )
        said = page.get_by_test_id("preview-status").get_attribute("data-state")
        drawn = page.get_by_test_id("table").get_attribute("data-verdict")
        geometric = page.evaluate(GEOMETRIC, {"call": trial.call, "direction": trial.direction})
        counts["calls"] += 1
        counts["pots"] += said == "pots"
        counts["drawn_agrees"] += drawn == said
        counts["geometry_agrees"] += ("pots" if geometric else "misses") == said
    return counts


GEOMETRIC = """async ({call, direction}) => {
  // the colour the page drew before: green when the ghost-ball line of the object ball ends in the called pocket
  const m = await import('/static/shared/table.js');
  const g = new m.Geometry(window.kaisa.table);
  const balls = window.kaisa.balls();
  const [ball, pocket] = call.split(' ');
  const hit = g.cast(balls.W1, direction, balls, 'W1');
  if (hit.kind !== 'ball') return false;
  const line = m.TableView.prototype.objectLine.call({ geo: g, balls }, hit);
  return Boolean(line.pocket) && line.pocket === pocket && hit.ball === ball;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    from kaisa.session.study import warm_up_physics
    from tests.browser import chromium
    from tests.postgres_server import free_port
    from tests.web.test_web_e2e import LiveServer, goto, open_page

    warm_up_physics()
    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(Path(tmp) / "kaisa.sqlite3", free_port())
        live.start()
        try:
            with chromium() as browser:
                page, _errors = open_page(browser, 1440, 900, 1)
                goto(page, live.url)
                counts = measure(page, live.url, args.calls, args.seed)
        finally:
            live.stop()
    n = counts["calls"]
    print(f"{n} calls, {counts['pots']} pot by the preview")
    print(
        f"drawn verdict agrees with the preview: {counts['drawn_agrees']}/{n} ({100 * counts['drawn_agrees'] / n:.1f} %)"
    )
    print(
        f"old geometric colour agrees with the preview: {counts['geometry_agrees']}/{n}"
        f" ({100 * counts['geometry_agrees'] / n:.1f} %)"
    )


if __name__ == "__main__":
    main()
