"""A scan fed crooked through the scanner is straightened before Tesseract reads it: the tilt comes from
the page's own text lines, and the lines come out whole, as on a straight scan."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, ocr_pages
from pipeline.extract.ocr.deskew import MIN_CORRECTION_DEG, deskewed, estimate_skew
from tests.pipeline.extract.ocr.builders import build, needs_tesseract

LINES = [f"{n}. Zaznacz zdanie, w którym wszystkie wyrazy zapisano poprawnie, i uzasadnij." for n in range(1, 19)]


@pytest.fixture(scope="module")
def straight_pdf(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("skew")
    return build(folder / "page.pdf", [PageSpec(tuple(TextBox(t, 15, 20 + 9 * i, 180, size=11) for i, t in enumerate(LINES)))])


def _scan(src: Path, degrees: float) -> Path:
    return rasterize_pdf(src, src.with_name(f"scan{degrees:+.1f}.pdf"), dpi=200, noise=0.02, blur=0.4, rotate_deg=degrees, seed=3)


def _image(scan: Path):
    document = pdfium.PdfDocument(str(scan))
    try:
        return document[0].render(scale=200 / 72).to_pil().convert("L")
    finally:
        document.close()


@pytest.mark.parametrize("degrees", [0.0, 0.8, -1.5, 3.0, -4.5])
def test_the_tilt_of_a_scan_is_found_within_a_tenth_of_a_degree(straight_pdf, degrees):
    image = _image(_scan(straight_pdf, degrees))
    assert estimate_skew(image) == pytest.approx(degrees, abs=0.1)
    straightened, found = deskewed(image)
    assert straightened.size == image.size
    assert abs(estimate_skew(straightened)) < MIN_CORRECTION_DEG


def test_a_blank_page_has_no_tilt_and_is_left_as_it_is():
    from PIL import Image

    blank = Image.new("L", (1000, 1400), 255)
    assert estimate_skew(blank) == 0.0 and deskewed(blank)[0] is blank


@needs_tesseract("pol")
def test_a_tilted_scan_reads_its_lines_as_the_straight_scan_does(straight_pdf):
    def lines(degrees: float, deskew: bool) -> list[str]:
        settings = OcrSettings(languages=("pol",), dpi=200, deskew=deskew)
        page = ocr_pages(_scan(straight_pdf, degrees), [1], settings, workers=1, progress=False)[1]
        return [line.text for line in page.lines]

    straight = lines(0.0, False)
    assert len(straight) == len(LINES)
    straightened, tilted = lines(2.0, True), lines(2.0, False)
    assert len(set(straightened) & set(straight)) >= 0.9 * len(straight)
    # Read crooked, the lines break into pieces out of order ("poprawnie, i uzasadnij wybór" first).
    assert len(set(tilted) & set(straight)) < 0.5 * len(straight)
