"""The store's connection and what every part of it shares: read and write transactions (one snapshot per read on
PostgreSQL, the write lock at BEGIN on SQLite), a failure said as the storage's error, and the row look-ups
(a match by id, its action rows, a player's id, matches at a glance).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from types import TracebackType
from typing import Self

from sqlalchemy import Engine, exc, select
from sqlalchemy.orm import Session, aliased

from kaisa.game import Result
from kaisa.game.match import SEED_RANGE
from kaisa.records.storage import changes as _changes
from kaisa.records.storage.engine import SQLITE_BEGIN_OPTION, first_line, shown
from kaisa.records.storage.errors import CorruptRecordError, DatabaseUnavailableError, StorageError, UnknownMatchError
from kaisa.records.storage.models import ActionRow, MatchRow, PlayerRow
from kaisa.records.storage.values import MatchInfo, PlayerInfo, as_utc, parse_stored


class StoreBase:
    """The connection of :class:`kaisa.records.storage.store.Store` and the look-ups its parts share."""

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

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.url!r})"

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
            result = None if row.result is None else parse_stored(row.id, "result", Result.from_json, row.result)
            out.append(
                MatchInfo(
                    id=row.id,
                    players=(PlayerInfo(p1.name, p1.kind), PlayerInfo(p2.name, p2.kind)),
                    status=row.status,
                    seed=row.seed,
                    actions=row.action_count,
                    result=result,
                    created_at=as_utc(row.created_at),
                    updated_at=as_utc(row.updated_at),
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


def _ranges(indexes: list[int]) -> str:
    if len(indexes) <= 12:
        return str(indexes)
    return f"[{', '.join(map(str, indexes[:5]))}, ..., {', '.join(map(str, indexes[-5:]))}] ({len(indexes)} rows)"
