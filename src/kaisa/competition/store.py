"""Competitions in the club database: the one module of ``kaisa.competition`` that touches storage.

A competition is one row of ``competitions`` holding ``Kaavio.to_json`` (read back with ``Kaavio.from_json``,
so the pure domain decides everything). Every change is one transaction with the row locked (``SELECT ... FOR
UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite): read the kaavio, apply the change, write it back, with
its idempotency key and answer in ``competition_keys``. Several tables reporting at once therefore take turns,
results arrive in any order, and a change sent twice with the same key is applied once and answered the same.
A change that raises writes nothing.

The director's token is stored only as a hash, as a club match's marker token is.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from kaisa.competition.kaavio import Kaavio
from kaisa.errors import ErrorText, KaisaError
from kaisa.records.storage import AccessDeniedError, StorageError, Store
from kaisa.records.storage.base import transaction
from kaisa.records.storage.engine import SQLITE_BEGIN_OPTION
from kaisa.records.storage.errors import CorruptRecordError
from kaisa.records.storage.models import (
    COMPETITION_NAME_LENGTH,
    ENTRY_KEY_LENGTH,
    CompetitionKeyRow,
    CompetitionRow,
)

MIN_TOKEN_LENGTH = 16
"""A director's token is a secret: long enough not to be guessed."""
JSONObject = dict[str, Any]
Change = Callable[[Kaavio, dict[str, str]], JSONObject]
"""A change: given the kaavio and the marker tokens by match id (both to change in place), the answer."""


class UnknownCompetitionError(StorageError, LookupError):
    """No competition with that id is stored."""

    code = "unknown-competition"
    kind = ErrorText("Kilpailua ei löydy.", "No such competition.")

    def __init__(self, competition_id: object) -> None:
        super().__init__(f"there is no competition {competition_id}")
        self.text = ErrorText(f"Kilpailua {competition_id} ei löydy.", f"There is no competition {competition_id}.")
        """The refusal as one sentence in each language (:func:`kaisa.errors.error_text` reads it)."""


class ChangeKeyReusedError(KaisaError):
    """A change's key already answered another request (another body or another game): refused, not answered
    with the first answer (the club's entries are refused alike)."""

    code = "change-key-reused"
    kind = ErrorText("Muutoksen tunniste on jo käytetty.", "The change's key was already used.")

    def __init__(self, competition_id: int) -> None:
        super().__init__(f"this Idempotency-Key already made another change of competition {competition_id}")
        self.text = ErrorText(
            f"Tällä tunnisteella (Idempotency-Key) on jo tehty kilpailuun {competition_id} toinen muutos: tätä "
            "muutosta ei tehty. Uusi muutos tarvitsee uuden tunnisteen.",
            f"This Idempotency-Key already made another change of competition {competition_id}: this change was "
            "not made. A new change needs a new key.",
        )


REQUEST_FIELD = "__request"
"""Where a keyed change's stored answer keeps the hash of its request (answers stored before carry none)."""


def request_hash(what: str, **content: object) -> str:
    """A hash of a change's request (what it is and its body), stored with its key: the key sent again with
    another request is refused (:class:`ChangeKeyReusedError`)."""
    text = json.dumps({"change": what, **content}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _seen(competition_id: int, seen: JSONObject | None, request: str | None) -> JSONObject | None:
    """The first answer to a key, refused when the key came with another request."""
    if seen is None:
        return None
    stored = seen.pop(REQUEST_FIELD, None)
    if request is not None and stored is not None and stored != request:
        raise ChangeKeyReusedError(competition_id)
    return seen


@dataclass(frozen=True)
class StoredCompetition:
    """A competition as stored: its kaavio, how many changes it has had and when, and the marker tokens."""

    id: int
    kaavio: Kaavio
    version: int
    created_at: datetime
    updated_at: datetime
    markers: dict[str, str]
    """The marker token of each club match started from the competition, by match id (for the director)."""


@dataclass(frozen=True)
class CompetitionSummary:
    id: int
    name: str
    date: str
    club: str
    players: int
    drawn: bool
    finished: bool
    updated_at: datetime


@dataclass(frozen=True)
class Changed:
    """What a change gave: the competition after it, its answer, and whether its key had been seen before
    (then nothing was applied and the answer is the first one)."""

    competition: StoredCompetition
    answer: JSONObject
    repeated: bool


class CompetitionStore:
    """The competitions of one database, over a match :class:`Store`'s engine (the same file or server)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        engine = store.engine
        self._reads = engine
        if engine.dialect.name == "postgresql":
            self._reads = engine.execution_options(isolation_level="REPEATABLE READ")
        self._writes = engine.execution_options(**{SQLITE_BEGIN_OPTION: "IMMEDIATE"})

    # --- writing ---------------------------------------------------------------------------------------

    def create(self, kaavio: Kaavio, token: str) -> int:
        """Store a new competition whose director holds ``token`` (only its hash is kept); its id."""
        if len(token) < MIN_TOKEN_LENGTH:
            raise StorageError(f"a director's token is at least {MIN_TOKEN_LENGTH} characters")
        name = kaavio.settings.name[:COMPETITION_NAME_LENGTH]
        now = _now()
        with self._session(self._writes, "creating a competition") as session:
            row = CompetitionRow(
                name=name,
                created_at=now,
                updated_at=now,
                version=0,
                token_hash=_token_hash(token),
                data=_plain(kaavio.to_json()),
                markers={},
            )
            session.add(row)
            session.flush()
            return row.id

    def change(
        self, competition_id: int, act: Change, *, key: str | None = None, request: str | None = None
    ) -> Changed:
        """Apply ``act`` in one transaction with the competition locked; with a ``key`` already seen, answer
        the first answer and apply nothing, or refuse when the key came with another ``request``
        (:func:`request_hash`). ``act`` raising writes nothing."""
        if key is not None and not 1 <= len(key) <= ENTRY_KEY_LENGTH:
            raise StorageError(f"a change's key is 1 to {ENTRY_KEY_LENGTH} characters")
        doing = f"changing competition {competition_id}"
        try:
            with self._session(self._writes, doing) as session:
                row = self._row(session, competition_id, lock=True)
                if key is not None:
                    seen = _seen(competition_id, self._answer(session, competition_id, key), request)
                    if seen is not None:
                        return Changed(self._stored(row), seen, True)
                kaavio = _kaavio(row)
                markers = {str(k): str(v) for k, v in row.markers.items()}
                answer = _plain(act(kaavio, markers))
                row.data = _plain(kaavio.to_json())
                row.markers = markers
                row.version += 1
                row.updated_at = _now()
                if key is not None:
                    kept = answer if request is None else {**answer, REQUEST_FIELD: request}
                    session.add(
                        CompetitionKeyRow(competition_id=competition_id, key=key, answer=kept, created_at=_now())
                    )
                session.flush()
                return Changed(self._stored(row), answer, False)
        except StorageError as error:
            # the same key committed meanwhile by another process (only possible without the row lock)
            if key is not None and "refused the write" in str(error):
                seen = self.answered(competition_id, key, request)
                if seen is not None:
                    return Changed(self.get(competition_id), seen, True)
            raise

    def delete(self, competition_id: int) -> None:
        with self._session(self._writes, f"deleting competition {competition_id}") as session:
            self._row(session, competition_id)
            session.execute(delete(CompetitionRow).where(CompetitionRow.id == competition_id))

    # --- reading ---------------------------------------------------------------------------------------

    def get(self, competition_id: int) -> StoredCompetition:
        with self._session(self._reads, f"reading competition {competition_id}") as session:
            return self._stored(self._row(session, competition_id))

    def version(self, competition_id: int) -> tuple[int, datetime]:
        """How many changes and when the last: a cheap poll for live displays."""
        with self._session(self._reads, f"reading competition {competition_id}") as session:
            row = self._row(session, competition_id)
            return row.version, _utc(row.updated_at)

    def answered(self, competition_id: int, key: str, request: str | None = None) -> JSONObject | None:
        """The first answer to ``key`` (None: not seen); refused when it came with another ``request``."""
        with self._session(self._reads, f"reading competition {competition_id}") as session:
            return _seen(competition_id, self._answer(session, competition_id, key), request)

    def summaries(self) -> list[CompetitionSummary]:
        """Every competition, newest first."""
        with self._session(self._reads, "listing the competitions") as session:
            rows = session.scalars(select(CompetitionRow).order_by(CompetitionRow.id.desc())).all()
            out = []
            for row in rows:
                k = _kaavio(row)
                out.append(
                    CompetitionSummary(
                        row.id,
                        k.settings.name,
                        k.settings.date,
                        k.settings.club,
                        len(k.players),
                        k.drawn,
                        k.finished,
                        _utc(row.updated_at),
                    )
                )
            return out

    def same_as(self, kaavio: Kaavio) -> int | None:
        """The id of a stored competition identical to ``kaavio`` (a file imported twice), or None: a ranking
        series would count it twice."""
        data = _plain(kaavio.to_json())
        with self._session(self._reads, "reading the competitions") as session:
            rows = session.execute(select(CompetitionRow.id, CompetitionRow.data).order_by(CompetitionRow.id))
            return next((cid for cid, stored in rows if stored == data), None)

    def all(self) -> list[StoredCompetition]:
        """Every competition with its kaavio, oldest first (for a ranking series)."""
        with self._session(self._reads, "reading the competitions") as session:
            return [self._stored(row) for row in session.scalars(select(CompetitionRow).order_by(CompetitionRow.id))]

    def check_token(self, competition_id: int, token: str | None) -> None:
        """Raise :class:`AccessDeniedError` unless ``token`` is the director's."""
        with self._session(self._reads, f"reading competition {competition_id}") as session:
            row = self._row(session, competition_id)
            if token is None or not hmac.compare_digest(row.token_hash, _token_hash(token)):
                raise AccessDeniedError(
                    f"competition {competition_id}: the director's token is missing or wrong "
                    "(header X-Kaisa-Token, from the director's link)",
                    fi=f"Kilpailun {competition_id} johtajan tunniste puuttuu tai on väärä: avaa kilpailu johtajan "
                    "linkillä, joka näytettiin kilpailua luotaessa.",
                )

    # --- helpers ---------------------------------------------------------------------------------------

    def _session(self, engine: Any, doing: str) -> AbstractContextManager[Session]:
        return transaction(engine, doing, changes=self.store.changes)

    def _row(self, session: Session, competition_id: int, *, lock: bool = False) -> CompetitionRow:
        row = None
        if not isinstance(competition_id, bool) and isinstance(competition_id, int) and 0 < competition_id < 2**31:
            row = session.get(CompetitionRow, competition_id, with_for_update=lock)
        if row is None:
            raise UnknownCompetitionError(competition_id)
        return row

    def _answer(self, session: Session, competition_id: int, key: str) -> JSONObject | None:
        found = session.scalar(
            select(CompetitionKeyRow.answer).where(
                CompetitionKeyRow.competition_id == competition_id, CompetitionKeyRow.key == key
            )
        )
        return None if found is None else dict(found)

    def _stored(self, row: CompetitionRow) -> StoredCompetition:
        return StoredCompetition(
            row.id,
            _kaavio(row),
            row.version,
            _utc(row.created_at),
            _utc(row.updated_at),
            {str(k): str(v) for k, v in row.markers.items()},
        )


def _kaavio(row: CompetitionRow) -> Kaavio:
    try:
        return Kaavio.from_json(row.data)
    except (KeyError, TypeError, ValueError) as error:
        raise CorruptRecordError(f"competition {row.id}: its stored kaavio does not read back ({error!r})") from None


def _plain(value: JSONObject) -> JSONObject:
    """The value as JSON gives it back (tuples as lists), so what is written compares equal to what is read."""
    loaded: JSONObject = json.loads(json.dumps(value, allow_nan=False))
    return loaded


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


__all__ = [
    "Changed",
    "CompetitionStore",
    "CompetitionSummary",
    "StoredCompetition",
    "UnknownCompetitionError",
]
