"""Fuzz targets and their input strategies, shared by the suite (tests/fuzz/test_fuzz.py, a few
hundred inputs each, bounded in time) and the longer run (bench/bench_fuzz.py).

Each target takes one input and returns ``"accepted"`` or ``"refused"``; anything else it
raises is a failure. A refusal must be a clear message: a sentence, short, with no Python
internals in it. "Never a hang" is checked by the caller's deadline per input."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from controller.audit.check import FileError, audit_text
from controller.record.journal_file import encode
from controller.rules.damath_data import OPERATORS, PLACEMENTS, VARIANTS
from controller.rules.notation import NotationError, game_from_json, game_to_json
from controller.rules.scoring import score_move
from controller.session import Session, SessionConfig
from controller.tracker.settings import SettingsError
from controller.tracker.trace import TraceError, read_trace
from controller.view.snapshot import snapshot

LEAKS = ("Traceback", "set_int_max_str_digits", "object at 0x", "Error(")


def clear(message: str) -> None:
    """A refusal a person can read: a sentence of reasonable length, no Python internals."""
    assert isinstance(message, str) and message.strip(), "an empty message"
    assert len(message) < 600, f"a message of {len(message)} characters"
    for leak in LEAKS:
        assert leak not in message, message


# ---------------------------------------------------------------------- strategies

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=25,
)

_DIGITS = st.sampled_from([*list("0123456789"), "٣", "٠", "１", "²", "³", "⁴"])
_CHIP_PARTS = st.sampled_from(
    ["-", "+", "−", "/", "x", "y", "^", "√", "sqrt(", ")", "(", "*", " ", ".", "0", "9" * 30]
)
chip_texts = st.one_of(
    st.sampled_from([label for labels in PLACEMENTS.values() for label in labels]),
    st.lists(st.one_of(_DIGITS, _CHIP_PARTS), min_size=1, max_size=12).map("".join),
    st.builds(lambda e: f"x^{e}", st.integers(min_value=0, max_value=10**9)),
    st.builds(lambda n: "9" * n, st.integers(min_value=1, max_value=6000)),
    st.text(max_size=15),
)
squares = st.one_of(
    st.sampled_from([list(s) for s in OPERATORS]),
    st.lists(st.integers(min_value=-2, max_value=9), min_size=0, max_size=3),
    json_values,
)
pieces = st.fixed_dictionaries(
    {
        "square": squares,
        "side": st.one_of(st.sampled_from(["blue", "red", "Blue", "green"]), json_values),
        "value": st.one_of(chip_texts, st.integers(), json_values),
    },
    optional={"dama": st.one_of(st.booleans(), json_values), "extra": json_values},
)
positions = st.one_of(
    st.fixed_dictionaries(
        {
            "variant": st.one_of(st.sampled_from(VARIANTS), st.text(max_size=8)),
            "pieces": st.lists(pieces, max_size=26),
        },
        optional={
            "to_move": st.one_of(st.sampled_from(["blue", "red"]), json_values),
            "profile": st.sampled_from(["official", "online", "chess"]),
            "settings": st.one_of(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "game_seconds": st.integers(min_value=-5, max_value=10**20),
                        "touch_move": json_values,
                        "dama_trail": st.sampled_from(["strict", "loose", "wild"]),
                    },
                ),
                json_values,
            ),
        },
    ),
    json_values,
)
_PLAYABLE = sorted(OPERATORS)


@st.composite
def near_openings(draw) -> dict[str, Any]:
    """A variant's opening with chips taken off, one moved, one value changed: mostly
    positions a teacher could load, some just over a bound."""
    from controller.rules.variants import opening_chips

    variant = draw(st.sampled_from(VARIANTS))
    chips = sorted(opening_chips(variant).items())
    keep = draw(st.lists(st.sampled_from(range(len(chips))), min_size=2, max_size=24, unique=True))
    out = []
    for i in sorted(keep):
        (x, y), chip = chips[i]
        out.append({"square": [x, y], "side": "blue" if chip.side == 0 else "red",
                    "value": str(chip.value), "dama": False})  # fmt: skip
    if draw(st.booleans()):
        out[0]["square"] = list(draw(st.sampled_from(_PLAYABLE)))
    if draw(st.booleans()):
        out[-1]["value"] = draw(chip_texts)
    if draw(st.booleans()):
        out[-1]["dama"] = True
    return {"variant": variant, "to_move": draw(st.sampled_from(["blue", "red"])), "pieces": out}


position_texts = st.one_of(
    near_openings().map(json.dumps),
    near_openings().map(json.dumps),
    positions.map(json.dumps),
    st.text(max_size=200),
    st.integers(min_value=1, max_value=3000).map(lambda n: "[" * n),
    st.integers(min_value=1, max_value=6000).map(lambda n: '{"pieces": ' + "9" * n + "}"),
)


# ---------------------------------------------------------------------- positions


def position(text: str) -> str:
    """A JSON position read, and when good: every legal move scored, written back, read again."""
    try:
        game = game_from_json(text)
    except NotationError as exc:
        clear(str(exc))
        return "refused"
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__}: {exc}") from exc
    for move in game.legal_moves()[:40]:
        scored = score_move(move, game.variant or "integer")
        assert scored.value == scored.value  # a number, never NaN; never OverflowError
    again = game_from_json(game_to_json(game))
    assert again.chips() == game.chips()
    return "accepted"


# ---------------------------------------------------------------------- traces

_FRAMES = st.lists(st.sampled_from([list(s) for s in OPERATORS]), max_size=32)
trace_lines = st.one_of(
    st.fixed_dictionaries(
        {"t": st.one_of(st.floats(min_value=0, max_value=100), json_values), "occupied": _FRAMES}
    ).map(json.dumps),
    st.fixed_dictionaries(
        {"t": st.floats(min_value=0, max_value=100), "button": st.text(max_size=8)}
    ).map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=60),
)
_OPENING = sorted(s for s in OPERATORS if s[1] <= 2 or s[1] >= 5)


@st.composite
def plausible_frames(draw) -> list[str]:
    """Frames a board could send: the opening, then chips lifted and set down, in time order."""
    board = set(_OPENING)
    lines = [json.dumps({"t": 0.0, "occupied": [list(q) for q in sorted(board)]})]
    t = 0.0
    for _ in range(draw(st.integers(min_value=0, max_value=25))):
        t += draw(st.floats(min_value=0.001, max_value=1.0))
        square = draw(st.sampled_from(_PLAYABLE))
        board ^= {square}
        lines.append(json.dumps({"t": round(t, 3), "occupied": [list(q) for q in sorted(board)]}))
    return lines


traces = st.tuples(
    st.one_of(
        st.just('{"trace": 1, "variant": "integer"}'),
        st.just('{"trace": 1, "variant": "integer"}'),
        positions.map(lambda p: json.dumps({"trace": 1, "position": p})),
        json_values.map(lambda v: json.dumps({"trace": v})),
        st.text(max_size=40),
    ),
    st.one_of(plausible_frames(), plausible_frames(), st.lists(trace_lines, max_size=30)),
)


def trace(parts: tuple[str, list[str]]) -> str:
    """A trace read and, when good, replayed through the tracker and the engine."""
    from controller.cli.replay import replay_trace

    header, lines = parts
    try:
        parsed = read_trace([header, *lines])
        replay_trace(parsed, max_steps=50)
    except (TraceError, NotationError, SettingsError) as exc:
        clear(str(exc))
        return "refused"
    return "accepted"


# ---------------------------------------------------------------------- scoresheets

_HEADER = "player,kind,entry,score,total,square"
_CELLS = st.one_of(
    st.sampled_from(
        [
            "BLUE",
            "RED",
            "move",
            "take",
            "rc",
            "total",
            "grand",
            "-9 + (-1)",
            "-10",
            "(2,5)",
            "-5 x 10 x 2",
            "RC -11 x 2",
            "78xy² ÷ (-55x)",
            "(٣,4)",
        ]
    ),
    chip_texts,
    st.text(max_size=20),
    st.integers(min_value=1, max_value=400).map(lambda n: "(" * n + "-9" + ")" * n),
)
sheets = st.tuples(
    st.one_of(st.just(_HEADER), st.text(max_size=40)),
    st.lists(st.lists(_CELLS, max_size=7).map(",".join), max_size=20),
    st.sampled_from(["\n", "\r\n", "\r"]),
    st.sampled_from(VARIANTS),
)


def sheet(parts: tuple[str, list[str], str, str]) -> str:
    """A handwritten scoresheet (CSV) audited: every line checked, or the file refused."""
    header, rows, newline, variant = parts
    try:
        report = audit_text(newline.join([header, *rows]), variant)
    except FileError as exc:
        clear(str(exc))
        return "refused"
    for finding in report.findings:
        if not finding.ok:
            clear(finding.why)
    return "accepted"


# ---------------------------------------------------------------------- WebSocket messages

_KINDS = ["click", "lift", "place", "remove", "drag", "put_aside", "from_tray", "crown",
          "arrange", "button", "new_game", "touch", "takeback", "info", "play",
          "teleport"]  # fmt: skip
_SQUARE_LISTS = st.sampled_from([list(q) for q in _PLAYABLE])
plausible_messages = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["click", "click", "lift", "place", "remove", "crown"]),
            "square": _SQUARE_LISTS,
        }
    ),
    st.fixed_dictionaries({"type": st.just("drag"), "from": _SQUARE_LISTS, "to": _SQUARE_LISTS}),
    st.fixed_dictionaries({"type": st.sampled_from(["arrange", "put_aside", "crown"])}),
    st.fixed_dictionaries(
        {
            "type": st.just("button"),
            "name": st.sampled_from(["next", "confirm", "pause"]),
            "hold": st.booleans(),
        }
    ),
    st.fixed_dictionaries({"type": st.just("new_game"), "variant": st.sampled_from(VARIANTS)}),
    st.fixed_dictionaries({"type": st.just("new_game"), "position": near_openings()}),
).map(json.dumps)
messages = st.one_of(
    plausible_messages,
    plausible_messages,
    plausible_messages,
    st.fixed_dictionaries(
        {"type": st.sampled_from(_KINDS)},
        optional={
            "square": squares,
            "from": squares,
            "to": squares,
            "chip": st.one_of(st.integers(min_value=-5, max_value=40), json_values),
            "name": st.one_of(
                st.sampled_from(["pause", "next", "confirm", "takeback", "new_game", "jump"]),
                json_values,
            ),
            "hold": json_values,
            "variant": st.one_of(st.sampled_from(VARIANTS), json_values),
            "profile": st.one_of(st.sampled_from(["official", "online"]), json_values),
            "position": positions,
            "confirm": json_values,
            "info": st.one_of(
                st.dictionaries(st.sampled_from(["blue", "red", "event", "nick"]), json_values),
                json_values,
            ),
            "play": st.one_of(
                st.dictionaries(
                    st.sampled_from(["practice", "clocks", "takeback", "capture_preview"]),
                    st.one_of(st.booleans(), st.sampled_from(["on", "off", "players"])),
                ),
                json_values,
            ),
            "rules": json_values,
        },
    ).map(json.dumps),
    json_values.map(json.dumps),
    st.text(max_size=100),
    st.integers(min_value=1, max_value=5000).map(lambda n: "[" * n),
    st.integers(min_value=4000, max_value=6000).map(lambda n: "x" * n),
)


class Channel:
    """One simulated board and the server's message handler, as a page's channel meets them."""

    def __init__(self) -> None:
        from controller.sim.engine import SimBoard

        self.now = [1000.0]
        self.board = SimBoard("fuzz", lambda: self.now[0])

    def __call__(self, parts: tuple[str, str]) -> str:
        from controller.sim.channel import handle

        text, role = parts
        reply = handle(self.board, text, role)
        assert reply["type"] in ("done", "error"), reply
        self.now[0] += 0.3
        self.board.tick()
        json.dumps(self.board.snapshot())  # the board still shows itself, as JSON
        if reply["type"] == "error":
            clear(reply["message"])
            return "refused"
        return "accepted"


channel_inputs = st.tuples(messages, st.sampled_from(["player", "arbiter"]))


# ---------------------------------------------------------------------- journal records

_RECORD_KINDS = ["start", "ready", "move", "takeback", "pause", "resume", "warning", "timeout",
                 "end", "tick", "info", "play", "odd"]  # fmt: skip
records = st.fixed_dictionaries(
    {"k": st.one_of(st.sampled_from(_RECORD_KINDS), json_values), "t": json_values},
    optional={
        "ply": st.one_of(st.integers(min_value=-2, max_value=60), json_values),
        "path": st.one_of(st.lists(squares, max_size=4), json_values),
        "side": json_values,
        "reason": st.one_of(st.sampled_from(["resign", "time", "stop", "boom"]), json_values),
        "game_ms": st.one_of(st.integers(min_value=-5, max_value=10**12), json_values),
        "move_ms": st.one_of(st.integers(min_value=-5, max_value=10**12), json_values),
        "variant": st.one_of(st.sampled_from(VARIANTS), json_values),
        "rules": st.one_of(st.sampled_from(["official", "online"]), json_values),
        "position": positions,
        "rule_settings": json_values,
        "tracker_settings": json_values,
        "seq": json_values,
        "info": st.one_of(
            st.dictionaries(st.sampled_from(["blue", "red", "event", "nick"]), json_values),
            json_values,
        ),
        "play": st.one_of(
            st.dictionaries(
                st.sampled_from(["practice", "clocks", "takeback", "capture_preview", "x"]),
                st.one_of(st.booleans(), st.sampled_from(["on", "off", "players"]), json_values),
            ),
            json_values,
        ),
    },
)
_REAL: list[dict[str, Any]] = []


def real_records() -> list[dict[str, Any]]:
    """The journal of a real game of 40 plies (made once): the start of most fuzzed journals."""
    if not _REAL:
        from tests.session.helpers import feed, game_trace

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "journal.jsonl"
            s = Session.open(SessionConfig(checkpoint_seconds=5), str(path), 0.0, sync=False)
            feed(s, game_trace(21, plies=40).records)
            s.journal.close()
            from controller.record.journal_file import read

            _REAL.extend(read(path).records)
    return _REAL


journals = st.tuples(
    st.tuples(st.integers(min_value=1, max_value=200), st.lists(records, max_size=6)),
    st.lists(
        st.tuples(st.integers(min_value=0, max_value=40_000), st.integers(0, 255)), max_size=3
    ),
    st.booleans(),
)


def journal(parts: tuple[tuple[int, list[dict[str, Any]]], list[tuple[int, int]], bool]) -> str:
    """The journal of a real game (a prefix of it), forged records after it (right
    checksums), some bytes flipped, maybe cut short: the session always opens, shows itself,
    exports its sheet and takes the board as it stands."""
    (keep, recs), flips, torn = parts
    real = real_records()
    data = bytearray(b"".join(encode(r) for r in [*real[:keep], *recs]))
    for offset, value in flips:
        if data:
            data[offset % len(data)] = value
    if torn and data:
        data = data[: len(data) * 2 // 3]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "journal.jsonl"
        path.write_bytes(bytes(data))
        began = time.perf_counter()
        s = Session.open(SessionConfig(checkpoint_seconds=0), str(path), 0.0, sync=False)
        assert time.perf_counter() - began < 10
        json.dumps(snapshot(s.view_input(1.0, page=True), 1.0))
        s.export_csv()
        s.feed_frame(1.0, s.tracker.game.occupied())
        s.advance(2.0)
        for problem in s.problems:
            clear(problem)
        s.journal.close()
    return "refused" if s.problems else "accepted"
