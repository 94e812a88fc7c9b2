"""Pieces of one word of wide glyphs (Korean syllables Tesseract read apart, on one line or on lines of
their own) are joined by their glyphs' pitch, and words a space apart stay apart."""
from __future__ import annotations

from pipeline.extract.ocr.widegaps import join_wide_glyph_pieces
from pipeline.extract.ocr.words import Word


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
