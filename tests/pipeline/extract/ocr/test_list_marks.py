"""A list key's numbers keep their mark when a scan loses it in the reading (`listcells._dotted_share`), and a key
row whose answer cell stays unread keeps its line's size (`words.line_sizes`): found on INAP's key scanned at settings
no one tuned on (150 dpi, blur 0.75, JPEG 72, specks: the dot read with 11 numbers of 114, every entry then refused;
170 dpi, blur 0.65, JPEG 78: the row beside an unread cell dropped as a margin note)."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.devkit.sample.keysheets import dash_list, tab_list
from pipeline.devkit.sample.pdfgen import build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr.listcells import DOT_MIN_SHARE, _dotted_share, _mark, list_entries
from pipeline.extract.ocr.words import CAP_HEIGHT_PER_SIZE, Word, line_sizes
from tests.pipeline.extract.ocr.test_list_tabs import _prepared

SPECKED = ScanSetting.parse("150/0.75/72/0/s0.0025")


def _entries_and_share(sheet, folder: Path) -> tuple[list, float]:
    source = build_pdf(folder / f"{sheet.name}.pdf", sheet.pages)
    grey = _prepared(SPECKED.rasterise(source, folder / f"{sheet.name}-scan.pdf", seed=0)).convert("L")
    entries = [e for column in list_entries(grey, [], 300) for e in column]
    return entries, _dotted_share(np.asarray(grey), entries)


def test_numbers_whose_ink_ends_in_a_dot_are_written_with_it_though_the_reading_lost_it(tmp_path):
    entries, share = _entries_and_share(tab_list(0), tmp_path)  # "1.      a", INAP's layout
    assert len(entries) >= 40
    assert share >= DOT_MIN_SHARE
    read_without = [""] * 50 + ["."] * 5  # the digit reading kept the dot on a tenth of the numbers
    assert _mark(read_without, [], entries, share) == "."
    assert _mark(read_without, [], entries) == ""  # the readings alone: no mark, and the key's entry pattern refuses all


def test_a_dash_between_number_and_answer_is_no_dot(tmp_path):
    entries, share = _entries_and_share(dash_list(0), tmp_path)  # "1 – C": no mark at all
    assert len(entries) >= 20
    assert share < DOT_MIN_SHARE
    assert _mark([""] * len(entries), [], entries, share) == ""


def test_a_mark_read_otherwise_is_not_overruled_by_the_ink():
    assert _mark([""] * 10 + [")"] * 5, [], [], 0.9) == ")"
    assert _mark([""] * 20 + [":"] * 2, [], [], 0.9) == ""  # a colon read, too rarely to be the mark: no dot put in its place


def test_an_unread_cell_does_not_shrink_its_rows_size():
    line = (960403, 0, 0)  # one key row across two columns, as list-cells writes it
    row = [Word("2.", 95, 120, 403, 146, 430, line), Word("B", 74, 208, 404, 225, 430, line),
           Word("2.", 95, 1317, 403, 1343, 430, line), Word(UNREAD_CELL, -1, 1405, 404, 1422, 430, line)]
    assert line_sizes(row)[line] == line_sizes(row[:3])[line] == (430 - 403) / CAP_HEIGHT_PER_SIZE
