"""The board's link to a tournament hub: it follows the journal and publishes it over MQTT.

The journal stays the source of truth: the link reads only what the journal has written, signs
each record (a hash chaining it to the one before, an HMAC with the board's own key), publishes it
with QoS 1, and keeps what the hub has acknowledged so that after any outage it resends exactly
what is missing. It runs in its own threads; the board never waits on it. The wire format
(topics and payloads) is in ``protocol`` and documented in docs/mqtt.md.

Modules: ``protocol`` (topics, envelope, checks: shared with the hub), ``gamestate`` (a game
rebuilt from its records with the rules engine), ``config`` (the board's connection file),
``follower`` (which journal files hold which games, and what is acknowledged), ``publisher``
(the ``Link``: MQTT, start/stop), ``playback`` (a board played from a trace, for tests and load).
Nothing heavy is imported here, so the hub can use ``protocol`` alone.
"""
