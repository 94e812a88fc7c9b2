"""A scanned list key whose numbers lost their mark (`1  A` for a printed `1. A`, the dot smoothed away by a
speckled scan's cleaning) is read as entries where the rows are key lines in their column's run, with one line
per key part counting them (`key.marks_restored`); never a prose line or a lone line that starts with a number.
And every line among the entries that reads as none names each question whose number it shows (`key.line_unread`),
so no question is left to the catch-all `key.entries_unaccounted` line."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from pipeline.devkit.keyscans import key_options, read_key
from pipeline.devkit.sample.keysheets import KeySheet, dash_list
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.diagnostics import Code, Diagnostic
from pipeline.extract import extract_document
from pipeline.extract.document import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse import Recovery
from pipeline.parse.keys import read_list, unaccounted
from pipeline.specs import KeySpec

ENTRY = r"(?<![\w.])(?P<number>\d{1,3})\.\s*(?P<answer>[ABCD])\b"
SPEC = KeySpec(kind="list", entry=ENTRY)


def answer(n: int) -> str:
    return "ABCD"[(n * 7) % 4]


def _lines(problems: list, code: Code) -> list[Diagnostic]:
    return [p for p in problems if isinstance(p, Diagnostic) and p.code is code]


def column(texts: list[str], method: PageMethod = PageMethod.OCR) -> ExtractedDocument:
    """One line per text down a column; a text of cells ("1. A  6. C") a line per cell, 100 pt apart."""
    lines = [Line(cell, 60 + 100 * c, 70 + 20 * r, 120 + 100 * c, 80 + 20 * r)
             for r, text in enumerate(texts) for c, cell in enumerate(text.split("  "))]
    return ExtractedDocument("0" * 64, "key.pdf", 1, [Page(1, 595, 842, method, lines)], "test")


def test_entries_whose_mark_was_lost_are_read_in_their_run_and_counted_on_one_line():
    texts = ["Klucz odpowiedzi"] + [f"{n}. {answer(n)}" if n in (1, 2, 9) else f"{n} {answer(n)}" for n in range(1, 11)]
    table = read_list(column(texts), SPEC, "key.pdf")
    assert table.answers == {str(n): answer(n) for n in range(1, 11)}
    [line] = _lines(table.problems, Code.KEY_MARKS_RESTORED)
    assert "7 entr(y/ies) read without the mark after their number" in str(line) and str(line).endswith("3–8, 10")
    assert table.inferred == set()  # the entries as printed, mark aside: not unsure
    # without the pass the rows are lines the reader could not read
    bare = read_list(column(texts), SPEC, "key.pdf", Recovery.without({"key-marks"}))
    assert set(bare.answers) == {"1", "2", "9"}


def test_prose_lines_that_start_with_a_number_and_lone_lines_are_never_entries():
    prose = ["1 A wrong answer costs no points.", "2 B stands for the second option.", "3 C"]
    texts = [f"{n}. {answer(n)}" for n in range(1, 6)] + ["Uwagi"] + prose
    table = read_list(column(texts), SPEC, "key.pdf")
    assert table.answers == {str(n): answer(n) for n in range(1, 6)} and not table.twice
    assert _lines(table.problems, Code.KEY_MARKS_RESTORED) == []
    # A column whose bare lines do not count on (7, 3, 12, 9) reads none of them, however entry-like each is.
    table = read_list(column(["1. A", "2. B", "7 C", "3 D", "12 A", "9 B", "4. C"]), SPEC, "key.pdf")
    assert set(table.answers) == {"1", "2", "4"}


def test_a_text_layer_key_is_read_as_printed():
    texts = [f"{n} {answer(n)}" for n in range(1, 8)]
    assert read_list(column(texts, PageMethod.TEXT), SPEC, "key.pdf").answers == {}


def test_each_question_an_unread_line_shows_has_a_line_of_its_own():
    texts = [f"{n}. {answer(n)}  {n + 5}. {answer(n + 5)}" for n in range(1, 6)]
    texts[2] = "3 %  8 %"  # neither entry of the row can be read
    table = read_list(column(texts), SPEC, "key.pdf")
    lines = _lines(table.problems, Code.KEY_LINE_UNREAD)
    assert [line.concerns.question for line in lines] == ["3", "8"]
    assert "key line '3 %  8 %' among the entries could not be read as one (OCR): question 3's entry is in it" in str(lines[0])
    assert unaccounted([str(n) for n in range(1, 11)], table) == []


def _scan(tmp_path: Path, sheet: KeySheet, setting: ScanSetting) -> Path:
    clean = build_pdf(tmp_path / f"{sheet.name}.pdf", sheet.pages)
    return setting.rasterise(clean, tmp_path / f"{sheet.name}-scan.pdf", seed=0)


def test_numbered_notes_under_a_scanned_key_are_no_entries(tmp_path: Path):
    # A list key whose numbers 4–12 carry no dot, the rest "n. X", and notes below it whose lines start with a number.
    # (On this clean scan the page's own mark pass gives 4–12 their dot; `key-marks` is for the dots a speckled scan's
    # smoothing takes, below.) No note becomes an entry: no question keyed twice.
    truth = {str(n): answer(n) for n in range(1, 16)}
    items = [TextBox("Klucz odpowiedzi", 20, 18, 170, size=14, bold=True)]
    items += [TextBox(f"{n}{'' if 4 <= n <= 12 else '.'}  {answer(n)}", 25, 35 + (n - 1) * 8.5, 30, size=11) for n in range(1, 16)]
    items += [TextBox(text, 25, 175 + 8 * i, 170, size=11) for i, text in enumerate(
        ("1 Each wrong answer costs no points.", "2 Blank answers score zero.", "3 Do not write in the margins."))]
    sheet = KeySheet("bare", [PageSpec(items)], truth, {"kind": "list", "entry": ENTRY}, ("A", "B", "C", "D"), ("pol",))
    table = read_key(_scan(tmp_path, sheet, ScanSetting(200, 0.5, 85)), sheet, dpi=200)
    assert {n: table.answers.get(n) for n in truth} == truth and not table.twice


@pytest.fixture(scope="module")
def specked_dash_list(tmp_path_factory) -> tuple[KeySheet, ExtractedDocument]:
    """The `list-dash` family's scan with specks (150 dpi, blur 0.75, JPEG 72, specks 0.0025): rows whose dashes
    the specks' smoothing took away read `6 Г  21 Г  36 В`."""
    sheet = dash_list()
    scan = _scan(tmp_path_factory.mktemp("dash"), sheet, ScanSetting.parse("150/0.75/72/0/s0.0025"))
    return sheet, extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), key_options(sheet, 300))


def test_a_specked_dash_list_reads_every_entry(specked_dash_list):
    sheet, document = specked_dash_list
    table = read_list(document, KeySpec(**sheet.key), "key.pdf")
    assert {n: table.answers.get(n) for n in sheet.truth} == sheet.truth


def test_without_the_marks_each_lost_entry_has_its_own_line(specked_dash_list):
    sheet, document = specked_dash_list
    table = read_list(document, KeySpec(**sheet.key), "key.pdf", Recovery.without({"key-marks"}))
    lost = [n for n in sheet.truth if n not in table.answers]
    assert lost  # the rows the specks took the dashes from
    assert all(table.answers[n] == a for n, a in sheet.truth.items() if n in table.answers)
    assert {line.concerns.question for line in _lines(table.problems, Code.KEY_LINE_UNREAD)} >= set(lost)
    assert unaccounted(list(sheet.truth), table) == []
