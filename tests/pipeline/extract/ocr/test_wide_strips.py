"""Key cells read in strips: a table too wide for one Tesseract line is read in several, never refused."""
from __future__ import annotations

from PIL import Image, ImageDraw, ImageFont

from pipeline.devkit.sample.pdfgen import font_dir
from pipeline.extract.ocr.engine import MAX_STRIP_WIDTH, read_strip
from pipeline.extract.ocr.keycells import read_label_cells
from tests.pipeline.extract.ocr.builders import needs_tesseract

pytestmark = needs_tesseract("eng")
LETTERS = "ABCD"


def _row_of_cells(count: int, cell: int = 90) -> tuple[Image.Image, list[tuple[int, int, int, int]], str]:
    """A grey image of `count` cells side by side, each holding one letter; the cells' boxes; the letters."""
    image = Image.new("L", (count * cell, cell), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(font_dir() / "DejaVuSans.ttf"), 48)
    printed = "".join(LETTERS[(i * 7 + i // 3) % 4] for i in range(count))
    for i, letter in enumerate(printed):
        draw.text((i * cell + 28, 18), letter, font=font, fill=0)
    return image, [(i * cell, 0, (i + 1) * cell, cell) for i in range(count)], printed


def test_a_strip_wider_than_tesseract_takes_is_read_in_parts(tmp_path):
    # 420 cells of 90 px with a 90 px gap: a strip of 75 690 px, more than twice what Tesseract accepts.
    image, boxes, printed = _row_of_cells(420)
    offsets, words = read_strip(image, boxes, 90, ["eng"], 300, 1, tmp_path / "strip.pgm", "ABCD", binarise=False)
    assert offsets == [90 + i * 180 for i in range(420)]  # as if in one strip
    assert max(w.right for w in words) > 4 * MAX_STRIP_WIDTH  # words come back from every part
    read = "".join(w.text for w in sorted(words, key=lambda w: w.left))
    assert len(read) >= 0.95 * len(printed)


def test_every_cell_of_a_wide_key_row_is_read_as_its_label(tmp_path):
    image, boxes, printed = _row_of_cells(300)
    readings = read_label_cells(image, boxes, LETTERS, 90, ["eng"], 300, 1, tmp_path / "cells.pgm")
    read = "".join(readings.get(i, ("?", 0.0))[0] or "?" for i in range(len(boxes)))
    assert sum(a == b for a, b in zip(read, printed)) >= 0.97 * len(printed), read
