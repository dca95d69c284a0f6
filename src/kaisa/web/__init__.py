"""The browser table: an HTTP API and a page to play, replay and study Kaisa (``kaisa play``).

``create_app`` is imported on first use, so that ``kaisa play`` can import the small modules of this package
(``kaisa.web.security``) and serve its page while the app, the session and the physics load in the
background."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kaisa.web.app import create_app


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from kaisa.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["create_app"]
