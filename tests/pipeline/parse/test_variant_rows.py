"""A key table with one answer column per booklet type, as OCR reads it off a scan (`variantrows`): each
answer comes from the cell under its column, numbers count up, and every question whose answer could
not be placed is reported for every booklet type; none is lost silently, none keyed from a neighbour.

The pages are what Tesseract and the table passes gave for the generated `booklets` key at 150 dpi, blur
0.8 (a cell word per cell, the rules' remnants read between the rows)."""
from __future__ import annotations

from pipeline.extract.document import UNREAD_CELL, ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.keys import read_variant_table
from pipeline.specs import KeySpec

SPEC = KeySpec(kind="variant_table", variant_header=r"Typ\s*(?P<variant>\w)", variant="C")
NUMBER_X, ANSWER_X = (99.3, 127.4), (163.2, 248.3, 333.3, 418.4)
PITCH = 22.2


def cell(text: str, x0: float, top: float, width: float = 42.4) -> Line:
    return Line(text, x0, top, x0 + width, top + 10)


def row(number: int, answers: str) -> list[Line]:
    top = 113.5 + (number - 1) * PITCH
    return [cell(str(number), NUMBER_X[0], top, NUMBER_X[1] - NUMBER_X[0])] + [cell(a, x, top) for a, x in zip(answers, ANSWER_X)]


def scanned(lines: list[Line]) -> ExtractedDocument:
    header = [Line("Nr Typ A Typ B Typ C Typ D", 99.3, 90.7, 460.7, 100.7)]
    page = Page(1, 595, 842, PageMethod.OCR, header + sorted(lines, key=lambda line: (line.top, line.x0)))
    return ExtractedDocument("0" * 64, "key.pdf", 1, [page], "test")


ANSWERS = {n: "ABCD"[n % 4] + "BCDA"[n % 4] + "CDAB"[n % 4] + "DABC"[n % 4] for n in range(1, 9)}


def tables(lines: list[Line]):
    return read_variant_table(scanned(lines), SPEC, "key.pdf")


def test_a_clean_scanned_table_gives_each_booklet_its_column():
    result = tables([line for n, answers in ANSWERS.items() for line in row(n, answers)])
    assert {v: result[v].answers for v in "ABCD"} == {v: {str(n): a["ABCD".index(v)] for n, a in ANSWERS.items()} for v in "ABCD"}
    assert all(not t.unread and not t.problems for t in result.values())


def test_a_rules_remnant_read_as_a_number_keys_nothing():
    # "5 | I | i" read off the rule between rows 6 and 7: taken left to right it keyed question 5 twice.
    junk = [cell("5", 140, 113.5 + 5.7 * PITCH, 4), cell("|", 192, 113.5 + 5.7 * PITCH, 3), cell("I", 200, 113.5 + 5.7 * PITCH, 3),
            cell("|", 292, 113.5 + 5.7 * PITCH, 3), cell("i", 303, 113.5 + 5.7 * PITCH, 3)]
    result = tables([line for n, answers in ANSWERS.items() for line in row(n, answers)] + junk)
    assert result["C"].answers == {str(n): a[2] for n, a in ANSWERS.items()}
    assert result["C"].twice == {} and not result["C"].unread
    assert any("key row 5" in problem and "order" in problem for problem in result["C"].problems)


def test_a_row_whose_number_went_to_the_row_above_is_placed_by_the_run_and_reported():
    lines = [line for n, answers in ANSWERS.items() if n != 4 for line in row(n, answers)]
    three = 113.5 + 2 * PITCH
    # Row 4's number read glued to junk in row 3's number cell; row 4's answers came without a number.
    lines.append(cell("4 AŚ", NUMBER_X[0], three + 2.2, NUMBER_X[1] - NUMBER_X[0]))
    lines += [line for line in row(4, ANSWERS[4])[1:]]
    result = tables(lines)
    assert result["A"].answers["3"] == ANSWERS[3][0] and result["C"].answers["3"] == ANSWERS[3][2]
    assert result["C"].answers["4"] == ANSWERS[4][2]
    assert any("key row 4: its number unread" in problem for problem in result["C"].problems)


def test_a_row_lost_whole_is_reported_for_its_question_in_every_booklet():
    result = tables([line for n, answers in ANSWERS.items() if n != 6 for line in row(n, answers)])
    for variant in "ABCD":
        assert "6" not in result[variant].answers and result[variant].unread == ["6"]


def test_a_cell_with_two_readings_or_none_is_reported_not_shifted():
    lines = [line for n, answers in ANSWERS.items() for line in row(n, answers)]
    lines = [line for line in lines if not (line.x0 == ANSWER_X[1] and abs(line.top - (113.5 + PITCH)) < 1)]  # row 2, Typ B: blank
    lines.append(cell(UNREAD_CELL, ANSWER_X[0], 113.5 + 4 * PITCH))  # row 5, Typ A: unread
    lines = [line for line in lines if not (line.x0 == ANSWER_X[0] and abs(line.top - (113.5 + 4 * PITCH)) < 1 and line.text != UNREAD_CELL)]
    result = tables(lines)
    assert result["B"].unread == ["2"] and "2" not in result["B"].answers
    assert result["A"].unread == ["5"] and "5" not in result["A"].answers
    assert result["C"].answers["2"] == ANSWERS[2][2] and result["D"].answers["5"] == ANSWERS[5][3]


def test_a_header_that_lost_a_booklet_type_keys_no_column_and_says_why():
    # "C Kitapçığı" read as "CcC. sı": three booklet types named over four answer columns. Taken left to
    # right, booklet D got booklet C's answers.
    header = Line("Nr A Kitapçığı B Kitapçığı CcC. sı D Kitapçığı", 99.3, 90.7, 460.7, 100.7)
    lines = [line for n, answers in ANSWERS.items() for line in row(n, answers)]
    page = Page(1, 595, 842, PageMethod.OCR, [header] + sorted(lines, key=lambda line: (line.top, line.x0)))
    spec = KeySpec(kind="variant_table", variant_header=r"(?P<variant>\w)\s*Kitapçığı", variant="D")
    result = read_variant_table(ExtractedDocument("0" * 64, "key.pdf", 1, [page], "test"), spec, "key.pdf")
    assert sorted(result) == ["A", "B", "D"]
    assert result["D"].answers == {} and result["D"].unread == [str(n) for n in ANSWERS]
    assert any("header names 3 booklet type(s)" in problem for problem in result["D"].problems)


def test_numbers_a_key_leaves_out_between_two_adjacent_rows_are_no_entries():
    # A key of the closed questions only: row 09 stands right under row 05. Questions 6-8 have no row in the
    # table, so no answer cell of theirs is unread; a row lost between 10 and 12 (two pitches apart) still is.
    printed = [1, 2, 3, 4, 5, 9, 10, 12, 13]
    places = [0, 1, 2, 3, 4, 5, 6, 8, 9]
    lines = []
    for number, place in zip(printed, places):
        top = 113.5 + place * PITCH
        answers = ANSWERS[number % 8 + 1]
        lines += [cell(f"{number:02d}", NUMBER_X[0], top, NUMBER_X[1] - NUMBER_X[0])] + [cell(a, x, top) for a, x in zip(answers, ANSWER_X)]
    result = tables(lines)
    assert set(result["C"].answers) == {str(n) for n in printed}
    assert result["C"].unread == ["11"]


def test_a_reading_off_a_columns_edge_is_reported_not_keyed():
    # Row 3, Typ B: the cell's letter lost, and "O," read off the edge of a shaded cell's fill in its outer
    # quarter: keyed, it was a wrong answer; it is the cell unread. A letter standing a little off the centre
    # (row 4, Typ C, 10 points) is still its answer.
    lines = [line for n, answers in ANSWERS.items() for line in row(n, answers)]
    three, four = 113.5 + 2 * PITCH, 113.5 + 3 * PITCH
    lines = [line for line in lines if not (line.x0 == ANSWER_X[1] and abs(line.top - three) < 1)]
    lines.append(cell("O,", ANSWER_X[1] - 18, three, 7))
    lines = [line for line in lines if not (line.x0 == ANSWER_X[2] and abs(line.top - four) < 1)]
    lines.append(cell(ANSWERS[4][2], ANSWER_X[2] + 10 + 21.2 - 3.5, four, 7))
    result = tables(lines)
    assert "3" not in result["B"].answers and result["B"].unread == ["3"]
    assert result["C"].answers["4"] == ANSWERS[4][2] and not result["C"].unread


def test_a_one_column_tables_row_whose_number_was_lost_is_reported_not_silent():
    # One answer column (NÚCEM's key at 280 dpi, blur 0.8: row 47's number lost, its answer run into the row above):
    # the number between two rows read is reported unread for its question.
    header = [Line("Nr Typ A", 99.3, 90.7, 200, 100.7)]
    lines = [cell(str(n), NUMBER_X[0], 113.5 + (n - 1) * PITCH, NUMBER_X[1] - NUMBER_X[0]) for n in range(1, 7) if n != 4]
    lines += [cell(f"odpoveď {n}", ANSWER_X[0], 113.5 + (n - 1) * PITCH, 80) for n in range(1, 7)]
    page = Page(1, 595, 842, PageMethod.OCR, header + sorted(lines, key=lambda line: (line.top, line.x0)))
    [table] = read_variant_table(ExtractedDocument("0" * 64, "key.pdf", 1, [page], "test"), SPEC.model_copy(update={"variant": "A"}),
                                 "key.pdf").values()
    assert "4" not in table.answers and table.unread == ["4"]


def _one_column(lines: list[Line]):
    header = [Line("Nr Typ A", 99.3, 90.7, 200, 100.7)]
    page = Page(1, 595, 842, PageMethod.OCR, header + sorted(lines, key=lambda line: (line.top, line.x0)))
    [table] = read_variant_table(ExtractedDocument("0" * 64, "key.pdf", 1, [page], "test"), SPEC.model_copy(update={"variant": "A"}),
                                 "key.pdf").values()
    return table


def test_a_number_misread_as_letters_still_ends_its_neighbours_cells():
    # NÚCEM's key at 260 dpi, uneven light: row 47's number read "AT" in the number column, its answer "1/jedno" beside
    # it; the row above (the page's last row read with a number) took that answer as its own second line, a wrong answer.
    # The number column's line is a row: its neighbours' cells end half-way to it, its question is reported.
    for lost in (4, 6):  # in the middle of the page, and its last row
        lines = [cell(str(n) if n != lost else "AT", NUMBER_X[0], 113.5 + (n - 1) * PITCH, NUMBER_X[1] - NUMBER_X[0]) for n in range(1, 7)]
        lines += [cell(f"odpoveď {n}", ANSWER_X[0], 113.5 + (n - 1) * PITCH, 80) for n in range(1, 7)]
        table = _one_column(lines)
        assert table.answers == {str(n): f"odpoveď {n}" for n in range(1, 7) if n != lost}, lost
        assert table.unread == ([str(lost)] if lost < 6 else [])


def test_a_speck_beside_a_number_is_no_row():
    # A mark read beside row 12's number ("i", overlapping the number's line) is a piece of that row, not a row of its
    # own: the answer printed in two lines centred on the number stays whole.
    lines = [cell(str(n), NUMBER_X[0], 113.5 + (n - 1) * PITCH, NUMBER_X[1] - NUMBER_X[0]) for n in range(10, 14)]
    lines.append(cell("i", NUMBER_X[1] - 4, 113.5 + 11 * PITCH + 4, 3))
    lines += [cell(f"odpoveď {n}", ANSWER_X[0], 113.5 + (n - 1) * PITCH - 5, 80) for n in range(10, 14)]
    lines += [cell(f"riadok {n}", ANSWER_X[0], 113.5 + (n - 1) * PITCH + 5, 80) for n in range(10, 14)]
    table = _one_column(lines)
    assert table.answers == {str(n): f"odpoveď {n} riadok {n}" for n in range(10, 14)}
