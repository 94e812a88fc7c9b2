"""`ink-accents` v2: a mark Tesseract lost on a soft low-resolution scan, put back where the ink over (or under) its
letter shows one and the dictionaries know the marked word but not the word as read (pipeline/extract/ocr/inkaccents.py)."""
from __future__ import annotations

import difflib

import numpy as np
import pytest

from pipeline.devkit.accentfamilies import FAMILIES, TUNING, read_words, scanned

from pipeline.extract.ocr.hunspell import Spelling, SpellingUnavailable, spelling_for
from pipeline.extract.ocr.inkaccents import (
    Band, Letter, PageInk, Yardstick, is_mark, letter_places, mark_above, mark_places, marked_forms, mend_by_ink, _owner,
)
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract


def test_where_a_mark_stands_is_unicodes_combining_class() -> None:
    assert mark_places("é") == {"above"} and mark_places("ż") == {"above"} and mark_places("ñ") == {"above"}
    assert mark_places("ç") == {"below"} and mark_places("ą") == {"below"} and mark_places("ş") == {"below"}
    assert mark_places("ệ") == {"above", "below"}
    assert mark_places("a") == frozenset() and mark_places("ł") == frozenset()  # a stroke is no combining mark
    assert mark_places("ơ") == {"other"}  # a horn: not read from the ink here


def test_a_bare_letter_is_given_only_marks_above_or_below() -> None:
    forms = marked_forms(frozenset("aáàâãąeéęoóơôcçu"))
    assert forms["a"] == ("à", "á", "â", "ã", "ą") and forms["c"] == ("ç",)
    assert forms["o"] == ("ó", "ô")  # `ơ`'s horn stands beside the letter


def _paper(rows: int = 60, columns: int = 60) -> np.ndarray:
    return np.full((rows, columns), 255, dtype=np.uint8)


def test_ink_standing_clear_over_a_letter_is_a_mark_and_ink_reaching_up_to_the_line_above_is_not() -> None:
    band = Band(top=30, baseline=40)  # x-height 10 pixels
    yardstick = Yardstick(peak=100.0, rows=3.0)
    page = _paper()
    page[30:40, 10:18] = 60  # the letter
    page[23:26, 12:16] = 150  # a light acute, 105 dark, clear of everything above it
    seen = mark_above(PageInk(page), band, 14.0, 8.0)
    assert seen.peak == 105 and seen.far_gap == 1.0 and is_mark(seen, yardstick)
    page[10:26, 12:16] = 150  # the same ink going on up: a descender of the line above
    assert not is_mark(mark_above(PageInk(page), band, 14.0, 8.0), yardstick)
    page[10:26, 12:16] = 255
    page[23:26, 12:16] = 215  # grain, a third as dark as the page's dots
    assert not is_mark(mark_above(PageInk(page), band, 14.0, 8.0), yardstick)


def test_ink_nearer_a_letter_that_has_ink_there_is_that_letters() -> None:
    letters = [Letter(0, "j", 10.0, 5.0), Letter(1, "e", 17.0, 10.0)]
    above = lambda ch: ch in "ij"  # noqa: E731
    assert not _owner(letters, 14.0, letters[1], above)  # nearer `e`, but `j`'s dot lies within the places' error
    assert _owner(letters, 18.0, letters[1], above)
    assert not _owner(letters, 11.0, letters[1], above)


# A line of type drawn as the pass sees a soft scan's page not whitened: each small letter a dark block over the
# x-height band, ascenders a stem above it, an `i`'s dot a light blot over it; a lost mark is a light blot of the same
# darkness over the letter whose reading lacks it.
TOP, BASELINE = 100, 120  # the band: x-height 20 pixels
STROKE, DOT = 40, 120  # grey of a letter's ink and of a light dot or mark


def _draw(page: np.ndarray, text: str, left: int, marked_at: int | None) -> Word:
    right = left + sum(30 if ch == "i" else 55 for ch in text)
    for at, (middle, width) in enumerate(letter_places(text, left, right)):
        core = slice(round(middle - 0.35 * width), round(middle + 0.35 * width))
        page[TOP:BASELINE, core] = STROKE
        if text[at] in "bdfhklt":
            page[TOP - 12:TOP, core] = STROKE
        if text[at] == "i" or at == marked_at:
            dot = slice(round(middle - 2), round(middle + 3))
            page[TOP - 9:TOP - 4, dot] = DOT
    return Word(text, 90.0, left, TOP - 12, right, BASELINE, (1, 1, 1))


def _line(words: list[tuple[str, int | None]], seconds: dict[str, str] | None = None) -> tuple[list[Word], np.ndarray]:
    """The words (text, index of the letter with a mark's ink over it) drawn on one line after two words with three
    `i`s each (the page's dots, its yardstick)."""
    page = _paper(200, 2400)
    drawn, left = [], 10
    for text, marked_at in [("inicio", None), ("inicio", None), *words]:
        word = _draw(page, text, left, marked_at)
        if seconds and text in seconds:
            word = Word(word.text, word.conf, word.left, word.top, word.right, word.bottom, word.line, second=seconds[text])
        drawn.append(word)
        left = word.right + 25
    return drawn, page


@pytest.fixture
def spanish() -> Spelling:
    try:
        return spelling_for(("spa",))
    except SpellingUnavailable as exc:
        pytest.skip(f"no Spanish dictionary: {exc}")


def test_a_word_unknown_bare_whose_ink_shows_a_mark_takes_the_one_known_spelling_with_it(spanish: Spelling) -> None:
    words, page = _line([("despues", 5), ("rapido", 1)])
    mended = mend_by_ink(words, page, spanish)
    assert [w.text for w in mended.words][2:] == ["después", "rápido"]
    assert mended.changes == [("despues", "después"), ("rapido", "rápido")]


def test_a_word_the_dictionaries_know_as_read_keeps_its_reading_whatever_ink_stands_over_it(spanish: Spelling) -> None:
    # `esta` and `está`, `numero` and `número`: both spellings are words, so ink over the letter (a lost acute, or the
    # line above's descender, or a speck) cannot choose, and the reading stands.
    words, page = _line([("esta", 3), ("numero", 1), ("despues", 5)])
    mended = mend_by_ink(words, page, spanish)
    assert [w.text for w in mended.words][2:] == ["esta", "numero", "después"]


def test_a_word_both_recognisers_read_alike_is_not_rewritten(spanish: Spelling) -> None:
    words, page = _line([("despues", 5), ("rapido", 1)], seconds={"despues": "despues", "rapido": "rápido"})
    assert [w.text for w in mend_by_ink(words, page, spanish).words][2:] == ["despues", "rápido"]


def test_no_ink_over_the_letter_no_mark(spanish: Spelling) -> None:
    words, page = _line([("despues", None), ("rapido", None)])
    mended = mend_by_ink(words, page, spanish)
    assert [w.text for w in mended.words][2:] == ["despues", "rapido"] and not mended.changes


def test_the_pass_is_registered_after_the_second_readers_mends() -> None:
    from pipeline.extract.ocr.pagepasses import pass_names

    names = pass_names()
    assert names.index("ink-accents") == names.index("second-letters") + 1


def _aligned(printed: list[str], read: list[str]) -> dict[int, str]:
    """Each read word's printed word, where the two align one for one."""
    out = {}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, read, autojunk=False).get_opcodes():
        if op in ("equal", "replace") and i2 - i1 == j2 - j1:
            out.update({j: printed[i] for i, j in zip(range(i1, i2), range(j1, j2))})
    return out


@needs_tesseract("spa")
def test_on_a_soft_150_dpi_spanish_page_words_read_bare_take_their_printed_mark_and_no_word_read_right_changes(
        tmp_path, spanish: Spelling) -> None:
    # Liberation Sans 8.5 pt scanned at 150 dpi, blur 1.2, JPEG 80, grain 0.03 (`accentfamilies`' tuning family)
    tesseract, seed = TUNING["es"]
    scan, text = scanned(tmp_path, "es", tesseract, seed, FAMILIES[5])
    without = read_words(scan, tesseract, tmp_path / "cache", ("ink-accents",))
    read = read_words(scan, tesseract, tmp_path / "cache", ())
    assert len(read) == len(without)
    printed = _aligned(text.split(), without)
    changed = [(printed.get(i), a, b) for i, (a, b) in enumerate(zip(without, read)) if a != b]
    assert sum(p == b for p, a, b in changed) >= 3, changed  # `pedian` → `pedían`, `cedia` → `cedía`, …
    assert all(p != a for p, a, b in changed), changed
