"""Every question of the sheet without a key entry after key reading has exactly one report line saying
why (issue 27: nothing lost silently): the reader's own line (a row without answers, an unread cell)
or, where the reader said nothing (a table or number row never found), one `key.entries_unaccounted`
line naming the questions."""
from __future__ import annotations

import hashlib
from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.diagnostics import Code, Diagnostic
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse.gridkeys import read_grid
from pipeline.parse.keys import KeyTable, unaccounted, unaccounted_line
from pipeline.specs import KeySpec
from tests.pipeline.parse.test_validation import _key, _list_spec, _sheet
from tests.pipeline.parse.conftest import run_family
from tests.pipeline.parse.test_gridkeys import extract, grid, keyed, read


def _unaccounted_lines(problems: list) -> list[Diagnostic]:
    return [p for p in problems if isinstance(p, Diagnostic) and p.code is Code.KEY_ENTRIES_UNACCOUNTED]


def test_a_grid_key_whose_first_column_is_lost_names_that_question(tmp_path: Path):
    # As a soft scan loses it (the 40-wide grid at 150 dpi, blur 0.8: question 1's number cell gone with its
    # answer), printed here so that no reading can bring it back: the grid reader says nothing of question 1,
    # the check at the end of key reading names it, once.
    document = extract(tmp_path, [grid(2, list("BCDABCDAB"), 50)])  # questions 2-10; 1 not on the page
    table = read(document)[""]
    assert table.answers == keyed(2, "BCDABCDAB") and table.problems == []
    expected = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
    assert unaccounted(expected, table) == ["1"]
    line = unaccounted_line(expected, table, "key.pdf")
    assert line is not None and line.code is Code.KEY_ENTRIES_UNACCOUNTED
    assert "question(s) 1 (1 of the sheet's)" in str(line) and "key.pdf" in str(line)


def test_a_sheet_question_the_key_does_not_hold_is_one_report_line(tmp_path: Path):
    sheet = _sheet(tmp_path / "s.pdf", [(str(n), [f"a{n}", f"b{n}", f"c{n}", f"d{n}"]) for n in (1, 2, 3, 4)])
    key = _key(tmp_path / "k.pdf", ["1. B", "4. C"])
    result = run_family(_list_spec(), sheet, [key], {"year": "2030"})
    [line] = _unaccounted_lines(result.problems)
    assert "question(s) 2–3 (2 of the sheet's)" in str(line) and "k.pdf (page 1)" in str(line)
    found = {q.number: q for q in result.questions}
    assert found["2"].flags == ["no key entry for this question"]


def test_a_key_that_holds_every_question_adds_no_line(tmp_path: Path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", ["a", "b", "c", "d"]), ("2", ["e", "f", "g", "h"])])
    key = _key(tmp_path / "k.pdf", ["1. B", "2. C"])
    assert _unaccounted_lines(run_family(_list_spec(), sheet, [key], {"year": "2030"}).problems) == []


def test_a_question_the_reader_already_reported_gets_no_second_line():
    table = KeyTable("key.pdf", answers={"1": "A", "4": "B"}, unread=["2"], named={"3"}, voided={"5"})
    assert unaccounted_line(["1", "2", "3", "4", "5"], table, "key.pdf") is None
    line = unaccounted_line(["1", "2", "3", "4", "5", "6", "7", "8", "10"], table, "key.pdf")
    assert line is not None and "question(s) 6–8, 10 (4 of the sheet's)" in str(line)
    assert unaccounted_line(["6"], table, "key.pdf") is None  # named now: one line, never two


def test_a_scanned_grid_row_without_answers_keeps_its_own_line_only(tmp_path: Path):
    # Numbers 1–5 over no answer row: the grid reader's line names them; the end check adds nothing.
    # (a text-layer page: the grid reader's rows as printed)
    pdf = build_pdf(tmp_path / "g.pdf", [PageSpec((TextBox("1   2   3   4   5", 20, 20, 170, size=12),))])
    document = extract_document(pdf, hashlib.sha256(pdf.read_bytes()).hexdigest(), ExtractOptions())
    table = read_grid(document, KeySpec(kind="grid"), "g.pdf")[""]
    assert table.problems == ["page 1: questions 1–5: no row of answers under the numbers"]
    assert unaccounted_line(["1", "2", "3", "4", "5"], table, "g.pdf") is None
