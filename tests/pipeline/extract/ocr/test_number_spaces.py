"""The `number-spaces` pass: a number and a word Tesseract read as one token (`1904lice`, `zikzak54`, `D)81do`) are
split where the ink shows a word space between them, measured against the line's own word spaces; a white between a
letter gap and a word space leaves the token whole and unsure; a code printed tight stays as read. Rows are drawn in
real typefaces at 150-300 dpi with blur and grain (`strayrows`); the token's box spans the words Tesseract glued."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.extract.ocr.numbergaps import UNSURE_CONF, split_number_words
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.words import Word

from tests.pipeline.extract.ocr.strayrows import FONTS, SCANS, Scan, drawn_row


def glued(words: list[Word], first: int, count: int) -> list[Word]:
    """The words `first` .. `first + count - 1` read as one token, as Tesseract glued them."""
    part = words[first : first + count]
    token = replace(part[0], text="".join(w.text for w in part), right=part[-1].right,
                    top=min(w.top for w in part), bottom=max(w.bottom for w in part))
    return words[:first] + [token] + words[first + count :]


CASES = [  # (the row as printed, the first glued word, how many, the pieces expected)
    ("A) bildirim     B) koruyorum     C) igdaş     D) 1904 lice", 7, 2, ["1904", "lice"]),
    ("A) mahsum kalem     B) zikzak 54     C) çelik     D) yorum", 4, 2, ["zikzak", "54"]),
    ("a) wziełam     b) kolędy     c) os 64     d) jutro", 5, 2, ["os", "64"]),
    ("A) boyanabilir     B) sahne     C) yaz     D) 81 do", 7, 2, ["81", "do"]),
]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[3][0] + c[3][1])
def test_a_number_glued_to_a_word_across_a_word_space_is_split(font: Path, scan: Scan, case):
    text, first, count, pieces = case
    ink, words = drawn_row(text, font, scan)
    read = glued(words, first, count)
    split, changes = split_number_words(read, ink)
    assert [w.text for w in split] == [w.text for w in words] and len(changes) == 1
    apart = split[first : first + 2]
    assert [w.text for w in apart] == pieces and apart[0].right < apart[1].left
    assert apart[0].left == words[first].left and apart[1].right == words[first + 1].right


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_label_glued_in_front_is_left_to_the_label_passes(font: Path, scan: Scan):
    ink, words = drawn_row("A) bildirim     B) koruyorum     C) igdaş     D) 1904 lice", font, scan)
    read = glued(words, 6, 3)  # D)1904lice
    assert [w.text for w in split_number_words(read, ink)[0]][6:] == ["D)1904", "lice"]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_codes_printed_tight_stay_as_read_and_sure_from_200_dpi(font: Path, scan: Scan):
    """At 150 dpi a two-glyph code's one white (`2a`: 4 px beside 8 px word spaces) may be as unclear as a narrow
    space: there it may be unsure, never split."""
    ink, words = drawn_row("Witamina B12 i CD4 oraz 10km albo 2a czy 1980s mniej", font, scan)
    split, changes = split_number_words(words, ink)
    assert [w.text for w in split] == [w.text for w in words]
    assert scan.dpi < 200 or (split, changes) == (words, [])


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
@pytest.mark.parametrize("font", FONTS, ids=lambda p: p.stem)
def test_a_formula_whose_ink_does_not_part_every_character_is_never_split(font: Path, scan: Scan):
    """`=SI(E20>1000;…`: its brackets' and quotes' whites are no space between `E` and `20`, however near they lie."""
    ink, words = drawn_row('la fórmula =SI(E20>1000;"Grande";"Pequeño") devuelve el texto', font, scan)
    assert [w.text for w in split_number_words(words, ink)[0]] == [w.text for w in words]


@pytest.mark.parametrize("scan", SCANS, ids=lambda s: f"{s.dpi}dpi-{s.noise}")
def test_a_white_between_a_letter_gap_and_a_word_space_leaves_the_token_unsure(scan: Scan):
    """`|` draws half a space: more than any letter gap, less than the line's word spaces."""
    ink, words = drawn_row("Jarzębiny odliczenie bielik 1904|lice donikąd tworcow", FONTS[0], scan)
    split, changes = split_number_words(words, ink)
    assert [w.text for w in split] == [w.text for w in words] and changes == ["1904lice unsure"]
    assert split[3].conf == UNSURE_CONF and all(w.conf == 90.0 for i, w in enumerate(split) if i != 3)


def test_the_pass_is_registered_before_the_label_passes():
    names = [p.name for p in PAGE_PASSES]
    assert names.index("glued-words") < names.index("number-spaces") < names.index("glued-labels")
    assert not PAGE_PASSES[names.index("number-spaces")].required
