"""The stored match records as typed values (who plays, a match at a glance, a recorded action, a match's entries,
what one read of a match gives) and the two refusals a write answers with a stored value (a repeated entry, a
duplicate match); with the small conversions every part of the store shares: JSON as a column holds it, a
stored value parsed back (a corrupt one said as such), times in UTC.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from kaisa.errors import ErrorText, FormatError
from kaisa.game import Action, Entry, MatchConfig, MatchState, Phase, Result
from kaisa.game import action_to_json as _action_to_json
from kaisa.records.storage.engine import dumps
from kaisa.records.storage.errors import CorruptRecordError, StorageError

T = TypeVar("T")
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


def utc_now() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """The moment in UTC. SQLite gives timestamps back without their zone; they were written in UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def status_of(state: MatchState) -> str:
    return "over" if state.phase is Phase.OVER else "playing"


def plain_json(value: JSONObject, what: str) -> JSONObject:
    """``value`` as it reads back from a JSON column (lists for tuples), refusing what JSON cannot hold."""
    try:
        plain = json.loads(dumps(value))
    except (TypeError, ValueError) as error:
        raise StorageError(f"{what} cannot be stored as JSON: {error}") from None
    assert isinstance(plain, dict)
    return plain


def json_object(data: object) -> JSONObject:
    if not isinstance(data, dict):
        raise FormatError(f"expected a JSON object, not {type(data).__name__}")
    return data


def parse_stored(match_id: int, what: str, parse: Callable[[Any], T], data: object) -> T:
    try:
        return parse(data)
    except (FormatError, KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
        raise CorruptRecordError(
            f"match {match_id}: the stored {what} is corrupt ({error}); it was not written by kaisa's storage "
            "or was edited by hand"
        ) from None
