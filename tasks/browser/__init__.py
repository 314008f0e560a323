"""Browser tasks."""
