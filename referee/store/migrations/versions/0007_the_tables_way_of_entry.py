"""The table's way of entry: one column of ``tables`` (``entry_mode``), empty on every table.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07

How a table enters its deals (cards, piles, numbers; R-COMMON-6) is the table's, for every phone that opens it: it
was remembered in a cookie of the phone that chose it. Nothing moves: a table without it is entered the game's first
way until a phone chooses another. A database that ``create_all`` made with these models before it was stamped has
it already: it is added only when absent.
"""
from alembic import op
import sqlalchemy as sa

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    present = {column['name'] for column in sa.inspect(op.get_bind()).get_columns('tables')}
    if 'entry_mode' not in present:
        with op.batch_alter_table('tables', schema=None) as batch_op:
            batch_op.add_column(sa.Column('entry_mode', sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('entry_mode')
