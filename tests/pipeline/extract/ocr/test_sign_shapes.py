"""The `sign-shapes` pass: a multiplication sign and a micro sign that Tesseract read as Latin letters (`3 x 4`,
`47000/ul`, `250 Hg`) written as the signs their ink shows, and the letters printed in their place (`10 x 20 cm`,
`45 pg`, `12 ug`) left as printed. Lines are drawn in Debian's faces (Liberation's Times- and Arial-like faces,
DejaVu), softened as a 150 and a 200 dpi scan are; the words' boxes are their ink's, as Tesseract gives them, and their
text what a scan was read as."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.signshapes import sign_shapes
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.drawnlines import FONT_DIR, drawn_line

FONTS = [FONT_DIR / "liberation/LiberationSerif-Regular.ttf", FONT_DIR / "liberation/LiberationSans-Regular.ttf",
         FONT_DIR / "dejavu/DejaVuSans.ttf", FONT_DIR / "dejavu/DejaVuSerif.ttf"]
# (pixels a 10 pt line's size is, blur): a 150 dpi scan at blur 0.8 and a 200 dpi one at 0.6, as rendered.
SCANS = [(21, 0.8), (28, 0.6), (42, 1.6)]


def read_as(words: list[Word], texts: dict[int, str]) -> list[Word]:
    return [Word(texts.get(i, w.text), w.conf, w.left, w.top, w.right, w.bottom, w.line) for i, w in enumerate(words)]


def mended(scanned: np.ndarray, words: list[Word]) -> list[str]:
    return [w.text for w in sign_shapes(words, scanned)[0]]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}px")
@pytest.mark.parametrize("font", FONTS[:2], ids=lambda p: p.stem)
def test_a_multiplication_sign_read_as_the_letter_x_is_the_sign(font: Path, scan: tuple[int, float]):
    # Liberation (Times-, Arial-like) sets the sign on the mathematical axis, a fifth of a cap height over the baseline.
    printed = ["Presión", "arterial", "de", "130", "×", "90", "mmHg", "y", "tumor", "de", "2,0", "×", "1,9", "cm", "o", "7×8"]
    scanned, words = drawn_line(printed, font, *scan)
    assert mended(scanned, read_as(words, {4: "x", 11: "X", 15: "7x8"})) == printed


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}px")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_letter_x_printed_between_numbers_stays_a_letter(font: Path, scan: tuple[int, float]):
    printed = ["La", "caja", "mide", "10", "x", "20", "cm", "y", "la", "sala", "6", "x", "9", "metros"]
    scanned, words = drawn_line(printed, font, *scan)
    assert mended(scanned, words) == printed
    assert mended(scanned, read_as(words, {4: "×"})) == printed  # the letter read as the sign goes back to the letter


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}px")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_micro_sign_read_as_a_latin_letter_before_a_unit_is_the_sign(font: Path, scan: tuple[int, float]):
    printed = ["plaquetas", "47000/μl,", "leucocitos", "12000/μL", "con", "250", "μg", "de", "fármaco", "y", "3", "μm"]
    scanned, words = drawn_line(printed, font, *scan)
    misread = read_as(words, {1: "47000/pl,", 3: "12000/uL", 6: "Hg", 11: "um"})
    assert mended(scanned, misread) == printed


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s[0]}px")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_the_letters_a_micro_sign_is_read_as_stay_where_they_are_printed(font: Path, scan: tuple[int, float]):
    # A `p` has a descender too, but its bowl closes its top; a `u` is open at its top but has no descender.
    printed = ["Hay", "45", "pg", "de", "toxina,", "3", "pl", "de", "suero", "y", "12", "ug", "de", "sal", "a", "las", "5", "pm"]
    scanned, words = drawn_line(printed, font, *scan)
    assert mended(scanned, words) == printed


@pytest.mark.parametrize("font", FONTS[:1], ids=lambda p: p.stem)
def test_words_away_from_numbers_are_not_looked_at(font: Path):
    printed = ["El", "grupo", "ug", "y", "la", "x", "del", "eje", "pl", "un"]
    scanned, words = drawn_line(printed, font, 28, 0.6)
    assert mended(scanned, read_as(words, {2: "ug"})) == printed


def test_the_pass_runs_after_the_small_glyphs_and_before_the_labels_are_mended():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("small-glyphs") < names.index("sign-shapes") < names.index("glued-labels")
