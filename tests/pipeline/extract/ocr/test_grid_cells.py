"""Scanned grid keys read cell by cell: white numbers on a dark fill over pale answer letters (the FGV
and INEP keys) come back as one word per cell, so the grid parser pairs them; a cell that stays
unreadable is marked in its place and reported for its question, never shifted onto a neighbour."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr import OcrSettings
from pipeline.extract.ocr.gridcells import (
    CELL_GAP, ROW_LABEL_WIDTH, _band, _cells, _filled_rows, _letter_sized, _numbered_run, _one_glyph_row, _under_numbers,
)
from pipeline.extract.ocr.words import Word
from pipeline.parse.gridkeys import read_grid
from pipeline.parse.keying import inferred_numbers
from pipeline.specs import KeySpec
from tests.pipeline.extract.ocr.builders import build, colour_scan, needs_tesseract

PITCH = 9.0  # mm
ROWS = ("DABDBABCBDADCDCBABBD", "DACDADBCCACDADACADDA", "BBDDADBBBCDCCBCCDCAA")
FILL, PALE = (96, 96, 96), (165, 165, 165)


def _grid_key(path: Path, rows: tuple[str, ...] = ROWS) -> Path:
    items = [TextBox("GABARITO DEFINITIVO", 15, 20, 120, size=12, bold=True)]
    for row, letters in enumerate(rows):
        y = 35 + 16 * row
        for i, letter in enumerate(letters):
            x = 12 + PITCH * i
            items.append(TextBox(str(1 + 20 * row + i), x, y, PITCH - 0.6, size=11, align="C", highlight=FILL, color=(255, 255, 255)))
            items.append(TextBox(letter, x, y + 7, PITCH - 0.6, size=11, align="C", color=PALE))
    return build(path, [PageSpec(tuple(items))])


@pytest.fixture(scope="module")
def scanned_key(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("gridkey")
    return colour_scan(_grid_key(folder / "key.pdf"), folder / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=2)


@needs_tesseract("por")
def test_a_scanned_grid_key_pairs_every_number_with_its_answer(scanned_key):
    options = ExtractOptions(ocr=OcrSettings(languages=("por",), dpi=200, option_labels=("A", "B", "C", "D")))
    document = extract_document(scanned_key, "5" * 64, options)
    tables = read_grid(document, KeySpec(kind="grid"), "key.pdf")
    table = tables[""]
    expected = {str(1 + 20 * row + i): letter for row, letters in enumerate(ROWS) for i, letter in enumerate(letters)}
    # Every answer read is right; a cell that stayed unreadable is reported for its question.
    assert table.answers == {n: a for n, a in expected.items() if n in table.answers}
    assert len(table.answers) >= 55, table.problems  # 57 of 60 on this scan; pale "C"s are the hardest cells
    assert not table.problems
    assert set(table.unread) == set(expected) - set(table.answers)
    assert UNREAD_CELL not in table.answers.values()


# Questions 7, 14 and 53 annulled: their cells hold a dash, which Tesseract reads as nothing.
ANNULLED_ROWS = ("DABDBA-CBDADC-CBABBD", "DACDADBCCACDADACADDA", "BBDDADBBBCDC-BCCDCAA")


@needs_tesseract("por")
def test_an_annulled_questions_dash_is_read_as_a_dash_in_its_column(tmp_path):
    scan = colour_scan(_grid_key(tmp_path / "key.pdf", ANNULLED_ROWS), tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4, seed=2)
    options = ExtractOptions(ocr=OcrSettings(languages=("por",), dpi=200, option_labels=("A", "B", "C", "D")))
    document = extract_document(scan, "6" * 64, options)
    table = read_grid(document, KeySpec(kind="grid"), "key.pdf")[""]
    assert {n: a for n, a in table.answers.items() if a == "-"} == {"7": "-", "14": "-", "53": "-"}
    expected = {str(1 + 20 * row + i): letter for row, letters in enumerate(ANNULLED_ROWS) for i, letter in enumerate(letters)}
    assert table.answers == {n: a for n, a in expected.items() if n in table.answers}  # no letter read as a dash


def _words(texts: list[str]) -> list[Word]:
    return [Word(t, 90.0, 10 * i, 0, 10 * i + 8, 10, (0, 0, 0)) for i, t in enumerate(texts)]


def test_a_number_breaking_the_rows_count_takes_the_one_that_fits():
    mended = _numbered_run(_words(["61", "62", "7", "64", "65", "16", "67", "6", "69", "70"]))
    assert [w.text for w in mended] == ["61", "62", "63", "64", "65", "66", "67", "68", "69", "70"]
    # Each number the run gave keeps what was read there: inferred, not read (a page note names its question).
    assert [(w.text, w.inferred_from) for w in mended if w.inferred_from is not None] == [("63", "7"), ("66", "16"), ("68", "6")]
    # Each stands between two cells read as the row counts: anchored (said at info, not flagged).
    assert all(w.inferred_anchored for w in mended if w.inferred_from is not None)
    # The first and last cells follow the run beside them, a run's ends: inferred, not anchored.
    first, last = _numbered_run(_words(["4", "22", "23", "24", "25"])), _numbered_run(_words(["17", "18", "19", "2"]))
    assert [w.text for w in first] == ["21", "22", "23", "24", "25"] and [w.text for w in last] == ["17", "18", "19", "20"]
    assert [(w.inferred_from, w.inferred_anchored) for w in (first[0], last[-1])] == [("4", False), ("2", False)]
    # Two misread neighbours leave no single number for either: they stay as read.
    assert [w.text for w in _numbered_run(_words(["1", "2", "7", "8", "5", "6"]))] == ["1", "2", "7", "8", "5", "6"]


@needs_tesseract("por")
def test_a_dark_banner_over_a_line_of_text_is_no_grid_and_its_text_is_kept(tmp_path):
    banner = TextBox("PROVA OBJETIVA EDIÇÃO 2031 CADERNO DE QUESTÕES", 12, 30, 186, size=12, highlight=FILL, color=(255, 255, 255))
    text = TextBox("Assinale a alternativa correta de acordo com a Constituição Federal.", 12, 38, 186, size=11)
    scan = colour_scan(build(tmp_path / "banner.pdf", [PageSpec((banner, text))]), tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.4)
    options = ExtractOptions(ocr=OcrSettings(languages=("por",), dpi=200, option_labels=("A", "B", "C", "D")))
    lines = [line.text for line in extract_document(scan, "6" * 64, options).pages[0].lines]
    assert any(line.startswith("Assinale a alternativa correta") for line in lines), lines


def test_each_number_gets_the_letter_in_its_column_and_a_gap_stays_a_gap():
    numbers = _words([str(n) for n in range(1, 11)])
    letters = [w for w in _words(list("DABDBABCBD")) if w.left != 40]  # the fifth box read as nothing
    aligned = _under_numbers(letters, numbers)
    assert [w.text for w in aligned] == ["D", "A", "B", "D", UNREAD_CELL, "A", "B", "C", "B", "D"]
    assert [(w.left + w.right) // 2 for w in aligned][4] == 44  # the gap keeps its column



def test_a_note_printed_under_the_last_answer_row_does_not_join_its_label_and_first_cell():
    """Revalida 2023/1: "- Anulada" stands under the last answer row, below its label and its first cell,
    inside the row's band; its ink joined "Gabarito" and the first letter into one group too wide for a
    cell, and question 81 came back unreadable."""
    band = np.zeros((100, 600), dtype=bool)
    band[0, :] = True  # the cell rule over the row
    band[30:60, 20:180] = True  # the row's label
    band[30:60, 240:270] = True  # the first letter
    band[30:60, 330:360] = True  # the second
    band[80:92, 60:300] = True  # the note under the row
    assert _cells(band, CELL_GAP) == [(20, 300), (330, 360)]  # the label, the note and the letter as one
    assert _cells(_one_glyph_row(band), CELL_GAP) == [(20, 180), (240, 270), (330, 360)]
    band[80:92] = False  # a row without a note is left as it is
    assert (_one_glyph_row(band) == band).all()
def test_a_cell_rule_read_as_nothing_beside_a_letter_never_takes_its_column():
    # A scanned FGV key: the row's cut took the thin rule right of some letters for a cell of its own,
    # which read as nothing. Placed in the row's order, that piece took the letter's column ("?" for 4 of
    # 20 answers, the letters left over) and the row was no answer row: 40 of 80 entries lost.
    numbers = _words([str(n) for n in range(21, 31)])
    letters = _words(list("DACDADBCCA"))
    pitch = numbers[1].left - numbers[0].left
    rules = [Word(UNREAD_CELL, -1.0, w.right + pitch // 3, w.top, w.right + pitch // 3 + 1, w.bottom, (0, 0, 0)) for w in letters[::3]]
    aligned = _under_numbers(sorted(letters + rules, key=lambda w: w.left), numbers)
    assert [w.text for w in aligned[:10]] == list("DACDADBCCA")
    assert [w.text for w in aligned[10:]] == [UNREAD_CELL]  # the rule past the last column: kept, for the parse stage to report


def test_a_column_with_nothing_read_keeps_its_unread_cell():
    numbers = _words([str(n) for n in range(1, 6)])
    letters = _words(list("ABCDA"))
    letters[2] = replace(letters[2], text=UNREAD_CELL, conf=-1.0)
    assert [w.text for w in _under_numbers(letters, numbers)] == ["A", "B", UNREAD_CELL, "D", "A"]


def test_a_rules_stub_read_as_a_dash_beside_a_letter_is_no_second_answer():
    numbers = _words([str(n) for n in range(41, 47)])
    letters = _words(list("BBDDAD"))
    stub = Word("-", 0.0, letters[1].right + 1, 0, letters[1].right + 2, 10, (0, 0, 0))
    aligned = _under_numbers(sorted([*letters, stub], key=lambda w: w.left), numbers)
    assert [w.text for w in aligned] == list("BBDDAD")
    dash_alone = [w if i != 3 else replace(w, text="-") for i, w in enumerate(letters)]  # an annulled question's dash
    assert [w.text for w in _under_numbers(dash_alone, numbers)] == list("BBD-AD")


def test_two_neighbouring_numbers_misread_together_take_the_numbers_their_places_give():
    # A scanned OAB key read "73 74" as "13 14": the row then gave two answers to questions 13 and 14
    # and lost its own 18 entries.
    read = ["61", "62", "63", "64", "65", "66", "67", "68", "69", "70", "71", "72", "13", "14", "75", "76", "77", "78", "79", "80"]
    mended = _numbered_run(_words(read))
    assert [w.text for w in mended] == [str(n) for n in range(61, 81)]
    assert [w.inferred_from for w in mended if w.inferred_from is not None] == ["13", "14"]
    # Side by side between 72 and 75 read as the row counts: two cells for two numbers, each cell's place is geometry,
    # so both are anchored (said at info); at the row's end they would not be.
    assert [w.text for w in mended if w.inferred_anchored] == ["73", "74"]
    at_end = _numbered_run(_words(read[:12] + ["13", "14"]))
    assert not any(w.inferred_anchored for w in at_end)


def test_a_row_end_whose_leading_digits_were_lost_takes_the_rows_count_and_never_moves_a_cell_read_right():
    # OAB 2016's key scanned at 175/0.7/75 read its last number row "... 76 77 18 19 80": the run's end rule took
    # "18 19" for the count and turned the 80 read right into 20, and 78 79 kept the numbers of questions 18 and 19.
    read = [str(n) for n in range(61, 78)] + ["18", "19", "80"]
    mended = _numbered_run(_words(read))
    assert [w.text for w in mended] == [str(n) for n in range(61, 81)]
    assert [(w.inferred_from, w.inferred_anchored) for w in mended if w.inferred_from is not None] == [("18", True), ("19", True)]
    # All three at the row's end: the count gives each its number (each units digit is its place's), unanchored
    # (a run's end: flagged unsure, a page note for each).
    at_end = _numbered_run(_words(read[:17] + ["18", "19", "20"]))
    assert [w.text for w in at_end[-3:]] == ["78", "79", "80"]
    assert [(w.inferred_from, w.inferred_anchored) for w in at_end[-3:]] == [("18", False), ("19", False), ("20", False)]
    # A reading whose units digit is not its place's is no lost digit: at the row's end it stays as read.
    assert [w.text for w in _numbered_run(_words(read[:17] + ["18", "19", "31"]))][-1] == "31"


# A four-row key whose last row's last three number cells hold only their units digit ("8" for 78), as OAB 2016's
# scanned key lost its "7"s (read "18 19 20" for 78 79 80): the row's count gives them their numbers.
LOST_DIGIT_ROWS = ("DABDBABCBDADCDCBABBD", "DACDADBCCACDADACADDA", "BBDDADBBBCDCCBCCDCAA", "CADBBDACDBCADABDCBAD")


def _lost_digit_key(path: Path) -> Path:
    items = [TextBox("GABARITO DEFINITIVO", 15, 20, 120, size=12, bold=True)]
    for row, letters in enumerate(LOST_DIGIT_ROWS):
        y = 35 + 16 * row
        for i, letter in enumerate(letters):
            x, number = 12 + PITCH * i, 1 + 20 * row + i
            printed = str(number % 10) if number > 77 else str(number)
            items.append(TextBox(printed, x, y, PITCH - 0.6, size=11, align="C", highlight=(30, 30, 30), color=(255, 255, 255), bold=True))
            items.append(TextBox(letter, x, y + 7, PITCH - 0.6, size=11, align="C", color=(120, 120, 120)))
    return build(path, [PageSpec(tuple(items))])


@needs_tesseract("por")
@pytest.mark.parametrize("setting", ["175/0.7/75", "200/0.6/80"])
def test_a_scanned_grid_rows_last_numbers_that_lost_their_leading_digit_are_keyed_by_the_rows_count(tmp_path, setting):
    scan = ScanSetting.parse(setting).rasterise(_lost_digit_key(tmp_path / "key.pdf"), tmp_path / "scan.pdf")
    options = ExtractOptions(ocr=OcrSettings(languages=("por",), dpi=300, option_labels=("A", "B", "C", "D")))
    document = extract_document(scan, "6" * 64, options)
    table = read_grid(document, KeySpec(kind="grid"), "key.pdf")[""]
    expected = {str(1 + 20 * row + i): letter for row, letters in enumerate(LOST_DIGIT_ROWS) for i, letter in enumerate(letters)}
    assert {n: table.answers.get(n) for n in ("78", "79", "80")} == {n: expected[n] for n in ("78", "79", "80")}
    # Questions 8, 9 and 10 keep their own answers, not the last row's.
    assert {n: table.answers.get(n) for n in ("8", "9", "10")} == {n: expected[n] for n in ("8", "9", "10")}
    # Numbers the count put in at a row's end are no reading: a page note each (`ocr.number_inferred`), keyed unsure.
    assert {"78", "79", "80"} <= inferred_numbers(document)


def test_a_row_that_does_not_count_up_is_not_renumbered():
    read = ["3", "9", "12", "4", "40", "7", "1", "2", "8", "30"]
    assert [(w.text, w.inferred_from) for w in _numbered_run(_words(read))] == [(t, None) for t in read]


# Annulled questions marked "-" (7) and "*" (14, 53) among pale letters.
MARKED_ROWS = ("DABDBA-CBDADC*CBABBD", "DACDADBCCACDADACADDA", "BBDDADBBBCDC*BCCDCAA")


@pytest.mark.parametrize("dpi, blur", [(150, 0.8), (200, 0.6), (300, 0.4)])
def test_only_a_cell_whose_ink_is_smaller_than_the_rows_letters_can_be_an_annulment_mark(tmp_path, dpi, blur):
    """A scanned FGV key: Tesseract, allowed the annulment marks, read a pale "C" as "*" and the question was
    recorded as annulled. On a generated grid scanned at each resolution, the answer rows found from their
    fills are measured: every letter's ink stands as tall as the row's letters, every mark's does not, so a
    mark read in a letter's cell is read again against the labels."""
    scan = colour_scan(_grid_key(tmp_path / "key.pdf", MARKED_ROWS), tmp_path / "scan.pdf", dpi=dpi, noise=0.02, blur=blur, seed=3)
    import pypdfium2 as pdfium
    document = pdfium.PdfDocument(str(scan))
    try:
        grey = np.asarray(document[0].render(scale=300 / 72).to_pil().convert("L"))
    finally:
        document.close()
    rows = _filled_rows(grey)
    assert len(rows) == len(MARKED_ROWS)
    for (_, answers), printed in zip(rows, MARKED_ROWS):
        left, top, right, bottom = answers
        band = _one_glyph_row(_band(grey, top, bottom, left, right)[0])
        cells = _cells(band, CELL_GAP)
        typical = float(np.median([r - l for l, r in cells]))
        cells = [(l, r) for l, r in cells if r - l <= ROW_LABEL_WIDTH * typical]
        # A dash is mostly too narrow for a cell (`_dashes` finds it by its shape); blurred at 150 dpi it is one.
        glyphs = list(printed) if len(cells) == len(printed) else [ch for ch in printed if ch != "-"]
        assert len(cells) == len(glyphs), (printed, cells)
        assert _letter_sized([band[:, l:r] for l, r in cells]) == [ch not in "-*" for ch in glyphs], printed



@needs_tesseract("por")
def test_a_scanned_grid_key_never_reads_a_letter_as_an_annulment_mark(tmp_path):
    scan = colour_scan(_grid_key(tmp_path / "key.pdf", MARKED_ROWS), tmp_path / "scan.pdf", dpi=200, noise=0.02, blur=0.6, quality=90,
                       seed=4)
    options = ExtractOptions(ocr=OcrSettings(languages=("por",), dpi=200, option_labels=("A", "B", "C", "D")))
    table = read_grid(extract_document(scan, "7" * 64, options), KeySpec(kind="grid"), "key.pdf")[""]
    expected = {str(1 + 20 * row + i): letter for row, letters in enumerate(MARKED_ROWS) for i, letter in enumerate(letters)}
    # Every entry read is the one printed: no letter became a mark, no mark a letter; what stayed unread is reported.
    assert table.answers == {n: a for n, a in expected.items() if n in table.answers}
    assert len(table.answers) >= 55, (table.answers, table.problems)
    assert set(table.unread) == set(expected) - set(table.answers)
    assert {n for n, a in table.answers.items() if a in "-*"} == {"7", "14", "53"}  # the marks, smaller than a letter, still read


def test_an_option_row_labelled_in_a_caseless_script_is_no_grid_key_row():
    # A Japanese option row with kana labels read word by word: half its letters are labels, as a glued key row's are,
    # and kana have no capitals to tell it from text. It is left to the parser; a row of kana answers is still one.
    from pipeline.extract.ocr.gridcells import _answer_rows, caseless_labels

    labels = ["ア", "イ", "ウ", "エ"]
    option_row = [Word(t, 90.0, 100 + 120 * i, 100, 200 + 120 * i, 130, (1, 1, 1))
                  for i, t in enumerate(["ア", "710年", "イ", "794年", "ウ", "1192年", "エ", "1603年"])]
    key_row = [Word("アイウエアイウエイア", 60.0, 100, 300, 1000, 330, (1, 2, 1))]
    assert caseless_labels(labels, ["jpn"]) and not caseless_labels(["A", "B", "C", "D"], ["jpn"])
    assert _answer_rows(option_row, labels, caseless=True) == []
    assert _answer_rows(option_row, labels) != []  # the share of a script with case: read as a key's row
    assert _answer_rows(key_row, labels, caseless=True) == [key_row]
    assert _answer_rows([replace(w, text=w.text.translate(str.maketrans("アイウエ", "ABCD"))) for w in key_row], ["A", "B", "C", "D"])
