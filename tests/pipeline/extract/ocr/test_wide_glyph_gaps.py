"""Pieces of one word of wide glyphs (Korean syllables Tesseract read apart, on one line or on lines of
their own) are joined by their glyphs' pitch, and words a space apart stay apart."""
from __future__ import annotations

import numpy as np
import pytest

from pipeline.extract.ocr.widegaps import full_width_digits, join_wide_glyph_pieces, lost_glyph_ends, stacked_readings
from pipeline.devkit.sample.pdfgen import cjk_font
from pipeline.extract.ocr.words import Word
from tests.pipeline.extract.ocr.builders import first_page, needs_tesseract


def _word(text: str, left: int, right: int, line: tuple[int, int, int] = (1, 1, 1), top: int = 100) -> Word:
    return Word(text, 90.0, left, top, right, top + 40, line)


def test_syllables_one_em_apart_are_one_word_and_a_word_space_keeps_words_apart():
    # Measured on a 200 dpi scan read at 300 dpi: syllables 40 px tall, one em (44 px) from middle to middle.
    words = [_word("경", 364, 395), _word("수", 408, 439), _word("로", 445, 479, line=(30026, 0, 0)),
             _word("계신다", 520, 642), _word("새재", 695, 775)]
    assert [w.text for w in join_wide_glyph_pieces(words)] == ["경수로", "계신다", "새재"]


def test_a_narrow_syllable_with_white_beside_it_is_still_one_words_piece():
    # "려" leaves more white after it (14 px) than a word space after a wide syllable; its pitch does not.
    words = [_word("려", 752, 784, line=(30002, 0, 0)), _word("야", 798, 828), _word("마이즈", 880, 1000)]
    joined = join_wide_glyph_pieces(words)
    assert [w.text for w in joined] == ["려야", "마이즈"]
    assert (joined[0].left, joined[0].right) == (752, 828)


def test_latin_words_and_digits_beside_wide_glyphs_are_left_as_they_are():
    words = [_word("72", 300, 330), _word("배", 340, 372), _word("word", 400, 470), _word("next", 478, 540)]
    assert join_wide_glyph_pieces(words) == words


def test_in_a_script_without_word_spaces_pieces_an_em_and_more_apart_are_one_word():
    # Japanese set solid, read at 300 dpi: glyphs 40 px tall, 48 px middle to middle, pieces Tesseract set apart with
    # a glyph's white less between them (`川 の流れが`); an ideographic space (two em) still parts two words.
    words = [_word("川", 300, 340), _word("の流れが", 354, 532), _word("速く", 540, 620), _word("短い", 716, 796)]
    assert [w.text for w in join_wide_glyph_pieces(words)] == ["川", "の流れが", "速く", "短い"]  # with word spaces: apart
    assert [w.text for w in join_wide_glyph_pieces(words, unspaced=True)] == ["川の流れが速く", "短い"]


def test_without_word_spaces_a_digit_or_a_latin_label_beside_a_glyph_stays_apart():
    words = [_word("1.", 300, 330), _word("已知", 340, 420), _word("A.", 500, 530), _word("集合", 540, 620)]
    assert join_wide_glyph_pieces(words, unspaced=True) == words


def test_a_glyph_read_apart_inside_a_words_box_with_room_for_it_is_that_words_end():
    # A 200 dpi Japanese scan: `利根` boxed three glyphs wide (83 px over a 28 px row), and its `川` read apart at
    # confidence 45 in a box 49 px tall, which `noise` would drop as a pictogram.
    host = Word("利根", 91.0, 280, 321, 363, 349, (1, 1, 1))
    lost = Word("川", 45.0, 344, 316, 365, 365, (1, 1, 2))
    joined = lost_glyph_ends([host, lost, _word("信濃川", 600, 683, top=321)])
    assert [w.text for w in joined] == ["利根川", "信濃川"]
    assert (joined[0].top, joined[0].bottom, joined[0].right, joined[0].conf) == (321, 349, 365, 45.0)


def test_a_glyph_read_twice_is_not_joined_to_a_word_with_no_room_for_it():
    # `信濃川` read whole, boxed three glyphs wide: a `川` read again over its end is a duplicate, left for `noise`.
    host = Word("信濃川", 92.0, 600, 321, 683, 349, (1, 1, 1))
    again = Word("川", 9.0, 665, 316, 681, 364, (1, 1, 2))
    assert lost_glyph_ends([host, again]) == [host, again]


def test_a_glyph_beside_a_word_or_a_latin_word_around_it_is_not_taken():
    beside = Word("川", 45.0, 370, 316, 395, 365, (1, 1, 2))  # right of the box: `wide-glyph-gaps` judges it by its pitch
    latin = Word("word", 91.0, 280, 321, 400, 349, (1, 1, 1))
    inside_latin = Word("川", 45.0, 344, 316, 365, 365, (1, 1, 2))
    host = Word("利根", 91.0, 280, 321, 363, 349, (1, 1, 1))
    assert lost_glyph_ends([host, beside]) == [host, beside]
    assert lost_glyph_ends([latin, inside_latin]) == [latin, inside_latin]


def test_a_glyph_read_apart_from_inside_a_word_goes_back_to_its_place():
    # `農業は行われていない。` read as `農業行われていない。` over the whole width and `は` apart over its third cell.
    host = Word("農業行われていない。", 88.0, 280, 321, 588, 349, (1, 1, 1))
    lost = Word("は", 30.0, 338, 316, 362, 362, (1, 1, 2))
    assert [w.text for w in lost_glyph_ends([host, lost])] == ["農業は行われていない。"]


def test_a_box_holding_another_word_has_no_room_for_a_glyph():
    # `第２問`: Tesseract boxed `第` over the digit too, and read `問` apart inside that box.
    host = Word("第", 90.0, 280, 321, 363, 349, (1, 1, 1))
    digit = Word("2", 90.0, 318, 322, 332, 349, (1, 1, 1))
    lost = Word("問", 40.0, 340, 316, 365, 362, (1, 1, 2))
    assert lost_glyph_ends([host, digit, lost]) == [host, digit, lost]


def test_a_short_piece_stacked_over_a_surer_word_with_no_room_is_that_words_ink_read_twice():
    # The `scripts` set's Korean grid at 200 dpi: `무언` (97) boxed 75 px over a 40 px row, and a `므` (65) read again
    # over its upper half, 17 px tall, on a Tesseract line of its own: joined by its pitch, it read `무언므`.
    host = Word("무언", 97.0, 1654, 312, 1729, 352, (4, 1, 2))
    junk = Word("므", 65.0, 1658, 314, 1686, 331, (4, 1, 1))
    kept, dropped = stacked_readings([junk, host])
    assert kept == [host] and dropped == [(junk, host)]
    assert [w.text for w in join_wide_glyph_pieces([host, junk])] == ["무언므"]  # what its pitch alone made of it


def test_a_stacked_piece_is_kept_where_the_box_has_room_or_the_piece_is_surer_or_full_height():
    # ko-row's sheet at 200 dpi: `탄` read at confidence 0 in a box two glyphs wide, and its word's `다` read at 97 in a
    # taller box inside it: the real glyph, joined on by its pitch (`탄다`).
    tan, da = Word("탄", 0.0, 1526, 1776, 1603, 1817, (7, 4, 1)), Word("다", 97.0, 1572, 1772, 1608, 1834, (7, 4, 1))
    assert stacked_readings([tan, da]) == ([tan, da], [])
    assert [w.text for w in join_wide_glyph_pieces([tan, da])] == ["탄다"]
    room = Word("무언", 97.0, 1654, 312, 1760, 352, (4, 1, 2))  # 2.65 cells: room for a third glyph (`lost_glyph_ends`)
    host = Word("무언", 97.0, 1654, 312, 1729, 352, (4, 1, 2))
    junk = Word("므", 65.0, 1658, 314, 1686, 331, (4, 1, 1))
    surer = Word("므", 98.0, 1658, 314, 1686, 331, (4, 1, 1))
    tall = Word("므", 65.0, 1658, 312, 1686, 350, (4, 1, 1))
    latin = Word("word", 97.0, 1654, 312, 1729, 352, (4, 1, 2))
    for words in ([junk, room], [surer, host], [tall, host], [junk, latin]):
        assert stacked_readings(words) == (words, [])


def _drawn(pieces: list[str], dpi: int, blur: float) -> tuple[np.ndarray, list[Word]]:
    """`pieces` drawn solid in Noto Sans CJK JP at 10.5 pt, scanned at `dpi` with `blur` and rendered at 300 dpi; each
    piece a word boxed on its ink, as Tesseract reads `７１０年` (`710`, `年`)."""
    from PIL import Image, ImageDraw, ImageFilter, ImageFont

    path = cjk_font()
    if path is None:
        pytest.skip("fonts-noto-cjk is not installed")
    size = 44  # 10.5 pt at 300 dpi
    font = ImageFont.truetype(str(path), size, index=0)
    image = Image.new("L", (40 + 2 * size * sum(len(p) for p in pieces), 3 * size), 255)
    draw = ImageDraw.Draw(image)
    words, x = [], 20
    for piece in pieces:
        box = [int(v) for v in draw.textbbox((x, 2 * size), piece, font=font, anchor="ls")]
        draw.text((x, 2 * size), piece, font=font, fill=0, anchor="ls")
        words.append(Word(piece.translate(str.maketrans("０１２３４５６７８９", "0123456789")), 90.0, *box, (1, 1, 1)))
        x = int(x + draw.textlength(piece, font=font))
    scanned = image.resize((image.width * dpi // 300, image.height * dpi // 300), Image.Resampling.BOX).filter(ImageFilter.GaussianBlur(blur))
    return np.asarray(scanned.resize(image.size, Image.Resampling.BILINEAR)) < 128, words


@pytest.mark.parametrize("scan", [(150, 0.8), (200, 0.6), (300, 0.4)], ids=lambda s: f"{s[0]}dpi")
def test_digits_set_full_width_are_told_from_plain_digits_by_their_pitch(scan):
    # Tesseract reads `７１０年` as `710` and `年`; the digits stand a glyph's cell apart, plain ones half a cell.
    ink, words = _drawn(["７１０", "年", "の", "１１９２", "年", "と", "2031", "年", "の", "5", "問"], *scan)
    read = [w.text for w in full_width_digits(words, ink)]
    assert read == ["７１０", "年", "の", "１１９２", "年", "と", "2031", "年", "の", "5", "問"]
    assert [w.text for w in join_wide_glyph_pieces(full_width_digits(words, ink), unspaced=True)] == ["７１０年の１１９２年と", "2031", "年の", "5", "問"]


def test_a_box_reaching_over_its_neighbours_takes_none_of_them():
    # Tesseract boxed `農業` over seven cells, the glyphs after it read as pieces of their own inside that box.
    host = Word("農業", 96.0, 280, 1808, 480, 1836, (1, 1, 1))
    pieces = [Word("は", 50.0, 338, 1806, 362, 1840, (1, 1, 2)), Word("行わ", 50.0, 366, 1806, 420, 1840, (1, 1, 2))]
    assert lost_glyph_ends([host, *pieces]) == [host, *pieces]
    assert lost_glyph_ends([host, pieces[0]]) == [host, pieces[0]]  # alone: room for five more glyphs, not one


@needs_tesseract("kor")
@pytest.mark.skipif(cjk_font() is None, reason="Noto Sans CJK (fonts-noto-cjk) not installed")
def test_on_the_scripts_sets_korean_grid_scan_a_syllable_read_twice_is_not_joined_on(tmp_path):
    # ko-grid's sheet as the `scripts` flag set scans it (200 dpi, blur 0.6, JPEG 80): question 1's option ③ `무언` was
    # read whole and a `므` again over its upper half; joined by its pitch, the option read `무언므`.
    from pipeline.devkit import scriptscans
    from pipeline.devkit.ocrcertainty import SCRIPT_SCAN
    from pipeline.extract import ExtractOptions
    from pipeline.extract.ocr import read_page

    family = next(f for f in scriptscans.CHECKING if f.name == "ko-grid")
    printed = scriptscans.printed_questions(family, scriptscans._vocabulary(family))
    assert "무언" in printed[0].options
    scan = SCRIPT_SCAN.rasterise(scriptscans.sheet_pdf(tmp_path / "sheet.pdf", family, printed), tmp_path / "scan.pdf", seed=family.seed)
    settings = ExtractOptions.from_spec(scriptscans.family_spec(family)).ocr
    page = first_page(scan, settings.dpi)
    reading = read_page(page, settings, page_number=1)
    read = [w.text for w in reading.words]
    assert "무언" in read and not any(text.startswith("무언") and text != "무언" for text in read)
    assert any("'므' over '무언'" in note for note in reading.notes)
