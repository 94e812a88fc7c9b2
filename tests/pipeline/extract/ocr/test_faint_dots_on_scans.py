"""`faint-dots` on soft scans of small type: a date's or an abbreviation's dot that the page's whitening made paper
(`26 12 2028`, `art 7`) is put back where the page before whitening shows a dot on the number's baseline; numbers
printed with spaces keep their spaces. Pages are drawn in Debian's faces with fpdf2,
rasterised by `sample` at 156 and 160 dpi and read as a season run reads a 300 dpi scan, by the installed
Tesseract, every pass run (or every pass but `faint-dots`, to show what the whitening loses)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.devkit.accentfamilies import Face
from pipeline.extract.ocr.faintdots import faint_dots
from tests.pipeline.extract.ocr.builders import needs_tesseract, read_scanned_prose

SANS = Face("sans", "liberation/LiberationSans-Regular.ttf", 7.5)
NARROW = Face("narrow", "liberation/LiberationSansNarrow-Regular.ttf", 8)
DATED = ("El plazo vence el 26.12.2028 y el recurso del 14.04.1999 se resolvió el 3.06.2024 según la ley. "
         "Los hechos del 22.08.1992 y del 19.10.1993 constan en el acta del 12.04.2007 firmada por el juez. ")
SPACED = "Las cajas 26 12 2028 y 14 04 1999 llevan números separados, y la dosis es de 1,5 mg o de 2,25 mg al día. "  # a decimal comma's tail is whitened too: Tesseract reads `1.5` with or without the pass
DOTTED_NUMBER = re.compile(r"^\d+(\.\d+)+$")


def read(tmp_path: Path, text: str, face: Face, scan: str, disabled: tuple[str, ...] = ()) -> list[str]:
    return [w.rstrip(".,;:") if w.count(".") > 1 or w[-1:] in ",;:" else w
            for w in read_scanned_prose(tmp_path, text, face, scan, "spa", disabled)]


def dates(words: list[str]) -> list[str]:
    return [w for w in words if DOTTED_NUMBER.match(w)]


PRINTED_DATES = ["26.12.2028", "14.04.1999", "3.06.2024", "22.08.1992", "19.10.1993", "12.04.2007"]


@needs_tesseract("spa")
@pytest.mark.parametrize("face, scan", [(SANS, "156/0.9/73"), (NARROW, "160/0.85/75")], ids=["sans7.5@156", "narrow8@160"])
def test_dates_whose_dots_the_whitening_took_are_read_with_their_dots(tmp_path, face, scan):
    text = DATED * 2
    without = dates(read(tmp_path, text, face, scan, disabled=("faint-dots",)))
    found = dates(read(tmp_path, text, face, scan))
    # The whitening takes most of the dots at these settings: the dates are read as loose numbers.
    assert len([d for d in without if d in PRINTED_DATES]) <= 2  # 0 and 1 of 12 when measured
    assert len([d for d in found if d in PRINTED_DATES]) >= 6  # 10 and 7 when measured; a date whose digits touch stays



@needs_tesseract("spa")
def test_numbers_printed_with_spaces_keep_their_spaces(tmp_path):
    with_pass = read(tmp_path, SPACED * 4, SANS, "156/0.9/73")
    assert with_pass == read(tmp_path, SPACED * 4, SANS, "156/0.9/73", disabled=("faint-dots",))
    assert not any(re.match(r"^(26|14)\.", w) for w in with_pass)
    assert with_pass.count("2028") >= 3 and with_pass.count("1999") >= 3


def test_a_lone_grey_dot_on_the_baseline_between_two_numbers_joins_them_and_a_space_after_it_keeps_them_apart():
    import numpy as np

    from pipeline.extract.ocr.words import Word

    page = np.full((60, 200), 250, dtype=np.uint8)
    page[20:43, 10:40] = 40  # "26", 23 px tall
    page[20:43, 52:82] = 40  # "12"
    page[39:44, 44:49] = 175  # a dot the whitening (> 170) would take, on the baseline at 43
    page[20:43, 120:150] = 40  # "7"
    page[20:43, 175:195] = 40  # "de", a word space after "7"
    words = [Word("26", 90, 10, 20, 40, 43, (1, 1, 1)), Word("12", 90, 52, 20, 82, 43, (1, 1, 1)),
             Word("7", 90, 120, 20, 150, 43, (1, 1, 1)), Word("de", 90, 175, 20, 195, 43, (1, 1, 1))]
    mended, changes = faint_dots(words, page)
    assert [w.text for w in mended] == ["26.12", "7", "de"]
    assert changes == ["26 12 → 26.12"]
    page[30:35, 44:49] = 175  # the same blob standing at mid-height: a hyphen's or a letter's, not a dot
    page[39:44, 44:49] = 250
    assert [w.text for w in faint_dots(words, page)[0]] == ["26", "12", "7", "de"]
