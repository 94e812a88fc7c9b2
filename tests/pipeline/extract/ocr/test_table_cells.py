"""Ruled answer-key tables on scans read cell by cell from their rules (`tablecells`): every answer lands
on its own question or is reported for it, never on a neighbour's."""
from __future__ import annotations

from pathlib import Path


import numpy as np
import pytest
from PIL import Image

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import booklet_table, circled_grid, grid_key, pairs_table
from pipeline.devkit.sample.pdfgen import build_pdf, cjk_font, rasterize_pdf
from pipeline.extract.ocr.cellreads import enclosed_digits
from pipeline.extract.ocr.tablebands import table_bands
from pipeline.extract.ocr.tablecells import read_table_cells
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract, printed_grey

pytestmark = needs_tesseract("por", "pol")


def _scan(sheet, folder: Path, dpi: int = 200) -> Path:
    source = build_pdf(folder / f"{sheet.name}.pdf", sheet.pages)
    return rasterize_pdf(source, folder / f"{sheet.name}-scan.pdf", dpi=dpi, blur=0.6, jpeg_quality=80, noise=0.01, seed=1)


def _right_wrong(sheet, table) -> tuple[int, list[str]]:
    right = sum(same_answer(table.answers.get(n, ""), a) for n, a in sheet.truth.items())
    wrong = [n for n, a in sheet.truth.items() if n in table.answers and not same_answer(table.answers[n], a)]
    return right, wrong


def test_a_scanned_ruled_grid_key_pairs_every_number_with_its_answer(tmp_path):
    # Three blocks of 20 ruled cells: Tesseract's page reading glued cells ("BC") and shifted answers.
    sheet = grid_key(0)
    table = read_key(_scan(sheet, tmp_path), sheet)
    right, wrong = _right_wrong(sheet, table)
    assert (right, wrong) == (len(sheet.truth), []), table.problems


def test_a_booklet_column_is_read_under_its_header(tmp_path):
    sheet = booklet_table(3, count=12)
    table = read_key(_scan(sheet, tmp_path, dpi=150), sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right == len(sheet.truth), table.problems


def test_number_answer_pairs_side_by_side_are_each_read_beside_their_number(tmp_path):
    # Four "Nr | Odp." pairs a row: only the first number column was read, the other pairs' numbers were
    # taken for answers and 3 of every 4 entries were lost.
    sheet = pairs_table(2, count=24, pairs=4)
    table = read_key(_scan(sheet, tmp_path, dpi=150), sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right == len(sheet.truth), (right, wrong, table.problems)


@needs_tesseract("rus")
def test_a_key_of_few_questions_in_pairs_two_rows_deep_is_read_pair_by_pair(tmp_path):
    # Ten questions in five "№ | Ответ" pairs: each number column holds two numbers, too few to count alone,
    # and the first row (1 в 3 г 5 б …) counted up by place with its answers unread, so it passed for a grid's
    # number row over the second: no answer landed (0 of 10 at 150, 200 and 300 dpi).
    sheet = pairs_table(4, count=10, pairs=5, header=("№", "Ответ"), labels=("а", "б", "в", "г"), languages=("rus",), title="Ответы",
                        name="pairs-ru")
    table = read_key(_scan(sheet, tmp_path), sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right >= 9, (right, wrong, table.problems)


@pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")
def test_circled_digit_answers_under_hangul_row_labels_are_read_from_the_text_layer(tmp_path):
    sheet = circled_grid(0)
    table = read_key(build_pdf(tmp_path / "circled.pdf", sheet.pages), sheet)
    assert _right_wrong(sheet, table) == (len(sheet.truth), [])


@pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")
def test_circled_digits_on_a_scan_are_read_by_the_digit_in_their_ring_or_reported(tmp_path):
    sheet = circled_grid(0)
    table = read_key(_scan(sheet, tmp_path), sheet)
    right, wrong = _right_wrong(sheet, table)
    # Measured over 150–300 dpi and blur 0.4–0.8: 29–39 of 40 right, 0–3 rings misread as another digit
    # (never an answer on another question), the rest reported question by question.
    assert right >= 0.7 * len(sheet.truth) and len(wrong) <= 3, (right, wrong)
    unread = [n for n in sheet.truth if n not in table.answers]
    assert all(n in table.unread or any(n in problem for problem in table.problems) for n in unread)


@pytest.mark.skipif(cjk_font() is None, reason="fonts-noto-cjk is not installed")
def test_circled_answer_cells_are_read_by_their_ring_shape_and_no_page_pass_reads_them_again(tmp_path):
    # At 300 dpi, blur 0.8, JPEG 90 two ⑤ were keyed as ②: the cells read them right, the page's ring
    # pass read them again and wrongly. Each cell's ring is found by its shape and its inside read as
    # option labels are (`labelrings.read_ring_cells`); a reading less sure is checked against the digit
    # read with its ring, and where the two differ the cell is reported, not guessed. The page's ring pass
    # leaves the cells alone. Measured: 37 right, none wrong, 3 reported.
    sheet = circled_grid(0)
    source = build_pdf(tmp_path / "circled.pdf", sheet.pages)
    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=300, blur=0.8, jpeg_quality=90, noise=0.01, seed=0)
    table = read_key(scan, sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right >= len(sheet.truth) - 4, (right, wrong)
    unread = [n for n in sheet.truth if n not in table.answers]
    assert all(n in table.unread for n in unread)


def test_enclosed_digit_labels_are_read_as_their_digits():
    assert enclosed_digits(["①", "②", "③"]) == {"1": "①", "2": "②", "3": "③"}
    assert enclosed_digits(["A", "B"]) is None


def test_words_read_off_a_tables_rules_are_dropped_with_its_cells(tmp_path):
    # What Tesseract read off a 150 dpi scan's rules: "5" on the rule between two rows (it opened a row
    # of its own, keying question 5 twice) and a junk word as tall as four rows (it chained their cells
    # into one line, and 16 answers were lost).
    sheet = booklet_table(1, count=8)
    source = build_pdf(tmp_path / "key.pdf", sheet.pages)
    image = printed_grey(source, tmp_path, 200)
    bands = table_bands(np.asarray(image), 200)
    assert len(bands) == 9
    number_left, number_right = bands[1].cells[0]
    on_rule = Word("5", 88.0, bands[3].cells[1][0] + 20, bands[3].bottom - 6, bands[3].cells[1][0] + 32, bands[4].top + 6, (1, 1, 1))
    tall = Word("616", 40.0, number_left + 5, bands[2].top, number_right - 5, bands[5].bottom, (2, 1, 1))
    title = Word("Odpowiedzi", 95.0, 100, 40, 400, 80, (3, 1, 1))
    words = read_table_cells(image, image, [on_rule, tall, title], sheet.labels, sheet.languages, 200, 1, tmp_path)
    texts = [w.text for w in words]
    assert "5" not in [w.text for w in words if w.top < bands[4].top and w.bottom > bands[3].bottom]
    assert "616" not in texts and "Odpowiedzi" in texts
    assert [t for t in texts if t.isdigit()] == [str(n) for n in range(1, 9)]


def test_a_rule_broken_by_dust_still_bounds_its_row(tmp_path):
    # Dust on the glass whitens a thin rule across its thickness (a speckled 150 dpi grid key's rule over questions
    # 21–40 came apart 0.08 in wide): its two pieces each spanned too little of the rule below to close a row with it,
    # the number row was read as two bands of 14 and 6 cells, and 20 answers were lost.
    from pipeline.extract.ocr.tablebands import RULE_BREAK_INCHES, _rules

    sheet = grid_key(0)
    source = build_pdf(tmp_path / "key.pdf", sheet.pages)
    clean = np.asarray(printed_grey(source, tmp_path, 200))
    bands = table_bands(clean, 200)
    assert [len(b.cells) for b in bands] == [21] * 6
    top, bottom, left, right = sorted(r for r in _rules(clean < 170, 200) if r[3] - r[2] > 1000)[3]  # over the second block
    dusty = clean.copy()
    gap = round(0.6 * RULE_BREAK_INCHES * 200)
    middle = (left + right) // 2
    dusty[top - 2:bottom + 2, middle - gap // 2:middle + gap // 2] = 255
    assert [(b.top, b.bottom, b.cells) for b in table_bands(dusty, 200)] == [(b.top, b.bottom, b.cells) for b in bands]
    image = Image.fromarray(dusty)
    words = read_table_cells(image, image, [], sheet.labels, sheet.languages, 200, 1, tmp_path)
    assert [w.text for w in words if w.text.isdigit()] == [str(n) for n in range(1, 61)]
