"""Punctuation read from the ink (`comma-tails` v4): generated pages printed with a text layer, scanned soft at
150 dpi, read by real Tesseract through every pass; then the rule that decides each mark from its measured shape,
and how a mark left unclear reaches the flag."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.raster import rasterize_pdf
from pipeline.extract.ocr import OcrSettings, PageReading, ocr_pages
from pipeline.extract.ocr.commas import Mark, read_marks
from pipeline.extract.ocr.page import lay_out_page
from pipeline.extract.ocr.reading import ReadWord
from tests.pipeline.extract.ocr.builders import needs_tesseract

SEMICOLONS = "Pozri si tieto slová: veršov; oboma; následné; podopretie; zavádzajúci; časového; koniec"
PROSE = "Prišiel domov, Peter ho čakal. Odpoveď znie: áno, Martin to vie. Stalo sa, Jana odišla"
LOW_QUOTES = ("Öğretmen „şubemizin” dedi ve „dayanımı” yazdı; sonra „bayramının” geldi",
              "Kitap „günahlarına” kadar okundu ve „kurucu” geldi")


def _scanned(folder: Path, lines: tuple[str, ...], font: str, size: float) -> Path:
    """`lines` printed on an A4 page and scanned at 150 dpi, blur 0.8, JPEG 70: the soft end of a scan's range."""
    items = [TextBox(text, 20, 20 + 12 * at, 175, size=size, font=font) for at, text in enumerate(lines)]
    pdf = build_pdf(folder / "page.pdf", [PageSpec(items)])
    return rasterize_pdf(pdf, folder / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70, noise=0.01, seed=3)


def _read(scan: Path, language: str, *disabled: str) -> list[tuple[str, list[str]]]:
    settings = replace(OcrSettings(languages=(language,), dpi=150), disabled_passes=disabled)
    page = ocr_pages(scan, [1], settings, workers=1, progress=False)[1]
    return [(line.text, line.unsure_words) for line in page.lines]


@needs_tesseract("slk")
def test_semicolons_tesseract_reads_as_colons_are_read_as_semicolons_and_other_marks_stay(tmp_path: Path):
    """Tesseract reads a soft semicolon as a colon (its tail faded on the prepared page); the tail under the stacked
    dots, measured on the scan, makes it a semicolon again. The colon, commas before capitals and full stops of the
    page stay as printed: no mark is rewritten where the ink does not show it."""
    scan = _scanned(tmp_path, (SEMICOLONS, PROSE), "DejaVuSans", 11)
    without = [text for text, _ in _read(scan, "slk", "comma-tails")]
    assert ":" in without[0].split("slová:", 1)[1], "the scan is no longer soft enough to misread a semicolon"
    lines = _read(scan, "slk")
    assert [text for text, _ in lines] == [SEMICOLONS, PROSE]
    assert not any(unsure for _, unsure in lines)


@needs_tesseract("tur")
def test_low_quotes_read_as_commas_are_low_quotes_again_and_an_unclear_one_is_unsure(tmp_path: Path):
    """A low quotation mark (`„`) glued to its word reads as a comma; where its two tails stand apart before the
    letters it is `„` again, and a comma opening a word that shows no two tails (no comma opens a word) is unsure."""
    scan = _scanned(tmp_path, LOW_QUOTES, "DejaVuSerif", 10.5)
    without = " ".join(text for text, _ in _read(scan, "tur", "comma-tails"))
    assert ",şubemizin" in without or ",dayanımı" in without, "Tesseract no longer reads a low quote as a comma here"
    lines = _read(scan, "tur")
    words = " ".join(text for text, _ in lines).split()
    assert {"„şubemizin”", "„dayanımı”"} <= set(words)
    opened = [w for w in words if w.startswith(",")]
    unsure = {w for _, line_unsure in lines for w in line_unsure}
    assert set(opened) <= unsure


def _mark(depth: float, *, top: float = 0.1, tallness: float = 1.6, stacked: bool = False) -> Mark:
    return Mark(left=96, right=99, depth=depth, top=top, tallness=tallness, stacked=stacked)


@pytest.mark.parametrize(("read", "mark", "small_follows", "expected"), [
    ("hory.", _mark(0.09), True, ("hory,", False)),  # a tail before a small letter: a comma
    ("Presidencia.", _mark(0.13), False, ("Presidencia,", False)),  # a sure tail before a capital
    ("Presidencia.", _mark(0.07), False, ("Presidencia.", True)),  # unclear before a capital: kept, unsure
    ("gratuita.", _mark(0.0, top=0.08, tallness=1.0), False, ("gratuita.", False)),  # a period's dot
    ("wifi.", _mark(0.09, top=0.0, tallness=1.3), False, ("wifi.", True)),  # as deep as a tail, but a dot's height
    ("Exterior,", _mark(0.0, tallness=1.0), False, ("Exterior,", False)),  # a comma read is never made a period
    ("veršov:", _mark(0.09, stacked=True), False, ("veršov;", False)),  # a tail under stacked dots: a semicolon
    ("slová:", _mark(0.02, tallness=1.0, stacked=True), True, ("slová:", False)),  # a colon's lower dot
    ("Limonády,", _mark(0.12, stacked=True), True, ("Limonády;", False)),  # stacked dots read as a comma
])
def test_each_mark_is_decided_by_its_tail_its_height_and_the_dots_over_it(read, mark, small_follows, expected):
    assert read_marks(read, [mark], small_follows, left=0, right=99) == expected


def test_a_decimal_mark_is_decided_by_the_piece_where_it_stands():
    """`25.10%`: the one low piece at the mark's place in the number (a `%`'s circle is elsewhere)."""
    tail, circle = Mark(31, 34, 0.13, 0.05, 1.6, False), Mark(80, 86, 0.0, 0.3, 1.0, False)
    assert read_marks("25.10%", [tail, circle], False, left=0, right=89) == ("25,10%", False)
    assert read_marks("12.50%", [replace(tail, depth=0.07), circle], False, left=0, right=89) == ("12.50%", True)


def test_a_word_whose_mark_was_unclear_is_an_unsure_word_of_its_line():
    """The flag reads `Line.unsure_words`: a confident, known word whose mark was unclear is listed there."""
    words = (ReadWord("La", 10, 10, 40, 40, 30.0, line=(1, 1, 1), conf=96.0),
             ReadWord("Presidencia.", 50, 10, 250, 40, 30.0, line=(1, 1, 1), conf=95.0, unsure_mark=True),
             ReadWord("Justicia", 260, 10, 380, 40, 30.0, line=(1, 1, 1), conf=96.0))
    page = lay_out_page(PageReading(1000, 1400, words), OcrSettings(languages=("spa",), dpi=150), page_number=1,
                        width_pt=480.0, height_pt=672.0)
    assert [line.unsure_words for line in page.lines] == [["Presidencia."]]
    assert [line.unclear_marks for line in page.lines] == [["Presidencia."]]  # kept apart: its siblings may settle it
    sure = lay_out_page(PageReading(1000, 1400, tuple(replace(w, unsure_mark=False) for w in words)),
                        OcrSettings(languages=("spa",), dpi=150), page_number=1, width_pt=480.0, height_pt=672.0)
    assert [line.unsure_words for line in sure.lines] == [[]] and [line.unclear_marks for line in sure.lines] == [[]]
