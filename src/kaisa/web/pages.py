"""The pages the server serves (path -> file in kaisa/web/static), stated once: the app routes them, and
``kaisa play`` serves them from its first second, while the app, the session and the physics still load."""

from __future__ import annotations

PAGES = {
    "/": "table/index.html",
    "/club": "club/club.html",
    "/club/scoresheet": "club/scoresheet.html",
    "/scoreboard": "club/scoreboard.html",
    "/kaavio": "kaavio/kaavio.html",
}
"""The browser table, the marker's page, the printable scoresheet, the scoreboard and the competition pages."""
