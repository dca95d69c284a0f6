"""Alembic's environment: runs the migrations on the connection ``open_store`` passes in (inside its
transaction), or on ``sqlalchemy.url`` when a developer runs Alembic commands (see ``__init__``)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from kaisa.records.storage.models import Base


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite alters tables by copying them
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=Base.metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    if url is None:
        raise RuntimeError(
            "the migrations need a connection or a sqlalchemy.url (see kaisa.records.storage.migrations)"
        )
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            _run(conn)
            conn.commit()
    finally:
        engine.dispose()


main()
