"""author links of comments and posts

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 15:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("comments", "forum_posts"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column("author_url", sa.Text(), nullable=True))


def downgrade() -> None:
    for table in ("comments", "forum_posts"):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_column("author_url")
