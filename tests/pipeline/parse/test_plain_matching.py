"""Question numbers and option labels match the plain text of a line: whatever whitespace or gap parts
them from their text, and whatever bold marks surround them. Bold stays in the record's text."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.devkit.sample import pdfgen
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.blocks import split_blocks
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import line_stream
from pipeline.specs import load_spec
from tests.pipeline.parse.conftest import run_family

# The obvious pattern a new user writes: a number, a dot, then the text.
NUMBER_DOT_SPACE = r"^(?P<number>\d{1,3})\.\s+(?=\S)"


def _spec(question_start: str = NUMBER_DOT_SPACE):
    spec = load_spec("pl_cke_zawodowy")
    options = spec.layout.options.model_copy(update={"min_count": 3})
    layout = spec.layout.model_copy(update={"question_start": question_start, "options": options, "skip_types": []})
    key = spec.key.model_copy(update={"entry": r"(?<![\d.])(?P<number>\d{1,3})\.\s+(?P<answer>[A-D])\b"})
    return spec.model_copy(update={"layout": layout, "key": key})


def _width(text: str, bold: bool) -> float:
    pdf = pdfgen._measuring_pdf()
    pdfgen._set_font(pdf, TextBox(text, 0, 0, 100, size=10, bold=bold))
    return pdf.get_string_width(text + " ")


def _bold_then(bold: str, rest: str, x: float, y: float) -> list[TextBox]:
    """A line whose first words are bold and the rest regular: the text layer marks it '**…** rest'."""
    width = _width(bold, True)
    return [TextBox(bold, x, y, width + 5, size=10, bold=True), TextBox(rest, x + width, y, 150, size=10)]


def _key(path: Path, lines: list[str]) -> Path:
    return build_pdf(path, [PageSpec(tuple(TextBox(t, 20, 20 + 7 * i, 170, size=10) for i, t in enumerate(lines)))])


def test_a_number_set_apart_by_a_wide_gap_still_starts_its_question(tmp_path):
    # "1.⇥Zgodnie…": the tab prints as a gap wide enough to split the row into two lines.
    items, y = [], 20.0
    for number in ("1", "2", "3"):
        items += [TextBox(f"{number}.", 20, y, 10, size=10), TextBox(f"Pytanie numer {number} o sieci?", 34, y, 150, size=10)]
        y += 7
        for label in "ABC":
            items.append(TextBox(f"{label}. opcja {label.lower()}{number}", 34, y, 120, size=10))
            y += 6
        y += 6
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec(tuple(items))])
    key = _key(tmp_path / "k.pdf", ["1. A", "2. B", "3. C"])
    result = run_family(_spec(), sheet, [key], {"year": "2030"})
    found = {q.number: q for q in result.questions}
    assert sorted(found) == ["1", "2", "3"]
    assert found["2"].question == "Pytanie numer 2 o sieci?"
    assert found["2"].choices == ["opcja a2", "opcja b2", "opcja c2"] and found["2"].answer == "B"


def test_a_bold_header_line_starts_its_question_and_keeps_its_bold(tmp_path):
    items = [TextBox("107. Pytanie zwykłe o sieci?", 20, 20, 170, size=10)]
    items += [TextBox(f"{label}. stara {label}", 25, 27 + 6 * i, 120, size=10) for i, label in enumerate("ABC")]
    items += _bold_then("108. Pytanie pogrubione", "i dalej zwykłe?", 20, 52)
    items += [TextBox(f"{label}. nowa {label}", 25, 59 + 6 * i, 120, size=10) for i, label in enumerate("ABC")]
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec(tuple(items))])
    key = _key(tmp_path / "k.pdf", ["107. A", "108. C"])
    found = {q.number: q for q in run_family(_spec(), sheet, [key], {"year": "2030"}).questions}
    assert sorted(found) == ["107", "108"]
    assert found["107"].choices == ["stara A", "stara B", "stara C"]
    assert found["108"].question == "**Pytanie pogrubione** i dalej zwykłe?"
    assert found["108"].choices == ["nowa A", "nowa B", "nowa C"] and found["108"].answer == "C"


def test_a_bold_option_line_keeps_its_label(tmp_path):
    items = [TextBox("1. Które zdanie jest prawdziwe?", 20, 20, 170, size=10)]
    items += _bold_then("A. opcja pogrubiona", "i nie", 25, 27)
    items += [TextBox(f"{label}. zwykła {label}", 25, 33 + 6 * i, 120, size=10) for i, label in enumerate("BC")]
    sheet = build_pdf(tmp_path / "s.pdf", [PageSpec(tuple(items))])
    [question] = run_family(_spec(), sheet, [_key(tmp_path / "k.pdf", ["1. A"])], {"year": "2030"}).questions
    assert question.type == "single_choice"
    assert question.choice_labels == ["A", "B", "C"]
    assert question.choices[0] == "**opcja pogrubiona** i nie" and question.answer == "A"


def _document(texts: list[str]) -> ExtractedDocument:
    lines = [Line(text=t, x0=70, top=100 + 20 * i, x1=300, bottom=112 + 20 * i, font_size=12) for i, t in enumerate(texts)]
    page = Page(number=1, width=595, height=842, method=PageMethod.TEXT, lines=lines)
    return ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")


@pytest.mark.parametrize("separator", ["\t", "  ", "\u00a0", "\u2003"])
def test_any_whitespace_after_a_number_matches_a_pattern_written_with_one_space(separator):
    document = _document([f"1.{separator}Zgodnie z ustawą", "tekst", f"2.{separator}Drugie pytanie"])
    blocks = split_blocks(line_stream(document, reader=Recovery.every().line_reader(None)), r"^(?P<number>\d+)\. (?=\S)", None)
    assert [(b.number, b.header_rest) for b in blocks] == [("1", "Zgodnie z ustawą"), ("2", "Drugie pytanie")]


def test_bold_marks_inside_a_header_do_not_hide_it():
    document = _document(["**Zadanie 3. Pytanie** o sieci", "**Zadanie** 4. Kolejne"])
    blocks = split_blocks(line_stream(document, reader=Recovery.every().line_reader(None)), r"^Zadanie (?P<number>\d+)\. ", None)
    assert [(b.number, b.header_rest) for b in blocks] == [("3", "**Pytanie** o sieci"), ("4", "Kolejne")]
