"""feeds and sitemaps: their validators (discovery_sources), how each page was found

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 08:10:00
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("found_by", sa.String(length=20), nullable=True))
    op.create_table(
        "discovery_sources",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("topic", sa.String(length=100), nullable=False),
        sa.Column("site", sa.String(length=255), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("url_hash", sa.String(length=40), nullable=False),
        sa.Column("depth", sa.Integer(), nullable=False),
        sa.Column("status", sa.Integer(), nullable=True),
        sa.Column("etag", sa.String(length=255), nullable=True),
        sa.Column("last_modified", sa.String(length=64), nullable=True),
        sa.Column("entries", sa.Integer(), nullable=True),
        sa.Column("lastmod", sa.DateTime(timezone=True), nullable=True),
        sa.Column("first_seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("fetched_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_discovery_sources")),
        sa.UniqueConstraint("topic", "url_hash", name=op.f("uq_discovery_sources_topic_url_hash")),
    )
    with op.batch_alter_table("discovery_sources", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_discovery_sources_topic"), ["topic"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("discovery_sources", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_discovery_sources_topic"))
    op.drop_table("discovery_sources")
    with op.batch_alter_table("pages", schema=None) as batch_op:
        batch_op.drop_column("found_by")
