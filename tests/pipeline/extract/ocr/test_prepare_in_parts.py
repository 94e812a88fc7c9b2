"""The grain blur before Tesseract (`engine.smoothed`) gives the whole-page Gaussian blur's pixels exactly,
while it blurs only around the ink: on a rendered text page, on the same page masked down to a few boxes
(how drawn text is read in place), at every dpi and radius a sheet is read at, and with ink at the edges."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageFilter

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.extract.ocr.engine import SMOOTHING_RADIUS_PX, smoothed


def _whole(grey: np.ndarray, radius: float) -> np.ndarray:
    return np.asarray(Image.fromarray(grey, mode="L").filter(ImageFilter.GaussianBlur(radius)))


@pytest.fixture(scope="module")
def page_grey(tmp_path_factory) -> np.ndarray:
    pdf = tmp_path_factory.mktemp("smoothing") / "page.pdf"
    build_pdf(pdf, [PageSpec(items=[
        TextBox("Zadanie 3. Który protokół służy do przesyłania poczty?", 20, 25, 170),
        TextBox("A. HTTP    B. SMTP    C. DNS    D. FTP", 20, 40, 170),
        TextBox("Strona 2 z 15", 95, 280, 40, size=8),
    ])])
    document = pdfium.PdfDocument(str(pdf))
    try:
        return np.asarray(document[0].render(scale=200 / 72).to_pil().convert("L")).copy()
    finally:
        document.close()


@pytest.mark.parametrize("dpi", [150, 200, 300])
def test_a_rendered_page_blurs_to_the_whole_page_blur(page_grey, dpi):
    radius = SMOOTHING_RADIUS_PX * dpi / 300
    assert np.array_equal(smoothed(page_grey.copy(), radius), _whole(page_grey, radius))


@pytest.mark.parametrize("radius", [0.4, 0.8, 1.6, 3.0])
def test_a_page_masked_to_a_few_boxes_blurs_to_the_whole_page_blur(page_grey, radius):
    masked = np.full_like(page_grey, 255)
    rows, columns = np.nonzero(page_grey < 255)
    top, left = int(rows.min()), int(columns.min())
    masked[top:top + 40, left:left + 120] = page_grey[top:top + 40, left:left + 120]
    assert (masked < 255).sum() > 0
    result = smoothed(masked, radius)
    assert np.array_equal(result, _whole(masked, radius))
    assert (result < 255).sum() > (masked < 255).sum()  # the blur did spread the ink


@pytest.mark.parametrize("corner", [(0, 0), (-6, -6), (0, -6), (-6, 0)])
def test_ink_touching_the_page_edge_blurs_as_on_the_whole_page(corner):
    grey = np.full((300, 240), 255, dtype=np.uint8)
    y, x = corner
    grey[y:y + 6 if y else 6, x:x + 6 if x else 6] = 0
    grey[150, 100:104] = 90
    assert np.array_equal(smoothed(grey, 0.8), _whole(grey, 0.8))


def test_a_blank_page_stays_blank_and_an_inked_page_is_blurred_whole():
    blank = np.full((120, 90), 255, dtype=np.uint8)
    assert np.array_equal(smoothed(blank, 0.8), blank)
    noisy = np.random.default_rng(7).integers(0, 256, size=(120, 90), dtype=np.uint8)
    assert np.array_equal(smoothed(noisy, 0.8), _whole(noisy, 0.8))
