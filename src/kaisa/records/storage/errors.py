"""The storage layer's errors. Each says which database, match or row, what was wrong and what is expected."""

from __future__ import annotations

from kaisa.errors import KaisaError


class StorageError(KaisaError):
    """The match records could not be read or written. Nothing stored was changed by the failed call."""


class DatabaseUnavailableError(StorageError):
    """The database URL is malformed, names an unknown driver, or the database cannot be reached."""


class UnknownMatchError(StorageError, LookupError):
    """No match with that id is stored."""


class CorruptRecordError(StorageError):
    """A stored row does not hold what the schema promises (not JSON, or JSON that is not a valid value)."""


class StaleStateError(StorageError):
    """An action was played from a state that is no longer the match's stored state: someone else (another tab,
    another server) recorded an action meanwhile. Reload the match and play on from there."""


class AccessDeniedError(StorageError):
    """The secret token given for a match is missing or wrong (or the match takes no token)."""


__all__ = [
    "AccessDeniedError",
    "CorruptRecordError",
    "DatabaseUnavailableError",
    "StaleStateError",
    "StorageError",
    "UnknownMatchError",
]
