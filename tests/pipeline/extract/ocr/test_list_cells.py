"""Unruled list keys on scans (`listcells`): entries found from white space, each number read as digits and
each answer as a label; every answer lands on its own question or is reported for it, never on a
neighbour's. Also the booklet letter of a grid key's heading (`ΤΥΠΟΣ Β`), which a block reading of the
page once swallowed, and a Greek key page that was read upside down."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import dash_list, greek_booklets, list_key, paren_list, worded_list
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr.keycells import merge_table_pass
from pipeline.extract.ocr.listcells import list_entries
from pipeline.extract.ocr.orientation import known_words
from pipeline.extract.ocr.words import Word
from pipeline.parse import read_list
from pipeline.specs import KeySpec
from tests.pipeline.extract.ocr.builders import needs_tesseract


def _scan(sheet, folder: Path, dpi: int, blur: float = 0.8) -> Path:
    source = build_pdf(folder / f"{sheet.name}.pdf", sheet.pages)
    return rasterize_pdf(source, folder / f"{sheet.name}-{dpi}.pdf", dpi=dpi, blur=blur, jpeg_quality=80, noise=0.01, seed=0)


def _right_wrong(sheet, table) -> tuple[int, list[str]]:
    right = sum(same_answer(table.answers.get(n, ""), a) for n, a in sheet.truth.items())
    wrong = [n for n, a in sheet.truth.items() if n in table.answers and not same_answer(table.answers[n], a)]
    return right, wrong


@needs_tesseract("pol")
def test_a_list_key_whose_one_digit_column_tesseract_lost_is_read_entry_by_entry(tmp_path):
    # At 150 dpi with blur 0.8 the page reading gave the first column (1.–15.) as "O", "w P", "2 O":
    # 49–51 of 60 entries right before this pass.
    sheet = list_key(0)
    table = read_key(_scan(sheet, tmp_path, 150), sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right >= 59, (right, wrong, table.problems)


@needs_tesseract("rus")
def test_a_held_out_dash_list_in_cyrillic_is_read_without_a_shift(tmp_path):
    # A checking family: "n – X" entries, Cyrillic answers; a strip of 37 answer cells read at
    # confidence 0 with a letter dropped and another doubled once gave ten answers to the next question.
    sheet = dash_list(0)
    table = read_key(_scan(sheet, tmp_path, 150), sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right == len(sheet.truth), (right, wrong, table.problems)


@needs_tesseract("vie")
def test_an_unread_answer_of_a_list_key_is_reported_for_its_question_not_lost(tmp_path):
    # Flush-right "n)" numbers and small-letter answers in small type: a lone "e" is often left unread.
    sheet = paren_list(0)
    table = read_key(_scan(sheet, tmp_path, 200), sheet)
    right, wrong = _right_wrong(sheet, table)
    missing = [n for n in sheet.truth if n not in table.answers]
    assert right >= 0.7 * len(sheet.truth) and len(wrong) <= 3, (right, wrong)
    assert all(n in table.unread for n in missing), (missing, table.unread, table.problems)


def test_an_unread_list_entry_is_a_report_line_for_its_question():
    from pipeline.extract import ExtractedDocument, Line, Page, PageMethod

    lines = [Line(text, 50.0, 100.0 + 12 * i, 120.0, 110.0 + 12 * i, font_size=10.0)
             for i, text in enumerate(["1) a", f"2) {UNREAD_CELL}", "3) c"])]
    document = ExtractedDocument("x", "key.pdf", 1, [Page(1, 595.0, 842.0, PageMethod.OCR, lines)], "test")
    table = read_list(document, KeySpec(kind="list", entry=r"(?P<number>\d{1,3})\)\s*(?P<answer>[abcd])\b"), "key.pdf")
    assert table.answers == {"1": "a", "3": "c"} and table.unread == ["2"]


def test_prose_and_a_numbered_list_of_sentences_hold_no_key_entries(tmp_path):
    # Numbered lines whose text is words, and a paragraph: no number stands beside a lone glyph.
    items = [TextBox("1. Przeczytaj tekst i odpowiedz na pytania poniżej.", 20, 20, 170, size=11)]
    items += [TextBox(f"{n}. To jest zdanie numer {n} w tym wykazie.", 20, 30 + 9 * n, 170, size=11) for n in range(1, 8)]
    from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
    import pypdfium2 as pdfium

    scan = rasterize_pdf(build_pdf(tmp_path / "prose.pdf", [PageSpec(items)]), tmp_path / "prose-scan.pdf", dpi=200, blur=0.6,
                         jpeg_quality=80, noise=0.01, seed=0)
    image, _, _ = render_page(pdfium.PdfDocument(str(scan)), 0, 300)
    assert list_entries(prepare_for_tesseract(image, 300), [], 300) == []


@needs_tesseract("ell")
def test_the_booklet_letter_of_each_greek_heading_is_kept_and_the_page_is_not_turned(tmp_path):
    # Before: at 200 dpi "ΤΥΠΟΣ Β" lost its letter (both booklets' blocks went to Α: 10 of 40), and at
    # 150 dpi the page was read upside down (0 of 40, "no table for variant 'Α'").
    sheet = greek_booklets(0)
    for dpi in (150, 200):
        table = read_key(_scan(sheet, tmp_path, dpi, blur=0.4), sheet)
        right, wrong = _right_wrong(sheet, table)
        assert not any("keyed twice" in p or "no table" in p for p in table.problems), (dpi, table.problems)
        assert right >= 0.8 * len(sheet.truth) and len(wrong) <= 2, (dpi, right, wrong)


def test_a_block_reading_wider_than_a_lone_cell_does_not_take_its_place():
    heading = Word("ΤΥΠΟΣ", 93.0, 177, 998, 363, 1037, (5, 1, 1))
    letter = Word("Β", 30.0, 389, 999, 419, 1036, (6, 1, 1))
    far = [Word(str(n), 90.0, 1000 + 80 * n, 2000, 1030 + 80 * n, 2040, (9, 1, 1)) for n in range(3)]
    block = [Word("ΤΥΠΟΣ", 93.0, 177, 998, 419, 1037, (1, 1, 1)), Word("Β", 95.0, 390, 999, 418, 1036, (1, 1, 2))]
    merged = merge_table_pass([heading, letter, *far], block[:1])
    assert [w.text for w in merged if w.top == 999] == ["Β"]
    assert [w.text for w in merge_table_pass([heading, letter, *far], block[1:]) if w.top == 999] == ["Β"]


def test_a_turned_reading_with_fewer_known_words_loses_to_the_upright_one():
    class Lexicon:
        def knows(self, token: str) -> bool:
            return token in {"Ερώτηση", "Απάντηση", "ΤΥΠΟΣ"}

    upright = ["Ερώτηση", "Απάντηση", "ΤΥΠΟΣ", "1", "2"]
    turned = ["υουχωό3", "σὅν", "ὑουχαριψ"]
    assert known_words(upright, Lexicon()) > known_words(turned, Lexicon())  # type: ignore[arg-type]
    assert known_words(upright, None) == 0
    assert np.isclose(known_words([], Lexicon()), 0)  # type: ignore[arg-type]


@needs_tesseract("pol")
def test_a_question_whose_numbered_options_are_digits_keeps_them(tmp_path):
    # "1) 5", "2) 7", … down a column look like a key's entries, but their answers are no labels.
    import hashlib

    from pipeline.extract import ExtractOptions, extract_document
    from pipeline.extract.ocr import OcrSettings

    values = ["5", "7", "2", "8", "3"]
    items = [TextBox("Zadanie 4. Ile wynosi suma cyfr liczby podanej w tekście?", 20, 20, 170, size=11)]
    items += [TextBox(f"{n + 1}) {v}", 30, 32 + 9 * n, 30, size=11) for n, v in enumerate(values)]
    scan = rasterize_pdf(build_pdf(tmp_path / "q.pdf", [PageSpec(items)]), tmp_path / "q-scan.pdf", dpi=200, blur=0.6,
                         jpeg_quality=80, noise=0.01, seed=0)
    settings = OcrSettings(languages=("pol",), dpi=300, option_labels=("A", "B", "C", "D"))
    document = extract_document(scan, hashlib.sha256(scan.read_bytes()).hexdigest(), ExtractOptions(ocr=settings, ocr_workers=1))
    text = "\n".join(line.text for line in document.pages[0].lines)
    assert not any(line.text.endswith(f") {UNREAD_CELL}") for line in document.pages[0].lines), text
    assert sum(f"{n + 1}) {v}" in text for n, v in enumerate(values)) >= 4, text


@needs_tesseract("rus")
def test_a_rule_remnant_between_a_grid_numbers_and_answers_does_not_part_them(tmp_path):
    # A held-out script: Cyrillic booklet grids. At 150 dpi, blur 0.8 a "|" read at the label cell's edge
    # stood between the number row and the answer row: "no row of answers under the numbers", 0 of 40.
    from pipeline.devkit.sample.keysheets import cyrillic_booklets

    sheet = cyrillic_booklets(0)
    table = read_key(_scan(sheet, tmp_path, 150), sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right >= 36, (right, wrong, table.problems)


@needs_tesseract("tur")
def test_a_list_key_with_a_word_before_each_number_is_read_entry_by_entry(tmp_path):
    # "Soru 7: E" down two columns, 150 dpi, blur 0.8: the page reading left a lone capital after its colon
    # unread (3 of 10 answers of the scriptscans Turkish key lost); the word before the number kept the
    # entries out of this pass, whose number had to stand alone before its answer.
    sheet = worded_list(0)
    scan = _scan(sheet, tmp_path, 150)
    table = read_key(scan, sheet)
    right, wrong = _right_wrong(sheet, table)
    assert wrong == [] and right == len(sheet.truth), (right, wrong, table.problems)
    import pypdfium2 as pdfium

    from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page

    image, _, _ = render_page(pdfium.PdfDocument(str(scan)), 0, 300)
    columns = list_entries(prepare_for_tesseract(image, 300), [], 300)
    assert sorted(len(c) for c in columns) == [15, 15] and all(e.lead is not None for c in columns for e in c)


@needs_tesseract("ell")
def test_greek_capital_answers_of_a_list_key_are_read_as_printed(tmp_path):
    # The strip of answer cells read as a line (psm 7) gave a clear lone Δ as Α or ὂ (3 of 10 answers of
    # the scriptscans Greek key, at 150 and 300 dpi); read as one word, each glyph in company, it gave Δ.
    sheet = worded_list(3, word="Μέρη", language="ell", labels=("Α", "Β", "Γ", "Δ"), count=20, columns=1)
    for dpi, blur in ((150, 0.8), (300, 0.4)):
        table = read_key(_scan(sheet, tmp_path, dpi, blur), sheet)
        right, wrong = _right_wrong(sheet, table)
        assert wrong == [] and right >= len(sheet.truth) - 1, (dpi, right, wrong, table.problems)
