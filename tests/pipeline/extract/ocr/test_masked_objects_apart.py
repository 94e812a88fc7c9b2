"""A masked page is drawn without the page objects that paint nothing in its kept boxes
(`rendering.drop_objects_apart`): its pixels, and so its digest and its reading, are the whole page's
crops pasted on white (`test_masked_render`'s reference) on a busy page (text-layer lines, photos, thick
strokes and filled bars ending a point from the drawn lines); a turned page, or one whose crop box does
not start at the origin, is drawn whole. The drawn lines of such a page read as drawn."""
from __future__ import annotations

import numpy as np
import pypdf
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.extract import ExtractOptions, extract_document, inked
from pipeline.extract.ocr import OcrSettings, masked
from pipeline.extract.rendering import drop_objects_apart
from pipeline.devkit.sample.outlines import draw_outlined_text
from tests.fixtures import drawn_sheets as ds
from tests.pipeline.extract.ocr.builders import needs_tesseract
from tests.pipeline.extract.ocr.test_masked_render import _whole_page_masked

DRAWN = ["Part two: answers", "Write 42 kg and 7 cm"]
SIZE = 13.0
BASELINES = [300.0, 324.0]


def _busy_page(path, photo_path):
    pdf = ds._pdf()
    for number in range(30):  # the text layer above and below the drawn lines
        top = 50 + number * 24 if number < 9 else 380 + (number - 9) * 20
        ds._text(pdf, f"Line {number} of the text layer, set in a font with its Unicode map", 60, top, ds.dejavu(), 10)
    rng = np.random.default_rng(7)
    Image.fromarray(rng.integers(0, 255, (60, 90, 3), dtype=np.uint8)).save(photo_path)
    pdf.image(str(photo_path), x=330, y=270, w=120, h=80)  # a photo beside the drawn lines
    pdf.image(str(photo_path), x=420, y=700, w=90, h=60)  # and one far off
    pdf.set_line_width(6)
    pdf.line(40, 250, 250, 250)  # a thick stroke ending just above the drawn lines' boxes
    pdf.line(60, 345, 60, 420)
    pdf.set_fill_color(90, 140, 220)
    pdf.rect(20, 286, 36, 10, style="F")  # a bar ending a point left of them
    pdf.rect(470, 60, 80, 30, style="F")
    for text, baseline in zip(DRAWN, BASELINES):
        draw_outlined_text(pdf, text, 60, baseline, SIZE, ds.dejavu().path)
    pdf.output(str(path))
    return path


@pytest.fixture(scope="module")
def busy(tmp_path_factory):
    folder = tmp_path_factory.mktemp("apart")
    return _busy_page(folder / "busy.pdf", folder / "photo.png")


def _requests():
    lines = tuple((58.0, b - SIZE, 200.0, b + 4) for b in BASELINES)
    return [
        masked.MaskedRequest(1, keep=lines),
        masked.MaskedRequest(1, keep=lines[:1], erase=((100.0, 40.0, 300.0, 62.0),)),
        masked.MaskedRequest(1, keep=((320.0, 260.0, 460.0, 360.0), (470.0, 60.0, 550.0, 90.0))),  # the photo, a bar
    ]


def _turned(source, tmp_path, *, rotate=0, crop=None):
    writer = pypdf.PdfWriter(clone_from=str(source))
    page = writer.pages[0]
    if rotate:
        page.rotate(rotate)
    if crop:
        page.cropbox = pypdf.generic.RectangleObject(crop)
    path = tmp_path / f"turned-{rotate}-{bool(crop)}.pdf"
    writer.write(str(path))
    return path


@pytest.mark.parametrize("dpi", [150, 300])
def test_a_busy_pages_masked_image_is_the_whole_pages_crops(busy, dpi):
    document = pdfium.PdfDocument(str(busy))
    try:
        for request in _requests():
            page = document[0]
            objects = pdfium.raw.FPDFPage_CountObjects(page.raw)
            dropped = drop_objects_apart(page, request.keep, masked.APART_MARGIN_PT)
            page.close()
            assert 0 < dropped < objects  # most of the page is taken out, what reaches the boxes stays
            ours = masked._masked_image(document, request, dpi)
            image, digest, origin = _whole_page_masked(document, request, dpi)
            assert ours.digest == digest and ours.origin == origin
            assert np.array_equal(np.asarray(ours.image), np.asarray(image))
            assert np.asarray(ours.image).min() < 128  # the kept ink is there
    finally:
        document.close()


@pytest.mark.parametrize("rotate, crop", [(90, None), (0, (20, 30, 580, 820))])
def test_a_turned_or_shifted_page_is_drawn_whole(busy, tmp_path, rotate, crop):
    path = _turned(busy, tmp_path, rotate=rotate, crop=crop)
    document = pdfium.PdfDocument(str(path))
    try:
        page = document[0]
        assert drop_objects_apart(page, _requests()[0].keep, masked.APART_MARGIN_PT) == 0
        page.close()
        for request in _requests():
            ours = masked._masked_image(document, request, 200)
            image, digest, _ = _whole_page_masked(document, request, 200)
            assert ours.digest == digest and np.array_equal(np.asarray(ours.image), np.asarray(image))
    finally:
        document.close()


@needs_tesseract("eng")
def test_the_drawn_lines_of_a_busy_page_read_as_drawn(busy):
    document = extract_document(busy, "0" * 64, ExtractOptions(ocr=OcrSettings(languages=("eng",))))
    read = [line.text for line in document.pages[0].lines if line.ocr]
    assert read == DRAWN
    assert inked.drawn_text_boxes(pdfium.PdfDocument(str(busy))[0])  # found by the check, not by chance
