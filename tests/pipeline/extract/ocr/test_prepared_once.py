"""The page prepared for Tesseract is worked out once per image: `prepare` keeps the page before its light greys
were made paper (`engine.prepared_before_whitening`), and `accent-lines`, which reads lines again from that page,
takes it instead of preparing the same image a second time. The reading is what preparing it again gives."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page, wordpasses
from pipeline.extract.ocr import readingpasses
from pipeline.extract.ocr.accentlines import page_spelling
from pipeline.extract.ocr.engine import prepare_for_tesseract, prepared_before_whitening, render_page, whitened
from pipeline.extract.ocr.passes import PageWork
from tests.pipeline.extract.ocr.builders import needs_tesseract

UNMARKED = ("La fisica y la quimica del periodo estudian los dias de la sintesis; segun el indice publico, esta aqui la "
            "musica del numero y el metodo util de la pagina. A ultima hora el tecnico leyo el analisis del medico.")


def _scan_image(tmp_path: Path):
    pdf = build_pdf(tmp_path / "page.pdf", [PageSpec([TextBox(UNMARKED, 20, 30, 170, size=11)])])
    scan = rasterize_pdf(pdf, tmp_path / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70, seed=5)
    document = pdfium.PdfDocument(str(scan))
    try:
        image, _, _ = render_page(document, 0, 300)
    finally:
        document.close()
    return image


def test_prepare_keeps_the_page_before_whitening_read_only_and_only_for_the_image_it_prepared(tmp_path):
    image = _scan_image(tmp_path)
    settings = OcrSettings(languages=("spa",), dpi=300)
    work = readingpasses._prepare.run(PageWork(settings, 1, 1, True, tmp_path, image, image))
    kept = work.unwhitened_page()
    assert kept is not None and not kept.flags.writeable
    assert np.array_equal(kept, prepared_before_whitening(image, 300))
    assert np.array_equal(np.asarray(work.prepared()), np.asarray(prepare_for_tesseract(image, 300)))
    assert np.array_equal(np.asarray(whitened(kept)), np.asarray(work.prepared()))
    # A page whose image a pass replaced after it was prepared has no kept page: it is prepared afresh.
    assert replace(work, image=image.copy()).unwhitened_page() is None
    assert PageWork(settings, 1, 1, True, tmp_path, image, image).unwhitened_page() is None


@needs_tesseract("spa")
def test_accent_lines_reads_the_kept_page_and_reads_what_preparing_again_gives(tmp_path, monkeypatch):
    if page_spelling(("spa",)) is None:
        pytest.skip("no Spanish dictionary")
    image = _scan_image(tmp_path)
    settings = OcrSettings(languages=("spa",), dpi=300)
    prepared: list[int] = []
    mended: list[int] = []

    def counted(function, calls):
        def wrapper(*args, **kwargs):
            calls.append(1)
            return function(*args, **kwargs)
        return wrapper

    monkeypatch.setattr(readingpasses, "prepared_before_whitening", counted(readingpasses.prepared_before_whitening, prepared))
    monkeypatch.setattr(wordpasses, "prepared_before_whitening", counted(wordpasses.prepared_before_whitening, prepared))
    monkeypatch.setattr(wordpasses, "mend_lost_marks", counted(wordpasses.mend_lost_marks, mended))
    once = read_page(image, settings, page_number=1)
    assert mended == [1] and prepared == [1]  # accent-lines ran on the page prepared once

    prepared.clear()
    monkeypatch.setattr(PageWork, "unwhitened_page", lambda self: None)  # as before: accent-lines prepares the image again
    again = read_page(image, settings, page_number=1)
    assert prepared == [1, 1, 1]  # for Tesseract, then accent-lines and ink-accents each prepare it again
    assert again == once and [w.text for w in once.words]
