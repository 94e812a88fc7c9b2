"""Words of wide glyphs (Hangul, Han, kana) that Tesseract cut into pieces put back together by the pitch
of their glyphs. Tesseract's Korean data puts a space between syllables of one word now and then
(`경 수 로` for `경수로`, `려 야` for `려야`, on lines of their own), so the option read no longer
matched the sheet.

Printed Korean keeps a space between words, none between a word's syllables, and sets every syllable
on the same square: from one syllable's middle to the next's is one em within a word, one em and a
space across a word space. The white between two boxes says less (a narrow "려" leaves more white
beside it than a word space after a wide one). Between two neighbouring pieces on a row, the one ending
and the other starting with a wide glyph (Unicode East Asian width W or F; no script is named), the
distance from the middle of the left one's last glyph to the middle of the right one's first (each
piece's width shared evenly by its glyphs), in the page's wide-glyph heights, decides: under
`WORD_PITCH` they are one word. Measured on Noto Sans CJK at 150–300 dpi: 0.55–1.15 within a word,
1.25 and more across a word space.
"""
from __future__ import annotations

import unicodedata

from pipeline.extract.ocr.words import Word, joined_chains, same_row

WORD_PITCH = 1.2  # glyph middle to glyph middle, in wide-glyph heights, under which two pieces are one word
# The same where the script sets no word spaces (Japanese, Chinese: language data `word_spaces: false`): glyphs set
# solid stand one em apart (about 1.2 heights), glyphs across an ideographic space or a column's gap two em or more
# (2.3 heights and more). Only wide glyphs either side, as with word spaces: a digit or a Latin letter beside a wide
# glyph (`1.` before a Chinese stem, `A.` before an option) stays apart, its space is the parser's to read.
UNSPACED_PITCH = 1.7


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def wide_glyph_height(words: list[Word]) -> float:
    """The median height of words written in wide glyphs only (0: none on the page)."""
    heights = sorted(w.bottom - w.top for w in words if w.text and all(_wide(ch) for ch in w.text))
    return float(heights[len(heights) // 2]) if heights else 0.0


def join_wide_glyph_pieces(words: list[Word], unspaced: bool = False) -> list[Word]:
    """`words` with neighbouring pieces of one word of wide glyphs joined (see the module), on whatever
    Tesseract line each piece is: the joined word keeps the left one's place and line. `unspaced`: the page's
    script sets no word spaces, and pieces are joined up to `UNSPACED_PITCH`."""
    height = wide_glyph_height(words)
    if not height:
        return words
    pitch = UNSPACED_PITCH if unspaced else WORD_PITCH
    pieces = [w for w in words if w.text and (_wide(w.text[0]) or _wide(w.text[-1]))]
    follows: dict[int, Word] = {}  # id of a piece -> the piece of the same word right of it
    for left in pieces:
        beside = [w for w in pieces if w is not left and same_row(left, w) and w.left > left.left and w.left < left.right + height]
        if beside:
            right = min(beside, key=lambda w: w.left)
            if _wide(left.text[-1]) and _wide(right.text[0]) and _pitch(left, right) < pitch * height:
                follows[id(left)] = right
    return joined_chains(words, follows)[0]


def _pitch(left: Word, right: Word) -> float:
    """From the middle of `left`'s last glyph to the middle of `right`'s first, in pixels."""
    last = left.right - (left.right - left.left) / len(left.text) / 2
    first = right.left + (right.right - right.left) / len(right.text) / 2
    return first - last
