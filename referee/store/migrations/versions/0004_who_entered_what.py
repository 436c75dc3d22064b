"""Who entered what, signed results, arbitral results (issue 27: R-COMMON-7, R-COMMON-8, R-TOURN-1).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03

- ``events``: whose key made an entry (``entered_by``: scorer, coscorer, director, import) and the reason given with
  it; whose key withdrew it and why (``withdrawn_role``, ``withdrawn_reason``). Every entry stored before is the
  scorer's (the only key that could write then, the co-scorer's aside, which the log did not tell apart), and so is
  every withdrawal.
- ``tournaments``: ``require_signatures`` (a round closes once its tables are signed or arbitral) and
  ``standings_hidden`` (the director hides the standings during the last round); both false on every tournament.
- ``tournament_tables``: ``arbitral``, the VP the director gave a table ([ns, ew]), none on every table.

Each column is added only when absent (a database ``create_all`` made with these models before it was stamped).
"""
from alembic import op
import sqlalchemy as sa

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def columns() -> dict:
    return {
        'events': [sa.Column('entered_by', sa.String(length=16), server_default='scorer', nullable=False),
                   sa.Column('reason', sa.String(length=300), nullable=True),
                   sa.Column('withdrawn_role', sa.String(length=16), nullable=True),
                   sa.Column('withdrawn_reason', sa.String(length=300), nullable=True)],
        'tournaments': [sa.Column('require_signatures', sa.Boolean(), server_default='0', nullable=False),
                        sa.Column('standings_hidden', sa.Boolean(), server_default='0', nullable=False)],
        'tournament_tables': [sa.Column('arbitral', sa.JSON(), nullable=True)],
    }


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for table, wanted in columns().items():
        present = {column['name'] for column in inspector.get_columns(table)}
        missing = [column for column in wanted if column.name not in present]
        if missing:
            with op.batch_alter_table(table, schema=None) as batch_op:
                for column in missing:
                    batch_op.add_column(column)
    events = sa.table('events', sa.column('withdrawn', sa.Boolean()), sa.column('withdrawn_role', sa.String()))
    op.execute(events.update().where(events.c.withdrawn == sa.true(), events.c.withdrawn_role.is_(None))
               .values(withdrawn_role='scorer'))


def downgrade() -> None:
    for table, wanted in columns().items():
        with op.batch_alter_table(table, schema=None) as batch_op:
            for column in reversed(wanted):
                batch_op.drop_column(column.name)
