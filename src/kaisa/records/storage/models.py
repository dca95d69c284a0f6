"""The tables of the match records, as typed SQLAlchemy 2 models.

Three match tables: ``players`` (who plays: a name and a kind such as ``human`` or ``baseline``), ``matches`` (one row
per match: its configuration, seed, status, the state it started from and its current state, which is the final
state once it is over) and ``actions`` (one row per pushed action: the action, what it produced and the state
after it). Values are the package's JSON contract (``MatchConfig.to_json``, ``MatchState.to_json``,
``action_to_json``, ``Outcome.to_json``); this module knows nothing about what they mean. Two competition tables:
``competitions`` (a kaavio's ``Kaavio.to_json``) and ``competition_keys`` (its changes' idempotency keys).

The schema is created and changed only by the Alembic migrations in ``kaisa/records/storage/migrations``; a test
checks that the migrations and these models agree.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names fixed by convention, so that migrations can name them on every database."""

STATUSES = ("playing", "over")
PLAYER_NAME_LENGTH = 200
EVENT_NAME_LENGTH = 120
PLAYER_KIND_LENGTH = 40
TABLE_LABEL_LENGTH = 40
ENTRY_KEY_LENGTH = 100


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, datetime: DateTime(timezone=True)}


class PlayerRow(Base):
    """A player: a person or a computer player (``kind``), unique by name and kind."""

    __tablename__ = "players"
    __table_args__ = (UniqueConstraint("name", "kind"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(PLAYER_NAME_LENGTH))
    kind: Mapped[str] = mapped_column(String(PLAYER_KIND_LENGTH))


class MatchRow(Base):
    """One match. ``state`` is the state after the last recorded action (``initial_state`` before any),
    written in the same transaction as that action's row, so the two never disagree."""

    __tablename__ = "matches"
    __table_args__ = (CheckConstraint("status IN ('playing', 'over')", name="status"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    player1_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    player2_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    config: Mapped[dict[str, Any]]
    seed: Mapped[int | None] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16))
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    initial_state: Mapped[dict[str, Any]]
    state: Mapped[dict[str, Any]]
    action_count: Mapped[int] = mapped_column(Integer)
    """How many action rows the match has: they are numbered ``0 .. action_count - 1``."""
    event: Mapped[str | None] = mapped_column(String(EVENT_NAME_LENGTH), index=True)
    """The club night (or tournament) the match belongs to, for its results table and spectator display."""
    token_hash: Mapped[str | None] = mapped_column(String(64))
    """SHA-256 (hex) of the secret token that lets a marker enter strokes; None for matches played here."""
    content_hash: Mapped[str | None] = mapped_column(String(64), index=True, unique=True)
    """SHA-256 (hex) of an imported record's content, or of a club match's creation key: the same record (or
    club match) is stored once."""
    table_label: Mapped[str | None] = mapped_column(String(TABLE_LABEL_LENGTH))
    """The club's number or name of the physical table the match is played on."""


class ActionRow(Base):
    """One pushed action of a match: ``action_index`` counts from 0 within the match."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("match_id", "action_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    action_index: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    """The action's kind (``lag``, ``choose``, ``place-w2``, ``shot``, ``break``), for queries."""
    action: Mapped[dict[str, Any]]
    outcome: Mapped[dict[str, Any]]
    state_after: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


class EntryKeyRow(Base):
    """An entry's idempotency key (made by the client) with the answer it got: an entry sent again is answered
    from here instead of being recorded twice. ``action_index`` is the action the entry recorded (None for an
    entry that recorded no action, such as an undo)."""

    __tablename__ = "entry_keys"
    __table_args__ = (UniqueConstraint("match_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(ENTRY_KEY_LENGTH))
    action_index: Mapped[int | None] = mapped_column(Integer)
    answer: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


COMPETITION_NAME_LENGTH = 120


class CompetitionRow(Base):
    """A competition run as a kaavio (``kaisa.competition``): ``data`` is ``Kaavio.to_json``, read back with
    ``Kaavio.from_json``; ``version`` counts the changes, each written in one transaction with the row locked.
    ``markers`` maps a club match's id to its marker's token, so the director can hand the link out again; it
    is served to the director only."""

    __tablename__ = "competitions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(COMPETITION_NAME_LENGTH))
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]
    version: Mapped[int] = mapped_column(Integer)
    token_hash: Mapped[str] = mapped_column(String(64))
    """SHA-256 (hex) of the director's secret token."""
    data: Mapped[dict[str, Any]]
    markers: Mapped[dict[str, Any]]


class CompetitionKeyRow(Base):
    """A change's idempotency key with the answer it got: a change sent again (a retry, a double tap, a club
    match's end seen by two readers) is answered from here and applied once."""

    __tablename__ = "competition_keys"
    __table_args__ = (UniqueConstraint("competition_id", "key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    competition_id: Mapped[int] = mapped_column(ForeignKey("competitions.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(ENTRY_KEY_LENGTH))
    answer: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


__all__ = [
    "STATUSES",
    "ActionRow",
    "Base",
    "CompetitionKeyRow",
    "CompetitionRow",
    "EntryKeyRow",
    "MatchRow",
    "PlayerRow",
]
