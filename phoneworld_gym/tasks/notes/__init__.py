"""Notes tasks over the app's own tables ``notes/notes`` and ``notes/items`` (PhoneWorld-only)."""
