"""Raised and lowered small glyphs stay on their row in the text path (`smallrows.join_small_rows`), and the
margin notes `clean_pages` drops are a line of the warnings.

A superscript set high (its bottom over the line's descent, as Revalida 2023 prints `10¹²/L` and `kg/m²`) sorts
before its line and opened a row of its own: the line read `10 /L` under a line `12`, and an exponent in the right
margin band was dropped as a margin note, silently. The text path writes the digit plain, in its place, as
pdfium orders the characters (`1012/L`, `kg/m2`; docs/concepts/extract-and-parse.md).
"""
from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from pipeline.diagnostics import Code, codes_of
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.glypharrays import NO_RUN, GlyphArrays
from pipeline.extract.layout import group_rows
from tests.fixtures.small_glyph_sheets import printed, small_glyph_sheet

LATIN = ["Hemácias 4,0 x 10^{12}/L e IMC de 30 kg/m^{2} no exame", "A área do círculo é 12 cm^{2}"]
GREEK = ["Ο ασθενής έχει 4,0 x 10^{12}/L και ΔΜΣ 30 kg/m^{2} σήμερα", "Το εμβαδόν του κύκλου είναι 12 cm^{2}"]
CYRILLIC = ["Эритроциты 4,0 x 10^{12}/L, ИМТ 30 кг/м^{2} у пациента", "Площадь круга равна 12 см^{2}"]


def _read(path: Path):
    return extract_document(path, hashlib.sha256(path.read_bytes()).hexdigest(), ExtractOptions())


def _lines(path: Path) -> list[str]:
    return [line.text for page in _read(path).pages for line in page.lines]


@pytest.mark.parametrize("lines", [LATIN, GREEK, CYRILLIC], ids=["latin", "greek", "cyrillic"])
def test_a_superscript_set_high_stays_in_its_word(tmp_path, lines):
    """`10¹²/L` reads `1012/L`, `kg/m²` `kg/m2`, and an exponent at a line's end stays on it: no line `12` or `2`
    of its own above (the walk opened one for the raised run, sorted before its line)."""
    assert _lines(small_glyph_sheet(tmp_path / "sheet.pdf", lines)) == [printed(line) for line in lines]


@pytest.mark.parametrize("face", ["DejaVuSans", "DejaVuSerif"])
def test_an_exponent_in_the_right_margin_band_is_neither_moved_nor_dropped(tmp_path, face):
    """The line's plain text ends at 0.905 of the page width, so its exponent stands wholly in the side band:
    opened as a row of its own it was small print in the margin, dropped as a margin note without a word."""
    right = ["a área fica em 30 m^{2}", "Площадь 12 см^{2}"]
    document = _read(small_glyph_sheet(tmp_path / "sheet.pdf", LATIN[:1], right=right, face=face))
    assert [line.text for page in document.pages for line in page.lines] == [printed(line) for line in LATIN[:1] + right]
    assert Code.MARGIN_NOTES_DROPPED not in codes_of(document.warnings)


@pytest.mark.parametrize("drop", [-0.5, -0.7])
def test_a_subscript_set_low_stays_in_its_word(tmp_path, drop):
    """Set low, a subscript's row fell under its line (`H O`, the `2` lost or a line of its own): its digit is
    on its line, in its word (no space beside it: a lowered glyph's bearings and the space pdfium makes up where
    the baseline moves are no word space, `smallrows.shifted_pairs`)."""
    lines = ["água H_{2}O e gás CO_{2} no sangue", "Вода H_{2}O и газ CO_{2} в крови", "Νερό H_{2}O και αέριο CO_{2}"]
    assert _lines(small_glyph_sheet(tmp_path / "sheet.pdf", lines, drop=drop)) == [printed(line) for line in lines]


def test_small_print_over_a_line_is_no_superscript(tmp_path):
    """A line of small print whose box reaches into the line under it stands over that line's glyphs, not beside
    them: it stays a line of its own."""
    from fpdf import FPDF

    from pipeline.devkit.sample.pdfgen import FONT_FILES, font_dir

    pdf = FPDF(format="A4", unit="pt")
    pdf.add_page()
    pdf.add_font("body", "", str(font_dir() / FONT_FILES[("DejaVuSans", False)]))
    pdf.set_font("body", "", 6)
    pdf.text(60, 100, "przypis drobnym drukiem nad wierszem")
    pdf.set_font("body", "", 11)
    pdf.text(60, 106, "Wiersz tekstu pod przypisem, pisany pełnym rozmiarem.")
    pdf.output(str(tmp_path / "over.pdf"))
    assert _lines(tmp_path / "over.pdf") == ["przypis drobnym drukiem nad wierszem", "Wiersz tekstu pod przypisem, pisany pełnym rozmiarem."]


def test_a_dropped_margin_note_is_a_line_of_the_warnings(tmp_path):
    """Small print wholly in the side band (an examiner's score box) is still dropped, and named: page and text."""
    document = _read(small_glyph_sheet(tmp_path / "sheet.pdf", LATIN[:1], margin_notes=["Pkt 0-2"]))
    texts = [line.text for page in document.pages for line in page.lines]
    assert "Pkt 0-2" not in texts and "Zadanie 4. Oblicz pole powierzchni trójkąta." in texts
    notes = [w for w in document.warnings if Code.MARGIN_NOTES_DROPPED in codes_of([w])]
    assert len(notes) == 1 and "1 line(s)" in notes[0] and "page 1 'Pkt 0-2'" in notes[0]


def _arrays(boxes: list[tuple[str, float, float, float, float, float]]) -> GlyphArrays:
    count = len(boxes)
    column = np.array([box[1:] for box in boxes], dtype=np.float64)
    return GlyphArrays(
        text=[box[0] for box in boxes], x0=column[:, 0], top=column[:, 1], x1=column[:, 2], bottom=column[:, 3],
        size=column[:, 4], highlighted=np.zeros(count, dtype=bool), seq=np.arange(count),
        space_after=np.zeros(count, dtype=bool), bold=np.zeros(count, dtype=bool), unmapped=np.zeros(count, dtype=bool),
        run=np.full(count, NO_RUN),
    )


def test_two_raised_runs_of_one_line_both_join_it():
    """Two superscripts of one line raised to different heights sort as two rows before it (the second's centre
    leaves the first's box, the line's the second's): both join the line, the farther one two rows on."""
    glyphs = _arrays([
        ("1", 300, 279.5, 304, 287.1, 5.8), ("0", 304, 279.5, 308, 287.1, 5.8),
        ("1", 308, 276.5, 311, 280.5, 3.4), ("2", 311, 276.5, 314, 280.5, 3.4),  # `¹²`, raised high
        ("/", 314, 279.5, 316, 287.1, 5.8), ("L", 316, 279.5, 320, 287.1, 5.8),
        ("m", 330, 279.5, 336, 287.1, 5.8), ("2", 336, 278.8, 339, 282.8, 3.4),  # `²`, raised less
    ])
    rows = group_rows(glyphs, shared_descent=True)
    assert ["".join(glyphs.text[i] for i in row.by_x) for row in rows] == ["1012/Lm2"]
    assert (rows[0].top, rows[0].bottom) == (279.5, 287.1)  # the line's own anchor box
    apart = group_rows(glyphs, shared_descent=False)  # OCR's rows (tight boxes, by centre) are not joined here
    assert len(apart) > 1
