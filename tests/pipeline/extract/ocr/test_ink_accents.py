"""`ink-accents`: a mark Tesseract lost on a soft low-resolution scan, put back where the ink over (or under) its letter
and the dictionaries agree (pipeline/extract/ocr/inkaccents.py)."""
from __future__ import annotations

import difflib
import numpy as np
import pytest

from pipeline.devkit.accentfamilies import FAMILIES, scanned
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.inkaccents import (
    Band, Letter, PageInk, Yardstick, is_mark, mark_above, mark_places, marked_forms, _owner,
)
from pipeline.extract.ocr.hunspell import SpellingUnavailable, spelling_for
from tests.pipeline.extract.ocr.builders import first_page, needs_tesseract

SPANISH_SOFT = FAMILIES[5]  # Liberation Sans 8.5 pt, 150 dpi, blur 1.2, JPEG 80, grain 0.03


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


def _page(rows: int = 60, columns: int = 60) -> np.ndarray:
    return np.full((rows, columns), 255, dtype=np.uint8)


def test_ink_standing_clear_over_a_letter_is_a_mark_and_ink_reaching_up_to_the_line_above_is_not() -> None:
    band = Band(top=30, baseline=40)  # x-height 10 pixels
    yardstick = Yardstick(peak=100.0, rows=3.0)
    page = _page()
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


@pytest.fixture
def spanish_dictionary() -> None:
    try:
        spelling_for(("spa",))
    except SpellingUnavailable as exc:
        pytest.skip(f"no Spanish dictionary: {exc}")


def _read(scan, disabled: tuple[str, ...]) -> list[str]:
    settings = OcrSettings(languages=("spa",), dpi=300, disabled_passes=disabled)
    return [w.text for w in read_page(first_page(scan, 300), settings, page_number=1).words]


def _aligned(printed: list[str], read: list[str]) -> dict[int, str]:
    """Each read word's printed word, where the two align one for one."""
    out = {}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, read, autojunk=False).get_opcodes():
        if op in ("equal", "replace") and i2 - i1 == j2 - j1:
            out.update({j: printed[i] for i, j in zip(range(i1, i2), range(j1, j2))})
    return out


@needs_tesseract("spa")
@pytest.mark.usefixtures("spanish_dictionary")
def test_acutes_lost_on_a_soft_150_dpi_scan_come_back_and_nothing_else_changes(tmp_path) -> None:
    scan, text = scanned(tmp_path, "es", "spa", 11, SPANISH_SOFT)
    without = _read(scan, ("ink-accents",))
    read = _read(scan, ())
    assert len(read) == len(without)
    printed = _aligned(text.split(), without)
    changed = [(i, a, b) for i, (a, b) in enumerate(zip(without, read)) if a != b]
    # Tesseract alone reads words without their acute (`pedian`, `valia`, `sirvase`: words the dictionary knows bare
    # too, or not at all); the pass gives them the printed mark, and it touches no word that was read right.
    assert sum(printed.get(i) == b for i, a, b in changed) >= 5, changed
    assert all(printed.get(i) != a for i, a, b in changed), changed


@needs_tesseract("spa")
@pytest.mark.usefixtures("spanish_dictionary")
def test_a_sheet_printed_without_marks_gains_none(tmp_path) -> None:
    scan, text = scanned(tmp_path, "es", "spa", 11, SPANISH_SOFT, bare_page=True)
    assert _read(scan, ()) == _read(scan, ("ink-accents",))


def test_the_pass_is_registered_after_accent_lines() -> None:
    from pipeline.extract.ocr.pagepasses import pass_names

    names = pass_names()
    assert names.index("ink-accents") == names.index("accent-lines") + 1
