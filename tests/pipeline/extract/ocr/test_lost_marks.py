"""The `lost-marks` pass: a word a soft scan read without its diacritics gets them back where the language's
spelling dictionary does not know the word as read and exactly one known word has its letters with more marks.
Real dictionaries (Debian's hunspell ones, Tesseract's word lists), as a scanned page's pass uses them."""
from __future__ import annotations

import pytest

from pipeline.extract.ocr.certainty import spelled_for
from pipeline.extract.ocr.lexicon import Lexicon, load_lexicon
from pipeline.extract.ocr.lostmarks import marks_put_back
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.words import Word


def read(texts: str, languages: tuple[str, ...], *, second: str | None = None) -> list[str]:
    lexicon = load_lexicon(list(languages))
    spelled = spelled_for(languages)
    if lexicon is None or spelled is None:
        pytest.skip(f"no word list or spelling dictionary for {languages}")
    words = [Word(text, 91.0, 20 * i, 0, 20 * i + 18, 30, (1, 1, 1), second=second) for i, text in enumerate(texts.split())]
    return [w.text for w in marks_put_back(words, lexicon, spelled)]


def test_a_word_no_dictionary_knows_gets_the_marks_of_the_one_known_word_with_its_letters():
    """Revalida 2023 and INAP 2024 at 150–200 dpi, blur 0.8: `sindrome`, `hipotese`, `lingua`, `fisica`."""
    assert read("sindrome hipotese lingua questao", ("por",)) == ["síndrome", "hipótese", "língua", "questão"]
    assert read("fisica, arbol camion.", ("spa",)) == ["física,", "árbol", "camión."]
    assert read("dychanie laket", ("slk",)) == ["dýchanie", "lakeť"]
    assert read("ogrenci", ("tur",)) == ["öğrenci"]


def test_a_word_of_the_language_is_never_rewritten_however_like_a_marked_word_it_is():
    """Spanish `articulo`, `periodo`, `Secretaria` and Portuguese `clinico`, `diagnostica` are words (verb forms,
    a noun): the print may have them, so they stay as read."""
    assert read("articulo periodo Secretaria ultimo", ("spa",)) == ["articulo", "periodo", "Secretaria", "ultimo"]
    assert read("clinico diagnostica", ("por",)) == ["clinico", "diagnostica"]


def test_a_word_both_engines_read_alike_short_words_and_capitals_stay_as_read():
    """INAP 2024 prints `Constitucion` and `publicos` without accents: Tesseract and RapidOCR both read them so."""
    assert read("Constitucion", ("spa",), second="Constitucion") == ["Constitucion"]
    assert read("publicos,", ("spa",), second="publicos,") == ["publicos,"]
    assert read("Constitucion", ("spa",), second="Constitución") == ["Constitución"]
    assert read("Constitucion", ("spa",)) == ["Constitución"]  # the second reader did not read it
    assert read("mas si", ("spa",)) == ["mas", "si"]  # more than one marked neighbour a short word has
    assert read("SINDROME", ("por",)) == ["SINDROME"]  # capitals are often printed without marks


def test_without_a_spelling_dictionary_the_word_list_judges_and_two_marked_words_mean_no_repair():
    lexicon = Lexicon({"pena": "pena", "peña": "peña", "péna": "péna", "cancion": "cancion", "canción": "canción",
                       "arbol": "arbol", "árbol": "árbol", "camion": "camion"})
    del lexicon.words["camion"]
    lexicon.words["camión"] = "camión"
    words = [Word(t, 90.0, 0, 0, 10, 10, (1, 1, 1)) for t in ("pena", "cancion", "camion")]
    assert [w.text for w in marks_put_back(words, lexicon, None)] == ["pena", "cancion", "camión"]


def test_the_pass_is_registered_with_a_version_and_a_condition_after_the_capital_accents_it_leaves_to_the_image():
    names = [p.name for p in PAGE_PASSES]
    assert "lost-marks" in names and names.index("capital-accents") < names.index("lost-marks")
    assert names.index("second-reader") < names.index("lost-marks")
    the_pass = PAGE_PASSES[names.index("lost-marks")]
    assert the_pass.version and not the_pass.required
