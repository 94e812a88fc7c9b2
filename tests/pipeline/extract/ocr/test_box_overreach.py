"""A word's box that reaches over the later words of its line (`box-overreach`) is cut back to its own ink, so that
the repairs measuring words by their boxes (joining a script's pieces, word spaces in cells) see the words apart."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from pipeline.devkit.sample.pdfgen import cjk_font, rasterize_pdf
from pipeline.extract.ocr import read_page
from pipeline.extract.ocr.overreach import clip_overreaching
from pipeline.extract.ocr.pagepasses import PAGE_PASSES, pass_names
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import first_page, needs_tesseract

LINE = (1, 1, 1)


def _ink(spans: list[tuple[int, int]]) -> np.ndarray:
    ink = np.zeros((200, 1000), dtype=bool)
    for left, right in spans:
        ink[100:140, left:right] = True
    return ink


def test_a_box_over_the_later_words_of_its_line_ends_at_its_own_ink():
    # Three words inked at 100–260, 290–360 and 400–520; Tesseract boxed the first over the whole line.
    ink = _ink([(100, 260), (290, 360), (400, 520)])
    words = [Word("다루는데", 90.0, 100, 100, 520, 140, LINE), Word("분신", 90.0, 290, 100, 360, 140, LINE),
             Word("어설프게", 90.0, 400, 100, 520, 140, LINE)]
    clipped, count = clip_overreaching(words, ink)
    assert count == 1
    assert [(w.text, w.left, w.right) for w in clipped] == [("다루는데", 100, 260), ("분신", 290, 360), ("어설프게", 400, 520)]
    # Without the page's ink to go by, the box ends where the first word it held begins.
    assert clip_overreaching(words, None)[0][0].right == 290


def test_boxes_that_only_touch_or_belong_to_other_lines_are_left_as_read():
    ink = _ink([(100, 260), (290, 360)])
    side_by_side = [Word("다루는데", 90.0, 100, 100, 262, 140, LINE), Word("분신", 90.0, 258, 100, 360, 140, LINE)]
    assert clip_overreaching(side_by_side, ink) == (side_by_side, 0)  # a few pixels of overlap: not held
    other_line = [Word("다루는데", 90.0, 100, 100, 520, 140, LINE), Word("분신", 90.0, 290, 100, 360, 140, (1, 1, 2))]
    assert clip_overreaching(other_line, ink) == (other_line, 0)


def test_the_pass_runs_before_the_repairs_that_join_words_by_their_boxes():
    names = pass_names()
    assert "box-overreach" in names
    assert names.index("box-overreach") < names.index("wide-glyph-gaps") < names.index("cell-spaces")
    assert next(p for p in PAGE_PASSES if p.name == "box-overreach").version == "1"


@needs_tesseract("kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_on_a_scanned_korean_sheet_words_after_a_ringed_label_stay_apart(tmp_path):
    # ko-column's sheet scanned at 150 dpi, blur 0.8, JPEG 70: Tesseract boxed `다루는데` (after ①) over its whole
    # line, and the pieces' pitch then glued it to `분신`; its box cut back, the option reads as printed.
    from pipeline.devkit import scriptscans
    from pipeline.extract import ExtractOptions

    family = next(f for f in scriptscans.TUNING if f.name == "ko-column")
    printed = scriptscans.printed_questions(family, scriptscans._vocabulary(family))
    assert "다루는데 분신 어설프게 왕식렴" in {option for q in printed for option in q.options}
    sheet = scriptscans.sheet_pdf(tmp_path / "sheet.pdf", family, printed)
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=150, blur=0.8, jpeg_quality=70, noise=0.01, seed=family.seed)
    settings = ExtractOptions.from_spec(scriptscans.family_spec(family)).ocr
    page = first_page(scan, settings.dpi)
    without = [w.text for w in read_page(page, replace(settings, disabled_passes=("box-overreach",)), page_number=1).words]
    with_it = [w.text for w in read_page(page, settings, page_number=1).words]
    assert "다루는데분신" in without
    assert "다루는데분신" not in with_it and {"다루는데", "분신"} <= set(with_it)
