"""Lines no word was read for (`lonelines`): a short word alone on its line that the page's reading lost is found
from its ink and read back in place; ink read as nothing sure is named in a note, and the line nearest it is unsure
when the page is laid out; a page whose every line was read finds nothing. Real scans of generated sheets, real
Tesseract and RapidOCR; Tesseract's own words with a lone word's line taken out stand for a reading that dropped it."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.lonelines import lone_pieces, nearest_line, read_lone_lines
from pipeline.extract.ocr.page import lay_out_page
from pipeline.extract.ocr.pagepasses import read_page
from pipeline.extract.ocr.reading import PageReading, ReadWord
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

STEM = "Qual das seguintes palavras completa a frase sobre o tempo verbal usado pelos autores"
LONE = ("são", "27")


def _page(folder, dpi=200):
    boxes = (TextBox(f"1. {STEM}\n{LONE[0]}", 20, 20, 170, size=10), TextBox("A) primeira opção possível", 26, 34, 160, size=10),
             TextBox(f"B) segunda opção com número\n{LONE[1]}", 26, 39, 160, size=10), TextBox("C) terceira opção", 26, 49, 160, size=10))
    scan = rasterize_pdf(build_pdf(folder / "sheet.pdf", [PageSpec(boxes)]), folder / "scan.pdf", dpi=dpi, blur=0.7,
                         jpeg_quality=75, noise=0.01, seed=0)
    image, _, _ = render_page(pdfium.PdfDocument(str(scan)), 0, 300)
    return image


def _words(image) -> list[Word]:
    reading = read_page(image, OcrSettings(languages=["por"], dpi=300, option_labels=["A", "B", "C"], disabled_passes=("lone-lines",)),
                        page_number=1)
    return [Word(w.text, w.conf if w.conf is not None else -1.0, w.left, w.top, w.right, w.bottom, (w.line or 0, 0, 0)) for w in reading.words]


def _height(words: list[Word]) -> float:
    return float(np.median([w.bottom - w.top for w in words if sum(ch.isalpha() for ch in w.text) >= 3]))


def _without(words: list[Word], text: str) -> tuple[list[Word], Word]:
    gone = [w for w in words if w.text.strip(".,") == text]
    assert len(gone) == 1, f"{text!r} was read once on its own line to begin with: {[w.text for w in words]}"
    return [w for w in words if w is not gone[0]], gone[0]


@needs_tesseract("por")
def test_a_page_whose_every_line_was_read_has_no_lone_piece(tmp_path):
    image = _page(tmp_path)
    words = _words(image)
    assert lone_pieces(prepare_for_tesseract(image, 300), words, _height(words), []) == []


@needs_tesseract("por")
@pytest.mark.parametrize("lost", LONE)
def test_a_lone_word_the_reading_dropped_is_found_and_read_back_in_its_place(tmp_path, lost):
    image = _page(tmp_path)
    words = _words(image)
    left, gone = _without(words, lost)
    grey = prepare_for_tesseract(image, 300)
    pieces = lone_pieces(grey, left, _height(words), [])
    assert len(pieces) == 1, pieces
    a, b, c, d = pieces[0]
    assert a <= (gone.left + gone.right) / 2 <= c and b <= (gone.top + gone.bottom) / 2 <= d
    found = read_lone_lines(grey, left, _height(words), ["por"], [])
    added = [w for w in found.words if w not in left]
    assert [w.text.strip(".,") for w in added] == [lost], found.note
    assert found.unread == () and "lone lines: 1 line(s)" in (found.note or "")


@needs_tesseract("por")
def test_a_piece_read_as_nothing_is_noted_with_its_band(tmp_path):
    image = _page(tmp_path)
    words = _words(image)
    left, gone = _without(words, LONE[0])
    grey = np.asarray(prepare_for_tesseract(image, 300)).copy()
    # The lone word's ink scrambled into glyph-sized blots no recogniser reads as a word.
    rows = slice(gone.top, gone.bottom)
    grey[rows, gone.left:gone.right] = 255
    blot = (gone.bottom - gone.top) * 2 // 3
    for x in range(gone.left, gone.right - blot + 1, blot + blot // 2):
        grey[gone.bottom - blot:gone.bottom, x:x + blot] = 0
        grey[gone.bottom - blot + 2:gone.bottom - 2, x + 2:x + blot - 2] = 255
    found = read_lone_lines(Image.fromarray(grey), left, _height(words), ["por"], [])
    assert found.words == left and len(found.unread) == 1, found.note
    assert "read as nothing sure" in (found.note or "") and f"({found.unread[0][0]},{found.unread[0][1]})" in (found.note or "")


def test_an_unread_piece_belongs_with_the_line_above_it_in_its_column():
    lines = [(0, 0, 100, 10), (0, 14, 100, 24), (200, 30, 300, 40), (0, 40, 100, 50)]
    assert nearest_line((0, 27, 12, 37), lines, 10) == 1  # under the second line, not the next one below it
    assert nearest_line((210, 46, 230, 56), lines, 10) == 2  # the right column's line, not the left's at its height
    assert nearest_line((0, -30, 12, -20), lines, 10) == 0  # nothing above: the line below
    assert nearest_line((500, 100, 520, 110), lines, 10) is None


def test_laid_out_the_line_above_an_unread_piece_is_unsure_and_names_the_ink():
    def word(text, left, top, line):
        return ReadWord(text, left, top, left + 12 * len(text), top + 30, size=30.0, line=(line, 0, 0), conf=96.0)

    words = (word("Primeira", 100, 100, 1), word("linha", 220, 100, 1), word("segunda", 100, 150, 2), word("frase", 220, 150, 2),
             word("terceira", 100, 300, 3), word("parte", 220, 300, 3))
    settings = OcrSettings(languages=["por"], dpi=300)
    read = PageReading(1000, 1000, words, 96.0)
    plain = lay_out_page(read, settings, page_number=1, width_pt=240, height_pt=240)
    marked = lay_out_page(replace(read, unread_lines=((100, 200, 150, 230),)), settings, page_number=1, width_pt=240, height_pt=240)
    assert [line.unaccounted_ink for line in plain.lines] == [[], [], []]
    assert [line.unaccounted_ink for line in marked.lines] == [[], ["frase"], []]
    assert "frase" in marked.lines[1].unsure_words
