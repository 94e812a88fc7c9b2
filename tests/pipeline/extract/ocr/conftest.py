"""Fixtures shared by the OCR tests."""
from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from pipeline.extract.ocr import render_page
from tests.pipeline.extract.ocr.builders import (
    POLISH_OPTIONS,
    POLISH_PASSAGE,
    POLISH_STEM,
    build,
    colour_scan,
    question_page,
    require_second_reader,
)

RENDER_DPI = 300


@pytest.fixture(scope="session")
def polish_question_scan(tmp_path_factory):
    """A generated Polish question page scanned at 200 dpi (noise, blur), rendered at 300 dpi as OCR
    renders it: (RGB image, page width in points, page height in points)."""
    folder = tmp_path_factory.mktemp("polish-scan")
    scan = colour_scan(build(folder / "page.pdf", [question_page(POLISH_STEM, POLISH_PASSAGE, POLISH_OPTIONS)]),
                       folder / "scan.pdf", dpi=200, noise=0.02, blur=0.4)
    document = pdfium.PdfDocument(str(scan))
    try:
        return render_page(document, 0, RENDER_DPI)
    finally:
        document.close()


@pytest.fixture()
def spanish() -> None:
    """Skip unless the second reader can read Spanish (RapidOCR, Tesseract's data, a dictionary)."""
    require_second_reader("spa")
