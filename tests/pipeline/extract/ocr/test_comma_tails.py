"""The `comma-tails` pass: a period Tesseract read where the print has a comma is put back as a comma where a word
of small letters follows on the line and the mark's tail hangs below the baseline; a real period stays.
Lines are drawn in a real typeface, softened as a 150 dpi scan with blur 0.8 is, and measured from the ink."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from pipeline.extract.ocr.commas import TAIL_FROM, commas_read_as_periods, low_marks
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.words import Word

FONTS = [Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"), Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
         Path("/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf")]


def drawn_line(tokens: list[str], font_path: Path, *, size: int = 42, blur: float = 1.6) -> tuple[np.ndarray, list[Word]]:
    """`tokens` drawn as one line at `size` px (a 10 pt line at 300 dpi) and blurred (a 150 dpi scan at blur 0.8,
    rendered at 300 dpi); the words' boxes are their ink's, as Tesseract gives them."""
    if not font_path.is_file():
        pytest.skip(f"{font_path} not installed")
    font = ImageFont.truetype(str(font_path), size)
    image = Image.new("L", (60 + 40 * sum(len(t) + 1 for t in tokens), 3 * size), 255)
    draw = ImageDraw.Draw(image)
    words, x = [], 30
    for token in tokens:
        left, top, right, bottom = draw.textbbox((x, size), token, font=font)
        draw.text((x, size), token, font=font, fill=0)
        words.append(Word(token, 93.0, left, top, right, bottom, (1, 1, 1)))
        x = right + int(0.3 * size)
    grey = np.asarray(image.filter(ImageFilter.GaussianBlur(blur)))
    return grey, words


def as_read(words: list[Word], at: int, text: str) -> list[Word]:
    return [Word(text, w.conf, w.left, w.top, w.right, w.bottom, w.line) if i == at else w for i, w in enumerate(words)]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_comma_read_as_a_period_before_a_small_letter_is_a_comma_again(font: Path):
    grey, words = drawn_line(["Política", "Exterior,", "los", "embajadores"], font)
    misread = as_read(words, 1, "Exterior.")
    assert [w.text for w in commas_read_as_periods(misread, grey)] == ["Política", "Exterior,", "los", "embajadores"]


@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_printed_period_stays_a_period_even_before_a_small_letter(font: Path):
    grey, words = drawn_line(["Presidencia.", "los", "ministros"], font)
    assert [w.text for w in commas_read_as_periods(words, grey)] == ["Presidencia.", "los", "ministros"]
    marks = low_marks(grey, words[0], 42.0)
    assert marks and marks[-1].depth < TAIL_FROM


def test_before_a_capital_only_a_clear_tail_makes_a_comma_and_a_label_stays():
    """Where the next word allows either mark (a capital, the line's end) the ink alone decides; `b)` is a label."""
    font = FONTS[2]
    grey, words = drawn_line(["Exterior,", "Los", "Presidencia.", "Justicia", "b)", "etc,", "los"], font)
    misread = as_read(as_read(words, 0, "Exterior."), 5, "etc.")
    read = commas_read_as_periods(misread, grey)
    assert [w.text for w in read] == ["Exterior,", "Los", "Presidencia.", "Justicia", "b)", "etc,", "los"]
    assert not any(w.unsure_mark for w in read)


def test_the_pass_is_registered_with_a_version_and_a_condition():
    names = [p.name for p in PAGE_PASSES]
    assert "comma-tails" in names and names.index("recognise") < names.index("comma-tails")
    assert not PAGE_PASSES[names.index("comma-tails")].required
