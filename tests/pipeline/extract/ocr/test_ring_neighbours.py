"""The glyph printed right after a ringed label, which Tesseract drops with the ring, is read again without
the ring (`ring-neighbours`): on a scanned Korean row of options the first syllable of `① 마이즈` and
`⑤ 청도` came back only through it; a reading of that stretch that differs in the word the page read
changes nothing, and added ink that reads unsure adds nothing."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import cjk_font, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.ringneighbours import Stretch, restored, stretches
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

CIRCLED = ("①", "②", "③", "④", "⑤")
DPI = 300
LINE = (1, 1, 1)


def _row_sheet_scan(tmp_path):
    """A generated Korean sheet of ten questions, each with its five options in one row, scanned at 200 dpi."""
    from pipeline.devkit import scriptscans

    family = next(f for f in scriptscans.TUNING if f.name == "ko-row")
    sheet = scriptscans.sheet_pdf(tmp_path / "sheet.pdf", family, scriptscans.printed_questions(family, scriptscans._vocabulary(family)))
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=200, blur=0.8, jpeg_quality=70, noise=0.01, seed=family.seed)
    document = pdfium.PdfDocument(str(scan))
    try:
        return render_page(document, 0, DPI)[0]
    finally:
        document.close()


@needs_tesseract("kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_the_syllable_after_a_ring_dropped_with_it_is_read_again(tmp_path):
    image = _row_sheet_scan(tmp_path)
    settings = OcrSettings(languages=("kor",), dpi=DPI, option_labels=CIRCLED)
    texts = [w.text for w in sorted(read_page(image, settings, page_number=1).words, key=lambda w: (w.top // 60, w.left))]
    assert texts[texts.index("①") + 1] == "마이즈" and texts[texts.index("⑤") + 1] == "청도"
    assert texts.count("에서조차") == 1 and texts.count("려야") == 1  # what was read whole is not read twice


def _ink(width: int, height: int, spans: list[tuple[int, int]]) -> np.ndarray:
    ink = np.zeros((height, width), dtype=bool)
    for left, right in spans:
        ink[10:30, left:right] = True
    return ink


def test_only_letters_added_before_the_word_as_read_are_kept():
    label = Word("①", 90, 0, 8, 40, 32, LINE)
    after = Word("이즈", 95, 100, 10, 170, 30, LINE)
    words = [label, after]
    ink = _ink(200, 40, [(2, 38), (55, 90), (100, 170)])  # a syllable between the ring and the word, no word over it
    found = stretches(words, ink, CIRCLED, 40.0)
    assert found == [Stretch(label, after, 44)]
    glued = [Word("마이즈", 91, 30, 14, 150, 54, LINE)]
    assert [w.text for w in restored(words, found, [glued], 40.0)[0]] == ["①", "마이즈"]
    apart = [Word("마", 88, 30, 14, 60, 54, LINE), Word("이즈", 95, 75, 14, 150, 54, LINE)]
    assert [w.text for w in restored(words, found, [apart], 40.0)[0]] == ["①", "마", "이즈"]
    # The word itself read otherwise, or the added letters unsure: nothing changes.
    assert restored(words, found, [[Word("마이조", 91, 30, 14, 150, 54, LINE)]], 40.0)[0] == words
    assert restored(words, found, [[Word("마", 30, 30, 14, 60, 54, LINE), Word("이즈", 95, 75, 14, 150, 54, LINE)]], 40.0)[0] == words


def test_a_word_right_after_its_ring_has_no_stretch():
    label = Word("①", 90, 0, 8, 40, 32, LINE)
    words = [label, Word("마이즈", 95, 50, 10, 170, 30, LINE)]
    assert stretches(words, _ink(200, 40, [(2, 38), (50, 170)]), CIRCLED, 40.0) == []


def test_a_word_glued_to_its_ring_takes_its_reading_past_the_ring_where_only_its_first_letters_differ():
    # `②słupy` printed without a space, read across the ring as `vsłupy` (the ring's outline as a letter),
    # or `czenie` for `①uczenie` (the glued letter taken with the ring): read again past the ring.
    label = Word("②", 90, 0, 8, 40, 48, LINE)
    ink = _ink(300, 50, [(2, 38), (42, 60), (64, 200)])  # the ring, then the word's letters from column 42 on
    for page, again, mended in (("vsłupy", "słupy", "słupy"), ("S:minusvalía", "minusvalía", "minusvalía"),
                                ("czenie", "uczenie", "uczenie"), ("463", "63", "63")):
        after = Word(page, 80, 42, 10, 200, 46, LINE)
        found = stretches([label, after], ink, CIRCLED, 40.0)
        assert found == [Stretch(label, after, 44)] and found[0].ink_start == 44
        # The stretch's reading starts at its first ink (stack column = margin of 14 px).
        read = [Word(again, 90, 14, 14, 170, 50, LINE)]
        assert [w.text for w in restored([label, after], found, [read], 40.0)[0]] == ["②", mended]
    after = Word("vsłupy", 80, 42, 10, 200, 46, LINE)
    found = stretches([label, after], ink, CIRCLED, 40.0)
    # A reading that starts a letter's width past the first ink skipped a letter: the page's reading stays.
    assert restored([label, after], found, [[Word("łupy", 90, 34, 14, 170, 50, LINE)]], 40.0)[0] == [label, after]
    # One that differs past its first characters, is unsure, or is two words changes nothing either.
    assert restored([label, after], found, [[Word("słapy", 90, 14, 14, 170, 50, LINE)]], 40.0)[0] == [label, after]
    assert restored([label, after], found, [[Word("słupy", 40, 14, 14, 170, 50, LINE)]], 40.0)[0] == [label, after]
    two = [Word("s", 90, 14, 14, 30, 50, LINE), Word("łupy", 90, 40, 14, 170, 50, LINE)]
    assert restored([label, after], found, [two], 40.0)[0] == [label, after]
