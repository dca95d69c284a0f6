"""Debian's Chromium driven by Playwright, for the browser tests (the page and the club pages)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = "/usr/bin/chromium"

REPOSITORY = Path(__file__).resolve().parents[1]


def docs_images() -> Path:
    """Where the e2e tests save the README's pictures: docs/images when ``KAISA_DOCS_IMAGES=1`` (refreshing them on
    purpose), else test-artifacts/docs-images, so an ordinary test run leaves the committed pictures alone."""
    refresh = os.environ.get("KAISA_DOCS_IMAGES") == "1"
    folder = REPOSITORY / "docs" / "images" if refresh else REPOSITORY / "test-artifacts" / "docs-images"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


INSTALL_HINT = (
    "the browser tests need Debian's Chromium at /usr/bin/chromium (or `chromium` on PATH): install it "
    "(Debian/Ubuntu as root: apt-get update && apt-get install -y chromium; .ci/run does this). "
    "Playwright's own browser download is not used."
)


def chromium_executable(candidates: tuple[str, ...] = (CHROMIUM,)) -> str:
    """The Chromium to drive; raises RuntimeError saying what to install when there is none."""
    for candidate in candidates:
        if Path(candidate).is_file():
            return candidate
    on_path = shutil.which("chromium")
    if on_path:
        return on_path
    raise RuntimeError(f"no Chromium found (looked at {', '.join(candidates)} and PATH): {INSTALL_HINT}")


@contextmanager
def chromium(args: Sequence[str] = ()) -> Iterator[Browser]:
    """A headless Chromium; fails the test (not skips it) with what to install when there is none."""
    reason = ""
    try:
        executable = chromium_executable()
    except RuntimeError as error:
        reason = str(error)
    if reason:  # outside the except block, so the report shows only the reason
        pytest.fail(f"cannot start Chromium for the browser tests: {reason}", pytrace=False)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=["--no-sandbox", *args])
        yield launched
        launched.close()
