"""Alembic's environment: migrations run on the connection the federation's store opened
(``store.migrate``), on PostgreSQL or SQLite alike; SQLite's changes of a table go through
Alembic's batch mode (copy and move), which it needs to alter a column."""

from __future__ import annotations

from alembic import context

from controller.federation.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run the migrations with: damath-board federation migrate --dir DIR")
context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
