"""Page segmentation on scans: columns and blocks are found from the image, prose regions are read again
as uniform text blocks without reading worse, and answer grids keep their automatic reading."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, rasterize_pdf, table_items
from pipeline.extract.ocr import (
    OcrSettings,
    RegionKind,
    classify_region,
    prepare_for_tesseract,
    read_page,
    reading_key,
    render_page,
    reread_prose,
)
from pipeline.extract.ocr.engine import parse_tsv, run_tesseract
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import build, needs_tesseract

LEFT_QUESTION = (
    "1. Which of the following protocols carries electronic mail between two servers on the internet?",
    "A. transfer of hypertext documents",
    "B. simple mail transfer protocol",
)
RIGHT_QUESTION = (
    "2. Which device forwards packets between different networks according to their address?",
    "A. a switch working in one segment",
    "B. a router joining several networks",
)
GRID_ROWS = [("1", "A", "B", "C", "D"), ("2", "B", "C", "D", "A"), ("3", "C", "D", "A", "B")]
DPI = 200

pytestmark = needs_tesseract("eng")


def _column(x: float, lines: tuple[str, ...]) -> list[TextBox]:
    boxes, y = [], 30.0
    for index, text in enumerate(lines):
        boxes.append(TextBox(text, x, y, 80, size=11))
        y += 20 if index == 0 else 8
    return boxes


@pytest.fixture(scope="module")
def sheet(tmp_path_factory) -> tuple[object, int, int]:
    """A scanned A4 page: two columns of question text over a ruled answer grid."""
    folder = tmp_path_factory.mktemp("segmentation")
    grid, _ = table_items(40, 120, (20, 20, 20, 20, 20), [("Nr", "I", "II", "III", "IV"), *GRID_ROWS], size=11)
    page = PageSpec([*_column(20, LEFT_QUESTION), *_column(110, RIGHT_QUESTION), *grid])
    scan = rasterize_pdf(build(folder / "sheet.pdf", [page]), folder / "sheet_scan.pdf", dpi=DPI, noise=0.01, seed=2)
    document = pdfium.PdfDocument(str(scan))
    try:
        image, width_pt, height_pt = render_page(document, 0, DPI)
    finally:
        document.close()
    return image, width_pt, height_pt


def _words(text_lines: tuple[str, ...]) -> list[str]:
    return [word for line in text_lines for word in line.split()]



@pytest.fixture(scope="module")
def segmented(sheet):
    """The psm-3 words of the page and what `reread_prose` made of them, every prose region read again."""
    image, _, _ = sheet
    grey = prepare_for_tesseract(image, DPI)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.pgm"
        grey.save(path, format="PPM")
        psm3 = parse_tsv(run_tesseract(path, ("eng",), DPI, omp_thread_limit=1))
        heights = sorted(w.bottom - w.top for w in psm3 if sum(ch.isalpha() for ch in w.text) >= 3)
        text_height = heights[len(heights) // 2]
        words, regions = reread_prose(
            grey, image.convert("L"), psm3, text_height, confident_from=101.0,
            languages=("eng",), dpi=DPI, omp_thread_limit=1,
        )
    return image.width, psm3, words, regions


def test_the_two_columns_are_separate_prose_regions(segmented):
    width, _, _, regions = segmented
    prose = [r for r in regions if r.kind is RegionKind.PROSE]
    assert any(r.region.right < width / 2 for r in prose), "no prose region inside the left column"
    assert any(r.region.left > width / 2 for r in prose), "no prose region inside the right column"
    assert all(r.psm6_confidence is not None for r in prose), "every prose region is read again when asked to"


def test_the_ruled_answer_grid_is_not_prose(segmented):
    width, psm3, _, regions = segmented
    grid_cells = [w for w in psm3 if w.text in ("I", "II", "III", "IV")]
    assert grid_cells, "psm 3 read the grid's header"
    holding = [r for r in regions if any(r.region.holds(w) for w in grid_cells)]
    assert holding and all(r.kind is not RegionKind.PROSE for r in holding)
    assert all(r.psm6_confidence is None for r in holding), "grid regions keep their psm-3 reading"


def test_rereading_the_columns_reads_every_word_and_no_fewer_than_psm3(segmented):
    _, psm3, words, _ = segmented
    for lines in (LEFT_QUESTION, RIGHT_QUESTION):
        expected = _words(lines)
        got = [w.text for w in words]
        assert [w for w in expected if w not in got] == []
        assert sum(w in got for w in expected) >= sum(w in [p.text for p in psm3] for w in expected)


def test_the_grid_cells_still_come_out_after_segmentation(sheet):
    image, _, height_pt = sheet
    grid_top = 118 / 297 * image.height  # the table starts at 120 mm

    def grid_words(reread: bool) -> list[tuple[str, int, int]]:
        settings = OcrSettings(languages=("eng",), dpi=DPI, option_labels=("A", "B", "C", "D"), reread_prose=reread, reread_below=101.0)
        reading = read_page(image, settings, page_number=1)
        return sorted((w.text, w.top // 20, w.left // 20) for w in reading.words if w.top > grid_top)

    segmented, plain = grid_words(True), grid_words(False)
    assert segmented == plain
    cells = [text for text, _, _ in segmented if text in ("A", "B", "C", "D")]
    assert sorted(cells) == sorted(letter for row in GRID_ROWS for letter in row[1:])


def test_a_region_of_cells_or_little_text_is_not_prose():
    def word(text: str, left: int, line: int) -> Word:
        return Word(text, 90.0, left, line * 40, left + 20 * len(text), line * 40 + 30, (1, 1, line))

    cells = [word(t, 200 * i, n) for n in range(3) for i, t in enumerate(("1", "A", "B", "C"))]
    assert classify_region(cells, 30) is RegionKind.GRID
    assert classify_region([word("Page", 0, 0), word("2", 100, 0)], 30) is RegionKind.SPARSE
    prose = [word(t, 100 * i, n) for n in range(2) for i, t in enumerate("the answer is in the text".split())]
    assert classify_region(prose, 30) is RegionKind.PROSE
    assert classify_region(prose, 30, rules=4) is RegionKind.GRID  # a ruled box holds cells, not running text


def test_the_cache_key_changes_with_the_segmentation_settings():
    plain = reading_key("0" * 64, 1, OcrSettings(reread_prose=False))
    segmented = reading_key("0" * 64, 1, OcrSettings())
    other_threshold = reading_key("0" * 64, 1, OcrSettings(reread_below=80.0))
    assert len({plain, segmented, other_threshold}) == 3
