"""Maps tasks."""
