"""The whitening keeps the faint marks of writing a soft scan prints lighter than its cut (`faintmarks`, `prepare` v12):
on a 150 dpi page the accents the plain whitening turns to paper reach Tesseract, and nothing the print lacks does —
not over a bare letter, not the paper's grain, not the other side of the leaf bleeding through."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from fpdf import FPDF

from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr.engine import WHITE_FROM, prepared_before_whitening, whitened
from pipeline.extract.ocr.faintmarks import FAINT_FLOOR
from tests.pipeline.extract.ocr.builders import first_page

DPI = 300  # the page is read as a season run reads a scan: rendered at 300 dpi
FONT = "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf"
# Spanish (Latin) and Russian (Cyrillic) words whose marks sit over a letter with no ascender.
SPANISH = "rindió góndolas dramático moverá aprobación canción veíamos comprará según está perdón habrá "
RUSSIAN = "ещё всё моё твоё мой твой свой какой новый большой другой чужой "
BARE_LETTERS = set("acemnorsuvwxzаеикмнопрстуцвгзхчшьыэюя")  # no ascender, nothing over them


def _sheet(folder: Path, lines: list[str], size: float, *, verso: list[str] | None = None) -> Path:
    """A text PDF of `lines` (one A4 page, Liberation Sans Narrow at `size` pt), with a second page `verso` (the
    other side of the leaf) where given."""
    pdf = FPDF(unit="mm", format="A4")
    pdf.add_font("narrow", "", FONT)
    for page in [lines] + ([verso] if verso else []):
        pdf.add_page()
        pdf.set_font("narrow", size=size)
        pdf.set_margins(20, 20, 20)
        pdf.set_y(25)
        for line in page:
            pdf.cell(170, size * 0.3528 * 1.6, line, new_x="LMARGIN", new_y="NEXT")
    path = folder / "text.pdf"
    pdf.output(str(path))
    return path


def _glyph_boxes(pdf: Path) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Each printed character of the first page with its box in px at `DPI` (left, top, right, bottom)."""
    scale = DPI / 72
    with pdfium.PdfDocument(str(pdf)) as document:
        page = document[0]
        height = page.get_height()
        text = page.get_textpage()
        boxes = []
        for index in range(text.count_chars()):
            char = text.get_text_range(index, 1)
            if char.strip():
                left, bottom, right, top = text.get_charbox(index)
                boxes.append((char, (int(left * scale), int((height - top) * scale), int(np.ceil(right * scale)),
                                     int(np.ceil((height - bottom) * scale)))))
    return boxes


def _pages(folder: Path, pdf: Path, scan: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The scan of `pdf`'s first page prepared for Tesseract: whitened plainly (every grey above `WHITE_FROM` paper,
    the preparation before v12) and by `whitened` (faint marks kept), and the grey page before whitening."""
    scanned = ScanSetting.parse(scan).rasterise(pdf, folder / "scan.pdf", seed=7)
    grey = prepared_before_whitening(first_page(scanned, DPI), DPI)
    plain = np.where(grey > WHITE_FROM, 255, grey).astype(np.uint8)
    return plain, np.asarray(whitened(grey, DPI)), grey


def _marked(char: str) -> bool:
    import unicodedata
    return len(unicodedata.normalize("NFD", char)) > 1


def _marks(pdf: Path, letters: str | None = None) -> list[tuple[slice, slice]]:
    """Where each marked lowercase letter's mark lies (of `letters` only, where given): the rows of its glyph's box
    above its line's x-height (the top of the bare letters on its baseline), the middle half of its columns."""
    boxes = _glyph_boxes(pdf)
    zones = []
    for char, (left, top, right, bottom) in boxes:
        if not _marked(char) or (letters is not None and char not in letters):
            continue
        x_top = min(t for c, (_, t, _, b) in boxes if c in BARE_LETTERS and abs(b - bottom) <= 2)
        quarter = (right - left) // 4
        zones.append((slice(top, x_top - 1), slice(left + quarter, right - quarter)))
    return zones


def test_marks_the_plain_whitening_erases_at_150_dpi_are_kept_in_two_scripts(tmp_path):
    pdf = _sheet(tmp_path, [SPANISH, RUSSIAN] * 4, 8)
    plain, kept, _ = _pages(tmp_path, pdf, "150/1.0/75")
    marks = _marks(pdf)
    assert len(marks) >= 80

    def shown(page: np.ndarray, zone) -> bool:  # Tesseract sees a pixel no lighter than the whitening's cut
        return bool((page[zone] <= WHITE_FROM).any())

    erased = [zone for zone in marks if not shown(plain, zone)]
    assert len(erased) >= len(marks) // 4, "the page must be one whose plain whitening loses marks"
    back = [zone for zone in erased if shown(kept, zone)]
    assert len(back) >= 0.75 * len(erased), f"{len(back)} of {len(erased)} erased marks kept"
    for script in (SPANISH, RUSSIAN):  # both scripts get their marks back
        zones = _marks(pdf, script)
        assert sum(shown(kept, z) for z in zones) > sum(shown(plain, z) for z in zones)


def test_only_printed_glyphs_gain_ink_and_no_bare_letter_gains_a_mark(tmp_path):
    pdf = _sheet(tmp_path, [SPANISH, RUSSIAN] * 4, 8)
    plain, kept, _ = _pages(tmp_path, pdf, "150/1.0/75")
    boxes = _glyph_boxes(pdf)
    gained = (kept <= WHITE_FROM) & (plain > WHITE_FROM)
    assert gained.any()
    inside = np.zeros(gained.shape, dtype=bool)
    for _, (left, top, right, bottom) in boxes:  # a scan's blur spreads a glyph by a pixel or two
        inside[max(0, top - 3):bottom + 3, max(0, left - 3):right + 3] = True
    assert not (gained & ~inside).any(), "ink kept where nothing is printed"
    for char, (left, top, right, bottom) in boxes:
        if char in BARE_LETTERS:
            height = bottom - top  # an x-height letter: the rows over it, where a mark would be, stay as plainly whitened
            over = (slice(max(0, top - height // 2), top - 2), slice(left + 1, right - 1))
            assert not gained[over].any(), f"a mark made over a bare {char!r}"


def test_grain_and_the_verso_bleeding_through_stay_paper(tmp_path):
    recto = [SPANISH, RUSSIAN] * 2  # little writing: most of the page is paper
    verso = [SPANISH + SPANISH, RUSSIAN + RUSSIAN] * 20  # a full page behind it, mirrored through the leaf
    pdf = _sheet(tmp_path, recto, 8, verso=verso)
    plain, kept, grey = _pages(tmp_path, pdf, "150/1.0/75/0/g0.03/v0.3")
    text_rows = np.zeros(plain.shape, dtype=bool)
    for _, (left, top, right, bottom) in _glyph_boxes(pdf):
        text_rows[max(0, top - 3):bottom + 3, max(0, left - 3):right + 3] = True
    assert ((grey <= FAINT_FLOOR + 20) & ~text_rows).sum() > 10_000, "the verso must show through, grey, on the paper"
    assert not ((kept < 255) & (plain == 255) & ~text_rows).any(), "grain or show-through kept on the paper"
    assert ((kept <= WHITE_FROM) & (plain > WHITE_FROM) & text_rows).any(), "the recto's own faint marks are kept"
