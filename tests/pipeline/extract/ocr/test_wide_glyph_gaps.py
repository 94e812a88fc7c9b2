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
