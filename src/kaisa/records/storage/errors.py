"""The storage layer's errors. Each says which database, match or row, what was wrong and what is expected."""

from __future__ import annotations

from kaisa.errors import ErrorText, KaisaError


class StorageError(KaisaError):
    """The match records could not be read or written. Nothing stored was changed by the failed call."""

    code = "storage"
    kind = ErrorText("Otteluiden tallennus epäonnistui.", "The match records could not be read or written.")


class DatabaseUnavailableError(StorageError):
    """The database URL is malformed, names an unknown driver, or the database cannot be reached."""

    code = "database-unavailable"
    kind = ErrorText("Tietokanta ei ole juuri nyt käytettävissä.", "The database is not available right now.")


class UnknownMatchError(StorageError, LookupError):
    """No match with that id is stored. Its words name the match only, never the database's location, since the
    web answers with them."""

    code = "unknown-match"
    kind = ErrorText("Ottelua ei löydy.", "No such match.")

    def __init__(self, message: str, match_id: int | None = None) -> None:
        super().__init__(message)
        self.match_id = match_id
        if match_id is not None:
            self.text = ErrorText(f"Ottelua {match_id} ei löydy.", f"There is no match {match_id}.")


class CorruptRecordError(StorageError):
    """A stored row does not hold what the schema promises (not JSON, or JSON that is not a valid value)."""

    code = "corrupt-record"
    kind = ErrorText("Tallennettu ottelu on vioittunut.", "A stored match is corrupt.")


class StaleStateError(StorageError):
    """An action was played from a state that is no longer the match's stored state: someone else (another tab,
    another server) recorded an action meanwhile. Reload the match and play on from there."""

    code = "stale-state"
    kind = ErrorText("Ottelu on muuttunut välillä: lataa se uudelleen.", "The match changed meanwhile: load it again.")


class AccessDeniedError(StorageError):
    """The secret token given for a match is missing or wrong (or the match takes no token)."""

    code = "access-denied"
    kind = ErrorText("Pääsy evätty.", "Access denied.")


__all__ = [
    "AccessDeniedError",
    "CorruptRecordError",
    "DatabaseUnavailableError",
    "StaleStateError",
    "StorageError",
    "UnknownMatchError",
]
