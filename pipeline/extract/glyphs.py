"""A text page's characters as glyphs: pdfium's codes, boxes and weights per character, with the
repairs the text layer needs before layout (symbol-font points, the generated line-end hyphen,
characters outside the BMP, highlighter marks, bold body text)."""
from __future__ import annotations

import ctypes

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.extract import pdfiumtext
from pipeline.extract.layout import Glyph
from pipeline.extract.symbolfont import SYMBOL_FONT_FIRST, SYMBOL_FONT_LAST, symbol_font_character

LOOSE_BOX_EM = 1.15  # typical (ascent - descent) / font size of text fonts

_SPACES = frozenset({0xA0, 0xFEFF, 0xFFFE, 0x200B, 0x3000, 0x202F, 0x205F, *range(0x2000, 0x200B)})


def _highlight_rects(page: pdfium.PdfPage) -> list[tuple[float, float, float, float]]:
    """Filled, light, saturated rectangles (a marker pen in the PDF): (x0, y_bottom, x1, y_top) in PDF space."""
    rects = []
    r, g, b, a = (ctypes.c_uint() for _ in range(4))
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=2):
        if not pdfium_c.FPDFPath_GetDrawMode(obj.raw, fill_mode, stroke) or fill_mode.value == 0:
            continue
        if not pdfium_c.FPDFPageObj_GetFillColor(obj.raw, r, g, b, a):
            continue
        channels = (r.value, g.value, b.value)
        if max(channels) < 170 or max(channels) - min(channels) < 60 or a.value < 100:
            continue
        x0, y0, x1, y1 = obj.get_bounds()
        if 2 < (y1 - y0) < 60 and (x1 - x0) > 2:
            rects.append((x0, y0, x1, y1))
    return rects


PDFIUM_LINE_END_HYPHEN = 0x02


def _font_name(raw_textpage, index: int) -> str:
    size = pdfium_c.FPDFText_GetFontInfo(raw_textpage, index, None, 0, None)
    if size <= 0:
        return ""
    buffer = ctypes.create_string_buffer(size)
    pdfium_c.FPDFText_GetFontInfo(raw_textpage, index, buffer, size, None)
    return buffer.value.decode("utf-8", "replace")


def page_glyphs(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, detect_highlights: bool) -> list[Glyph]:
    """The page's characters as glyphs in content-stream order (PDF points, top-left origin): spaces
    become `space_after` of the glyph before, text off the page is left out, symbol-font points become
    their characters, and a glyph without a Unicode map is marked `unmapped` (read by OCR in place)."""
    width, height = page.get_size()
    raw = textpage.raw
    count = pdfium_c.FPDFText_CountChars(raw)
    rect = pdfium_c.FS_RECTF()
    highlights = _highlight_rects(page) if detect_highlights else []
    glyphs: list[Glyph] = []
    # Per character, two calls into pdfium and one Glyph (a page holds 1,000-5,000 characters): the codes
    # come in one call, the calls go without ctypes' argument checks (`pdfiumtext`), lookups are bound once.
    codes = pdfiumtext.char_codes(raw, count)
    handle, get_box, get_weight = pdfiumtext.handle(raw), pdfiumtext.LOOSE_CHAR_BOX, pdfiumtext.FONT_WEIGHT
    box_ref, read_box = ctypes.byref(rect), pdfiumtext.RECT_FIELDS.unpack_from
    append, spaces = glyphs.append, _SPACES
    pending_high: int | None = None
    for index in range(count):
        code = codes[index]
        if 0xD800 <= code <= 0xDFFF:
            if code <= 0xDBFF:  # first half of a character outside the BMP (math italic 𝑘)
                pending_high = code
                continue
            if pending_high is None:
                continue
            code = 0x10000 + ((pending_high - 0xD800) << 10) + (code - 0xDC00)
            pending_high = None
            index -= 1  # the box belongs to the first half
        if code == PDFIUM_LINE_END_HYPHEN:
            code = ord("-")  # a printed hyphen that ends a line: pdfium reports it as 0x02
        if SYMBOL_FONT_FIRST <= code <= SYMBOL_FONT_LAST:  # is_symbol_font_point, inline
            code = ord(symbol_font_character(code, _font_name(raw, index)) or chr(code))
        # No Unicode from the font (its code is what pdfium gives, often a control character), or only a
        # private-use point: a stand-in glyph that OCR reads in place (`inked.unmapped_spans`).
        no_map = pdfium_c.FPDFText_HasUnicodeMapError(raw, index) == 1 and _inked(raw, index, rect)
        if no_map:
            code = 0xFFFD
        elif code <= 32 or code in spaces:
            if glyphs:
                glyphs[-1].space_after = True
            continue
        if not get_box(handle, index, box_ref):
            continue
        left, top_pdf, right, bottom_pdf = read_box(rect)
        # Text placed off the page (hidden tabs, print marks) is not part of what a candidate reads.
        if right < 0 or left > width or top_pdf < 0 or bottom_pdf > height:
            continue
        # The loose box spans the font's ascent to descent: a font size that survives text matrices
        # which scale a size-1 font (FPDFText_GetFontSize reports 1 for those).
        size = (top_pdf - bottom_pdf) / LOOSE_BOX_EM
        if size <= 0:
            continue
        marked = False
        if highlights:
            cx, cy = (left + right) / 2, (top_pdf + bottom_pdf) / 2
            marked = any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in highlights)
        # U+FFFD or a private-use point (`quality.is_bad_glyph`, inline): its meaning the text layer does not give.
        unmapped = no_map or code == 0xFFFD or 0xE000 <= code <= 0xF8FF or code >= 0xF0000
        append(Glyph(chr(code), left, height - top_pdf, right, height - bottom_pdf, size, marked, len(glyphs), False,
                     get_weight(handle, index) >= 600, unmapped=unmapped))
    _unmark_bold_body(glyphs)
    return glyphs


def _inked(raw_textpage, index: int, rect) -> bool:
    """Whether a character has ink (a tight box with an area): an unmapped glyph, not an unmapped space."""
    if not pdfium_c.FPDFText_GetLooseCharBox(raw_textpage, index, rect):
        return False
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    if not pdfium_c.FPDFText_GetCharBox(raw_textpage, index, left, right, bottom, top):
        return False
    return right.value - left.value > 0.1 and top.value - bottom.value > 0.1


BOLD_BODY_SHARE = 0.6


def _unmark_bold_body(glyphs: list[Glyph]) -> None:
    """A page whose body text is set in a bold face (or in a font that reports a bold weight) has no bold
    emphasis to keep: marking it would wrap the regular words in ** and the rest as emphasis."""
    letters = [g for g in glyphs if g.text.isalnum()]
    if letters and sum(g.bold for g in letters) >= BOLD_BODY_SHARE * len(letters):
        for glyph in glyphs:
            glyph.bold = False
