"""One file per migration, oldest first; a migration that has run is never edited."""
