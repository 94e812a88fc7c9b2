"""A text page's characters as glyphs: pdfium's codes, boxes and weights per character, with the
repairs the text layer needs before layout (symbol-font points, the generated line-end hyphen,
characters outside the BMP, highlighter marks, bold body text)."""
from __future__ import annotations

import ctypes
import functools

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.extract import accents, pagechars, pdfiumtext
from pipeline.extract.glypharrays import NO_RUN, GlyphArrays
from pipeline.extract.symbolfont import SYMBOL_FONT_FIRST, SYMBOL_FONT_LAST, symbol_font_character

LOOSE_BOX_EM = 1.15  # typical (ascent - descent) / font size of text fonts

_SPACE_CODES = np.array(sorted({0xA0, 0xFEFF, 0xFFFE, 0x200B, 0x3000, 0x202F, 0x205F, *range(0x2000, 0x200B)}))
# Per BMP code point, whether it is one of `_SPACE_CODES`: one look-up a character (`np.isin` sorted the
# page's codes against the list, a tenth of a page's glyph read); no code past the BMP is a space.
_IS_SPACE = np.zeros(0x10000, dtype=bool)
_IS_SPACE[_SPACE_CODES] = True


def _marker_colors(colors: np.ndarray) -> np.ndarray:
    """Per (r, g, b, a) row (0-255): a light, saturated, opaque fill, a marker pen's."""
    rgb = colors[:, :3]
    brightest = rgb.max(axis=1)
    return (brightest >= 170) & (brightest - rgb.min(axis=1) >= 60) & (colors[:, 3] >= 100)


def _highlight_rects(page: pdfium.PdfPage) -> list[tuple[float, float, float, float]]:
    """Filled, light, saturated rectangles (a marker pen in the PDF): (x0, y_bottom, x1, y_top) in PDF space."""
    rects = []
    for path in pagechars.filled_paths(page.raw, 2, _marker_colors):
        x0, y0, x1, y1 = path.bounds
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


def page_glyphs(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, detect_highlights: bool) -> GlyphArrays:
    """The page's characters as glyphs in content-stream order (PDF points, top-left origin): spaces
    become `space_after` of the glyph before, text off the page is left out, symbol-font points become
    their characters, and a glyph without a Unicode map is marked `unmapped` (read by OCR in place).

    Array code over the page's characters (`pagechars`): the few characters that need one look each
    (surrogate halves, symbol-font points, unmapped ones) are taken one by one, the rest together; the
    glyphs come as arrays (`GlyphArrays`), Glyph objects only when a caller asks for them."""
    width, height = page.get_size()
    raw = textpage.raw
    handle = pdfiumtext.handle(raw)
    count = max(pdfium_c.FPDFText_CountChars(raw), 0)
    codes = pdfiumtext.char_codes(raw, count)
    source = np.arange(count)  # the index whose box, weight and map flag a character takes
    present = np.ones(count, dtype=bool)  # False: the first half of a surrogate pair (or a lone second half)
    _join_surrogates(codes, source, present)
    codes[codes == PDFIUM_LINE_END_HYPHEN] = ord("-")  # a printed hyphen that ends a line: pdfium reports it as 0x02
    for at in np.flatnonzero((codes >= SYMBOL_FONT_FIRST) & (codes <= SYMBOL_FONT_LAST)).tolist():
        code = int(codes[at])
        codes[at] = ord(symbol_font_character(code, _font_name(raw, int(source[at]))) or chr(code))
    # No Unicode from the font (its code is what pdfium gives, often a control character), or only a
    # private-use point: a stand-in glyph that OCR reads in place (`inked.unmapped_spans`).
    no_map = pagechars.map_errors(handle, count)[source] & present
    rect = pdfium_c.FS_RECTF()
    for at in np.flatnonzero(no_map).tolist():
        no_map[at] = _inked(raw, int(source[at]), rect)
    codes[no_map] = 0xFFFD
    spaces = present & ~no_map & ((codes <= 32) | _IS_SPACE[np.minimum(codes, 0xFFFF)])
    candidates = np.flatnonzero(present & ~spaces)
    found, boxes = pagechars.loose_boxes(handle, source[candidates])
    left, top_pdf, right, bottom_pdf = boxes.T
    # The loose box spans the font's ascent to descent: a font size that survives text matrices
    # which scale a size-1 font (FPDFText_GetFontSize reports 1 for those).
    size = (top_pdf - bottom_pdf) / LOOSE_BOX_EM
    # Text placed off the page (hidden tabs, print marks) is not part of what a candidate reads. Written
    # as "not (... or ...)" like the comparisons it stands for, so a NaN box is kept as it was.
    off_page = (right < 0) | (left > width) | (top_pdf < 0) | (bottom_pdf > height) | (size <= 0)
    keep = found & ~off_page
    kept = candidates[keep]
    left, top_pdf, right, bottom_pdf, size = left[keep], top_pdf[keep], right[keep], bottom_pdf[keep], size[keep]
    marked = np.zeros(len(kept), dtype=bool)
    for x0, y0, x1, y1 in _highlight_rects(page) if detect_highlights else ():
        cx, cy = (left + right) / 2, (top_pdf + bottom_pdf) / 2
        marked |= (x0 <= cx) & (cx <= x1) & (y0 <= cy) & (cy <= y1)
    kept_codes = codes[kept]
    # U+FFFD or a private-use point (`quality.is_bad_glyph`): its meaning the text layer does not give.
    unmapped = no_map[kept] | (kept_codes == 0xFFFD) | ((kept_codes >= 0xE000) & (kept_codes <= 0xF8FF)) | (kept_codes >= 0xF0000)
    bold = pagechars.font_weights(handle, source[kept]) >= 600
    # A space belongs to the glyph kept last before it.
    space_after = np.zeros(len(kept), dtype=bool)
    before = np.searchsorted(kept, np.flatnonzero(spaces)) - 1
    space_after[before[before >= 0]] = True
    top, bottom = height - top_pdf, height - bottom_pdf
    marks = np.flatnonzero(accents.mark_kinds(kept_codes))
    if len(marks):  # accents written as glyphs of their own, moved onto their letters (`accents`)
        ink = {at: extent for at in marks.tolist() if (extent := _ink_extent(raw, int(source[kept[at]]))) is not None}
        for at in accents.attach_marks(kept_codes, left, right, top, bottom, size, ink):
            # A space the text page put after a mark emitted out of place (an accent before its letter) where its
            # letter's next glyph follows without a gap: no space is printed there.
            if space_after[at] and at + 1 < len(kept) and abs(left[at + 1] - right[at]) < 0.15 * size[at]:
                space_after[at] = False
    # Each code a one-character string: the codes decoded as one UTF-32 text and split (about half of
    # `chr` over a list of Python ints; every code is a code point, a surrogate half kept as it is).
    texts = list(kept_codes.astype("<u4").tobytes().decode("utf-32-le", "surrogatepass"))
    if _bold_body(kept_codes, bold):
        bold[:] = False
    return GlyphArrays(
        text=texts, x0=left, top=top, x1=right, bottom=bottom, size=size, highlighted=marked,
        seq=np.arange(len(kept)), space_after=space_after, bold=bold, unmapped=unmapped, run=np.full(len(kept), NO_RUN),
        code_points=kept_codes,
    )


def _join_surrogates(codes: np.ndarray, source: np.ndarray, present: np.ndarray) -> None:
    """Characters outside the BMP (math italic 𝑘) come as two halves, each its own index: the second
    becomes the whole character, with the box of the index before it; the first is no character."""
    pending_high: int | None = None
    for at in np.flatnonzero((codes >= 0xD800) & (codes <= 0xDFFF)).tolist():
        code = int(codes[at])
        if code <= 0xDBFF:
            pending_high = code
            present[at] = False
        elif pending_high is None:
            present[at] = False
        else:
            codes[at] = 0x10000 + ((pending_high - 0xD800) << 10) + (code - 0xDC00)
            source[at] = at - 1  # the box belongs to the first half
            pending_high = None


def _ink_extent(raw_textpage, index: int) -> tuple[float, float] | None:
    """A character's ink from left to right (its tight box), or None where it has none."""
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    if not pdfium_c.FPDFText_GetCharBox(raw_textpage, index, left, right, bottom, top) or right.value - left.value <= 0.01:
        return None
    return left.value, right.value


def _inked(raw_textpage, index: int, rect) -> bool:
    """Whether a character has ink (a tight box with an area): an unmapped glyph, not an unmapped space."""
    if not pdfium_c.FPDFText_GetLooseCharBox(raw_textpage, index, rect):
        return False
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    if not pdfium_c.FPDFText_GetCharBox(raw_textpage, index, left, right, bottom, top):
        return False
    return right.value - left.value > 0.1 and top.value - bottom.value > 0.1


BOLD_BODY_SHARE = 0.6


def _bold_body(codes: np.ndarray, bold: np.ndarray) -> bool:
    """Whether the page's body text (its glyphs' code points) is set in a bold face (or in a font that
    reports a bold weight): then it has no bold emphasis to keep, and marking it would wrap the regular
    words in ** and the rest as emphasis."""
    letters = _alnum(codes)
    total = int(letters.sum())
    return total > 0 and int(bold[letters].sum()) >= BOLD_BODY_SHARE * total


@functools.cache
def _bmp_alnum() -> np.ndarray:
    """`str.isalnum` of every BMP code point, asked once a process (a few ms)."""
    return np.fromiter(map(str.isalnum, map(chr, range(0x10000))), dtype=bool, count=0x10000)


def _alnum(codes: np.ndarray) -> np.ndarray:
    """`chr(code).isalnum()` of each code point (non-negative): looked up for the BMP, asked past it."""
    letters = _bmp_alnum()[np.minimum(codes, 0xFFFF)]
    past = np.flatnonzero(codes > 0xFFFF)
    if len(past):
        letters[past] = [chr(code).isalnum() for code in codes[past].tolist()]
    return letters
