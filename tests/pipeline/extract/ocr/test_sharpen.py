"""Soft scans (`softness`, the `sharpen` pass): a page's softness is measured from its own strokes' edges against
its line height; a soft page's prose is read from a sharpened image, its key cells from the page as prepared,
and a sharp page is left as it is."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import list_key
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import render_page
from pipeline.extract.ocr.pagepasses import read_page
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.softness import SOFT_FROM, measure_softness, sharpening
from tests.pipeline.extract.ocr.builders import POLISH_PASSAGE, POLISH_STEM, needs_tesseract

# Small type (8 pt) full of diacritics: a 150 dpi scan with blur 0.8 loses the dots and ogoneks first.
PROSE = " ".join([POLISH_STEM, POLISH_PASSAGE] * 3)


def _scan(folder: Path, pages: list[PageSpec], dpi: int, blur: float, jpeg: int, name: str = "page") -> Path:
    source = build_pdf(folder / f"{name}.pdf", pages)
    return rasterize_pdf(source, folder / f"{name}-{dpi}-{blur}-{jpeg}.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=0)


def _rendered(scan: Path):
    document = pdfium.PdfDocument(str(scan))
    try:
        return render_page(document, 0, 300)[0]
    finally:
        document.close()


def _words_right(image, disabled: tuple[str, ...]) -> int:
    reading = read_page(image, OcrSettings(languages=["pol"], dpi=300, disabled_passes=disabled), page_number=1)
    read = Counter(w.text for w in reading.words)
    return sum((Counter(PROSE.split()) & read).values())


@pytest.fixture(scope="module")
def prose_page(tmp_path_factory) -> list[PageSpec]:
    return [PageSpec([TextBox(PROSE, 20, 30, 170, size=8)])]


def test_softness_grows_with_the_blur_and_shrinks_with_the_resolution(tmp_path, prose_page):
    measured = {
        (dpi, blur): measure_softness(_rendered(_scan(tmp_path, prose_page, dpi, blur, 90))) for dpi, blur in
        ((300, 0.0), (300, 0.8), (150, 0.4), (150, 0.8))
    }
    assert all(m is not None for m in measured.values()), measured
    softness = {k: m.softness for k, m in measured.items() if m is not None}
    assert softness[(300, 0.0)] < softness[(300, 0.8)] < softness[(150, 0.8)], softness
    assert softness[(150, 0.4)] < softness[(150, 0.8)], softness


def test_a_sharp_scan_is_not_sharpened(tmp_path, prose_page):
    for dpi, blur in ((300, 0.0), (300, 0.4)):
        measured = measure_softness(_rendered(_scan(tmp_path, prose_page, dpi, blur, 90)))
        assert measured is not None and measured.softness < SOFT_FROM, (dpi, blur, measured)
        assert sharpening(measured) is None


def test_a_blank_page_has_no_softness_to_measure(tmp_path):
    assert measure_softness(_rendered(_scan(tmp_path, [PageSpec([])], 150, 0.8, 70))) is None


@needs_tesseract("pol")
def test_a_soft_scan_of_small_type_reads_more_words_right_sharpened(tmp_path, prose_page):
    image = _rendered(_scan(tmp_path, prose_page, 150, 0.8, 70))
    assert sharpening(measure_softness(image)) is not None
    # The second reader reads its windows from the page as scanned, not as sharpened, and `accent-lines` its lines
    # from the page not whitened: both are off on both sides so that what is compared is Tesseract's own reading
    # with and without the sharpening.
    without = _words_right(image, ("sharpen", "second-reader", "accent-lines"))
    with_ = _words_right(image, ("second-reader", "accent-lines"))
    assert with_ > without, (without, with_, len(PROSE.split()))


@needs_tesseract("pol")
def test_a_soft_list_key_reads_its_answers_as_well_sharpened_as_not(tmp_path):
    # Key cells read the page as prepared, unsharpened: sharpening steepens grain and rules into strokes.
    sheet = list_key(0)
    scan = _scan(tmp_path, sheet.pages, 150, 0.8, 70, name=sheet.name)
    right = {}
    for label, disabled in (("without", ("sharpen",)), ("with", ())):
        table = read_key(scan, sheet, disabled=disabled)
        right[label] = sum(same_answer(table.answers.get(n, ""), a) for n, a in sheet.truth.items())
    assert right["with"] >= right["without"], right
