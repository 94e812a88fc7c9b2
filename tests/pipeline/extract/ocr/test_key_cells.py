"""Answer-key tables on scans: every cell letter comes back, read against the spec's option labels."""
from __future__ import annotations

import random

import pytest

from pipeline.extract.ocr import OcrSettings, ocr_pages
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, table_items
from tests.pipeline.extract.ocr.builders import build, colour_scan, needs_tesseract

LABELS = ("A", "B", "C", "D")


pytestmark = needs_tesseract("pol")


def _key_rows(count: int) -> list[tuple[str, str, str]]:
    rng = random.Random(7)
    return [(f"{n:02d}", rng.choice(LABELS), rng.choice(LABELS)) for n in range(1, count + 1)]


@pytest.fixture(scope="module")
def key_scan(tmp_path_factory) -> tuple[object, list[tuple[str, str, str]]]:
    """A two-variant key table (one letter per cell, like the NÚCEM keys) scanned in colour at 200 dpi."""
    folder = tmp_path_factory.mktemp("key_cells")
    rows = _key_rows(30)
    items, _ = table_items(35, 30, (25, 55, 55), [("Nr", "Test 1403", "Test 9777"), *rows], size=11)
    page = PageSpec([TextBox("Klucz odpowiedzi do zadań zamkniętych", 35, 18, 150, size=12, bold=True), *items])
    scan = colour_scan(build(folder / "key.pdf", [page]), folder / "key_scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=3)
    return scan, rows


def _cells(page) -> dict[str, list[str]]:
    """Row number -> the texts right of it on its row, left to right."""
    found = {}
    for line in page.lines:
        if line.text.isdigit() and len(line.text) == 2:
            middle = (line.top + line.bottom) / 2
            same_row = [o for o in page.lines if o is not line and o.x0 > line.x1 and o.top - 2 <= middle <= o.bottom + 2]
            found[line.text] = [o.text for o in sorted(same_row, key=lambda o: o.x0)]
    return found


def test_every_key_cell_is_read_as_its_label(key_scan):
    scan, rows = key_scan
    page = ocr_pages(scan, [1], OcrSettings(languages=("pol",), dpi=300, option_labels=tuple(LABELS)), workers=1, progress=False)[1]
    cells = _cells(page)
    wrong = {n: cells.get(n) for n, a, b in rows if cells.get(n) != [a, b]}
    assert not wrong, f"cells misread (number: read, truth in _key_rows): {wrong}"


def test_a_block_reading_that_glued_a_rows_number_to_its_answer_gives_the_cell_its_answer():
    # vi-serif9-lower's key at 300 dpi: the page pass read the answer column `b d … a` as one squashed line (`C`, `0`),
    # the block pass read each row right but glued (`1:b`, `Số4:a`), so no block word was the cell's rival.
    from pipeline.extract.ocr.keycells import merge_table_pass
    from pipeline.extract.ocr.words import Word

    column = [Word("C", 74, 370, 290, 396, 326, (3, 1, 1)), Word("d", 92, 371, 373, 397, 409, (3, 1, 1)),
              Word("0", 76, 371, 549, 395, 574, (3, 1, 1))]
    block = [Word("Số", 92, 240, 289, 297, 326, (1, 1, 1)), Word("1:b", 92, 316, 290, 397, 326, (1, 1, 1)),
             Word("Số2:d", 89, 240, 372, 397, 409, (1, 1, 2)), Word("Số4:a", 91, 240, 537, 395, 574, (1, 1, 3))]
    merged = merge_table_pass(column, block)  # the block's words where the page read none (`Số`) are added as ever
    assert [(w.text, w.top) for w in merged if w.left >= 360] == [("b", 290), ("d", 373), ("a", 549)]
    # A glued word that ends short of the cell (the answer left unread) or holds no number's mark is no reading of it.
    short = [Word("Số1:", 92, 240, 290, 350, 326, (1, 1, 1)), Word("Sob", 95, 300, 289, 397, 326, (1, 1, 2))]
    assert [w.text for w in merge_table_pass(column[:1], short) if w.left >= 360] == ["C"]


def test_a_block_reading_of_part_of_a_words_glyphs_does_not_replace_it():
    # ko-grid (scriptscans) at 200 dpi, read at 300: an option grid's short words beside their rings are lone cells; the
    # block pass read `② 계좌` as `좌` and `④ 대진대` as `진대`, each confident, and took their place: the options lost
    # their first syllables. A reading of fewer glyphs that leaves a glyph's width of the word unread is no mend.
    from pipeline.extract.ocr.keycells import merge_table_pass
    from pipeline.extract.ocr.words import Word

    cells = [Word("계좌", 76, 1009, 313, 1084, 351, (4, 1, 1)), Word("대진대", 63, 364, 1609, 477, 1648, (9, 1, 1))]
    block = [Word("좌", 93, 1053, 312, 1080, 352, (1, 1, 1)), Word("진대", 97, 408, 1608, 478, 1648, (1, 1, 2))]
    assert [w.text for w in merge_table_pass(cells, block)] == ["계좌", "대진대"]
    # A misread cell still takes its block reading, and so does a letter whose box took in a stray mark beside it.
    key = [Word(">", 61, 999, 606, 1029, 640, (3, 1, 1)), Word("|A", 55, 990, 700, 1029, 734, (3, 1, 2))]
    rivals = [Word("A", 96, 998, 606, 1030, 641, (1, 1, 1)), Word("A", 94, 1003, 700, 1029, 734, (1, 1, 2))]
    assert [w.text for w in merge_table_pass(key, rivals)] == ["A", "A"]
