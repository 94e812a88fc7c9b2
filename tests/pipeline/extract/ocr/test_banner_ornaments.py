"""A banner's ornaments (a dark triangle before its bar, a notched or slanted end after it) become paper with
the banner's inversion: left dark beside the inverted letters, Tesseract read them as a word of the heading's
line and lost its number (Revalida's "QUESTÃO 5" read "WTF questão? r"). Generated sheets, scanned, prepared
as OCR prepares a page, read by Tesseract; what is no ornament beside a banner (a word, a dark box holding a
word) keeps its ink."""
from __future__ import annotations

import io
import re

import numpy as np
import pypdfium2 as pdfium
import pytesseract
import pytest
from PIL import Image, ImageDraw

from pipeline.devkit.sample.pdfgen import ImageBox, PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.panels import FILL_BELOW, banner_ornaments, panels_inverted, reversed_panels

WHITE = (255, 255, 255)
BAR = 5.0  # mm: the banner's height (a 12 pt heading on its bar)
# (heading word, Tesseract language, bar grey): the same layout in three languages, on a grey and a black bar
BANNERS = [("QUESTÃO", "por", (150, 150, 150)), ("PREGUNTA", "spa", (40, 40, 40)), ("ZADANIE", "pol", (150, 150, 150))]


def _png(width_px: int, height_px: int, polygons: list[list[tuple[float, float]]], grey: int) -> bytes:
    image = Image.new("L", (width_px, height_px), 255)
    draw = ImageDraw.Draw(image)
    for polygon in polygons:
        draw.polygon([(x * width_px, y * height_px) for x, y in polygon], fill=grey)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _banner(word: str, number: int, x: float, y: float, grey: tuple[int, int, int]) -> list:
    """A heading on a bar with a dark triangle before it and a notched end after it, as Revalida prints them."""
    left = ImageBox(x, y - 0.6, 12, _png(240, 124, [[(0, 0), (0.75, 0), (0.5, 1)], [(0.45, 0.2), (1, 0.2), (1, 0.8)]], 70), h=6.2)
    text = TextBox(f"  {word} {number}  ", x + 14, y, 42, size=12, bold=True, color=WHITE, highlight=grey)
    right = ImageBox(x + 58, y - 0.6, 10, _png(200, 124, [[(0, 1), (0.55, 0.1), (0.55, 1)], [(0.45, 0.3), (1, 0.3), (0.7, 0.9)]], 60), h=6.2)
    return [left, text, right]


def _sheet(folder, layout: list[tuple[str, str, tuple[int, int, int]]]):
    items: list = []
    for row, (word, _, grey) in enumerate(layout):
        y = 20 + row * 45
        items += _banner(word, 7 + row, 20, y, grey)
        items.append(TextBox("Uma frase comum de texto corrido abaixo do título, que não é um título.", 20, y + 10, 80, size=10))
    return build_pdf(folder / "banners.pdf", [PageSpec(tuple(items))])


def _page(scan, dpi: int) -> Image.Image:
    document = pdfium.PdfDocument(str(scan))
    try:
        return render_page(document, 0, dpi)[0]
    finally:
        document.close()


@pytest.mark.parametrize("dpi, blur, jpeg", [(150, 0.4, 90), (200, 0.8, 80), (300, 0.6, 70)])
def test_a_banner_with_ornaments_is_read_with_its_number(tmp_path, dpi, blur, jpeg):
    sheet = _sheet(tmp_path, BANNERS)
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=dpi)
    page = _page(scan, dpi)
    prepared = prepare_for_tesseract(page, dpi)
    text = pytesseract.image_to_string(prepared, lang="por+spa+pol", config=f"--psm 3 --dpi {dpi}")
    headings = [line for line in text.splitlines() if re.search(r"QUEST|PREGUNTA|ZADANIE", line, re.IGNORECASE)]
    # The heading word and its number, nothing else on the line (the word's accent is the languages' to read).
    assert [line.split()[1:] for line in headings] == [[str(7 + row)] for row in range(len(BANNERS))], headings


def test_what_is_no_ornament_beside_a_banner_keeps_its_ink(tmp_path):
    """Beside a banner, a word (thin strokes) and a dark box holding a word (light inside) are left as they were;
    the triangle before the bar and the notched end after it are ornaments."""
    dpi = 200
    word = TextBox("Nota", 90, 20.5, 14, size=12, bold=True)  # on the banner's row, within its reach
    boxed = TextBox(" 3 ", 10, 30, 6, size=10, bold=True, color=WHITE, highlight=(20, 20, 20))  # too square for a panel
    items = [*_banner("QUESTÃO", 4, 20, 20, (40, 40, 40)), word]
    sheet = build_pdf(tmp_path / "beside.pdf", [PageSpec(tuple(items))])
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=dpi, blur=0.6, jpeg_quality=85, noise=0.01, seed=3)
    grey = np.asarray(_page(scan, dpi).convert("L"))
    panels = reversed_panels(grey, dpi)
    assert len(panels) == 1
    box = panels[0][0]
    found = banner_ornaments(panels_inverted(grey, panels), box, dpi)
    mm = dpi / 25.4
    lefts = sorted(columns.start / mm for _, columns, _ in found)
    assert lefts and lefts[0] < 32 and max(lefts) > 76  # the triangle before the bar, the notched end after it
    assert all(columns.start / mm < 89 for _, columns, _ in found)  # not the word beside it
    # A dark box holding a word, on the banner's rows: light inside, no ornament.
    sheet = build_pdf(tmp_path / "boxed.pdf", [PageSpec((TextBox("  QUESTÃO 4  ", 20, 30, 42, size=12, bold=True, color=WHITE,
                                                                  highlight=(40, 40, 40)), boxed))])
    scan = rasterize_pdf(sheet, tmp_path / "scan2.pdf", dpi=dpi, blur=0.6, jpeg_quality=85, noise=0.01, seed=3)
    grey = np.asarray(_page(scan, dpi).convert("L"))
    panels = reversed_panels(grey, dpi)
    assert len(panels) == 1  # the banner, not the box
    erased = [columns for _, columns, _ in banner_ornaments(panels_inverted(grey, panels), panels[0][0], dpi) if columns.start / mm < 19]
    assert erased == []
    assert (grey[round(30.5 * mm) : round(34 * mm), round(10.5 * mm) : round(15 * mm)] < FILL_BELOW).mean() > 0.4  # the box is there
