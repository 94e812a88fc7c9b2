"""A ruled key table whose number column is read as numbers that do not count: bold numbers in an Arial-like face,
numbered in blocks past 50 (33–37 … 57–61, a test's last closed questions), read enlarged with Slovak data as
"92 93 97 98 99" for 52–59 (a bold 5 taken for a 9 all down a block, too many for the count to mend). The column
is read again, unenlarged and with the plain reader's data, until a reading counts (`tablecells._read_again`); so
every row is keyed, and a row whose answer cannot be read is reported for its own question, never shifted."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import KeySheet, late_blocks
from pipeline.devkit.sample.pdfgen import PageSpec, Rect, build_pdf, rasterize_pdf
from pipeline.parse.labels import number_key
from tests.pipeline.extract.ocr.builders import needs_tesseract

BLOTTED = "52"  # the question whose answer cell a blot covers


def _scan(sheet: KeySheet, folder: Path) -> Path:
    source = build_pdf(folder / f"{sheet.name}.pdf", sheet.pages)
    # As the fidelity bench scans the corpus: colour, 200 dpi, noise, a slight blur, JPEG 85.
    return rasterize_pdf(source, folder / f"{sheet.name}-scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=1, jpeg_quality=85, colour=True)


def _blotted(sheet: KeySheet) -> KeySheet:
    """The sheet with the chosen column's answer cell of `BLOTTED` inked over (a spill: no label can be read there)."""
    numbers = list(sheet.truth)
    row = numbers.index(BLOTTED) + 1  # under the header row
    top = 30 + row * 7.0
    page = sheet.pages[0]
    blot = Rect(66, top + 0.8, 17, 5.4, fill=(25, 25, 25), stroke=None)
    return replace(sheet, name=f"{sheet.name}-blotted", pages=[PageSpec([*page.items, blot], size=page.size)])


@needs_tesseract("slk", "eng")
def test_a_number_column_read_miscounted_is_read_again_and_every_row_is_keyed(tmp_path):
    sheet = late_blocks(0)
    table = read_key(_scan(sheet, tmp_path), sheet)
    wrong = {n: table.answers.get(n) for n, a in sheet.truth.items() if not same_answer(table.answers.get(n, ""), a)}
    assert wrong == {}, table.problems
    assert table.problems == [] and table.unread == []


@needs_tesseract("slk", "eng")
def test_an_unreadable_answer_in_such_a_table_is_reported_for_its_own_question(tmp_path):
    sheet = _blotted(late_blocks(0))
    table = read_key(_scan(sheet, tmp_path), sheet)
    assert BLOTTED not in table.answers
    assert number_key(BLOTTED) in {number_key(n) for n in [*table.unread, *table.named]}, table.problems
    # Every other row keeps its own answer: nothing moved up or down into the blotted row's place.
    others = {n: a for n, a in sheet.truth.items() if n != BLOTTED}
    assert {n: table.answers.get(n) for n in others} == others, table.problems
