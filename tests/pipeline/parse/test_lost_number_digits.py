"""No question lost when its stem opens with a number or when a scan lost its number's digits: a header read as its
mark alone ("1." as ".", "Câu 1." as "Câu .", "Soru 1" as "Soru") takes the one number the run leaves it, flagged;
and a numbering that starts above 1 is a line of the report."""
from __future__ import annotations

import pytest

from pipeline.devkit import numberstems
from pipeline.diagnostics import Code, has_code
from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse.blocks import split_blocks
from pipeline.parse.ocrpasses import recovery_for
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import line_stream
from tests.pipeline.extract.ocr.builders import needs_tesseract
from tests.pipeline.parse.test_silent_loss import _key, _sheet, _spec
from tests.pipeline.parse.conftest import run_family

STYLES = {
    # style: (the spec's question_start, the header of question n, what a scan read of the first's, of the second's)
    "1.": (r"^(?P<number>\d{1,3})\.\s+(?=\S)", "{n}.", "."),
    "1)": (r"^(?P<number>\d{1,3})\)\s+(?=\S)", "{n})", ")"),
    "Câu 1.": (r"^Câu\s+(?P<number>\d{1,3})\.\s+(?=\S)", "Câu {n}.", "Câu ."),
    "문 1": (r"^문\s*(?P<number>\d{1,3})\s+(?=\S)", "문 {n}", "문"),
    "Soru 1": (r"^Soru\s+(?P<number>\d{1,3})\s+(?=\S)", "Soru {n}", "Soru"),
}
# Stems that open with a number: a year, a count, a decimal, an ordinal.
STEMS = ["1945 yılında hangi olay oldu?", "3 quả táo và 2 quả lê?", "2,5 kg ile 0,75 kg toplamı?", "2. Dünya Savaşı ne zaman bitti?",
         "19. yüzyılda hangi akım doğdu?", "1821 ήταν η χρονιά της επανάστασης;"]
HEADER_X, STEM_SHIFT, OPTION_X = 64.0, 6.5, 80.0  # a lost digit leaves the mark about 0.6 font sizes right of the headers' edge


def _page(rows: list[tuple[float, str]], method: PageMethod = PageMethod.OCR) -> ExtractedDocument:
    lines = [Line(text=t, x0=x, top=80 + 18 * i, x1=x + 6 * len(t), bottom=91 + 18 * i, font_size=11) for i, (x, t) in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    return ExtractedDocument(sha256="0" * 64, path="x.pdf", page_count=1, pages=[page], stage_version="test")


def _rows(style: str, lost: set[int], count: int = 4) -> list[tuple[float, str]]:
    """`count` questions, stems opening with numbers; those in `lost` read with their digits lost."""
    _, header, read = STYLES[style]
    rows = []
    for n in range(1, count + 1):
        stem = STEMS[(n - 1) % len(STEMS)]
        if n in lost:
            shift = STEM_SHIFT if not read.strip(".)") else 0.0  # a prefix keeps the line's start
            rows.append((HEADER_X + shift, f"{read} {stem}"))
        else:
            rows.append((HEADER_X, f"{header.format(n=n)} {stem}"))
        rows += [(OPTION_X, "A. birinci"), (OPTION_X + 110, "B. ikinci")]
    return rows


def _blocks(rows, style, method=PageMethod.OCR, recovery=None):
    stream = line_stream(_page(rows, method), reader=Recovery.every().line_reader(None))
    return split_blocks(stream, STYLES[style][0], None, recovery=recovery)


@pytest.mark.parametrize("style", list(STYLES))
@pytest.mark.parametrize("lost", [{1}, {3}], ids=["first", "between"])
def test_a_header_whose_digits_a_scan_lost_takes_the_number_the_run_leaves_and_is_flagged(style, lost):
    blocks = _blocks(_rows(style, lost), style)
    assert [b.number for b in blocks] == ["1", "2", "3", "4"]
    [n] = lost
    found = blocks[n - 1]
    assert [f.code for f in found.flags] == [Code.NUMBER_INFERRED]
    assert found.header_rest.startswith(STEMS[(n - 1) % len(STEMS)].split(" ")[0])  # the stem keeps its own number
    assert [sl.text for sl in found.lines] == ["A. birinci", "B. ikinci"]
    assert all(not b.flags for b in blocks if b is not found)


@pytest.mark.parametrize("style", list(STYLES))
def test_without_the_pass_the_question_is_lost_into_the_one_before(style):
    blocks = _blocks(_rows(style, {3}), style, recovery=recovery_for(["lost-number-digits"]))
    assert [b.number for b in blocks] == ["1", "2", "4"]


@pytest.mark.parametrize("style", list(STYLES))
def test_stems_opening_with_numbers_on_the_text_layer_open_no_question_and_are_kept(style):
    blocks = _blocks(_rows(style, set(), count=6), style, PageMethod.TEXT)
    assert [b.number for b in blocks] == ["1", "2", "3", "4", "5", "6"]
    assert [b.header_rest for b in blocks] == STEMS
    assert all(not b.flags for b in blocks)


def test_a_mark_alone_is_a_lost_number_only_where_the_run_leaves_it_exactly_one():
    # No gap (the line is a stray "." in the text), and a gap of two (which of the two is it?): left as read.
    rows = _rows("1.", set(), count=3)
    rows.insert(3, (HEADER_X + STEM_SHIFT, ". 1945 yılında"))
    assert [b.number for b in _blocks(rows, "1.")] == ["1", "2", "3"]
    rows = _rows("1.", {2}, count=4)
    rows[-3] = (HEADER_X, "5. 2,5 kg")  # 1, [lost], 3, 5: a gap of one after the lost line, but it stands before 3
    numbers = [b.number for b in _blocks(rows, "1.")]
    assert numbers == ["1", "2", "3", "5"]
    rows = _rows("1.", {2, 3}, count=4)  # 1, [.], [.], 4: two numbers, two lines: no single number for either
    assert [b.number for b in _blocks(rows, "1.")] == ["1", "4"]


def test_a_mark_alone_at_the_options_column_is_no_lost_number():
    rows = _rows("1.", set(), count=4)
    rows[7:8] = [(OPTION_X, ". ikinci")]  # question 3 lost entirely; an option's label lost its letter at the options' column
    del rows[6]
    assert [b.number for b in _blocks(rows, "1.")] == ["1", "2", "4"]


def test_a_numbering_that_starts_above_one_is_a_note_of_the_report(tmp_path):
    # Unkeyed, a lost first question would go unseen: the report's notes say where the numbering starts. Neither the
    # first question read (read as printed) is flagged nor is it a problem (an excerpt starting at 15 is a sheet too).
    sheet = _sheet(tmp_path / "s.pdf", [("2", "ABC"), ("3", "ABC")])
    result = run_family(_spec(), sheet, [_key(tmp_path / "k.pdf", ["2. A", "3. B"])], {"year": "2030"})
    assert [q.flags for q in result.questions] == [[], []] and result.problems == []
    assert "question numbering starts at 2: 1 not found before it" in result.notes
    sheet = _sheet(tmp_path / "s1.pdf", [("1", "ABC"), ("2", "ABC")])
    assert not [n for n in run_family(_spec(), sheet, [_key(tmp_path / "k1.pdf", ["1. A", "2. B"])], {"year": "2030"}).notes
                if "numbering starts" in n]


@needs_tesseract("vie", "tur", "pol", "ell", "kor")
@pytest.mark.parametrize("family", numberstems.TUNING, ids=lambda f: f.name)
def test_generated_sheets_whose_stems_open_with_numbers_lose_no_question_on_the_text_layer(tmp_path, family):
    questions = numberstems.printed(family)
    sheet = numberstems.sheet_pdf(tmp_path / "sheet.pdf", family, questions)
    key = numberstems.key_pdf(tmp_path / "key.pdf", family, questions)
    found = numberstems.read(sheet, key, numberstems.spec(family))
    assert list(found) == [q.number for q in questions]
    for q in questions:
        assert found[q.number].question.startswith(q.stem.split(" ")[0]), q.number
        assert found[q.number].answer == q.answer
        assert not has_code(found[q.number].flags, Code.NUMBER_INFERRED, Code.NUMBERING_LATE_START)
