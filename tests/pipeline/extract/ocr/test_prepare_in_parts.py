"""The page preparation before Tesseract (`engine.prepare_for_tesseract`) works out its colour test,
its rule erasing and its grain blur only around the ink, and gives the pixels the whole-page steps give:
on a rendered text page with a key highlight, a coloured fill and table rules, on the same page masked
down to a few boxes (how drawn text is read in place), on a grey scan, at the dpi and blur radii a sheet
is read at, and with ink at the page's edges."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageFilter

from pipeline.devkit.sample.pdfgen import Line, PageSpec, Rect, TextBox, build_pdf
from pipeline.extract.ocr import engine
from pipeline.extract.ocr.engine import SMOOTHING_RADIUS_PX, prepare_for_tesseract, smoothed
from pipeline.extract.ocr.illumination import even_paper
from pipeline.extract.ocr.panels import light_on_dark_inverted


def _whole_blur(grey: np.ndarray, radius: float) -> np.ndarray:
    return np.asarray(Image.fromarray(grey, mode="L").filter(ImageFilter.GaussianBlur(radius)))


def _prepared_whole_page(image: Image.Image, dpi: int) -> np.ndarray:
    """Every step over the whole page, as the preparation did before it looked only around the ink."""
    if image.mode == "RGB":
        rgb = np.asarray(image).astype(np.int16)
        brightest, darkest = rgb.max(axis=2), rgb.min(axis=2)
        saturated = (brightest - darkest > 60) & (brightest > 120)
        fill = engine._saturated_areas(saturated, max(2, round(dpi / 30)))
        grey = np.asarray(image.convert("L")).copy()
        grey[fill] = 255
    else:
        grey = np.asarray(image.convert("L")).copy()
    grey = light_on_dark_inverted(even_paper(grey, dpi), dpi)
    grey[engine.straight_rules(grey < 128, max(20, round(dpi * engine.RULE_MIN_INCHES)))] = 255
    blurred = Image.fromarray(grey, mode="L").filter(ImageFilter.GaussianBlur(SMOOTHING_RADIUS_PX * dpi / 300))
    return np.asarray(blurred.point(engine._WHITEN))


@pytest.fixture(scope="module")
def page_pdf(tmp_path_factory):
    pdf = tmp_path_factory.mktemp("prepare") / "page.pdf"
    build_pdf(pdf, [PageSpec(items=[
        TextBox("Zadanie 3. Który protokół służy do przesyłania poczty?", 20, 25, 170),
        TextBox("A. HTTP    B. SMTP    C. DNS    D. FTP", 20, 40, 170),
        TextBox("B. SMTP", 20, 55, 40, highlight=(255, 230, 0)),  # a key marked in yellow
        Rect(20, 70, 80, 12, fill=(60, 110, 200)),  # a coloured fill
        TextBox("1   2   3   4", 22, 72, 70),
        Line(20, 90, 190, 90), Line(20, 100, 190, 100), Line(60, 85, 60, 105),  # table rules
        TextBox("Strona 2 z 15", 95, 280, 40, size=8),
    ])])
    document = pdfium.PdfDocument(str(pdf))
    yield document
    document.close()


def _rendered(document, dpi: int) -> Image.Image:
    return document[0].render(scale=dpi / 72).to_pil().convert("RGB")


def _masked(image: Image.Image, boxes: list[tuple[int, int, int, int]]) -> Image.Image:
    canvas = Image.new("RGB", image.size, (255, 255, 255))
    for box in boxes:
        canvas.paste(image.crop(box), box[:2])
    return canvas


@pytest.mark.parametrize("dpi", [150, 200, 300])
def test_a_rendered_page_is_prepared_as_the_whole_page_steps_prepare_it(page_pdf, dpi):
    image = _rendered(page_pdf, dpi)
    prepared = np.asarray(prepare_for_tesseract(image, dpi))
    assert np.array_equal(prepared, _prepared_whole_page(image, dpi))
    assert (prepared < 255).any()


def test_a_page_masked_to_a_few_boxes_is_prepared_as_the_whole_page_steps_prepare_it(page_pdf):
    image = _rendered(page_pdf, 300)
    scale = 300 / 25.4  # mm to px
    masked = _masked(image, [(int(18 * scale), int(52 * scale), int(70 * scale), int(110 * scale)),
                             (int(90 * scale), int(275 * scale), int(140 * scale), int(290 * scale))])
    prepared = np.asarray(prepare_for_tesseract(masked, 300))
    assert np.array_equal(prepared, _prepared_whole_page(masked, 300))
    assert (prepared < 255).sum() > 100


def test_a_grey_scan_with_noise_is_prepared_as_the_whole_page_steps_prepare_it(page_pdf):
    grey = np.asarray(_rendered(page_pdf, 200).convert("L")).astype(np.int16)
    noisy = np.clip(grey + np.random.default_rng(3).normal(0, 12, grey.shape), 0, 255).astype(np.uint8)
    scan = Image.fromarray(noisy, mode="L")
    assert np.array_equal(np.asarray(prepare_for_tesseract(scan, 200)), _prepared_whole_page(scan, 200))


@pytest.mark.parametrize("radius", [0.4, 0.8, 1.6, 3.0])
def test_the_blur_around_the_ink_gives_the_whole_page_blur(page_pdf, radius):
    grey = np.asarray(_rendered(page_pdf, 200).convert("L")).copy()
    masked = np.full_like(grey, 255)
    masked[200:260, 150:500] = grey[200:260, 150:500]
    for page in (grey, masked):
        result = smoothed(page.copy(), radius)
        assert np.array_equal(result, _whole_blur(page, radius))
    assert (smoothed(masked, radius) < 255).sum() > (masked < 255).sum()  # the blur did spread the ink


@pytest.mark.parametrize("corner", [(0, 0), (-6, -6), (0, -6), (-6, 0)])
def test_ink_touching_the_page_edge_is_prepared_as_on_the_whole_page(corner):
    grey = np.full((300, 240), 255, dtype=np.uint8)
    y, x = corner
    grey[y:y + 6 if y else 6, x:x + 6 if x else 6] = 0
    grey[150, 100:104] = 90
    grey[40, 0:200] = 0  # a rule from the left edge
    assert np.array_equal(smoothed(grey, 0.8), _whole_blur(grey, 0.8))
    rgb = Image.fromarray(np.stack([grey] * 3, axis=2), mode="RGB")
    assert np.array_equal(np.asarray(prepare_for_tesseract(rgb, 150)), _prepared_whole_page(rgb, 150))


def test_a_blank_page_stays_blank():
    blank = np.full((120, 90), 255, dtype=np.uint8)
    assert np.array_equal(smoothed(blank, 0.8), blank)
    page = Image.new("RGB", (90, 120), (255, 255, 255))
    assert (np.asarray(prepare_for_tesseract(page, 300)) == 255).all()
