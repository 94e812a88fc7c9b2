"""A text page's glyphs carry the code points pdfium gave: what layout compares and joins (`text_ids`,
`codes`) is read from them, not from the glyphs' texts again, and is what the texts say; spaces of every
width, past the ASCII space, part words and are no glyphs; a page's letters, which decide whether its
body is set bold, are told as `str.isalnum` tells them, past the BMP too."""
from __future__ import annotations

import sys

import numpy as np
import pypdfium2 as pdfium
from fpdf import FPDF

from pipeline.extract import glyphs
from pipeline.extract.glypharrays import GlyphArrays

DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
DEJAVU_SERIF = "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"  # has the math italic letters (U+1D400 on)
DEJAVU_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
NOTO_CJK = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"


def _sheet(path, bold_body: bool = False):
    pdf = FPDF()
    pdf.add_page()
    pdf.add_font("body", "", DEJAVU)
    pdf.add_font("body", "B", DEJAVU_BOLD)
    pdf.add_font("serif", "", DEJAVU_SERIF)
    pdf.add_font("cjk", "", NOTO_CJK)
    pdf.set_font("body", "B" if bold_body else "", size=11)
    # A no-break space, a thin space and an en space between words.
    pdf.cell(0, 8, "alfa\u00a0beta\u2009gamma\u2002delta", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("serif", size=11)
    pdf.cell(0, 8, "Niech \U0001d458 = 2 i \U0001d45b > \U0001d458", new_x="LMARGIN", new_y="NEXT")  # outside the BMP
    pdf.set_font("cjk", size=11)
    pdf.cell(0, 8, "日本\u3000語の文", new_x="LMARGIN", new_y="NEXT")  # an ideographic space
    if bold_body:
        pdf.set_font("body", "B", size=11)
        pdf.cell(0, 8, "Wszystkie słowa tej strony są pogrubione.", new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


def _read(path) -> GlyphArrays:
    document = pdfium.PdfDocument(str(path))
    page = document[0]
    textpage = page.get_textpage()
    try:
        return glyphs.page_glyphs(page, textpage, False)
    finally:
        textpage.close()
        page.close()
        document.close()


def test_the_glyphs_codes_are_the_code_points_of_their_texts(tmp_path):
    read = _read(_sheet(tmp_path / "codes.pdf"))
    fields = {name: getattr(read, name) for name in GlyphArrays.__dataclass_fields__}
    assert read.code_points is not None
    assert "\U0001d458" in read.text and "日" in read.text
    assert read.text_ids.dtype == np.int64 and read.text_ids.tolist() == [ord(text) for text in read.text]
    assert read.codes is not None and read.codes.dtype == np.uint32 and read.codes.tolist() == [ord(text) for text in read.text]
    # The same as arrays made without the code points (read back from the texts one by one).
    plain = GlyphArrays(**{**fields, "code_points": None})
    assert np.array_equal(plain.text_ids, read.text_ids) and np.array_equal(plain.codes, read.codes)


def test_spaces_of_every_width_part_words_and_are_no_glyphs(tmp_path):
    read = _read(_sheet(tmp_path / "spaces.pdf"))
    text = "".join(read.text)
    assert not any(ch.isspace() for ch in text)
    for space in ("\u00a0", "\u2009", "\u2002", "\u3000"):
        assert space not in text
    words = "".join(t + (" " if after else "") for t, after in zip(read.text, read.space_after.tolist()))
    assert words.startswith("alfa beta gamma delta ")
    assert "日本 語の文" in words


def test_a_page_set_bold_throughout_keeps_no_bold_marks(tmp_path):
    assert not _read(_sheet(tmp_path / "bold.pdf", bold_body=True)).bold.any()
    regular = _read(_sheet(tmp_path / "regular.pdf"))
    assert not regular.bold.any()


def test_letters_are_told_as_str_isalnum_tells_them_past_the_bmp_too():
    codes = np.array(sorted({*range(0, sys.maxunicode + 1, 97), *range(0x1D400, 0x1D800), 0x1F600, 0x10348, 0x20000,
                             0xFFFF, 0x10000, 0x10FFFF}), dtype=np.int64)
    assert glyphs._alnum(codes).tolist() == [chr(code).isalnum() for code in codes.tolist()]
    assert glyphs._alnum(np.zeros(0, dtype=np.int64)).tolist() == []


def test_a_text_page_with_words_spliced_in_is_the_arrays_its_glyph_objects_make(tmp_path):
    # `patches` keeps a text page's glyphs as arrays, drops stand-ins by a mask and adds OCR's words after
    # them: every array, dtype and value, is what `from_glyphs` makes of the same glyphs as objects.
    from pipeline.extract.layout import Glyph, assemble

    read = _read(_sheet(tmp_path / "splice.pdf"))
    assemble(read, 595.0)  # layout marks what it finds (bold twins) on the arrays before a page is spliced
    keep = np.ones(len(read), dtype=bool)
    keep[[1, 4, len(read) - 1]] = False
    words = [Glyph("x²", 40.5, 90.25, 60.0, 101.0, 9.5, bold=True, seq=-1, run=("masked", 2)),
             Glyph("y", 61.0, 90.0, 66.0, 101.0, 9.5, seq=-1, run=("masked", 2)),
             Glyph("ok", 70.0, 120.0, 82.0, 131.0, 11.0, seq=-1, run=("masked", 5))]
    spliced = read.kept_and_added(keep, words)
    objects = GlyphArrays.from_glyphs([g for g, kept in zip(read.to_glyphs(), keep.tolist()) if kept] + words)
    for name in GlyphArrays.__dataclass_fields__:
        if name in ("objects", "code_points"):
            continue
        ours, theirs = getattr(spliced, name), getattr(objects, name)
        if isinstance(theirs, np.ndarray):
            assert ours.dtype == theirs.dtype and np.array_equal(ours, theirs), name
        else:
            assert ours == theirs, name
    assert spliced.runs == [("masked", 2), ("masked", 5)] and spliced.run.tolist()[-3:] == [0, 0, 1]
    assert np.array_equal(spliced.text_ids, objects.text_ids) and spliced.codes is None and objects.codes is None
    assert [s.text for s in assemble(spliced, 595.0)] == [s.text for s in assemble(objects, 595.0)]
