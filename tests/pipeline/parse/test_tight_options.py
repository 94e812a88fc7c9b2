"""Options printed side by side so close (1–2 pt) that the extraction puts no space between them ('A) a
tableB) a cat') are still split at each label (issue 26, item 10), in any script whose labels carry a
mark; an acronym's capitals ('HB.', 'U.S.B.') and a bracket inside a formula ('P(B)') are never split.

Real PDFs drawn with fpdf2 (DejaVu Sans) with each option placed by its measured width plus the gap, the
real extraction and parser. The Vietnamese sheet (stacked diacritics) is kept aside as a checking sheet."""
from __future__ import annotations

import hashlib
import textwrap
from pathlib import Path

import pytest
import yaml
from fpdf import FPDF

from pipeline.acquire import ManifestEntry
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse import parse_sheet
from pipeline.specs import parse_spec

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
SPEC = textwrap.dedent(
    r"""
    name: tight_family
    description: A generated family with options set close together.
    metadata: {country: XX, language: en, exam: test, subject: test}
    ocr: {languages: [eng]}
    local: {files: [{role: sheet, pattern: '(?P<year>\d{4})\.pdf$'}]}
    pairing: {'on': [year], key_required: false}
    layout:
      question_start: '^(?P<number>\d{1,2})\.\s'
    key: {kind: highlight}
    """
)


def spec(labels: list[str], styles: list[str], language: str = "en"):
    data = yaml.safe_load(SPEC)
    data["metadata"]["language"] = language
    data["layout"]["options"] = {"labels": labels, "styles": styles}
    return parse_spec(data, "tight_family.yaml")


def sheet(path: Path, items: list[tuple[str, list[str]]], gap: float, size: float = 11) -> Path:
    """Each question: its stem line, then its options on one row, each `gap` points after the last."""
    pdf = FPDF(unit="pt", format="A4")
    pdf.add_page()
    pdf.add_font("DejaVu", "", FONT)
    pdf.set_font("DejaVu", size=size)
    y = 80.0
    for number, (stem, options) in enumerate(items, start=1):
        pdf.text(57, y, f"{number}. {stem}")
        x = 70.0
        for option in options:
            pdf.text(x, y + 20, option)
            x += pdf.get_string_width(option) + gap
        y += 50
    pdf.output(str(path))
    return path


def read(path: Path, the_spec) -> list:
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    document = extract_document(path, sha, ExtractOptions.from_spec(the_spec))
    entry = ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=the_spec.name, role="sheet",
                          facts={"year": "2031"}, status="local", sha256=sha, path=str(path))
    return parse_sheet(document, entry, [], the_spec).questions


LATIN = [
    ("Which one is an animal?", ["A) a table", "B) a cat", "C) a house", "D) a pen"]),
    ("Which number is even?", ["A) 13", "B) 14", "C) 15", "D) 17"]),
    ("Which pencil is softest?", ["A) 2HB. grade", "B) 4B. grade", "C) 6B. grade", "D) 8B. grade"]),
]
CYRILLIC = [
    ("Какое слово означает животное?", ["А) стол", "Б) кошка", "В) дом", "Г) ручка"]),
    ("Какое число чётное?", ["А) 13", "Б) 14", "В) 15", "Г) 17"]),
]
VIETNAMESE = [
    ("Từ nào chỉ con vật?", ["A. cái bàn", "B. con mèo", "C. ngôi nhà", "D. cây bút"]),
    ("Số nào là số chẵn?", ["A. mười ba", "B. mười bốn", "C. mười lăm", "D. mười bảy"]),
]


def texts(found) -> list[list[str]]:
    return [list(q.choices) for q in found]


@pytest.mark.parametrize("gap", [1.4, 2.0])
def test_latin_options_a_point_apart_are_split_at_each_label(tmp_path, gap):
    found = read(sheet(tmp_path / "2031.pdf", LATIN, gap), spec(["A", "B", "C", "D"], ["A)"]))
    assert texts(found) == [["a table", "a cat", "a house", "a pen"], ["13", "14", "15", "17"],
                            ["2HB. grade", "4B. grade", "6B. grade", "8B. grade"]]


def test_cyrillic_labels_set_close_are_split(tmp_path):
    found = read(sheet(tmp_path / "2031.pdf", CYRILLIC, 1.4), spec(["А", "Б", "В", "Г"], ["A)"], "en"))
    assert texts(found) == [["стол", "кошка", "дом", "ручка"], ["13", "14", "15", "17"]]


def test_checking_sheet_vietnamese_dotted_labels(tmp_path):
    found = read(sheet(tmp_path / "2031.pdf", VIETNAMESE, 1.4), spec(["A", "B", "C", "D"], ["A."], "vi"))
    assert texts(found) == [["cái bàn", "con mèo", "ngôi nhà", "cây bút"], ["mười ba", "mười bốn", "mười lăm", "mười bảy"]]


def test_an_acronym_or_a_formula_holding_the_next_label_is_not_split(tmp_path):
    items = [("Which holds?", ["A) U.S.B. ports and P(B) rises", "B) none", "C) both", "D) neither"])]
    found = read(sheet(tmp_path / "2031.pdf", items, 6.0), spec(["A", "B", "C", "D"], ["A)", "A."]))
    assert texts(found) == [["U.S.B. ports and P(B) rises", "none", "both", "neither"]]
