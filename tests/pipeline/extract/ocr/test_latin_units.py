"""Latin units and formulas on Greek and Cyrillic pages (`mg/dL`, `km/h`, `pH`, `CO₂`): the page's own model reads them
as its script's look-alikes (`рН`, `ΝΟ2`, `тод/Т` for `mg/L`); pass `companion-words` reads such a word again with the
companion script's model and takes the reading the script data's unit vocabulary vouches for, or the word's look-alike
spelling where every letter is printed in a Latin letter's shape (`unitwords`); pass `lookalike-units` does the latter
once the small glyphs are read (`ΝΟ;` → `ΝΟ2` → `NO2`). A companion reading of a unit too unsure to take leaves the
word unsure rather than guessed."""
from __future__ import annotations

import unicodedata
from dataclasses import replace
from pathlib import Path

from pipeline.devkit import supscans
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr.companionwords import lookalike_units, unit_reading
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.unitwords import is_unit_expression, latin_lookalike, unit_core
from pipeline.extract.ocr.words import Word
from pipeline.languages import language
from tests.pipeline.extract.ocr.builders import needs_tesseract


def test_a_unit_expression_is_the_script_datas_symbols_with_prefixes_exponents_and_formulas():
    for unit in ("mg/dL", "km/h", "mmHg", "kcal", "kJ/mol", "U/L", "m2", "cm3", "m·s-2", "mmol·L-1", "pH", "CO2", "H2O", "NO2"):
        assert is_unit_expression(unit), unit
    # page words read by the Latin model (`час` read `wac`), capitals a word may be (`PH`, `OOH`), a lone capital, digits,
    # and a capital numbered as questions and cells are (`A1`, `C2`; a one-element formula, `O2`, is one of those too)
    for other in ("wac", "mi", "Pi", "VIL", "PH", "OOH", "C", "10-3/L", "", "kg/", "mg//L", "A1", "C2", "B12", "O2"):
        assert not is_unit_expression(other), other


def test_a_words_latin_lookalike_spelling_is_had_only_where_every_letter_has_a_latin_shape():
    assert latin_lookalike("рН", "Cyrillic") == "pH"
    assert latin_lookalike("СО2", "Cyrillic") == "CO2"
    assert latin_lookalike("ΝΟ2.", "Greek") == "NO2."
    assert latin_lookalike("тод/Т", "Cyrillic") is None  # `т`, `д` are shaped as no Latin letter
    assert latin_lookalike("pH", "Cyrillic") is None  # nothing of the page's script in it
    assert unit_core("(mg/dL),") == ("(", "mg/dL", "),") and unit_core("cm?") == ("", "cm", "?")


def _word(text: str, conf: float = 90.0) -> Word:
    return Word(text, conf, 100, 10, 160, 30, (1, 1, 1))


def test_a_unit_read_as_look_alikes_is_taken_by_its_shape_else_by_the_companions_vouched_reading():
    # every letter a Latin look-alike, so spelt a unit: what was printed, whatever the companion read
    assert unit_reading(_word("рН", 95.6), None, "Cyrillic", "Latin").text == "pH"
    assert unit_reading(_word("Η2Ο,"), _word("H20!", 27.0), "Greek", "Latin").text == "H2O,"
    # letters shaped as no Latin one: the companion's reading, where the vocabulary knows it, sure enough
    taken = unit_reading(_word("тод/Т.", 10.0), _word("mg/L", 95.4), "Cyrillic", "Latin")
    assert (taken.text, taken.conf) == ("mg/L", 95.4)
    assert unit_reading(_word("пд,", 54.0), _word("mg,|", 96.0), "Cyrillic", "Latin").text == "mg,"
    # a reading the vocabulary does not know is no unit (`час` read `wac`)
    assert unit_reading(_word("час", 96.5), _word("wac", 81.0), "Cyrillic", "Latin") is None
    # a unit read too unsurely: the word stays as read, at the lower confidence, so the flag sees it
    unsure = unit_reading(_word("πιφ/Ι.", 63.0), _word("mg/L", 26.0), "Greek", "Latin")
    assert (unsure.text, unsure.conf) == ("πιφ/Ι.", 26.0)


def test_a_unit_of_the_pages_own_script_stays_as_printed_whatever_the_companion_reads():
    # Russian exams print their own units: `мм2` read `mm2` by the Latin model is still the Cyrillic unit printed
    assert unit_reading(_word("мм2", 91.0), _word("mm2", 96.0), "Cyrillic", "Latin") is None
    assert unit_reading(_word("м/с2", 88.0), _word("m/c2", 93.0), "Cyrillic", "Latin") is None
    assert unit_reading(_word("кПа", 90.0), _word("kTla", 80.0), "Cyrillic", "Latin") is None
    # a Cyrillic look-alike spelling of no Cyrillic unit is still the Latin unit printed
    assert unit_reading(_word("мг/Т.", 40.0), _word("mg/L.", 95.0), "Cyrillic", "Latin").text == "mg/L."


def test_a_question_numbered_by_a_capital_and_digits_keeps_its_script():
    """Greek exams number `Α1`…`Α5`, Russian ones `А1`, `В5`, `С1`: read as a unit (`A` ampere, power 1) or a one-element
    formula, every number of a scanned Greek sheet turned Latin and no key answer found its question."""
    for word, script in (("Α1", "Greek"), ("Β12", "Greek"), ("А1", "Cyrillic"), ("В5", "Cyrillic"), ("С2", "Cyrillic")):
        assert unit_reading(_word(word, 95.0), None, script, "Latin") is None, word
        assert unit_reading(_word(word, 60.0), _word(latin_lookalike(word, script) or "A1", 96.0), script, "Latin") is None
    line = [_word("Α1."), _word("Να"), _word("γράψετε"), _word("Α2"), _word("3")]
    line = [replace(w, left=100 * i, right=100 * i + 60) for i, w in enumerate(line)]
    assert lookalike_units(line, ("ell",)) == (line, [])


def test_look_alike_units_are_written_latin_only_where_a_unit_stands_on_a_companion_language_page():
    line = [_word("Значение"), _word("рН"), _word("7,4"), _word("и"), _word("СО2"), _word("в"), _word("крови"), _word("ОН")]
    line = [replace(w, left=100 * i, right=100 * i + 60) for i, w in enumerate(line)]
    words, changes = lookalike_units(line, ("rus",))
    # `ОН` (a page word in capitals) stands at no unit's place and is no unit: left as read
    assert [w.text for w in words] == ["Значение", "pH", "7,4", "и", "CO2", "в", "крови", "ОН"]
    assert changes == [("рН", "pH"), ("СО2", "CO2")]
    assert lookalike_units(line, ("pol",)) == (line, [])  # a language with no companion script: nothing to do


def test_russian_pages_read_latin_as_their_companion_and_the_pass_follows_the_small_glyphs():
    assert language("ru").codes.companions == ["eng"]
    names = [p.name for p in PAGE_PASSES]
    assert names.index("companion-words") < names.index("small-glyphs") < names.index("lookalike-units")


def _read_page(tmp_path: Path, name: str, scan: str, sentences: int) -> supscans.Reading:
    family = replace({**supscans.TUNING, **supscans.CHECKING}[name], sentences=sentences)
    setting = ScanSetting.parse_list(scan)[0]
    return supscans.measure(tmp_path, name, family, setting, ())


def _script_letters(text: str, script: str) -> int:
    return sum(unicodedata.name(ch, "").startswith(script) for ch in text)


@needs_tesseract("rus", "eng")
def test_latin_units_on_a_scanned_russian_page_are_read_latin_and_its_words_stay_cyrillic(tmp_path: Path):
    """The tuning family `ru-latin-dejavuserif`'s page, 8 sentences, at 200 dpi: before, not one of its units was read
    (`Кт/В` for `km/h`, `рН` for `pH`, `тод/Т` for `mg/L`)."""
    reading = _read_page(tmp_path, "ru-latin-dejavuserif", "200/0.7/75/0/p225", 8)
    assert reading.units >= 15 and reading.units_right >= reading.units * 0.6
    # no Russian word turned Latin: every run read differently that printed Cyrillic alone was read in Cyrillic alone
    assert [(printed, read) for printed, read in reading.shown
            if _script_letters(printed, "CYRILLIC") and not _script_letters(printed, "LATIN") and _script_letters(read, "LATIN")] == []
