"""Label letters read in strips against a whitelist of the labels (`keycells.read_label_cells`), whoever
calls it (key cells, table cells, label discs): what Tesseract's whitelist reading does to a script's
labels is handled there, once."""
from __future__ import annotations

import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.extract.ocr.keycells import read_label_cells
from tests.pipeline.extract.ocr.builders import needs_tesseract

HANGUL = ["가", "나", "다", "라"]


@needs_tesseract("kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_a_strip_of_hangul_labels_is_read_whole_though_the_whitelist_leaves_out_the_space(tmp_path):
    # Under a whitelist of the labels alone, Tesseract's Korean model reads every label of a line right but
    # reports each after the first at confidence 0 ("가" 90, "나" 0, "다" 0): all were refused, and one or two
    # of the nine read. A strip that reads some and leaves most unread is read again with the space allowed.
    printed = "나라가나다라가다나"
    cell = 100
    image = Image.new("L", (cell * len(printed), cell), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(cjk_font()), 60)
    for i, label in enumerate(printed):
        draw.text((i * cell + 20, 10), label, font=font, fill=0)
    boxes = [(i * cell, 0, (i + 1) * cell, cell) for i in range(len(printed))]
    readings = read_label_cells(image, boxes, HANGUL, 40, ["kor"], 300, 1, tmp_path / "labels.pgm")
    assert "".join(readings.get(i, ("?", 0.0))[0] or "?" for i in range(len(printed))) == printed
