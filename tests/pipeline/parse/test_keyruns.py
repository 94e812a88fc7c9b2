"""A scanned key's entry numbers are mended from their column's run: a number misread in a gap of one,
a row whose number is unreadable or gone, and a misread section heading; text-layer keys are read as
printed and every mended entry is reported on its question, its entry counted as inferred."""
from __future__ import annotations

from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.keys import read_list
from pipeline.specs import KeySpec, SectionRule

ENTRY = r"(?P<number>\d{1,3})\.\s*(?P<answer>[a-dA-D])\b"


def _key(columns: list[list[str]], method: PageMethod = PageMethod.OCR) -> ExtractedDocument:
    lines = [
        Line(text=text, x0=30 + 290 * c, top=80 + 11 * row, x1=60 + 290 * c, bottom=88 + 11 * row, font_size=9)
        for c, column in enumerate(columns) for row, text in enumerate(column)
    ]
    page = Page(number=1, width=595, height=842, method=method, lines=sorted(lines, key=lambda l: (l.top, l.x0)))
    return ExtractedDocument(sha256="0" * 64, path="key.pdf", page_count=1, pages=[page], stage_version="test")


def _spec(**fields) -> KeySpec:
    return KeySpec(kind="list", entry=ENTRY, **fields)


COLUMN = ["tl a", "2. b", "3. d", "4. c", "5. d", "6. c", "7. d", "8. a", "9  c", "10. b", "1. d", "12. a", "C", "14. d"]


def test_numbers_misread_unread_or_gone_take_the_one_number_their_column_leaves():
    table = read_list(_key([COLUMN]), _spec(), "key.pdf")
    assert table.answers == {str(n): a for n, a in zip(range(1, 15), "abdcdcdacbdaCd")}
    assert table.problems == [
        "key key.pdf: key entry read as 'tl a', taken as 1 (before 2) from its column's run",
        "key key.pdf: key entry read as '9 c', taken as 9 (between 8 and 10) from its column's run",
        "key key.pdf: key entry read as '1', taken as 11 (between 10 and 12) from its column's run",
        "key key.pdf: key entry read as 'C', taken as 13 (between 12 and 14) from its column's run",
    ]
    # Each a line on its question, and the entries the run gave a number rest on it: their questions are unsure.
    assert [p.concerns.question for p in table.problems] == ["1", "9", "11", "13"]
    assert table.inferred == {"1", "9", "11", "13"}


def test_a_gap_wider_than_the_rows_between_is_left_as_read_and_the_row_reported():
    # 3 and 4 are both missing but only one row stands between: which number is it?
    table = read_list(_key([["1. a", "2. b", "C", "5. d"]]), _spec(), "key.pdf")
    assert table.answers == {"1": "a", "2": "b", "5": "d"}
    assert table.problems == ["key line 'C' among the entries could not be read as one (OCR)"]


def test_every_unread_row_among_the_entries_is_a_report_line_but_headings_and_footers_are_not():
    column = ["KLUCZ ODPOWIEDZI", "1. a", "2. b", "3. c", "~~ ,", "5. d", "Strona 2 z 2"]
    rows = [f"{n}. a  {n + 22}. c" for n in range(1, 4)] + ["%$ 26 ?"]  + ["5. b  27. d"]
    table = read_list(_key([column]), _spec(), "key.pdf")
    assert table.answers == {"1": "a", "2": "b", "3": "c", "5": "d"}
    assert table.problems == ["key line '~~ ,' among the entries could not be read as one (OCR)"]
    # Entries read across a row of columns are not mended, but a row read as none is still reported.
    table = read_list(_key([rows]), _spec(), "key.pdf")
    assert table.problems == ["key line '%$ 26 ?' among the entries could not be read as one (OCR)"]


def test_text_layer_keys_are_read_as_printed():
    table = read_list(_key([COLUMN], PageMethod.TEXT), _spec(), "key.pdf")
    assert "11" not in table.answers and "13" not in table.answers and table.problems == []
    assert table.answers["1"] == "d"  # the printed "1. d" (between 10 and 12) is taken as it stands


def test_a_misread_section_heading_still_opens_its_part_and_runs_restart_there():
    columns = [["Primera parte", "1. a", "2. b", "3. c"], ["Segunda parte", "1. d", "2  a", "3. b", "Preauntas de reserva", "tl c", "2. d", "3. a"]]
    spec = _spec(sections=[
        SectionRule(start="^Primera parte", prefix="1."), SectionRule(start="^Segunda parte", prefix="2."),
        SectionRule(start="^Preguntas de reserva", prefix="R", nested=True),
    ])
    table = read_list(_key(columns), spec, "key.pdf")
    assert table.answers == {"1.1": "a", "1.2": "b", "1.3": "c", "2.1": "d", "2.2": "a", "2.3": "b", "2.r1": "c", "2.r2": "d", "2.r3": "a"}  # number keys fold case
    assert table.problems == [
        "key key.pdf: key entry read as '2 a', taken as 2.2 (between 1 and 3) from its column's run",
        "key key.pdf: key entry read as 'tl c', taken as 2.R1 (before 2) from its column's run",
    ]


def test_entries_read_across_a_row_of_columns_are_never_renumbered():
    # "1. a  23. c  45. d" row by row: the entries do not count up, so no run says what "1" should be.
    rows = [f"{n}. a  {n + 22}. c  {n + 44}. d" for n in range(1, 6)]
    table = read_list(_key([rows]), _spec(), "key.pdf")
    assert set(table.answers) == {str(n + k) for n in range(1, 6) for k in (0, 22, 44)} and table.problems == []


def test_a_tables_rows_of_pairs_read_across_are_never_renumbered():
    # Five "№ | Ответ" pairs a row, two rows: read row by row the numbers step by two (1 3 5 7 9, then 2 4 …),
    # which once passed for a run with lost entries, and every entry was renumbered 1, 2, 3 … in reading order.
    rows = [[f"{n}. a", f"{n + 2}. b", f"{n + 4}. c", f"{n + 6}. d", f"{n + 8}. a"] for n in (1, 2)]
    lines = [Line(text=t, x0=30 + 100 * c, top=80 + 11 * r, x1=60 + 100 * c, bottom=88 + 11 * r, font_size=9)
             for r, row in enumerate(rows) for c, t in enumerate(row)]
    page = Page(number=1, width=595, height=842, method=PageMethod.OCR, lines=lines)
    document = ExtractedDocument(sha256="0" * 64, path="key.pdf", page_count=1, pages=[page], stage_version="test")
    table = read_list(document, _spec(), "key.pdf")
    assert table.answers == {str(n): "abcda"[(n - 1) // 2] for n in range(1, 11)} and table.problems == []


def test_a_question_keyed_twice_with_different_answers_is_reported_and_left_unkeyed():
    table = read_list(_key([["1. a", "2. b", "2. c", "3. d"]], PageMethod.TEXT), _spec(), "key.pdf")
    assert table.answers == {"1": "a", "3": "d"}  # neither answer is "first": the key gives no one answer
    assert table.problems == ["key key.pdf: question 2 keyed twice (b, c); left unkeyed, as the key gives no one answer"]


def test_a_number_whose_answer_was_lost_just_outside_the_run_is_reported():
    # "1." above "2. b" still shows the number the run gives its place; the heading above it does not.
    table = read_list(_key([["Respuestas 2024", "1.", "2. b", "3. c", "4.", "Página 1"]]), _spec(), "key.pdf")
    assert table.answers == {"2": "b", "3": "c"}
    # Each line names the question whose number it shows: the question has a line of its own, not only the catch-all.
    assert table.problems == [
        "key key.pdf: key line '1.' among the entries could not be read as one (OCR): question 1's entry is in it, not keyed",
        "key key.pdf: key line '4.' among the entries could not be read as one (OCR): question 4's entry is in it, not keyed",
    ]
    assert [p.concerns.question for p in table.problems] == ["1", "4"] and {"1", "4"} <= table.named


def test_a_part_of_the_key_where_no_entry_was_read_is_reported_with_its_lines():
    columns = [["Primera parte", "1. a", "2. b"], ["Preguntas de reserva", "tl", "d", "b"]]
    spec = _spec(sections=[SectionRule(start="^Primera parte", prefix="1."),
                           SectionRule(start="^Preguntas de reserva", prefix="R")])
    table = read_list(_key(columns), spec, "key.pdf")
    assert table.answers == {"1.1": "a", "1.2": "b"}
    assert table.problems == ["key part R: 3 line(s) read but none as an entry (OCR): 'tl', 'd', 'b'"]


def test_an_answer_read_as_a_digit_of_its_shape_is_that_label_and_the_last_row_mends_too():
    # "1. B" read as "1.8" at the top of the column and "5. B" as "5.8" at its foot, below the last entry read
    spec = KeySpec(kind="list", entry=r"(?<![\d.])(?P<number>\d{1,2})[.*]?\s*(?P<answer>[A-D])\b")
    table = read_list(_key([["1.8", "2.C", "3.D", "4.B", "5.8"]]), spec, "key.pdf")
    assert table.answers == {"1": "B", "2": "C", "3": "D", "4": "B", "5": "B"}
    assert table.problems == [
        "key key.pdf: key entry read as '1.8', taken as 1 (before 2), its answer B read as '8' from its column's run",
        "key key.pdf: key entry read as '5.8', taken as 5 (after 4), its answer B read as '8' from its column's run",
    ]
    # "8* C" read as "8* O": it shows its number with the pilot mark, but "O" may be C or D: reported, not read
    table = read_list(_key([["6 D", "7 A", "8* O"]]), spec, "key.pdf")
    assert table.answers == {"6": "D", "7": "A"}
    assert table.problems == ["key key.pdf: key line '8* O' among the entries could not be read as one (OCR): question 8's entry is in it, not keyed"]
    # on a text layer the key is read as printed
    assert read_list(_key([["1.8", "2.C"]], PageMethod.TEXT), spec, "key.pdf").answers == {"2": "C"}


def test_rows_between_two_numbers_as_far_apart_as_their_rows_take_the_numbers_their_places_give():
    # INAP 2024 on a scan: "11. d" read as "1. d", the number of "12. a" lost, and the last "50. c" read as "50. e".
    column = ["6. c", "7. d", "8. a", "9. c", "10. b", "1. d", "a", "13. a", "14. d"]
    table = read_list(_key([column]), _spec(), "key.pdf")
    assert table.answers == {"6": "c", "7": "d", "8": "a", "9": "c", "10": "b", "11": "d", "12": "a", "13": "a", "14": "d"}
    assert table.problems == [
        "key key.pdf: key entry read as '1', taken as 11 (between 10 and 13) from its column's run",
        "key key.pdf: key entry read as 'a', taken as 12 (between 10 and 13) from its column's run",
    ]
    table = read_list(_key([["47. c", "48. d", "49. a", "50. e"]]), _spec(), "key.pdf")
    assert table.answers["50"] == "c"
    assert table.problems == ["key key.pdf: key entry read as '50. e', taken as 50 (after 49), its answer c read as 'e' from its column's run"]


def test_numbers_that_break_the_run_where_the_rows_do_not_fit_are_left_as_read():
    # 10 and 14 are four apart with two rows between: no row can be told its number.
    table = read_list(_key([["7. d", "8. a", "9. c", "10. b", "1. d", "a", "14. d", "15. a"]]), _spec(), "key.pdf")
    assert "11" not in table.answers and "12" not in table.answers and table.answers["1"] == "d"
    assert table.problems == ["key line 'a' among the entries could not be read as one (OCR)"]


def test_a_word_before_each_number_read_as_a_digit_glued_to_it_is_mended_from_the_run_below():
    # `Số 1. b` … `Số 9. b` read `51. b` … `59. b` (the word read as a 5), then `Số 10. c` read right: the run from 10
    # gives those rows 1–9, and every number read ends with the one its row is given.
    column = [f"5{n}. {a}" for n, a in zip(range(1, 10), "bddabbddb")] + ["10. c", "11. c", "12. b"]
    table = read_list(_key([column]), _spec(), "key.pdf")
    assert table.answers == {str(n): a for n, a in zip(range(1, 13), "bddabbddbccb")}
    assert len(table.problems) == 9 and table.problems[0] == (
        "key key.pdf: key entry read as '51', taken as 1 (the run from 10 gives its row; what stands before the "
        "number read as a digit) from its column's run")
    assert table.inferred == {str(n) for n in range(1, 10)}


def test_a_run_whose_numbers_do_not_end_with_the_ones_their_rows_are_given_is_left_as_read():
    # 21–23 under 1–3 with rows lost between: no digit before a number, a column of another part of the key.
    column = ["1. a", "2. b", "3. c", "21. d", "22. a", "23. b"]
    table = read_list(_key([column]), _spec(), "key.pdf")
    assert table.answers == {"1": "a", "2": "b", "3": "c", "21": "d", "22": "a", "23": "b"}
    assert table.inferred == set()
