"""Bank tasks: balances and spending (information retrieval), sending money, transfers,
card freezes, and transfers the bank refuses (infeasible)."""
