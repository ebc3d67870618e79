"""An event run with the command line only, its hub never started (issue 40, item 17): its
players imported by their federation IDs, its round paired and its results typed, then
submitted; the federation accepts it (its results recorded by hand, noted as such)."""

from __future__ import annotations

from .conftest import EVENTS, new_federation
from .services import damath_here


def test_an_event_made_only_with_the_command_line_is_submitted(tmp_path, certs):
    server, ids = new_federation(tmp_path / "fed", "", certs)
    try:
        event_id, name, date, _region, entrants = EVENTS[0]
        cred = str(server.folder / "events" / f"{event_id}.toml")
        meet = str(tmp_path / "meet")
        damath_here("hub", "event", "create", "--dir", meet, "--name", name, "--rounds", "3",
                    "--date", date)  # fmt: skip
        damath_here("hub", "federation", "import", *[ids[i] for i in entrants],
                    "--dir", meet, "--credential", cred)  # fmt: skip
        damath_here("hub", "pair", "--dir", meet, "--round", "1")
        for t in (1, 2):
            damath_here("hub", "result", "--dir", meet, "--round", "1", "--table",
                        str(t), "blue", "--reason", "played on paper")  # fmt: skip
        sent = damath_here("hub", "federation", "submit", "--dir", meet, "--credential", cred,
                           check=False)  # fmt: skip
        assert sent.returncode == 0, sent.stderr + sent.stdout
        assert f"event {event_id}: accepted by the federation" in sent.stdout
        assert not (tmp_path / "meet" / "hub.sqlite").exists()  # nothing of a hub made for it
        shown = server.json(f"/events/{event_id}.json")
        assert shown["event"]["state"] == "accepted" and len(shown["results"]) == 2
    finally:
        server.stop()
