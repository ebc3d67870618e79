"""What the tournament-day browser tests share: the organiser's guide's own commands (read from
docs/guide-organiser.md and run as written, the folder, the address and the ports put in), the
players' list of a school meet, a PDF's page count, and the check that a page fits its screen
(every element's box inside the viewport, no text running out of its cell)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from .conftest import DAMATH, ROOT

GUIDE = ROOT / "docs" / "guide-organiser.md"
PASSWORD = "correct horse battery"

PLAYERS_CSV = """name,school,grade,rating
Maria Santos,Rizal HS,Grade 10,1600
Jose Reyes,Rizal HS,Grade 9,1550
Ana Cruz,Rizal HS,Grade 10,
Paolo Reyez,Mabini NHS,Grade 9,1580
Ben Lim,Mabini NHS,Grade 8,1500
Carla Diaz,Mabini NHS,Grade 10,
Dan Uy,Quezon HS,Grade 9,1450
Eva Go,Quezon HS,Grade 8,
Fe Tan,Quezon HS,Grade 10,1520
Gino Bautista,Luna NHS,Grade 9,
Hana Villanueva,Luna NHS,Grade 8,1490
Iñigo Dela Cruz,Luna NHS,Grade 10,
"""
"""Twelve players of four schools, with grades; one name misspelt (Reyez), corrected at the
desk."""


def guide_commands(section: str) -> list[str]:
    """The shell lines of one section of the organiser's guide that run the hub's commands
    (``$H …``, or a ``for`` loop of them), in order, without their trailing comments."""
    text = GUIDE.read_text(encoding="utf-8")
    start = text.index(f"## {section}")
    end = text.find("\n## ", start + 1)
    part = text[start : end if end > 0 else None]
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", part, re.S):
        for raw in block.splitlines():
            line = re.sub(r"\s+#.*$", "", raw.strip())
            if line.startswith(("$H ", "for ")):
                lines.append(line)
    return lines


def run_guide_line(line: str, folder: Path, mqtt_port: int) -> subprocess.CompletedProcess[str]:
    """One of the guide's lines as the organiser types it, with this test's event folder, the
    hub's address (127.0.0.1) and broker port, and the password given on standard input."""
    line = line.replace("~/events/meet", str(folder)).replace("192.168.50.10", "127.0.0.1")
    line = line.replace("board-add ", f"board-add --port {mqtt_port} ")
    stdin = None
    if " account add " in f" {line} ":
        line += " --password-stdin"
        stdin = PASSWORD + "\n"
    out = subprocess.run(
        ["bash", "-c", f'set -e; H="{DAMATH} hub"; {line}'],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert out.returncode == 0, (line, out.stdout[-2000:], out.stderr[-2000:])
    return out


def pdf_pages(data: bytes) -> int:
    """The pages of a PDF Chromium printed (each page object is ``/Type /Page``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


FITS = (Path(__file__).parent / "fits.js").read_text(encoding="utf-8")
"""In the page: the elements whose box leaves the viewport sideways, and the key cells (table
cells, headings, buttons, names, totals, pills, clocks) whose text is wider than their box."""


def fits(page) -> dict:
    return page.evaluate(FITS)
