"""Fuzzing in the suite (hypothesis): positions, sensor traces, scoresheets, WebSocket messages
and journal records, each checked for "a clear message or a right answer, never a traceback,
never a hang" (a deadline per input). Bounded: 60 to 250 inputs each, about 20 s in all;
bench/bench_fuzz.py runs the same targets far longer (counts in docs/benchmarks.md)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from . import targets

# A generous deadline: a slow CI machine is not a hang; x^10000000 took seconds before.
FUZZ = settings(
    max_examples=200,
    deadline=5000,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=True,
)


@pytest.mark.slow
@FUZZ
@given(targets.position_texts)
def test_fuzzed_positions(text: str) -> None:
    targets.position(text)


@pytest.mark.slow
@FUZZ
@given(targets.traces)
def test_fuzzed_traces(parts) -> None:
    targets.trace(parts)


@pytest.mark.slow
@FUZZ
@given(targets.sheets)
def test_fuzzed_scoresheets(parts) -> None:
    targets.sheet(parts)


CHANNEL = targets.Channel()


@pytest.mark.slow
@settings(FUZZ, max_examples=250)
@given(targets.channel_inputs)
def test_fuzzed_websocket_messages(parts) -> None:
    CHANNEL(parts)


@pytest.mark.slow
@settings(FUZZ, max_examples=60)
@given(targets.journals)
def test_fuzzed_journal_records(parts) -> None:
    targets.journal(parts)
