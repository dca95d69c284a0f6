"""Club matches: the club night a match belongs to, and the hash of its marker's secret token.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("event", sa.String(length=120), nullable=True))
        batch.add_column(sa.Column("token_hash", sa.String(length=64), nullable=True))
        batch.create_index(op.f("ix_matches_event"), ["event"])


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_index(op.f("ix_matches_event"))
        batch.drop_column("token_hash")
        batch.drop_column("event")
