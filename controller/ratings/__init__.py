"""Ratings shared by the federation (players) and the puzzles (children and puzzles)."""
