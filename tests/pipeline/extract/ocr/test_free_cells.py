"""Answer cells whose letters a language's model loses to a whitelist are read once more with none
(`keycells.read_cells_free`, used by `cellreads`): Tesseract's Greek model reads a lone "Δ" surely
without a whitelist and nothing, or "Α", with one. Only readings that stand for one label count."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from pipeline.devkit.keyscans import read_key, same_answer
from pipeline.devkit.sample.keysheets import greek_booklets
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.keycells import read_cells_free
from tests.pipeline.extract.ocr.builders import needs_tesseract

pytestmark = needs_tesseract("ell")

DPI = 300
MM = DPI / 25.4


def _scanned(items: list[TextBox], folder: Path, *, dpi: int, blur: float, jpeg: int) -> Image.Image:
    source = build_pdf(folder / "cells.pdf", [PageSpec(items)])
    scan = rasterize_pdf(source, folder / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=0)
    document = pdfium.PdfDocument(str(scan))
    try:
        return render_page(document, 0, DPI)[0].convert("L")
    finally:
        document.close()


def test_lone_greek_capitals_are_read_as_labels_and_anything_else_stays_unread(tmp_path):
    texts = ["Δ", "Α", "Δ", "Β", "Γ", "Δ", "ΑΒ", "Ω", ""]
    boxes = [TextBox(text, 20 + 14 * i, 30, 10, size=12, align="C") for i, text in enumerate(texts)]
    grey = _scanned(boxes, tmp_path, dpi=150, blur=0.8, jpeg=70)
    crops = [(round(b.x * MM), round(26 * MM), round((b.x + b.width) * MM), round(38 * MM)) for b in boxes]
    scale = 3  # as `cellreads` reads them: enlarged to about 150 pixels tall
    big = grey.resize((grey.width * scale, grey.height * scale), Image.Resampling.LANCZOS)
    crops = [tuple(v * scale for v in crop) for crop in crops]
    readable = {ch: label for label in "ΑΒΓΔ" for ch in (label, label.lower())}
    readings = read_cells_free(big, crops, readable, ("ell",), DPI, 1)
    got = [readings.get(i, ("", 0.0))[0] for i in range(len(texts))]
    assert got[:6] == texts[:6]
    assert got[6:] == ["", "", ""]  # two labels in one cell, a letter that is no label, an empty cell
    assert all(conf >= 60 for text, conf in readings.values() if text)


def test_a_greek_booklet_grid_on_a_blurred_low_resolution_scan_is_read_whole(tmp_path):
    # At 150 dpi, blur 0.8, JPEG 70: 27 of 40 right before (every "Δ" lost or read as "Α"/"Γ"), 40 after.
    sheet = greek_booklets(0)
    source = build_pdf(tmp_path / "key.pdf", sheet.pages)
    scan = rasterize_pdf(source, tmp_path / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70, noise=0.01, seed=0)
    table = read_key(scan, sheet)
    wrong = [n for n, a in sheet.truth.items() if n in table.answers and not same_answer(table.answers[n], a)]
    right = sum(same_answer(table.answers.get(n, ""), a) for n, a in sheet.truth.items())
    assert wrong == [] and right >= len(sheet.truth) - 1, (right, wrong, table.problems)
    unread = [n for n in sheet.truth if n not in table.answers]
    assert all(n in table.unread for n in unread)  # a cell left unread is reported for its question
