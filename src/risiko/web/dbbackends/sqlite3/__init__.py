"""Django's SQLite backend creating the database file private (see :mod:`.base`)."""
