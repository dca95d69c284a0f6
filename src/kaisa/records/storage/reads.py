"""Reading match records as typed values: a match to play on in one read (:meth:`MatchReads.open_match`), to resume,
its entries for statistics and views, an action and the state before it, pages of actions, lists of matches and
the time of the last change (the live displays' poll).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from kaisa.game import Action, Entry, Match, MatchConfig, MatchState, Outcome
from kaisa.game import action_from_json as _action_from_json
from kaisa.records.storage.base import StoreBase
from kaisa.records.storage.errors import CorruptRecordError, StorageError, UnknownMatchError
from kaisa.records.storage.models import ActionRow, MatchRow
from kaisa.records.storage.values import (
    JSONObject,
    MatchInfo,
    OpenedMatch,
    StoredAction,
    StoredMatch,
    as_utc,
    json_object,
    parse_stored,
)


class MatchReads(StoreBase):
    """Loading, resuming, opening and listing stored matches, and reading their actions."""

    def load(self, match_id: int) -> tuple[MatchConfig, MatchState, list[Action]]:
        """The match's configuration, its current state (the state after the last recorded action) and its
        recorded actions in order."""
        with self._read(f"loading match {match_id}") as session:
            row = self._match(session, match_id)
            config = parse_stored(match_id, "configuration", MatchConfig.from_json, row.config)
            state = parse_stored(match_id, "current state", MatchState.from_json, row.state)
            rows = self._action_rows(session, row)
            actions = [parse_stored(match_id, f"action {r.action_index}", _action_from_json, r.action) for r in rows]
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
                config = parse_stored(match_id, "configuration", MatchConfig.from_json, row.config)
                state = parse_stored(match_id, "current state", MatchState.from_json, row.state)
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

    def _entries_of(
        self, session: Session, row: MatchRow, records: bool, action_rows: list[ActionRow] | None = None
    ) -> StoredMatch:
        match_id = row.id
        if action_rows is None:
            action_rows = self._action_rows(session, row)
        elif [r.action_index for r in action_rows] != list(range(row.action_count)):
            raise CorruptRecordError(f"match {match_id}: its action rows do not number 0 to {row.action_count - 1}")
        config = parse_stored(match_id, "configuration", MatchConfig.from_json, row.config)
        state = parse_stored(match_id, "current state", MatchState.from_json, row.state)
        entries: list[Entry] = []
        before = parse_stored(match_id, "initial state", MatchState.from_json, row.initial_state)
        for r in action_rows:
            what = f"action {r.action_index}"
            action = parse_stored(match_id, what, _action_from_json, r.action)
            outcome_json = r.outcome if records or not isinstance(r.outcome, dict) else _without_records(r.outcome)
            outcome = parse_stored(match_id, f"outcome of {what}", Outcome.from_json, outcome_json)
            entries.append(Entry(action, before, outcome))
            before = parse_stored(match_id, f"state after {what}", MatchState.from_json, r.state_after)
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
            config = parse_stored(match_id, "configuration", MatchConfig.from_json, row.config)
            state = parse_stored(match_id, "current state", MatchState.from_json, row.state)
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
                before = parse_stored(match_id, "initial state", MatchState.from_json, row.initial_state)
            else:
                before = parse_stored(
                    match_id, f"state after action {index - 1}", MatchState.from_json, rows[0].state_after
                )
            return self._stored(match_id, rows[-1]), before

    def _stored(self, match_id: int, r: ActionRow) -> StoredAction:
        return StoredAction(
            match_id=match_id,
            index=r.action_index,
            action=parse_stored(match_id, f"action {r.action_index}", _action_from_json, r.action),
            outcome=parse_stored(match_id, f"outcome of action {r.action_index}", json_object, r.outcome),
            state_after=parse_stored(
                match_id, f"state after action {r.action_index}", MatchState.from_json, r.state_after
            ),
            created_at=as_utc(r.created_at),
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
        return None if moment is None else as_utc(moment)

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
            return [self._stored(match_id, r) for r in self._action_rows(session, row)]

    def action_log(self, match_id: int) -> list[tuple[JSONObject, datetime]]:
        """Every recorded action's JSON and when it was recorded, in order: a light read (no states parsed)."""
        with self._read(f"reading the action log of match {match_id}") as session:
            self._match(session, match_id)
            rows = session.execute(
                select(ActionRow.action, ActionRow.created_at)
                .where(ActionRow.match_id == match_id)
                .order_by(ActionRow.action_index)
            ).all()
            return [(parse_stored(match_id, "an action", json_object, action), as_utc(at)) for action, at in rows]

    def last_action(self, match_id: int) -> JSONObject | None:
        """The last recorded action's JSON (None before the first)."""
        with self._read(f"reading the last action of match {match_id}") as session:
            row = self._match(session, match_id)
            action = session.scalar(
                select(ActionRow.action).where(
                    ActionRow.match_id == match_id, ActionRow.action_index == row.action_count - 1
                )
            )
            return None if action is None else parse_stored(match_id, "the last action", json_object, action)

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
            return [parse_stored(match_id, f"outcome of action {i}", json_object, outcome) for i, outcome in rows]


def _without_records(outcome: JSONObject) -> JSONObject:
    return {k: v for k, v in outcome.items() if k != "records"}
