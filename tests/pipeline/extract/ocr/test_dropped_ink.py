"""Ink Tesseract dropped (`droppedink`): lines of text no word covers are found from the ink and read in
place, by RapidOCR where it has a model for the language and by Tesseract as one text line where it has
none; a chart, hatching and a grid of dots add nothing. Real scans of generated option grids, real
Tesseract and RapidOCR; Tesseract's own words with whole option lines taken out stand for a page
reading that dropped them."""
from __future__ import annotations

import re

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.optiongrids import chart_page, option_grid_sheet
from pipeline.devkit.sample.pdfgen import build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings
from pipeline.extract.ocr.droppedink import read_dropped_ink, text_pieces, uncovered_ink
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.pagepasses import read_page
from pipeline.extract.ocr.recognisers import RECOGNISERS
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

needs_rapidocr = pytest.mark.skipif(RECOGNISERS["rapidocr"].unavailable() is not None, reason="rapidocr is not installed (the ocr extra)")


def _page(pages, folder, dpi=200):
    scan = rasterize_pdf(build_pdf(folder / "sheet.pdf", pages), folder / "scan.pdf", dpi=dpi, blur=0.6, jpeg_quality=80,
                         noise=0.01, seed=0)
    image, _, _ = render_page(pdfium.PdfDocument(str(scan)), 0, 300)
    return image


def _words(image, languages, labels) -> list[Word]:
    """Tesseract's words of the page after every pass but this one."""
    reading = read_page(image, OcrSettings(languages=languages, dpi=300, option_labels=labels, disabled_passes=("dropped-ink",)),
                        page_number=1)
    return [Word(w.text, w.conf if w.conf is not None else -1.0, w.left, w.top, w.right, w.bottom, (w.line or 0, 0, 0)) for w in reading.words]


def _typical_height(words: list[Word]) -> float:
    return float(np.median([w.bottom - w.top for w in words if sum(ch.isalpha() for ch in w.text) >= 3]))


def _dropping(words: list[Word], texts: list[str]) -> tuple[list[Word], list[Word]]:
    """(words left, words taken out): every word of each line that holds the first two words of one of `texts`."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for w in words:
        lines.setdefault(w.line, []).append(w)
    gone = {id(w) for members in lines.values() if any(" ".join(t.split()[:2]) in " ".join(m.text for m in members) for t in texts)
            for w in members}
    return [w for w in words if id(w) not in gone], [w for w in words if id(w) in gone]


def _check_recovered(image, sheet, drop: list[str]):
    grey = prepare_for_tesseract(image, 300)
    words = _words(image, sheet.languages, sheet.labels)
    left, gone = _dropping(words, drop)
    assert gone, "the lines to drop were read by Tesseract to begin with"
    dropped = read_dropped_ink(grey, left, _typical_height(words), sheet.languages)
    added = [w for w in dropped.words if w not in left]
    text = " ".join(w.text for w in added)
    found = [t for t in drop if all(part in text for part in t.split())]
    # Each word stands where the ink it was read from stands: inside the dropped lines' rows.
    top, bottom = min(w.top for w in gone), max(w.bottom for w in gone)
    assert all(top - 10 <= (w.top + w.bottom) / 2 <= bottom + 10 for w in added), [(w.text, w.top) for w in added]
    return found, dropped.note or ""


@needs_tesseract("spa")
@needs_rapidocr
def test_option_lines_tesseract_dropped_are_read_back_in_place_by_rapidocr(tmp_path):
    sheet = option_grid_sheet(0, language="spa", layout="boxes", rows=2, questions=3)
    image = _page(sheet.pages, tmp_path)
    drop = sheet.options[4:8]  # question 2's grid: two rows of two boxed options
    found, note = _check_recovered(image, sheet, drop)
    assert len(found) >= 3, (found, note)
    assert "rapidocr" in note


@needs_tesseract("ell")
def test_a_script_rapidocr_has_no_model_for_is_read_by_tesseract_as_one_line(tmp_path):
    # A held-out script: Greek's accented vowels are not in RapidOCR's alphabet.
    sheet = option_grid_sheet(0, language="ell", layout="table", rows=1, questions=3, size=8)
    image = _page(sheet.pages, tmp_path)
    found, note = _check_recovered(image, sheet, sheet.options[4:8])
    assert "tesseract" in note and len(found) >= 2, (found, note)


@needs_tesseract("pol")
def test_a_chart_hatching_and_dots_add_no_word(tmp_path):
    image = _page([chart_page()], tmp_path)
    grey = prepare_for_tesseract(image, 300)
    words = _words(image, ("pol",), ("A", "B", "C", "D"))
    height = _typical_height(words)
    assert text_pieces(uncovered_ink(grey, words, height), height) == []
    assert read_dropped_ink(grey, words, height, ("pol",)).words == words
    # And through the whole page: nothing read in the chart's area but the heading.
    reading = read_page(image, OcrSettings(languages=("pol",), dpi=300, option_labels=("A", "B", "C", "D")), page_number=1)
    assert not any("dropped ink" in note and "read by" in note for note in reading.notes), reading.notes
    below_heading = [w.text for w in reading.words if w.top > 350 and re.search(r"\w\w", w.text)]
    assert below_heading == [], below_heading
