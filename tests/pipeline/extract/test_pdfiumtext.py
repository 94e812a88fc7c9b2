"""The text layer's characters read in one call per page give exactly what pdfium gives character by
character: every script, characters outside the BMP (as surrogate halves, each its own index) and the
hyphen pdfium generates at a line end (0x02), which the one-call text writes as a placeholder."""
from __future__ import annotations

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from fpdf import FPDF

from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract import pdfiumtext

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_MATH = "/usr/share/fonts/truetype/dejavu/DejaVuMathTeXGyre.ttf"
NOTO_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"


def _sheet(path):
    pdf = FPDF()
    pdf.add_page()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_font("math", "", DEJAVU_MATH)
    pdf.add_font("cjk", "", NOTO_CJK)
    pdf.set_font("body", size=11)
    pdf.multi_cell(100, 6, "Zażółć gęślą jaźń. Ελληνικά κείμενα. Съешь же ещё. Tiếng Việt có dấu. Türkçe ığüşöç. "
                           "A word broken at the line end: operar-\nse-á con-\ntinuación")
    pdf.set_font("math", size=11)
    pdf.cell(0, 8, "𝑘 = 𝑥 + 𝟙", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("cjk", size=11)
    pdf.cell(0, 8, "한국어 문장 日本語 中文", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def test_codes_read_in_one_call_are_the_codes_read_one_by_one(tmp_path):
    document = pdfium.PdfDocument(str(_sheet(tmp_path / "scripts.pdf")))
    textpage = document[0].get_textpage()
    count = pdfium_c.FPDFText_CountChars(textpage.raw)
    one_by_one = [pdfium_c.FPDFText_GetUnicode(textpage.raw, index) for index in range(count)]
    assert pdfiumtext.char_codes(textpage.raw, count).tolist() == one_by_one
    # The page holds what the one-call path must repair or keep apart: generated line-end hyphens
    # (0x02, a placeholder in the one-call text) and surrogate halves.
    assert 0x02 in one_by_one
    assert any(0xD800 <= code <= 0xDBFF for code in one_by_one)
    assert pdfiumtext.char_codes(textpage.raw, 0).tolist() == []


def test_extracted_lines_keep_every_script_the_line_end_hyphen_and_math_letters(tmp_path):
    text = extract_document(_sheet(tmp_path / "scripts.pdf"), "0" * 64, ExtractOptions()).pages[0].text
    for expected in ("Zażółć", "Ελληνικά", "Съешь", "Tiếng Việt", "ığüşöç", "operar-", "𝑘 = 𝑥 + 𝟙", "한국어 문장"):
        assert expected in text
