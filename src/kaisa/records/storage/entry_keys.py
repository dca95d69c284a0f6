"""The club's marker entries beyond their actions: an entry's key recorded with its answer (in the same transaction
as the entry's action, so an entry sent again is recorded once and answered with the first answer), a marker's
note, the match's table label, and a change its own records do not show.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kaisa.records.storage.base import StoreBase
from kaisa.records.storage.errors import StorageError
from kaisa.records.storage.models import ENTRY_KEY_LENGTH, TABLE_LABEL_LENGTH, EntryKeyRow
from kaisa.records.storage.values import EntryKey, JSONObject, RepeatedEntryError, json_object, plain_json, utc_now


class EntryKeys(StoreBase):
    """Entry keys, notes and table labels of stored matches."""

    def answered(self, match_id: int, key: str) -> JSONObject | None:
        """The answer the entry with ``key`` got, or None if no entry with that key is recorded."""
        with self._read(f"looking up an entry key of match {match_id}") as session:
            self._match(session, match_id)
            found = session.scalars(
                select(EntryKeyRow.answer).where(EntryKeyRow.match_id == match_id, EntryKeyRow.key == key)
            ).first()
        return None if found is None else json_object(found)

    def note(self, match_id: int, key: str, answer: JSONObject) -> JSONObject:
        """Record a keyed entry that records no action and changes nothing else (a marker's note, such as when a
        break began) with ``answer``, and return it; a key already recorded keeps its first answer, returned."""
        with self._write(f"noting an entry of match {match_id}") as session:
            self._match(session, match_id, lock=True)
            try:
                claim_key(session, match_id, EntryKey(key, lambda _index, _at: answer), None, utc_now())
            except RepeatedEntryError as repeated:
                return repeated.answer
        return plain_json(answer, "the entry's answer")

    def entry_keys(self, match_id: int) -> int:
        """How many keyed entries the match has recorded."""
        with self._read(f"counting the entry keys of match {match_id}") as session:
            return int(
                session.scalar(select(func.count()).select_from(EntryKeyRow).where(EntryKeyRow.match_id == match_id))
                or 0
            )

    def touch(self, match_id: int) -> None:
        """Mark the match as changed now, for a change its own records do not show (its competition game decided
        by the director): live displays poll the time of the last change (:meth:`last_change`)."""
        with self._write(f"marking match {match_id} changed") as session:
            self._match(session, match_id, lock=True).updated_at = utc_now()

    def set_table_label(self, match_id: int, label: str | None) -> None:
        """Say which physical table the match is played on (the club's number or name; None: not said)."""
        if label is not None and not 0 < len(label) <= TABLE_LABEL_LENGTH:
            raise StorageError(f"a table's number or name has 1 to {TABLE_LABEL_LENGTH} characters, not {len(label)}")
        with self._write(f"labelling the table of match {match_id}") as session:
            self._match(session, match_id, lock=True).table_label = label


def claim_key(session: Session, match_id: int, key: EntryKey, action_index: int | None, at: datetime) -> None:
    """Record ``key`` with its answer inside the caller's transaction (the match row is locked), or raise
    :class:`RepeatedEntryError` with the first answer if the key is already recorded."""
    if not 0 < len(key.key) <= ENTRY_KEY_LENGTH:
        raise StorageError(f"an entry key has 1 to {ENTRY_KEY_LENGTH} characters, not {len(key.key)}")
    found = session.scalars(
        select(EntryKeyRow.answer).where(EntryKeyRow.match_id == match_id, EntryKeyRow.key == key.key)
    ).first()
    if found is not None:
        raise RepeatedEntryError(match_id, key.key, json_object(found))
    answer = plain_json(key.answer(action_index, at), "the entry's answer")
    session.add(EntryKeyRow(match_id=match_id, key=key.key, action_index=action_index, answer=answer, created_at=at))
