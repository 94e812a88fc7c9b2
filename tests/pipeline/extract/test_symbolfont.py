"""Symbol-font glyphs written as private-use points (Word's equation editor) come out as the characters
the candidate sees; other symbol fonts keep their private-use points and still count against the layer."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.diagnostics import Code
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.symbolfont import symbol_font_character
from pipeline.devkit.sample.rawtext import write_raw_pdf


def _cmap(points: dict[int, int]) -> bytes:
    pairs = "\n".join(f"<{byte:02X}> <{point:04X}>" for byte, point in points.items())
    return (
        "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
        "1 begincodespacerange <00> <FF> endcodespacerange\n"
        f"{len(points)} beginbfchar\n{pairs}\nendbfchar\n"
        "endcmap CMapName currentdict /CMap defineresource pop end end"
    ).encode()


def _pdf_with_font(path: Path, base_font: str, line: bytes, points: dict[int, int]) -> Path:
    """A one-page PDF, written object by object, whose line `line` is set in `base_font` and mapped to
    Unicode by a ToUnicode CMap sending each byte to a private-use point, as Word writes Symbol text."""
    content = b"BT /F1 14 Tf 72 700 Td (" + line + b") Tj ET\n" + b"BT /F2 12 Tf 72 660 Td (" + b"Wynik podano obok." * 3 + b") Tj ET"
    cmap = _cmap(points)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R"
        b" /Resources << /Font << /F1 5 0 R /F2 7 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /" + base_font.encode() + b" /ToUnicode 6 0 R >>",
        b"<< /Length %d >>\nstream\n" % len(cmap) + cmap + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    return write_raw_pdf(path, objects)


# The bytes of "(2·3)−α≤β" in the Symbol font: paren-left piece, digits, dot operator, minus, alpha, ≤, beta.
SYMBOL_LINE = b"\xe6\x32\xd7\x33\xf6\x2d\x61\xa3\x62"
SYMBOL_POINTS = {byte: 0xF000 + byte for byte in SYMBOL_LINE}


@pytest.mark.parametrize("font", ["Symbol", "SymbolMT", "ABCDEE+Symbol"])
def test_symbol_font_points_become_the_characters_printed(tmp_path, font):
    pdf = _pdf_with_font(tmp_path / "symbol.pdf", font, SYMBOL_LINE, SYMBOL_POINTS)
    document = extract_document(pdf, "0" * 64, ExtractOptions())
    texts = [line.text for line in document.pages[0].lines]
    assert "⎛2⋅3⎞−α≤β" in texts
    assert not any(0xE000 <= ord(ch) <= 0xF8FF for text in texts for ch in text)


def test_other_symbol_fonts_keep_private_use_points_which_ocr_reads_in_place(tmp_path):
    pdf = _pdf_with_font(tmp_path / "wingdings.pdf", "Wingdings", SYMBOL_LINE, SYMBOL_POINTS)
    document = extract_document(pdf, "0" * 64, ExtractOptions())
    # 9 of the page's 57 glyphs stay private-use: under half the page, so the page keeps its text layer
    # and only the span of those glyphs is read by OCR (it used to send the whole page to OCR).
    page = document.pages[0]
    assert page.method.value == "text"
    assert "Wynik podano obok.Wynik podano obok.Wynik podano obok." in [line.text for line in page.lines]
    assert [line.ocr for line in page.lines] == [True, False]
    assert {w.code for w in document.warnings} & {Code.UNMAPPED_READ, Code.UNMAPPED_UNREAD}


def test_symbol_table_follows_adobe_symbol_encoding():
    assert symbol_font_character(0xF02D, "SymbolMT") == "−"
    assert symbol_font_character(0xF0B4, "Symbol") == "×"
    assert symbol_font_character(0xF070, "XYZABC+Symbol") == "π"
    assert symbol_font_character(0xF060, "Symbol") is None  # the radical extender has no character
    assert symbol_font_character(0xF02D, "Wingdings") is None
    assert symbol_font_character(0x002D, "Symbol") is None  # outside the private-use block
