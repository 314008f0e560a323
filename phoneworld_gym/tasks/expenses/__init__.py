"""Expenses app tasks."""
