"""accepted answers of forum posts (Q&A pages)

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 09:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("accepted", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.drop_column("accepted")
