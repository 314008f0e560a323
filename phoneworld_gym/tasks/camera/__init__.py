"""Tasks of the Camera app (a shot is a new file in the common ``files`` table)."""
