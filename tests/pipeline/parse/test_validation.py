"""Closed questions whose key cannot be trusted are flagged with the reason, never dropped or guessed."""
from __future__ import annotations

from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family


def _sheet(path: Path, questions: list[tuple[str, list[str]]], highlight: dict[str, set[str]] | None = None) -> Path:
    items, y = [], 20.0
    for number, options in questions:
        items.append(TextBox(f"{number}. Pytanie numer {number} o sieci komputerowe?", 20, y, 170, size=10))
        y += 7
        for label, text in zip("ABCDE", options):
            marked = (highlight or {}).get(number, set())
            items.append(TextBox(f"{label}. {text}", 25, y, 120, size=10, highlight=(255, 240, 0) if label in marked else None))
            y += 6
        y += 6
    return build_pdf(path, [PageSpec(tuple(items))])


def _key(path: Path, lines: list[str]) -> Path:
    return build_pdf(path, [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10) for i, t in enumerate(lines)))])


def _list_spec(keep_partial: bool = False):
    """The vocational spec with "1." numbering, 3+ options, open questions kept."""
    spec = load_spec("pl_cke_zawodowy")
    options = spec.layout.options.model_copy(update={"min_count": 3, "keep_partial": keep_partial})
    layout = spec.layout.model_copy(
        update={"question_start": r"^(?P<number>\d{1,2})\.\s+(?=\S)", "options": options, "skip_types": []}
    )
    return spec.model_copy(update={"layout": layout})


def test_key_label_missing_from_the_options_is_flagged(tmp_path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", ["jeden", "dwa", "trzy"])])
    key = _key(tmp_path / "k.pdf", ["1. D"])
    [question] = run_family(_list_spec(), sheet, [key], {"year": "2030"}).questions
    assert question.answer is None and question.answer_index is None
    assert question.flags == ["key answer D is not among the options ['A', 'B', 'C']"]


def test_question_without_key_entry_is_flagged_and_kept(tmp_path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", ["a1", "b1", "c1", "d1"]), ("2", ["a2", "b2", "c2", "d2"])])
    key = _key(tmp_path / "k.pdf", ["1. B"])
    result = run_family(_list_spec(), sheet, [key], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert found["1"].answer == "B" and found["1"].flags == []
    assert found["2"].answer is None and found["2"].flags == ["no key entry for this question"]


def test_sheet_without_any_key_reports_it(tmp_path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", ["a", "b", "c", "d"])])
    result = run_family(_list_spec(), sheet, [], {"year": "2030"})
    assert "no answer key paired with this sheet; closed questions are flagged" in result.problems
    assert result.questions[0].flags == ["no key entry for this question"]


def test_two_highlighted_options_are_flagged_not_guessed(tmp_path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", ["uno", "dos", "tres", "cuatro", "cinco"])], {"1": {"B", "D"}})
    [question] = run_family("pe_conareme", sheet, [], {"year": "2030"}).questions
    assert question.answer is None
    assert question.flags == ["several options highlighted: ['B', 'D']"]


def test_skipped_labels_are_flagged(tmp_path):
    path = tmp_path / "s.pdf"
    items = [TextBox("1. Pytanie o protokoły sieciowe?", 20, 20, 170, size=10)]
    for i, line in enumerate(["A. pierwsza", "B. druga", "D. czwarta"]):
        items.append(TextBox(line, 25, 27 + 6 * i, 120, size=10))
    build_pdf(path, [PageSpec(tuple(items))])
    key = _key(tmp_path / "k.pdf", ["1. A"])
    [question] = run_family(_list_spec(), path, [key], {"year": "2030"}).questions
    assert any("skip a label" in f for f in question.flags)


def test_figures_go_to_the_question_printed_above_them(tmp_path):
    import io

    from PIL import Image

    from pipeline.devkit.sample.pdfgen import ImageBox

    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), (200, 60, 60)).save(buffer, format="PNG")
    items = [TextBox("1. Pytanie bez rysunku?", 20, 20, 170, size=10)]
    items += [TextBox(f"{label}. opcja {label}", 25, 27 + 6 * i, 120, size=10) for i, label in enumerate("ABCD")]
    items.append(TextBox("2. Co przedstawia rysunek?", 20, 60, 170, size=10))
    items.append(ImageBox(40, 67, 80, buffer.getvalue()))
    items += [TextBox(f"{label}. obraz {label}", 25, 125 + 6 * i, 120, size=10) for i, label in enumerate("ABCD")]
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec(tuple(items))])
    key = _key(tmp_path / "k.pdf", ["1. A", "2. C"])
    found = {q.number: q for q in run_family(_list_spec(), sheet, [key], {"year": "2030"}, figures_root=tmp_path).questions}
    assert found["1"].images == []
    [image] = found["2"].images
    assert image.page == 1 and image.path.startswith("raw/figures/") and len(image.sha256) == 64
    assert found["2"].choices == ["obraz A", "obraz B", "obraz C", "obraz D"]


def test_choice_question_with_a_lost_label_is_kept_and_flagged(tmp_path):
    path = tmp_path / "s.pdf"
    items = [TextBox("1. Który standard złącza obsługuje dyski NVMe?", 20, 20, 170, size=10)]
    for i, line in enumerate(["A. SATA II", "B. M.2 NVMe", "IDE", "SCSI"]):  # C. and D. lost, as after a bad scan
        items.append(TextBox(line, 25, 27 + 6 * i, 120, size=10))
    build_pdf(path, [PageSpec(tuple(items))])
    key = _key(tmp_path / "k.pdf", ["1. B"])
    [question] = run_family(_list_spec(keep_partial=True), path, [key], {"year": "2030"}).questions
    assert question.type == "single_choice" and question.answer == "B"
    assert any("only 2 options found" in f for f in question.flags)


def test_true_false_key_with_the_wrong_number_of_answers_is_flagged(tmp_path):
    from tests.fixtures import sheets

    fixture = sheets.cke_matura(tmp_path)
    scheme = fixture.keys[0]
    from pipeline.devkit.sample.pdfgen import PageSpec as Page

    bad_key = build_pdf(tmp_path / "Zasady_bad.pdf", [Page((
        TextBox("Zadanie 2. (0–2)", 20, 20, 170, size=11),
        TextBox("Rozwiązanie", 20, 27, 170, size=11),
        TextBox("PF", 20, 34, 170, size=11),
    ))])
    assert scheme.exists()
    result = run_family("pl_cke_matura_informatyka", fixture.sheets[0], [bad_key], {"year": "2030"})
    statements = [q for q in result.questions if q.type == "true_false"]
    assert len(statements) == 3
    assert all(q.answer is None and "gives 2 true/false answers for 3 statements" in q.flags[0] for q in statements)


def test_sub_parts_a_b_of_an_open_task_do_not_make_it_a_choice_question(tmp_path):
    path = tmp_path / "s.pdf"
    items = [TextBox("1. Rozważmy wszystkie punkty toru drona.", 20, 20, 170, size=10)]
    for i, line in enumerate(["a) Podaj, ile punktów leży wewnątrz kwadratu.", "b) Podaj trzy punkty współliniowe."]):
        items.append(TextBox(line, 25, 27 + 6 * i, 150, size=10))
    build_pdf(path, [PageSpec(tuple(items))])
    [question] = run_family(_list_spec(keep_partial=False), path, [], {"year": "2030"}).questions
    assert question.type == "open" and question.choices == []


def test_ocr_lines_get_their_labels_repaired_before_options_are_read():
    from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
    from pipeline.parse import parse_sheet
    from tests.pipeline.parse.conftest import entry

    spec = load_spec("gr_panellinies")
    texts = ["Α4. Η στοίβα ακολουθεί τη μέθοδο", "α. FIFO.", "β. LIFO.", "Υ. τυχαίας προσπέλασης.", "δ. δυαδικής αναζήτησης."]
    lines = [Line(text=t, x0=60, top=100 + 16 * i, x1=300, bottom=110 + 16 * i, font_size=11) for i, t in enumerate(texts)]
    sheet = ExtractedDocument("0" * 64, "them_plir_gel_2031.pdf", 1, [Page(1, 595, 842, PageMethod.OCR, lines)], "test")
    key_lines = [Line(text="Α4. β", x0=60, top=100, x1=200, bottom=110, font_size=11)]
    key = ExtractedDocument("1" * 64, "apant_plir_gel_2031.pdf", 1, [Page(1, 595, 842, PageMethod.TEXT, key_lines)], "test")
    path = Path("/exams/them_plir_gel_2031.pdf")
    result = parse_sheet(sheet, entry(path, "sheet", spec, {"year": "2031"}), [(key, entry(path, "key", spec, {"year": "2031"}))], spec)
    [question] = result.questions
    assert question.choice_labels == ["α", "β", "γ", "δ"]  # "Υ." was Tesseract's reading of "γ."
    assert question.answer == "β" and question.flags == []


def test_true_false_table_without_statement_numbers(tmp_path):
    from pipeline.devkit.sample.pdfgen import PageSpec as Page

    statements = [("Bajt ma osiem bitów.", "P"), ("Protokół HTTP szyfruje dane.", "F"), ("Adres IPv4 ma 32 bity.", "P")]
    items = [
        TextBox("Zadanie 5. (0–1)", 20, 20, 170, size=11),
        TextBox("Oceń prawdziwość podanych zdań. Zaznacz P, jeśli zdanie jest prawdziwe, albo F – jeśli jest fałszywe.", 20, 27, 170, size=11),
        TextBox("P", 160, 42, 6, size=11),
        TextBox("F", 172, 42, 6, size=11),
    ]
    for i, (text, _) in enumerate(statements):
        items += [TextBox(text, 25, 50 + 8 * i, 120, size=11), TextBox("P", 160, 50 + 8 * i, 6, size=11), TextBox("F", 172, 50 + 8 * i, 6, size=11)]
    sheet = build_pdf(tmp_path / "Arkusz.pdf", [Page(tuple(items))])
    key = build_pdf(tmp_path / "Zasady.pdf", [Page((
        TextBox("Zadanie 5. (0–1)", 20, 20, 170, size=11),
        TextBox("Rozwiązanie", 20, 27, 170, size=11),
        TextBox("P F P", 20, 34, 170, size=11),
    ))])
    result = run_family("pl_cke_matura_informatyka", sheet, [key], {"year": "2030"})
    assert [(q.number, q.answer, q.flags) for q in result.questions] == [("5.1", "P", []), ("5.2", "F", []), ("5.3", "P", [])]
    assert result.questions[1].question.endswith("Protokół HTTP szyfruje dane.")


def test_key_with_more_answers_than_the_sheet_has_questions_is_reported(tmp_path):
    sheet = _sheet(tmp_path / "s.pdf", [("1", ["a1", "b1", "c1", "d1"]), ("2", ["a2", "b2", "c2", "d2"])])
    key = _key(tmp_path / "k.pdf", ["1. B", "2. C", "3. A"])
    result = run_family(_list_spec(), sheet, [key], {"year": "2030"})
    assert result.problems == ["key lists 3 answers, sheet has 2 closed questions; no question for ['3']"]
    assert [q.answer for q in result.questions] == ["B", "C"]
