"""Writing match records: create a match, record each action with the state it led to, rewrite after a
correction, undo, import a match played elsewhere (stored once, by its content hash), copy and delete, and the
marker's token. Every write is one transaction.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from contextlib import suppress
from datetime import datetime

from sqlalchemy import delete, insert, select

from kaisa.game import Action, Entry, Match, MatchConfig, MatchState, Outcome
from kaisa.game import action_from_json as _action_from_json
from kaisa.game import action_to_json as _action_to_json
from kaisa.game.match import SEED_RANGE
from kaisa.records.storage.base import StoreBase
from kaisa.records.storage.engine import dumps
from kaisa.records.storage.entry_keys import claim_key
from kaisa.records.storage.errors import AccessDeniedError, CorruptRecordError, StaleStateError, StorageError
from kaisa.records.storage.models import (
    EVENT_NAME_LENGTH,
    PLAYER_KIND_LENGTH,
    PLAYER_NAME_LENGTH,
    ActionRow,
    EntryKeyRow,
    MatchRow,
)
from kaisa.records.storage.values import (
    DuplicateMatchError,
    EntryKey,
    JSONObject,
    PlayerInfo,
    Recorded,
    parse_stored,
    plain_json,
    status_of,
    utc_now,
)

MIN_TOKEN_LENGTH = 16
"""A marker's token is a secret: long enough not to be guessed."""


class MatchWrites(StoreBase):
    """Creating, recording, rewriting, undoing, importing, copying and deleting matches."""

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
        config_json = plain_json(config.to_json(), "the match configuration")
        state_json = plain_json(state.to_json(), "the initial state")
        now = utc_now()
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
                status=status_of(state),
                result=None if state.result is None else plain_json(state.result.to_json(), "the result"),
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
        action_json = plain_json(_action_to_json(entry.action), "the action")
        before_json = plain_json(entry.before.to_json(), "the state before the action")
        after_json = plain_json(after.to_json(), "the state after the action")
        outcome_json = plain_json(_outcome_json(entry.outcome), "the outcome")
        result_json = None if after.result is None else plain_json(after.result.to_json(), "the result")
        now = utc_now()
        with self._write(f"recording an action of match {match_id}") as session:
            row = self._match(session, match_id, lock=True)
            if key is not None:
                claim_key(session, match_id, key, row.action_count, now)
            if row.state != before_json and _current(match_id, row.state) != before_json:
                raise StaleStateError(
                    f"match {match_id}: the action was played from a state that is not the stored current state "
                    f"(after its {row.action_count} recorded actions), so it was not recorded: was an action "
                    "undone only in memory, recorded twice, or played on another copy of the match?"
                )
            index = row.action_count
            session.add(_action_row(match_id, index, action_json, outcome_json, after_json, now))
            row.state = after_json
            row.status = status_of(after)
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
        now = utc_now()
        rows_json = [
            (
                plain_json(_action_to_json(e.action), "the action"),
                plain_json(_outcome_json(e.outcome), "the outcome"),
                plain_json((entries[i + 1].before if i + 1 < len(entries) else final).to_json(), "a state"),
            )
            for i, e in enumerate(entries)
        ]
        final_json = plain_json(final.to_json(), "the final state")
        with self._write(f"rewriting match {match_id} from action {keep}") as session:
            row = self._match(session, match_id, lock=True)
            if key is not None:
                claim_key(session, match_id, key, None, now)
            if not 0 <= keep <= row.action_count:
                raise StorageError(f"match {match_id} has {row.action_count} actions: cannot rewrite from {keep}")
            rows = self._action_rows(session, row)
            before_json = rows[keep - 1].state_after if keep > 0 else row.initial_state
            if entries and plain_json(entries[0].before.to_json(), "a state") != before_json:
                raise StorageError(
                    f"match {match_id}: the correction does not start from the stored state before action {keep}"
                )
            for old in rows[keep:]:
                session.delete(old)
            session.flush()
            for offset, (action_json, outcome_json, after_json) in enumerate(rows_json):
                session.add(_action_row(match_id, keep + offset, action_json, outcome_json, after_json, now))
            row.state = final_json
            row.status = status_of(final)
            row.result = None if final.result is None else plain_json(final.result.to_json(), "the result")
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
                claim_key(session, match_id, key, None, utc_now())
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
            action = parse_stored(match_id, f"action {last.action_index}", _action_from_json, last.action)
            previous_json = rows[-2].state_after if len(rows) == 2 else row.initial_state
            previous = parse_stored(match_id, "state before the last action", MatchState.from_json, previous_json)
            session.delete(last)
            row.state = previous_json
            row.status = status_of(previous)
            row.result = None if previous.result is None else previous.result.to_json()
            row.action_count = count - 1
            row.updated_at = utc_now()
        return action


def _action_row(
    match_id: int, index: int, action: JSONObject, outcome: JSONObject, after: JSONObject, at: datetime
) -> ActionRow:
    """The row of action ``index``: the action, what it produced and the state after it, as JSON."""
    return ActionRow(
        match_id=match_id,
        action_index=index,
        kind=str(action["kind"]),
        action=action,
        outcome=outcome,
        state_after=after,
        created_at=at,
    )


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _current(match_id: int, stored: object) -> JSONObject:
    """A stored state as this version writes it (a record from an older version lacks newer counters)."""
    return parse_stored(match_id, "current state", MatchState.from_json, stored).to_json()


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
