"""Tasks of the Gallery app (deletions are seen in the common ``files`` table)."""
