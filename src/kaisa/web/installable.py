"""The installable web app: ``/sw.js``, the service worker of every page (``static/sw.js``), served at the root so
that its scope is the whole site, with the version and the list of files it keeps written into it.

The version is a digest of every file the pages are made of: any change to them is a new service worker, which
the browser installs beside the old one and the page announces (``static/install.js``); the person reloads into
it. Each page links its own manifest (``static/*.webmanifest``: name, icons, start page, scope).
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from importlib.resources.abc import Traversable

from fastapi import FastAPI
from fastapi.responses import Response

from kaisa import __version__
from kaisa.web.pages import PAGES

WORKER = "sw.js"


def _static() -> Traversable:
    return resources.files("kaisa.web") / "static"


def shell() -> list[str]:
    """The paths the service worker keeps: every page and every file under ``/static`` (but itself)."""
    return [
        *PAGES,
        *(f"/static/{name}" for name in sorted(_files(_static(), "")) if name != WORKER and not name.endswith(".d.ts")),
    ]


def _files(folder: Traversable, prefix: str) -> list[str]:
    """Every file under ``folder`` (its screens' folders and what they share), as paths relative to it."""
    found: list[str] = []
    for entry in folder.iterdir():
        if entry.is_dir():
            found += _files(entry, f"{prefix}{entry.name}/")
        elif entry.is_file():
            found.append(prefix + entry.name)
    return found


def asset_version() -> str:
    """A digest of kaisa's version and every page file's name and bytes."""
    digest = hashlib.sha256(__version__.encode())
    for path in shell():
        name = PAGES.get(path) or path.removeprefix("/static/")
        digest.update(name.encode() + b"\0" + _static().joinpath(*name.split("/")).read_bytes())
    return digest.hexdigest()[:16]


def service_worker() -> str:
    """The text of ``/sw.js``: its version and shell, then the worker."""
    head = f"const VERSION = {json.dumps(asset_version())};\nconst SHELL = {json.dumps(shell())};\n"
    return head + (_static() / WORKER).read_text(encoding="utf-8")


def add_service_worker(app: FastAPI) -> None:
    """Route ``GET /sw.js`` (never cached by HTTP: the browser compares it byte for byte to find a new version)."""

    @app.get("/" + WORKER, include_in_schema=False)
    def worker() -> Response:
        return Response(
            service_worker(),
            media_type="text/javascript; charset=utf-8",
            headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
        )


__all__ = ["add_service_worker", "asset_version", "service_worker", "shell"]
