"""Django's PostgreSQL backend with a pool that replaces connections the server dropped
(see `base.py`); `DATABASE_URL=postgres://...` selects it."""
