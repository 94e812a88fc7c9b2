"""A grid key's answer row on a tilted scan: each answer in its own ruled box (the FGV key's look), the page turned
0.7°, so the boxes' top and bottom rules cross the row's band aslant and stand in it in short pieces. No row of the
band is inked across, so the band counted as one without rules, and its crops took every inked row: a piece of a
rule above a letter, joined to the letters by the cell rules. `filled-grid-ruled` at 255/0.5/75/0.7 with specks read
13 answers "E" (a "C", a "B", a "D" under a rule's piece), none flagged: a wrong answer in the benchmark. Once its
cell rules are out, the band's ink stands in runs apart, and the cells are cropped to the letters' run."""
from __future__ import annotations

import numpy as np

from pipeline.extract.ocr.gridcells import _glyph_rows
from tests.pipeline.extract.ocr.builders import needs_tesseract

PITCH, CELLS = 98, 20  # px at 255 dpi
RULES = (8, 87)  # the rows the boxes' cell rules stand over
LETTERS = (28, 60)  # the capitals' rows


def _band(pieces: list[tuple[int, int, int]]) -> np.ndarray:
    """A binary answer-row band (True = ink) of ruled boxes, a pair of cell rules between two boxes, a block of ink for
    each letter, and `pieces` (row, left, right) of the boxes' top or bottom rule crossing it aslant."""
    band = np.zeros((113, 40 + PITCH * CELLS), dtype=bool)
    for i in range(CELLS):
        left = 20 + PITCH * i
        band[RULES[0]:RULES[1], left:left + 3] = True  # the box's left rule
        band[RULES[0]:RULES[1], left + PITCH - 10:left + PITCH - 7] = True  # its right rule, a gutter before the next
        band[LETTERS[0]:LETTERS[1], left + 35:left + 60] = True
    for row, left, right in pieces:
        band[row, left:right] = True
    return band


def test_a_tilted_rows_crops_leave_out_the_pieces_of_its_box_rules():
    # The top rule's pieces over a third of the row, the bottom rule's over another: no row inked across.
    band = _band([(RULES[0], 20, 700), (RULES[1] - 1, 1300, 2000)])
    upper, lower = _glyph_rows(band)
    assert LETTERS[0] - 2 <= upper <= LETTERS[0] and LETTERS[1] <= lower <= LETTERS[1] + 2, (upper, lower)
    # Without the pieces the band's ink is one run (cell rules and letters): cropped to its inked rows, as before.
    assert _glyph_rows(_band([])) == (RULES[0] - 2, RULES[1] + 2)


@needs_tesseract("por")
def test_a_ruled_grid_key_scanned_tilted_with_specks_reads_no_answer_wrong(tmp_path):
    from pipeline.devkit.keyscans import measure
    from pipeline.devkit.sample.keysheets import filled_grid_ruled
    from pipeline.devkit.sample.scansetting import ScanSetting

    result, _, _ = measure(filled_grid_ruled(0), tmp_path, ScanSetting.parse("255/0.5/75/0.7/s0.0012"), seed=0)
    assert result.wrong == 0 and result.right == result.total == 80, result
