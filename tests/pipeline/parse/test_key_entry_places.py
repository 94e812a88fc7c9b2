"""A key entry read unsurely carries `ocr.uncertain` and its report line whatever the key's layout: the unsure word of
a key line reaches its entry by its place where the line alone names no entry (`certainty.unsure_key_entries`): an
answer printed in a cell of its own beside its number (a ruled list: "4" | "D"), a grid's row of answers under its row
of numbers, a table's row led by its number. Before, only a list line matching the entry and a cell alone under its
number cell passed its unsure word on; in the other layouts it was lost and the entry read as sure."""
from __future__ import annotations

from pathlib import Path

from pipeline.diagnostics import Code
from pipeline.parse.certainty import unsure_key_entries
from pipeline.report import FileReport
from tests.pipeline.parse.test_ocr_uncertain import _ocr_document, _six_question_sheet
from tests.pipeline.parse.repertoire_sheets import by_number, spec

LETTERS = "BCADBA"  # the six questions' answers; D (question 4) is printed once


def _parse(key, key_spec: dict):
    from pipeline.parse import parse_sheet
    from tests.pipeline.parse.conftest import entry

    the_spec = spec(key=key_spec)
    path, facts = Path("/exams/2031/sheet.pdf"), {"year": "2031"}
    return parse_sheet(_six_question_sheet(), entry(path, "sheet", the_spec, facts), [(key, entry(path, "key", the_spec, facts))],
                       the_spec)


def _unsure(result) -> dict[str, list[str]]:
    return {q.number: [f for f in q.flags if f.code is Code.OCR_UNCERTAIN] for q in by_number(result).values()}


def test_a_grid_answer_cell_read_unsurely_flags_its_question_and_the_report_names_it():
    key = _ocr_document("1", "key.pdf", [("Clave", 60, 80, [], 95.0), ("1 2 3 4 5 6", 60, 100, [], 95.0),
                                         (" ".join(LETTERS), 60, 114, ["D"], 0.0)])  # 4's D read at 0
    result = _parse(key, {"kind": "grid"})
    assert [by_number(result)[str(n)].answer for n in range(1, 7)] == list(LETTERS)
    unsure = _unsure(result)
    assert unsure["4"] == ["read by OCR unsurely: key entry (resting on 'D')"]
    assert all(unsure[n] == [] for n in "12356")
    report = FileReport(url="sheet.pdf", role="sheet", status="ok", sha256=None)
    report.add_parse(result.questions, result.problems)
    assert report.unsure == ["4: read by OCR unsurely: key entry (resting on 'D')"]


def test_a_grid_cell_read_like_another_of_its_row_flags_both_rather_than_lose_one():
    key = _ocr_document("1", "key.pdf", [("Clave", 60, 80, [], 95.0), ("1 2 3 4 5 6", 60, 100, [], 95.0),
                                         (" ".join(LETTERS), 60, 114, ["A"], 0.0)])  # one of the A's (3, 6) read at 0
    answers = {str(n): letter for n, letter in enumerate(LETTERS, start=1)}
    assert unsure_key_entries([key], None, answers) == {"3": ["A"], "6": ["A"]}


def test_an_answer_in_a_cell_of_its_own_beside_its_number_passes_its_unsure_reading_on():
    rows = [("Clave", 60, 80, [], 95.0)]
    for n, letter in enumerate(LETTERS, start=1):
        rows += [(str(n), 60, 86 + 14 * n, [], 95.0), (letter, 120, 86 + 14 * n, ["C"] if n == 2 else [], 20.0 if n == 2 else 95.0)]
    result = _parse(_ocr_document("1", "key.pdf", rows), {"entry": r"(?<![\w.])(?P<number>\d{1,3})\s+(?P<answer>[A-D])(?!\w)"})
    assert [by_number(result)[str(n)].answer for n in range(1, 7)] == list(LETTERS)
    unsure = _unsure(result)
    assert unsure["2"] == ["read by OCR unsurely: key entry (resting on 'C')"]
    assert all(unsure[n] == [] for n in "13456")


def test_a_table_row_led_by_its_number_passes_on_the_unsure_word_that_is_its_entrys_answer_only():
    key = _ocr_document("1", "key.pdf", [("Typ A Typ B", 60, 80, [], 95.0), ("12 B C", 60, 100, ["C"], 10.0),
                                         ("13 A D", 60, 114, [], 95.0)])
    assert unsure_key_entries([key], None, {"12": "C", "13": "A"}) == {"12": ["C"]}  # the sheet's variant answers C
    assert unsure_key_entries([key], None, {"12": "B", "13": "D"}) == {}  # C is the other variant's answer
    assert unsure_key_entries([key], None) == {"12": ["C"]}


def test_a_key_measured_alone_counts_the_entries_its_sheet_would_flag_as_parse_judges_them():
    """`flagged_key_entries` (what `pipeline.devkit.keyscans` counts): an entry read unsurely is flagged; where more
    than a quarter of a key's entries are unsure by their lone label alone, the labels settle those (`labels_vouch`),
    and a word that is not the entry's label alone stays unsure."""
    from pipeline.parse import flagged_key_entries

    answers = {str(n): letter for n, letter in enumerate(LETTERS, start=1)}
    assert flagged_key_entries({"4": ["D"]}, answers) == {"4": ["D"]}
    lone = {"1": ["B"], "2": ["C"], "4": ["D"], "5": ["8"]}  # three of six unsure by their label alone, 5's read as 8
    assert flagged_key_entries(lone, answers) == {"5": ["8"]}
    assert flagged_key_entries({"7": ["A"]}, answers) == {}  # no such question keyed
