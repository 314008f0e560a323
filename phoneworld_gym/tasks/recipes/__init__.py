"""Recipes app tasks."""
