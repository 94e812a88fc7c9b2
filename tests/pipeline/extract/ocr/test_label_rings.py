"""Option labels printed as a digit in a ring (①–⑤, as Korean CSAT sheets print them) are read on scans as
the labels they are, wherever they stand on a line (options in a row, in a grid, a key's answers); a
ring's look-alike reading (`D1`, `@`, `(3)`) is cut away and the option text past it kept; the labels'
sequence fills only runs of labels, never a key's answers; a bold "O" or "0", empty inside, is no ring."""
from __future__ import annotations

import pytest

from pipeline.devkit.sample.pdfgen import CJK_FONT, PageSpec, TextBox, build_pdf, cjk_font, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page
from tests.pipeline.extract.ocr.builders import first_page, needs_tesseract

CIRCLED = ("①", "②", "③", "④", "⑤")
DPI = 300
needs_cjk_font = pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")


def _scan_image(tmp_path, boxes, dpi: int, blur: float, jpeg: int, tilt: float = 0.0):
    sheet = build_pdf(tmp_path / "sheet.pdf", [PageSpec(tuple(boxes))])
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=3, rotate_deg=tilt)
    return first_page(scan, DPI)


def _ringed_sheet() -> list[TextBox]:
    """Two questions: five options in one row, then three over two (a grid); then a key's answers."""
    boxes = [TextBox("1. 다음 중 옳은 것은 무엇인가.", 20, 20, 170, size=10.5, font=CJK_FONT)]
    boxes += [TextBox(f"{label} {text}", 26 + 33 * i, 29, 30, size=10.5, font=CJK_FONT)
              for i, (label, text) in enumerate(zip(CIRCLED, ("사과", "72 배", "포도", "감자", "1950")))]
    boxes.append(TextBox("2. 밑줄 친 부분의 뜻으로 알맞은 것은.", 20, 42, 170, size=10.5, font=CJK_FONT))
    boxes += [TextBox(f"{label} {text}", 26 + 55 * (i % 3), 51 + 9 * (i // 3), 50, size=10.5, font=CJK_FONT)
              for i, (label, text) in enumerate(zip(CIRCLED, ("바다", "하늘 45", "구름", "강물", "나무")))]
    boxes += [TextBox(f"정답 {n}: {answer}", 20, 80 + 8 * n, 60, size=10.5, font=CJK_FONT)
              for n, answer in enumerate(("③", "①", "④", "④"), start=1)]
    return boxes


@needs_tesseract("kor")
@needs_cjk_font
# The tilted scan is straightened before it is read, and that resampling thickens a thin ring's ink.
@pytest.mark.parametrize("dpi,blur,jpeg,tilt", [(150, 0.8, 70, 0.0), (200, 0.6, 85, 0.0), (150, 0.8, 70, 1.0)])
def test_ringed_labels_in_a_row_a_grid_and_a_key_read_as_the_spec_labels(tmp_path, dpi, blur, jpeg, tilt):
    image = _scan_image(tmp_path, _ringed_sheet(), dpi, blur, jpeg, tilt)
    read = read_page(image, OcrSettings(languages=("kor",), dpi=DPI, option_labels=CIRCLED), page_number=1)
    words = sorted(read.words, key=lambda w: ((w.top + w.bottom) // 40, w.left))
    rings = [w.text for w in words if w.text in CIRCLED]
    # Both questions' labels in reading order, then the key's answers as printed (no sequence forced on them).
    assert rings == [*CIRCLED, *CIRCLED, "③", "①", "④", "④"]
    # Past each option's ring, its text, without a remnant of the ring's look-alike reading.
    after = {w.text: words[i + 1].text for i, w in enumerate(words[:-1]) if w.text in CIRCLED and w.top < 80 * DPI / 25.4}
    assert after["⑤"] in ("1950", "나무") and words[[w.text for w in words].index("②") + 1].text == "72"


@needs_tesseract("eng")
@pytest.mark.parametrize("dpi,blur", [(200, 0.6), (150, 0.8)])
def test_bold_o_and_zero_and_letters_empty_inside_are_no_rings(tmp_path, dpi, blur):
    from pipeline.extract.ocr.labelrings import find_rings

    boxes = [TextBox("O 0 o Q @ © D 8 B", 20, 20, 170, size=14, bold=True), TextBox("O text 0 and o e a d", 20, 30, 170, size=11)]
    image = _scan_image(tmp_path, boxes, dpi, blur, 80)
    import numpy as np
    rings = find_rings(np.asarray(image.convert("L")), 14 / 72 * DPI)
    assert rings == []


def test_the_labels_sequence_fills_runs_of_labels_but_not_a_keys_answers():
    from pipeline.extract.ocr.labelrings import Ring, by_sequence

    rows = [Ring(100 * i, 60 * q, 100 * i + 40, 60 * q + 40) for q in range(3) for i in range(5)]  # three questions' rows
    read = [(label, 95.0) for label in CIRCLED] * 3
    read[6], read[8] = ("", 0.0), ("③", 60.0)  # the second question's ② unread, its ④ read as ③ unsurely
    read[4] = ("②", 96.0)  # the first question's ⑤ read surely as ②, before the next question's ①
    read[14] = ("", 0.0)  # the last ring of the page unread
    assert [label for label, _ in by_sequence(rows, read, CIRCLED)] == list(CIRCLED) * 3
    key = [Ring(0, 60 * i, 40, 60 * i + 40) for i in range(6)]
    answers = [("③", 95.0), ("①", 95.0), ("", 0.0), ("④", 70.0), ("②", 95.0), ("②", 95.0)]
    assert by_sequence(key, answers, CIRCLED) == answers


def test_ring_alphabets_are_the_plain_characters_the_labels_enclose():
    from pipeline.extract.ocr.labelrings import ring_alphabet

    assert ring_alphabet(CIRCLED) == {"1": "①", "2": "②", "3": "③", "4": "④", "5": "⑤"}
    assert ring_alphabet(("Ⓐ", "Ⓑ")) == {"A": "Ⓐ", "B": "Ⓑ"}
    assert ring_alphabet(("A", "B")) is None and ring_alphabet(("①", "B")) is None


def test_a_word_read_across_a_ring_keeps_what_is_printed_past_it():
    import numpy as np

    from pipeline.extract.ocr.labelrings import Ring
    from pipeline.extract.ocr.ringplacing import _outside
    from pipeline.extract.ocr.words import Word

    ring = Ring(0, 8, 43, 51)
    ink = np.zeros((200, 400), dtype=bool)
    ink[10:50, 60:148] = True  # two syllables past the ring
    for read in ("(1)김해", "0김해", "@김해"):
        assert [w.text for w in _outside(Word(read, 90.0, 0, 10, 148, 50, (1, 1, 1)), ring, ink, [])] == ["김해"]
    ink[:] = False
    ink[10:50, 60:70] = ink[10:50, 75:85] = True  # "78" past a ring read "01"
    assert [w.text for w in _outside(Word("01778", 90.0, 0, 10, 85, 50, (1, 1, 1)), ring, ink, [])] == ["78"]
    # A look-alike's box reaching over the next word's ink keeps nothing of it ("(5)" over "61").
    assert _outside(Word("(5)", 90.0, 0, 10, 85, 50, (1, 1, 1)), ring, ink, [(58, 90)]) == []


def test_a_latin_word_glued_to_its_ring_keeps_its_first_letters_however_its_letters_touch():
    # Issue 27: `①zielonej` printed without a space, read as one word `©zielonej`; its letters touch in
    # the scan, so the ink past the ring holds fewer runs than letters. Counting a character per run cut
    # the word's first letters (`elonej`); what is cut is the ring's look-alike only.
    import numpy as np

    from pipeline.extract.ocr.labelrings import Ring
    from pipeline.extract.ocr.ringplacing import _outside
    from pipeline.extract.ocr.words import Word

    ring = Ring(0, 8, 43, 51)
    ink = np.zeros((200, 400), dtype=bool)
    ink[10:50, 46:90] = ink[10:50, 94:130] = ink[10:50, 134:200] = True  # eight letters in three runs
    for read, printed in (("©zielonej", "zielonej"), ("Qodstawiłam", "odstawiłam"), ("©Qczujka", "czujka"),
                          ("(1)Alfa", "Alfa"), ("1Beta", "Beta"), ("ytych", "ytych")):
        assert [w.text for w in _outside(Word(read, 90.0, 0, 10, 200, 50, (1, 1, 1)), ring, ink, [], "①")] == [printed]
    # Figures print at one width: "01778" read for a ring and "78" keeps the two digits its span holds.
    ink[:] = False
    ink[10:50, 47:96] = True  # "78", blurred into one run
    assert [w.text for w in _outside(Word("01778", 90.0, 0, 10, 96, 50, (1, 1, 1)), ring, ink, [], "①")] == ["78"]
    assert [w.text for w in _outside(Word("096", 90.0, 0, 10, 96, 50, (1, 1, 1)), ring, ink, [], "①")] == ["96"]
    ink[10:50, 46:200] = True
    # A word whose box starts past the ring's middle holds no reading of it ("Dom" glued to a ring Tesseract skipped).
    assert [w.text for w in _outside(Word("Dom", 90.0, 30, 10, 200, 50, (1, 1, 1)), ring, ink, [], "①")] == ["Dom"]
    # All of a word the ring's look-alike: nothing of it is text, whatever ink past the ring its box reaches over.
    assert _outside(Word("(3)", 90.0, 0, 10, 90, 50, (1, 1, 1)), ring, ink, [], "③") == []


def test_the_last_ring_of_a_page_read_as_a_label_out_of_sequence_is_the_label_the_sequence_leaves():
    # A dense Korean column sheet at 300 dpi: the page's last question read ① ② ③ ④ and then ⑤ as ② (38 %);
    # at the page's end "②" counted as leading whatever came next, and the question lost its options.
    from pipeline.extract.ocr.labelrings import Ring, by_sequence

    rows = [Ring(0, 60 * i, 40, 60 * i + 40) for i in range(10)]  # two questions, one option a line
    read = [(label, 95.0) for label in CIRCLED] * 2
    read[9] = ("②", 38.0)
    assert [label for label, _ in by_sequence(rows, read, CIRCLED)] == list(CIRCLED) * 2
    # A sequence cut short by the page's end (the next page goes on) stays as read.
    assert by_sequence(rows[:8], read[:8], CIRCLED) == read[:8]
    # With a ring lost before it, the last label read cannot be placed: kept as read.
    lost = read[:8] + [("⑤", 90.0)]
    assert by_sequence(rows[:9], lost, CIRCLED) == lost


@needs_tesseract("pol")
@pytest.mark.parametrize("dpi,blur,jpeg", [(150, 0.8, 70), (150, 0.4, 90)])
def test_a_150_dpi_sheet_of_rings_glued_to_their_options_reads_its_options(tmp_path, dpi, blur, jpeg):
    # Issue 27: `①zielonej` printed without a space. At 150 dpi the ring's ink touches the first letter's and
    # the blur greys the thin ring all round: v5 found no ring, and every question lost its options.
    from dataclasses import replace

    from pipeline.devkit import scriptscans

    family = replace(next(f for f in scriptscans.GLUED_TUNING if f.name == "pl-ring-glued"), questions=4)
    printed = scriptscans.printed_questions(family, scriptscans._vocabulary(family))
    sheet = scriptscans.sheet_pdf(tmp_path / "sheet.pdf", family, printed)
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=dpi, blur=blur, jpeg_quality=jpeg, noise=0.01, seed=family.seed)
    image = first_page(scan, DPI)
    read = read_page(image, OcrSettings(languages=("pol",), dpi=DPI, option_labels=CIRCLED), page_number=1)
    rings = sorted((w for w in read.words if w.text in CIRCLED), key=lambda w: w.top)
    # Every ring read as its label, in order; right of each, its option's first word as printed.
    assert [w.text for w in rings] == list(CIRCLED) * len(printed)
    after = [min((w for w in read.words if w.left >= ring.right and w.top < ring.bottom and ring.top < w.bottom),
                 key=lambda w: w.left).text for ring in rings]
    first_words = [option.split()[0] for q in printed for option in q.options]
    assert sum(a == f for a, f in zip(after, first_words)) >= 0.9 * len(first_words), list(zip(after, first_words))


def test_a_two_column_pages_rings_follow_each_column_where_a_gutter_parts_them():
    # A Korean page set in two columns (ko-2col, 200 dpi): read row by row across the page, the columns' rings
    # interleaved (① ① ② ② …) and a ⑤ read as ② at the foot of a left-column question was never mended.
    from pipeline.extract.ocr.labelrings import Ring, by_sequence
    from pipeline.extract.ocr.ringsequence import ring_gutters

    left = [Ring(300, 60 * i, 343, 60 * i + 43) for i in range(10)]  # two questions, one option a line
    right = [Ring(1350, 60 * i + 5, 1393, 60 * i + 48) for i in range(10)]
    rings = left + right
    read = [(label, 95.0) for label in CIRCLED] * 4
    read[4] = ("②", 58.0)  # the left column's first question's ⑤
    read[14] = ("②", 45.0)  # the right column's first question's ⑤
    words = [(360.0, 60.0 * i, 900.0, 60.0 * i + 40) for i in range(10)] + [(1410.0, 60.0 * i, 1900.0, 60.0 * i + 40) for i in range(10)]
    gutters = ring_gutters(rings, words)
    assert len(gutters) == 1 and 900 < gutters[0] < 1350
    assert [label for label, _ in by_sequence(rings, read, CIRCLED, gutters)] == list(CIRCLED) * 4
    # One column of prose running over the gap between the rings: no gutter, and rows as before.
    assert ring_gutters(rings, [*words, (100.0, 300.0, 1900.0, 340.0)]) == []


def test_a_ring_set_in_running_text_is_a_mark_not_a_label():
    # A stem marking its words with enclosed Hangul (`㉠ 고평석`, ko-2col): the mark's inside read as ④ and,
    # another mark unread right after, it took the ⑤ the sequence left. A ring a word space past a word is no label.
    from pipeline.extract.ocr.labelrings import Ring, by_sequence
    from pipeline.extract.ocr.ringsequence import in_running_text

    stem = [(0.0, 0.0, 250.0, 43.0), (300.0, 0.0, 500.0, 43.0), (560.0, 0.0, 700.0, 43.0)]  # words of the stem's line
    marks = [Ring(260, 0, 303, 43), Ring(510, 0, 553, 43)]  # a word space past a word each
    options = [Ring(40, 60 * (i + 1), 83, 60 * (i + 1) + 43) for i in range(5)]
    assert [in_running_text(r, stem) for r in marks] == [True, True]
    assert not any(in_running_text(r, stem) for r in options)
    read = [("④", 95.0), ("", 0.0)] + [(label, 95.0) for label in CIRCLED]
    # (`read_label_rings` hands it only the words holding a letter: a key's answer ring after its number, `1: ③`, is no mark.)
    inline = [True, True] + [False] * 5
    assert by_sequence(marks + options, read, CIRCLED, inline=inline) == [("", 0.0), ("", 0.0)] + read[2:]
    # Without its flag the mark took a label: the unread one the ⑤ between the read ④ and the next ①.
    assert by_sequence(marks + options, read, CIRCLED)[1] == ("⑤", 0.0)


def test_a_questions_last_label_goes_to_the_ring_under_its_labels_not_to_the_next_stems_mark():
    # ko-2col at 200 dpi: question 7's ⑤ read as ②, and question 8's stem opens with a mark (`8. ㉠`, its number
    # unread) read as ④: two rings where one label (⑤) was left, and the question lost its five options.
    from pipeline.extract.ocr.labelrings import Ring, by_sequence

    rings = [Ring(1355, 63 * i, 1398, 63 * i + 43) for i in range(5)]  # question 7's labels, one a line
    rings.append(Ring(1330, 63 * 5 + 20, 1373, 63 * 5 + 63))  # question 8's stem mark, at the stem's indent
    rings += [Ring(1357, 63 * (i + 7), 1400, 63 * (i + 7) + 43) for i in range(5)]  # question 8's labels
    read = [(label, 95.0) for label in CIRCLED] + [("④", 68.0)] + [(label, 95.0) for label in CIRCLED]
    read[4] = ("②", 45.0)
    assert by_sequence(rings, read, CIRCLED) == [*read[:4], ("⑤", 0.0), ("", 0.0), *read[6:]]
    # Both rings at the labels' edge: which is the label is not known, and both stay as read.
    rings[5] = Ring(1356, 63 * 5 + 20, 1399, 63 * 5 + 63)
    assert by_sequence(rings, read, CIRCLED) == read


@needs_tesseract("kor")
@needs_cjk_font
# Grey paper (a recycled sheet, a copy scanned dark): at 205 every pixel of the page is darker than the level ring ink
# is found under on white paper, so the whole page was one piece of ink and no ring was found (`ko-pairs` at
# 240/0.65/86/0.5/p205 read no option of its ten questions).
@pytest.mark.parametrize("scan", ["240/0.65/86/0/p205", "200/0.6/82/0/p190"])
def test_ringed_labels_on_grey_paper_read_as_the_spec_labels(tmp_path, scan):
    from pipeline.devkit.sample.scansetting import ScanSetting

    sheet = build_pdf(tmp_path / "sheet.pdf", [PageSpec(tuple(_ringed_sheet()))])
    scanned = ScanSetting.parse(scan).rasterise(sheet, tmp_path / "scan.pdf", seed=3)
    image = first_page(scanned, DPI)
    read = read_page(image, OcrSettings(languages=("kor",), dpi=DPI, option_labels=CIRCLED), page_number=1)
    words = sorted(read.words, key=lambda w: ((w.top + w.bottom) // 40, w.left))
    assert [w.text for w in words if w.text in CIRCLED][:10] == [*CIRCLED, *CIRCLED]


def test_a_page_is_lifted_to_white_only_where_its_paper_is_grey():
    import numpy as np

    from pipeline.extract.ocr.ringshapes import on_white

    white = np.full((40, 40), 250, dtype=np.uint8)
    white[10:20, 10:20] = 30
    assert on_white(white) is white  # white enough: the page as scanned
    grey = np.full((40, 40), 204, dtype=np.uint8)
    grey[10:20, 10:20] = 60
    lifted = on_white(grey)
    assert lifted[0, 0] == 255 and lifted[15, 15] == 75  # paper white, ink in proportion
    dark = np.full((40, 40), 90, dtype=np.uint8)
    assert on_white(dark) is dark  # no paper that dark: not lifted
