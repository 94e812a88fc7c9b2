"""A key table's columns are where its rows' cells stand: an answer is read without the note its row carries beside
it, whether the header names the notes column on a line of its own, leaves its cell empty, or only some rows have a
note; a table without a further column reads its answers whole, long ones included (`tablecolumns`)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.keyscans import read_key
from pipeline.devkit.sample.keysheets import KeySheet
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, table_items
from pipeline.devkit.sample.shortkeysheets import short_notes_table, short_table
from pipeline.extract import Line
from pipeline.parse.tablecolumns import next_column_start


@pytest.mark.parametrize("sheet", [short_table("el", 0), short_table("es", 0), short_notes_table("sk", 0)],
                         ids=lambda sheet: sheet.name)
def test_each_answer_is_read_without_its_rows_note_on_the_text_layer(sheet: KeySheet, tmp_path: Path):
    table = read_key(build_pdf(tmp_path / "key.pdf", sheet.pages), sheet)
    assert table.answers == sheet.truth


def test_the_notes_table_keeps_its_notes_on_some_rows_only_and_its_notes_header_empty():
    sheet = short_notes_table("sk", 0)
    texts = [item.text for item in sheet.pages[0].items if isinstance(item, TextBox)]
    notes = [text for text in texts if text.endswith(".") and text not in sheet.truth.values()]
    assert 0 < len(notes) < len(sheet.truth) and "" in texts  # some rows' notes, and the empty header cell


def _two_columns(tmp_path: Path) -> tuple[KeySheet, Path]:
    """A key table of a number column and an answer column only, its answers of up to five words."""
    answers = {"1": "sonet", "2": "priamy predmet", "3": "výkladový slohový postup a opis", "4": "12,5 cm", "5": "zložené súvetie"}
    rows = [("č.", "Test 26 4127"), *answers.items()]
    items, _ = table_items(20, 30, (16, 90), rows, size=10.5)
    key = {"kind": "variant_table", "variant_header": r"Test\s*\d{2}\s*(?P<variant>\d{4})", "variant": "4127"}
    sheet = KeySheet("two-columns", [PageSpec(items)], answers, key, ("A", "B", "C", "D"), ("slk",))
    return sheet, build_pdf(tmp_path / "key.pdf", sheet.pages)


def test_a_table_without_a_further_column_reads_its_answers_whole(tmp_path: Path):
    sheet, pdf = _two_columns(tmp_path)
    assert read_key(pdf, sheet).answers == sheet.truth


def _cell(x0: float, x1: float, top: float = 100.0) -> Line:
    return Line("cell", x0, top, x1, top + 10)


def test_columns_are_the_ranges_the_cells_cover_parted_by_a_gutter_wider_than_a_line():
    answers = [_cell(150, 275), _cell(188, 237), _cell(174, 251)]
    notes = [_cell(329, 510), _cell(333, 506)]
    assert next_column_start(answers + notes, 212) == 329
    assert next_column_start(answers, 212) == float("inf")  # no further column: the answer column as before
    # Two words of one cell read as lines apart: a word space parts no columns.
    assert next_column_start([_cell(150, 190), _cell(194, 240)], 190) == float("inf")
    # The header's centre over a gutter: the nearest range is the answer column.
    assert next_column_start([_cell(150, 200), _cell(300, 400)], 210) == 300
