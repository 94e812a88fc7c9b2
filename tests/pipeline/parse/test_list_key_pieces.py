"""A list key read off a scan, a row of several entries where one entry's cell came back garbled: the
question it belonged to is reported (`key.cell_unread`), never lost without a line; a piece that shows
no number is a report line of its own."""
from __future__ import annotations

from pipeline.extract.document import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.keys import read_list
from pipeline.specs import KeySpec

SPEC = KeySpec(kind="list", entry=r"(?<![\w.])(?P<number>\d{1,3})\.\s*(?P<answer>[ABCD])\b")
COLUMNS = (60.0, 160.0, 260.0)  # three columns of five entries: 1–5, 6–10, 11–15


def answer(n: int) -> str:
    return "ABCD"[n % 4]


def page(replaced: dict[int, str], method: PageMethod = PageMethod.OCR) -> ExtractedDocument:
    lines = [Line("Klucz odpowiedzi", 60, 40, 200, 52)]
    for r in range(5):
        for c, x in enumerate(COLUMNS):
            n = c * 5 + r + 1
            text = replaced.get(n, f"{n}. {answer(n)}")
            lines.append(Line(text, x, 70 + 20 * r, x + 30, 80 + 20 * r))
    return ExtractedDocument("0" * 64, "key.pdf", 1, [Page(1, 595, 842, method, lines)], "test")


def test_a_garbled_entry_beside_read_ones_is_reported_for_its_question():
    table = read_list(page({7: "7 8"}), SPEC, "key.pdf")  # "7. C" read as "7 8": no entry
    assert "7" not in table.answers
    assert table.unread == ["7"]
    assert {n: a for n, a in table.answers.items()} == {str(n): answer(n) for n in range(1, 16) if n != 7}


def test_a_garbled_piece_without_a_number_is_a_report_line():
    table = read_list(page({12: "w P"}), SPEC, "key.pdf")
    assert "12" not in table.answers
    assert any("'w P'" in str(problem) for problem in table.problems)


def test_an_entry_whose_answer_is_a_mark_is_reported_for_its_question():
    table = read_list(page({3: "3 ,"}), SPEC, "key.pdf")
    assert table.unread == ["3"] and "3" not in table.answers


def test_text_layer_rows_are_left_as_they_were():
    table = read_list(page({7: "7 8"}, PageMethod.TEXT), SPEC, "key.pdf")
    assert table.unread == [] and "7" not in table.answers
