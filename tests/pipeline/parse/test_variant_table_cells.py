"""A key table with one answer column per test variant, read off a text layer: each variant's answer is the cell
under its column's header, so a cell of several words is one answer and a cell under no variant's header (points,
notes) is none; a row that has not one cell under each header is keyed for no variant, and says so on its question
and in the report, never keyed with a neighbour's answer (`keys.read_variant_table`)."""
from __future__ import annotations

from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, table_items
from pipeline.diagnostics import Code, has_code
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family

_KEY_HEADER = ("č.", "Test 26 4127", "Test 26 9777")


def _sheet(path: Path) -> Path:
    """Variant 4127's booklet (the NÚCEM layout): four questions of options (A)-(D)."""
    items, y = [TextBox("26 4127", 20, 12, 60, size=10)], 24.0
    for number in range(1, 5):
        items.append(TextBox(f"0{number} Ktorá možnosť je správna v úlohe {number}?", 20, y, 170, size=10))
        y += 7
        for label in "ABCD":
            items.append(TextBox(f"({label}) možnosť {label.lower()}{number}", 25, y, 120, size=10))
            y += 6
        y += 6
    return build_pdf(path, [PageSpec(tuple(items))])


def _key(path: Path, rows: list[tuple[str, ...]], header: tuple[str, ...] = _KEY_HEADER) -> Path:
    items, _ = table_items(20, 30, (16, 45, 45, 30)[:len(header)], [header, *rows], size=10.5)
    return build_pdf(path, [PageSpec(tuple(items))])


def _spec():
    """NÚCEM's spec, its questions' numbers followed by a word: the booklet's variant line ("26 4127") is no question."""
    spec = load_spec("sk_maturita_sjl")
    return spec.model_copy(update={"layout": spec.layout.model_copy(update={"question_start": r"^(?P<number>[0-9]{2})\s+(?=\D)"})})


def _run(tmp_path: Path, rows: list[tuple[str, ...]], header: tuple[str, ...] = _KEY_HEADER):
    result = run_family(_spec(), _sheet(tmp_path / "test_2026.pdf"), [_key(tmp_path / "kluc_2026.pdf", rows, header)],
                        {"year": "2026"})
    return result, {q.number: q for q in result.questions}


def test_a_cell_of_two_words_is_its_variants_entry_and_shifts_no_answer_into_the_next_column(tmp_path):
    # Row 03 prints "B C" under variant 4127 (an entry naming two labels) and "D" under 9777.
    result, found = _run(tmp_path, [("01", "A", "C"), ("02", "B", "D"), ("03", "B C", "D"), ("04", "C", "A")])
    assert [found[n].answer for n in ("01", "02", "04")] == ["A", "B", "C"]
    assert found["03"].answer is None  # its entry names two labels: said as such, not taken as "B"
    assert has_code(found["03"].flags, Code.KEY_ENTRY_SEVERAL_LABELS)


_WITH_POINTS = (*_KEY_HEADER, "body")


def test_a_cell_under_no_variants_header_is_no_answer(tmp_path):
    rows = [("01", "A", "C", "1"), ("02", "B", "D", "1"), ("03", "D", "B", "2"), ("04", "C", "A", "1")]
    _, found = _run(tmp_path, rows, _WITH_POINTS)
    assert {n: q.answer for n, q in found.items()} == {"01": "A", "02": "B", "03": "D", "04": "C"}
    assert not any(has_code(q.flags, Code.KEY_ROW_UNREAD) for q in found.values())


def test_a_row_without_a_cell_under_its_variants_header_keys_none_and_says_so_on_its_question(tmp_path):
    # Variant 4127's cell of row 02 is empty: 9777's "D" (or the points' "1") is not its answer.
    rows = [("01", "A", "C", "1"), ("02", "", "D", "1"), ("03", "D", "B", "2"), ("04", "C", "A", "1")]
    result, found = _run(tmp_path, rows, _WITH_POINTS)
    assert found["02"].answer is None
    [line] = [f for f in found["02"].flags if has_code([f], Code.KEY_ROW_UNREAD)]
    assert "row 02 reads 'D 1'" in line and "4127, 9777" in line
    assert line in result.problems  # the report's line too, once
    assert [found[n].answer for n in ("01", "03", "04")] == ["A", "D", "C"]


def test_the_other_variants_column_is_read_from_its_own_cells(tmp_path):
    from pipeline.devkit.keyscans import read_key
    from pipeline.devkit.sample.keysheets import KeySheet
    rows = [("01", "A", "C"), ("02", "B C", "D")]
    items, _ = table_items(20, 30, (16, 45, 45), [_KEY_HEADER, *rows], size=10.5)
    key = {"kind": "variant_table", "variant_header": r"Test\s*\d{2}\s*(?P<variant>\d{4})", "variant": "9777"}
    sheet = KeySheet("two-words", [PageSpec(tuple(items))], {}, key, ("A", "B", "C", "D"), ("slk",))
    table = read_key(build_pdf(tmp_path / "key.pdf", sheet.pages), sheet)
    assert table.answers == {"1": "C", "2": "D"}  # not "C" for question 2: the second word of variant 4127's cell
