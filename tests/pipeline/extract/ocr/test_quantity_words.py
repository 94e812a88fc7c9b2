"""Quantities printed as one word (`quantitywords`): a number with its degree sign (`38,5°C`), a quantity's symbol and a
degree sign (`T°`), a unit with a Greek micro (`/μL`, `μg/kg/min`), a gas abbreviation with its formula (`SatO2`). The
rules of a word's shape (`certainty.mixed_characters`: a symbol inside a word, two scripts, digits glued to a word) read
them as confusions and flag right questions of every medical sheet, and a misread sign or count (`Sp02`, `Ul/kg`) is of
no such shape: it is unsure by that alone, whatever else its question rests on. A real sheet written with fpdf2,
rasterised and read by real Tesseract through every page pass."""
from __future__ import annotations



from pipeline.extract.ocr.certainty import SECOND_READER_SIGN, mixed_characters, unsure_reason
from pipeline.extract.ocr.quantitywords import misread_quantity, well_formed_quantity
from tests.pipeline.extract.ocr.builders import needs_tesseract, read_as, read_scanned_lines, unsure_words

PRINTED = ("39°C", "38,5°C", "36.6°С", "°C", "(39°C)", "T°", "T°39", "T°:", "t°38", "/μL", "12000/μL", "000/μL,", "μg/kg/min.",
           "mEq/L", "mg/m²", "/mm³", "SatO2", "SpO2", "EtCO2")
# What a scan makes of them: a degree sign read as a letter or a mark, a small l as a capital I, a μ lost to a `u`, an
# O read as a zero, a degree sign inside a word.
MISREAD = ("39oC", "39*C", "T*", "Te", "/ul", "mg/dI", "mEg/L", "Sat02", "Sa1O2", "pa°ra", "39°c", "y°")


def test_a_quantity_of_its_shapes_is_well_formed_and_a_misread_one_is_not():
    for word in PRINTED:
        assert well_formed_quantity(word), word
    for word in MISREAD:
        assert not well_formed_quantity(word), word


def test_a_quantity_a_scan_misread_is_unsure_by_its_shape_and_a_word_merely_with_a_slash_is_not():
    # a zero where a formula's O stands, a unit's letter read as its confusable twin, a mark inside a unit
    for misread in ("Sp02", "Pa02", "C02", "H2S04", "MgS04", "Ul/kg", "mg/dI", "000/mm>3."):
        assert misread_quantity(misread) is not None, misread
        assert mixed_characters(misread) is not None, misread
    for other in ("SpO2", "MgSO4", "UI/kg", "mg/dl", "000/mm3.", "140/90", "y/o", "s/n", "e/ou", "kg/día", "A/B", "2050", "mg/kg/d"):
        assert misread_quantity(other) is None, other


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
def test_a_clinical_sheets_misread_quantities_areunsure_words(tmp_path):
    reading, settings, width, height = read_scanned_lines(tmp_path, LINES, dpi=200, blur=0.6, jpeg=80)
    read = [w.text for w in reading.words]
    assert set(QUANTITIES) <= set(read), read  # the sheet's quantities read as printed
    # An O read as a zero, a degree sign read as a small o: each makes its word unsure, by its shape alone.
    for printed, misread in (("SatO2", "Sat02"), ("38,5°C", "38,5oC"), ("T°", "T°a"), ("SpO2", "Sp02"), ("mEq/L", "mEq/I")):
        assert misread in unsure_words(read_as(reading, printed, misread), settings, width, height), (printed, misread)
