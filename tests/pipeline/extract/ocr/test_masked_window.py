"""Parts of a text page are read in the window around them (`masked.window`), the wide stretches of bare
paper between them taken out (`masked.paper_rows`), not on the whole white page: Tesseract's cost follows
the pixels it is handed, and the rest of the page is paper. The words read there, put back in place, are
the words the whole masked page reads: same text, boxes, confidences, lines and sizes, for drawn text near
every edge and corner of the page, regions far apart, glyphs without a Unicode map, at 150 and 300 dpi."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image

from pipeline.devkit.sample.outlines import draw_outlined_text
from pipeline.extract import inked
from pipeline.extract.ocr import OcrSettings, masked
from pipeline.extract.ocr.pagepasses import read_page
from tests.fixtures import drawn_sheets as ds
from tests.pipeline.extract.ocr.builders import needs_tesseract

A4_WIDTH, A4_HEIGHT = 595.28, 841.89


CORNERS = [  # drawn lines in the four corners and the middle of an A4 page, a few points from its edges
    ("Form B, first page", 4, 14),
    ("12. C  13. A", A4_WIDTH - 90, 16),
    ("Reference 4471", 6, A4_HEIGHT - 5),
    ("Page 1 of 9", A4_WIDTH - 70, A4_HEIGHT - 4),
    ("Begin when you are told to.", 200, 420),
]
EDGE = [("Answers: 1 B 2 D 3 A", A4_WIDTH - 130, 600), ("Keep this sheet", A4_WIDTH - 100, A4_HEIGHT - 6)]  # by the right edge


def _drawn_page(path, lines):
    pdf = ds._pdf()
    ds._text(pdf, "Instructions in the text layer", 60, 60, ds.dejavu())
    for text, x, baseline in lines:
        draw_outlined_text(pdf, text, x, baseline, 11, ds.dejavu().path)
    pdf.output(str(path))
    return path


def _unmapped_page(path):
    rows = [
        [("1. Given the function ", False), ("f(x) = 3x + 7", True), (" find its value.", False)],
        [("2. The mean is ", False), ("45", True), (" in every case.", False)],
    ]
    return ds.mixed_fonts(path, rows, face=ds.dejavu(), unmapped_face=ds.dejavu(ds.SERIF), top=700)


def _requests(path) -> list[masked.MaskedRequest]:
    """What the stage asks of page 1: its drawn text's regions, or its unmapped spans."""
    from pipeline.extract.glyphs import page_glyphs

    document = pdfium.PdfDocument(str(path))
    try:
        page = document[0]
        textpage = page.get_textpage()
        glyphs = page_glyphs(page, textpage, False).to_glyphs()
        textpage.close()
        spans = inked.unmapped_spans(glyphs)
        drawn = inked.drawn_text_boxes(page)
        page.close()
    finally:
        document.close()
    erase = tuple((g.x0, g.top, g.x1, g.bottom) for g in glyphs if not g.unmapped)
    if spans:
        return [masked.MaskedRequest(1, tuple(spans), erase)]
    return [masked.MaskedRequest(1, tuple(inked.regions(drawn)), erase)]


def _rows_put_back(made: masked.MaskedImage) -> Image.Image:
    """The window as the page holds it: the rows of paper taken out put back, white."""
    pixels = np.asarray(made.image)
    rows = [row + sum(count for at, count in made.closed if row >= at) for row in range(pixels.shape[0])]
    window = np.full((rows[-1] + 1, pixels.shape[1], 3), 255, dtype=np.uint8)
    window[rows] = pixels
    return Image.fromarray(window)


def _key(word, dx: int = 0, dy: int = 0):
    return (word.text, word.left + dx, word.top + dy, word.right + dx, word.bottom + dy, word.size, word.bold, word.line, word.conf)


@needs_tesseract("eng")
@pytest.mark.parametrize(("kind", "dpi"), [("drawn corners", 300), ("drawn by an edge", 150), ("drawn by an edge", 300),
                                           ("unmapped spans", 150), ("unmapped spans", 300)])
def test_the_window_reads_what_the_whole_masked_page_reads(tmp_path, kind, dpi):
    if kind == "unmapped spans":
        path = _unmapped_page(tmp_path / "unmapped.pdf")
    else:
        path = _drawn_page(tmp_path / "drawn.pdf", CORNERS if kind == "drawn corners" else EDGE)
    requests = _requests(path)
    assert requests and requests[0].keep
    settings = OcrSettings(languages=("eng",), dpi=dpi, deskew=False, parts_only=True)
    document = pdfium.PdfDocument(str(path))
    try:
        made = masked._masked_image(document, requests[0], dpi)
    finally:
        document.close()
    width, height = made.page_size
    assert made.image.width * made.image.height < 0.75 * width * height or kind == "drawn corners"
    whole = Image.new("RGB", (width, height), (255, 255, 255))
    whole.paste(_rows_put_back(made), made.origin)
    if kind != "unmapped spans":
        assert made.closed  # lines far apart: the paper between them is not read
    on_the_page = read_page(whole, settings, page_number=1)
    in_the_window = made.in_page(read_page(made.image, settings, page_number=1))
    assert [_key(w) for w in in_the_window.words] == [_key(w) for w in on_the_page.words]
    assert (in_the_window.confidence, in_the_window.image_width, in_the_window.image_height) == (
        on_the_page.confidence, on_the_page.image_width, on_the_page.image_height)
    read = " ".join(w.text for w in in_the_window.words)
    expected = {"drawn corners": ["Form", "Page", "Begin", "4471"], "drawn by an edge": ["Answers:", "Keep"], "unmapped spans": ["3x", "45"]}[kind]
    assert all(part in read for part in expected), read
    # and `read_masked`, which reads the window, places the same words on the page in points
    placed = masked.read_masked(path, requests, replace(settings, deskew=True, parts_only=False))
    assert [(w.text, w.x0, w.top) for w in placed[1]] == [(w.text, w.left * (72.0 / dpi), w.top * (72.0 / dpi)) for w in on_the_page.words]


def test_the_window_is_the_kept_boxes_with_a_margin_on_the_grid_within_the_page():
    boxes = [(300, 500, 420, 540), (1000, 90, 1100, 130)]
    left, top, right, bottom = masked.window(boxes, 2481, 3508)
    assert left % masked.CROP_GRID_PX == 0 and top % masked.CROP_GRID_PX == 0
    assert 300 - left >= masked.CROP_MARGIN_PX and top == 0  # 90 px from the top edge: the margin is cut there
    assert (right, bottom) == (1100 + masked.CROP_MARGIN_PX, 540 + masked.CROP_MARGIN_PX)
    assert masked.window([(5, 3, 2480, 3507)], 2481, 3508) == (0, 0, 2481, 3508)  # never past the page


def test_only_wide_stretches_of_paper_are_taken_out_and_in_whole_grid_steps():
    margin, grid = masked.CROP_MARGIN_PX, masked.CROP_GRID_PX
    assert masked.paper_rows([(128, 200), (200 + 2 * margin + grid - 1, 900)]) == []  # too narrow to take a step out
    closed = masked.paper_rows([(1500, 1600), (128, 200), (150, 300), (1000, 1100)])
    assert closed == [(300 + margin, (1000 - 300 - 2 * margin) // grid * grid), (1100 + margin, (1500 - 1100 - 2 * margin) // grid * grid)]
    assert all(count % grid == 0 and count > 0 for _, count in closed)

