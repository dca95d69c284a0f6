"""What a server's operator and a proxy or monitor ask: ``GET /healthz``.

200 when the database answers and its schema is the revision this kaisa writes; 503 (with ``Retry-After``)
saying why not, in the API's one error shape (``detail``, ``code``, ``fi``, ``en``): ``database-unreachable``,
``schema-not-current`` (a newer kaisa migrated the database under this server), or ``starting`` while the server
still loads (answered by ``kaisa club`` itself, :data:`STARTING`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from kaisa.records.storage import Store

HEALTH_PATH = "/healthz"
RETRY_AFTER = 2


class HealthOut(BaseModel):
    """The server's health: ``status`` ``ok`` or ``unavailable``, a stable ``code``, the database's schema
    revision and the one this server expects, and what it means in Finnish and English."""

    model_config = ConfigDict(extra="forbid")

    status: str
    code: str
    detail: str
    fi: str
    en: str
    revision: str | None
    expected: str | None


STARTING = HealthOut(
    status="unavailable",
    code="starting",
    detail="the server is still starting",
    fi="Palvelin käynnistyy vielä: yritä hetken päästä uudelleen.",
    en="The server is still starting: try again in a moment.",
    revision=None,
    expected=None,
)
"""The health while ``kaisa club`` loads its app and database."""


def add_health(app: FastAPI, store: Store) -> None:
    """Route ``GET /healthz`` to a one-read check of ``store``."""

    @app.get(
        HEALTH_PATH,
        tags=["operations"],
        responses={503: {"model": HealthOut, "description": "The database is unreachable or its schema not current"}},
    )
    def healthz() -> Any:
        """The database is reachable and its schema current (200), or why not (503, with Retry-After)."""
        from kaisa.records.storage.backup import health

        found = health(store)
        body = HealthOut(
            status="ok" if found.ok else "unavailable",
            code=found.code,
            detail=found.text.en,
            fi=found.text.fi,
            en=found.text.en,
            revision=found.revision,
            expected=found.expected,
        )
        if found.ok:
            return body
        return JSONResponse(body.model_dump(), status_code=503, headers={"Retry-After": str(RETRY_AFTER)})


__all__ = ["HEALTH_PATH", "STARTING", "HealthOut", "add_health"]
