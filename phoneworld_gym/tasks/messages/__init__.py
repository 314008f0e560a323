"""Tasks of the Messages app (the ``sms`` table: they run on a real phone too)."""
