"""Submissions in order, refused ones small: when the hub signed each (a replay of an older
one is refused), its count of results (an identical submission sent again is answered with
the verdict it had), and no file kept for a refused one (its digest and reasons are).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("submission") as batch:
        batch.alter_column("body", existing_type=sa.LargeBinary(), nullable=True)
        batch.add_column(sa.Column("signed_at", sa.String(40), nullable=True))
        batch.add_column(sa.Column("results", sa.Integer(), nullable=True))
    # what refused submissions kept whole until now (three 60 MiB ones took 236 MB)
    op.execute("UPDATE submission SET body = NULL WHERE verdict <> 'accepted'")


def downgrade() -> None:
    with op.batch_alter_table("submission") as batch:
        batch.drop_column("results")
        batch.drop_column("signed_at")
