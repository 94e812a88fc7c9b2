"""A word's marks chosen between Tesseract's own per-letter readings by the spelling dictionary (`diacritics`, not run
on pages):
an unknown word read unsurely takes the one known word the engine's alternatives within the language's confused
letters make; several make it unsure; a known word, or an unknown one read confidently, stays as read."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr.diacritics import SURE_FROM, choice_candidates, choose_marks, letter_groups
from pipeline.extract.ocr.engine import prepare_for_tesseract, render_page
from pipeline.extract.ocr.hunspell import SpellingUnavailable, spelling_for
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.symbolchoices import ChoiceWord, available, read_choices
from pipeline.extract.ocr.words import Word
from pipeline.languages import language_for_tesseract
from pipeline.languages.model import TextQuality
from tests.pipeline.extract.ocr.builders import needs_tesseract

BOX = (10, 10, 60, 30)


def _spelling(language: str):
    try:
        return spelling_for((language,))
    except SpellingUnavailable as exc:
        pytest.skip(f"no dictionary for {language}: {exc}")


def _groups(language: str) -> dict[str, str]:
    found = language_for_tesseract(language)
    assert found is not None
    return letter_groups(found.text_quality.confused_letters)


def _read(text: str, conf: float, alternatives: dict[int, list[tuple[str, float]]]) -> tuple[Word, ChoiceWord]:
    """A word as the page read it, and the same word read with alternatives: each letter weighed at 90, the
    alternatives given at their places."""
    letters = tuple((ch, ((ch, 90.0), *alternatives.get(i, []))) for i, ch in enumerate(text))
    return Word(text, conf, *BOX, (1, 1, 1)), ChoiceWord(text, conf, BOX, letters)


def test_the_confused_letters_are_language_data_in_groups_with_their_capitals():
    vietnamese, turkish = _groups("vie"), _groups("tur")
    assert "ẫ" in vietnamese["ã"] and "ắ" in vietnamese["ấ"] and "Ồ" in vietnamese["Ố"]
    assert turkish["ı"] == turkish["i"] == "ıi"
    assert "ı" not in vietnamese and "ẫ" not in turkish
    assert _groups("eng") == {}  # a language that names none: the pass does not apply


@pytest.mark.parametrize("bad", [["Iı"], ["a"], ["aa"], ["a1"]])
def test_a_group_of_confused_letters_is_two_or_more_distinct_lower_case_letters(bad):
    with pytest.raises(ValueError, match="confused_letters"):
        TextQuality(confused_letters=bad)


def test_an_unknown_word_read_unsurely_takes_the_one_known_word_its_alternatives_make():
    spelling = _spelling("vie")
    word, read = _read("vãy", 80.0, {1: [("ẫ", 60.0), ("à", 2.0)]})  # à under ALTERNATIVE_FROM: not weighed
    chosen = choose_marks([word], [read], _groups("vie"), spelling.knows)
    assert [w.text for w in chosen.words] == ["vẫy"]
    assert chosen.taken == [("vãy", "vẫy")] and not chosen.words[0].unsure_mark


def test_a_dotless_i_read_as_i_is_taken_back_where_only_it_makes_a_word():
    spelling = _spelling("tur")
    word, read = _read("dişarı.", 70.0, {1: [("ı", 55.0)]})
    chosen = choose_marks([word], [read], _groups("tur"), spelling.knows)
    assert [w.text for w in chosen.words] == ["dışarı."]  # the stop kept


def test_two_known_words_competing_leave_the_word_as_read_and_unsure():
    spelling = _spelling("vie")
    word, read = _read("vãy", 80.0, {1: [("ẫ", 60.0), ("â", 50.0)]})  # vẫy and vây are both words
    chosen = choose_marks([word], [read], _groups("vie"), spelling.knows)
    assert chosen.words[0].text == "vãy" and chosen.words[0].unsure_mark
    assert chosen.unsure == [("vãy", "vây or vẫy")]


def test_a_known_word_and_a_confident_unknown_one_stay_as_read_and_sure():
    spelling = _spelling("vie")
    known, known_read = _read("mối", 60.0, {1: [("ồ", 89.0)]})  # mồi is a word too: no dictionary tells
    confident, confident_read = _read("chip", SURE_FROM + 5, {2: [("í", 80.0)]})  # printed without marks
    faint, faint_read = _read("vãy", 80.0, {1: [("ẫ", 20.0)]})  # weighed under WEIGHED_FROM of the letter read
    words = [known, confident, faint]
    chosen = choose_marks(words, [known_read, confident_read, faint_read], _groups("vie"), spelling.knows)
    assert [(w.text, w.unsure_mark) for w in chosen.words] == [("mối", False), ("chip", False), ("vãy", False)]
    assert choice_candidates(words, _groups("vie"), spelling.knows) == [faint]


def test_a_word_the_second_reading_does_not_hold_at_its_place_is_not_weighed():
    spelling = _spelling("vie")
    word, read = _read("vãy", 80.0, {1: [("ẫ", 60.0)]})
    moved = ChoiceWord(read.text, read.conf, (11, 10, 60, 30), read.letters)
    assert choose_marks([word], [moved], _groups("vie"), spelling.knows).words == [word]


def test_no_page_pass_chooses_marks_until_it_pays_on_the_checking_sheets():
    """Measured as a pass (results, issue 27 bar 1): no question gained, right Turkish options lost, 40 % more CPU."""
    assert "diacritic-choices" not in [p.name for p in PAGE_PASSES]


@needs_tesseract("vie")
def test_a_generated_vietnamese_scan_is_read_letter_by_letter_with_the_engine_s_alternatives(tmp_path):
    """A 9-point Vietnamese line scanned at 160 dpi, blur 0.55, JPEG 88 (the setting whose tone marks `latinscans`
    measured read as their neighbours): each word's symbols spell it, each weighed with its alternatives."""
    if not available():
        pytest.skip("libtesseract's iterator calls are not loaded")
    text = "Con mèo đuổi theo chuột trên mái nhà của người hàng xóm"
    pdf = build_pdf(tmp_path / "page.pdf", [PageSpec([TextBox(text, 20, 30, 170, size=9, font="DejaVuSerif")])])
    scan = rasterize_pdf(pdf, tmp_path / "scan.pdf", dpi=160, blur=0.55, jpeg_quality=88, seed=5)
    with pdfium.PdfDocument(str(scan)) as document:
        image, _, _ = render_page(document, 0, 160)
    words = read_choices(np.asarray(prepare_for_tesseract(image.convert("L"), 160)), "vie", 160, 1, psm=3)
    assert len(words) >= 8
    for word in words:
        assert "".join(symbol for symbol, _ in word.letters) == word.text
        assert all(choices and all(0 <= conf <= 100 for _, conf in choices) for _, choices in word.letters)
    assert sum(any(len(choices) > 1 for _, choices in w.letters) for w in words) >= 1  # alternatives offered
