"""Entries recorded exactly once, records imported once, and the physical table of a club match.

- ``entry_keys``: the key a marker's phone (or any client) makes for one entry, with the answer it got, so an
  entry sent again (a retry after a dropped connection, a double tap) is recorded once and answered the same.
- ``matches.content_hash``: the SHA-256 of an imported record's content, so importing it twice stores it once.
- ``matches.table_label``: the club's own number or name of the table the match is played on.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | Sequence[str] | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("content_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("table_label", sa.String(length=40), nullable=True))
        batch.create_index(op.f("ix_matches_content_hash"), ["content_hash"], unique=True)
    op.create_table(
        "entry_keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=100), nullable=False),
        sa.Column("action_index", sa.Integer(), nullable=True),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["matches.id"], name=op.f("fk_entry_keys_match_id_matches"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entry_keys")),
        sa.UniqueConstraint("match_id", "key", name=op.f("uq_entry_keys_match_id_key")),
    )


def downgrade() -> None:
    op.drop_table("entry_keys")
    with op.batch_alter_table("matches") as batch:
        batch.drop_index(op.f("ix_matches_content_hash"))
        batch.drop_column("table_label")
        batch.drop_column("content_hash")
