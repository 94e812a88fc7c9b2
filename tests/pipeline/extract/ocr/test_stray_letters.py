"""The `stray-letters` pass: a letter Tesseract read into the white between two cells of a row of options, where the
scan holds no ink or a speck's, is dropped; a printed one-letter word stays wherever it stands, at every scan.
Rows are drawn in real typefaces at 150-300 dpi with blur and grain (`strayrows`)."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.strayletters import stray_letters
from pipeline.extract.ocr.words import Word

from tests.pipeline.extract.ocr.strayrows import FONTS, SCANS, Scan, drawn_row, text_height

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
    ink, words = drawn_row(ROW, font, scan)
    read, ghost = ghost_before(words, "D)", scan)
    kept, dropped = stray_letters(read, ink, text_height(words))
    assert [w.text for w in kept] == [w.text for w in words] and dropped == ["o"]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
def test_a_letter_read_from_a_speck_is_dropped_and_one_read_alike_by_the_second_reader_stays(scan: Scan):
    ink, words = drawn_row(ROW, FONTS[0], scan)
    read, ghost = ghost_before(words, "C)", scan)
    speck = ink.copy()
    cy, cx = (ghost.top + ghost.bottom) // 2, (ghost.left + ghost.right) // 2
    speck[cy : cy + 2, cx : cx + 2] = True  # a speck of dust: two pixels each way
    assert [w.text for w in stray_letters(read, speck, text_height(words))[0]] == [w.text for w in words]
    confirmed = [replace(w, second="o") if w is ghost else w for w in read]
    assert [w.text for w in stray_letters(confirmed, ink, text_height(words))[0]] == [w.text for w in read]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_printed_one_letter_words_stay_in_a_row_and_in_prose(font: Path, scan: Scan):
    """`a`, `o`, `i`, `w`, `z`, `y` (Spanish, Portuguese, Polish, Italian one-letter words) alone in a row's cell, each
    between wide whites, and inside a sentence."""
    for text in ("A) a     B) o     C) i     D) w     E) z     F) y",
                 "Kot i pies w domu, a ptak z klatki o świcie y nada więcej"):
        ink, words = drawn_row(text, font, scan, seed=7)
        assert stray_letters(words, ink, text_height(words) if any(len(w.text) >= 3 for w in words) else 0.9 * scan.size) \
            == (words, [])


def test_without_a_measured_text_height_nothing_is_judged():
    ink, words = drawn_row(ROW, FONTS[0], SCANS[0])
    read, _ = ghost_before(words, "D)", SCANS[0])
    assert stray_letters(read, np.zeros_like(ink), 0.0) == (read, [])


def test_the_pass_is_registered_after_the_second_reader_and_before_the_label_passes():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("second-reader") < names.index("stray-letters") < names.index("glued-labels")
    assert not PAGE_PASSES[names.index("stray-letters")].required
