"""`one-letter-stems` on soft scans of small type: Czech's word `i` (`jablka i hrušky`), which Tesseract reads as a
stem glyph (`1`, `|`, `©`) or drops, is read as printed where the page before whitening shows a stem of the line's
x-height on its baseline with its dot above, standing apart; a litre's `l`, a number's `1` and a capital `I` standing
alone (taller strokes) are left as read. Pages are drawn in Debian's faces with fpdf2, rasterised by `sample` and read
as a season run reads a 300 dpi scan, by the installed Tesseract, every pass run (or every pass but this one)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.devkit.accentfamilies import Face
from pipeline.extract.ocr.stemletters import one_letter_stems, stem_words
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract, read_scanned_prose

SANS = Face("sans", "liberation/LiberationSans-Regular.ttf", 7.5)
NARROW = Face("narrow", "liberation/LiberationSansNarrow-Regular.ttf", 8)
SERIF = Face("serif", "liberation/LiberationSerif-Regular.ttf", 8)
WITH_I = ("Obec i město mají vlastní rozpočet a úřad i radu. Učitel četl knihu i noviny a psal dopisy i zprávy. "
          "Na trhu prodávali jablka i hrušky, mléko i sýr, chléb i máslo. Zákon platí pro muže i ženy, pro staré i mladé. "
          "Lékař vyšetřil dítě i matku a předepsal léky i klid. Ve škole se učí čeština i matematika, dějepis i zeměpis. ")
OTHER_STEMS = ("Do hrnce nalijte 1 l vody a 2 l mléka. Podle článku 1 zákona a bodu I vyhlášky platí lhůta 5 dnů. "
               "Kapitola I popisuje postup a příloha 1 uvádí 3 l roztoku na den. ")


def read(tmp_path: Path, text: str, face: Face, scan: str, disabled: tuple[str, ...] = ()) -> list[str]:
    return read_scanned_prose(tmp_path, text, face, scan, "ces", disabled)


@needs_tesseract("ces")
@pytest.mark.parametrize("face, scan", [(SANS, "158/0.92/75"), (NARROW, "162/0.8/80"), (SERIF, "170/1.0/78")],
                         ids=["sans7.5@158", "narrow8@162", "serif8@170"])
def test_the_word_i_read_as_a_stem_glyph_or_dropped_is_read_as_printed(tmp_path, face, scan):
    printed = 2 * WITH_I.split().count("i")  # 26
    without = read(tmp_path, WITH_I * 2, face, scan, disabled=("one-letter-stems",)).count("i")
    found = read(tmp_path, WITH_I * 2, face, scan).count("i")
    # When measured: 16, 12 and 7 of 26 without the pass; 24, 23 and 25 with it.
    assert without <= 18
    assert found >= 22 and found <= printed


@needs_tesseract("ces")
def test_a_litre_a_number_and_a_roman_one_standing_alone_are_left_as_read(tmp_path):
    with_pass = read(tmp_path, OTHER_STEMS * 3, SANS, "158/0.92/75")
    assert with_pass == read(tmp_path, OTHER_STEMS * 3, SANS, "158/0.92/75", disabled=("one-letter-stems",))
    assert "i" not in with_pass


def _line(page: np.ndarray, left: int) -> Word:
    """A word of letters drawn as x-height strokes from row 20 to the baseline at 38, 40 px wide."""
    for stroke in range(left, left + 40, 6):
        page[20:38, stroke:stroke + 3] = 40
    return Word("slovo", 90, left, 20, left + 40, 38, (1, 1, 1))


def _page_with_a_stem(dotted: bool, top: int = 20) -> tuple[np.ndarray, list[Word]]:
    page = np.full((60, 200), 250, dtype=np.uint8)
    words = [_line(page, 10), _line(page, 70)]
    page[top:38, 58:61] = 40  # a stem between them, 12 px clear of each
    if dotted:
        page[13:16, 58:61] = 185  # its dot, grey (the whitening would take it)
    glyph = Word("1", 40, 58, top, 61, 38, (1, 1, 1))
    words += [glyph, _line(page, 130)]
    return page, sorted(words, key=lambda w: w.left)


def test_a_dotted_stem_of_x_height_standing_apart_is_the_letter_only_where_the_language_writes_it_alone():
    page, words = _page_with_a_stem(dotted=True)
    mended, changes = one_letter_stems(words, page, frozenset({"i"}))
    assert [w.text for w in mended] == ["slovo", "i", "slovo", "slovo"]
    assert len(changes) == 1
    assert one_letter_stems(words, page, frozenset())[0] == words  # a language with no such word
    assert stem_words(("ces",)) == {"i"} and stem_words(("spa",)) == frozenset()


def test_a_tall_stroke_a_bare_stem_and_a_stem_both_recognisers_read_alike_stay_as_read():
    tall, words = _page_with_a_stem(dotted=False, top=8)  # an `l` or `1`: above the x-height
    assert one_letter_stems(words, tall, frozenset({"i"}))[0] == words
    bare, words = _page_with_a_stem(dotted=False)  # `ı`, which no language here writes alone
    assert one_letter_stems(words, bare, frozenset({"i"}))[0] == words
    assert [w.text for w in one_letter_stems(words, bare, frozenset({"ı"}))[0]] == ["slovo", "ı", "slovo", "slovo"]
    dotted, words = _page_with_a_stem(dotted=True)
    agreed = [Word(w.text, w.conf, w.left, w.top, w.right, w.bottom, w.line, second="1") if w.text == "1" else w for w in words]
    assert one_letter_stems(agreed, dotted, frozenset({"i"}))[0] == agreed


def test_a_dropped_stem_between_two_words_is_put_back_as_a_word():
    page, words = _page_with_a_stem(dotted=True)
    without_glyph = [w for w in words if w.text != "1"]
    mended, changes = one_letter_stems(without_glyph, page, frozenset({"i"}))
    assert [w.text for w in mended] == ["slovo", "i", "slovo", "slovo"]
    assert changes == ["slovo slovo → slovo i slovo"]
