"""Tasks in the Fitness app."""
