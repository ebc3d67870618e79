"""The computer opponent and coach (issue 16): pure, above the rules engine."""
