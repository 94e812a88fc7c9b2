"""A scanned key's entries read with numbers the sheet does not have, where the sheet's questions between their
neighbours lack entries (`54.` `55.` `56.` read `94.` `95.` `96.` between `53.` and `57.`): never a question left
unkeyed without a word. Each such entry and each question of the gap gets its own line, the question its flag;
the entries are put in their places only where the gap allows one reading (as many questions as entries, in
order, each one digit misread the same way), and then flagged unsure."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.diagnostics import Code, Diagnostic
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.document import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse import parse_sheet
from pipeline.parse.keys import KeyTable
from pipeline.parse.keystrays import place_strays
from tests.pipeline.parse.conftest import entry, run_family
from tests.pipeline.parse.test_validation import _list_spec

COUNT = 40
PRINTED = {14: "94", 15: "95", 16: "96",  # one digit misread the same way, as many as the gap: placed
           24: "84", 25: "85", 26: None,  # two entries for a gap of three (26's row lost): which is which is not told
           33: "77", 34: "78"}  # two digits from their places: no one misreading


def answer(n: int) -> str:
    return "ABCD"[(n * 5 + n // 3) % 4]


def _sheet(path: Path) -> Path:
    pages, items, y = [], [], 20.0
    for n in range(1, COUNT + 1):
        if y > 240:
            pages.append(PageSpec(tuple(items)))
            items, y = [], 20.0
        items.append(TextBox(f"{n}. Pytanie numer {n} o sieci komputerowe?", 20, y, 170, size=10))
        y += 7
        for label in "ABCD":
            items.append(TextBox(f"{label}. odpowiedź {label.lower()}{n}", 25, y, 120, size=10))
            y += 6
        y += 5
    return build_pdf(path, [*pages, PageSpec(tuple(items))])


def _key_lines() -> list[tuple[str, float, float]]:
    """The key's entries as (text, x, top) in pt, one column (as NÚCEM's key prints its numbers), the numbers of
    `PRINTED` as read. (Entries of columns side by side are read row by row: a stray's neighbours are then the
    row's other entries, and no gap lies between them.)"""
    rows = [(PRINTED.get(n, str(n)), answer(n)) for n in range(1, COUNT + 1) if PRINTED.get(n, str(n)) is not None]
    return [(f"{number}. {letter}", 70, 60 + 18 * r) for r, (number, letter) in enumerate(rows)]


def _key(path: Path) -> Path:
    """The key printed (a text layer, read as printed)."""
    return build_pdf(path, [PageSpec(tuple(TextBox(text, x / 2.835, top / 2.835, 30, size=11) for text, x, top in _key_lines()))])


def _scanned_key() -> ExtractedDocument:
    """The key as OCR read it off a scan (a page of the key's lines, read by OCR), the stray numbers as read."""
    lines = [Line(text, x, top, x + 30, top + 11, font_size=11) for text, x, top in _key_lines()]
    page = Page(1, 595, 842, PageMethod.OCR, sorted(lines, key=lambda line: (line.top, line.x0)))
    return ExtractedDocument("1" * 64, "k.pdf", 1, [page], "test")


def _lines(problems: list, code: Code) -> list[Diagnostic]:
    return [p for p in problems if isinstance(p, Diagnostic) and p.code is code]


def _without_key_runs():
    """The list spec with parse's `key-runs` left out: its column run would mend these numbers itself (each reported),
    as it cannot in a key table (NÚCEM's `94` `95` `96` between `48` and `62`), which this stands for."""
    spec = _list_spec()
    ocr = spec.ocr.model_copy(update={"passes": spec.ocr.passes.model_copy(update={"disable": ["key-runs"]})})
    key = spec.key.model_copy(update={"entry": r"(?<![\w.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-D])\b"})  # any number
    return spec.model_copy(update={"ocr": ocr, "key": key})


@pytest.fixture(scope="module")
def scanned(tmp_path_factory):
    folder = tmp_path_factory.mktemp("strays")
    spec = _without_key_runs()
    facts = {"year": "2030"}
    sheet = _sheet(folder / "s.pdf")
    document = extract_document(sheet, "0" * 64, ExtractOptions.from_spec(spec))
    return parse_sheet(document, entry(sheet, "sheet", spec, facts), [(_scanned_key(), entry(folder / "k.pdf", "key", spec, facts))], spec)


def test_stray_entries_one_digit_from_a_gap_as_long_as_theirs_are_placed_and_unsure(scanned):
    found = {q.number: q for q in scanned.questions}
    for n in (14, 15, 16):
        assert found[str(n)].answer == answer(n)
        assert any(isinstance(f, Diagnostic) and f.code is Code.KEY_STRAY_PLACED for f in found[str(n)].flags)
        assert any(isinstance(f, Diagnostic) and f.code is Code.OCR_UNCERTAIN for f in found[str(n)].flags)  # unsure
    placed = _lines(scanned.problems, Code.KEY_STRAY_PLACED)
    assert [(line.concerns.question, "'9" in str(line)) for line in placed] == [("14", True), ("15", True), ("16", True)]
    assert "entry read '94' between 13 and 17 taken as question 14" in str(placed[0])


def test_an_ambiguous_gap_is_not_placed_and_every_entry_and_question_has_its_line(scanned):
    found = {q.number: q for q in scanned.questions}
    for n in (24, 25, 26, 33, 34):
        assert found[str(n)].answer is None
        assert any(isinstance(f, Diagnostic) and f.code is Code.KEY_GAP_UNKEYED for f in found[str(n)].flags)
    gaps = {line.concerns.question: str(line) for line in _lines(scanned.problems, Code.KEY_GAP_UNKEYED)}
    assert set(gaps) == {"24", "25", "26", "33", "34"}
    assert "question 25 left unkeyed: the key's entries between 23 and 27 read '84', '85'" in gaps["25"]
    strays = [str(line) for line in _lines(scanned.problems, Code.KEY_ENTRY_STRAY)]
    assert len(strays) == 4 and any("entry read '77' between 32 and 35" in s and "33, 34" in s for s in strays)
    assert _lines(scanned.problems, Code.KEY_ENTRIES_UNACCOUNTED) == []
    # every other question keyed as printed: no answer moved anywhere else
    assert all(q.answer == answer(int(q.number)) for q in scanned.questions if int(q.number) not in PRINTED)


def _table(order: list[tuple[str, str]]) -> KeyTable:
    return KeyTable("key.pdf", answers=dict(order))


def test_placing_needs_one_reading_of_the_gap():
    questions = [str(n) for n in range(1, 21)]
    # 14–16 read 94–96: placed
    table = _table([("13", "A"), ("94", "B"), ("95", "C"), ("96", "D"), ("17", "A")])
    place_strays(table, questions, set(questions))
    assert table.answers == {"13": "A", "14": "B", "15": "C", "16": "D", "17": "A"} and table.inferred == {"14", "15", "16"}
    # read out of order (96 before 95), or one with both digits off its place (57 for 15): not placed
    for order in ([("13", "A"), ("94", "B"), ("96", "C"), ("95", "D"), ("17", "A")],
                  [("13", "A"), ("94", "B"), ("57", "C"), ("96", "D"), ("17", "A")]):
        table = _table(order)
        place_strays(table, questions, set(questions))
        assert not {"14", "15", "16"} & set(table.answers) and table.named == {"14", "15", "16"}
        assert len(_lines(table.problems, Code.KEY_ENTRY_STRAY)) == 3
        assert len(_lines(table.problems, Code.KEY_GAP_UNKEYED)) == 3 and set(table.flags) == {"14", "15", "16"}
    # a stray with no gap beside it (the key of a longer sheet) is left to the count's line
    table = _table([("19", "A"), ("20", "B"), ("21", "C")])
    place_strays(table, questions, set(questions))
    assert table.problems == [] and "21" in table.answers


def test_a_text_layer_key_is_not_placed(tmp_path: Path):
    result = run_family(_without_key_runs(), _sheet(tmp_path / "s.pdf"), [_key(tmp_path / "k.pdf")], {"year": "2030"})
    assert {q.number: q.answer for q in result.questions}["14"] is None
    assert _lines(result.problems, Code.KEY_STRAY_PLACED) == []
