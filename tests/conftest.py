"""Settings shared by the whole suite, and its one Chromium."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, Phase, settings
from playwright.sync_api import Browser, expect

from tests.chromium import session_browser

# Chromium's pages: an assertion waits for what it expects up to 30 s (Playwright's own default,
# 5 s, ends a test on a loaded machine while the page is still on its way; a page that is
# right shows it within a second, so the bound only ends a test that is really wrong).
expect.set_options(timeout=30_000)

# bench/mutation.sh: the same examples on every run and no example database, so that a
# mutant's verdict depends on the mutant, not on what an earlier mutant left in the database.
# Nor any shrinking: a mutant is killed by the first failing example, and shrinking it (seconds
# to minutes with the reference scorer) would only slow the run down.
# Nor the "too slow" health check: mutmut's switch between mutants runs inside every function
# of the mutated module, and a strategy that plays games through it (Mathematical Chess) draws
# its first examples several times slower than pytest alone does.
settings.register_profile(
    "mutation",
    derandomize=True,
    database=None,
    print_blob=False,
    phases=(Phase.explicit, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow],
)

# Under the mutation profile the long property tests run last: a mutant is usually killed by a
# quick case test, and mutmut stops at the first failure.
_LONG_LAST = ("test_generated.py", "test_fuzz.py", "test_oracle.py", "test_property.py",
              "test_pydraughts_crosscheck.py", "test_perft.py")  # fmt: skip


def pytest_collection_modifyitems(config, items):
    if config.getoption("hypothesis_profile", None) == "mutation":
        items.sort(key=lambda item: item.path.name in _LONG_LAST)
        return
    # The long tests first (a stable sort: the rest keep their order): the parallel workers
    # take them while the short ones fill the gaps, instead of one long test at the end
    # keeping the run going on one worker.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, one for the whole run, whichever directory's test asks first."""
    yield from session_browser()


@pytest.fixture(autouse=True)
def _umask_kept() -> Iterator[None]:
    """Each test starts with the umask the run started with: a command run in the test's process
    (the hub's, the federation's: umask 077 for the organiser's files) must not make every later
    test's files and folders private."""
    before = os.umask(0o022)
    os.umask(before)
    yield
    os.umask(before)
