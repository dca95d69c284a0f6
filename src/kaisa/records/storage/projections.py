"""Figures over many stored matches, picked out by JSON paths inside the database (:meth:`MatchProjections.projections`):
the large parts of a record (shot records, event logs) are never sent or parsed. The statistics read through here.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import JSON, func, select, type_coerce

from kaisa.game import MatchConfig, Result
from kaisa.records.storage.base import StoreBase
from kaisa.records.storage.errors import CorruptRecordError, UnknownMatchError
from kaisa.records.storage.models import ActionRow, MatchRow
from kaisa.records.storage.values import parse_stored


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


class MatchProjections(StoreBase):
    """Parts of stored matches picked out by JSON paths."""

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
                        config=parse_stored(match_id, "configuration", MatchConfig.from_json, config),
                        result=None if result is None else parse_stored(match_id, "result", Result.from_json, result),
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
