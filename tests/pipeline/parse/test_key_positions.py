"""Answer keys read by position (issue 26, items 6–9): parts printed side by side or two by two, a stop
line on the header row of side-by-side columns, a key printed in the booklet beside or after its
questions, `entry` patterns anchored to a cell, year evidence the sheet cannot contradict, and grids whose
voided cells are lone combining strokes glued to the next letter. Every key is a generated PDF read
through the real text layer; Latin, Greek and Hangul with circled-digit answers."""
from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from pipeline.devkit.sample.pdfgen import CJK_COLLECTION_KOREAN, CJK_FONT, TextBox, cjk_font, font_dir
from pipeline.diagnostics import Code, codes_of
from pipeline.extract import ExtractedDocument, ExtractOptions, Line, Page, PageMethod, extract_document
from pipeline.parse import keymatch
from pipeline.parse.gridkeys import read_grid
from pipeline.parse.keys import read_list, read_variant_table
from pipeline.specs import KeySpec, SectionRule
from tests.pipeline.parse.repertoire_sheets import LEFT, ROW, SIZE, by_number, item, pdf, question_rows, run, spec

needs_cjk = pytest.mark.skipif(cjk_font() is None, reason="Hangul keys need fonts-noto-cjk (make system-packages)")
LATIN_ENTRY = r"(?<![\d.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-D])\b"


def extract(path: Path) -> ExtractedDocument:
    return extract_document(path, "1" * 64, ExtractOptions())


def answers_of(first: int, letters: str, prefix: str = "") -> dict[str, str]:
    return {f"{prefix}{first + i}": letter for i, letter in enumerate(letters)}


# --------------------------------------------------------------------------- parts two by two

# Four parts, ten answers each, printed two by two: (heading, answers) at the page's four corners.
LATIN_PARTS = [("Primera parte", "ABCDABCDAB"), ("Segunda parte", "BCDABCDABC"),
               ("Tercera parte", "CDABCDABCD"), ("Cuarta parte", "DABCDABCDA")]
GREEK_PARTS = [("ΜΕΡΟΣ Α", "ΑΒΓΔΑΒΓΔΑΒ"), ("ΜΕΡΟΣ Β", "ΒΓΔΑΒΓΔΑΒΓ"), ("ΜΕΡΟΣ Γ", "ΓΔΑΒΓΔΑΒΓΔ"), ("ΜΕΡΟΣ Δ", "ΔΑΒΓΔΑΒΓΔΑ")]
HANGUL_PARTS = [("제1부", "①②③④⑤①②③④⑤"), ("제2부", "②③④⑤①②③④⑤①"), ("제3부", "③④⑤①②③④⑤①②"), ("제4부", "④⑤①②③④⑤①②③")]
CORNERS = [(20, 20), (110, 20), (20, 95), (110, 95)]


def four_parts(path: Path, parts: list[tuple[str, str]], *, centred: bool = False, sub_columns: int = 1,
               font: str = "DejaVuSans") -> Path:
    """A key page of four parts two by two, each a heading over its entries ("7. C"); headings either
    left-aligned with their entries or centred over the part; entries in one column or several."""
    boxes = []
    for (heading, letters), (x, y) in zip(parts, CORNERS):
        boxes.append(TextBox(heading, x, y, 80, size=11, bold=True, align="C" if centred else "L", font=font))
        per_column = -(-len(letters) // sub_columns)
        for i, letter in enumerate(letters):
            column, row = divmod(i, per_column)
            boxes.append(TextBox(f"{i + 1}. {letter}", x + 28 * column, y + 8 + ROW * row, 24, size=SIZE, font=font))
    return pdf(path, boxes)


def part_spec(parts: list[tuple[str, str]], entry: str) -> KeySpec:
    return KeySpec(kind="list", entry=entry, sections=[
        SectionRule(start=f"^{heading}$", prefix=f"{n}.") for n, (heading, _) in enumerate(parts, start=1)
    ])


def all_parts(parts: list[tuple[str, str]], plain=lambda letter: letter) -> dict[str, str]:
    return {k: plain(v) for n, (_, letters) in enumerate(parts, start=1) for k, v in answers_of(1, letters, f"{n}.").items()}


@pytest.mark.parametrize("centred, sub_columns", [(True, 1), (False, 2), (True, 2)],
                         ids=["centred-headings", "two-sub-columns", "centred-over-sub-columns"])
def test_four_parts_two_by_two_each_get_their_own_entries(tmp_path, centred, sub_columns):
    document = extract(four_parts(tmp_path / "key.pdf", LATIN_PARTS, centred=centred, sub_columns=sub_columns))
    table = read_list(document, part_spec(LATIN_PARTS, LATIN_ENTRY), "key.pdf")
    assert table.answers == all_parts(LATIN_PARTS)
    assert table.problems == []


def test_greek_parts_two_by_two(tmp_path):
    document = extract(four_parts(tmp_path / "key.pdf", GREEK_PARTS, centred=True))
    table = read_list(document, part_spec(GREEK_PARTS, r"(?P<number>\d{1,2})\.\s*(?P<answer>[ΑΒΓΔ])"), "key.pdf")
    assert table.answers == all_parts(GREEK_PARTS) and table.problems == []


@needs_cjk
def test_hangul_parts_with_circled_answers_two_by_two(tmp_path):
    document = extract(four_parts(tmp_path / "key.pdf", HANGUL_PARTS, centred=True, sub_columns=2, font=CJK_FONT))
    # Key streams read enclosed digits as the plain ones (③ keys option ③ through 3).
    table = read_list(document, part_spec(HANGUL_PARTS, r"(?P<number>\d{1,2})\.\s*(?P<answer>[1-5])"), "key.pdf")
    assert table.answers == all_parts(HANGUL_PARTS, plain=lambda c: str("①②③④⑤".index(c) + 1))
    assert table.problems == []


def test_a_question_keyed_twice_is_a_problem_and_left_unkeyed(tmp_path):
    # Without the lower parts' headings in the spec, their entries repeat the upper parts' numbers.
    document = extract(four_parts(tmp_path / "key.pdf", LATIN_PARTS))
    table = read_list(document, part_spec(LATIN_PARTS[:2], LATIN_ENTRY), "key.pdf")
    assert not any(number.startswith("1.") for number in table.answers)  # every 1.n differs from its 3.n
    assert Code.KEY_KEYED_TWICE in codes_of(table.problems)
    assert "key key.pdf: question 1.1 keyed twice (A, C); left unkeyed, as the key gives no one answer" in table.problems


def test_a_variant_table_row_repeated_with_other_answers_leaves_that_variant_unkeyed(tmp_path):
    rows = ["Test 01 1234      Test 01 5678", "1   A   B", "2   C   D", "3   B   A", "2   D   D"]
    document = extract(pdf(tmp_path / "key.pdf", [TextBox(text, LEFT, 30 + 8 * i, 120, size=SIZE) for i, text in enumerate(rows)]))
    tables = read_variant_table(document, KeySpec(kind="variant_table", variant_header=r"Test\s+\d{2}\s+(?P<variant>\d{4})",
                                                  variant="1234"), "key.pdf")
    assert tables["1234"].answers == {"1": "A", "3": "B"}  # 2 is C, then D: neither is "first"
    assert tables["1234"].problems == ["key key.pdf: question 2 keyed twice (C, D); left unkeyed, as the key gives no one answer"]
    assert tables["5678"].answers == {"1": "B", "2": "D", "3": "A"} and tables["5678"].problems == []


# --------------------------------------------------------------------------- a stop on a header row


def side_by_side(path: Path, *, merged_header: bool, key_right: bool = False) -> Path:
    """The key's entries in one column; a table of booklet equivalences beside them in the other, whose
    header row the key's header shares."""
    key_x, table_x = (110, LEFT) if key_right else (LEFT, 110)
    boxes = [TextBox("Clave de respuestas" + " " * 4 + "Tabla de equivalencias", LEFT, 20, 170, size=11, bold=True)] \
        if merged_header else [TextBox("Clave de respuestas", key_x, 20, 80, size=11, bold=True),
                               TextBox("Tabla de equivalencias", table_x, 20, 80, size=11, bold=True)]
    for i, letter in enumerate("ABCDDCBAAC"):
        y = 28 + ROW * i
        boxes += [TextBox(f"{i + 1}. {letter}", key_x, y, 30, size=SIZE), TextBox(f"{i + 1}. B  {20 - i}. A", table_x, y, 60, size=SIZE)]
    return pdf(path, boxes)


@pytest.mark.parametrize("merged_header, key_right", [(False, False), (True, False), (False, True)],
                         ids=["header-cells", "header-row-one-line", "key-right-of-the-stop"])
def test_stop_at_on_a_header_row_ends_only_its_own_column(tmp_path, merged_header, key_right):
    document = extract(side_by_side(tmp_path / "key.pdf", merged_header=merged_header, key_right=key_right))
    spec = KeySpec(kind="list", entry=LATIN_ENTRY, stop_at=["Tabla de equivalencias"])
    assert read_list(document, spec, "key.pdf").answers == answers_of(1, "ABCDDCBAAC")


# --------------------------------------------------------------------------- a key printed in the booklet

VIGNETTES = {8: "A 62-year-old woman reports fatigue.", 9: "A 30-year-old man presents with chest pain."}
BOOKLET_KEY = "BDACADBCDA"


def booklet(path: Path, *, key_beside: bool) -> Path:
    """Ten clinical questions ("9. A 30-year-old man…") and the answer key. The cover says where the key
    is; the key follows the last question on the last page, or stands beside the last questions."""
    cover = [TextBox("INSTRUCTIONS", LEFT, 20, 170, size=12, bold=True),
             TextBox("ANSWER KEY: printed on the last page of this booklet.", LEFT, 30, 170, size=SIZE)]
    questions, y = [], 20.0
    for n in range(1, 8):
        found, y = question_rows(item(n, stem=VIGNETTES.get(n, f"Which finding is expected in case {n}?")), y)
        questions += found
    last, y = [], 20.0
    for n in (8, 9, 10):
        found, y = question_rows(item(n, stem=VIGNETTES.get(n, f"Which finding is expected in case {n}?")), y, width=80)
        last += found
    key_x, key_y = (110, 20) if key_beside else (LEFT, y + 6)
    last.append(TextBox("ANSWER KEY", key_x, key_y, 60, size=11, bold=True))
    last += [TextBox(f"{n}. {letter}", key_x, key_y + 8 + ROW * (n - 1), 30, size=SIZE) for n, letter in enumerate(BOOKLET_KEY, 1)]
    return pdf(path, cover, questions, last)


@pytest.mark.parametrize("key_beside", [False, True], ids=["key-after-the-questions", "key-beside-the-last-questions"])
def test_a_key_in_the_booklet_takes_no_question_text(tmp_path, key_beside):
    the_spec = spec(layout={"drop_pages": ["(?m)^INSTRUCTIONS"]}, key={"in_sheet": "^ANSWER KEY"})
    result = run(the_spec, booklet(tmp_path / "2031" / "sheet.pdf", key_beside=key_beside))
    questions = by_number(result)
    assert sorted(questions, key=int) == [str(n) for n in range(1, 11)]
    assert {n: q.answer for n, q in questions.items()} == answers_of(1, BOOKLET_KEY)
    assert questions["9"].question.startswith("A 30-year-old man") and questions["9"].choices[3] == "opción d de 9"
    assert not [p for p in result.problems if "key" in p.code.code]


def test_two_keys_that_disagree_leave_the_question_unkeyed_and_say_so(tmp_path):
    """The key in the booklet gives 9 → D; a key file paired with it gives 9 → A: neither is "first"."""
    the_spec = spec(layout={"drop_pages": ["(?m)^INSTRUCTIONS"]}, key={"in_sheet": "^ANSWER KEY"})
    sheet = booklet(tmp_path / "2031" / "sheet.pdf", key_beside=False)
    other = pdf(tmp_path / "2031" / "key.pdf", [TextBox("9. A", LEFT, 40, 30, size=SIZE)])
    result = run(the_spec, sheet, other)
    questions = by_number(result)
    assert questions["9"].answer is None and questions["8"].answer == "C"
    assert "key keys: question 9 keyed twice (D, A); left unkeyed, as the key gives no one answer" in result.problems


def test_entry_patterns_anchored_to_a_cell_hold(tmp_path):
    """Three entries a row, each its own cell: `^…$` is matched on each cell, not on the joined row."""
    boxes = [TextBox(f"{n + 10 * k}. {'ABCD'[(n + k) % 4]}", LEFT + 40 * k, 20 + ROW * n, 30, size=SIZE)
             for n in range(1, 11) for k in range(3)]
    document = extract(pdf(tmp_path / "key.pdf", boxes))
    table = read_list(document, KeySpec(kind="list", entry=r"^(?P<number>\d{1,2})\.\s*(?P<answer>[A-D])$"), "key.pdf")
    assert table.answers == {str(n + 10 * k): "ABCD"[(n + k) % 4] for n in range(1, 11) for k in range(3)}


def test_a_number_and_its_answer_in_cells_of_their_own_still_join(tmp_path):
    boxes = [TextBox("Respuestas", LEFT, 40, 60, size=11, bold=True)]
    boxes += [TextBox(text, LEFT + 15 * k, 50 + ROW * n, 12, size=SIZE) for n in range(1, 6) for k, text in enumerate([str(n), "ABCDA"[n - 1]])]
    document = extract(pdf(tmp_path / "key.pdf", boxes))
    table = read_list(document, KeySpec(kind="list", entry=r"(?P<number>\d{1,2})\s+(?P<answer>[A-D])\b"), "key.pdf")
    assert table.answers == answers_of(1, "ABCDA")


# --------------------------------------------------------------------------- year evidence


def lines_pdf(path: Path, lines: list[str]) -> Path:
    return pdf(path, [TextBox(text, LEFT, 20 + 7 * i, 170, size=SIZE) for i, text in enumerate(lines)])


def sheet_of_three(path: Path, heading: str) -> Path:
    boxes, y = [TextBox(heading, LEFT, 20, 170, size=12, bold=True)], 30.0
    for n in (1, 2, 3):
        found, y = question_rows(item(n), y)
        boxes += found
    return pdf(path, boxes)


REGULATION_KEY = ["PLANTILLA DE RESPUESTAS", "Proceso selectivo convocado por Orden PJC/64/2024, de 29 de enero",
                  "1. B", "2. D", "3. A"]


def year_run(tmp_path: Path, sheet_heading: str, **key_fields):
    facts_year = "2023"
    sheet = sheet_of_three(tmp_path / facts_year / "sheet.pdf", sheet_heading)
    key = lines_pdf(tmp_path / facts_year / "key.pdf", REGULATION_KEY)
    from tests.pipeline.parse.conftest import run_family

    return run_family(spec(key=key_fields), sheet, [key], {"year": facts_year})


def test_a_year_the_sheet_does_not_print_is_weak_evidence_and_the_report_names_the_line(tmp_path):
    result = year_run(tmp_path, "Cuestionario · Modelo A")
    assert {q.number: q.answer for q in result.questions} == {"1": "B", "2": "D", "3": "A"}
    assert result.key_unusable is None and result.problems == []
    (note,) = [n for n in result.notes if n.code is Code.KEY_WEAK_EVIDENCE]
    assert "it prints year 2024 (key line 'Proceso selectivo convocado por Orden PJC/64/2024, de 29 de enero')" in note
    assert "the sheet is 2023" in note


def test_a_year_the_sheet_prints_refuses_the_key_unless_the_spec_leaves_the_check_out(tmp_path):
    refused = year_run(tmp_path, "Cuestionario · convocatoria 2023")
    assert set(q.answer for q in refused.questions) == {None}
    assert "it prints year 2024 (key line 'Proceso selectivo convocado por Orden PJC/64/2024" in refused.key_unusable
    applied = year_run(tmp_path, "Cuestionario · convocatoria 2023", checks=["sheet_code", "variant", "count", "labels"])
    assert {q.number: q.answer for q in applied.questions} == {"1": "B", "2": "D", "3": "A"}
    assert [n.code for n in applied.notes if n.code.code.startswith("key.")] == [Code.KEY_EVIDENCE_UNCHECKED]


def _key_printing(year_line: str, method: PageMethod) -> ExtractedDocument:
    line = Line(year_line, 50, 40, 300, 52, ocr_confidence=68.0 if method is PageMethod.OCR else None)
    return ExtractedDocument(sha256="0" * 64, path="key.pdf", page_count=1, pages=[Page(1, 595, 842, method, lines=[line])], stage_version="test")


@pytest.mark.parametrize("printed, method, refused", [
    ("Answer key 2051", PageMethod.OCR, False),  # 3 read as 5: may be the sheet's own year misread
    ("Answer key 2081", PageMethod.OCR, False),
    ("Answer key 2030", PageMethod.OCR, True),  # 1 and 0 are no look-alikes: last year's key
    ("Answer key 2053", PageMethod.OCR, True),  # two digits off
    ("Answer key 2051", PageMethod.TEXT, True),  # the text layer prints what it prints
])
def test_a_year_ocr_read_one_lookalike_digit_off_is_weak_evidence(printed, method, refused):
    facts = keymatch.SheetFacts(year=2031, sheet_code=None, variant=None, text="Exam 2031")
    (evidence,) = keymatch.printed_mismatches(_key_printing(printed, method), facts, spec())
    assert evidence.check == "year" and evidence.weak is not refused
    reasons, notes = keymatch.weigh([evidence], spec(), "key.pdf")
    assert bool(reasons) is refused and [n.code for n in notes] == ([] if refused else [Code.KEY_WEAK_EVIDENCE])


# --------------------------------------------------------------------------- odd marks in grids

MATH_FONT = "DejaVuMathTeXGyre.ttf"  # DejaVu Sans has no U+20E5


def grid_with_marks(path: Path, answers: list[str], *, glue: float) -> Path:
    """A grid of numbers over answers, 8 mm apart, each glyph placed where a typesetter puts it; a cell
    holding a lone overlay mark is drawn `glue` mm right of its centre (7: against the next letter, which
    the text layer then reads glued to it: "̶B")."""
    doc = FPDF()
    doc.add_page()
    doc.add_font("sans", "", str(font_dir() / "DejaVuSans.ttf"))
    doc.add_font("math", "", str(font_dir() / MATH_FONT))
    if cjk_font() is not None:  # full-width forms
        doc.add_font("cjk", "", str(cjk_font()), collection_font_number=CJK_COLLECTION_KOREAN)
    for row, start in enumerate(range(0, len(answers), 20)):
        for i, answer in enumerate(answers[start:start + 20]):
            x, y = 18 + 8 * i, 50 + 16 * row
            doc.set_font("sans", size=10)
            number = str(start + i + 1)
            doc.text(x + 4 - doc.get_string_width(number) / 2, y, number)
            mark = len(answer) == 1 and answer in OVERLAYS
            doc.set_font("math" if answer == "\u20e5" else "cjk" if answer in FULL_WIDTH else "sans", size=10)
            doc.text(x + 4 - doc.get_string_width(answer) / 2 + (glue if mark else 0), y + 6, answer)
    doc.output(str(path))
    return path


OVERLAYS = "\u0335\u0336\u0338\u20e5"


@pytest.mark.parametrize("mark", list(OVERLAYS), ids=lambda m: f"U+{ord(m):04X}")
@pytest.mark.parametrize("glue", [7.0, 0.0], ids=["glued-to-the-next-letter", "alone"])
def test_overlay_marks_never_glue_grid_cells_together(tmp_path, mark, glue):
    letters = list("ABCDABCDABCDABCDABCDΑΒΓΔΑΒΓΔΑΒΓΔΑΒΓΔΑΒΓΔ")  # a Latin grid row and a Greek one
    for index in (3, 12, 25):
        letters[index] = mark
    document = extract(grid_with_marks(tmp_path / "key.pdf", letters, glue=glue))
    table = read_grid(document, KeySpec(kind="grid", voided=["-", "\u0336"]), "key.pdf")[""]
    marked = {"4", "13", "26"}
    assert {n: a for n, a in table.answers.items() if n not in marked} == {
        str(i + 1): a for i, a in enumerate(letters) if str(i + 1) not in marked}
    if mark == "\u0336":  # a mark the spec lists as voided: those questions are voided, not lost
        assert table.voided == marked and table.problems == []
    else:  # any other lone mark: its questions are reported and left unkeyed, never a neighbour's answer
        assert not marked & set(table.answers)
        assert [p.code for p in table.problems] == [Code.KEY_MARK_CELL, Code.KEY_MARK_CELL]
        assert "question(s) 4, 13 holds only a mark" in table.problems[0]


FULL_WIDTH = "－＊"


@needs_cjk
def test_voided_marks_are_matched_after_nfkc(tmp_path):
    letters = list("ABC－ABCDAB")  # a full-width hyphen-minus: NFKC "-", a default voided mark
    document = extract(grid_with_marks(tmp_path / "key.pdf", letters, glue=0.0))
    table = read_grid(document, KeySpec(kind="grid"), "key.pdf")[""]
    assert table.voided == {"4"} and table.problems == []
    # The default marks include the lone strokes U+0335 and U+0336.
    assert {"\u0335", "\u0336"} <= set(KeySpec(kind="grid").voided)


def test_grid_parts_whose_numbering_restarts_take_their_prefix(tmp_path):
    """Two Greek grids, each under its part's heading, both numbered 1–20; a struck cell in the second."""
    parts = {"ΜΕΡΟΣ Α": list("ΑΒΓΔΑΒΓΔΑΒΓΔΑΒΓΔΑΒΓΔ"), "ΜΕΡΟΣ Β": list("ΔΓΒΑΓΒΑΔΓΒΑΔΓΒΑΔΓΒΑ")}
    parts["ΜΕΡΟΣ Β"][4] = "\u0336"
    path = tmp_path / "key.pdf"
    doc = FPDF()
    doc.add_page()
    doc.add_font("sans", "", str(font_dir() / "DejaVuSans.ttf"))
    doc.set_font("sans", size=10)
    for row, (heading, cells) in enumerate(parts.items()):
        y = 40 + 30 * row
        doc.text(18, y, heading)
        for i, answer in enumerate(cells):
            x = 18 + 8 * i
            doc.text(x + 4 - doc.get_string_width(str(i + 1)) / 2, y + 8, str(i + 1))
            doc.text(x + 4 - doc.get_string_width(answer) / 2, y + 14, answer)
    doc.output(str(path))
    spec = KeySpec(kind="grid", sections=[SectionRule(start="^ΜΕΡΟΣ Α$", prefix="1."), SectionRule(start="^ΜΕΡΟΣ Β$", prefix="2.")])
    table = read_grid(extract(path), spec, "key.pdf")[""]
    assert table.answers == {f"{part}.{i + 1}": answer for part, cells in enumerate(parts.values(), 1) for i, answer in enumerate(cells)}
    assert table.voided == {"2.5"} and table.problems == []
