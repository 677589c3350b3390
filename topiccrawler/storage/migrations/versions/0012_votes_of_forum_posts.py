"""votes of forum posts: the score a page shows beside a post (a Q&A answer's votes, likes)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29 00:40:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("votes", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("forum_posts", schema=None) as batch_op:
        batch_op.drop_column("votes")
