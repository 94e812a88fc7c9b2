"""A key row whose answer cell stays unread keeps its line's size (`words.line_sizes`): found on INAP 2024's key
scanned at a setting no one tuned on (170 dpi, blur 0.65, JPEG 78), where `2. B   2. ?` was measured as a line of
prose, a quarter smaller than its capitals, and its left entry, in the page's left tenth, was dropped as a margin
note with no line naming it."""
from __future__ import annotations

from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr.words import CAP_HEIGHT_PER_SIZE, Word, line_sizes

ROW = (960403, 0, 0)  # one key row across two columns, as list-cells writes it


def _row(right_answer: str) -> list[Word]:
    return [Word("2.", 95, 120, 403, 146, 430, ROW), Word("B", 74, 208, 404, 225, 430, ROW),
            Word("2.", 95, 1317, 403, 1343, 430, ROW), Word(right_answer, -1, 1405, 404, 1422, 430, ROW)]


def test_an_unread_cell_does_not_shrink_its_rows_size():
    assert line_sizes(_row(UNREAD_CELL))[ROW] == line_sizes(_row("D"))[ROW] == (430 - 403) / CAP_HEIGHT_PER_SIZE


def test_a_row_of_nothing_but_unread_cells_is_still_measured():
    only = [Word(UNREAD_CELL, -1, 1405, 404, 1422, 430, ROW)]
    assert line_sizes(only)[ROW] > 0
