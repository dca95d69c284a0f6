"""The browser table: an HTTP API and a page to play, replay and study Kaisa (``kaisa play``)."""

from kaisa.web.app import create_app

__all__ = ["create_app"]
