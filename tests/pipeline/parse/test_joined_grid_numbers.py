"""A grid key's number row whose neighbouring cells were read as one number ("1" and "2" as "12", one word over both
cells: the second reader joins them on a scan) is read as the numbers its count leaves out there, one a cell, and
the answers under them pair by place; a joined reading the count does not fix stays as read, and a row that then does
not fit its answers is reported, never shifted."""
from __future__ import annotations

from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse.gridkeys import read_grid, unjoined_numbers
from pipeline.parse.keys import KeyTable
from pipeline.specs import KeySpec

PITCH = 8.0
SIZE = 10
ANSWERS = "DABDBABCBDADCDCBABBD"


def grid_with_joined_cells(joined: str, first: int, cells: int, answers: str, y: float = 50) -> list[TextBox]:
    """A number row whose cells `first` and `first + 1` hold one word `joined` set across both columns (as a scan's
    reading places it), over `answers`, one a column; the other cells numbered from 1."""
    items = []
    for i in range(cells):
        number = i + 1
        if number == first:
            items.append(TextBox(joined, 18 + PITCH * i, y, 2 * PITCH, size=SIZE, align="C"))
        elif number != first + 1:
            items.append(TextBox(str(number), 18 + PITCH * i, y, PITCH, size=SIZE, align="C"))
    return items + [TextBox(a, 18 + PITCH * i, y + 6, PITCH, size=SIZE, align="C") for i, a in enumerate(answers)]


def read(tmp_path: Path, items: list[TextBox]) -> KeyTable:
    path = build_pdf(tmp_path / "key.pdf", [PageSpec(tuple(items))])
    return read_grid(extract_document(path, "1" * 64, ExtractOptions()), KeySpec(kind="grid"), "key.pdf")[""]


def test_a_row_whose_first_two_numbers_were_read_as_one_keys_all_twenty(tmp_path):
    table = read(tmp_path, grid_with_joined_cells("12", 1, 20, ANSWERS))
    assert table.answers == {str(i + 1): a for i, a in enumerate(ANSWERS)}
    assert table.problems == []


def test_two_numbers_joined_inside_the_row_key_their_own_answers(tmp_path):
    table = read(tmp_path, grid_with_joined_cells("910", 9, 20, ANSWERS))
    assert table.answers == {str(i + 1): a for i, a in enumerate(ANSWERS)}


def test_a_joined_row_whose_answers_do_not_fit_its_columns_is_reported_not_shifted(tmp_path):
    # The first answer lost as well: 19 answers under 20 columns, nothing keyed by order.
    items = [item for item in grid_with_joined_cells("12", 1, 20, ANSWERS) if not (item.text == "D" and item.x == 18 and item.y > 50)]
    table = read(tmp_path, items)
    assert "1" not in table.answers and table.answers.get("2") != "D"
    assert table.problems, table.answers


def test_only_the_numbers_the_count_leaves_out_are_split():
    assert unjoined_numbers(["12", "3", "4", "5"]) == ["1", "2", "3", "4", "5"]
    assert unjoined_numbers(["7", "8", "910", "11"]) == ["7", "8", "9", "10", "11"]
    assert unjoined_numbers(["97", "98", "99100"]) == ["97", "98", "99", "100"]
    assert unjoined_numbers(["Questão", "2122", "23", "24"]) == ["Questão", "21", "22", "23", "24"]
    # As read where the count is kept, or the reading is not the numbers it leaves out.
    assert unjoined_numbers(["10", "12", "13"]) == ["10", "12", "13"]
    assert unjoined_numbers(["13", "3", "4", "5"]) == ["13", "3", "4", "5"]
    assert unjoined_numbers(["7", "8", "911", "11"]) == ["7", "8", "911", "11"]
    assert unjoined_numbers(["12", "3"]) == ["12", "3"]  # one neighbour: no count to go by
    assert unjoined_numbers(["1", "23", "24", "4"]) == ["1", "23", "24", "4"]
