"""The parallel run keeps a group together: pytest-xdist's ``--dist loadgroup`` sends every
test of one ``xdist_group`` to one worker by the group's name on the test's node id. pytest 9.2
stopped that name from sticking (pytest-xdist issue 1386) and the groups were split over the
workers without a word: tests that share one server each started their own."""

from __future__ import annotations

import pytest


@pytest.mark.xdist_group("probe")
def test_a_grouped_test_carries_its_group_in_a_worker(request: pytest.FixtureRequest) -> None:
    marks = [m.args[0] for m in request.node.iter_markers("xdist_group")]
    assert marks == ["probe"]
    if getattr(request.config.option, "loadgroup", False):  # a worker of ./test.sh's run
        assert request.node.nodeid.endswith("@probe"), request.node.nodeid
