"""The balls are told apart without colour (issue 30): on the drawn table seen through an achromatopsia simulation
(the page in greyscale), every ball carries its own mark (the reds their numbers, the kaisa its K, W1 a dot, W2 a
ring) in ink that stands out from the ball, and the two balls of each colour differ by their marks.

Real Chromium and the real server, as in test_web_e2e (whose server and browser fixtures these share). The
screenshot is kept under the test's tmp dir; the phone's is the docs' picture (docs/images/balls-greyscale.png
with ``KAISA_DOCS_IMAGES=1``).
"""

from __future__ import annotations

import io
import math
import shutil
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page

from tests.browser import docs_images
from tests.web import test_web_e2e as e2e
from tests.web.test_web_e2e import goto, open_page

live = e2e.live
browser = e2e.browser

pytestmark = pytest.mark.slow

BALLS = ("W1", "W2", "R1", "R2", "K")
INK = 100  # grey levels: a mark's pixel differs this much from the ball's own tone (the ball's shading stays under)
MARKED = 0.03  # of the ball's area: the least a mark covers (the thinnest, a digit 1, covers about 0.07)


def ball_spots(page: Page, scale: float) -> dict[str, tuple[float, float, float, float, float]]:
    """Each ball's centre and radius in screenshot pixels, and where its lit highlight is (the drawing lights every
    ball from the same side, whichever way the table lies)."""
    spots = page.evaluate(
        """() => {
          const k = window.kaisa, R = k.table.ball_radius, out = {};
          for (const [id, p] of Object.entries(k.balls())) {
            if (!p) continue;
            const c = k.toClient(p), e = k.toClient([p[0] + R, p[1]]), h = k.toClient([p[0] - 0.35 * R, p[1] + 0.35 * R]);
            out[id] = [c[0], c[1], Math.hypot(e[0] - c[0], e[1] - c[1]), h[0], h[1]];
          }
          return out;
        }"""
    )
    return {
        ball: (x * scale, y * scale, r * scale, hx * scale, hy * scale) for ball, (x, y, r, hx, hy) in spots.items()
    }


def mark_of(image: Image.Image, spot: tuple[float, float, float, float, float]) -> tuple[set[tuple[int, int]], float]:
    """The ball's mark: the pixels within 0.75 radii of its centre (its shaded rim left out) and away from its
    highlight whose grey differs from the ball's own tone (the median) by INK or more, as offsets from the centre;
    and the share of the ball's area they cover."""
    x, y, r, hx, hy = spot
    pixels = [
        (i, j)
        for i in range(math.floor(x - r), math.ceil(x + r) + 1)
        for j in range(math.floor(y - r), math.ceil(y + r) + 1)
        if math.hypot(i + 0.5 - x, j + 0.5 - y) <= 0.75 * r and math.hypot(i + 0.5 - hx, j + 0.5 - hy) > 0.3 * r
    ]
    grey = image.load()
    assert grey is not None
    tones = sorted(int(grey[i, j]) for i, j in pixels)  # type: ignore[arg-type]  # "L" image: an int a pixel
    tone = tones[len(tones) // 2]
    mark = {(i - round(x), j - round(y)) for i, j in pixels if abs(int(grey[i, j]) - tone) >= INK}  # type: ignore[arg-type]
    return mark, len(mark) / (math.pi * r * r)


@pytest.mark.parametrize(("width", "height", "scale"), [(390, 844, 2), (1440, 900, 1)])
def test_the_balls_are_told_apart_in_greyscale(
    live: e2e.LiveServer, browser: Browser, tmp_path: Path, width: int, height: int, scale: float
) -> None:
    page, errors = open_page(browser, width, height, scale=scale)
    # the aids off: no aim line or ring over a ball, only the balls and the cue
    page.context.add_init_script("localStorage.setItem('kaisa.aids', 'none');")
    goto(page, live.url + "#/study")
    page.wait_for_function("() => document.querySelector('[data-testid=table]').dataset.cue")
    page.add_style_tag(content="html { filter: grayscale(1); }")  # achromatopsia: no hue at all, lightness only
    page.wait_for_timeout(100)
    shot = tmp_path / f"balls-greyscale-{width}x{height}.png"
    shot.write_bytes(page.screenshot())
    if width == 390:
        shutil.copyfile(shot, docs_images() / "balls-greyscale.png")
    image = Image.open(io.BytesIO(shot.read_bytes())).convert("L")
    spots = ball_spots(page, scale)
    assert sorted(spots) == sorted(BALLS), spots
    marks = {}
    for ball in BALLS:
        mark, share = mark_of(image, spots[ball])
        assert share >= MARKED, (
            f"{ball} shows no mark in greyscale ({share:.3f} of it differs from its tone); see {shot}"
        )
        marks[ball] = mark
    for a, b in (("W1", "W2"), ("R1", "R2")):
        differ = len(marks[a] ^ marks[b]) / max(len(marks[a] | marks[b]), 1)
        assert differ >= 0.3, f"{a} and {b} look alike in greyscale ({differ:.2f} of their marks differ); see {shot}"
    page.context.close()
    assert not errors, errors
