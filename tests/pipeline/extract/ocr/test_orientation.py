"""A page scanned upside down or on its side is turned upright before it is read: it reads as the
upright scan does, on a page of the other shape when it lay sideways; an upright page never pays for
the orientation check."""
from __future__ import annotations

import pytest

from pipeline.extract.ocr import OcrSettings, lay_out_page, read_page
from pipeline.extract.ocr.orientation import may_lie_turned
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

SETTINGS = OcrSettings(languages=("pol",), dpi=300)


def _text(reading, width_pt, height_pt) -> tuple[str, float, float]:
    page = lay_out_page(reading, SETTINGS, page_number=1, width_pt=width_pt, height_pt=height_pt)
    return " ".join(page.text.split()), page.width, page.height


@needs_tesseract("pol", "osd")  # osd: the orientation data Debian's tesseract-ocr installs with it
@pytest.mark.parametrize("turned_by", [180, 90])
def test_a_turned_page_reads_as_the_upright_scan_does(polish_question_scan, turned_by):
    image, width_pt, height_pt = polish_question_scan
    expected = _text(read_page(image, SETTINGS, page_number=1), width_pt, height_pt)
    # As scanned: turned counter-clockwise; a sideways page also comes with the other page shape.
    scanned = image.rotate(turned_by, expand=True)
    size = (width_pt, height_pt) if turned_by == 180 else (height_pt, width_pt)
    reading = read_page(scanned, SETTINGS, page_number=1)
    assert reading.rotation == turned_by  # degrees clockwise that set it upright again
    assert _text(reading, *size) == expected


def test_an_upright_page_or_one_with_few_words_is_not_checked():
    sure = [Word(f"słowo{i}", 91.0, 10 * i, 0, 10 * i + 8, 10, (1, 1, 1)) for i in range(30)]
    unsure = [Word(f"słowo{i}", 36.0, 10 * i, 0, 10 * i + 8, 10, (1, 1, 1)) for i in range(30)]
    assert not may_lie_turned(sure) and may_lie_turned(unsure)
    assert not may_lie_turned(unsure[:5])  # a figure's few words say nothing about the page
