"""An extracted document's JSON (the documents cache parse reads): written field for field as
`dataclasses.asdict` gives them, optional line fields left out when they hold their default, and read
back to the same document."""
from __future__ import annotations

import dataclasses
import json

from pipeline.diagnostics import Code, diagnose, to_records
from pipeline.extract.document import ExtractedDocument, Figure, Line, Page, PageMethod, ScannedFigure


def _document() -> ExtractedDocument:
    lines = [
        Line("Zadanie 1. Który protokół?", 56.7, 80.25, 420.1, 92.0, font_size=11.0),
        Line("Ποια είναι η σωστή απάντηση; 다음 중", 56.7, 95.0, 300.0, 107.5, highlighted=True, bold=True,
             wide_gap_starts=[120.5, 210.0], font_size=10.5),
        Line("A. HTTP   B. SMTP", 70.0, 110.0, 250.0, 121.0, ocr=True, ocr_confidence=41.5, unsure_words=["SMTP", "B."],
             unclear_marks=["B."]),
        Line("", 0.0, 0.0, 0.0, 0.0),
    ]
    pages = [
        Page(1, 595.28, 841.89, PageMethod.TEXT, lines=lines,
             figures=[Figure(1, (10.0, 20.0, 110.0, 90.0), "raw/figures/ab.png", "ab" * 32)]),
        Page(2, 595.28, 841.89, PageMethod.OCR, lines=lines[2:], ocr_confidence=77.25,
             scanned_figures=[ScannedFigure((1.0, 2.0, 3.0, 4.0), ("unsure", "wörds"))], ocr_notes=["labels taken from their column"]),
        Page(3, 595.28, 841.89, PageMethod.EMPTY, dropped_reason="scratch page (BRUDNOPIS)"),
    ]
    warnings = [diagnose(Code.OCR_PAGES, pages="page 2", why="scanned page"), "a plain note"]
    return ExtractedDocument("f" * 64, "/tmp/x.pdf", 3, pages, "extract/test", warnings=warnings)


def _as_asdict_writes_it(document: ExtractedDocument) -> str:
    data = dataclasses.asdict(document)
    data["warnings"] = to_records(document.warnings, Code.EXTRACT_NOTE)
    for page_data, page in zip(data["pages"], document.pages):
        page_data["ocr_notes"] = to_records(page.ocr_notes, Code.EXTRACT_NOTE)
        for line_data in page_data["lines"]:
            for name in ("wide_gap_starts", "ocr", "ocr_confidence", "unsure_words", "unclear_marks", "unaccounted_ink"):
                if line_data[name] in (None, False, []):
                    del line_data[name]
    return json.dumps(data, ensure_ascii=False, default=lambda value: value.value)


def test_a_document_is_written_as_asdict_gives_it_and_read_back_whole():
    document = _document()
    text = document.to_json()
    assert text == _as_asdict_writes_it(document)
    again = ExtractedDocument.from_json(text)
    assert again.to_json() == text and again.pages[1].scanned_figures == document.pages[1].scanned_figures
    assert "ocr" not in json.loads(text)["pages"][0]["lines"][0]  # a default is left out, read back as the default


def test_each_optional_line_field_is_written_where_it_is_set_and_left_out_at_its_default():
    """Lines are written by a fast path where every optional field holds its default, field by field
    otherwise: each field set alone (a tuple for a list, `ocr` as 0) is written as asdict gives it."""
    set_alone = [
        {"wide_gap_starts": [1.5]}, {"wide_gap_starts": ()}, {"ocr": True}, {"ocr": 0}, {"ocr_confidence": 0.0},
        {"unsure_words": ["x"]}, {"unclear_marks": ("y",)}, {"unaccounted_ink": ["z"]}, {"font_size": None},
    ]
    lines = [Line("a", 1.0, 2.0, 3.0, 4.0, **fields) for fields in set_alone] + [Line("b", 1, 2, 3, 4)]
    document = ExtractedDocument("e" * 64, "x.pdf", 1, [Page(1, 595.0, 842.0, PageMethod.TEXT, lines=lines)], "extract/test")
    text = document.to_json()
    # as a line was written field by field before the fast path: tuples as lists, then each optional field
    # left out where it is None, False itself or an empty list
    data = json.loads(json.dumps(dataclasses.asdict(document), ensure_ascii=False, default=lambda value: value.value))
    for line_data in data["pages"][0]["lines"]:
        for name in ("wide_gap_starts", "ocr", "ocr_confidence", "unsure_words", "unclear_marks", "unaccounted_ink"):
            if line_data[name] is None or line_data[name] is False or line_data[name] == []:
                del line_data[name]
    assert text == json.dumps(data, ensure_ascii=False)
    written = json.loads(text)["pages"][0]["lines"]
    assert [sorted(set(line) - {"text", "x0", "top", "x1", "bottom", "highlighted", "font_size", "bold"}) for line in written] == [
        ["wide_gap_starts"], [], ["ocr"], ["ocr"], ["ocr_confidence"], ["unsure_words"], ["unclear_marks"], ["unaccounted_ink"], [], []]
