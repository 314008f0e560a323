"""Tasks for the Travel app: find the cheapest stay, book, cancel, save, look up a
booking, and what it cannot do."""
