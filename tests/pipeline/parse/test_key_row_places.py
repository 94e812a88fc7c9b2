"""A list key read off a scan whose rows lost a column or the numbers of one: each question of it is named by a line
on its own place in its row (where the row's evenly running entries put it), never only by the catch-all
`key.entries_unaccounted`; and an entry whose number breaks its row's run (`72` read `2`) keys no question."""
from __future__ import annotations

from dataclasses import replace

import pytest

from pipeline.devkit.keyscans import read_key, score
from pipeline.devkit.sample.keysheets import KeySheet, list_key
from pipeline.devkit.sample.pdfgen import TextBox, build_pdf, rasterize_pdf
from pipeline.parse.keys import _off_run, row_places
from tests.pipeline.extract.ocr.builders import needs_tesseract

PER_COLUMN, COLUMNS = 10, 5  # `list_key`'s 50 entries in 5 columns: rows `1. A  11. B  21. C  31. D  41. A`
LAST = (COLUMNS - 1) * PER_COLUMN  # the last number before the last column


def _damaged(printed: str) -> KeySheet:
    """`list_key` with its first column (1–10) not printed, as a scan's lost edge, and its last column (41–50) printed
    as `printed` says: `answers` (the letters alone, the numbers unread) or `digits` (each number without its first
    digit, `1. D` for `41. D`, as a blurred scan lost it). The truth is the whole key's."""
    sheet = list_key(0, count=COLUMNS * PER_COLUMN, columns=COLUMNS)
    items = []
    for item in sheet.pages[0].items:
        number = item.text.split(".")[0] if isinstance(item, TextBox) else ""
        if not number.isdecimal():
            items.append(item)
        elif int(number) > LAST:
            answer = item.text.split()[-1]
            items.append(replace(item, text=answer if printed == "answers" else f"{number[1:]}. {answer}"))
        elif int(number) > PER_COLUMN:
            items.append(item)
    return replace(sheet, pages=[replace(sheet.pages[0], items=items)])


@needs_tesseract("pol")
@pytest.mark.parametrize("printed", ["answers", "digits"])
def test_each_question_of_a_lost_column_is_named_at_its_place_and_none_is_keyed_wrong(tmp_path, printed):
    sheet = _damaged(printed)
    scan = rasterize_pdf(build_pdf(tmp_path / "key.pdf", sheet.pages), tmp_path / "scan.pdf", dpi=300, blur=0.4, jpeg_quality=90,
                         noise=0.0, seed=0)
    table = read_key(scan, sheet)
    result = score(sheet, table, "300", 0.0)
    keyed = {n: a for n, a in table.answers.items() if n in sheet.truth}
    assert all(a == sheet.truth[n] for n, a in keyed.items()), {n: (a, sheet.truth[n]) for n, a in keyed.items() if a != sheet.truth[n]}
    assert set(keyed) == {str(n) for n in range(PER_COLUMN + 1, LAST + 1)}, sorted(keyed, key=int)
    assert result.unaccounted == 0, [str(p) for p in table.problems]
    lines = [str(p) for p in table.problems]
    for n in range(1, PER_COLUMN + 1):  # the column not printed: nothing stands at its place
        assert any(f"nothing read where question {n}'s entry stands" in line for line in lines), (n, lines)
    for n in range(LAST + 1, LAST + PER_COLUMN + 1):  # the column whose numbers were lost: what stands there
        assert any(f"read where question {n}'s entry stands" in line for line in lines), (n, lines)


def test_the_places_a_rows_even_run_gives_its_pieces_and_its_ends():
    entries = [(1, "11"), (3, "21"), (5, "31")]
    assert row_places(entries, [6, 7]) == ({6: ("41", "11, 21, 31", 10), 7: ("41", "11, 21, 31", 10)}, {"1": 10})
    assert row_places([(0, "1"), (1, "11"), (3, "31")], [2]) == ({2: ("21", "1, 11, 31", 10)}, {"41": 10})
    assert row_places([(0, "1"), (1, "12"), (2, "21")], [3]) == ({}, {})  # no even run: no place
    assert row_places([(0, "3")], [1]) == ({}, {})  # one entry is no run


def test_one_entry_off_its_rows_run_is_found_only_where_the_others_run_evenly():
    assert _off_run([(0, "12"), (1, "22"), (2, "32"), (3, "42"), (4, "2")]) == (4, ("52", 10))
    assert _off_run([(0, "1"), (1, "11"), (2, "27"), (3, "31")]) == (2, ("21", 10))
    assert _off_run([(0, "12"), (1, "22"), (2, "32"), (3, "42")]) is None
    assert _off_run([(0, "12"), (1, "22"), (2, "2")]) is None  # two others are too few to say which one is off
    assert _off_run([(0, "1"), (1, "11"), (2, "1"), (3, "11")]) is None  # two parts' runs side by side
    assert _off_run([(0, "16"), (1, "36"), (2, "56"), (4, "96")]) is None  # 76's cell unread between: the run goes on
