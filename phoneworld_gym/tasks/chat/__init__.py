"""Chat super-app tasks (text, photos, locations, forwarding, unread counts)."""
