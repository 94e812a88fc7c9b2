"""Quantities printed as one word (`quantitywords`): a number with its degree sign (`38,5°C`), a quantity's symbol and a
degree sign (`T°`), a unit with a Greek micro (`/μL`, `μg/kg/min`), a gas abbreviation with its formula (`SatO2`). The
rules of a word's shape (`certainty.mixed_characters`: a symbol inside a word, two scripts, digits glued to a word) read
them as confusions and flag right questions of every medical sheet; where the policy spares them
(`CertaintyPolicy.spare_quantities`, off as shipped) a word of one of those shapes, whole, is not judged by them, and a
misread sign or count (`Sp02`, `Ul/kg`) is of no such shape: it is unsure by that alone. So is a unit's letter read
as a digit right after a number (`2.8 9/24 h` for `2.8 g/24 h`), a misread those right words were the only flag of. A real sheet written with fpdf2, rasterised and read by real Tesseract through every page
pass."""
from __future__ import annotations

from dataclasses import replace

import pytest
from pydantic import ValidationError

from pipeline.extract.ocr import certainty, quantitywords
from pipeline.extract.ocr.certainty import SECOND_READER_SIGN, mixed_characters, unsure_reason
from pipeline.extract.ocr.quantitywords import (
    MICRO_AS_LETTER,
    RING_AS_MARK,
    SCALE_AS_DIGIT,
    UNIT_AS_DIGITS,
    UNIT_LETTER_AS_DIGIT,
    misread_quantity,
    unit_read_as_digits,
    well_formed_quantity,
)
from pipeline.languages import ScriptData
from tests.pipeline.extract.ocr.builders import needs_tesseract, read_as, read_scanned_lines, unsure_words

PRINTED = ("39°C", "38,5°C", "°C", "(39°C)", "T°", "T°39", "T°:", "t°38", "/μL", "12000/μL", "000/μL,", "μg/kg/min.",
           "mEq/L", "mg/m²", "/mm³", "SatO2", "SpO2", "EtCO2")
# What a scan makes of them: a degree sign read as a letter or a mark, a small l as a capital I, a μ lost to a `u`, an
# O read as a zero, a degree sign inside a word.
MISREAD = ("39oC", "39*C", "T*", "Te", "/ul", "mg/dI", "mEg/L", "Sat02", "Sa1O2", "pa°ra", "39°c", "y°")
# A Latin scale or symbol read as a Cyrillic or Greek letter of its very shape (`°С`, `Т°`, `Τ°39`): the shape cannot
# tell it from the Latin unit read as the page's own look-alike, so it is no well-formed quantity.
LOOKALIKE_SCALES = ("36.6°С", "°С", "Т°", "Т°40,3", "Τ°39")


def test_a_quantity_of_its_shapes_is_well_formed_and_a_misread_one_is_not():
    for word in PRINTED:
        assert well_formed_quantity(word), word
    for word in MISREAD + LOOKALIKE_SCALES:
        assert not well_formed_quantity(word), word


def test_a_spared_well_formed_quantity_is_no_confusion_of_its_shape_but_a_look_alike_scale_stays_one():
    for word in PRINTED:
        assert mixed_characters(word, spare_quantities=True) is None, word
        assert mixed_characters(word) is not None or not any(ch in "°μ" for ch in word), word  # as shipped: judged
    for word in LOOKALIKE_SCALES:
        assert mixed_characters(word, spare_quantities=True) == "a symbol inside a word", word


def test_a_ring_the_second_recogniser_reads_before_its_one_glyph_celsius_is_that_glyphs_own_ring():
    # `°C` printed, RapidOCR reads `°℃` (clinical tuning sheets): its `℃` holds the ring, read twice; no print sets `°℃`.
    # A degree sign it lost (`C`) or read as a mark is still a sign read otherwise.
    signs_only = replace(certainty.DEFAULT_POLICY, mixed_characters=False)
    assert unsure_reason("°C", 62.4, None, signs_only, second="°℃") is None
    assert unsure_reason("36°C", 72.5, None, signs_only, second="36℃") is None
    assert unsure_reason("°C", 65.9, None, signs_only, second="C") == SECOND_READER_SIGN
    assert unsure_reason("°C", 65.9, None, signs_only, second="°°C") == SECOND_READER_SIGN


def test_a_units_letter_read_as_a_digit_right_after_a_number_is_unsure_where_no_mixed_number_stands():
    # `2.8 g/24 h`, `250 g/6 h`, `79 l/1`: the unit's g, l read as a 9, a 1; two numbers in a row where a quantity
    # prints its number and its unit, in a fraction no mixed number prints (a decimal before it, over one, not lowest)
    for previous, word in (("2.8", "9/24"), ("2", "9/24"), ("250", "9/6"), ("79", "1/1."), ("0,5", "5/8")):
        assert unit_read_as_digits(previous, word) == UNIT_AS_DIGITS, (previous, word)
    # a mixed number (`2 1/2 h`), a fraction after a word or alone, a pressure, a fraction whose digit is no unit's shape
    for previous, word in (("2", "1/2"), ("3", "1/4"), ("de", "9/24"), (None, "9/24"), ("73", "112/106"), ("2", "3/6"),
                           ("A)", "9/24"), ("2", "9/24h")):
        assert unit_read_as_digits(previous, word) is None, (previous, word)
    line = [("Dieta", 96.0), ("de", 96.0), ("2.8", 96.0), ("9/24", 96.0), ("h", 96.0), ("y", 96.0), ("2", 96.0),
            ("1/2", 96.0), ("h", 96.0)]
    assert certainty.unsure_words(line, None) == ["9/24"]



def test_a_fraction_no_number_prints_before_a_unit_is_a_units_letter_read_as_a_digit_where_no_number_stands_before_it():
    # `500 g/12 h` wrapped after `500`: the line reads `9/12 h.`, its number on the line above (generated sheets, 150 dpi)
    assert unit_read_as_digits(None, "9/12", "h.") == UNIT_AS_DIGITS
    assert unit_read_as_digits("de", "9/24", "h") == UNIT_AS_DIGITS
    # a share of an hour, a fraction before a word or at a line's end, a digit of no unit letter's shape
    for previous, word, following in ((None, "3/4", "h"), (None, "1/2", "h"), (None, "9/12", "de"), (None, "9/12", None),
                                      ("de", "9/24", None), (None, "3/12", "h")):
        assert unit_read_as_digits(previous, word, following) is None, (previous, word, following)
    line = [("9/12", 96.0), ("h.", 96.0), ("Simplifique", 96.0), ("9/12", 96.0), ("y", 96.0), ("3/4", 96.0), ("h", 96.0)]
    assert certainty.unsure_words(line, None) == ["9/12"]  # the first; the one before `y` is a fraction to simplify


def test_the_digits_read_for_a_units_letter_are_the_script_datas_not_the_codes(monkeypatch):
    # `scripts.yaml`'s `digit_shapes` names the digit each unit letter is read as; a script whose data names none
    # judges no fraction so, and one that names another digit judges that one
    assert unit_read_as_digits("2.8", "9/24") == UNIT_AS_DIGITS
    monkeypatch.setattr(quantitywords, "script_data", lambda script: ScriptData(
        unit_symbols=["g", "s"], unit_prefixes="m", digit_shapes={"6": "g"} if script == "Latin" else {}))
    assert unit_read_as_digits("2.8", "9/24") is None
    assert unit_read_as_digits("2.8", "6/24") == UNIT_AS_DIGITS
    with pytest.raises(ValidationError, match="digit shapes"):
        ScriptData(digit_shapes={"g": "9"})


def test_a_quantity_a_scan_misread_is_unsure_by_its_shape_and_a_word_merely_with_a_slash_is_not():
    # a zero where a formula's O stands, a unit's letter read as its confusable twin, a mark inside a unit
    for misread in ("Sp02", "Pa02", "C02", "H2S04", "MgS04", "Ul/kg", "mg/dI", "000/mm>3."):
        assert misread_quantity(misread) is not None, misread
        assert mixed_characters(misread) is not None, misread
    for other in ("SpO2", "MgSO4", "UI/kg", "mg/dl", "000/mm3.", "140/90", "y/o", "s/n", "e/ou", "kg/día", "A/B", "2050", "mg/kg/d"):
        assert misread_quantity(other) is None, other



def test_a_degree_quantity_whose_ring_or_scale_a_scan_misread_is_unsure_by_its_own_shape():
    # The scale read as a digit (`41,9°C` read `41,9°6`): a word of no letters, unsure all the same; an angle's minutes
    # carry their prime and are no such misread.
    for misread in ("41,9°6", "39°6", "38,3°6."):
        assert misread_quantity(misread) == SCALE_AS_DIGIT, misread
        assert mixed_characters(misread) == SCALE_AS_DIGIT, misread
    for printed in ("45°30'", "45°30′", "T°39", "39°C", "39°"):
        assert misread_quantity(printed) is None, printed
    # The ring read as a raised mark between a number and its scale (`39*C`, `38,5"C`); a product or a power is no
    # degree quantity (`3*X`, `2^N`, `A*2`, `x'2`), nor a mark after a number alone (`39*`: a footnote's).
    for misread in ("39*C", '38,5"C', "37'C", "(39?C)"):
        assert misread_quantity(misread) == RING_AS_MARK, misread
        assert mixed_characters(misread) == RING_AS_MARK, misread
    for other in ("3*X", "2*N", "2^N", "A*2", "x'2", "39*", "T*", "5*10", "39*c"):
        assert misread_quantity(other) is None, other


def test_a_units_letter_read_as_the_digit_of_its_shape_inside_a_unit_is_unsure_by_its_own_shape():
    # `scripts.yaml`'s `digit_shapes` (a g read as a 9, an l as a 1): a unit with a slash, or glued to its number, that
    # reads as a unit with the digit read as its letter; no unit prints such a count (`m9/kg` is no metre to the ninth).
    for misread in ("mg/d1", "m9/kg", "000/m1,", "250m1", "mg/k9/min"):
        assert misread_quantity(misread) == UNIT_LETTER_AS_DIGIT, misread
        assert mixed_characters(misread) == UNIT_LETTER_AS_DIGIT, misread
    # a power, a formula's count (`PCl5`), a rate per minute, a variable alone (`m1`: a physics sheet's first mass)
    for printed in ("m2/s", "kg/m3", "cm4", "1/min", "PCl5", "NaHCO3", "Ca10", "m1", "mg/kg/d", "mg/dl"):
        assert misread_quantity(printed) is None, printed
    # Alone, right after a number, it is the number's unit (`5 m1` for `5 ml`); after a word it is a name.
    assert unit_read_as_digits("5", "m1") == UNIT_AS_DIGITS
    assert unit_read_as_digits("250", "m9.") == UNIT_AS_DIGITS
    for previous, word in (("de", "m1"), ("5", "m2"), ("5", "ml"), (None, "m1"), ("2", "x1")):
        assert unit_read_as_digits(previous, word) is None, (previous, word)
    line = [("Diuresis", 96.0), ("de", 96.0), ("800", 96.0), ("m1", 96.0), ("con", 96.0), ("m1", 96.0), ("y", 96.0),
            ("m2", 96.0)]
    assert certainty.unsure_words(line, None) == ["m1"]  # the one after `800`; the one after `con` stays as read



def test_a_micro_sign_read_as_the_u_of_its_shape_is_unsure_in_a_unit_with_a_slash_or_after_a_number():
    for misread in ("ug/kg/min", "umol/L.", "000/ul"):
        assert misread_quantity(misread) == MICRO_AS_LETTER, misread
        assert mixed_characters(misread) == MICRO_AS_LETTER, misread
    for printed in ("μg/kg/min", "U/L", "u/L", "mu/kg", "ug", "um"):  # a unit of capitals, no unit with a μ, a word
        assert misread_quantity(printed) is None, printed
    assert unit_read_as_digits("6", "ug") == MICRO_AS_LETTER
    assert unit_read_as_digits("tem", "um") is None  # Portuguese `um`: a word after a word
    assert unit_read_as_digits("6", "μg") is None


def test_a_misread_quantity_is_named_by_what_the_scan_did_to_it():
    assert mixed_characters("Sat02") == "a zero where a formula's O stands"
    assert mixed_characters("39oC") == "a digit beside a look-alike letter"
    assert mixed_characters("pa°ra") == "a symbol inside a word"
    assert mixed_characters("/μlа") == "two scripts in one word"  # a Cyrillic а after a Latin unit
    # The second recogniser still judges its signs: a degree sign it read otherwise makes the word unsure.
    assert unsure_reason("39°C", 96.0, None, second="39*C") == "the second recogniser read a sign otherwise"
    assert unsure_reason("Te", 96.0, None, second="T°") == "the second recogniser read a sign otherwise"


def test_a_degree_celsius_the_second_recogniser_reads_as_one_glyph_is_read_alike():
    # RapidOCR reads `°C` as Unicode's one-glyph `℃`: the same print, no sign read otherwise
    assert unsure_reason("36°C", 96.0, None, second="36℃") != SECOND_READER_SIGN
    assert unsure_reason("°C,", 96.0, None, second="℃,") != SECOND_READER_SIGN
    assert unsure_reason("36*C", 96.0, None, second="36℃") == "the second recogniser read a sign otherwise"


LINES = (
    "Paciente con T° 39,5 °C, presión 140/90 mmHg y SatO2 88% al aire ambiente.",
    "Leucocitos 18 000/μL, potasio 5,8 mEq/L y hemoglobina 9,2 g/dL en el control.",
    "La fiebre de 38,5°C cede; la SpO2 sube a 96% con FiO2 0,40 y el HCO3 es 18 mEq/L.",
)
QUANTITIES = ("T°", "°C,", "SatO2", "000/μL,", "mEq/L", "g/dL", "38,5°C", "SpO2", "FiO2", "HCO3", "mEq/L.")


@needs_tesseract("spa")
def test_a_clinical_sheets_quantities_read_as_printed_are_sure_and_misread_ones_are_not(tmp_path):
    reading, settings, width, height = read_scanned_lines(tmp_path, LINES, dpi=200, blur=0.6, jpeg=80)
    read = [w.text for w in reading.words]
    assert set(QUANTITIES) <= set(read), read  # the sheet's quantities read as printed
    sparing = replace(settings, certainty=replace(settings.certainty, spare_quantities=True))
    assert not set(QUANTITIES) & set(unsure_words(reading, sparing, width, height))  # and sure, where the policy spares them
    # An O read as a zero, a degree sign read as a small o: each makes its word unsure, by its shape alone.
    for printed, misread in (("SatO2", "Sat02"), ("38,5°C", "38,5oC"), ("T°", "T°a"), ("SpO2", "Sp02"), ("mEq/L", "mEq/I")):
        assert misread in unsure_words(read_as(reading, printed, misread), settings, width, height), (printed, misread)
    # ... and so do a scale read as a digit, a ring read as a mark, a micro sign read as a `u`, a unit's l read as a 1,
    # where the policy spares well-formed quantities too.
    for printed, misread in (("38,5°C", "38,5°6"), ("38,5°C", "38,5*C"), ("000/μL,", "000/uL,"), ("g/dL", "g/d1")):
        assert misread in unsure_words(read_as(reading, printed, misread), sparing, width, height), (printed, misread)
