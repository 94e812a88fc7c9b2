"""Blanks to fill in (`_`, `___`) on scans: Tesseract reads an underscore as a flat box under its line's baseline; laid
out by that box it opened a row of its own, which parse dropped (INAP 2024 printed `… 10, 3, _`, the OCR path gave
`… 10, 3,`). A word of marks alone is laid out at its line's height, as the text layer lays out a glyph."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.raster import rasterize_pdf
from pipeline.extract.ocr import OcrSettings, PageReading, ocr_pages
from pipeline.extract.ocr.page import lay_out_page
from pipeline.extract.ocr.reading import ReadWord
from tests.pipeline.extract.ocr.builders import needs_tesseract

SERIES = ("Indique el número que continúa la serie 4, 8, 12, 16, _", "Uzupełnij ciąg: 3, 6, 12, 24, _")


@needs_tesseract("spa")
@pytest.mark.parametrize(("font", "dpi", "blur", "jpeg"), [("DejaVuSans", 200, 0.6, 80)])
def test_a_blank_closing_a_scanned_line_stays_in_its_line(tmp_path: Path, font: str, dpi: int, blur: float, jpeg: int):
    """Two series closed by a blank, printed with a text layer and scanned; read by real Tesseract through every pass
    and laid out, each line ends with its blank and no line is a blank alone."""
    items = [TextBox(text, 20, 20 + 12 * at, 175, size=10.5, font=font) for at, text in enumerate(SERIES)]
    pdf = build_pdf(tmp_path / "page.pdf", [PageSpec(items)])
    scan = rasterize_pdf(pdf, tmp_path / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=3)
    page = ocr_pages(scan, [1], OcrSettings(languages=("spa",), dpi=dpi), workers=1, progress=False)[1]
    texts = [line.text for line in page.lines]
    assert len(texts) == 2, texts
    assert all(text.endswith(", _") for text in texts), texts


def _word(text: str, left: int, top: int, right: int, bottom: int, line: tuple[int, int, int] = (14, 5, 1)) -> ReadWord:
    return ReadWord(text, left, top, right, bottom, size=38.9, line=line, conf=96.0)


# INAP 2024's question 45 as read at 300 dpi (a cached reading's boxes): the series' last words and the blank under them.
SERIES_WORDS = (_word("2,", 1446, 1026, 1474, 1059), _word("10,", 1490, 1026, 1536, 1058), _word("3,", 1551, 1026, 1578, 1059))


def _lines(words: tuple[ReadWord, ...]) -> list[str]:
    reading = PageReading(2481, 3508, words)
    return [line.text for line in lay_out_page(reading, OcrSettings(languages=("spa",)), page_number=1, width_pt=595, height_pt=842).lines]


def test_the_blank_as_read_on_inap_joins_its_line():
    assert _lines((*SERIES_WORDS, _word("_", 1591, 1056, 1612, 1062))) == ["2, 10, 3, _"]


@pytest.mark.parametrize("apart", [
    _word("_", 1591, 1056, 1612, 1062, line=(14, 6, 1)),  # a line of its own in Tesseract's reading: a rule, kept apart
    _word("_", 1591, 1110, 1612, 1116),  # far under the band (under a line's height below): another line's ink
    _word("a", 1591, 1056, 1612, 1062),  # a letter: laid out by its own box, as every word holding one
])
def test_a_word_that_is_no_blank_of_its_line_is_laid_out_by_its_own_box(apart: ReadWord):
    assert _lines((*SERIES_WORDS, apart)) == ["2, 10, 3,", apart.text]



# Lines Tesseract loses blanks on (read through every pass, 150 dpi blur 0.8 and 200 dpi blur 0.6): a faint `_` it
# does not read, a `___` between words it reads unsurely (`noise` drops it), a form's long field it does not read.
BLANKS = ("Indique el número que continúa la serie 4, 8, 12, 16, _", "Uzupełnij ciąg: 3, 6, 12, 24, _",
          "Complete la frase: El perro ___ en el jardín toda la tarde.", "Nombre y apellidos: ________________")
# No blank: dashes between words, and a line underlined from end to end (a flat stroke on its baseline, but running on
# under its words).
NO_BLANKS = ("El resultado - según el autor - es correcto", "Una línea subrayada de punta a punta")


def _blank_page(folder: Path, font: str, dpi: int, blur: float, jpeg: int) -> Path:
    lines = (*BLANKS, *NO_BLANKS)
    items = [TextBox(text, 20, 20 + 12 * at, 175, size=10.5, font=font) for at, text in enumerate(lines)]
    items.append(TextBox("_" * 30, 20, 20 + 12 * (len(lines) - 1), 175, size=10.5, font=font))  # the underline
    pdf = build_pdf(folder / "page.pdf", [PageSpec(items)])
    return rasterize_pdf(pdf, folder / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=3)


def _read_lines(scan: Path, dpi: int, *disabled: str) -> list[str]:
    settings = replace(OcrSettings(languages=("spa",), dpi=dpi), disabled_passes=disabled)
    page = ocr_pages(scan, [1], settings, workers=1, progress=False)[1]
    return [line.text for line in page.lines]


def _beside_blank(text: str) -> str:
    """The words either side of a line's blank, its run of underscores as one `_`, spaces left out (`16,_`, `perro_en`)."""
    words = ["_" if set(w) == {"_"} else w for w in text.split()]
    at = words.index("_")
    return "".join(words[max(0, at - 1):at + 2])


@needs_tesseract("spa")
@pytest.mark.parametrize(("font", "dpi", "blur", "jpeg"), [("DejaVuSerif", 150, 0.8, 70), ("DejaVuSans", 200, 0.6, 80)])
def test_blanks_tesseract_loses_are_read_from_their_strokes_and_no_other_flat_ink_is(tmp_path: Path, font: str, dpi: int,
                                                                                     blur: float, jpeg: int):
    """Without `blank-strokes` some blank of the page is lost on these scans; with it every blank reads in its place
    (its length the stroke's), and neither the dashes nor the underline under a whole line read as a blank."""
    scan = _blank_page(tmp_path, font, dpi, blur, jpeg)
    without = _read_lines(scan, dpi, "blank-strokes")
    assert sum("_" in text for text in without) < len(BLANKS), "Tesseract no longer loses a blank on this scan"
    lines = _read_lines(scan, dpi)
    blanks = [re.sub("_+", "_", text.replace(" ", "")) for text in lines if "_" in text]
    assert len(blanks) == len(BLANKS), lines
    assert all(_beside_blank(printed) in read for printed, read in zip(BLANKS, blanks)), lines
