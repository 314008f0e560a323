"""Tasks for the To-do app (Tasks): add, complete, delete, reschedule, look up."""
