"""An OCR'd question whose shape or language says it was misread is flagged `ocr.uncertain` with the sign in
words, even where every word was read confidently and both recognisers agreed (issue 27, bar 2).

The misread texts are real readings: what Tesseract and the second recogniser made of the INAP 2024 booklet
rasterised at 200 dpi (blur 0.6, JPEG 80), each beside what the sheet prints; the right texts must stay unflagged."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.diagnostics import Code
from pipeline.languages import language
from pipeline.parse.misreadsigns import option_signs, symbol_signs, text_signs, usual_option_count

SPANISH = language("es").glued_words


@pytest.mark.parametrize(("misread", "printed"), [
    ("Aun Vicepresidente del Gobierno o, en su defecto, al Secretario de Estado.", "A un Vicepresidente del Gobierno o, en su defecto, al Secretario de Estado."),
    ("Alos seis meses.", "A los seis meses."),
])
def test_a_one_letter_word_glued_to_a_common_word_is_a_sign_and_the_printed_text_is_not(misread, printed):
    assert any("one-letter word glued" in sign for sign in text_signs(misread, SPANISH))
    assert text_signs(printed, SPANISH) == []


def test_a_word_that_reads_as_such_a_pair_but_is_a_word_of_the_language_is_no_sign():
    assert text_signs("Uno de los ese alas.", SPANISH) == []
    assert text_signs("Aos trinta anos, o autor.", language("pt").glued_words) == []


def test_a_stray_letter_between_words_is_a_sign_unless_the_language_has_such_a_word():
    assert text_signs("En el poder r judicial.", SPANISH) == ["a lone 'r'"]
    assert text_signs("En el poder judicial.", SPANISH) == []
    assert text_signs("Juan y Pedro o Luis", SPANISH) == []
    assert text_signs("Halle el valor de 21(4x – 6) = x", SPANISH) == []  # a variable beside a sign is printed so
    assert text_signs("la letra t en mayúscula", SPANISH) == ["a lone 't'"]  # unsure, not wrong: a curator looks
    assert text_signs("según el apartado b de la ley", SPANISH, labels=["a", "b", "c", "d"]) == []  # a reference to a label


def test_a_lone_letter_opening_a_text_is_a_sign_where_it_is_no_word_and_a_capital_only_in_an_option():
    portuguese = language("pt").glued_words
    # Revalida 2023 at 200 dpi: a speck before the stem read as `r`; CONAREME 2022 at 150 dpi: a label read twice.
    assert text_signs("r Um homem de 40 anos", portuguese) == ["a lone 'r'"]
    assert text_signs("D Cohorte prospectivo", SPANISH, option=True) == ["a lone 'D'"]
    assert text_signs("Cohorte prospectivo", SPANISH, option=True) == []
    assert text_signs("A los tres años.", SPANISH, option=True) == []  # a one-letter word of the language
    assert text_signs("B comprou um carro de A", portuguese) == []  # a party in a stem


def test_options_end_alike_and_one_that_lost_its_full_stop_is_a_sign():
    labels = ["A", "B", "C", "D"]
    printed = ["En las Cortes Generales.", "En el Rey.", "En el pueblo español.", "En el poder judicial."]
    assert option_signs(labels, printed, 4) == []
    assert option_signs(labels, [*printed[:1], "En el Rey", *printed[2:]], 4) == ["option B ends without the '.' its siblings end with"]
    assert option_signs(labels, ["13", "17", "33", "30"], 4) == []  # none ends with a stop


def test_a_full_stop_after_a_word_then_a_small_letter_is_a_sign_but_an_abbreviation_is_not():
    assert text_signs("La reforma requiere la aprobación de las dos Cámaras. o en su caso", SPANISH) == ["'Cámaras.' then 'o'"]
    assert text_signs("según el art. 5 de la ley y la Ltda. realiza", SPANISH) == []


def test_a_text_ending_where_something_must_follow_is_a_sign():
    misread = "Indique cuál de los siguientes números continúa la secuencia 5, 1, 5, 2, 10, 3,"
    assert text_signs(misread, SPANISH) == ["it ends with ','"]
    assert text_signs(misread + " _", SPANISH) == []
    assert text_signs("Halle el valor de x =", None) == ["it ends with '='"]
    assert text_signs("¿Cuál de las siguientes es correcta?", None) == []
    # OAB 2016: a stem whose options go on with its sentence ends in a comma as printed.
    assert text_signs("Nesse caso,", None, continued=True) == []


def test_a_short_word_read_twice_in_a_row_is_a_sign():
    misread = "para la igualdad efectiva de mujeres y hombres, en cuanto a a la tutela judicial efectiva"
    assert text_signs(misread, SPANISH) == ["'a' twice"]
    assert text_signs(misread.replace("a a la", "a la"), SPANISH) == []
    assert text_signs("Lee el texto. Texto 2: el autor", None) == []  # punctuation between them: two sentences
    assert text_signs("los educandos educandos", None) == []  # a long word twice: printed so as often


def test_an_unpaired_round_bracket_is_a_sign_but_an_enumerator_closing_one_it_never_opened_is_not():
    assert text_signs("Procesador (CPU.", None) == ["a bracket without its pair"]
    assert text_signs("Procesador (CPU).", None) == []
    assert text_signs("Señale las correctas: a) la primera; b) la segunda; 1) otra; ii) y otra (la última).", None) == []


def test_options_read_alike_another_count_and_a_label_inside_an_option_are_signs():
    labels = ["a", "b", "c", "d"]
    # 2.R2: "-9" printed, its minus lost: two options read "9".
    assert option_signs(labels, ["9", "12/02/2024", "9", "01/02/2024"], 4) == ["options a and c read alike"]
    assert option_signs(labels, ["-9", "12/02/2024", "9", "01/02/2024"], 4) == []
    # 2.24: options c and d read as one line.
    assert option_signs(labels[:3], ["20-feb", "18", "20-2 a) 45342,00"], 4) == [
        "3 options where the sheet's questions have 4", "option c holds another option's label"]
    assert option_signs(labels, ["20-feb", "18", "20-2", "45342,00"], 4) == []


def test_the_usual_option_count_is_the_count_most_questions_have():
    assert usual_option_count([4, 4, 4, 3, 4, 0]) == 4
    assert usual_option_count([4, 5, 4, 5]) is None  # no count holds most of them
    assert usual_option_count([4, 4]) is None  # too few questions to say


def test_a_one_letter_word_in_a_capital_of_its_small_letters_shape_inside_a_sentence_is_a_sign():
    """OAB 2016 at 200 and 300 dpi: `analisou O entendimento`, `administrativa, O prazo` for `o`."""
    portuguese = language("pt").glued_words
    sign = "a capital 'O' inside a sentence"
    assert sign in text_signs("Assim, analisou O entendimento jurisprudencial.", portuguese)
    assert sign in text_signs("Considerando se tratar de concessão administrativa, O prazo máximo é de 20 anos.", portuguese)
    assert text_signs("O prazo máximo é de 20 anos.", portuguese) == []  # opening the text
    assert text_signs("Em 2016. O prazo máximo é de 20 anos.", portuguese) == []  # after a full stop
    assert text_signs("As Subseções X e Y da OAB, ambas criadas pelo Conselho Seccional Z, reivindicam.", portuguese) == []
    assert text_signs("Assim, analisou A entendimento.", portuguese) == []  # a capital A has no small a's shape


def test_a_language_without_glued_words_is_judged_by_the_other_signs_alone():
    assert language("el").glued_words is None
    assert text_signs("Ποιο από τα παρακάτω ισχύει (α;", None) == ["a bracket without its pair"]


# --------------------------------------------------------------------------- through parse


def _document(sha: str, method, rows: list[str]):
    from pipeline.extract import ExtractedDocument, Line, Page

    confidence = 96.0 if method.value == "ocr" else None
    lines = [Line(text=t, x0=60 if t[:1].isdigit() else 70, top=100 + 14 * i, x1=400, bottom=110 + 14 * i, font_size=10,
                  ocr_confidence=confidence, unsure_words=[]) for i, t in enumerate(rows)]
    return ExtractedDocument(sha * 64, "sheet.pdf", 1, [Page(1, 595, 842, method, lines)], "test")


SHEET = [
    "1. Según el Estatuto, las infracciones muy graves prescribirán:",
    "A) A los tres años.", "B) A los dos años.", "C) Alos seis meses.", "D) A los seis años.",
    "2. Tenemos la fecha en A2 y en A3. ¿Qué valor muestra la celda C2?",
    "A) 9", "B) 12/02/2024", "C) 9", "D) 01/02/2024",
    "3. ¿Qué órgano aprueba los presupuestos generales?",
    "A) Las Cortes Generales.", "B) El Gobierno.", "C) El Tribunal de Cuentas.", "D) El Consejo de Estado.",
    "4. Conforme a la Constitución, la soberanía nacional reside:",
    "A) En las Cortes Generales.", "B) En el Rey.", "C) En el pueblo español.", "D) En el poder judicial.",
]


def _parse(method, rows: list[str] = SHEET, key_rows: tuple[str, ...] = ("Clave", "1. A", "2. A", "3. A", "4. C")):
    """The records of a sheet of `rows` keyed by a list key of `key_rows`, both read by `method`."""
    from pipeline.parse import parse_sheet
    from tests.pipeline.parse.conftest import entry
    from tests.pipeline.parse.repertoire_sheets import by_number, spec

    the_spec = spec(key={"entry": r"(?<![\d.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-D])\b"})
    sheet = _document("0", method, rows)
    key = _document("1", method, list(key_rows))
    path, facts = Path("/exams/2031/sheet.pdf"), {"year": "2031"}
    return by_number(parse_sheet(sheet, entry(path, "sheet", the_spec, facts), [(key, entry(path, "key", the_spec, facts))], the_spec))


def _uncertain(records) -> dict[str, list]:
    """Each record's `ocr.uncertain` flags, by its number."""
    return {n: [f for f in q.flags if f.code is Code.OCR_UNCERTAIN] for n, q in records.items()}


def test_a_confidently_read_question_showing_a_sign_is_flagged_naming_it_and_the_others_are_not():
    from pipeline.extract import PageMethod

    flags = _uncertain(_parse(PageMethod.OCR))
    assert flags["1"] == ["read by OCR unsurely: option C (resting on 'Alos' (a one-letter word glued to the next?))"]
    assert flags["2"] == ["read by OCR unsurely: options (resting on options A and C read alike)"]
    assert flags["3"] == [] and flags["4"] == []


def test_the_text_layer_is_never_judged_by_the_signs():
    from pipeline.extract import PageMethod

    records = _parse(PageMethod.TEXT)
    assert all(not [f for f in q.flags if f.code is Code.OCR_UNCERTAIN] for q in records.values())


# --------------------------------------------------------------------------- a mark lost where the sheet reads it


def _spanish_spelling():
    from pipeline.extract.ocr import spelled_for

    spelled = spelled_for(("spa",))
    if spelled is None:
        pytest.skip("the Spanish spelling dictionary (hunspell-es) is not installed")
    return spelled


def test_a_word_no_dictionary_knows_that_the_sheet_reads_elsewhere_with_its_mark_is_a_sign():
    from pipeline.parse.misreadsigns import mark_signs, marked_forms

    spelled = _spanish_spelling()
    marked = marked_forms(["¿Cuál es la causa del síndrome febril?", "La Secretaría de Estado y la ecografía."])
    assert mark_signs("Sindrome de Down.", marked, spelled) == ["'Sindrome' (read 'síndrome' elsewhere)"]
    assert mark_signs("Síndrome de Down.", marked, spelled) == []  # read with its mark
    assert mark_signs("La Secretaria del juzgado.", marked, spelled) == []  # a word too, without the mark
    assert mark_signs("La ecografia abdominal.", {}, spelled) == []  # the sheet reads it nowhere with its mark
    assert mark_signs("Sindrome de Down.", marked, None) == []  # a language without dictionaries is not judged so


def test_a_word_known_both_ways_that_the_sheet_reads_here_alone_and_elsewhere_with_its_mark_is_a_sign():
    from pipeline.parse.misreadsigns import mark_signs, marked_forms, repeated_spellings

    spelled = _spanish_spelling()
    sheet = ["La Secretaría de Estado convoca el período de pruebas.", "La Secretaría publica el período de alegaciones.",
             "La Secretaria de Estado resuelve."]
    marked, repeated = marked_forms(sheet), repeated_spellings(sheet)
    # `secretaria` is a word too (a secretary), but this sheet reads it so here alone and with its mark twice elsewhere.
    assert mark_signs(sheet[2], marked, spelled, repeated) == ["'Secretaria' (read 'secretaría' elsewhere, and so nowhere else)"]
    assert mark_signs(sheet[2], marked, spelled) == []  # without the sheet's repeated spellings: the rule of old
    # A sheet that reads the bare spelling more than once spells the word both ways: no sign.
    twice = [*sheet, "La Secretaria del juzgado firma."]
    assert mark_signs(twice[2], marked_forms(twice), spelled, repeated_spellings(twice)) == []
    assert mark_signs("El periodo de prueba.", {}, spelled, repeated) == []  # read nowhere with its mark


def test_through_parse_the_question_whose_word_lost_its_mark_is_flagged_and_its_neighbours_are_not():
    from pipeline.extract import PageMethod

    _spanish_spelling()
    rows = ["1. ¿Qué síndrome se asocia a la trisomía 21?", "A) Down.", "B) Turner.", "C) Klinefelter.", "D) Marfan.",
            "2. ¿Qué prueba confirma el diagnóstico?", "A) Sindrome clínico.", "B) Cariotipo.", "C) Hemograma.", "D) Ninguna.",
            "3. ¿Qué órgano aprueba los presupuestos?", "A) Las Cortes.", "B) El Gobierno.", "C) El Senado.", "D) El Rey."]
    flags = _uncertain(_parse(PageMethod.OCR, rows, ("Clave", "1. A", "2. B", "3. A")))
    assert flags["2"] == ["read by OCR unsurely: option A (resting on 'Sindrome' (read 'síndrome' elsewhere))"]
    assert flags["1"] == [] and flags["3"] == []


# --------------------------------------------------------------------------- signs of arithmetic and units read as letters


@pytest.mark.parametrize(("misread", "printed", "option"), [
    # Real readings of `ocrcertainty`'s symbol families (150–200 dpi, blur 0.5–0.7), each beside what was printed.
    ("76 x 96", "76 × 96", True),  # `×` read as the letter, spaced
    ("B sobre 12x9=8", "B sobre 12×9=8", False),  # ... or glued
    ("28 *C", "28 °C", True),  # a degree sign read as an asterisk
    ("68*", "68°", True),
    ("sinfónicas 23 cm* denominación", "sinfónicas 23 cm³ denominación", False),  # a superscript read as an asterisk
    ("5?torbe", "5° torbe", False),  # ... or as a question mark glued to the next word
    ("12 m?", "12 m²", True),  # ... ending an option
    ("204 ug", "204 µg", True),  # a micro sign read as u
    ("27 drástico prevaleció 94 => 63", "27 drástico prevaleció 94 ≥ 63", True),  # a relation read as two marks
    ("Kom 19? infomercial mountaineers", "Kom 19² infomercial mountaineers", False),  # a question mark, then small letters
])
def test_a_sign_of_arithmetic_or_a_unit_read_as_a_letter_or_a_mark_is_a_sign_and_the_printed_text_is_not(misread, printed, option):
    assert symbol_signs(misread, option, SPANISH.one_letter) != []
    assert symbol_signs(printed, option, SPANISH.one_letter) == []


def test_what_a_text_prints_with_numbers_and_marks_is_no_sign_of_a_misread_sign():
    one_letter = SPANISH.one_letter
    assert symbol_signs("¿Cuántos miembros propone el Senado conforme a la Constitución Española de 1978?", False, one_letter) == []
    assert symbol_signs("¿Cuánto es 3 + 4? Elija una.", False, one_letter) == []  # a question ends, the next opens apart
    assert symbol_signs("La dirección 0x1F del registro.", False, one_letter) == []  # a hexadecimal number
    assert symbol_signs("Entre 2 y 3 años, el 15 % de los casos; art. 5º.", False, one_letter) == []
    assert symbol_signs("Ley 19/2013, de 9 de diciembre", False, one_letter) == []
    # An asterisk multiplying, as code prints it (CKE matura informatyka): no raised sign.
    assert symbol_signs("b:=2*r; a + 10 * b + 100 * przestaw(n), 4+2 + ( k * 9 )", False, one_letter) == []
    assert symbol_signs("son 5 um", False, one_letter) == []  # `um` is a word (pt *um*): a micrometre read so is not judged
    # A stem may ask about a number with its unit; an option does not end in a question mark.
    assert symbol_signs("¿Mide más de 12 m?", False, one_letter) == []
    assert symbol_signs("12 m?", True, one_letter) != []


def test_the_symbol_signs_are_judged_only_where_enabled():
    from pipeline.parse import misreadsigns

    before = misreadsigns.ENABLED
    try:
        misreadsigns.enable_signs(set(misreadsigns.SIGNS) - {"times", "raised", "micro", "two-marks"})
        assert symbol_signs("76 x 96 y 28 *C y 204 ug", True, SPANISH.one_letter) == []
    finally:
        misreadsigns.ENABLED = before
    assert len(symbol_signs("76 x 96 y 28 *C y 204 ug", True, SPANISH.one_letter)) == 3


# --------------------------------------------------------------------------- a capital read small, a 0 read as a letter


def test_an_option_opening_small_where_its_siblings_open_with_capitals_is_a_sign():
    """At low resolution a capital whose small letter differs only in size, or a dotless stroke (`I`, `i`), is read small."""
    from pipeline.parse.misreadsigns import casing_signs

    siblings = ["Reducir la dosis.", "Tratar con antibióticos.", "Observar 24 horas."]
    assert casing_signs("inducir el parto.", siblings, option=True) == [
        "it opens with a small 'i' where its siblings open with capitals"]
    assert casing_signs("Inducir el parto.", siblings, option=True) == []
    # Options that go on with the stem's sentence open small, all of them; one sibling is too few to say.
    assert casing_signs("inducir el parto.", ["reducir la dosis.", "Tratar con antibióticos."], option=True) == []
    assert casing_signs("inducir el parto.", ["Reducir la dosis."], option=True) == []
    assert casing_signs("«inducir» el parto.", siblings, option=True) != []  # past an opening mark
    assert casing_signs("12 mg.", siblings, option=True) == []  # no letter opens it
    # A lone letter opening an option is a variable or a symbol, not a word's capital misread.
    assert casing_signs("x < 25", ["Madrid", "Lisboa", "Roma"], option=True) == []
    assert casing_signs("x² + 1", siblings, option=True) == []


def test_a_stem_opening_small_is_a_sign_only_where_the_sheets_stems_open_with_capitals():
    from pipeline.parse.misreadsigns import casing_signs, sheet_opens_capital

    stems = ["¿Qué órgano aprueba los presupuestos?", "Según el Estatuto, las infracciones:", "Indique la secuencia:",
             "En 2016, el Tribunal:", "indique cuál de los números:"]
    assert sheet_opens_capital(stems)  # four of five
    assert not sheet_opens_capital(stems[:3])  # too few to say
    assert not sheet_opens_capital(["a b", "c d", "E f", "g h"])  # a sheet of small openings
    assert casing_signs("indique cuál de los números:", capital_stems=True) == [
        "it opens with a small 'i' where its sheet's stems open with capitals"]
    assert casing_signs("indique cuál de los números:", capital_stems=False) == []
    assert casing_signs("2016: el año.", capital_stems=True) == []


@pytest.mark.parametrize(("misread", "printed"), [
    ("Administrar O,5 mg por kilo.", "Administrar 0,5 mg por kilo."),
    ("Un total de 1.O00 casos.", "Un total de 1.000 casos."),
    ("El índice fue 2,5O.", "El índice fue 2,50."),
])
def test_a_letter_o_in_the_place_of_a_digit_in_a_number_with_a_separator_is_a_sign(misread, printed):
    assert any("a letter O in a number" in sign for sign in symbol_signs(misread, True, SPANISH.one_letter))
    assert symbol_signs(printed, True, SPANISH.one_letter) == []


def test_a_word_beside_a_number_is_no_letter_in_a_number():
    assert symbol_signs("Visitó Oslo.5 días después, o 3,5 horas; art. 2.o del texto.", False, SPANISH.one_letter) == []


def test_through_parse_the_question_with_an_option_opening_small_is_flagged_and_its_neighbours_are_not():
    from pipeline.extract import PageMethod

    rows = ["1. ¿Qué conducta procede?", "A) Reducir la dosis.", "B) Tratar con antibióticos.", "C) inducir el parto.",
            "D) Observar 24 horas.",
            "2. Conforme a la Constitución, la soberanía nacional reside:", "A) en las Cortes Generales.", "B) en el Rey.",
            "C) en el pueblo español.", "D) en el poder judicial.",
            "3. ¿Qué órgano aprueba los presupuestos?", "A) Las Cortes.", "B) El Gobierno.", "C) El Senado.", "D) El Rey."]
    flags = _uncertain(_parse(PageMethod.OCR, rows, ("Clave", "1. C", "2. C", "3. A")))
    assert flags["1"] == ["read by OCR unsurely: option C (resting on it opens with a small 'i' where its siblings open with capitals)"]
    assert flags["2"] == [] and flags["3"] == []


def test_a_stem_ending_without_the_mark_most_of_the_sheets_stems_end_with_is_a_sign():
    from pipeline.parse.misreadsigns import stem_ending_signs, usual_stem_ending

    stems = ["Señale el órgano que aprueba los presupuestos.", "Señale quién ejerce la potestad jurisdiccional.",
             "Indique la capital de España.", "Indique el plazo de la ley:", "Señale el órgano que juzga las cuentas"]
    assert usual_stem_ending(stems) == "."  # four of five
    assert usual_stem_ending(stems[:3]) is None  # too few to say
    assert usual_stem_ending(["¿Qué órgano?", "Indique:", "El plazo.", "Señale:", "¿Quién?"]) is None  # no mark most
    assert stem_ending_signs("Señale el órgano que juzga las cuentas", ".") == [
        "it ends without the '.' the sheet's stems end with"]
    assert stem_ending_signs("Señale el órgano que juzga las cuentas.", ".") == []
    assert stem_ending_signs("Señale el valor de x + 2 =", ".") == []  # what an open ending says, not this
    assert stem_ending_signs("Señale el órgano que juzga las cuentas", None) == []
    assert stem_ending_signs("Según el artículo 3, la soberanía reside", ".", continued=True) == []  # options go on with it


def test_a_key_entry_read_as_its_label_alone_is_settled_by_the_sheets_labels():
    from pipeline.parse.certainty import settled_key_entry

    assert settled_key_entry("δ", "δ", "3") and settled_key_entry("Α", "α", "5") and settled_key_entry("7:γ", "γ", "7")
    assert settled_key_entry("①", "①", "2") and settled_key_entry("07.B", "B", "7")
    assert not settled_key_entry("B8", "B", "3")  # more than the label: a misread glyph beside it
    assert not settled_key_entry("8:γ", "γ", "7")  # another question's number
    assert not settled_key_entry("δ", None, "3")  # no answer taken


def test_labels_vouch_for_lone_key_glyphs_only_where_many_of_the_keys_lone_glyphs_are_unsure():
    from types import SimpleNamespace

    from pipeline.parse.certainty import labels_vouch

    drafts = [SimpleNamespace(number=str(n), answer="δ") for n in range(1, 7)]  # what the judge reads of a draft
    # Tesseract's Greek model gives every lone letter 0: its confidence on them says nothing.
    assert labels_vouch(drafts, {str(n): ["δ"] for n in range(1, 5)})
    assert labels_vouch(drafts, {"1": ["δ"], "4": ["δ"]})  # two of six: more than a quarter
    # One lone letter unsure among entries read sure stands out: `c` read for `e` is caught by nothing else.
    assert not labels_vouch(drafts, {"3": ["δ"]})
    assert not labels_vouch(drafts[:4], {"3": ["δ"]})  # one of four: a quarter, no more
    assert not labels_vouch(drafts, {str(n): ["3δ"] for n in range(1, 7)})  # unsure by more than the label
    assert not labels_vouch([], {})


def _unsure_document(sha: str, rows: list[str], unsure: dict[int, list[str]], unclear: dict[int, list[str]] | None = None):
    from pipeline.extract import PageMethod

    document = _document(sha, PageMethod.OCR, rows)
    for i, line in enumerate(document.pages[0].lines):
        line.unsure_words = list(unsure.get(i, []))
        line.unclear_marks = list((unclear or {}).get(i, []))
    return document


def test_through_parse_a_stem_that_lost_its_stop_is_flagged_and_one_whose_stop_was_unclear_is_settled():
    from pipeline.parse import parse_sheet
    from tests.pipeline.parse.conftest import entry
    from tests.pipeline.parse.repertoire_sheets import by_number, spec

    rows = ["1. Señale el órgano que aprueba los presupuestos.", "A) Las Cortes.", "B) El Gobierno.", "C) El Senado.", "D) El Rey.",
            "2. Señale quién ejerce la potestad jurisdiccional", "A) Los jueces.", "B) El Rey.", "C) Las Cortes.", "D) El Senado.",
            "3. Señale el órgano que juzga las cuentas.", "A) El Tribunal.", "B) El Rey.", "C) Las Cortes.", "D) El Senado.",
            "4. Señale. la capital de España.", "A) Madrid.", "B) Sevilla.", "C) Toledo.", "D) Burgos.",
            "5. Conforme a la Constitución, la soberanía reside", "A) en el pueblo.", "B) en el Rey.", "C) en las Cortes.",
            "D) en el Senado."]
    # Stem 3's closing period and stem 4's inner one were read from unclear ink (`commas`): unsure by that alone.
    sheet = _unsure_document("0", rows, {10: ["cuentas."], 15: ["Señale."]}, {10: ["cuentas."], 15: ["Señale."]})
    # The key's entries were read unsurely: 1, 3 and 4 their label alone, as a recogniser that gives every lone glyph
    # no confidence reads them; 2 its number alone (what says the label is its?).
    key = _unsure_document("1", ["Clave", "1. A", "2. A", "3. A", "4. A", "5. A"], {1: ["A"], 2: ["2."], 3: ["A"], 4: ["A"]})
    the_spec = spec(key={"entry": r"(?<![\d.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-D])"})
    path, facts = Path("/exams/2031/sheet.pdf"), {"year": "2031"}
    records = by_number(parse_sheet(sheet, entry(path, "sheet", the_spec, facts), [(key, entry(path, "key", the_spec, facts))], the_spec))
    flags = {n: [f for f in q.flags if f.code is Code.OCR_UNCERTAIN] for n, q in records.items()}
    assert flags["1"] == [] and flags["3"] == [] and flags["5"] == []
    assert flags["2"] == ["read by OCR unsurely: stem, key entry (resting on it ends without the '.' the sheet's stems end with, '2.')"]
    assert flags["4"] == ["read by OCR unsurely: stem (resting on 'Señale.', 'Señale.' then 'la')"]  # not its closing mark


def test_a_stems_unclear_closing_mark_is_settled_only_where_it_ends_a_sentence_with_the_sheets_usual_mark():
    from pipeline.extract import Line
    from pipeline.parse.certainty import settled_by_stems
    from pipeline.parse.stream import StreamLine

    def lines(word: str) -> list[StreamLine]:
        return [StreamLine(1, Line(text=f"3. Señale el órgano que juzga las {word}", x0=60, top=100, x1=400, bottom=110,
                                   font_size=10, ocr_confidence=96.0, unsure_words=[word], unclear_marks=[word]))]
    text = "Señale el órgano que juzga las cuentas."
    assert settled_by_stems("cuentas.", text, ".", False, lines("cuentas."))
    assert not settled_by_stems("cuentas.", text, ".", True, lines("cuentas."))  # options go on with it: a comma may stand
    assert not settled_by_stems("cuentas.", text, ":", False, lines("cuentas."))  # the sheet's stems close otherwise
    assert not settled_by_stems("cuentas.", text, None, False, lines("cuentas."))  # no usual closing mark
    sure = [StreamLine(1, Line(text="3. Señale", x0=60, top=100, x1=400, bottom=110, font_size=10, unsure_words=["cuentas."]))]
    assert not settled_by_stems("cuentas.", text, ".", False, sure)  # unsure for more than its mark's ink
