"""The view: pure functions from state to what each output shows (ARCHITECTURE.md)."""
