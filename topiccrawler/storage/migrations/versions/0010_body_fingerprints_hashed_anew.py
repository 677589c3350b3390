"""body fingerprints computed anew: SimHash's shingle hash is vectorised

The body SimHash (dedup/simhash.py) now hashes shingles with a vectorised hash instead of a
BLAKE2b call each: a page's fingerprint differs from the one stored before, and fingerprints
of the two kinds cannot be compared. Each stored fingerprint is computed again from the stored
body; where the body was not kept (a page judged irrelevant), it is cleared: unknown, so a
title match alone decides, as before fingerprints were stored (same_body).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 02:00:00
"""

import sqlalchemy as sa
from alembic import op

from topiccrawler.dedup.simhash import simhash, to_signed

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

BATCH = 2000

pages = sa.table(
    "pages", sa.column("id", sa.Integer), sa.column("body", sa.Text),
    sa.column("body_hash", sa.BigInteger),
)  # fmt: skip


def upgrade() -> None:
    connection = op.get_bind()
    update = (
        pages.update()
        .where(pages.c.id == sa.bindparam("page_id"))
        .values(body_hash=sa.bindparam("fingerprint"))
    )
    last = 0
    while True:
        rows = connection.execute(
            sa.select(pages.c.id, pages.c.body)
            .where(pages.c.id > last, pages.c.body_hash.is_not(None))
            .order_by(pages.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            break
        connection.execute(
            update, [{"page_id": page_id, "fingerprint": _stored(body)} for page_id, body in rows]
        )
        last = rows[-1][0]


def _stored(body: str | None) -> int | None:
    """The body's fingerprint as the pages table stores it (None: unknown)."""
    fingerprint = simhash(body) if body else 0
    return to_signed(fingerprint) if fingerprint else None


def downgrade() -> None:
    """The old fingerprints cannot be computed by today's code: they are cleared (unknown)."""
    op.execute(pages.update().values(body_hash=None))
