"""`layout.question_max_indent`: a line that matches `question_start` but stands indented right of its
column's left edge (a numbered list inside a passage) is text, not a question (issue 26, item 11).

Real generated PDFs (fpdf2, DejaVu), the real extraction and parser; a one-column Latin sheet, a
two-column Cyrillic sheet whose right column's questions stand at their own column's edge, and a Greek
sheet kept aside as a checking sheet (a list set with hanging numbers, questions with their options)."""
from __future__ import annotations

import hashlib
import shutil
import textwrap
from pathlib import Path

import pytest
import yaml

from pipeline.acquire import ManifestEntry
from pipeline.devkit import inspect_sheet
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, item_bottom, rasterize_pdf
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import parse_sheet
from pipeline.specs import parse_spec

SPEC = textwrap.dedent(
    r"""
    name: indent_family
    description: A generated family whose passages hold numbered lists.
    metadata: {country: XX, language: en, exam: test, subject: test}
    ocr: {languages: [eng]}
    local: {files: [{role: sheet, pattern: '(?P<year>\d{4})\.pdf$'}]}
    pairing: {'on': [year], key_required: false}
    layout:
      question_start: '^(?P<number>\d{1,2})\.\s'
      options: {labels: [A, B, C, D], styles: ['A)']}
    key: {kind: highlight}
    """
)


def spec(max_indent: float | None, language: str = "en"):
    data = yaml.safe_load(SPEC)
    data["metadata"]["language"] = language
    if max_indent is not None:
        data["layout"]["question_max_indent"] = max_indent
    return parse_spec(data, "indent_family.yaml")


def column(x: float, width: float, y: float, blocks: list[tuple[float, str]], size: float = 10) -> tuple[list[TextBox], float]:
    """Text boxes down a column; each block is (indent in mm from the column's edge, text)."""
    items = []
    for indent_mm, text in blocks:
        box = TextBox(text, x + indent_mm, y, width - indent_mm, size=size)
        items.append(box)
        y = item_bottom(box) + 1.2
    return items, y


def questions(numbers: range, words: tuple[str, str], list_words: str) -> list[tuple[float, str]]:
    """A passage with a numbered list indented 8 mm (its items 1.–4.), then questions at the edge."""
    stem, option = words
    blocks = [(0, f"{list_words}:")] + [(8, f"{n}. {list_words} {n}") for n in range(1, 5)]
    for n in numbers:
        blocks.append((0, f"{n}. {stem} {n}?"))
        blocks += [(3, f"{label}) {option} {n}{label.lower()}") for label in "ABCD"]
    return blocks


def read(path: Path, the_spec) -> list:
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    document = extract_document(path, sha, ExtractOptions.from_spec(the_spec))
    entry = ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=the_spec.name, role="sheet",
                          facts={"year": "2031"}, status="local", sha256=sha, path=str(path))
    return parse_sheet(document, entry, [], the_spec).questions


@pytest.fixture(scope="module")
def latin_sheet(tmp_path_factory) -> Path:
    items, _ = column(20, 170, 20, questions(range(1, 5), ("Which statement is true of item", "statement"),
                                                "The rules of the game are"))
    return build_pdf(tmp_path_factory.mktemp("latin") / "2031.pdf", [PageSpec(tuple(items))])


@pytest.fixture(scope="module")
def two_column_cyrillic_sheet(tmp_path_factory) -> Path:
    words = ("Какое утверждение верно для пункта", "утверждение")
    left, _ = column(15, 85, 20, questions(range(1, 4), words, "Правила игры такие"))
    right, _ = column(110, 85, 20, [(0, f"{n}. {words[0]} {n}?") for n in (4,)]
                      + [(3, f"{label}) {words[1]} 4{label.lower()}") for label in "ABCD"]
                      + [(0, "Прочитайте список:")] + [(8, f"{n}. пункт списка {n}") for n in range(1, 4)]
                      + [(0, f"5. {words[0]} 5?")] + [(3, f"{label}) {words[1]} 5{label.lower()}") for label in "ABCD"])
    return build_pdf(tmp_path_factory.mktemp("cyrillic") / "2031.pdf", [PageSpec(tuple(left + right))])


@pytest.fixture(scope="module")
def greek_checking_sheet(tmp_path_factory) -> Path:
    """Kept aside: not used while the mechanism was written."""
    items, _ = column(25, 160, 25, questions(range(1, 6), ("Ποια πρόταση ισχύει για το στοιχείο", "πρόταση"),
                                                "Οι κανόνες του παιχνιδιού είναι"), size=11)
    return build_pdf(tmp_path_factory.mktemp("greek") / "2031.pdf", [PageSpec(tuple(items))])


def test_without_the_bound_the_indented_list_takes_the_question_numbers(latin_sheet):
    """What the bound is for: the list's items 1.–4. read as questions 1–4, the real question 1 lost."""
    found = read(latin_sheet, spec(None))
    assert [q.question for q in found[:3]] == [f"The rules of the game are {n}" for n in (1, 2, 3)]
    assert not any(q.question.startswith("Which statement is true of item 1?") for q in found)


def test_an_indented_numbered_list_in_a_passage_is_text_and_the_questions_are_found(latin_sheet):
    found = read(latin_sheet, spec(10))
    assert [q.number for q in found] == ["1", "2", "3", "4"]
    assert all(q.question.startswith(f"Which statement is true of item {q.number}") for q in found)
    assert [len(q.choices) for q in found] == [4, 4, 4, 4]


def test_each_column_has_its_own_edge(two_column_cyrillic_sheet):
    found = read(two_column_cyrillic_sheet, spec(10))
    assert [q.number for q in found] == ["1", "2", "3", "4", "5"]
    assert all(len(q.choices) == 4 for q in found)


def test_checking_sheet_greek(greek_checking_sheet):
    assert [q.number for q in read(greek_checking_sheet, spec(10, "el"))] == ["1", "2", "3", "4", "5"]


def test_inspect_prints_the_indent_the_bound_reads_and_says_why_a_header_is_text(latin_sheet, tmp_path):
    inspection = inspect_sheet(latin_sheet, spec(10), ocr_cache_dir=tmp_path)
    items = [line for line in inspection.lines if line.text.startswith("1. The rules")]
    assert len(items) == 1 and items[0].indent == pytest.approx(22.7, abs=1.0)  # 8 mm
    assert "indented past layout.question_max_indent" in items[0].rule
    header = next(line for line in inspection.lines if line.text.startswith("1. Which"))
    assert header.indent == pytest.approx(0, abs=1.0) and header.rule.startswith("question_start → number 1")



@pytest.mark.skipif(shutil.which("tesseract") is None, reason="needs Tesseract with English data")
@pytest.mark.parametrize("dpi, blur, quality", [(150, 0.8, 70), (300, 0.4, 90)])
def test_a_scan_of_the_sheet_keeps_its_questions_apart_from_the_list(latin_sheet, tmp_path, dpi, blur, quality):
    """OCR'd lines at one edge start a pixel or two apart: the edge is still found, the list still text."""
    scan = rasterize_pdf(latin_sheet, tmp_path / "2031.pdf", dpi=dpi, blur=blur, jpeg_quality=quality)
    found = read(scan, spec(10))
    assert [q.number for q in found] == ["1", "2", "3", "4"]
    assert all(q.question.startswith("Which statement") for q in found)
