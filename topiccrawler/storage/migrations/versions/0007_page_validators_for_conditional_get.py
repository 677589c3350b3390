"""page validators (ETag, Last-Modified) for conditional GET

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 13:55:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("etag", sa.String(length=255), nullable=True))
        batch_op.add_column(sa.Column("last_modified", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.drop_column("last_modified")
        batch_op.drop_column("etag")
