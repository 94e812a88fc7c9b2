"""A page that is one scanned image is read from the scan's own pixels upscaled to the OCR dpi by a Lanczos filter
(`scanpixels`, the pass `scan-resolution`) when they lie somewhat under the OCR dpi (200 under 300); a page with
anything beside its scan (a text line) is rendered at the OCR dpi as before, and so are scans at 150 and 300 dpi."""
from __future__ import annotations

import io
from collections import Counter
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.devkit.sample.pdfbase import new_fpdf
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import ocr_pages, render_page
from pipeline.extract.ocr.pagepasses import pass_names
from pipeline.extract.ocr.scanpixels import native_scan, reads_natively, scan_to_read
from pipeline.extract.ocr.settings import OcrSettings
from tests.pipeline.extract.ocr.builders import POLISH_PASSAGE, POLISH_STEM, needs_tesseract

PROSE = " ".join([POLISH_STEM, POLISH_PASSAGE] * 3)
SETTINGS = OcrSettings(languages=["pol"], dpi=300)


def _scan(folder: Path, dpi: int) -> Path:
    source = build_pdf(folder / "page.pdf", [PageSpec([TextBox(PROSE, 20, 30, 170, size=10)])])
    return rasterize_pdf(source, folder / f"scan-{dpi}.pdf", dpi=dpi, blur=0.8, jpeg_quality=70, noise=0.01, seed=0)


def _native(pdf: Path):
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[0]
        try:
            return native_scan(page)
        finally:
            page.close()
    finally:
        document.close()


def _words(pdf: Path, settings: OcrSettings = SETTINGS) -> list[str]:
    page = ocr_pages(pdf, [1], settings, workers=1, progress=False)[1]
    return " ".join(line.text for line in page.lines).split()


def _right(words: list[str]) -> int:
    return sum((Counter(PROSE.split()) & Counter(words)).values())


@pytest.fixture(scope="module")
def scan_200(tmp_path_factory) -> Path:
    return _scan(tmp_path_factory.mktemp("scan200"), 200)


def test_the_pass_comes_first_so_every_later_pass_reads_its_image():
    assert pass_names()[0] == "scan-resolution"


def test_a_200_dpi_scan_is_read_from_its_own_pixels_and_150_and_300_dpi_ones_are_rendered_as_before(scan_200, tmp_path):
    native = _native(scan_200)
    assert native is not None
    assert native.dpi == pytest.approx(200, abs=0.5)
    assert native.image.size == (1654, 2339)  # A4 at 200 dpi: the JPEG's own pixels, not pdfium's
    assert reads_natively(native, 300) and not reads_natively(native, 200)
    for dpi in (150, 300):
        scan = _native(_scan(tmp_path, dpi))
        assert scan is not None and scan.dpi == pytest.approx(dpi, abs=0.5)
        assert not reads_natively(scan, 300)


def test_the_scan_is_upscaled_to_the_page_at_the_ocr_dpi(scan_200):
    native = _native(scan_200)
    assert native is not None
    upscaled = scan_to_read(native, 300)
    document = pdfium.PdfDocument(str(scan_200))
    try:
        rendered = render_page(document, 0, 300)[0]
    finally:
        document.close()
    assert abs(upscaled.width - rendered.width) <= 1 and abs(upscaled.height - rendered.height) <= 1
    assert upscaled.mode == "L"  # a grey scan stays grey: no colour for the highlight passes to find


@needs_tesseract("pol")
def test_a_200_dpi_scan_read_through_the_pass_gives_the_printed_words(scan_200):
    words = _words(scan_200)
    assert _right(words) >= 0.95 * len(PROSE.split()), words
    rendered = _words(scan_200, OcrSettings(languages=["pol"], dpi=300, disabled_passes=("scan-resolution",)))
    assert _right(words) >= _right(rendered), (words, rendered)


def _mixed_page(folder: Path, scan: Path) -> Path:
    """The scan's pixels as an image on a page with a printed text line over its top margin."""
    native = _native(scan)
    assert native is not None
    buffer = io.BytesIO()
    native.image.save(buffer, format="JPEG", quality=90)
    pdf = new_fpdf()
    pdf.add_page()
    pdf.image(io.BytesIO(buffer.getvalue()), x=0, y=0, w=210, h=297)
    pdf.set_font("helvetica", size=12)
    pdf.text(20, 15, "Arkusz egzaminacyjny")
    path = folder / "mixed.pdf"
    path.write_bytes(bytes(pdf.output()))
    return path


@needs_tesseract("pol")
def test_a_page_with_text_beside_its_scan_is_rendered_at_the_ocr_dpi_and_its_printed_line_read(scan_200, tmp_path):
    mixed = _mixed_page(tmp_path, scan_200)
    assert _native(mixed) is None
    words = _words(mixed)
    assert "Arkusz" in words and "egzaminacyjny" in words, words
    assert _right(words) >= 0.9 * len(PROSE.split()), words


def test_an_image_covering_a_corner_of_the_page_is_no_scan(tmp_path):
    pdf = new_fpdf()
    pdf.add_page()
    buffer = io.BytesIO()
    Image.new("L", (300, 300), 128).save(buffer, format="JPEG")
    pdf.image(io.BytesIO(buffer.getvalue()), x=10, y=10, w=50, h=50)
    path = tmp_path / "picture.pdf"
    path.write_bytes(bytes(pdf.output()))
    assert _native(path) is None
