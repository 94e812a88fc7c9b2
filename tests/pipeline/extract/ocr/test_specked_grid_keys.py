"""Grid keys on specked and dusty scans: white numbers on dark fills over answer letters on pale fills (the INEP and FGV
keys) keep every number paired with its answer though dust specks the fills; a letter a speck turned into another
label is left unread and reported, never kept; and a grid's rule broken for a quarter inch still bounds its rows."""
from __future__ import annotations


import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from pipeline.devkit.keyscans import measure
from pipeline.devkit.sample.keysheets import filled_grid, grid_key
from pipeline.devkit.sample.pdfgen import build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr.bandspecks import band_specks
from pipeline.extract.ocr.gridcells import _one_glyph_one_label, _unlike_their_label
from pipeline.extract.ocr.tablebands import RULE_BREAK_INCHES, RULE_GAP_INCHES, _aligned_joins, _rules, table_bands
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import needs_tesseract, printed_grey

BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def test_specks_are_small_round_pieces_of_ink_and_a_dash_is_none():
    band = np.zeros((40, 200), dtype=bool)
    band[10:30, 20:32] = True  # a glyph
    band[10:30, 24:28] = False  # (its counter)
    band[18:21, 60:74] = True  # an annulled question's dash: flat
    band[5, 100] = band[33:35, 150:152] = band[20:23, 180:183] = True  # specks of one, four and nine pixels
    specks = band_specks(band)
    assert specks[5, 100] and specks[33:35, 150:152].all() and specks[20:23, 180:183].all()
    assert not specks[10:30, 20:32].any() and not specks[18:21, 60:74].any()
    assert not band_specks(band & ~specks).any()  # a band without specks comes back as it was


def _letters_page(printed: str, read_as: str, confs: list[float]) -> tuple[np.ndarray, list[Word]]:
    font = ImageFont.truetype(BOLD, 22)
    image = Image.new("L", (40 * len(printed) + 20, 60), 255)
    draw = ImageDraw.Draw(image)
    words = []
    for i, (letter, text, conf) in enumerate(zip(printed, read_as, confs)):
        draw.text((20 + 40 * i, 15), letter, font=font, fill=0)
        words.append(Word(text, conf, 16 + 40 * i, 12, 44 + 40 * i, 44, (1, 1, 1)))
    return np.asarray(image), words


def test_a_letter_read_as_another_label_whose_glyph_is_its_own_labels_is_left_unread():
    # A specked "D" read "B" at 58 (150 dpi, specks 0.008): the grid's sure "D"s and "B"s say which it is.
    printed = "DBDBDBDABDA"
    read_as = "DBDBDBDABBA"
    page, words = _letters_page(printed, read_as, [90.0] * 9 + [58.0, 90.0])
    assert _unlike_their_label(page, words, "ABCD") == {id(words[9])}
    same, same_words = _letters_page(printed, printed, [90.0] * 9 + [58.0, 90.0])
    assert _unlike_their_label(same, same_words, "ABCD") == set()  # read as printed: nothing taken


def test_a_cell_one_glyph_wide_read_as_two_labels_is_left_unread():
    read = [Word("D", 90.0, 0, 0, 1, 1, (0, 0, 0)), Word("DB", 46.0, 0, 0, 1, 1, (0, 0, 0)), Word("AC", 80.0, 0, 0, 1, 1, (0, 0, 0))]
    crops = [(0, 0, 14, 20), (50, 0, 64, 20), (100, 0, 128, 20)]  # the third as wide as two glyphs: "AC" printed
    assert [r.text if r else None for r in _one_glyph_one_label(read, crops)] == ["D", None, "AC"]


def test_pieces_of_a_rule_join_where_the_grids_other_rules_run_across_the_gap():
    dpi, wide = 200, round(0.3 * 200)
    one_table = [(100, 102, [(50, 400), (400 + wide, 900)]), (150, 152, [(50, 900)])]
    assert _aligned_joins(one_table, dpi)[0][2] == [(50, 900)]
    # Two tables side by side: no rule of either spans the white between them, nothing is joined.
    side_by_side = [(100, 102, [(50, 400), (400 + wide, 900)]), (150, 152, [(50, 400), (400 + wide, 900)])]
    assert _aligned_joins(side_by_side, dpi) == side_by_side
    # A rule below that spans the gap but ends elsewhere (a heading's underline, a longer frame) joins nothing.
    misaligned = [(100, 102, [(50, 400), (400 + wide, 900)]), (150, 152, [(20, 1100)])]
    assert _aligned_joins(misaligned, dpi)[0][2] == [(50, 400), (400 + wide, 900)]
    # Wider than `RULE_GAP_INCHES`: two rules.
    far = round((RULE_GAP_INCHES + 0.05) * dpi)
    apart = [(100, 102, [(50, 400), (400 + far, 900)]), (150, 152, [(50, 900)])]
    assert _aligned_joins(apart, dpi)[0][2] == [(50, 400), (400 + far, 900)]


def test_a_rule_broken_for_a_quarter_inch_still_bounds_its_row(tmp_path):
    # A gap of 0.23 in in a scanned grid's rule was left unjoined (`RULE_BREAK_INCHES` joins 0.1 in): its pieces each
    # spanned too little of the rule below to close a row, and the row's 20 questions were lost.
    sheet = grid_key(0)
    source = build_pdf(tmp_path / "key.pdf", sheet.pages)
    clean = np.asarray(printed_grey(source, tmp_path, 200))
    bands = table_bands(clean, 200)
    assert [len(b.cells) for b in bands] == [21] * 6
    rules = sorted(r for r in _rules(clean < 170, 200) if r[3] - r[2] > 1000)
    dusty = clean.copy()
    gap = round(0.25 * 200)
    assert gap > RULE_BREAK_INCHES * 200
    for index, where in ((3, 0.5), (5, 0.3)):  # over the second block, and the bottom rule of the third row
        top, bottom, left, right = rules[index]
        at = round(left + where * (right - left))
        dusty[top - 2:bottom + 2, at:at + gap] = 255
    assert [(b.top, b.bottom, b.cells) for b in table_bands(dusty, 200)] == [(b.top, b.bottom, b.cells) for b in bands]


@pytest.fixture(scope="module")
def specked_filled_grid(tmp_path_factory):
    folder = tmp_path_factory.mktemp("filledgrid")
    sheet = filled_grid(0)
    return sheet, measure(sheet, folder, ScanSetting.parse("150/0.75/72/0/s0.0025"))


@needs_tesseract("por")
def test_a_specked_dark_fill_grid_key_pairs_its_numbers_with_their_answers(specked_filled_grid):
    # White specks on the dark number fills turned to ink once the band was inverted and joined numbers in one cell
    # ("19 answers cannot be paired with 20 numbers"): 20 of 97 answers read. With specks taken out, nearly all.
    sheet, (score, table, _) = specked_filled_grid
    assert score.wrong == 0
    assert score.right >= 90, table.problems
    assert all(n in table.unread or n in table.named for n in sheet.truth if n not in table.answers)
