"""One index less on ``events``: ``ix_events_table_id`` goes.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07

Both unique constraints of ``events`` begin with ``table_id`` (``(table_id, seq)``, ``(table_id, client_event_id)``),
so that every read by table already finds its rows through either; the index on ``table_id`` alone answered nothing
they do not, and cost every entry a third index to write (issue 40: each entry's work in the database). Nothing
else moves. Dropped only where present (a database ``create_all`` made with these models has none); the downgrade
makes it again.
"""
from alembic import op
import sqlalchemy as sa

revision = '0008'
down_revision = '0007'
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {index['name'] for index in sa.inspect(op.get_bind()).get_indexes('events')}
    if 'ix_events_table_id' in present:
        op.drop_index('ix_events_table_id', table_name='events')


def downgrade() -> None:
    op.create_index('ix_events_table_id', 'events', ['table_id'], unique=False)
