"""What a native archive scan does that a rasterised page did not, read through the page passes: a scanner's dark
border is made paper before anything reads the page (`border`), and a key's column of answer letters that Tesseract
took for one line standing on end is read again as a block (`stacked-column`). Pages without either are left exactly
as they were."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from pipeline.devkit import latinscans
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit.scriptscans import _vocabulary, key_pdf
from pipeline.extract.ocr.borders import has_border, without_border
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.pagepasses import read_page
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.stackedcolumns import stacked_columns
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

DPI = 300


def _scanned_page(clean: Path, setting: str, tmp_path: Path, seed: int = 1, index: int = 0) -> Image.Image:
    scan = ScanSetting.parse(setting)
    path = scan.rasterise(clean, tmp_path / f"{scan.folder()}.pdf", seed=seed)
    document = pdfium.PdfDocument(str(path))
    try:
        return render_page(document, index, DPI)[0]
    finally:
        document.close()


def _text_page(tmp_path: Path) -> Path:
    lines = [TextBox(f"{n}. Line of printed text that runs from margin to margin, number {n}", 20, 20 + 9 * n, 170, size=11)
             for n in range(1, 25)]
    return build_pdf(tmp_path / "text.pdf", [PageSpec(tuple(lines))] * 2)


def test_a_scanners_dark_border_becomes_paper_and_the_text_beside_it_stays(tmp_path):
    clean = _text_page(tmp_path)
    for setting, index in (("300/0.5/85/0/e0.4", 0), ("300/0.5/85/0/e0.4", 1), ("200/0.6/80/1.0/e0.3/p210", 0)):
        page = _scanned_page(clean, setting, tmp_path, index=index)
        assert has_border(page, DPI), setting
        grey = np.asarray(page.convert("L"))
        cleaned = np.asarray(without_border(page, DPI).convert("L"))
        # The outer edge (right on page 1, left on page 2) was the lid's near-black; no dark pixel is left there.
        edge = slice(-30, None) if index == 0 else slice(0, 30)
        assert grey[200:-200, edge].mean() < 80 and (cleaned[200:-200, edge] < 128).mean() == 0, setting
        # The text's ink, from 20 mm beside the left edge (the border and its shadow reach 13 mm), is what it was.
        text = slice(round(19 / 25.4 * DPI), round(70 / 25.4 * DPI))
        assert np.array_equal(grey[300:2500, text] < 128, cleaned[300:2500, text] < 128), setting


def test_a_page_without_a_border_is_not_touched(tmp_path):
    clean = _text_page(tmp_path)
    for setting in ("200/0.6/80", "300/0.5/85/0/i0.4", "300/0.5/85/0/b140/p200"):
        page = _scanned_page(clean, setting, tmp_path)
        assert not has_border(page, DPI), setting
        assert without_border(page, DPI) is page


def _word(text: str, left: int, top: int, line: int, size: int = 30) -> Word:
    return Word(text, 60.0, left, top, left + size, top + size, (1, 1, line))


def test_a_column_of_short_words_in_one_line_stands_on_end_a_row_does_not():
    column = [_word(t, 540, 290 + 83 * i, line=9) for i, t in enumerate(["PO", "G", "0", "GO", ">", "0"])]
    row = [_word(t, 240 + 80 * i, 290, line=1) for i, t in enumerate(["A", "B", "C", "D"])]
    prose = [_word("Ukončeny", 240, 290 + 83 * i, line=20 + i, size=200) for i in range(6)]
    assert stacked_columns(column + row + prose) == [column]
    assert stacked_columns(row + prose) == []
    # Long words are no cells, whatever the line's shape.
    assert stacked_columns([_word(t, 540, 290 + 83 * i, line=9) for i, t in enumerate(["Answer"] * 4)]) == []


@needs_tesseract("ces")
def test_a_keys_answer_column_read_as_one_squashed_line_is_read_again_row_by_row(tmp_path):
    # `latinscans`' Czech family's list key ("Ukončeny 12: B"), stored bilevel at 300 dpi: Tesseract's layout made
    # its first nine answers one line on end and read it `PO G 0 GO > 0 > >` (the tool's answers 25 %).
    family = next(f for f in latinscans.TUNING if f.name == "cs-twocol")
    vocabulary = _vocabulary(family)
    questions = latinscans.printed_questions(family, vocabulary)
    page = _scanned_page(key_pdf(tmp_path / "key.pdf", family, questions, vocabulary), "300/0.5/85/0/b140", tmp_path, seed=family.seed)
    settings = OcrSettings(languages=("ces",), dpi=DPI)

    def answers_on_their_rows(disabled: tuple[str, ...]) -> int:
        words = read_page(page, replace(settings, disabled_passes=disabled), page_number=1).words
        numbers = [w for w in words if w.text.rstrip(":").isdigit() and w.text.endswith(":")]
        found = 0
        for q in questions:
            number = next((w for w in numbers if w.text == f"{q.number}:"), None)
            if number is None:
                continue
            middle = (number.top + number.bottom) / 2
            found += any(w.text == q.answer and w.left > number.right and w.top < middle < w.bottom for w in words)
        return found

    assert answers_on_their_rows(("stacked-column",)) <= 4
    assert answers_on_their_rows(()) >= 10

