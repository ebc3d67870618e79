"""Screenshots that illustrate the docs: refreshed on request, never by an ordinary run.

A test run must not change the checkout (CI's and a teacher's clone alike stay clean), so a
test's screenshots go to its own temporary folder or tests/artifacts; with
``DAMATH_DOCS_IMAGES=1`` in the environment they are also copied over ``docs/images/``
(docs/testing.md, "Screenshots for the docs").
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

DOCS_IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"


def keep_for_docs(shot: Path, name: str | None = None) -> None:
    """Copy ``shot`` over ``docs/images/<name>`` when the run was asked to refresh the docs."""
    if os.environ.get("DAMATH_DOCS_IMAGES") != "1":
        return
    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(shot, DOCS_IMAGES / (name or shot.name))
