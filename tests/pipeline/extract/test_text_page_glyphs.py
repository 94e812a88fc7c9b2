"""A text page's characters go from pdfium to its lines as arrays: no Glyph object is made for each
character of a page (they cost more than the page's geometry); every script, wide gaps between cells
and bold lines come out as before. Glyph objects are made only for a page OCR patches in place."""
from __future__ import annotations

from fpdf import FPDF

from pipeline.extract import ExtractOptions, Glyph, extract_document

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
NOTO_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"


def _sheet(path):
    pdf = FPDF()
    pdf.add_page()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_font("body", "B", DEJAVU_BOLD)
    pdf.add_font("cjk", "", NOTO_CJK)
    pdf.set_font("body", size=11)
    pdf.cell(0, 8, "Ζήτημα 1. Ποιο από τα παρακάτω ισχύει;", new_x="LMARGIN", new_y="NEXT")
    pdf.cell(0, 8, "A) Съешь же ещё   B) Türkçe ığüşöç   C) Tiếng Việt", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("body", "B", 11)
    pdf.cell(0, 8, "Vaše odpoveď", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("cjk", size=11)
    pdf.cell(0, 8, "다음 중 옳은 것은? 日本語の文", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def test_a_text_page_is_laid_out_without_a_glyph_object_per_character(tmp_path, monkeypatch):
    made = []
    make = Glyph.__init__
    monkeypatch.setattr(Glyph, "__init__", lambda self, *args, **kwargs: made.append(self) or make(self, *args, **kwargs))
    page = extract_document(_sheet(tmp_path / "scripts.pdf"), "0" * 64, ExtractOptions()).pages[0]
    assert [line.text for line in page.lines] == [
        "Ζήτημα 1. Ποιο από τα παρακάτω ισχύει;", "A) Съешь же ещё B) Türkçe ığüşöç C) Tiếng Việt", "Vaše odpoveď",
        "다음 중 옳은 것은? 日本語の文",
    ]
    assert page.lines[1].wide_gap_starts and page.lines[2].bold
    assert made == []
