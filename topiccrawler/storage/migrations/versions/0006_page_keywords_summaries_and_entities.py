"""page keywords, summaries and entities (the briefing)

Revision ID: 0006
Revises: 0004
Create Date: 2026-11-24 13:20:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("keywords", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("summary", sa.Text(), nullable=True))
        batch_op.add_column(sa.Column("entities", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.drop_column("entities")
        batch_op.drop_column("summary")
        batch_op.drop_column("keywords")
