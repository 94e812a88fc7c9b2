"""Scripts whose glyphs stand on square cells (Hangul): word spaces are measured in the page's cells, not taken
from Tesseract (`cell-spaces`), and a glyph Tesseract dropped (ink no word covers beside a word, or a box wider
than its text by a cell) is read again or leaves its word unsure (`dropped-glyphs`). Languages whose data
declares no cells (Latin, Greek) run neither pass."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import cjk_font, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.cellpasses import _cell_spaces, _dropped_glyphs, cell_facts
from pipeline.extract.ocr.certainty import unsure_reason
from pipeline.extract.ocr.engine import render_page
from pipeline.extract.ocr.glyphcells import CellFacts, Cells, Dropped, dropped_glyphs, measure_cells, mend_dropped, split_by_spaces
from pipeline.extract.ocr.lexicon import load_lexicon
from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.passes import PageWork
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract

CIRCLED = ("①", "②", "③", "④", "⑤")
LINE = (1, 1, 1)
FACTS = CellFacts(word_space=0.34, glyph_from=0.6)
CELLS = Cells(pitch=40.0, offset=-10.0)  # 40 px cells; a word's box leaves 10 px of bearings out


def _ink(spans: list[tuple[int, int]], width: int = 600, rows: tuple[int, int] = (100, 140)) -> np.ndarray:
    ink = np.zeros((200, width), dtype=bool)
    for left, right in spans:
        ink[rows[0]:rows[1], left:right] = True
    return ink


def _glyphs(left: int, count: int) -> list[tuple[int, int]]:
    """Ink of `count` glyphs set on 40 px cells from `left`: 30 px of ink, 10 px of bearings."""
    return [(left + 40 * i, left + 40 * i + 30) for i in range(count)]


def _word(text: str, left: int, right: int, conf: float = 90.0) -> Word:
    return Word(text, conf, left, 100, right, 140, LINE)


def test_a_word_space_inside_a_box_is_put_back_where_the_cells_say():
    # 여인숙 덮친 printed, read as one word: three glyphs, a word space of 16 px of white, two glyphs.
    spans = _glyphs(100, 3) + _glyphs(236, 2)
    word = _word("여인숙덮친", 100, 306)
    pieces, count, marked = split_by_spaces([word], _ink(spans), CELLS, FACTS)
    assert (count, marked) == (1, 0)
    assert [(w.text, w.left, w.right) for w in pieces] == [("여인숙", 100, 210), ("덮친", 236, 306)]


def test_white_between_a_words_glyphs_is_no_space():
    word = _word("여인숙덮친", 100, 290)  # five glyphs on five cells: 10 px between them
    assert split_by_spaces([word], _ink(_glyphs(100, 5)), CELLS, FACTS) == ([word], 0, 0)


def test_white_where_no_cell_boundary_of_the_text_stands_leaves_the_word_as_read_but_unsure():
    # Ink of six glyphs with a space after the third, read as five glyphs: the cells do not hold the text, so it is
    # not cut; but the reading glued two words (and lost a glyph), so the question must not rest on it surely.
    spans = _glyphs(100, 3) + _glyphs(236, 3)
    word = _word("여인숙덮친", 100, 346)
    assert split_by_spaces([word], _ink(spans), CELLS, FACTS) == ([replace(word, conf=0.0)], 0, 1)


def test_a_word_space_in_ink_the_box_clipped_marks_the_word_unsure():
    # 바꾸어야 맺으 printed, read `바꾸어야맺으` in a box that stops inside the last glyph's ink: the box is no wider
    # than six glyphs' cells, so the white of the word space (16 px, 0.4 cells) cannot be cut at; it is a flag.
    spans = _glyphs(100, 4) + _glyphs(276, 2)
    word = _word("바꾸어야맺으", 100, 330)
    assert CELLS.excess(word) < 0.12
    kept, count, marked = split_by_spaces([word], _ink(spans), CELLS, FACTS)
    assert [(w.text, w.left, w.right) for w in kept] == [("바꾸어야맺으", 100, 330)]
    assert (kept[0].conf, count, marked) == (0.0, 0, 1)
    assert unsure_reason(kept[0].text, kept[0].conf, None) is not None


def test_white_between_two_syllables_that_stand_a_cells_pitch_apart_is_no_flag():
    # 신월 scanned at 150 dpi with blur: a thin stroke of the second syllable fades, the white between the syllables
    # grows to 14 px (0.35 cells, a word space's), but the glyphs' middles stand one cell apart, not a word space's pitch.
    word = _word("신월", 100, 170)
    kept, count, marked = split_by_spaces([word], _ink([(100, 130), (144, 170)]), CELLS, FACTS)
    assert (kept, count, marked) == ([word], 0, 0)


def test_ink_beyond_a_white_that_another_words_box_covers_is_no_flag():
    # 급식실's box ran over its neighbour 1958: the white between them lies inside it, the ink beyond is 1958's.
    word, number = _word("급식실", 100, 330), _word("1958", 230, 330)
    spans = _glyphs(100, 3) + [(230, 250), (255, 275), (280, 300), (305, 325)]
    kept, count, marked = split_by_spaces([word, number], _ink(spans), CELLS, FACTS)
    assert (kept, count, marked) == ([word, number], 0, 0)


def test_a_speck_beyond_a_word_space_at_the_edge_of_a_box_is_no_glyph_and_no_flag():
    # A stop or a speck 0.4 cells after the word, inside its box: narrower than a glyph, so no word space is in the word.
    word = _word("여인숙", 100, 236)
    kept, count, marked = split_by_spaces([word], _ink(_glyphs(100, 3) + [(226, 232)]), CELLS, FACTS)
    assert (kept, count, marked) == ([word], 0, 0)


def test_two_words_with_less_white_between_them_than_a_word_space_are_one():
    # 시세이도 printed; Tesseract read 시 and 세이도 apart with 10 px of white: the cells' white, no word space.
    words = [_word("시", 100, 130), _word("세이도", 140, 250), _word("나열", 266, 336)]
    joined, count, marked = split_by_spaces(words, _ink(_glyphs(100, 4) + _glyphs(266, 2)), CELLS, FACTS)
    assert ([(w.text, w.left, w.right) for w in joined], count, marked) == ([("시세이도", 100, 250), ("나열", 266, 336)], 1, 0)


def test_the_cell_is_measured_from_the_pages_words():
    words = [_word("가나다", 0, 110), _word("라마", 200, 270), _word("바사아자", 300, 450), _word("차카", 500, 570),
             _word("타파하", 600, 710), _word("가나", 800, 870), _word("word", 900, 1000)]
    assert measure_cells(words) == Cells(40.0, -10.0)
    assert measure_cells(words[:3]) is None  # too few to measure


def test_ink_no_word_covers_beside_a_word_is_a_dropped_glyph():
    # 자연석 printed; the page read 연석 and its box holds only those two glyphs.
    word = _word("연석", 140, 210)
    found = dropped_glyphs([word], _ink(_glyphs(100, 3)), CELLS, FACTS)
    assert found == [Dropped(word, 100, 210, "left", 1)]
    # A period or a comma beside the word (low, narrow ink) is no glyph.
    assert dropped_glyphs([word], _ink([(215, 220)] + _glyphs(140, 2)), CELLS, FACTS) == []


def test_a_box_wider_than_its_text_by_a_cell_holds_a_dropped_glyph():
    word = _word("기말", 100, 210)  # 세기말 printed: three cells under a box read as two glyphs
    assert dropped_glyphs([word], _ink(_glyphs(100, 3)), CELLS, FACTS) == [Dropped(word, 100, 210, "inside", 1)]


def test_a_reading_that_adds_the_dropped_glyph_mends_the_word_and_one_that_does_not_leaves_it_unsure():
    word = _word("연석", 140, 210)
    found = [Dropped(word, 100, 210, "left", 1)]
    mended, count, marked = mend_dropped([word], found, [[Word("자연석", 91.0, 14, 14, 124, 54, LINE)]], CELLS)
    assert ([w.text for w in mended], count, marked) == (["자연석"], 1, 0)
    assert mended[0].left == 100
    # Read again as something that does not hold the word, or adds two glyphs where one cell was dropped: not kept.
    for reading in ([Word("자언석", 91.0, 14, 14, 124, 54, LINE)], [Word("자자연석", 91.0, 14, 14, 164, 54, LINE)]):
        kept, count, marked = mend_dropped([word], found, [reading], CELLS)
        assert (count, marked) == (0, 1)
        assert kept[0].text == "연석" and kept[0].conf == 0.0
        # ... and the word, known to the lexicon and confidently read before, is judged unsure.
        lexicon = load_lexicon(("kor",))
        assert unsure_reason(kept[0].text, kept[0].conf, lexicon, second=kept[0].second) is not None


def test_a_box_narrower_than_its_text_by_a_cell_holds_a_glyph_read_twice():
    # 꼼꼼히 printed (three cells), read 꼼꼼히ㅇ: read again, the reading that is the text less one glyph is kept.
    word = _word("꼼꼼히ㅇ", 100, 210)
    found = dropped_glyphs([word], _ink(_glyphs(100, 3)), CELLS, FACTS)
    assert found == [Dropped(word, 100, 210, "twice", 1)]
    mended, count, marked = mend_dropped([word], found, [[Word("꼼꼼히", 90.0, 14, 14, 124, 54, LINE)]], CELLS)
    assert ([w.text for w in mended], count, marked) == (["꼼꼼히"], 1, 0)
    # A reading that is not the text less a glyph (another glyph, or the same text again) leaves the word unsure.
    for reading in ("꼼꼼이", "꼼꼼히ㅇ"):
        kept, count, marked = mend_dropped([word], found, [[Word(reading, 90.0, 14, 14, 124, 54, LINE)]], CELLS)
        assert (kept[0].text, kept[0].conf, count, marked) == ("꼼꼼히ㅇ", 0.0, 0, 1)


def test_only_languages_whose_data_declares_square_cells_run_the_cell_passes():
    assert cell_facts(("kor",)) == FACTS
    assert cell_facts(("eng",)) is None and cell_facts(("ell",)) is None and cell_facts(("rus",)) is None
    assert _cell_spaces in PAGE_PASSES and _dropped_glyphs in PAGE_PASSES
    for languages, runs in ((("kor",), True), (("ell",), False), (("spa",), False)):
        work = PageWork(OcrSettings(languages=languages, dpi=300), 1, 1, True, None, None, None)  # type: ignore[arg-type]
        assert _cell_spaces.applies(work) is runs and _dropped_glyphs.applies(work) is runs


def _scan(tmp_path, family_name: str, dpi: int, blur: float, jpeg: int, variant: int = 0):
    """A generated Korean question sheet (`scriptscans`), scanned, its pages rendered as extract renders them;
    what was printed; the OCR settings its spec gives."""
    from pipeline.devkit import scriptscans
    from pipeline.extract import ExtractOptions

    family = next(f for f in scriptscans.TUNING + scriptscans.CHECKING if f.name == family_name)
    family = replace(family, seed=family.seed + 100 * variant)  # as `scriptscans --seeds` makes another sheet
    printed = scriptscans.printed_questions(family, scriptscans._vocabulary(family))
    sheet = scriptscans.sheet_pdf(tmp_path / "sheet.pdf", family, printed)
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=family.seed)
    settings = ExtractOptions.from_spec(scriptscans.family_spec(family)).ocr
    document = pdfium.PdfDocument(str(scan))
    try:
        return [render_page(document, i, settings.dpi)[0] for i in range(len(document))], printed, settings
    finally:
        document.close()


@needs_tesseract("kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_on_a_scanned_korean_sheet_word_spaces_come_back(tmp_path):
    # ko-column's sheet scanned at 200 dpi: Tesseract read `경남대 구림`, `여인숙 덮친`, `위구르족 코난` as one word
    # each; `cell-spaces` cuts them where the white is a word space's.
    pages, printed, settings = _scan(tmp_path, "ko-column", 200, 0.6, 80)
    options = {option for q in printed for option in q.options}
    assert {"1942 경남대 구림", "아플 여인숙 덮친", "18 위구르족 코난"} <= options

    def texts(disabled: tuple[str, ...]) -> list[str]:
        return [w.text for w in read_page(pages[0], replace(settings, disabled_passes=disabled), page_number=1).words]

    without, with_them = texts(("cell-spaces",)), texts(())
    assert {"경남대구림", "여인숙덮친", "위구르족코난"} <= set(without)
    assert {"경남대", "구림", "여인숙", "덮친", "위구르족", "코난"} <= set(with_them)
    assert not {"경남대구림", "여인숙덮친", "위구르족코난"} & set(with_them)


@needs_tesseract("kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_on_a_scanned_korean_sheet_a_dropped_syllable_is_read_again(tmp_path):
    # ko-row's second sheet scanned at 200 dpi: Tesseract read the option `매해 19` as `매 19`, the `해` in no
    # word's box; `dropped-glyphs` reads the word again with that ink and gets it back.
    pages, printed, settings = _scan(tmp_path, "ko-row", 200, 0.6, 80, variant=1)
    assert "매해 19" in {option for q in printed for option in q.options}
    without = [w.text for w in read_page(pages[0], replace(settings, disabled_passes=("dropped-glyphs",)), page_number=1).words]
    assert "매" in without and "매해" not in without
    read = read_page(pages[0], settings, page_number=1)
    assert "매해" in [w.text for w in read.words] and "매" not in [w.text for w in read.words]
    assert any(note.startswith("glyph cells:") for note in read.notes)


@needs_tesseract("kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_on_a_scanned_korean_sheet_two_words_read_glued_in_a_clipped_box_are_unsure(tmp_path):
    # ko-column's sheet scanned at 200 dpi (the `scripts` flag set's scan): Tesseract read the option `바꾸어야 맺으` as
    # one word, confidently, in a box that stops inside the last syllable's ink, so it cannot be cut at its cells;
    # `cell-spaces` finds the word space's white in its ink and marks the word unsure instead.
    pages, printed, settings = _scan(tmp_path, "ko-column", 200, 0.6, 80)
    assert any("바꾸어야 맺으" in option for q in printed for option in q.options)

    def glued(disabled: tuple[str, ...]) -> list[float]:
        # The option is on the sheet's second page.
        return [w.conf for w in read_page(pages[1], replace(settings, disabled_passes=disabled), page_number=2).words
                if w.text == "바꾸어야맺으"]

    assert [conf >= 60 for conf in glued(("cell-spaces",))] == [True]
    assert glued(()) == [0.0]
