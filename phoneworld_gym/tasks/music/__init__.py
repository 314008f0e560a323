"""Tasks for the Music app: look-ups (a playlist's size and length, a song's album),
playlists, the queue, the player, and what the app cannot do."""
