"""Food delivery tasks."""
