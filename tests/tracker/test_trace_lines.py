"""Every kind of bad line in a sensor trace is refused with its line number and what is wrong
(a trace is evidence in a dispute: it is read strictly or not at all)."""

from __future__ import annotations

import pytest

from controller.tracker.trace import Frame, Press, TraceError, read_trace

HEADER = '{"trace": 1}'


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["[1, 2]"], "line 1: expected a JSON object"),
        (['{"trace": 1, "board": "a"}'], "line 1: unknown header key 'board'"),
        (['{"trace": 1, "variant": 7}'], "line 1: variant must be text"),
        (['{"trace": 1, "profile": ["official"]}'], "line 1: profile must be text"),
        (['{"trace": 1, "position": "opening"}'], "line 1: position must be a JSON position"),
        (['{"trace": 1, "settings": [1]}'], "line 1: settings must be an object"),
        ([HEADER, '{"occupied": []}'], "line 2: \"t\" must be a number of seconds, got 'None'"),
        ([HEADER, '{"t": true, "occupied": []}'], "\"t\" must be a number of seconds, got 'True'"),
        ([HEADER, '{"t": NaN, "occupied": []}'], "line 2: not valid JSON: NaN is not a number"),
        ([HEADER, '{"t": 1e12, "occupied": []}'], '"t" must be a number of seconds'),
        ([HEADER, '{"t": 1, "occupied": [], "button": "next"}'], "either a frame or a button"),
        ([HEADER, '{"t": 1, "occupied": [], "hand": "left"}'], "line 2: unknown key 'hand'"),
        ([HEADER, '{"t": 1, "button": "next", "long": true}'], "line 2: unknown key 'long'"),
        ([HEADER, '{"t": 1}'], 'line 2: expected "occupied" or "button"'),
        ([HEADER, '{"t": 1, "occupied": "all"}'], '"occupied" must be a list of [x, y]'),
        ([HEADER, '{"t": 1, "occupied": [[1, 2, 3]]}'], "line 2: [1, 2, 3] is not a square"),
        ([HEADER, '{"t": 1, "occupied": [[1, true]]}'], "line 2: [1, true] is not a square"),
        ([HEADER, '{"t": 1, "occupied": [[-1, 0]]}'], "line 2: (-1, 0) is off the board"),
    ],
)
def test_a_bad_line_is_refused_with_its_number(lines, message):
    with pytest.raises(TraceError) as err:
        read_trace(lines)
    assert message in str(err.value), str(err.value)


def test_blank_lines_are_skipped_and_equal_times_allowed():
    trace = read_trace(
        [HEADER, "", '{"t": 1, "occupied": [[1, 0]]}', "  ", '{"t": 1, "button": "next"}']
    )
    assert trace.records == [Frame(1.0, frozenset({(1, 0)})), Press(1.0, "next")]
    assert (trace.variant, trace.profile, trace.position, trace.settings) == (
        "integer", "official", None, {}
    )  # fmt: skip
