"""Ink no word accounts for (`looseink`): a stop, a raised mark or a short word on a scan that the page's reading
left out makes the word beside it unsure, named so; specks, JPEG grain and a glyph a word's box covers only in part
do not. Real sheets written with fpdf2 and rasterised, read by real Tesseract through every page pass; a reading
with a word's last glyph taken out of its text and box stands for Tesseract dropping it."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract import ExtractedDocument, Page, PageMethod
from pipeline.extract.ocr import OcrSettings, PageReading, lay_out_page
from pipeline.extract.ocr.certainty import CertaintyPolicy
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.looseink import MIN_MARK, loose_pieces, text_height, unaccounted
from pipeline.extract.ocr.pagepasses import read_page
from pipeline.extract.ocr.reading import ReadWord
from pipeline.extract.ocr.words import INK_BELOW, Word, ink_runs
from tests.pipeline.extract.ocr.builders import needs_tesseract

LINES = (
    "Pomenujte syntaktickú konštrukciu, ktorá je v nasledujúcej vete odčlenená od pozdravu.",
    "Ruky bozkávam, milostivá pani.",
    "Examen: AU 30 cm; plocha 12 m² a objem 40 litrov podľa merania.",
    "Vyberte správnu odpoveď z ponúknutých možností a zapíšte ju do odpoveďového hárka.",
)


def _scan(folder, *, dpi: int, blur: float, jpeg: int, noise: float = 0.0, speckle: float = 0.0):
    items = [TextBox(text, 20, 20 + 12 * i, 170, size=11) for i, text in enumerate(LINES)]
    scan = rasterize_pdf(build_pdf(folder / "sheet.pdf", [PageSpec(items)]), folder / "scan.pdf", dpi=dpi, blur=blur,
                         jpeg_quality=jpeg, noise=noise, speckle=speckle, seed=3)
    image, width, height = render_page(pdfium.PdfDocument(str(scan)), 0, dpi)
    return image, width, height


def _lines(reading: PageReading, settings: OcrSettings, width: float, height: float):
    return lay_out_page(reading, settings, page_number=1, width_pt=width, height_pt=height).lines


def _without_last_glyph(word: ReadWord, ink: np.ndarray) -> ReadWord:
    """`word` as if Tesseract had not read its last glyph: its text one character shorter, its box ending where the
    glyph before it ends (the last run of inked columns inside the box left out)."""
    columns = ink[word.top:word.bottom, word.left:word.right].any(axis=0)
    runs = ink_runs(np.asarray(columns), 0)
    assert len(runs) >= 2, (word.text, runs)
    return replace(word, text=word.text[:-1], right=word.left + runs[-2][1])


def _dropping_last_glyph(reading: PageReading, grey: np.ndarray, after: str) -> tuple[PageReading, str]:
    """The reading with the last glyph of the word after the word `after` dropped, its loose ink found again as the
    `loose-ink` pass finds it; and the word as it now reads."""
    at = 1 + next(i for i, w in enumerate(reading.words) if w.text == after)
    cut = _without_last_glyph(reading.words[at], grey < INK_BELOW)
    words = reading.words[:at] + (cut,) + reading.words[at + 1:]
    plain = [Word(w.text, w.conf or 0.0, w.left, w.top, w.right, w.bottom, w.line or (0, 0, 0)) for w in words]
    figures = [(int(a), int(b), int(c), int(d)) for a, b, c, d in (f.bbox for f in reading.figures)]
    return replace(reading, words=words, loose_ink=loose_pieces(grey, plain, text_height(plain), figures)), cut.text


@needs_tesseract("slk")
@pytest.mark.parametrize("after", ["milostivá", "12"])  # `pani.` and `m²`
def test_a_stop_or_a_raised_mark_the_reading_left_out_makes_its_word_unsure(tmp_path, after):
    image, width, height = _scan(tmp_path, dpi=200, blur=0.6, jpeg=80)
    settings = OcrSettings(languages=("slk",), dpi=200)
    reading = read_page(image, settings, page_number=1)
    # As read, every glyph of the sheet is some word's: nothing is unaccounted for.
    assert not [line.unaccounted_ink for line in _lines(reading, settings, width, height) if line.unaccounted_ink]
    grey = np.asarray(prepare_for_tesseract(image, 200))
    dropped, word = _dropping_last_glyph(reading, grey, after)
    lines = _lines(dropped, settings, width, height)
    assert [line.unaccounted_ink for line in lines if line.unaccounted_ink] == [[word]]
    assert word in next(line for line in lines if line.unaccounted_ink).unsure_words
    # The sign is the policy's to switch off; and a reading cached before the pass kept no ink judges nothing by it.
    quiet = replace(settings, certainty=CertaintyPolicy(loose_ink=False))
    assert not any(line.unaccounted_ink for line in _lines(dropped, quiet, width, height))
    assert not any(line.unaccounted_ink for line in _lines(replace(dropped, loose_ink=()), settings, width, height))
    # Kept through the cache's JSON and the extracted document's.
    assert PageReading.from_json(dropped.to_json()).loose_ink == dropped.loose_ink
    document = ExtractedDocument("0", "s.pdf", 1, [Page(1, width, height, PageMethod.OCR, lines=lines)], "test")
    assert [line.unaccounted_ink for line in ExtractedDocument.from_json(document.to_json()).pages[0].lines
            if line.unaccounted_ink] == [[word]]


@needs_tesseract("slk")
def test_a_clean_sheet_with_specks_and_grain_at_150_dpi_and_jpeg_70_has_no_ink_unaccounted_for(tmp_path):
    image, width, height = _scan(tmp_path, dpi=150, blur=0.8, jpeg=70, noise=0.03, speckle=0.001)
    settings = OcrSettings(languages=("slk",), dpi=150)
    reading = read_page(image, settings, page_number=1)
    assert reading.words
    assert [(line.text, line.unaccounted_ink) for line in _lines(reading, settings, width, height) if line.unaccounted_ink] == []


def test_ink_counts_in_the_band_of_its_line_beside_a_word_and_not_far_along_the_row_above_it_or_past_the_line():
    # A line of three words 20 units tall (in any unit: points or pixels), the last ending at 300.
    boxes = [(100.0, 100.0, 160.0, 120.0), (170.0, 100.0, 230.0, 120.0), (240.0, 100.0, 300.0, 120.0)]
    text = [True, True, True]
    stop = (302.0, 116.0, 306.0, 120.0)  # a stop on the baseline just past the last word
    raised = (232.0, 100.0, 236.0, 106.0)  # a raised mark after the middle word
    assert unaccounted(boxes, text, [stop]) == {2: 1}
    assert unaccounted(boxes, text, [raised]) == {1: 1}
    assert unaccounted(boxes, text, [stop, raised]) == {1: 1, 2: 1}
    lost_word = (306.0, 104.0, 318.0, 120.0)  # the first glyph of a word left out, a word space after the last
    assert unaccounted(boxes, text, [lost_word]) == {2: 1}
    assert unaccounted(boxes, text, [(340.0, 104.0, 350.0, 120.0)]) == {}  # two word spaces past the line's end
    assert unaccounted(boxes, text, [(302.0, 60.0, 306.0, 80.0)]) == {}  # the line above's
    assert unaccounted(boxes, text, [(60.0, 104.0, 70.0, 120.0)]) == {}  # before the line's first word (a ring, a bullet)
    grain = MIN_MARK * 20 * 0.5
    assert unaccounted(boxes, text, [(302.0, 110.0, 302.0 + grain, 110.0 + grain)]) == {}  # JPEG grain
    assert unaccounted([(100.0, 100.0, 160.0, 120.0), (400.0, 100.0, 460.0, 120.0)], text[:2],
                       [(275.0, 108.0, 280.0, 113.0)]) == {}  # a speck amid a wide gap, far from both words
    assert unaccounted(boxes, text, [(290.0, 94.0, 296.0, 98.0)]) == {}  # over a word's letters: an accent its box left out
    # Where a glyph is several pieces of ink (a Hangul syllable's jamo), a stroke glued to a word's box is the word's own
    # glyph its box stops short of; the same stroke a word space (0.34 text heights) away is ink of its own.
    stroke, apart = (303.0, 100.0, 305.0, 119.0), (308.0, 100.0, 310.0, 119.0)
    assert unaccounted(boxes, text, [stroke], own_within=0.34) == {}
    assert unaccounted(boxes, text, [apart], own_within=0.34) == {2: 1}
    assert unaccounted(boxes, text, [stroke]) == {2: 1}


def test_a_glyph_a_words_box_covers_in_part_is_no_loose_ink_and_a_rule_or_a_frame_is_none_either():
    grey = np.full((200, 400), 255, dtype=np.uint8)
    grey[100:120, 100:118] = 90  # a glyph whose word's box covers its left half only
    grey[112:120, 130:134] = 150  # a faint stop of its own after it (a dot blurred at 150 dpi)
    grey[112, 150] = 90  # a grain of JPEG noise
    grey[150:152, 20:380] = 90  # a rule
    grey[20:180, 390:392] = 90  # a frame's side
    words = [Word("abc", 90.0, 40, 100, 109, 120, (1, 1, 1)), Word("word", 90.0, 40, 60, 100, 80, (1, 1, 2))]
    pieces = loose_pieces(grey, words, 20.0, [])
    assert [piece[:4] for piece in pieces] == [(130, 112, 134, 120)]
    assert loose_pieces(grey, words, 20.0, [(120, 100, 140, 125)]) == ()  # inside a figure
