"""The layout repertoire real national exams need, one generated sheet per layout feature, parsed through
the real extraction and parser with a spec written inline as a curator writes one (issue 11, part 4).

Sections whose numbering restarts and keys that print them side by side; undeclared restarts reported,
endnotes not; voided and pilot items; the key at the end of the booklet; bare labels told apart from the
word "A"; 2 to 10 options in 1, 2 and 4 columns; option content on rows of its own; a question number
set apart from its ". Stem"; `stop_at`; a hyphen at a line end; a closed family that loses a question's
options."""
from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import TextBox
from pipeline.extract import ExtractOptions, extract_document
from tests.pipeline.parse.repertoire_sheets import (
    LEFT,
    OPTION_INDENT,
    PART_QUESTIONS,
    PART_RESERVES,
    ROW,
    SECTIONS,
    SIZE,
    by_number,
    expected_part_answers,
    item,
    lines_at,
    pdf,
    question_rows,
    run,
    sheet_of,
    side_by_side_key,
    spec,
    two_part_sheet,
)

OPTION_X = LEFT + OPTION_INDENT
ID_PREFIX = "repertoire_test:2031:-:-:"


def _choices(number: str, count: int) -> list[str]:
    return [f"opción {x} de {number}" for x in "abcdefghij"[:count]]


def _key(path: Path, entries: list[str]) -> Path:
    return pdf(path, lines_at(entries, 20, 20))


# --------------------------------------------------------------------------- 1, 2: restarting numbering


@pytest.fixture(scope="module")
def two_parts(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("parts") / "2031"
    return two_part_sheet(root / "sheet.pdf"), side_by_side_key(root / "key.pdf")


def test_sections_prefix_restarted_numbers_and_a_side_by_side_key_answers_each_part(two_parts):
    result = run(spec(layout={"sections": SECTIONS["layout"]}, key={"sections": SECTIONS["key"]}), *two_parts)
    expected = expected_part_answers()
    assert [q.number for q in result.questions] == list(expected)
    assert list(expected)[:6] == ["1.1", "1.2", "1.3", "1.R1", "1.R2", "2.1"]
    assert [q.id for q in result.questions] == [ID_PREFIX + n for n in expected]
    assert len({q.id for q in result.questions}) == 2 * (PART_QUESTIONS + PART_RESERVES)
    assert {q.number: q.answer for q in result.questions} == expected
    assert [q.number for q in result.questions if q.reserve] == ["1.R1", "1.R2", "2.R1", "2.R2"]
    found = by_number(result)
    assert found["1.R2"].question == "Reserva 2 de la parte 1" and found["2.3"].question == "Pregunta 3 de la parte 2"
    assert found["2.R1"].choices == _choices("1", 4)
    assert all(q.type == "single_choice" and q.flags == [] for q in result.questions)
    assert result.problems == [] and result.notes == []


def test_a_restart_the_spec_does_not_declare_is_reported_not_merged(two_parts):
    result = run(spec(), *two_parts)
    # Part 1's reserves (page 1), part 2 and part 2's reserves (page 2) each restart at 1.
    assert (
        "question numbering restarts at 1 (page 1, page 2, page 2) and the questions after it were read as text: "
        "declare the parts in layout.sections"
    ) in result.problems
    # A "2." printed again right after a 1 that was taken as text becomes a second question 2: its
    # record id collides, which is an error line, never a record silently overwritten.
    assert [q.number for q in result.questions] == ["1", "2", "3", "2", "2", "2"]
    assert any(p.startswith(f"error: record id {ID_PREFIX}2 is produced by 4 questions") for p in result.problems)


def test_a_numbered_list_of_endnotes_after_the_last_question_is_not_a_restart(tmp_path):
    boxes, y = [], 20.0
    for n in range(1, 5):
        found, y = question_rows(item(n), y)
        boxes += found
    # Endnotes at the question numbers' left edge: "1." aligned with the headers, but no option labels follow.
    boxes += lines_at(["1. Véase el artículo 14 de la Constitución.", "2. Según la Ley 39/2015, de 1 de octubre."], LEFT, y + 5)
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    result = run(spec(), sheet, _key(tmp_path / "2031" / "key.pdf", ["1. A", "2. B", "3. C", "4. D"]))
    assert {q.number: q.answer for q in result.questions} == {"1": "A", "2": "B", "3": "C", "4": "D"}
    assert by_number(result)["4"].choices == _choices("4", 4)
    assert result.problems == []


# --------------------------------------------------------------------------- 3, 4, 5: what the key says


VOIDING_ENTRY = r"(?<![\d.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-D]|Anulada|-)(?!\w)"


def test_voided_key_entries_record_the_question_as_voided_in_notes_not_problems(tmp_path):
    sheet = sheet_of(tmp_path / "2031" / "sheet.pdf", [item(n) for n in range(1, 6)])
    key = _key(tmp_path / "2031" / "key.pdf", ["1. A", "2. Anulada", "3. C", "4. -", "5. D"])
    result = run(spec(key={"entry": VOIDING_ENTRY}), sheet, key)
    found = by_number(result)
    for number in ("2", "4"):
        assert found[number].voided is True
        assert found[number].answer is None and found[number].answer_index is None
        assert found[number].flags == []
        assert found[number].type == "single_choice" and found[number].choices == _choices(number, 4)
    assert {n: (q.answer, q.voided) for n, q in found.items() if n not in ("2", "4")} == {
        "1": ("A", False), "3": ("C", False), "5": ("D", False)
    }
    assert result.notes == ["2 question(s) annulled by the key (recorded as voided): 2, 4"]
    assert result.problems == []


def test_a_pilot_mark_after_the_number_makes_exactly_those_items_pilot(tmp_path):
    sheet = sheet_of(tmp_path / "2031" / "sheet.pdf", [item(n) for n in range(1, 9)])
    # A "clavijero": two number / answer column pairs, pilot items starred after their number.
    rows = [("1", "A", "5*", "B"), ("2*", "C", "6", "D"), ("3", "B", "7", "A"), ("4", "D", "8*", "C")]
    boxes = [TextBox(t, x, 30 + ROW * i, 20, size=SIZE) for i, row in enumerate(rows) for t, x in zip(row, (20, 35, 70, 85))]
    key = pdf(tmp_path / "2031" / "key.pdf", [TextBox("Pregunta  Clave  Pregunta  Clave", 20, 22, 170, size=SIZE), *boxes])
    entry = r"(?<![\d.])(?P<number>\d{1,2})\*?\s+(?P<answer>[A-D])\b"
    result = run(spec(key={"entry": entry, "pilot_mark": "*"}), sheet, key)
    assert [q.number for q in result.questions if q.pilot] == ["2", "5", "8"]
    assert {q.number: q.answer for q in result.questions} == {
        "1": "A", "2": "C", "3": "B", "4": "D", "5": "B", "6": "D", "7": "A", "8": "C"
    }
    assert not any(q.voided for q in result.questions)
    assert result.problems == [] and result.notes == []


@pytest.mark.parametrize("where", ["on a page of its own", "in a row under the last question"])
def test_a_key_printed_at_the_end_of_the_booklet_answers_it_and_is_not_read_as_questions(tmp_path, where):
    boxes, y = [], 20.0
    for n in range(1, 5):
        found, y = question_rows(item(n), y)
        boxes += found
    # "1. B" is what a question header looks like too: only key.in_sheet keeps it out of the questions.
    entries = ["1. B", "2. C", "3. A", "4. D"]
    if where == "on a page of its own":
        pages = [boxes, [TextBox("CLAVE DE RESPUESTAS", LEFT, 20, 170, size=12), *lines_at(entries, LEFT, 30)]]
    else:
        heading = TextBox("CLAVE DE RESPUESTAS", LEFT, y + 5, 170, size=12)
        pages = [[*boxes, heading, *(TextBox(t, LEFT + 30 * i, y + 14, 25, size=SIZE) for i, t in enumerate(entries))]]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", *pages)
    # No key file: the booklet is the only file of its year.
    result = run(spec(key={"in_sheet": "^CLAVE DE RESPUESTAS"}, pairing={"key_required": False}), sheet)
    assert {q.number: q.answer for q in result.questions} == {"1": "B", "2": "C", "3": "A", "4": "D"}
    assert by_number(result)["4"].choices == _choices("4", 4)
    assert all(q.flags == [] and q.pages == [1] for q in result.questions)
    assert not any("CLAVE" in q.question or "CLAVE" in " ".join(q.choices) for q in result.questions)
    assert result.problems == [] and result.notes == [] and result.key_unusable is None


# --------------------------------------------------------------------------- 6, 7, 8: options


def test_bare_labels_are_read_apart_from_a_stem_line_that_starts_with_the_word_a(tmp_path):
    x = LEFT
    # Question 1: each bare label its own segment, a wide gap before its text.
    boxes = [TextBox("1. ¿Cuál es el agente causal más probable?", x, 20, 170, size=SIZE)]
    agents = ["Trichophyton rubrum", "Candida albicans", "Malassezia furfur", "Sporothrix schenckii"]
    for i, (label, text) in enumerate(zip("ABCD", agents)):
        boxes += [TextBox(label, x, 27 + i * ROW, 5, size=SIZE), TextBox(text, x + 12, 27 + i * ROW, 100, size=SIZE)]
    # Question 2: labels a word space before their text, at the stem's left edge; a stem line opens
    # with the Portuguese article "A"; option C wraps onto a line indented under its text.
    boxes += [
        TextBox("2. Mujer de 30 años, consulta por lesiones anulares.", x, 55, 170, size=SIZE),
        TextBox("A paciente refiere prurito intenso desde hace", x, 55 + ROW, 170, size=SIZE),
        TextBox("dos semanas. ¿Cuál es el diagnóstico?", x, 55 + 2 * ROW, 170, size=SIZE),
        TextBox("A tinea corporis", x, 56 + 3 * ROW, 170, size=SIZE),
        TextBox("B dermatitis seborreica", x, 56 + 4 * ROW, 170, size=SIZE),
        TextBox("C psoriasis vulgar, en placas extensas con", x, 56 + 5 * ROW, 170, size=SIZE),
        TextBox("descamación plateada", x + 4, 56 + 6 * ROW, 170, size=SIZE),
        TextBox("D pitiriasis rosada", x, 56 + 7 * ROW, 170, size=SIZE),
    ]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    lines = [line.text for page in extract_document(sheet, "0" * 64, ExtractOptions.from_spec(spec())).pages for line in page.lines]
    assert lines[1:3] == ["A", "Trichophyton rubrum"]  # the wide gap did split the row
    result = run(spec(options={"styles": ["A"]}), sheet, _key(tmp_path / "2031" / "key.pdf", ["1. A", "2. A"]))
    found = by_number(result)
    assert found["1"].choices == agents and found["1"].answer == "A"
    assert found["2"].question == (
        "Mujer de 30 años, consulta por lesiones anulares.\n"
        "A paciente refiere prurito intenso desde hace\n"
        "dos semanas. ¿Cuál es el diagnóstico?"
    )
    assert found["2"].choices == [
        "tinea corporis", "dermatitis seborreica", "psoriasis vulgar, en placas extensas con descamación plateada", "pitiriasis rosada"
    ]
    assert found["2"].choice_labels == ["A", "B", "C", "D"] and found["2"].answer == "A"
    assert found["1"].flags == [] and found["2"].flags == [] and result.problems == []


@pytest.mark.parametrize("columns", [1, 2, 4])
def test_from_two_to_ten_options_in_one_two_and_four_columns(tmp_path, columns):
    # Stems span the line, as printed: the option grid stands inside one page column.
    questions = [
        item(n, options=n + 1, stem=f"Enunciado de la pregunta {n}, que ocupa toda la anchura de la línea impresa")
        for n in range(1, 10)
    ]
    pages, boxes, y = [], [], 20.0
    for q in questions:
        if y + -(-len(q.options) // columns) * ROW + 10 > 270:
            pages, boxes, y = [*pages, boxes], [], 20.0
        found, y = question_rows(q, y, columns=columns, width=160)
        boxes += found
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", *pages, boxes)
    last = {q.number: "ABCDEFGHIJ"[len(q.options) - 1] for q in questions}
    key = _key(tmp_path / "2031" / "key.pdf", [f"{n}. {label}" for n, label in last.items()])
    the_spec = spec(
        options={"labels": list("ABCDEFGHIJ"), "min_count": 2},
        key={"entry": r"(?<![\d.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-J])\b"},
    )
    result = run(the_spec, sheet, key)
    assert [q.number for q in result.questions] == [str(n) for n in range(1, 10)]
    for q in result.questions:
        count = int(q.number) + 1
        assert q.question == f"Enunciado de la pregunta {q.number}, que ocupa toda la anchura de la línea impresa"
        assert q.choice_labels == list("ABCDEFGHIJ"[:count]), q.number
        assert q.choices == _choices(q.number, count), q.number
        assert q.answer == last[q.number] and q.answer_index == count - 1 and q.flags == []
    assert result.problems == []


def test_an_option_whose_content_sits_on_rows_of_its_own_keeps_it_and_the_next_options_are_found(tmp_path):
    boxes = [
        TextBox("1. ¿Qué matriz es simétrica?", LEFT, 20, 170, size=SIZE),
        TextBox("A) la matriz identidad de orden dos", OPTION_X, 27, 150, size=SIZE),
        TextBox("B) la matriz", OPTION_X, 33, 150, size=SIZE),
        # A 2x2 table under B's label, its rows further apart than the text's line pitch.
        TextBox("1    2", OPTION_X + 12, 42, 30, size=SIZE),
        TextBox("2    5", OPTION_X + 12, 50, 30, size=SIZE),
        TextBox("C) la matriz nula de orden tres", OPTION_X, 59, 150, size=SIZE),
        TextBox("D) ninguna de las anteriores", OPTION_X, 65, 150, size=SIZE),
    ]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    result = run(spec(), sheet, _key(tmp_path / "2031" / "key.pdf", ["1. B"]))
    [question] = result.questions
    assert question.choices == [
        "la matriz identidad de orden dos", "la matriz 1 2 2 5", "la matriz nula de orden tres", "ninguna de las anteriores"
    ]
    assert question.answer == "B" and question.flags == [] and result.problems == []


def test_an_exponent_above_its_option_line_stays_with_that_option(tmp_path):
    boxes = [TextBox("1. ¿Cuánto vale la constante?", LEFT, 20, 170, size=SIZE)]
    for i, (base, exponent) in enumerate([("6,02 · 10", "23"), ("6,67 · 10", "−11"), ("9,81", None), ("3,00 · 10", "8")]):
        y = 28 + 7 * i
        boxes.append(TextBox(f"{'ABCD'[i]}) {base}", OPTION_X, y, 150, size=SIZE))
        if exponent:
            boxes.append(TextBox(exponent, OPTION_X + 21.5, y - 1.7, 10, size=6))
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    result = run(spec(), sheet, _key(tmp_path / "2031" / "key.pdf", ["1. B"]))
    [question] = result.questions
    assert question.question == "¿Cuánto vale la constante?"
    # Each exponent stays with its own option, written in place after its base (`smallrows`: `10²³` reads `1023`);
    # whether a space stands between them is the gap's business (docs/concepts/extract-and-parse.md).
    assert ["".join(c.split()) for c in question.choices] == ["6,02·1023", "6,67·10−11", "9,81", "3,00·108"]
    assert question.answer == "B"


# --------------------------------------------------------------------------- 9, 10, 11, 12


def _large_numbers_sheet(path: Path, gap_mm: float) -> Path:
    """Numbers set in 14 pt, their ". ¿Cuál…" in 10 pt `gap_mm` to the right of the number's left edge."""
    boxes, y = [], 20.0
    for n in (15, 16, 17):
        boxes += [
            TextBox(str(n), LEFT, y - 1, 12, size=14, bold=True),
            TextBox(f". ¿Cuál es la respuesta {n}?", LEFT + gap_mm, y, 150, size=SIZE),
        ]
        for i, label in enumerate("ABCD"):
            boxes.append(TextBox(f"{label}) opción {label.lower()} de {n}", OPTION_X, y + 7 + i * ROW, 150, size=SIZE))
        y += 35
    return pdf(path, boxes)


def test_a_large_question_number_set_apart_from_its_dot_and_stem_is_joined(tmp_path):
    sheet = _large_numbers_sheet(tmp_path / "2031" / "sheet.pdf", gap_mm=14)
    lines = [line.text for page in extract_document(sheet, "0" * 64, ExtractOptions.from_spec(spec())).pages for line in page.lines]
    assert lines[:2] == ["15", ". ¿Cuál es la respuesta 15?"]  # the number is a line of its own
    result = run(spec(), sheet, _key(tmp_path / "2031" / "key.pdf", ["15. A", "16. B", "17. C"]))
    assert {q.number: q.answer for q in result.questions} == {"15": "A", "16": "B", "17": "C"}
    assert by_number(result)["16"].question == "¿Cuál es la respuesta 16?"
    assert by_number(result)["16"].choices == _choices("16", 4)
    assert result.problems == []


def test_a_large_question_number_a_little_apart_from_its_dot_is_joined(tmp_path):
    sheet = _large_numbers_sheet(tmp_path / "2031" / "sheet.pdf", gap_mm=10)
    result = run(spec(), sheet, _key(tmp_path / "2031" / "key.pdf", ["15. A", "16. B", "17. C"]))
    assert {q.number: q.answer for q in result.questions} == {"15": "A", "16": "B", "17": "C"}


def test_stop_at_ends_the_sheet_with_a_note_naming_the_page_and_the_lines_left(tmp_path):
    boxes, y = [], 20.0
    for n in range(1, 4):
        found, y = question_rows(item(n), y)
        boxes += found
    survey = [
        TextBox("ENCUESTA DE SATISFACCIÓN", LEFT, 20, 170, size=12),
        *lines_at(["1. ¿Le pareció adecuada la duración?", "A) Sí", "B) No", "C) No sabe"], LEFT, 30),
    ]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes, survey)
    key = _key(tmp_path / "2031" / "key.pdf", ["1. A", "2. B", "3. C"])
    result = run(spec(layout={"stop_at": ["^ENCUESTA DE SATISFACCI"]}), sheet, key)
    assert {q.number: q.answer for q in result.questions} == {"1": "A", "2": "B", "3": "C"}
    assert result.notes == [
        "layout.stop_at ended the sheet at page 2 ('ENCUESTA DE SATISFACCIÓN'): 5 line(s) on pages 2–2 not parsed"
    ]
    assert result.problems == []


def test_a_word_hyphenated_at_an_option_line_end_joins_keeping_its_hyphen(tmp_path):
    boxes = [
        TextBox("1. ¿Qué dispone la norma?", LEFT, 20, 170, size=SIZE),
        TextBox("A) El recurso de alzada deberá interponer-", OPTION_X, 27, 150, size=SIZE),
        TextBox("se-á en el plazo de un mes", OPTION_X + 3, 27 + ROW, 150, size=SIZE),
        *[TextBox(f"{label}) opción {label.lower()}", OPTION_X, 27 + (i + 2) * ROW, 150, size=SIZE) for i, label in enumerate("BCD")],
    ]
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    # The text layer reports a hyphen that ends a line as the control code 0x02, not as "-".
    document = pdfium.PdfDocument(str(sheet))
    try:
        textpage = document[0].get_textpage()
        codes = [pdfium.raw.FPDFText_GetUnicode(textpage.raw, i) for i in range(textpage.count_chars())]
        textpage.close()
    finally:
        document.close()
    assert codes.count(0x02) == 1
    lines = [line.text for page in extract_document(sheet, "0" * 64, ExtractOptions.from_spec(spec())).pages for line in page.lines]
    assert "A) El recurso de alzada deberá interponer-" in lines
    assert not any("\x02" in line for line in lines)
    result = run(spec(), sheet, _key(tmp_path / "2031" / "key.pdf", ["1. A"]))
    [question] = result.questions
    assert question.choices == [
        "El recurso de alzada deberá interponer-se-á en el plazo de un mes", "opción b", "opción c", "opción d"
    ]
    assert question.answer == "A" and question.flags == []


def test_a_closed_family_that_loses_a_questions_options_flags_and_reports_it(tmp_path):
    boxes, y = [], 20.0
    for n in range(1, 4):
        # Question 2 prints "(A)" where the spec expects "A)": its options cannot be read.
        found, y = question_rows(item(n), y, style="({}) " if n == 2 else "{}) ")
        boxes += found
    sheet = pdf(tmp_path / "2031" / "sheet.pdf", boxes)
    the_spec = spec(layout={"closed_types": ["single_choice"]})
    result = run(the_spec, sheet, _key(tmp_path / "2031" / "key.pdf", ["1. A", "2. B", "3. C"]))
    found = by_number(result)
    assert found["2"].type == "open" and found["2"].choices == [] and found["2"].answer is None
    assert found["2"].flags == [
        "read as open, a type the family does not have (layout.closed_types ['single_choice'])",
        "key entry 'B' was not used: the question was read as open",
    ]
    assert result.problems == [
        "1 question(s) read as a type outside layout.closed_types ['single_choice']: 2",
        "1 key entr(y/ies) left unused, their questions read as not closed: 2",
    ]
    assert (found["1"].answer, found["3"].answer) == ("A", "C")
    assert found["1"].flags == [] and found["3"].flags == []


# --------------------------------------------------------------------------- a number out of the run


def _sheet_with_printed_numbers(path: Path, printed: dict[int, str], count: int = 6) -> Path:
    """Questions 1..count, question n printed with the header `printed[n]` instead of n."""
    boxes, y = [], 20.0
    for n in range(1, count + 1):
        found, y = question_rows(item(n), y)
        if n in printed:
            header = found[0]
            found[0] = TextBox(header.text.replace(f"{n}.", f"{printed[n]}.", 1), header.x, header.y, header.width, size=SIZE)
        boxes += found
    return pdf(path, boxes)


def test_a_number_misread_in_a_gap_of_one_is_the_number_the_run_allows_and_is_flagged(tmp_path):
    # OCR's "92" for 52: the run goes 3, 9, 5; nothing else can stand between 3 and 5.
    sheet = _sheet_with_printed_numbers(tmp_path / "2031" / "sheet.pdf", {4: "9"})
    result = run(spec(), sheet, _key(tmp_path / "2031" / "key.pdf", [f"{n}. {'ABCD'[n % 4]}" for n in range(1, 7)]))
    found = by_number(result)
    assert list(found) == ["1", "2", "3", "4", "5", "6"]
    assert found["4"].question == "Enunciado de la pregunta 4" and found["4"].answer == "A"
    assert found["4"].flags == ["question number read as 9, taken as 4: the only number the numbering allows there"]
    assert all(found[n].flags == [] for n in ("1", "2", "3", "5", "6"))
    assert result.problems == []


def test_a_number_above_the_run_that_fills_no_gap_is_text_and_the_run_goes_on(tmp_path):
    # A year at the numbers' edge inside question 2 used to become question 2019 and hide 3..6.
    boxes, y = [], 20.0
    for n in range(1, 5):
        found, y = question_rows(item(n), y)
        boxes += found
        if n == 2:
            boxes.append(TextBox("2019. rok wydania tekstu", LEFT, y, 170, size=SIZE))
            y += ROW + 1
    result = run(spec(), pdf(tmp_path / "2031" / "sheet.pdf", boxes))
    found = by_number(result)
    assert list(found) == ["1", "2", "3", "4"]
    assert found["2"].choices == [f"opción {x} de 2" for x in "abcd"]
    assert found["2"].flags == ["text after the options was not kept: '2019. rok wydania tekstu'", "no key entry for this question"]
    assert all(found[n].flags == ["no key entry for this question"] for n in ("1", "3", "4"))


@pytest.mark.parametrize(("lost", "ink"), [({4}, None), ({4, 5}, None), ({4}, "A)")], ids=["one-dropped", "two-dropped", "read-as-label"])
def test_questions_whose_numbers_were_lost_take_the_numbers_the_gap_leaves(tmp_path, lost, ink):
    # On a scan Tesseract drops a number, or reads "4" as "A)": the question runs on after the options
    # of the one before it, and only one number fits each piece the gap leaves.
    boxes, y = [], 20.0
    for n in range(1, 8):
        found, y = question_rows(item(n), y)
        if n in lost:
            found[0] = TextBox(f"Enunciado de la pregunta {n}", LEFT + OPTION_INDENT, found[0].y, 150, size=SIZE)
            if ink:
                found.append(TextBox(ink, LEFT, found[0].y, 5, size=SIZE))
        boxes += found
    key = _key(tmp_path / "2031" / "key.pdf", [f"{n}. {'ABCD'[n % 4]}" for n in range(1, 8)])
    result = run(spec(), pdf(tmp_path / "2031" / "sheet.pdf", boxes), key)
    found = by_number(result)
    assert list(found) == [str(n) for n in range(1, 8)]
    for n in range(1, 8):
        assert found[str(n)].question == f"Enunciado de la pregunta {n}"
        assert found[str(n)].choices == [f"opción {x} de {n}" for x in "abcd"] and found[str(n)].answer == "ABCD"[n % 4]
    read = f"read as {ink!r}" if ink else "not read"
    assert {n: found[n].flags for n in found if found[n].flags} == {
        str(n): [f"question number {read}, taken as {n}: the only number the numbering allows there"] for n in lost
    }
    assert result.problems == []


def test_a_second_run_of_options_with_no_gap_in_the_numbering_stays_flagged_text(tmp_path):
    boxes, y = [], 20.0
    for n in range(1, 4):
        found, y = question_rows(item(n), y)
        boxes += found
        if n == 2:  # another question's text and options pasted in, but no number is missing
            extra, y = question_rows(item(9), y)
            extra[0] = TextBox("Enunciado de un texto sin número", LEFT + OPTION_INDENT, extra[0].y, 150, size=SIZE)
            boxes += extra
    result = run(spec(), pdf(tmp_path / "2031" / "sheet.pdf", boxes))
    found = by_number(result)
    assert list(found) == ["1", "2", "3"]
    assert found["2"].choices == [f"opción {x} de 2" for x in "abcd"]
    assert any(f.startswith("text after the options was not kept: 'Enunciado de un texto sin número") for f in found["2"].flags)


def test_a_question_whose_number_was_lost_right_after_a_passage_is_cut_from_the_passage(tmp_path):
    boxes, y = [], 20.0
    for n in range(1, 5):
        if n == 3:
            boxes.append(TextBox("LECTURA 2", LEFT, y, 60, size=SIZE))
            boxes += [TextBox(f"Texto de la lectura, línea {i}, que los números de preguntas no tocan.", LEFT, y + ROW * (i + 1), 170, size=SIZE) for i in range(3)]
            y += ROW * 5
        found, y = question_rows(item(n), y)
        if n == 3:
            found[0] = TextBox("Enunciado de la pregunta 3", LEFT + OPTION_INDENT, found[0].y, 150, size=SIZE)
        boxes += found
    key = _key(tmp_path / "2031" / "key.pdf", [f"{n}. {'ABCD'[n % 4]}" for n in range(1, 5)])
    result = run(spec(layout={"context_start": "^LECTURA"}), pdf(tmp_path / "2031" / "sheet.pdf", boxes), key)
    found = by_number(result)
    assert list(found) == ["1", "2", "3", "4"]
    assert found["3"].question == "Enunciado de la pregunta 3" and found["3"].answer == "D"
    assert found["3"].choices == [f"opción {x} de 3" for x in "abcd"]
    assert found["3"].context.endswith("que los números de preguntas no tocan.") and "Enunciado" not in found["3"].context
    assert found["4"].context == found["3"].context
    assert found["3"].flags == ["question number not read, taken as 3: the only number the numbering allows there"]


@pytest.mark.parametrize("printed, labels", [("①②③④", "1234"), ("❶❷❸❹", "1234")])
def test_labels_printed_as_enclosed_characters_are_the_labels_they_enclose(tmp_path, printed, labels):
    """Circled and white-on-black numbers are single characters in the text layer ("①", "❶"); a spec
    declares the plain labels, as for any label. (The test font has no enclosed letters: the same
    table maps "Ⓐ", "🅐" and "⑴", see test_labels.)"""
    questions = [item(n) for n in range(1, 3)]
    boxes, y = [], 20.0
    for q in questions:
        boxes.append(TextBox(f"{q.number}. {q.stem}", LEFT, y, 170, size=SIZE))
        y += ROW + 1
        for mark, text in zip(printed, q.options):
            boxes.append(TextBox(f"{mark} {text}", OPTION_X, y, 120, size=SIZE))
            y += ROW
        y += 3
    found = by_number(run(spec(options={"labels": list(labels), "styles": ["A"]}), pdf(tmp_path / "2031" / "sheet.pdf", boxes)))
    assert list(found) == ["1", "2"]
    for q in questions:
        assert found[q.number].choices == list(q.options)
        assert found[q.number].choice_labels == list(labels)
