from pathlib import Path

import serial
from luma.core.device import dummy
from PIL import ImageChops

from drivers.scoresheet import (
    CLEAR_PAGE,
    OledScoresheet,
    SerialScoresheet,
    capacity,
    render_page,
)

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
PAGE = ["1. c3-d4   +0", "2. f6xd4 -12", "   Blue  12.5", "   Red   -3"]


def test_page_rendered_on_luma_dummy_and_saved_as_png():
    device = dummy(width=128, height=64, mode="1")
    sheet = OledScoresheet(device=device)
    sheet.show(PAGE)
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "scoresheet_128x64.png"
    device.image.save(path)
    assert path.stat().st_size > 0
    shown = device.image.convert("1")
    assert ImageChops.difference(shown, render_page(PAGE)).getbbox() is None
    box = shown.getbbox()
    assert box is not None and box[1] < 4  # text starts at the top
    blank = render_page([]).getbbox()
    assert blank is None


def test_lines_that_do_not_fit_are_cut_and_capacity_reports_it():
    columns, rows = capacity((128, 64))
    assert rows >= 4 and columns >= 16
    many = [str(i) for i in range(rows + 3)]
    assert render_page(many).tobytes() == render_page(many[:rows]).tobytes()


def test_ssd1322_size_page():
    sheet = OledScoresheet(device=dummy(width=256, height=64, mode="1"))
    assert sheet.size == (256, 64)
    sheet.show(PAGE)


def test_serial_line_stream_sends_one_page_per_change():
    port = serial.serial_for_url("loop://", timeout=0.1)
    sheet = SerialScoresheet("loop://", port=port)
    sheet.show(["a", "b"])
    sheet.show(["a", "b"])  # unchanged: not sent again
    assert port.read(100) == (CLEAR_PAGE + "a\r\nb\r\n").encode()
    sheet.close()


def test_a_display_drawn_in_the_background_gets_the_newest_page_only():
    import threading

    from drivers.background import Background

    gate = threading.Event()
    from drivers.scoresheet import MockScoresheet

    sheet = MockScoresheet()
    real_show = sheet._show
    sheet._show = lambda lines: (gate.wait(5), real_show(lines))
    background = Background(sheet)
    background.show(["one"])  # taken by the thread at once; it waits on the gate
    for _ in range(100):
        if background._busy:
            break
        threading.Event().wait(0.01)
    background.show(["two"])
    background.show(["three"])  # overtakes "two", which is never sent
    background.show(["three"])  # the same again: nothing to do
    gate.set()
    assert background.flush(5)
    assert sheet.pages == [["one"], ["three"]] and background.dropped == 1
    sheet._show = lambda lines: 1 / 0
    background.show(["four"])
    assert background.flush(5) and isinstance(background.error, ZeroDivisionError)
    background.close()
