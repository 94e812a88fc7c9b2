"""Option labels printed light on dark discs or squares are read as labels (see the scanned-sheet tests
in tests/pipeline/parse/test_scanned_repertoire.py); heavy dark type opening lines in a column, whose
letters are mostly counter or have none, is never taken for them."""
from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.devkit.sample.pdfgen import Line, PageSpec, Rect, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, read_page
from pipeline.extract.ocr.engine import parse_tsv, prepare_for_tesseract, render_page, run_tesseract
from pipeline.extract.ocr.labeldiscs import COLUMN_HEIGHTS, DISC_HEIGHTS, label_discs
from tests.pipeline.extract.ocr.builders import needs_tesseract

pytestmark = needs_tesseract("por")

DPI = 300
BOLD_LINES = ("O texto do edital", "O prazo de recurso", "0 recursos aceitos", "● item da lista", "D recurso final")
DISC_LINES = ("A", "B", "C", "D")


def _scanned(tmp_path, boxes, dpi: int = 200, blur: float = 0.4, jpeg: int = 80) -> tuple:
    sheet = build_pdf(tmp_path / "sheet.pdf", [PageSpec(tuple(boxes))])
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=dpi, noise=0.02, blur=blur, jpeg_quality=jpeg, seed=1)
    document = pdfium.PdfDocument(str(scan))
    try:
        image = render_page(document, 0, DPI)[0]
    finally:
        document.close()
    grey = prepare_for_tesseract(image, DPI)
    grey.save(tmp_path / "page.pgm", format="PPM")
    words = parse_tsv(run_tesseract(tmp_path / "page.pgm", ["por"], DPI, omp_thread_limit=1))
    return image, np.asarray(grey), words


def _text_height(words) -> float:
    heights = sorted(w.bottom - w.top for w in words if sum(ch.isalpha() for ch in w.text) >= 3)
    return heights[len(heights) // 2]


def test_bold_letters_digits_and_bullets_opening_lines_in_a_column_are_no_discs(tmp_path):
    boxes = [TextBox(text, 20, 20 + 9 * i, 150, size=14, bold=True) for i, text in enumerate(BOLD_LINES)]
    image, grey, words = _scanned(tmp_path, boxes)
    assert label_discs(grey, words, _text_height(words)) == []
    read = read_page(image, OcrSettings(languages=("por",), dpi=DPI, option_labels=DISC_LINES), page_number=1)
    assert [w.text for w in read.words][:3] == ["O", "texto", "do"]


@pytest.mark.parametrize("shape", ["square", "wide box"])
def test_light_labels_on_dark_boxes_in_a_column_are_discs(tmp_path, shape):
    width = 3.2 if shape == "square" else 4.5
    boxes = []
    for i, label in enumerate(DISC_LINES):
        boxes.append(TextBox(label, 21, 20 + 8 * i, width, size=9, bold=True, color=(255, 255, 255), highlight=(10, 10, 10), align="C"))
        boxes.append(TextBox(f"alternativa número {i + 1} do enunciado", 28, 20 + 8 * i, 140, size=10))
    _, grey, words = _scanned(tmp_path, boxes)
    text_height = _text_height(words)
    discs = label_discs(grey, words, text_height)
    assert len(discs) == 4
    assert [d.top for d in discs] == sorted(d.top for d in discs)
    assert max(d.left for d in discs) - min(d.left for d in discs) <= COLUMN_HEIGHTS * text_height
    assert all(DISC_HEIGHTS[0] * text_height <= d.bottom - d.top <= DISC_HEIGHTS[1] * text_height for d in discs)


def _column(*tops: int, left: int = 100) -> list:
    from pipeline.extract.ocr.labeldiscs import Disc

    return [Disc(left, top, left + 30, top + 30, (i, 1, 1)) for i, top in enumerate(tops)]


def _filled_column(read: dict[int, str]) -> list[str]:
    """The labels `_by_column_sequence` gives two questions' column of eight discs (A–D each) read as `read`."""
    from pipeline.extract.ocr.labeldiscs import _by_column_sequence

    discs = _column(100, 150, 200, 250, 400, 450, 500, 550)
    result = _by_column_sequence(discs, {i: (label, 90.0) for i, label in read.items()}, ["A", "B", "C", "D"], 30)
    return [result.get(i, ("", 0.0))[0] for i in range(len(discs))]


def test_unread_discs_take_the_labels_their_column_leaves_them():
    """Tesseract skipped the last two of sixteen clear discs in one strip (Revalida p. 12: A, B, ?, ?).
    A run of unread discs takes the labels the read ones either side pin down, and no other."""
    from pipeline.extract.ocr.labeldiscs import _by_column_sequence

    filled = _filled_column
    # the column's end after a read "B"; a run before the next question's "A"
    assert filled({0: "A", 1: "B", 4: "A", 5: "B", 6: "C", 7: "D"}) == ["A", "B", "C", "D"] * 2
    # a run that opens the column, before a read "C"; one between "B" and "D"
    assert filled({2: "C", 3: "D", 4: "A", 5: "B", 7: "D"}) == ["A", "B", "C", "D"] * 2
    # what the sides do not pin down stays unread: after "B", two unread before a read "B"
    assert filled({0: "A", 1: "B", 4: "B", 5: "C", 6: "D"}) == ["A", "B", "", "", "B", "C", "D", ""]
    # a run opening the column before "D" is two short of it; more unread than labels are left
    assert filled({2: "D", 3: "A", 4: "B"})[:2] == ["", ""]
    assert filled({0: "C", 1: "D"}) == ["C", "D", "", "", "", "", "", ""]
    # a column that never reads two labels in sequence (a key table's shaded number cells, now and
    # then read as "B") has only its pinned runs filled
    assert filled({0: "B", 4: "B"}) == ["B", "", "", "", "B", "", "", ""]
    assert filled({0: "B", 2: "D"}) == ["B", "C", "D", "", "", "", "", ""]
    # another column is another sequence
    other = _column(100, 150, 200, left=900)
    result = _by_column_sequence(_column(100, 150, 200) + other, {0: ("A", 90.0), 1: ("B", 90.0), 3: ("B", 90.0), 4: ("C", 90.0)}, ["A", "B", "C", "D"], 30)
    assert [result.get(i, ("", 0.0))[0] for i in range(6)] == ["A", "B", "C", "B", "C", "D"]


def test_unread_discs_after_a_questions_last_label_open_the_next_question():
    """On 200 dpi squares every serif "1" of a Turkish sheet went unread (1 ? 2 ... 5 ? 2 3 4 5): a run after the
    labels' last, before a read label as many places into the sequence as the run is long, opens the next question."""
    filled = _filled_column
    assert filled({0: "A", 1: "B", 2: "C", 3: "D", 6: "C", 7: "D"}) == ["A", "B", "C", "D"] * 2
    assert filled({1: "B", 2: "C", 3: "D", 5: "B", 6: "C", 7: "D"}) == ["A", "B", "C", "D"] * 2
    # after a label short of the last, the run may end that question or open the next: left unread
    assert filled({0: "A", 1: "B", 2: "C", 5: "C", 6: "D"})[3:5] == ["", ""]


def test_a_word_read_across_a_disc_keeps_only_what_lies_past_it():
    """Tesseract glued a Revalida disc, read as "O", to the option's first word, the article "A": "OA".
    The disc opens the line as its label, and the word keeps its part past the disc."""
    from pipeline.extract.ocr.labeldiscs import Disc, _past_disc, _starts_in
    from pipeline.extract.ocr.words import Word

    disc = Disc(135, 1745, 161, 1775, (6, 1, 1))
    glued = Word("OA", 82.8, 132, 1743, 228, 1776, (6, 1, 1))
    assert _starts_in(glued, disc)
    rest = _past_disc(glued, disc)
    assert (rest.text, rest.left, rest.right) == ("A", 180, 228)
    # a word wholly on the disc leaves nothing; the option's text beside it is not on the disc
    assert _past_disc(Word("O", 80.0, 134, 1745, 165, 1775, (6, 1, 1)), disc) is None
    assert not _starts_in(Word("incidência", 95.7, 282, 1746, 444, 1775, (8, 1, 1)), disc)


def test_a_disc_whose_letter_is_not_read_takes_its_columns_label_and_says_so_in_the_reading(tmp_path):
    # The third disc prints "%", which no label reads as: its column's sequence (A, B, _, D) leaves it C.
    boxes = []
    for i, printed in enumerate(["A", "B", "%", "D"]):
        boxes.append(TextBox(printed, 21, 20 + 8 * i, 3.2, size=9, bold=True, color=(255, 255, 255), highlight=(10, 10, 10), align="C"))
        boxes.append(TextBox(f"alternativa número {i + 1} do enunciado", 28, 20 + 8 * i, 140, size=10))
    image, _, _ = _scanned(tmp_path, boxes)
    read = read_page(image, OcrSettings(languages=("por",), dpi=DPI, option_labels=DISC_LINES), page_number=1)
    openings = [w.text for w in sorted(read.words, key=lambda w: w.top) if w.text in DISC_LINES]
    assert openings == ["A", "B", "C", "D"]
    assert read.notes == ("1 option label disc(s) not read, taken from their column's sequence: C",)


def _disc_sheet(labels, side: float, shape: str = "disc") -> list:
    """Options of 10.5 pt type whose labels are bold white letters filling 0.6 of a dark disc (or rounded square)
    `side` mm wide, a Revalida booklet's at 2.6 mm (0.7 em)."""
    boxes = []
    for i, label in enumerate(labels):
        y = 20 + 6 * i
        boxes.append(Rect(21, y + 2.05 - side / 2, side, side, fill=(20, 20, 20), stroke=None,
                          radius=side * 0.49 if shape == "disc" else side / 4))
        size = 0.6 * side * 72 / 25.4 / 0.73
        boxes.append(TextBox(label, 20, y + 2.05 - 0.55 * size / (72 / 25.4), side + 2, size=size, bold=True, color=(255, 255, 255), align="C"))
        boxes.append(TextBox(f"alternativa número {i + 1} do enunciado", 21 + side + 1.5, y, 140, size=10.5))
    return boxes


@pytest.mark.parametrize(("side", "dpi", "blur", "jpeg"), [(2.6, 150, 0.8, 70), (4.4, 200, 0.6, 80)])
def test_small_discs_on_a_soft_150_dpi_scan_are_found_and_read_as_their_labels(tmp_path, side, dpi, blur, jpeg):
    """At 150 dpi with blur a 0.7 em disc's letter is a stroke a scan pixel or two wide, blurred grey (a "C" 2 % of
    its disc white): the disc is found by what its fill encloses lighter than ink, and its letter read however grey.
    Before, at 150 dpi no disc of these was taken, and no option of Revalida's booklet was read."""
    labels = ("A", "B", "C", "D", "E")
    boxes = _disc_sheet(labels, side)
    image, grey, words = _scanned(tmp_path, boxes, dpi, blur, jpeg)
    text_height = _text_height(words)
    discs = label_discs(grey, words, text_height)
    assert len(discs) == len(labels)
    assert all(DISC_HEIGHTS[0] * text_height <= d.bottom - d.top <= DISC_HEIGHTS[1] * text_height for d in discs)
    read = read_page(image, OcrSettings(languages=("por",), dpi=DPI, option_labels=labels), page_number=1)
    lines: dict = {}
    for word in read.words:
        lines.setdefault(word.line, []).append(word)
    openings = [min(ws, key=lambda w: w.left).text for ws in sorted(lines.values(), key=lambda ws: ws[0].top)]
    assert openings == list(labels)
    # At 150 dpi a bold "B" 1.6 mm tall has no counters left and may go unread: its column's sequence gives it,
    # and the reading says so; every other label is read from its own letter.
    inferred = [str(note) for note in read.notes]
    assert all("taken from their column's sequence: B" in note for note in inferred) and (dpi == 150 or not inferred)


def _option_sheet(texts, side: float = 2.6) -> list:
    """`_disc_sheet`'s discs, labelled A, B, …, before the option texts `texts`."""
    labels = "ABCDE"[: len(texts)]
    boxes = [b for b in _disc_sheet(labels, side) if not (isinstance(b, TextBox) and b.text.startswith("alternativa"))]
    for i, text in enumerate(texts):
        boxes.append(TextBox(text, 21 + side + 1.5, 20 + 6 * i, 140, size=10.5))
    return boxes


def _reading_as(words, word, first_left: int):
    """`words` with `word`'s box stretched left to `first_left` (onto its disc) and what was read left of it in its
    line gone, as Tesseract boxes a disc and a line's first word read as one."""
    from dataclasses import replace as moved

    return [moved(w, left=first_left) if w is word else w for w in words if not (w.line == word.line and w.right <= word.left)]


def test_a_disc_read_as_one_word_with_a_long_first_word_is_still_found(tmp_path):
    """At 175 dpi Tesseract read a Revalida disc and the option's first word as one word, "orientar", boxed from the
    disc's left edge: only the ink left of a long first word was searched, the disc was not found, and its question
    lost every option. A long first word's first text heights are searched too."""
    texts = ("orientar o rastreio indicado", "iniciar o rastreio indicado", "avaliar a necessidade", "discutir o rastreio")
    _, grey, words = _scanned(tmp_path, _option_sheet(texts), 200, 0.6, 80)
    text_height = _text_height(words)
    found = label_discs(grey, words, text_height)
    assert len(found) == 4
    first = min(found, key=lambda d: d.top)
    opener = next(w for w in words if w.text == "orientar")
    glued = _reading_as(words, opener, first.left - 1)
    assert min((w for w in glued if w.line == opener.line), key=lambda w: w.left).text == "orientar"
    again = label_discs(grey, glued, text_height)
    assert [(d.left, d.top) for d in again] == [(d.left, d.top) for d in found]


def test_a_first_word_boxed_on_its_disc_stays_and_a_look_alike_goes(tmp_path):
    """Tesseract read a blurred disc as nothing and boxed the line's first word on it ("A" of "A distribuição" at
    175 dpi): the pass took it for the disc's misreading and the option lost its first word. A word on a disc stays
    where the ink past the disc, read again, is that word and the next; a look-alike ("O", the disc itself) goes."""
    from dataclasses import replace as moved

    from pipeline.extract.ocr.labeldiscs import read_label_discs
    from PIL import Image

    texts = ("A distribuição das taxas", "Na tricomoníase o corrimento", "Os exames mostram", "Um paciente idoso")
    _, grey, words = _scanned(tmp_path, _option_sheet(texts), 200, 0.6, 80)
    text_height = _text_height(words)
    discs = sorted(label_discs(grey, words, text_height), key=lambda d: d.top)
    assert len(discs) == 4
    # Line A: its "A" boxed on the disc, as Tesseract did. Line D: a look-alike "O" on the disc before "Um".
    article = next(w for w in words if w.text == "A" and w.left > discs[0].right and abs(w.top - discs[0].top) < text_height)
    um = next(w for w in words if w.text == "Um")
    words = [moved(w, left=discs[0].left + 2, right=discs[0].right - 2) if w is article else w for w in words]
    words.append(moved(um, text="O", left=discs[3].left, right=discs[3].right))
    read, _ = read_label_discs(Image.fromarray(grey), words, "ABCD", text_height, ("por",), DPI, 1)
    lines = {}
    for w in sorted(read, key=lambda w: w.left):
        lines.setdefault(w.line, []).append(w.text)
    openings = sorted((ws for ws in lines.values() if ws[0] in "ABCD"), key=lambda ws: ws[0])
    assert [ws[:3] for ws in openings][0] == ["A", "A", "distribuição"]
    assert openings[3][:2] == ["D", "Um"]


def test_a_tall_ghost_over_a_column_of_discs_goes():
    """Tesseract read two of a question's discs, one above the other, as one glyph "oo" four text heights tall; left
    in, it joined its options' lines into one. A short word taller than any disc beside read discs goes; a word of
    the text's height there, or a tall one away from the discs, stays."""
    from pipeline.extract.ocr.labeldiscs import _column_ghosts
    from pipeline.extract.ocr.words import Word

    discs = _column(3044, 3135, 3225, 3316, left=133)
    ghost = Word("oo", 64.0, 132, 3042, 164, 3166, (15, 1, 1))
    edge = Word("o", 64.0, 162, 3224, 192, 3371, (15, 1, 1))
    article = Word("A", 96.0, 207, 3044, 228, 3073, (3, 1, 1))
    figure = Word("I", 90.0, 900, 3042, 930, 3300, (16, 1, 1))
    assert _column_ghosts([ghost, edge, article, figure], discs, 29.0) == [ghost, edge]


def _grid_key_with_white_numbers_on_dark_rows() -> PageSpec:
    """Two key tables (Tipo 1, Tipo 2) as FGV prints OAB's: each a dark bar of white numbers 21–40 and 41–60,
    ruled white between the cells, over a row of pale answer letters. The "4" of each table's "41" opens a
    line at the same left edge: a heavy glyph round one light counter, the shape of a label disc, in a column."""
    cell, row, size = 9.5, 7.0, 14
    lift = (row - size * 0.3528 * 1.2) / 2
    items: list = [TextBox("CONSELHO FEDERAL DA ORDEM DOS ADVOGADOS DO BRASIL", 30, 14, 160, size=11),
                   TextBox("Exame de Ordem Unificado - gabaritos preliminares das provas objetivas", 30, 20, 160, size=11)]
    for table in range(2):
        items.append(TextBox(f"EXAME UNIFICADO - TIPO {table + 1}", 6, 32 + 40 * table, 150, size=14, bold=True))
        for band in range(2):
            y = 40 + 40 * table + 2 * row * band
            items.append(Rect(6, y, 20 * cell, row, fill=(85, 85, 85), stroke=None))
            for i in range(20):
                x, number = 6 + cell * i, 21 + 20 * band + i
                items += [TextBox(str(number), x + 0.8, y + lift, cell - 1, size=size, font="DejaVuSansMono", color=(255, 255, 255)),
                          Rect(x, y + row, cell, row, fill=None, stroke=(150, 150, 150), line_width=0.2),
                          TextBox("ABCD"[number * 7 % 4], x, y + row + lift, cell, size=size, bold=True, align="C", color=(165, 165, 165))]
                if i:
                    items.append(Line(x, y, x, y + row, color=(255, 255, 255), width=0.25))
    return PageSpec(tuple(items))


def test_a_disc_found_on_the_first_digit_of_a_grid_keys_number_is_a_number_cell(tmp_path):
    """label-discs v7: a disc found on the first glyph of a number of two or more digits is the number's
    cell, never a label. On this key scanned at 175 dpi (blur 0.7, JPEG 75) both tables' "4" of "41" are
    found as discs and one is read as "A": without the rule the row opened "A 1 42 43 …", question 41's
    number was lost and the answer row under it had no number to key."""
    sheet = build_pdf(tmp_path / "key.pdf", [_grid_key_with_white_numbers_on_dark_rows()])
    scan = rasterize_pdf(sheet, tmp_path / "scan.pdf", dpi=175, noise=0.02, blur=0.7, jpeg_quality=75, seed=1, colour=True)
    document = pdfium.PdfDocument(str(scan))
    try:
        image = render_page(document, 0, DPI)[0]
    finally:
        document.close()
    read = read_page(image, OcrSettings(languages=("por",), dpi=DPI, option_labels=DISC_LINES), page_number=1)
    lines: dict = {}
    for word in read.words:
        lines.setdefault(word.line, []).append(word.text)
    number_rows = [texts for texts in lines.values() if texts[-1] in ("40", "60")]
    assert [texts[:2] for texts in number_rows] == [["21", "22"], ["41", "42"], ["21", "22"], ["41", "42"]]
    assert not [texts for texts in lines.values() if texts[0] in DISC_LINES and len(texts) > 1 and texts[1].isdecimal()]
