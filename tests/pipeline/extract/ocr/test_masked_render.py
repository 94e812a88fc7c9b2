"""The renders OCR reads are pdfium's own pixels, however they are made: `render_page` (scans, masked
pages) is `page.render(...).to_pil().convert("RGB")` pixel for pixel, and a masked page, cut out of
pdfium's buffer box by box, is the image and digest that pasting crops of the whole rendered page gives,
cut to the window around the kept boxes (`masked.window`), so Tesseract reads the whole masked page's
pixels there."""
from __future__ import annotations

import hashlib

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageDraw

from pipeline.extract.ocr import masked
from pipeline.extract.ocr.engine import render_page
from tests.fixtures import drawn_sheets as ds

CELLS = [f"{n}. {'ABCD'[(n * 3) % 4]}" for n in range(1, 13)]


@pytest.fixture(scope="module", params=["drawn key", "colour"])
def sheet(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp("masked")
    if request.param == "drawn key":
        return ds.drawn_key(folder / "key.pdf", "Answer key, form C", CELLS, text_face=ds.dejavu(), drawn_face=ds.dejavu())
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format="A4")  # colour, where red and blue swapped would show
    pdf.add_page()
    for at, (r, g, b) in enumerate([(220, 30, 30), (30, 60, 200), (240, 200, 20)]):
        pdf.set_fill_color(r, g, b)
        pdf.rect(60 + 150 * at, 95, 120, 40, style="F")
        pdf.set_text_color(b, g, r)
        pdf.set_font("helvetica", size=14)
        pdf.text(70 + 150 * at, 300, f"Option {'ABC'[at]}")
    path = folder / "colour.pdf"
    pdf.output(str(path))
    return path


def _whole_page_masked(document, request, dpi):
    """The masked image made from the whole page's PIL image (crop, paste, erase), cut to its window."""
    page = document[request.page - 1]
    image = page.render(scale=dpi / 72).to_pil().convert("RGB")
    page.close()
    scale = dpi / 72
    canvas = Image.new("RGB", image.size, (255, 255, 255))
    boxes = masked.pasted_boxes(request.keep, scale, *image.size)
    window = masked.window(boxes, *image.size)
    made = hashlib.sha256(repr((masked.MASKED_FORMAT, image.size, window)).encode())
    pasted = []
    for x0, top, x1, bottom in request.keep:
        pad = masked.KEEP_PAD_PT
        box = (max(0, int((x0 - pad) * scale)), max(0, int((top - pad) * scale)),
               min(image.width, int((x1 + pad) * scale) + 1), min(image.height, int((bottom + pad) * scale) + 1))
        if box[0] < box[2] and box[1] < box[3]:
            piece = image.crop(box)
            canvas.paste(piece, box[:2])
            made.update(repr(("paste", box)).encode())
            made.update(piece.tobytes())
            pasted.append(box)
    draw = ImageDraw.Draw(canvas)
    for x0, top, x1, bottom in request.erase:
        rectangle = (x0 * scale, top * scale, x1 * scale, bottom * scale)
        draw.rectangle(rectangle, fill=(255, 255, 255))
        if any(rectangle[0] - 1 < b[2] and b[0] < rectangle[2] + 1 and rectangle[1] - 1 < b[3] and b[1] < rectangle[3] + 1 for b in pasted):
            made.update(repr(("erase", rectangle)).encode())
    assert pasted == boxes
    image = np.asarray(canvas.crop(window))
    closed = masked.paper_rows([(b[1] - window[1], b[3] - window[1]) for b in boxes])
    if closed:
        made.update(repr(("closed", closed)).encode())
        image = np.delete(image, [row for at, count in closed for row in range(at, at + count)], axis=0)
    return Image.fromarray(image), made.hexdigest(), window[:2]


@pytest.mark.parametrize("dpi", [150, 200, 300])
def test_render_page_is_pdfiums_render_as_rgb(sheet, dpi):
    document = pdfium.PdfDocument(str(sheet))
    try:
        ours, width, height = render_page(document, 0, dpi)
        page = document[0]
        expected = page.render(scale=dpi / 72).to_pil().convert("RGB")
        assert (width, height) == page.get_size()
        page.close()
        assert (ours.mode, ours.size) == (expected.mode, expected.size)
        assert np.array_equal(np.asarray(ours), np.asarray(expected))
    finally:
        document.close()


@pytest.mark.parametrize("dpi", [150, 300])
def test_a_masked_page_is_the_whole_pages_crops_pasted_on_white(sheet, dpi):
    document = pdfium.PdfDocument(str(sheet))
    try:
        width, height = document[0].get_size()
        requests = [
            masked.MaskedRequest(1, keep=((60.0, 90.0, 300.0, 140.0), (0.5, 0.5, 40.0, 30.0), (width - 30, height - 20, width + 5, height + 5))),
            masked.MaskedRequest(1, keep=((50.0, 80.0, 500.0, 400.0),), erase=((100.0, 100.0, 180.0, 120.7), (600.0, 700.0, 610.0, 710.0), (0.3, 85.4, 590.0, 92.2))),
            masked.MaskedRequest(1, keep=((200.0, 200.0, 200.0, 200.0), (900.0, 900.0, 950.0, 950.0))),  # a point; off the page
        ]
        for request in requests:
            ours = masked._masked_image(document, request, dpi)
            image, digest, origin = _whole_page_masked(document, request, dpi)
            assert ours.digest == digest and ours.origin == origin
            assert (ours.image.mode, ours.image.size) == (image.mode, image.size)
            assert np.array_equal(np.asarray(ours.image), np.asarray(image))
            assert np.asarray(ours.image).min() < 255 or request is requests[2]  # the kept ink is there
    finally:
        document.close()


@pytest.mark.parametrize("dpi", [150, 300])
def test_a_masked_page_is_drawn_on_white_only_where_it_is_pasted_from(sheet, dpi, monkeypatch):
    """pdfium draws the masked page on a buffer filled white only inside the boxes pasted (a 300 dpi page is
    26 MB to fill, the boxes a few percent of it): the rest, left as it was (here a dark grey, where any pixel
    read outside the boxes would show), is never read, and the image and digest are the whole page's."""
    from pipeline.extract import rendering

    monkeypatch.setattr(rendering, "_unfilled", lambda shape: np.full(shape, 7, dtype=np.uint8))
    asked: list = []
    real = masked.render_on_white
    monkeypatch.setattr(masked, "render_on_white", lambda page, scale, read=None: asked.append(read) or real(page, scale, read=read))
    document = pdfium.PdfDocument(str(sheet))
    try:
        width, height = document[0].get_size()
        requests = [
            masked.MaskedRequest(1, keep=((60.0, 90.0, 300.0, 140.0), (0.5, 0.5, 40.0, 30.0), (width - 30, height - 20, width + 5, height + 5))),
            masked.MaskedRequest(1, keep=((50.0, 80.0, 500.0, 400.0),), erase=((100.0, 100.0, 180.0, 120.7), (0.3, 85.4, 590.0, 92.2))),
            masked.MaskedRequest(1, keep=((900.0, 900.0, 950.0, 950.0),)),  # off the page: nothing pasted, nothing filled
        ]
        for request in requests:
            ours = masked._masked_image(document, request, dpi)
            image, digest, origin = _whole_page_masked(document, request, dpi)
            assert ours.digest == digest and ours.origin == origin
            assert np.array_equal(np.asarray(ours.image), np.asarray(image))
            assert asked.pop() == masked.pasted_boxes(request.keep, dpi / 72, *_render_size(document, dpi))
    finally:
        document.close()


def _render_size(document, dpi):
    """The whole first page's render's pixels, as pdfium makes it."""
    page = document[0]
    try:
        return page.render(scale=dpi / 72).to_pil().size
    finally:
        page.close()
