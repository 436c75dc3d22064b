"""The trick under way: two columns of ``tables`` (``draft``, ``draft_revision``), empty on every table.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

The cards tapped so far in a table's open trick are kept on its row, with the revision they belong to, so that a
reload, a co-scorer's phone and the viewers see them. Nothing moves: a table without them has no trick under way. A
database that ``create_all`` made with these models before it was stamped (0001 brings such a database up) has them
already: each is added only when absent.
"""
from alembic import op
import sqlalchemy as sa

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def columns() -> list:
    return [sa.Column('draft', sa.String(length=64), nullable=True),
            sa.Column('draft_revision', sa.Integer(), nullable=True)]


def upgrade() -> None:
    present = {column['name'] for column in sa.inspect(op.get_bind()).get_columns('tables')}
    missing = [column for column in columns() if column.name not in present]
    if missing:
        with op.batch_alter_table('tables', schema=None) as batch_op:
            for column in missing:
                batch_op.add_column(column)


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('draft_revision')
        batch_op.drop_column('draft')
