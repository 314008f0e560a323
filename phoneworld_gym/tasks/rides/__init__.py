"""Tasks of the Rides app (ride hailing)."""
