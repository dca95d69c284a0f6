"""Competitions (the kaavio) in the club database.

- ``competitions``: one row per competition, its ``Kaavio.to_json`` with a change counter, the hash of the
  director's token and the club matches' marker tokens (for the director only).
- ``competition_keys``: each change's idempotency key with its answer, so a change sent twice is applied once.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "competitions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("markers", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_competitions")),
    )
    op.create_table(
        "competition_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("competition_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["competition_id"],
            ["competitions.id"],
            name=op.f("fk_competition_keys_competition_id_competitions"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_competition_keys")),
        sa.UniqueConstraint("competition_id", "key", name=op.f("uq_competition_keys_competition_id_key")),
    )


def downgrade() -> None:
    op.drop_table("competition_keys")
    op.drop_table("competitions")
