"""A scan fed crooked through the scanner is straightened before Tesseract reads it: the tilt comes from
the page's own text lines, and the lines come out whole, as on a straight scan."""
from __future__ import annotations

from pathlib import Path

import numpy as np
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


@pytest.mark.parametrize("degrees", [0.5, -1.5, 3.0])
def test_specks_of_dust_do_not_move_the_tilt_found(straight_pdf, degrees):
    scan = rasterize_pdf(straight_pdf, straight_pdf.with_name(f"specks{degrees:+.1f}.pdf"), dpi=200, blur=0.6, jpeg_quality=80,
                         rotate_deg=degrees, speckle=0.004, seed=5)
    image = _image(scan)
    dark = int((np.asarray(image) < 60).sum())
    assert dark > 0.001 * image.width * image.height  # the specks are there, not lost to the JPEG
    assert estimate_skew(image) == pytest.approx(degrees, abs=0.1)


@pytest.mark.parametrize("degrees", [0.0, 1.0, -2.0])
def test_a_cover_of_dark_fill_without_text_lines_is_not_turned(degrees):
    # A back cover printed on a grey fill, a frame and a ring on it: its row profile sharpens all the way to
    # the end of the search (the fill's edge against the white corners), with no peak a text line would give.
    from PIL import Image, ImageDraw

    page = Image.new("L", (1650, 2150), 110)
    draw = ImageDraw.Draw(page)
    draw.rectangle((500, 1100, 1150, 1300), outline=255, width=6)
    draw.ellipse((700, 400, 950, 650), outline=255, width=6)
    scan = page.rotate(degrees, fillcolor=255)
    assert estimate_skew(scan) == 0.0
    assert deskewed(scan)[0] is scan


def test_speckles_are_seeded_and_cover_the_share_asked(straight_pdf, tmp_path):
    from pipeline.devkit.sample.raster import rasterized_pdf_bytes

    first = rasterized_pdf_bytes(straight_pdf, dpi=150, speckle=0.01, seed=9)
    assert first == rasterized_pdf_bytes(straight_pdf, dpi=150, speckle=0.01, seed=9)
    assert first != rasterized_pdf_bytes(straight_pdf, dpi=150, speckle=0.01, seed=10)
    clean = _image(rasterize_pdf(straight_pdf, tmp_path / "clean.pdf", dpi=200, jpeg_quality=95, seed=9))
    specked = _image(rasterize_pdf(straight_pdf, tmp_path / "specked.pdf", dpi=200, jpeg_quality=95, speckle=0.01, seed=9))
    changed = (np.abs(np.asarray(clean, dtype=int) - np.asarray(specked, dtype=int)) > 100).mean()
    assert 0.003 < changed < 0.02


@pytest.mark.parametrize("paper,corner", [(205, 205), (250, 255)])
def test_the_corners_a_straightening_uncovers_are_the_papers_grey_white_paper_white(straight_pdf, paper, corner):
    from pipeline.devkit.sample.scansetting import ScanSetting

    scan = ScanSetting.parse(f"200/0.4/90/1.2/p{paper}").rasterise(straight_pdf, straight_pdf.with_name(f"paper{paper}.pdf"), seed=3)
    straightened = np.asarray(deskewed(_image(scan))[0])
    # The top right corner lies past the tilted page's edge: filled, not scanned. White on grey paper is an edge no
    # scan has, which Tesseract's layout takes for a boundary.
    assert abs(int(straightened[0, -1]) - corner) <= 5  # the paper as scanned: its grain and JPEG lift it a little


@needs_tesseract("kor")
@pytest.mark.skipif(__import__("pipeline.devkit.sample.pdfgen", fromlist=["cjk_font"]).cjk_font() is None, reason="Noto Sans CJK not installed")
def test_a_tilted_scan_on_grey_paper_reads_both_options_of_each_pair(tmp_path):
    """`ko-pairs` (options two a row after ringed labels) scanned on paper at 205, tilted 0.5°: straightened with white
    corners, Tesseract's layout read the page without the right-hand options of its pairs."""
    from pipeline.devkit import scriptscans
    from pipeline.devkit.sample.scansetting import ScanSetting
    from pipeline.extract.ocr import read_page
    from pipeline.extract.ocr.engine import render_page

    family = next(f for f in scriptscans.LABEL_TUNING if f.name == "ko-pairs")
    questions, sheet, _ = scriptscans.write_sheet(tmp_path, family)
    scan = ScanSetting.parse("240/0.65/86/0.5/p205").rasterise(sheet, tmp_path / "scan.pdf", seed=family.seed)
    document = pdfium.PdfDocument(str(scan))
    try:
        image = render_page(document, 0, 300)[0]
    finally:
        document.close()
    read = read_page(image, OcrSettings(languages=("kor",), dpi=300, option_labels=family.labels), page_number=1)
    words = {w.text for w in read.words}
    right_hand = [word for q in questions[:3] for option in q.options[1::2] for word in option.split()]
    assert sum(word in words for word in right_hand) >= 0.9 * len(right_hand)
