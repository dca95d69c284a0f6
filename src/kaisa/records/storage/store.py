"""The match records: create a match, record each action as it is pushed, undo, load, resume, list, export.

Every write is one transaction: recording an action inserts its row and moves the match's current state,
status and result in the same commit, so a process killed mid-match loses at most the action in flight and
the database never holds an action without the state it led to. Undo deletes the last action row and moves
the state back in one commit too.

This layer holds no game logic: it stores the game layer's JSON values (``MatchConfig.to_json``,
``MatchState.to_json``, ``action_to_json``, ``Outcome.to_json``) and reads them back with their
``from_json``. The only thing it reads in a state is whether its phase is ``over`` (the match's status).
"""

from __future__ import annotations

import gc
import hashlib
import hmac
import json
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, TypeVar

from sqlalchemy import JSON, Engine, delete, exc, func, insert, select, type_coerce
from sqlalchemy.orm import Session, aliased

from kaisa.errors import ErrorText, FormatError
from kaisa.game import Action, Entry, Match, MatchConfig, MatchState, Outcome, Phase, Result
from kaisa.game import action_from_json as _action_from_json
from kaisa.game import action_to_json as _action_to_json
from kaisa.game.match import SEED_RANGE
from kaisa.records.storage import changes as _changes
from kaisa.records.storage.engine import SQLITE_BEGIN_OPTION, dumps, first_line, make_engine, migrate, parse_url, shown
from kaisa.records.storage.errors import (
    AccessDeniedError,
    CorruptRecordError,
    DatabaseUnavailableError,
    StaleStateError,
    StorageError,
    UnknownMatchError,
)
from kaisa.records.storage.models import (
    ENTRY_KEY_LENGTH,
    EVENT_NAME_LENGTH,
    PLAYER_KIND_LENGTH,
    PLAYER_NAME_LENGTH,
    TABLE_LABEL_LENGTH,
    ActionRow,
    EntryKeyRow,
    MatchRow,
    PlayerRow,
)

T = TypeVar("T")
MIN_TOKEN_LENGTH = 16
"""A marker's token is a secret: long enough not to be guessed."""
JSONObject = dict[str, Any]


class RepeatedEntryError(StorageError):
    """An entry whose key is already recorded: nothing was written; ``answer`` is the answer it got then."""

    code = "repeated-entry"
    kind = ErrorText("Kirjaus on jo tallennettu.", "The entry is already recorded.")

    def __init__(self, match_id: int, key: str, answer: JSONObject) -> None:
        super().__init__(f"match {match_id}: the entry with key {key!r} is already recorded")
        self.answer = answer


@dataclass(frozen=True)
class EntryKey:
    """An entry's idempotency key and how to make its answer once its action's index (None for an entry that
    records no action) and time are known, inside the recording transaction."""

    key: str
    answer: Callable[[int | None, datetime], JSONObject]


@dataclass(frozen=True)
class PlayerInfo:
    """Who plays: a ``name`` and a ``kind`` (``human``, or a computer player's kind such as ``baseline``)."""

    name: str
    kind: str = "human"


@dataclass(frozen=True)
class MatchInfo:
    """A stored match at a glance, for lists."""

    id: int
    players: tuple[PlayerInfo, PlayerInfo]
    status: str
    """``playing`` or ``over``."""
    seed: int | None
    actions: int
    """How many actions are recorded."""
    result: Result | None
    created_at: datetime
    updated_at: datetime
    event: str | None = None
    """The club night or tournament the match belongs to."""
    has_token: bool = False
    """Entering strokes needs the match's secret token (a club match kept by a marker)."""
    table_label: str | None = None
    """The club's number or name of the physical table (a club match)."""

    def record_tags(self) -> dict[str, str]:
        """The match notation's free tags this stored match knows (``write_match(match, info.record_tags())``):
        the players' seed and the club night. (Not the day it was stored: for an imported record that is not the
        day it was played.)"""
        tags: dict[str, str] = {}
        if self.seed is not None:
            tags["Seed"] = str(self.seed)
        if self.event:
            tags["Event"] = self.event
        return tags


@dataclass(frozen=True)
class StoredAction:
    """One recorded action: its place in the match, the action, what it produced (the ``Outcome`` JSON: notes,
    the ruling and the simulated records, without animation trajectories) and the state after it."""

    match_id: int
    index: int
    action: Action
    outcome: JSONObject
    state_after: MatchState
    created_at: datetime

    def to_json(self) -> JSONObject:
        return {
            "index": self.index,
            "action": _action_to_json(self.action),
            "outcome": self.outcome,
            "state_after": self.state_after.to_json(),
        }


@dataclass(frozen=True)
class StoredMatch:
    """A stored match as typed values: its configuration, its entries (action, state before, outcome) in order,
    and its current state (the state after the last entry)."""

    id: int
    config: MatchConfig
    entries: tuple[Entry, ...]
    state: MatchState


@dataclass(frozen=True)
class Projection:
    """The JSON paths to pick out of stored matches (:meth:`Store.projections`): of an action, of its outcome,
    and of a state (the initial, the current and each state after an action)."""

    action: tuple[tuple[str, ...], ...]
    outcome: tuple[tuple[str, ...], ...]
    state: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Projected:
    """What :meth:`Store.projections` picked out of one match: per action ``(action, outcome, state after)``,
    each a list of the values at the projection's paths."""

    id: int
    config: MatchConfig
    result: Result | None
    initial: list[Any]
    state: list[Any]
    actions: tuple[tuple[list[Any], list[Any], list[Any]], ...]


class DuplicateMatchError(StorageError):
    """A record whose content is already stored (:func:`content_hash`): nothing was written; ``match_id`` is the
    stored one."""

    code = "duplicate-match"
    kind = ErrorText("Ottelu on jo tallennettu.", "The match is already stored.")

    def __init__(self, match_id: int) -> None:
        super().__init__(f"this match is already stored as match {match_id}; nothing was written")
        self.match_id = match_id


@dataclass(frozen=True)
class OpenedMatch:
    """A stored match as one read gives it, ready to play on: who plays, how, where it stands, and its last
    action with what that produced (for the view)."""

    info: MatchInfo
    config: MatchConfig
    state: MatchState
    last: StoredAction | None


@dataclass(frozen=True)
class Recorded:
    """An action just recorded: its index and when."""

    index: int
    at: datetime


class MatchRecorder:
    """The ``on_entry`` callback of ``play_match`` that records each pushed action of one stored match::

    recorder = store.recorder(match_id)
    play_match(match, players, on_entry=recorder)
    recorder.undo(match)  # undo the last action in the database and in memory
    """

    def __init__(self, store: Store, match_id: int) -> None:
        self.store = store
        self.match_id = match_id

    def __call__(self, match: Match, entry: Entry) -> None:
        self.store.record(self.match_id, entry, match.state)

    def undo(self, match: Match) -> Action:
        """Undo the last action in the database, then in ``match`` (its stack, or its state when the stack is
        empty, as after ``resume(..., stack=False)``). Returns the undone action."""
        action = self.store.undo(self.match_id)
        if match.stack:
            match.pop()
        else:
            match.state = self.store.load(self.match_id)[1]
        return action


class Store:
    """Match records in one database. Open it with :func:`open_store`; close it (or use ``with``) when done."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._reads = engine
        if engine.dialect.name == "postgresql":
            # one snapshot for every statement of a read, so a match and its actions always agree
            self._reads = engine.execution_options(isolation_level="REPEATABLE READ")
        self._writes = engine.execution_options(**{SQLITE_BEGIN_OPTION: "IMMEDIATE"})
        self.changes = _changes.Changes()
        """Told after every commit of this store which matches and competitions it changed (the live views)."""

    @property
    def url(self) -> str:
        """The database URL, without its password."""
        return shown(self.engine.url)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

    # --- writing -----------------------------------------------------------------------------------

    def create_match(
        self,
        config: MatchConfig,
        players: Sequence[PlayerInfo | str] | None = None,
        seed: int | None = None,
        *,
        kinds: tuple[str, str] | None = None,
        state: MatchState | None = None,
        event: str | None = None,
        token: str | None = None,
        content_hash: str | None = None,
    ) -> int:
        """Store a new match and return its id. ``players`` are the two players (a bare name means a
        ``human``); without them, the names in ``config.players`` with the ``kinds`` given (default ``human``).
        ``state`` is where the match starts (default: a new match's state). ``event`` names the club night it
        belongs to; ``token`` is a secret that :meth:`check_token` will ask for (only its hash is stored).
        ``content_hash`` makes the match unique (:meth:`find_content`): one already stored with it raises
        :class:`DuplicateMatchError` naming it, and nothing is written."""
        infos = _player_infos(config, players, kinds)
        if event is not None and not 0 < len(event) <= EVENT_NAME_LENGTH:
            raise StorageError(f"an event name has 1 to {EVENT_NAME_LENGTH} characters, not {len(event)}")
        if token is not None and len(token) < MIN_TOKEN_LENGTH:
            raise StorageError(f"a match token has at least {MIN_TOKEN_LENGTH} characters")
        if seed is not None and not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
            raise StorageError(f"a seed is stored as a 64-bit integer: {seed} is out of range")
        if state is None:
            state = Match(config).state
        config_json = _plain(config.to_json(), "the match configuration")
        state_json = _plain(state.to_json(), "the initial state")
        now = _now()
        with self._write("creating a match") as session:
            if content_hash is not None:
                found = session.scalar(select(MatchRow.id).where(MatchRow.content_hash == content_hash))
                if found is not None:
                    raise DuplicateMatchError(found)
            ids = [self._player_id(session, info) for info in infos]
            row = MatchRow(
                created_at=now,
                updated_at=now,
                player1_id=ids[0],
                player2_id=ids[1],
                config=config_json,
                seed=seed,
                status=_status(state),
                result=None if state.result is None else _plain(state.result.to_json(), "the result"),
                initial_state=state_json,
                state=state_json,
                action_count=0,
                event=event,
                token_hash=None if token is None else _token_hash(token),
                content_hash=content_hash,
            )
            session.add(row)
            session.flush()
            match_id = row.id
        return match_id

    def record(self, match_id: int, entry: Entry, after: MatchState, *, key: EntryKey | None = None) -> Recorded:
        """Record one pushed action (``entry``) and the state ``after`` it, in one transaction. Refuses (and
        writes nothing) unless ``entry.before`` is the match's stored current state. Returns the action's index
        and when it was recorded. With a ``key``, the key and its answer are recorded in the same transaction
        (:meth:`answered`); a key already recorded raises :class:`RepeatedEntryError` and writes nothing."""
        action_json = _plain(_action_to_json(entry.action), "the action")
        before_json = _plain(entry.before.to_json(), "the state before the action")
        after_json = _plain(after.to_json(), "the state after the action")
        outcome_json = _plain(_outcome_json(entry.outcome), "the outcome")
        result_json = None if after.result is None else _plain(after.result.to_json(), "the result")
        now = _now()
        with self._write(f"recording an action of match {match_id}") as session:
            row = self._match(session, match_id, lock=True)
            if key is not None:
                self._claim_key(session, match_id, key, row.action_count, now)
            if row.state != before_json and _current(match_id, row.state) != before_json:
                raise StaleStateError(
                    f"match {match_id}: the action was played from a state that is not the stored current state "
                    f"(after its {row.action_count} recorded actions), so it was not recorded: was an action "
                    "undone only in memory, recorded twice, or played on another copy of the match?"
                )
            index = row.action_count
            session.add(
                ActionRow(
                    match_id=match_id,
                    action_index=index,
                    kind=str(action_json["kind"]),
                    action=action_json,
                    outcome=outcome_json,
                    state_after=after_json,
                    created_at=now,
                )
            )
            row.state = after_json
            row.status = _status(after)
            row.result = result_json
            row.action_count = index + 1
            row.updated_at = now
        return Recorded(index, now)

    def rewrite(
        self, match_id: int, keep: int, entries: Sequence[Entry], final: MatchState, *, key: EntryKey | None = None
    ) -> None:
        """Replace every action from index ``keep`` on with ``entries`` (a correction replayed by the game
        layer) and make ``final`` the current state, in one transaction. Refuses (and writes nothing) unless the
        first new entry starts from the stored state before action ``keep``."""
        now = _now()
        rows_json = [
            (
                _plain(_action_to_json(e.action), "the action"),
                _plain(_outcome_json(e.outcome), "the outcome"),
                _plain((entries[i + 1].before if i + 1 < len(entries) else final).to_json(), "a state"),
            )
            for i, e in enumerate(entries)
        ]
        final_json = _plain(final.to_json(), "the final state")
        with self._write(f"rewriting match {match_id} from action {keep}") as session:
            row = self._match(session, match_id, lock=True)
            if key is not None:
                self._claim_key(session, match_id, key, None, now)
            if not 0 <= keep <= row.action_count:
                raise StorageError(f"match {match_id} has {row.action_count} actions: cannot rewrite from {keep}")
            rows = self._action_rows(session, row)
            before_json = rows[keep - 1].state_after if keep > 0 else row.initial_state
            if entries and _plain(entries[0].before.to_json(), "a state") != before_json:
                raise StorageError(
                    f"match {match_id}: the correction does not start from the stored state before action {keep}"
                )
            for old in rows[keep:]:
                session.delete(old)
            session.flush()
            for offset, (action_json, outcome_json, after_json) in enumerate(rows_json):
                session.add(
                    ActionRow(
                        match_id=match_id,
                        action_index=keep + offset,
                        kind=str(action_json["kind"]),
                        action=action_json,
                        outcome=outcome_json,
                        state_after=after_json,
                        created_at=now,
                    )
                )
            row.state = final_json
            row.status = _status(final)
            row.result = None if final.result is None else _plain(final.result.to_json(), "the result")
            row.action_count = keep + len(entries)
            row.updated_at = now

    def check_token(self, match_id: int, token: str | None) -> None:
        """Raise :class:`AccessDeniedError` unless ``token`` is the match's secret token."""
        with self._read(f"checking the token of match {match_id}") as session:
            stored = self._match(session, match_id).token_hash
        if stored is None:
            raise AccessDeniedError(
                f"match {match_id} is not kept with a token",
                fi=f"Ottelua {match_id} ei kirjata kirjurin linkillä: sitä pelataan selaimen pöydällä.",
            )
        if token is None or not hmac.compare_digest(stored, _token_hash(token)):
            raise AccessDeniedError(
                f"the token for match {match_id} is missing or wrong: use the marker's link",
                fi=f"Ottelun {match_id} kirjuritunniste puuttuu tai on väärä: avaa kirjurin linkki, joka näytettiin "
                "ottelua luotaessa.",
            )

    def recorder(self, match_id: int) -> MatchRecorder:
        """The ``on_entry`` callback for ``play_match`` that records match ``match_id``'s actions."""
        with self._read(f"finding match {match_id}") as session:
            self._match(session, match_id)
        return MatchRecorder(self, match_id)

    def import_match(
        self,
        match: Match,
        *,
        kinds: tuple[str, str] | None = None,
        event: str | None = None,
        seed: int | None = None,
        unique: bool = False,
    ) -> int:
        """Store a match that was played (or re-played and verified) elsewhere, action by action. Callers
        verify it first (``kaisa.records.notation.replay_record``), so a corrupt record never reaches the database.

        With ``unique`` the match's :func:`content_hash` is stored with it, and a match with the same content
        already stored raises :class:`DuplicateMatchError` (naming it) and writes nothing: a record imported twice
        is stored once."""
        digest = content_hash(match) if unique else None
        if digest is not None:
            found = self.find_content(digest)
            if found is not None:
                raise DuplicateMatchError(found)
        start = match.stack[0].before if match.stack else match.state
        match_id = self.create_match(match.config, kinds=kinds, state=start, event=event, seed=seed)
        try:
            for i, entry in enumerate(match.stack):
                after = match.stack[i + 1].before if i + 1 < len(match.stack) else match.state
                self.record(match_id, entry, after)
            if digest is not None:
                with self._write(f"marking the content of match {match_id}") as session:
                    self._match(session, match_id, lock=True).content_hash = digest
        except BaseException:
            self._delete_quietly(match_id)  # nothing half-written: an import is stored whole or not at all
            raise
        return match_id

    def find_content(self, digest: str) -> int | None:
        """The id of the stored match with this :func:`content_hash`, or None."""
        with self._read("looking up a record's content hash") as session:
            return session.scalar(select(MatchRow.id).where(MatchRow.content_hash == digest))

    def delete_match(self, match_id: int) -> None:
        """Delete the match with its actions and entry keys, in one transaction (the players stay)."""
        with self._write(f"deleting match {match_id}") as session:
            self._match(session, match_id, lock=True)
            session.execute(delete(EntryKeyRow).where(EntryKeyRow.match_id == match_id))
            session.execute(delete(ActionRow).where(ActionRow.match_id == match_id))
            session.execute(delete(MatchRow).where(MatchRow.id == match_id))

    def copy_match(self, match_id: int, copies: int = 1) -> list[int]:
        """Store ``copies`` copies of a stored match (its players, configuration, states and actions, without
        its content hash, token and entry keys), in one transaction; their ids. For benchmarks and tests that
        need many stored matches."""
        with self._write(f"copying match {match_id}") as session:
            row = self._match(session, match_id)
            actions = [
                {
                    "action_index": r.action_index,
                    "kind": r.kind,
                    "action": r.action,
                    "outcome": r.outcome,
                    "state_after": r.state_after,
                    "created_at": r.created_at,
                }
                for r in self._action_rows(session, row)
            ]
            ids = []
            for _ in range(copies):
                copy = MatchRow(
                    created_at=row.created_at,
                    updated_at=row.updated_at,
                    player1_id=row.player1_id,
                    player2_id=row.player2_id,
                    config=row.config,
                    seed=row.seed,
                    status=row.status,
                    result=row.result,
                    initial_state=row.initial_state,
                    state=row.state,
                    action_count=row.action_count,
                    event=row.event,
                )
                session.add(copy)
                session.flush()
                if actions:
                    session.execute(insert(ActionRow), [{**a, "match_id": copy.id} for a in actions])
                ids.append(copy.id)
        return ids

    def _delete_quietly(self, match_id: int) -> None:
        with suppress(StorageError):
            self.delete_match(match_id)

    def undo(self, match_id: int, *, key: EntryKey | None = None) -> Action:
        """Delete the last recorded action and move the match back to the state before it, in one transaction.
        Returns the deleted action. With a ``key``, as in :meth:`record`."""
        with self._write(f"undoing the last action of match {match_id}") as session:
            row = self._match(session, match_id, lock=True)
            if key is not None:
                self._claim_key(session, match_id, key, None, _now())
            count = row.action_count
            if count == 0:
                raise StorageError(f"match {match_id} has no recorded action to undo")
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.match_id == match_id, ActionRow.action_index >= count - 2)
                .order_by(ActionRow.action_index)
            ).all()
            if [r.action_index for r in rows] != list(range(max(0, count - 2), count)):
                raise CorruptRecordError(
                    f"match {match_id}: says it has {count} actions, but the rows at the end are numbered "
                    f"{[r.action_index for r in rows]}"
                )
            last = rows[-1]
            action = _parse(match_id, f"action {last.action_index}", _action_from_json, last.action)
            previous_json = rows[-2].state_after if len(rows) == 2 else row.initial_state
            previous = _parse(match_id, "state before the last action", MatchState.from_json, previous_json)
            session.delete(last)
            row.state = previous_json
            row.status = _status(previous)
            row.result = None if previous.result is None else previous.result.to_json()
            row.action_count = count - 1
            row.updated_at = _now()
        return action

    # --- entry keys and table labels (the club's marker entries) ---------------------------------------
    # An entry's key is made by the marker's phone; recording it in the same transaction as the entry's action
    # makes an entry sent again (a retry after a dropped connection or a killed server, a double tap) recorded
    # once and answered with the first answer.

    def answered(self, match_id: int, key: str) -> JSONObject | None:
        """The answer the entry with ``key`` got, or None if no entry with that key is recorded."""
        with self._read(f"looking up an entry key of match {match_id}") as session:
            self._match(session, match_id)
            found = session.scalars(
                select(EntryKeyRow.answer).where(EntryKeyRow.match_id == match_id, EntryKeyRow.key == key)
            ).first()
        return None if found is None else _json_object(found)

    def note(self, match_id: int, key: str, answer: JSONObject) -> JSONObject:
        """Record a keyed entry that records no action and changes nothing else (a marker's note, such as when a
        break began) with ``answer``, and return it; a key already recorded keeps its first answer, returned."""
        with self._write(f"noting an entry of match {match_id}") as session:
            self._match(session, match_id, lock=True)
            try:
                self._claim_key(session, match_id, EntryKey(key, lambda _index, _at: answer), None, _now())
            except RepeatedEntryError as repeated:
                return repeated.answer
        return _plain(answer, "the entry's answer")

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
            self._match(session, match_id, lock=True).updated_at = _now()

    def set_table_label(self, match_id: int, label: str | None) -> None:
        """Say which physical table the match is played on (the club's number or name; None: not said)."""
        if label is not None and not 0 < len(label) <= TABLE_LABEL_LENGTH:
            raise StorageError(f"a table's number or name has 1 to {TABLE_LABEL_LENGTH} characters, not {len(label)}")
        with self._write(f"labelling the table of match {match_id}") as session:
            self._match(session, match_id, lock=True).table_label = label

    def _claim_key(
        self, session: Session, match_id: int, key: EntryKey, action_index: int | None, at: datetime
    ) -> None:
        """Record ``key`` with its answer inside the caller's transaction (the match row is locked), or raise
        :class:`RepeatedEntryError` with the first answer if the key is already recorded."""
        if not 0 < len(key.key) <= ENTRY_KEY_LENGTH:
            raise StorageError(f"an entry key has 1 to {ENTRY_KEY_LENGTH} characters, not {len(key.key)}")
        found = session.scalars(
            select(EntryKeyRow.answer).where(EntryKeyRow.match_id == match_id, EntryKeyRow.key == key.key)
        ).first()
        if found is not None:
            raise RepeatedEntryError(match_id, key.key, _json_object(found))
        answer = _plain(key.answer(action_index, at), "the entry's answer")
        session.add(
            EntryKeyRow(match_id=match_id, key=key.key, action_index=action_index, answer=answer, created_at=at)
        )

    # --- reading -----------------------------------------------------------------------------------

    def load(self, match_id: int) -> tuple[MatchConfig, MatchState, list[Action]]:
        """The match's configuration, its current state (the state after the last recorded action) and its
        recorded actions in order."""
        with self._read(f"loading match {match_id}") as session:
            row = self._match(session, match_id)
            config = _parse(match_id, "configuration", MatchConfig.from_json, row.config)
            state = _parse(match_id, "current state", MatchState.from_json, row.state)
            rows = self._action_rows(session, row)
            actions = [_parse(match_id, f"action {r.action_index}", _action_from_json, r.action) for r in rows]
        return config, state, actions

    def resume(self, match_id: int, *, stack: bool = True) -> Match:
        """The stored match as a :class:`Match`, ready to play on: its state is the stored current state (the
        state after the last recorded action; ``to_json`` equal to the one recorded).

        With ``stack`` (the default) the stack is rebuilt eagerly from the records: one entry per recorded
        action, with its action, the stored state before it and its stored outcome (ruling, lag, notes, shot
        records without animation paths), so ``Match.pop`` undoes right back to the start and statistics read
        the rulings as they were given. With ``stack=False`` the stack is left empty. The table is always the
        official one (``MatchConfig.to_json`` does not record a table spec)."""
        if not stack:
            with self._read(f"resuming match {match_id}") as session:
                row = self._match(session, match_id)
                config = _parse(match_id, "configuration", MatchConfig.from_json, row.config)
                state = _parse(match_id, "current state", MatchState.from_json, row.state)
            return Match(config, state)
        stored = self.entries(match_id)
        return Match.from_stack(stored.config, stored.state, list(stored.entries))

    def entries(self, match_id: int, *, records: bool = True) -> StoredMatch:
        """The match as typed values in one read: its configuration, its stack of entries (action, state before,
        outcome) and its current state. It imports no physics, so statistics and views read stored rulings
        without re-playing a stroke. ``records=False`` leaves the outcomes' shot records out (faster; the
        rulings carry the events)."""
        with self._read(f"reading match {match_id}") as session:
            row = self._match(session, match_id)
            return self._entries_of(session, row, records)

    def all_entries(self, match_ids: Sequence[int] | None = None, *, records: bool = False) -> Iterator[StoredMatch]:
        """:meth:`entries` of many matches (default: every stored match, oldest first), one read per batch."""
        ids = list(match_ids) if match_ids is not None else None
        with self._read("reading the stored matches") as session:
            if ids is None:
                ids = list(session.scalars(select(MatchRow.id).order_by(MatchRow.id)))
            for start in range(0, len(ids), 200):
                batch = ids[start : start + 200]
                rows = {r.id: r for r in session.scalars(select(MatchRow).where(MatchRow.id.in_(batch)))}
                actions: dict[int, list[ActionRow]] = {i: [] for i in batch}
                for a in session.scalars(
                    select(ActionRow).where(ActionRow.match_id.in_(batch)).order_by(ActionRow.action_index)
                ):
                    actions[a.match_id].append(a)
                for match_id in batch:
                    if match_id not in rows:
                        raise UnknownMatchError(f"there is no match {match_id}", match_id)
                    yield self._entries_of(session, rows[match_id], records, actions[match_id])

    def projections(
        self, paths: Projection, match_ids: Sequence[int] | None = None, *, batch: int = 100
    ) -> Iterator[Projected]:
        """Parts of stored matches picked out by JSON paths inside the database (default: every match, oldest
        first): per match its configuration and the ``paths`` of its initial state, current state and result,
        and per action the ``paths`` of its action, outcome and state after it, each a list of values in the
        order of the paths (``None`` where a path is absent). A light read for figures over many matches, such
        as statistics: the large parts of a record (shot records, event logs) are never sent or parsed."""
        ids = list(match_ids) if match_ids is not None else None
        counts = (len(paths.action), len(paths.outcome), len(paths.state))
        # one JSON list per match, [[index, action, outcome, state after], ...]: one decode per match, not per row
        each = self._combine(
            ActionRow.action_index,
            self._pick_raw(ActionRow.action, paths.action),
            self._pick_raw(ActionRow.outcome, paths.outcome),
            self._pick_raw(ActionRow.state_after, paths.state),
        )
        if self.engine.dialect.name == "sqlite":
            # rows reach the aggregate in the (match_id, action_index) index's order; checked below all the same
            gathered = func.json_group_array(func.json(each))
        else:
            from sqlalchemy.dialects.postgresql import aggregate_order_by

            gathered = func.json_agg(aggregate_order_by(each, ActionRow.action_index))
        action_cols = [ActionRow.match_id, type_coerce(gathered, JSON)]
        match_cols = [
            MatchRow.id,
            MatchRow.config,
            MatchRow.action_count,
            MatchRow.result,
            self._pick(MatchRow.initial_state, paths.state),
            self._pick(MatchRow.state, paths.state),
        ]
        with self._read("reading figures of the stored matches") as session:
            if ids is None:
                ids = list(session.scalars(select(MatchRow.id).order_by(MatchRow.id)))
            for start in range(0, len(ids), batch):
                chosen = ids[start : start + batch]
                matches = {r[0]: r for r in session.execute(select(*match_cols).where(MatchRow.id.in_(chosen)))}
                with _gc_paused():  # decoding builds many small lists that the cyclic collector would rescan
                    actions: dict[int, list[Any]] = dict(
                        session.execute(
                            select(*action_cols).where(ActionRow.match_id.in_(chosen)).group_by(ActionRow.match_id)
                        ).all()
                    )
                for match_id in chosen:
                    if match_id not in matches:
                        raise UnknownMatchError(f"there is no match {match_id}", match_id)
                    _, config, count, result, initial, current = matches[match_id]
                    yield Projected(
                        id=match_id,
                        config=_parse(match_id, "configuration", MatchConfig.from_json, config),
                        result=None if result is None else _parse(match_id, "result", Result.from_json, result),
                        initial=_picked(match_id, initial, counts[2]),
                        state=_picked(match_id, current, counts[2]),
                        actions=_picked_actions(match_id, actions.get(match_id, []), count, counts),
                    )

    def _pick(self, column: Any, paths: Sequence[tuple[str, ...]]) -> Any:
        """An SQL expression giving a JSON list of the values at ``paths`` in a JSON ``column``."""
        return type_coerce(self._pick_raw(column, paths), JSON)

    def _pick_raw(self, column: Any, paths: Sequence[tuple[str, ...]]) -> Any:
        if self.engine.dialect.name == "sqlite":
            # json_extract with several paths parses the document once and answers a JSON array (as text); one
            # path gets a sentinel path beside it, so that its answer is a list all the same
            listed = paths if len(paths) > 1 else (*paths, ("~",))
            quoted = ["$" + "".join(f'."{key}"' for key in path) for path in listed]
            return func.json_extract(column, *quoted)
        return func.json_build_array(*(column[path] for path in paths))

    def _combine(self, *picks: Any) -> Any:
        """One JSON list of several :meth:`_pick_raw` lists."""
        if self.engine.dialect.name == "sqlite":
            return type_coerce(func.json_array(*(func.json(p) for p in picks)), JSON)
        return type_coerce(func.json_build_array(*picks), JSON)

    def _entries_of(
        self, session: Session, row: MatchRow, records: bool, action_rows: list[ActionRow] | None = None
    ) -> StoredMatch:
        match_id = row.id
        if action_rows is None:
            action_rows = self._action_rows(session, row)
        elif [r.action_index for r in action_rows] != list(range(row.action_count)):
            raise CorruptRecordError(f"match {match_id}: its action rows do not number 0 to {row.action_count - 1}")
        config = _parse(match_id, "configuration", MatchConfig.from_json, row.config)
        state = _parse(match_id, "current state", MatchState.from_json, row.state)
        entries: list[Entry] = []
        before = _parse(match_id, "initial state", MatchState.from_json, row.initial_state)
        for r in action_rows:
            what = f"action {r.action_index}"
            action = _parse(match_id, what, _action_from_json, r.action)
            outcome_json = r.outcome if records or not isinstance(r.outcome, dict) else _without_records(r.outcome)
            outcome = _parse(match_id, f"outcome of {what}", Outcome.from_json, outcome_json)
            entries.append(Entry(action, before, outcome))
            before = _parse(match_id, f"state after {what}", MatchState.from_json, r.state_after)
        if entries and before.to_json() != state.to_json():
            raise CorruptRecordError(
                f"match {match_id}: its current state is not the state after its last action ({len(entries) - 1})"
            )
        return StoredMatch(match_id, config, tuple(entries), state)

    def open_match(self, match_id: int) -> OpenedMatch:
        """The match as one read: its players, configuration, current state and last action (what a session
        needs to play the next action and show the match)."""
        with self._read(f"opening match {match_id}") as session:
            info = self._infos_in(session, match_id)[0]
            row = self._match(session, match_id)
            config = _parse(match_id, "configuration", MatchConfig.from_json, row.config)
            state = _parse(match_id, "current state", MatchState.from_json, row.state)
            last = None
            if row.action_count:
                r = session.scalar(
                    select(ActionRow).where(
                        ActionRow.match_id == match_id, ActionRow.action_index == row.action_count - 1
                    )
                )
                if r is None:
                    raise CorruptRecordError(f"match {match_id}: its last action ({row.action_count - 1}) is missing")
                last = self._stored(match_id, r)
        return OpenedMatch(info, config, state, last)

    def stored_action(self, match_id: int, index: int) -> tuple[StoredAction, MatchState]:
        """Action ``index`` of the match with the state before it: one read, whatever the match's length."""
        with self._read(f"reading action {index} of match {match_id}") as session:
            row = self._match(session, match_id)
            if not 0 <= index < row.action_count:
                raise IndexError(index)
            rows = session.scalars(
                select(ActionRow)
                .where(ActionRow.match_id == match_id, ActionRow.action_index.in_([index - 1, index]))
                .order_by(ActionRow.action_index)
            ).all()
            if not rows or rows[-1].action_index != index:
                raise CorruptRecordError(f"match {match_id}: its action {index} is missing")
            if index == 0:
                before = _parse(match_id, "initial state", MatchState.from_json, row.initial_state)
            else:
                before = _parse(match_id, f"state after action {index - 1}", MatchState.from_json, rows[0].state_after)
            return self._stored(match_id, rows[-1]), before

    def _stored(self, match_id: int, r: ActionRow) -> StoredAction:
        return StoredAction(
            match_id=match_id,
            index=r.action_index,
            action=_parse(match_id, f"action {r.action_index}", _action_from_json, r.action),
            outcome=_parse(match_id, f"outcome of action {r.action_index}", _json_object, r.outcome),
            state_after=_parse(match_id, f"state after action {r.action_index}", MatchState.from_json, r.state_after),
            created_at=_utc(r.created_at),
        )

    def match_info(self, match_id: int) -> MatchInfo:
        """One match at a glance."""
        return self._infos(f"reading match {match_id}", match_id)[0]

    def list_matches(self, status: str | None = None, event: str | None = None) -> list[MatchInfo]:
        """Every stored match (or those with ``status`` ``playing`` or ``over``, or of one ``event``), oldest
        first."""
        if status not in (None, "playing", "over"):
            raise StorageError(f"a match's status is playing or over, not {status!r}")
        return self._infos("listing the matches", None, status, event)

    def last_change(self, match_ids: Sequence[int] | None = None, event: str | None = None) -> datetime | None:
        """When any of these matches (or of ``event``, or any at all) last changed: a cheap poll for live
        displays."""
        query = select(func.max(MatchRow.updated_at))
        if match_ids is not None:
            query = query.where(MatchRow.id.in_(list(match_ids)))
        if event is not None:
            query = query.where(MatchRow.event == event)
        with self._read("polling for changes") as session:
            moment = session.scalar(query)
        return None if moment is None else _utc(moment)

    def actions(self, match_id: int, offset: int = 0, limit: int | None = None) -> list[StoredAction]:
        """Every recorded action of the match in order, with its outcome and the state after it: for
        statistics and export (``[a.to_json() for a in store.actions(id)]``). ``offset`` and ``limit`` read one
        page (actions ``offset`` to ``offset + limit - 1``) at a cost that does not grow with the match."""
        with self._read(f"reading the actions of match {match_id}") as session:
            row = self._match(session, match_id)
            if offset or limit is not None:
                end = row.action_count if limit is None else min(row.action_count, offset + limit)
                rows = session.scalars(
                    select(ActionRow)
                    .where(
                        ActionRow.match_id == match_id, ActionRow.action_index >= offset, ActionRow.action_index < end
                    )
                    .order_by(ActionRow.action_index)
                ).all()
                if [r.action_index for r in rows] != list(range(offset, end)):
                    raise CorruptRecordError(f"match {match_id}: actions {offset} to {end - 1} are not all stored")
                return [self._stored(match_id, r) for r in rows]
            return [
                StoredAction(
                    match_id=match_id,
                    index=r.action_index,
                    action=_parse(match_id, f"action {r.action_index}", _action_from_json, r.action),
                    outcome=_parse(match_id, f"outcome of action {r.action_index}", _json_object, r.outcome),
                    state_after=_parse(
                        match_id, f"state after action {r.action_index}", MatchState.from_json, r.state_after
                    ),
                    created_at=_utc(r.created_at),
                )
                for r in self._action_rows(session, row)
            ]

    def action_log(self, match_id: int) -> list[tuple[JSONObject, datetime]]:
        """Every recorded action's JSON and when it was recorded, in order: a light read (no states parsed)."""
        with self._read(f"reading the action log of match {match_id}") as session:
            self._match(session, match_id)
            rows = session.execute(
                select(ActionRow.action, ActionRow.created_at)
                .where(ActionRow.match_id == match_id)
                .order_by(ActionRow.action_index)
            ).all()
            return [(_parse(match_id, "an action", _json_object, action), _utc(at)) for action, at in rows]

    def last_action(self, match_id: int) -> JSONObject | None:
        """The last recorded action's JSON (None before the first)."""
        with self._read(f"reading the last action of match {match_id}") as session:
            row = self._match(session, match_id)
            action = session.scalar(
                select(ActionRow.action).where(
                    ActionRow.match_id == match_id, ActionRow.action_index == row.action_count - 1
                )
            )
            return None if action is None else _parse(match_id, "the last action", _json_object, action)

    def outcomes(self, match_id: int) -> list[JSONObject]:
        """Every recorded action's outcome JSON (notes, ruling, records) in order: a light read for
        scoreboards, which parses no states."""
        with self._read(f"reading the outcomes of match {match_id}") as session:
            row = self._match(session, match_id)
            rows = session.execute(
                select(ActionRow.action_index, ActionRow.outcome)
                .where(ActionRow.match_id == match_id)
                .order_by(ActionRow.action_index)
            ).all()
            if [r[0] for r in rows] != list(range(row.action_count)):
                raise CorruptRecordError(f"match {match_id}: its action rows do not number 0 to {row.action_count - 1}")
            return [_parse(match_id, f"outcome of action {i}", _json_object, outcome) for i, outcome in rows]

    # --- helpers -----------------------------------------------------------------------------------

    def _session(self, engine: Engine, doing: str) -> AbstractContextManager[Session]:
        return transaction(engine, doing, f" at {self.url}", self.changes)

    def _read(self, doing: str) -> AbstractContextManager[Session]:
        """A read-only transaction (one snapshot on PostgreSQL)."""
        return self._session(self._reads, doing)

    def _write(self, doing: str) -> AbstractContextManager[Session]:
        """A write transaction (on SQLite it takes the write lock at BEGIN); committed when the block ends."""
        return self._session(self._writes, doing)

    def _match(self, session: Session, match_id: int, *, lock: bool = False) -> MatchRow:
        if isinstance(match_id, bool) or not isinstance(match_id, int):
            raise UnknownMatchError(f"a match id is an integer, not {match_id!r}")
        row = None
        if SEED_RANGE[0] <= match_id <= SEED_RANGE[1]:  # beyond 64 bits no row can have it (and drivers overflow)
            row = session.get(MatchRow, match_id, with_for_update=lock)
        if row is None:
            raise UnknownMatchError(f"there is no match {match_id}", match_id)
        return row

    def _action_rows(self, session: Session, row: MatchRow) -> list[ActionRow]:
        rows = list(
            session.scalars(
                select(ActionRow).where(ActionRow.match_id == row.id).order_by(ActionRow.action_index)
            ).all()
        )
        indexes = [r.action_index for r in rows]
        if indexes != list(range(row.action_count)):
            raise CorruptRecordError(
                f"match {row.id}: says it has {row.action_count} actions, but its action rows are numbered "
                f"{_ranges(indexes)}"
            )
        return rows

    def _player_id(self, session: Session, info: PlayerInfo) -> int:
        query = select(PlayerRow.id).where(PlayerRow.name == info.name, PlayerRow.kind == info.kind)
        found = session.scalar(query)
        if found is not None:
            return found
        try:
            with session.begin_nested():
                player = PlayerRow(name=info.name, kind=info.kind)
                session.add(player)
            return player.id
        except exc.IntegrityError:  # created meanwhile by another process
            found = session.scalar(query)
            if found is None:
                raise
            return found

    def _infos(
        self, doing: str, match_id: int | None, status: str | None = None, event: str | None = None
    ) -> list[MatchInfo]:
        with self._read(doing) as session:
            return self._infos_in(session, match_id, status, event)

    def _infos_in(
        self, session: Session, match_id: int | None, status: str | None = None, event: str | None = None
    ) -> list[MatchInfo]:
        first, second = aliased(PlayerRow), aliased(PlayerRow)
        query = (
            select(MatchRow, first, second)
            .join(first, MatchRow.player1_id == first.id)
            .join(second, MatchRow.player2_id == second.id)
            .order_by(MatchRow.id)
        )
        if match_id is not None:
            query = query.where(MatchRow.id == match_id)
        if status is not None:
            query = query.where(MatchRow.status == status)
        if event is not None:
            query = query.where(MatchRow.event == event)
        if match_id is not None:
            self._match(session, match_id)
        out = []
        for row, p1, p2 in session.execute(query):
            result = None if row.result is None else _parse(row.id, "result", Result.from_json, row.result)
            out.append(
                MatchInfo(
                    id=row.id,
                    players=(PlayerInfo(p1.name, p1.kind), PlayerInfo(p2.name, p2.kind)),
                    status=row.status,
                    seed=row.seed,
                    actions=row.action_count,
                    result=result,
                    created_at=_utc(row.created_at),
                    updated_at=_utc(row.updated_at),
                    event=row.event,
                    has_token=row.token_hash is not None,
                    table_label=row.table_label,
                )
            )
        return out


@contextmanager
def transaction(
    engine: Engine, doing: str, where: str = "", changes: _changes.Changes | None = None
) -> Iterator[Session]:
    """One transaction on ``engine``, committed when the block ends; a failure is rolled back and said as the
    storage's error for ``doing`` (``where``: the database's location for the command line, or nothing). What
    it changed is told to ``changes`` after the commit (and on PostgreSQL to every listening process)."""
    try:
        with _changes.session(engine, changes) as session, session.begin():
            yield session
    except StorageError:
        raise
    except json.JSONDecodeError as error:
        raise CorruptRecordError(f"{doing}: a stored JSON column is not valid JSON ({error})") from None
    except exc.IntegrityError as error:
        raise StorageError(
            f"{doing}: the database refused the write ({first_line(error)}); nothing was written"
        ) from None
    except (exc.OperationalError, exc.InterfaceError) as error:
        raise DatabaseUnavailableError(
            f"{doing}: the database{where} failed ({first_line(error)}); nothing was written"
        ) from None
    except exc.SQLAlchemyError as error:
        raise StorageError(f"{doing}: {first_line(error)}; nothing was written") from None


def open_store(url: str | os.PathLike[str] | None = None) -> Store:
    """Open the match-records database at ``url`` and bring its tables to the current schema.

    ``url`` is any SQLAlchemy URL (``sqlite:///path.sqlite3``, ``postgresql+psycopg://user:pw@host/db``) or a
    path of an SQLite file. Without it: ``$KAISA_DB`` (a URL or a path), else ``kaisa.sqlite3`` in the user's
    data directory (``platformdirs.user_data_dir("kaisa")``). Raises :class:`DatabaseUnavailableError` for a
    malformed URL, an unknown driver or a database that cannot be reached."""
    parsed = parse_url(url)
    engine = make_engine(parsed)
    try:
        migrate(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine)


# --- values --------------------------------------------------------------------------------------------


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _now() -> datetime:
    return datetime.now(UTC)


def _utc(moment: datetime) -> datetime:
    """The moment in UTC. SQLite gives timestamps back without their zone; they were written in UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _status(state: MatchState) -> str:
    return "over" if state.phase is Phase.OVER else "playing"


def _plain(value: JSONObject, what: str) -> JSONObject:
    """``value`` as it reads back from a JSON column (lists for tuples), refusing what JSON cannot hold."""
    try:
        plain = json.loads(dumps(value))
    except (TypeError, ValueError) as error:
        raise StorageError(f"{what} cannot be stored as JSON: {error}") from None
    assert isinstance(plain, dict)
    return plain


def _current(match_id: int, stored: object) -> JSONObject:
    """A stored state as this version writes it (a record from an older version lacks newer counters)."""
    return _parse(match_id, "current state", MatchState.from_json, stored).to_json()


def _outcome_json(outcome: Outcome) -> JSONObject:
    """The outcome's JSON without the simulated records' animation trajectories (large, and recomputable by
    replaying the stroke)."""
    out = outcome.to_json()
    for record in out.get("records", []):
        record.pop("trajectories", None)
    return out


def content_hash(match: Match) -> str:
    """SHA-256 (hex) of what a match is: its configuration, the state it started from and its actions (as
    played, chance included). The same record read from two files, or imported twice, has the same hash;
    labels such as the date or event do not count."""
    start = match.stack[0].before if match.stack else match.state
    content = {
        "config": match.config.to_json(),
        "start": start.to_json(),
        "actions": [_action_to_json(e.action) for e in match.stack],
    }
    return hashlib.sha256(dumps(content, sort_keys=True).encode("utf-8")).hexdigest()


def _picked(match_id: int, values: object, count: int) -> list[Any]:
    if not isinstance(values, list) or len(values) < count:
        raise CorruptRecordError(f"match {match_id}: a stored JSON column does not hold the object it should")
    return values[:count]


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a bulk decode: the JSON decoder's many new lists and dicts, all
    alive, would trigger collections that rescan them again and again (four times the decode's own cost)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _picked_actions(
    match_id: int, rows: object, count: int, counts: tuple[int, int, int]
) -> tuple[tuple[list[Any], list[Any], list[Any]], ...]:
    """The ``[index, action, outcome, state]`` rows of one match's :meth:`Store.projections`, checked: numbered 0
    to ``count - 1``, each part a list of (at least) its paths' count of values."""
    broken = CorruptRecordError(f"match {match_id}: a stored JSON column does not hold the object it should")
    if not isinstance(rows, list) or any(type(r) is not list or len(r) != 4 or type(r[0]) is not int for r in rows):
        raise broken
    if any(r[0] != i for i, r in enumerate(rows)):
        rows = sorted(rows, key=lambda r: int(r[0]))
    if len(rows) != count or any(r[0] != i for i, r in enumerate(rows)):
        raise CorruptRecordError(f"match {match_id}: its action rows do not number 0 to {count - 1}")
    n_action, n_outcome, n_state = counts
    out = []
    for _, action, outcome, state in rows:
        if not (type(action) is list and type(outcome) is list and type(state) is list):
            raise broken
        if len(action) != n_action or len(outcome) != n_outcome or len(state) != n_state:
            action, outcome, state = (
                _picked(match_id, action, n_action),
                _picked(match_id, outcome, n_outcome),
                _picked(match_id, state, n_state),
            )
        out.append((action, outcome, state))
    return tuple(out)


def _without_records(outcome: JSONObject) -> JSONObject:
    return {k: v for k, v in outcome.items() if k != "records"}


def _json_object(data: object) -> JSONObject:
    if not isinstance(data, dict):
        raise FormatError(f"expected a JSON object, not {type(data).__name__}")
    return data


def _parse(match_id: int, what: str, parse: Callable[[Any], T], data: object) -> T:
    try:
        return parse(data)
    except (FormatError, KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise CorruptRecordError(
            f"match {match_id}: the stored {what} is corrupt ({error}); it was not written by kaisa's storage "
            "or was edited by hand"
        ) from None


def _player_infos(
    config: MatchConfig, players: Sequence[PlayerInfo | str] | None, kinds: tuple[str, str] | None
) -> tuple[PlayerInfo, PlayerInfo]:
    if players is not None and kinds is not None:
        raise StorageError("give the players either as PlayerInfo(name, kind) or as kinds for config.players, not both")
    if players is None:
        kinds = kinds or ("human", "human")
        if len(kinds) != 2:
            raise StorageError(f"a match has two players, so two kinds, not {len(kinds)}")
        players = [PlayerInfo(name, kind) for name, kind in zip(config.players, kinds, strict=True)]
    chosen = list(players)
    if len(chosen) != 2:
        raise StorageError(f"a match has two players, not {len(chosen)}")
    infos = [PlayerInfo(p) if isinstance(p, str) else p for p in chosen]
    for info in infos:
        if not 0 < len(info.name) <= PLAYER_NAME_LENGTH:
            raise StorageError(f"a player's name has 1 to {PLAYER_NAME_LENGTH} characters, not {len(info.name)}")
        if not 0 < len(info.kind) <= PLAYER_KIND_LENGTH:
            raise StorageError(f"a player's kind has 1 to {PLAYER_KIND_LENGTH} characters, not {len(info.kind)}")
    return infos[0], infos[1]


def _ranges(indexes: list[int]) -> str:
    if len(indexes) <= 12:
        return str(indexes)
    return f"[{', '.join(map(str, indexes[:5]))}, ..., {', '.join(map(str, indexes[-5:]))}] ({len(indexes)} rows)"


__all__ = [
    "DuplicateMatchError",
    "MatchInfo",
    "MatchRecorder",
    "PlayerInfo",
    "Store",
    "StoredAction",
    "StoredMatch",
    "content_hash",
    "open_store",
]
