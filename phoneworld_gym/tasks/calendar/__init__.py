"""Tasks of the Calendar app (the ``calendar`` table: they run on a real phone too)."""
