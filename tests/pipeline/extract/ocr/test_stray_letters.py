"""The `stray-letters` pass: a letter Tesseract read into the white between two cells of a row of options, where the
scan holds no ink or a speck's, is dropped; a printed one-letter word stays wherever it stands, at every scan, pale
print (a grid key's answers) and a key page's letters under a text height its heading and junk set included.
Rows are drawn in real typefaces at 150-300 dpi with blur and grain (`strayrows`), as the grey page not whitened."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.strayletters import stray_letters
from pipeline.extract.ocr.words import INK_BELOW, Word

from tests.pipeline.extract.ocr.strayrows import FONTS, SCANS, Scan, drawn_grey, text_height

ROW = "A) veriyorsunuz     B) kizarasiya     C) anlaşamadı     D) cuval"


def ghost_before(words: list[Word], label: str, scan: Scan, text: str = "o") -> tuple[list[Word], Word]:
    """A ghost `text` read in the wide white before `label`, as Tesseract boxed it: the line's height, 0.4 em wide,
    a third of the way across the gap."""
    at = next(i for i, w in enumerate(words) if w.text == label)
    before, after = words[at - 1], words[at]
    left = before.right + (after.left - before.right) // 3
    ghost = Word(text, 9.9, left, before.top, left + int(0.4 * scan.size), before.bottom, (1, 1, 1))
    return words[:at] + [ghost] + words[at:], ghost


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_letter_read_into_a_rows_wide_white_is_dropped(font: Path, scan: Scan):
    page, words = drawn_grey(ROW, font, scan)
    read, ghost = ghost_before(words, "D)", scan)
    kept, dropped = stray_letters(read, page, text_height(words))
    assert [w.text for w in kept] == [w.text for w in words] and dropped == ["o"]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
def test_a_letter_read_from_a_speck_is_dropped_and_one_read_alike_by_the_second_reader_stays(scan: Scan):
    page, words = drawn_grey(ROW, FONTS[0], scan)
    read, ghost = ghost_before(words, "C)", scan)
    speck = page.copy()
    cy, cx = (ghost.top + ghost.bottom) // 2, (ghost.left + ghost.right) // 2
    speck[cy : cy + 2, cx : cx + 2] = 0  # a speck of dust: two pixels each way
    assert [w.text for w in stray_letters(read, speck, text_height(words))[0]] == [w.text for w in words]
    confirmed = [replace(w, second="o") if w is ghost else w for w in read]
    assert [w.text for w in stray_letters(confirmed, page, text_height(words))[0]] == [w.text for w in read]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_printed_one_letter_words_stay_in_a_row_and_in_prose(font: Path, scan: Scan):
    """`a`, `o`, `i`, `w`, `z`, `y` (Spanish, Portuguese, Polish, Italian one-letter words) alone in a row's cell, each
    between wide whites, and inside a sentence."""
    for text in ("A) a     B) o     C) i     D) w     E) z     F) y",
                 "Kot i pies w domu, a ptak z klatki o świcie y nada więcej"):
        page, words = drawn_grey(text, font, scan, seed=7)
        assert stray_letters(words, page, text_height(words) if any(len(w.text) >= 3 for w in words) else 0.9 * scan.size) \
            == (words, [])


KEY_ROW = "D     A     B     C     D     A"  # a grid key's answer row: one letter a cell, the cells far apart


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_grid_keys_pale_answers_are_ink_and_stay(font: Path, scan: Scan):
    """The FGV and INEP keys print their answers grey (165) under the numbers' dark bars: no pixel of them is as dark
    as the page's black ink mask (`INK_BELOW`), but every one is print. A ghost in a wide white of a row of options
printed as pale still goes."""
    page, words = drawn_grey(KEY_ROW, font, scan, seed=3, shade=165)
    assert not (page < INK_BELOW).any()  # what version 1 took for the page's ink: none at all
    assert stray_letters(words, page, 0.9 * scan.size) == (words, [])
    options, option_words = drawn_grey(ROW, font, scan, seed=3, shade=165)  # a row of options printed as pale
    read, _ = ghost_before(option_words, "D)", scan)
    assert stray_letters(read, options, text_height(option_words)) == (option_words, ["o"])


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
def test_a_key_pages_letters_stay_when_its_heading_and_junk_set_a_text_height_far_above_them(scan: Scan):
    """On a list key the words of 3+ letters are its heading and junk read in its margins: their median height was
    399 px on a 300 dpi page whose answers are 30 px tall, and 0.3 of it made every answer, alone on its line (nothing
    beside it to stand apart from), speck-sized. A letter is measured by its own box too; a ghost's box, which holds no
    ink, still goes."""
    page, drawn = drawn_grey(KEY_ROW, FONTS[0], scan, seed=5)
    words = [replace(w, line=(1, 1, i)) for i, w in enumerate(drawn)]  # each answer a line of its own, as `listcells` writes it
    tall = 13.0 * scan.size
    assert stray_letters(words, page, tall) == (words, [])
    options, option_words = drawn_grey(ROW, FONTS[0], scan, seed=5)
    read, _ = ghost_before(option_words, "D)", scan)
    assert stray_letters(read, options, tall) == (option_words, ["o"])


def test_without_a_measured_text_height_nothing_is_judged():
    page, words = drawn_grey(ROW, FONTS[0], SCANS[0])
    read, _ = ghost_before(words, "D)", SCANS[0])
    assert stray_letters(read, np.full_like(page, 255), 0.0) == (read, [])


def test_the_pass_is_registered_after_the_second_reader_and_before_the_label_passes():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("second-reader") < names.index("stray-letters") < names.index("glued-labels")
    assert not PAGE_PASSES[names.index("stray-letters")].required
