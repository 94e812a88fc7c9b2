"""What OCR left of an option's label inside its text (issue 27): on generated Korean scans a ring ③
read as `(3)`, then read again by its shape, left its `)` after the option's first word (`③ 밭은 )
없어지면`), and a `9.` left its `.`: a gained character nobody was told of. Parse takes out a closing
bracket that closes nothing and a lone full stop between two words, in OCR'd options only, and flags
the question (an unsure reading, first in the audit queue); printed text keeps every character."""
from __future__ import annotations

from pathlib import Path

from pipeline.acquire import ManifestEntry
from pipeline.devkit.scriptscans import CIRCLED, TUNING, family_spec
from pipeline.diagnostics import Code, has_code
from pipeline.extract import ExtractedDocument, Line, Page, PageMethod
from pipeline.parse import parse_sheet

KOREAN = family_spec(next(f for f in TUNING if f.name == "ko-column"))


def _parsed(rows: list[str], method: PageMethod = PageMethod.OCR):
    lines = [Line(text=t, x0=60 if t[:1] in CIRCLED else 40, top=80 + 16 * i, x1=400, bottom=92 + 16 * i, font_size=10,
                  ocr=method is PageMethod.OCR, ocr_confidence=90.0 if method is PageMethod.OCR else None)
             for i, t in enumerate(rows)]
    page = Page(number=1, width=595, height=842, method=method, lines=lines)
    document = ExtractedDocument(sha256="0" * 64, path="sheet.pdf", page_count=1, pages=[page], stage_version="test")
    path = Path("/tmp/2031/sheet.pdf")
    entry = ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=KOREAN.name, role="sheet", facts={"year": "2031"},
                          status="local", sha256="0" * 64, path=str(path))
    return {q.number: q for q in parse_sheet(document, entry, [], KOREAN).questions}


SHEET = ["7. 온장고 들풀 시세이도 나열 오늘도 부르시 밭은 없어지면.", "① 온장고 들풀", "② 시세이도 (나열) 오늘도", "③ 밭은 ) 없어지면",
         "④ 으실 1903 상번천", "⑤ 신이나 . 지대지 알았는데 피겨",
         "8. 굴리는 카밀로 개학 1968 에스텔 보리밥.", "① 굴리는 카밀로", "② 보리밥 예이츠 ...", "③ 1911 전기과 겸사", "④ 87 피겨 윤동주",
         "⑤ 형광 모일 교토 ."]


def test_a_labels_stray_bracket_or_stop_is_taken_out_of_its_option_and_the_question_flagged():
    questions = _parsed(SHEET)
    assert questions["7"].choices == ["온장고 들풀", "시세이도 (나열) 오늘도", "밭은 없어지면", "으실 1903 상번천", "신이나 지대지 알았는데 피겨"]
    assert has_code(questions["7"].flags, Code.LABEL_REMAINDER)
    assert has_code(questions["7"].flags, Code.OCR_UNCERTAIN)
    assert any("'.'" in flag and "⑤" in flag for flag in questions["7"].flags)


def test_brackets_that_close_ellipses_and_a_stop_ending_the_option_are_kept():
    questions = _parsed(SHEET)
    assert questions["8"].choices[1] == "보리밥 예이츠 ..."
    assert questions["8"].choices[4].startswith("형광 모일 교토")
    assert not has_code(questions["8"].flags, Code.LABEL_REMAINDER)


def test_the_text_layer_is_read_as_printed():
    questions = _parsed(SHEET, PageMethod.TEXT)
    assert questions["7"].choices[2] == "밭은 ) 없어지면"
    assert not has_code(questions["7"].flags, Code.LABEL_REMAINDER)
