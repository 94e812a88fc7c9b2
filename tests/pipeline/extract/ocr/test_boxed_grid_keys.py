"""Grid keys whose numbers stand in separate dark boxes apart by white gutters (the INEP layout), scanned soft:
the blur leaves each gutter a grey edge on both sides, which must count as the gutter's own and never as ink
between two numbers, or neighbouring numbers join into one cell ("1213"), no number row counts up and the
whole key is lost; a number row's digits are cut apart by the white between them, a speck or a fill's edge row
run on past a gutter notwithstanding."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, Rect, TextBox
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import OcrSettings
from pipeline.extract.ocr.gridcells import NUMBER_GAP, _cells
from pipeline.parse.gridkeys import read_grid
from pipeline.specs import KeySpec
from tests.pipeline.extract.ocr.builders import build, colour_scan, needs_tesseract

ROWS = ("DDBAACCACBDDACCDDBAD", "DACBAAACBCDBAAAABDCD", "CBAABBDCADBDDCCCDAAB")
PITCH, GUTTER = 8.5, 1.0  # mm: a box every 8.5 mm, 1 mm of white between two
DARK, LIGHT = (64, 64, 64), (200, 200, 200)


def _boxed_key(path: Path) -> Path:
    items: list = [TextBox("GABARITO DEFINITIVO", 15, 15, 150, size=13, bold=True)]
    for row, letters in enumerate(ROWS):
        y = 30 + 17 * row
        items += [Rect(12, y, 22, 6.5, fill=DARK, stroke=None), TextBox("Questão", 12, y + 1.2, 22, size=9, bold=True, align="C", color=(255, 255, 255)),
                  Rect(12, y + 7, 22, 6.5, fill=LIGHT, stroke=None), TextBox("Gabarito", 12, y + 8.2, 22, size=9, bold=True, align="C")]
        for i, letter in enumerate(letters):
            x = 35 + PITCH * i
            items += [Rect(x, y, PITCH - GUTTER, 6.5, fill=DARK, stroke=None),
                      TextBox(str(1 + 20 * row + i), x, y + 1.2, PITCH - GUTTER, size=10, bold=True, align="C", color=(255, 255, 255)),
                      Rect(x, y + 7, PITCH - GUTTER, 6.5, fill=LIGHT, stroke=None),
                      TextBox(letter, x, y + 8.2, PITCH - GUTTER, size=10, bold=True, align="C")]
    return build(path, [PageSpec(tuple(items))])


@needs_tesseract("por")
@pytest.mark.parametrize("dpi, blur, quality", [(150, 0.8, 70), (200, 0.8, 80)])
def test_a_soft_scan_of_numbers_in_separate_dark_boxes_keys_every_question(tmp_path, dpi, blur, quality):
    scan = colour_scan(_boxed_key(tmp_path / "key.pdf"), tmp_path / "scan.pdf", dpi=dpi, noise=0.02, blur=blur, seed=1, quality=quality)
    options = ExtractOptions(ocr=OcrSettings(languages=("por",), dpi=300, option_labels=("A", "B", "C", "D")))
    table = read_grid(extract_document(scan, f"{dpi}".zfill(64), options), KeySpec(kind="grid"), "key.pdf")[""]
    expected = {str(1 + 20 * row + i): letter for row, letters in enumerate(ROWS) for i, letter in enumerate(letters)}
    assert {n: a for n, a in table.answers.items() if a != expected.get(n)} == {}  # nothing keyed wrong
    assert not table.problems, table.problems  # no row of numbers left without its answers
    assert len(table.answers) + len(table.unread) == len(expected)  # every question keyed or reported


def _number_band(stubs: bool, speck: bool) -> np.ndarray:
    """An inverted number band (ink True): two two-digit numbers either side of a gutter 5 px wide, the gutter's
    blurred edge a 1–2 px stub in some rows on each side, and a one-pixel fill edge run on along the band's foot."""
    band = np.zeros((40, 120), dtype=bool)
    for left in (20, 28, 76, 84):  # each digit 6 px wide, 3 px apart: "12" and "13"
        band[12:28, left:left + 6] = True
    band[:, 55:60] = True  # the gutter, ink once the dark band is inverted
    if stubs:
        band[5:30:3, 54] = True
        band[8:33:4, 60] = True
        band[10:20, 53] = True
        band[10:20, 52] = True  # reaching two columns out, touching the gutter's ink along the row
    if speck:
        band[39, 35:76] = True  # the fill's edge row, one pixel high, run on past the gutter
    return band


@pytest.mark.parametrize("stubs, speck", [(False, False), (True, False), (False, True), (True, True)])
def test_a_gutters_blurred_edge_and_a_one_pixel_run_are_no_ink_between_two_numbers(stubs, speck):
    cells = _cells(_number_band(stubs, speck), NUMBER_GAP)
    assert [(left, right) for left, right in cells] == [(20, 34), (76, 90)]


def test_a_digit_standing_clear_of_the_gutter_keeps_its_ink():
    band = _number_band(True, False)
    band[12:28, 62:66] = True  # a third digit 2 px right of the gutter's edge stub: not touching the gutter's ink row by row
    cells = _cells(band, NUMBER_GAP)
    assert any(left <= 62 < right for left, right in cells)
