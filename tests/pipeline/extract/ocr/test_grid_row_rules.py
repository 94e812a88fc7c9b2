"""A grid key's answer row read between its rules: the last row of an FGV key (pale letters in ruled boxes, white
below the table, the number bar's soft edge caught in the band's first row) keeps its box's rules out of every cell's
crop. The cell rules ink every row of the band, so a rule across (or a fill's edge inked over half the width) stood
joined to the letters by them, and each cell went to Tesseract with a line above and below its letter: OAB 2016's
last key row at 205/0.6/77 read `B ? B A D A ? D …` for `D B B A D A B D …`."""
from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr.gridcells import CELL_GAP, VOIDED_MARKS, _read_row
from tests.pipeline.extract.ocr.builders import needs_tesseract

FONT = "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf"
LETTERS = "DBBADABDDBDABDADDCAD"  # OAB 2016's row 61-80
CELL, HEIGHT = 113, 112  # px at 300 dpi: a cell's pitch, and the band of a key's last row (1.3 number-row heights)
TOP_GLYPH, CAP = 21, 42  # the letters' rows in the band
BOTTOM_RULE = 83  # the box's bottom rule; white below it, where the table ends


def _last_row(path: Path, edge_share: float, ruled: bool = True) -> Image.Image:
    """A scanned last row of a grid key: pale grey letters in ruled boxes; the band's first row is the number bar's
    soft edge inked over `edge_share` of its width; the bottom rule, then white to the band's foot; blurred as a scan.
    Not `ruled`: the letters alone on white."""
    rule = 20 if ruled else 255
    width = 20 + CELL * len(LETTERS)
    image = Image.new("L", (width, HEIGHT), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 58)
    for i, letter in enumerate(LETTERS):
        left = 10 + CELL * i
        draw.rectangle((left, 0, left + 1, BOTTOM_RULE + 1), fill=rule)  # the cell rule left of the box
        box = draw.textbbox((0, 0), letter, font=font)
        x = left + (CELL - (box[2] - box[0])) / 2 - box[0]
        draw.text((x, TOP_GLYPH - box[1]), letter, font=font, fill=150)
    right = 10 + CELL * len(LETTERS)
    draw.rectangle((right, 0, right + 1, BOTTOM_RULE + 1), fill=rule)
    draw.rectangle((10, BOTTOM_RULE, right + 1, BOTTOM_RULE + 1), fill=rule)  # the bottom rule, across
    for left in range(10, right, 40):  # the bar's edge: dark dashes over `edge_share` of the row
        draw.line((left, 0, left + round(40 * edge_share), 0), fill=40 if ruled else 255)
    image = image.filter(ImageFilter.GaussianBlur(0.8))
    image.save(path)
    return image


@needs_tesseract("por")
def test_a_grid_keys_last_row_is_read_between_its_rules(tmp_path):
    grey = _last_row(tmp_path / "row.png", 0.55)
    words = _read_row(grey, (0, 0, grey.width, HEIGHT), CELL_GAP, "ABCD" + VOIDED_MARKS, ("por",), 300, 1, tmp_path / "row.pgm")
    # The crops reach from just above the capitals to just below them: neither rule is in any cell.
    assert all(0 < w.top <= TOP_GLYPH and TOP_GLYPH + CAP <= w.bottom < BOTTOM_RULE for w in words), [(w.top, w.bottom) for w in words]
    assert "".join(w.text for w in words) == LETTERS
    assert min(w.conf for w in words) >= 80  # read sure: in crops with the rules the Bs came back at 24-54, unsure
    # A row without rules is cropped to its letters as before.
    plain = _last_row(tmp_path / "plain.png", 0.55, ruled=False)
    words = _read_row(plain, (0, 0, plain.width, HEIGHT), CELL_GAP, "ABCD" + VOIDED_MARKS, ("por",), 300, 1, tmp_path / "plain.pgm")
    assert all(TOP_GLYPH - 4 <= w.top <= TOP_GLYPH and TOP_GLYPH + CAP <= w.bottom <= TOP_GLYPH + CAP + 5 for w in words)
    assert "".join(w.text for w in words) == LETTERS
