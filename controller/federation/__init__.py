"""The federation above the halls (docs/federation.md): the player registry, events submitted by
hubs and verified game by game with the rules engine, Glicko-2 ratings, and the live wall of
every hall's top boards, fed through the halls' broker bridges."""
