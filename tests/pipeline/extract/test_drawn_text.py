"""Text the text layer leaves out is read by OCR in place, and said so: keys drawn as glyph outlines
(issue 26 item 1), and spans of glyphs whose font has no Unicode map (item 2), on pages whose other text
stays the text layer's. Drawn ink that is not text (charts, rules, formulas' strokes, bubbles, a logo)
is never read as text."""
from __future__ import annotations

import pytest

from pipeline.diagnostics import Code
from pipeline.extract import ExtractOptions, PageMethod, extract_document
from pipeline.extract.ocr import OcrSettings
from tests.fixtures import drawn_sheets as ds
from tests.pipeline.extract.ocr.builders import needs_tesseract

SHA = "0" * 64


def _extract(path, *languages: str):
    return extract_document(path, SHA, ExtractOptions(ocr=OcrSettings(languages=languages or ("eng",))))


def _codes(document) -> list[Code]:
    return [w.code for w in document.warnings]


def _squeezed(text: str) -> str:
    return "".join(text.split())


@needs_tesseract("eng")
def test_a_key_drawn_as_outlines_is_read_by_ocr_and_reported(tmp_path):
    cells = [f"{n}. {'ABCD'[(n * 7) % 4]}" for n in range(1, 21)]
    path = ds.drawn_key(tmp_path / "key.pdf", "Answer key, form A", cells, text_face=ds.dejavu(), drawn_face=ds.dejavu(),
                        footer="End of the key")
    document = _extract(path)
    page = document.pages[0]
    assert page.method is PageMethod.TEXT  # the heading and the footer are the text layer's, as printed
    texts = [line.text for line in page.lines]
    assert texts[0] == "Answer key, form A" and texts[-1] == "End of the key"
    assert not page.lines[0].ocr and not page.lines[-1].ocr
    read = [_squeezed(line.text) for line in page.lines if line.ocr]
    assert read == [_squeezed(cell) for cell in cells]  # row by row, as the grid prints them
    assert Code.DRAWN_TEXT_READ in _codes(document)
    assert "read by OCR" in next(w for w in document.warnings if w.code is Code.DRAWN_TEXT_READ)


@needs_tesseract("ell")
def test_drawn_greek_lines_are_read_in_the_pages_language(tmp_path):
    lines = ["Απαντήσεις: 1 Α 2 Β 3 Γ", "Τέλος των απαντήσεων"]
    path = tmp_path / "greek.pdf"
    pdf = ds._pdf()
    ds._text(pdf, "Θέμα Α", 60, 60, ds.dejavu())
    ds.drawn_paragraph(pdf, lines, 60, 120, ds.dejavu(), size=14)
    pdf.output(str(path))
    page = _extract(path, "ell").pages[0]
    assert [line.text for line in page.lines if not line.ocr] == ["Θέμα Α"]
    read = [_squeezed(line.text) for line in page.lines if line.ocr]
    assert len(read) == 2 and read[0].startswith("Απαντήσεις:1Α") and read[0].endswith("3Γ")  # accents and all
    assert read[1] == _squeezed(lines[1])


@pytest.mark.parametrize("kind", ds.NOT_TEXT)
def test_drawn_ink_that_is_not_text_is_never_read(tmp_path, kind):
    path = ds.not_text_page(tmp_path / f"{kind}.pdf", kind, face=ds.dejavu())
    document = _extract(path)
    assert not any(line.ocr for line in document.pages[0].lines)
    assert not {Code.DRAWN_TEXT_READ, Code.DRAWN_TEXT_UNREAD} & set(_codes(document))


@needs_tesseract("eng")
def test_a_logo_drawn_on_every_page_is_furniture_not_text(tmp_path):
    from pypdf import PdfReader, PdfWriter

    single = ds.drawn_key(tmp_path / "one.pdf", "Section of the booklet with its own text", ["MINISTRY OF EDUCATION"],
                          text_face=ds.dejavu(), drawn_face=ds.dejavu(), columns=1)
    writer = PdfWriter()
    for _ in range(5):
        writer.add_page(PdfReader(str(single)).pages[0])
    path = tmp_path / "five.pdf"
    with open(path, "wb") as handle:
        writer.write(handle)
    document = _extract(path)
    assert not any(line.ocr for page in document.pages for line in page.lines)
    assert Code.DRAWN_TEXT_READ not in _codes(document)


# ---------------------------------------------------------------- glyphs without a Unicode map


@needs_tesseract("eng")
def test_one_font_without_a_unicode_map_is_read_span_by_span_the_rest_kept(tmp_path):
    rows = [
        [("1. Given the function ", False), ("f(x) = 3x + 7", True), (" find the value at 2.", False)],
        [("2. The mean of the numbers is ", False), ("45", True), (" in every case.", False)],
        [("A) first answer     B) second answer", False)],
    ]
    path = ds.mixed_fonts(tmp_path / "math.pdf", rows, face=ds.dejavu(), unmapped_face=ds.dejavu(ds.SERIF))
    document = _extract(path)
    page = document.pages[0]
    assert page.method is PageMethod.TEXT  # not sent to OCR whole
    texts = [line.text for line in page.lines]
    assert texts[0].startswith("1. Given the function ") and texts[0].endswith(" find the value at 2.")
    assert "3x+7" in _squeezed(texts[0]) and "f(x)" in texts[0]
    assert texts[1] == "2. The mean of the numbers is 45 in every case."
    assert texts[2].startswith("A) first answer")  # mapped lines are the text layer's, untouched
    assert [line.ocr for line in page.lines] == [True, True, False]
    assert "\ufffd" not in page.text
    assert Code.UNMAPPED_READ in _codes(document) and Code.OCR_PAGES not in _codes(document)


@needs_tesseract("eng")
def test_hangul_text_stays_the_text_layers_while_its_math_font_is_read(tmp_path):
    rows = [
        [("1. 함수 ", False), ("f(x) = 2x + 5", True), ("의 값을 구하시오.", False)],
        [("① 3   ② 5   ③ 7   ④ 9   ⑤ 11", False)],
        [("2. 다음 중 옳은 것은? 값은 ", False), ("64", True), ("이다.", False)],
    ]
    path = ds.mixed_fonts(tmp_path / "korean.pdf", rows, face=ds.hangul(), unmapped_face=ds.dejavu(ds.SERIF))
    page = _extract(path).pages[0]
    texts = [line.text for line in page.lines]
    assert texts[0].startswith("1. 함수 ") and texts[0].endswith("의 값을 구하시오.") and "2x+5" in _squeezed(texts[0])
    assert texts[1] == "① 3   ② 5   ③ 7   ④ 9   ⑤ 11" or _squeezed(texts[1]) == "①3②5③7④9⑤11"  # circled labels as printed
    assert texts[2] == "2. 다음 중 옳은 것은? 값은 64이다."


@needs_tesseract("eng")
def test_a_page_mostly_without_unicode_map_is_still_read_whole(tmp_path):
    rows = [[("Nearly every glyph of this page is set in a font without a map.", True)]] * 8 + [[("Page 1", False)]]
    path = ds.mixed_fonts(tmp_path / "unmapped.pdf", rows, face=ds.dejavu(), unmapped_face=ds.dejavu(ds.SERIF))
    document = _extract(path)
    assert document.pages[0].method is PageMethod.OCR
    assert Code.OCR_PAGES in _codes(document)


INSPECT_SPEC = r"""
name: drawn_family
description: A generated family whose key is drawn as outlines.
metadata: {country: GB, language: en, exam: generated, subject: test}
ocr: {languages: [eng]}
local:
  files:
    - {role: sheet, pattern: '(?P<year>\d{4})_sheet\.pdf$'}
    - {role: key, pattern: '(?P<year>\d{4})_key\.pdf$'}
pairing: {'on': [year]}
layout:
  question_start: '^(?P<number>\d+)\.\s'
key: {kind: list, entry: '(?P<number>\d+)\.\s*(?P<answer>[A-D])'}
"""


@needs_tesseract("eng")
def test_inspect_shows_the_drawn_lines_and_marks_them_ocr(tmp_path):
    from pipeline.devkit import inspect_sheet
    from pipeline.specs import load_spec_file

    spec_path = tmp_path / "drawn_family.yaml"
    spec_path.write_text(INSPECT_SPEC, encoding="utf-8")
    cells = [f"{n}. {'ABCD'[n % 4]}" for n in range(1, 9)]
    key = ds.drawn_key(tmp_path / "2031_key.pdf", "Answer key", cells, text_face=ds.dejavu(), drawn_face=ds.dejavu())
    inspection = inspect_sheet(key, load_spec_file(spec_path), ocr_cache_dir=tmp_path / "cache")
    methods = {_squeezed(line.text): line.method for line in inspection.lines}
    assert methods["Answerkey"] == "text"
    assert all(methods.get(_squeezed(cell)) == "ocr" for cell in cells), [(l.text, l.method, l.rule) for l in inspection.lines]
    assert any("drawn text" in warning for warning in inspection.warnings)


@needs_tesseract("eng")
def test_ink_that_only_cuts_like_glyphs_is_kept_out_when_ocr_reads_it_unsurely(tmp_path):
    path = ds.compass_page(tmp_path / "compass.pdf", face=ds.dejavu())
    document = _extract(path)
    assert not any(line.ocr for line in document.pages[0].lines)
    assert Code.DRAWN_TEXT_READ not in _codes(document)


@needs_tesseract("eng")
def test_a_spec_drop_rule_takes_a_drawn_line_read_by_ocr_allowing_misreadings(tmp_path):
    pdf = ds._pdf()
    ds._text(pdf, "12 Which word is an adjective?", 60, 60, ds.dejavu())
    ds.drawn_paragraph(pdf, ["Texts of the passages were edited for teaching purposes."], 60, 760, ds.dejavu(), size=10)
    pdf.output(str(tmp_path / "note.pdf"))
    kept = _extract(tmp_path / "note.pdf")
    assert any(line.ocr and "edited for teaching" in line.text for line in kept.pages[0].lines)
    options = ExtractOptions(ocr=OcrSettings(languages=("eng",)), drop_lines=("^Texts of the passages were edited",))
    dropped = extract_document(tmp_path / "note.pdf", SHA, options)
    assert [line.text for line in dropped.pages[0].lines] == ["12 Which word is an adjective?"]


def test_drawn_regions_that_read_only_unsurely_add_no_text_and_are_reported():
    from pipeline.extract.layout import GlyphArrays
    from pipeline.extract.ocr.masked import PlacedWord
    from pipeline.extract.patches import PagePatch, _splice

    no_glyphs = GlyphArrays.from_glyphs([])
    arrows = PagePatch(33, glyphs=no_glyphs, drawn=[(401.0, 159.0, 417.0, 165.0), (401.0, 169.0, 425.0, 177.0)])
    unsure = [PlacedWord("ZN", 402, 159, 416, 165, 6, conf=48), PlacedWord("<>", 402, 169, 424, 177, 8, conf=36)]
    glyphs, notes = _splice(arrows, unsure)
    assert glyphs.text == [] and [n.code for n in notes] == [Code.DRAWN_TEXT_UNREAD]
    sure = unsure + [PlacedWord("KEY", 402, 171, 420, 176, 8, conf=91)]
    glyphs, notes = _splice(arrows, sure)
    assert sorted(glyphs.text) == ["<>", "KEY", "ZN"] and [n.code for n in notes] == [Code.DRAWN_TEXT_READ]


def test_drawn_text_that_ocr_cannot_read_now_fails_the_file_for_this_run_only(tmp_path):
    from pipeline.extract import StageUnavailable

    path = ds.drawn_key(tmp_path / "key.pdf", "Answer key", ["1. A", "2. B", "3. C"], text_face=ds.dejavu(), drawn_face=ds.dejavu())
    with pytest.raises(StageUnavailable, match="text their text layer lacks"):
        _extract(path, "zzz")  # a language no Tesseract has: the file is not at fault, nothing is cached
