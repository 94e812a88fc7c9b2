"""Real sheets of the development corpus, rasterised as the fidelity bench scans them (200 dpi, colour,
noise, blur, JPEG): what the text layer prints, the OCR path must read. Skipped without the corpus."""
from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import rasterize_pdf
from pipeline.extract.ocr import OcrSettings, ocr_pages
from pipeline.specs import load_spec
from tests.fixtures.corpus import CORPUS
from tests.pipeline.extract.ocr.builders import needs_tesseract

TASK_HEADING = re.compile(r"Zadanie \d+\.(?:\d+\.?)?")


@pytest.mark.corpus
@needs_tesseract("pol")
def test_cke_task_headings_on_shaded_bars_read_as_on_the_text_layer(tmp_path):
    """CKE prints each task heading ("Zadanie 3.") in bold on a light grey bar. Taken for a light-on-dark
    panel, the bar was inverted and the heading's letters erased, which lost every question of the task
    (recall 0-40 % on the four CKE scans)."""
    sheet = CORPUS / "pl_cke_matura_informatyka" / "2017-05_PP_F2007" / "Arkusz_cz1.pdf"
    if not sheet.is_file():
        pytest.skip(f"{sheet} is not in the development corpus")
    pages = [5, 7]  # "Zadanie 2." and "Zadanie 3." with their subtasks
    trimmed = tmp_path / "pages.pdf"
    with pdfium.PdfDocument(str(sheet)) as document, pdfium.PdfDocument.new() as out:
        printed = [TASK_HEADING.findall(document[n - 1].get_textpage().get_text_range()) for n in pages]
        out.import_pages(document, pages=[n - 1 for n in pages])
        out.save(str(trimmed))
    scan = rasterize_pdf(trimmed, tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=1, jpeg_quality=85, colour=True)
    read = ocr_pages(scan, [1, 2], OcrSettings.from_spec(load_spec("pl_cke_matura_informatyka")), progress=False)
    for number, headings in zip((1, 2), printed):
        assert headings and TASK_HEADING.findall(read[number].text) == headings
