"""Checking sheets for keys read by position, kept apart from the sheets the mechanism was built on
(`test_key_positions`): other scripts, other layouts, a scan. Cyrillic parts three side by side, each
centred over two sub-columns; Vietnamese parts two by two across a page break; Turkish parts with
right-aligned headings and nested reserve parts; a rasterised two-by-two key read by OCR; a Greek
booklet whose key stands beside its last questions."""
from __future__ import annotations

from pathlib import Path

from pipeline.devkit.sample.pdfgen import TextBox, rasterize_pdf
from pipeline.extract import ExtractOptions, extract_document
from pipeline.parse.keys import KeyTable, read_list
from pipeline.specs import KeySpec, SectionRule
from tests.pipeline.parse.repertoire_sheets import ROW, SIZE, by_number, item, pdf, question_rows, run, spec


def entries(x: float, y: float, letters: str, *, columns: int = 1, pitch: float = 22, first: int = 1) -> list[TextBox]:
    per_column = -(-len(letters) // columns)
    return [TextBox(f"{first + i}. {letter}", x + pitch * (i // per_column), y + ROW * (i % per_column), 20, size=SIZE)
            for i, letter in enumerate(letters)]


def expected(parts: dict[str, str]) -> dict[str, str]:
    return {f"{prefix}{i + 1}".lower(): letter for prefix, letters in parts.items() for i, letter in enumerate(letters)}


def read_table(path: Path, entry: str, sections: list[SectionRule]) -> KeyTable:
    document = extract_document(path, "1" * 64, ExtractOptions.from_spec(spec()))  # OCR in Spanish where needed
    table = read_list(document, KeySpec(kind="list", entry=entry, sections=sections), path.name)
    assert not [p for p in table.problems if "keyed twice" in p], table.problems
    return table


def read(path: Path, entry: str, sections: list[SectionRule]) -> dict[str, str]:
    return read_table(path, entry, sections).answers


CYRILLIC = {"1.": "АБВГАБВГАБВГ", "2.": "БВГАБВГАБВГА", "3.": "ВГАБВГАБВГАБ"}


def test_cyrillic_parts_three_side_by_side_centred_over_sub_columns(tmp_path):
    boxes = []
    for n, letters in enumerate(CYRILLIC.values()):
        x = 15 + 62 * n
        boxes.append(TextBox(f"Часть {n + 1}", x, 25, 56, size=11, bold=True, align="C"))
        boxes += entries(x, 34, letters, columns=2, pitch=26)
    sections = [SectionRule(start=f"^Часть {n}$", prefix=f"{n}.") for n in (1, 2, 3)]
    answers = read(pdf(tmp_path / "key.pdf", boxes), r"(?P<number>\d{1,2})\.\s*(?P<answer>[АБВГ])", sections)
    assert answers == expected(CYRILLIC)


VIETNAMESE = {"1.": "ABCDABCD", "2.": "BCDABCDA", "3.": "CDABCDAB", "4.": "DABCDABC"}


def test_vietnamese_parts_two_by_two_across_a_page_break(tmp_path):
    pages = []
    for page, prefixes in enumerate((("1.", "2."), ("3.", "4."))):
        boxes = [TextBox("ĐÁP ÁN ĐỀ THI TRẮC NGHIỆM", 50, 15, 110, size=12, bold=True, align="C")]
        for column, prefix in enumerate(prefixes):
            x = 20 + 95 * column
            boxes.append(TextBox(f"Phần {'I II III IV'.split()[page * 2 + column]}", x, 28, 60, size=11, bold=True))
            boxes += entries(x, 37, VIETNAMESE[prefix])
        pages.append(boxes)
    sections = [SectionRule(start=f"^Phần {roman}$", prefix=f"{n}.") for n, roman in enumerate("I II III IV".split(), start=1)]
    answers = read(pdf(tmp_path / "key.pdf", *pages), r"(?P<number>\d{1,2})\.\s*(?P<answer>[A-D])", sections)
    assert answers == expected(VIETNAMESE)


TURKISH = {"1.": "ABCDEABCDE", "1.R": "EA", "2.": "BCDEABCDEA", "2.R": "DC"}


def test_turkish_parts_with_right_aligned_headings_and_nested_reserves(tmp_path):
    boxes = []
    for column, part in enumerate(("1.", "2.")):
        x = 20 + 95 * column
        boxes.append(TextBox(f"{column + 1}. BÖLÜM", x, 25, 70, size=11, bold=True, align="R"))
        boxes += entries(x, 34, TURKISH[part], columns=2, pitch=30)
        boxes.append(TextBox("Yedek sorular", x, 70, 70, size=10, bold=True, align="R"))
        boxes += entries(x, 78, TURKISH[part + "R"])
    sections = [SectionRule(start=r"^1\. BÖLÜM$", prefix="1."), SectionRule(start=r"^2\. BÖLÜM$", prefix="2."),
                SectionRule(start="^Yedek sorular$", prefix="R", nested=True, reserve=True)]
    answers = read(pdf(tmp_path / "key.pdf", boxes), r"(?P<number>\d{1,2})\.\s*(?P<answer>[A-E])\b", sections)
    assert answers == expected(TURKISH)


SCANNED = {"1.": "ABCDABCD", "2.": "BCDABCDA", "3.": "CDABCDAB", "4.": "DABCDABC"}


def test_a_scanned_key_of_four_parts_two_by_two(tmp_path):
    boxes = []
    for letters, (x, y), name in zip(SCANNED.values(), [(20, 25), (110, 25), (20, 90), (110, 90)],
                                               ["PRIMERA PARTE", "SEGUNDA PARTE", "TERCERA PARTE", "CUARTA PARTE"]):
        boxes.append(TextBox(name, x, y, 70, size=12, bold=True, align="C"))
        boxes += entries(x + 20, y + 10, letters)
    scan = rasterize_pdf(pdf(tmp_path / "key.pdf", boxes), tmp_path / "scan.pdf", dpi=200, blur=0.6, jpeg_quality=80)
    sections = [SectionRule(start=f"^{name} PARTE", prefix=f"{n}.")
                for n, name in enumerate(["PRIMERA", "SEGUNDA", "TERCERA", "CUARTA"], start=1)]
    table = read_table(scan, r"(?P<number>\d{1,2})\.?\s*(?P<answer>[A-D])\b", sections)
    # Every entry OCR read lands in its own part; an entry whose letter OCR lost is a report line.
    assert table.answers.items() <= expected(SCANNED).items()
    unread = [p for p in table.problems if "could not be read as one (OCR)" in p]
    assert len(table.answers) + len(unread) == len(expected(SCANNED)) and len(table.answers) >= 28


GREEK_KEY = "BDACADBC"  # the options are labelled A)–D) on this sheet


def test_a_greek_booklet_with_its_key_beside_the_last_questions(tmp_path):
    first, y = [], 20.0
    for n in range(1, 6):
        found, y = question_rows(item(n, stem=f"Ερώτηση {n}: ποια απάντηση είναι σωστή;"), y)
        first += found
    last, y = [], 20.0
    for n in (6, 7, 8):
        found, y = question_rows(item(n, stem=f"Α και Β στην ερώτηση {n};"), y, width=80)
        last += found
    last.append(TextBox("ΑΠΑΝΤΗΣΕΙΣ", 120, 20, 60, size=11, bold=True))
    last += [TextBox(f"{n}. {letter}", 120, 28 + ROW * (n - 1), 30, size=SIZE) for n, letter in enumerate(GREEK_KEY, 1)]
    the_spec = spec(key={"in_sheet": "^ΑΠΑΝΤΗΣΕΙΣ"})
    result = run(the_spec, pdf(tmp_path / "2031" / "sheet.pdf", first, last))
    questions = by_number(result)
    assert sorted(questions, key=int) == [str(n) for n in range(1, 9)]
    assert {n: q.answer for n, q in questions.items()} == {str(n): a for n, a in enumerate(GREEK_KEY, 1)}
