"""Letters read where the scan holds no letter: a one- or two-letter "word" standing apart in a row's wide gap whose
box holds no ink, or only a speck's.

Options set side by side on one row (`A) … B) … C) …`) leave wide gaps of white between their cells; on a noisy scan
Tesseract reads a round letter into such a gap (Turkish `veriyorsunuz o` before `D)`, confidence 0–55): its box, 17–21
px wide at 300 dpi, holds no pixel of ink at all. A letter of any script is a stroke at least half the type's x-height
tall, so what decides is the ink inside the box, never the letter read: a word of one or two letters whose box holds
no ink, or ink no larger each way than SPECK_MAX_HEIGHT of its height (a speck, no stroke), and that stands apart from
the words either side of it by at least APART_SPACES of its line's word space (`words.word_spaces`), is dropped.
One-letter words (`a`, `o`, `i`, `w`, `z`, `y`) are printed ink and stay wherever they stand; so does a word the second
recogniser read alike at its place (`Word.second`), whatever its box holds (a box Tesseract drew beside its ink).

Ink is any print, pale print included: the page prepared but not whitened (`engine.prepared_before_whitening`: paper
evened, grain smoothed) darker than `specks.STROKE_INK_BELOW`, never only the black the page's `ink` mask holds. A key
grid prints its answers pale grey under the numbers' dark bars (165 grey, the FGV and INEP keys): the mask held none
of their ink and every answer the grid-cell pass wrote stood apart in an "empty" box and was dropped. The ghosts' boxes
are no darker than 231 there. And the height a speck is measured by is the smaller of the page's text height and the
word's own box (a letter's ink spans the box Tesseract or a cell pass drew round it; a ghost's box holds none): on a
key page the words of 3+ letters are a heading and junk, whose median height (399 px on a 300 dpi list key) made a
whole answer letter speck-sized.
"""
from __future__ import annotations

import numpy as np

from pipeline.extract.ocr.specks import STROKE_INK_BELOW
from pipeline.extract.ocr.words import Word, word_spaces, words_by_line

STRAY_MAX_LETTERS = 2
SPECK_MAX_HEIGHT = 0.3  # of the text height (the page's, or the word's box where that is lower), each way
APART_SPACES = 1.0  # the line's word spaces of white between the word and its neighbours, on each side
INK_BELOW = STROKE_INK_BELOW  # grey level under which a pixel of the unwhitened page is ink, pale print's included


def stray_letters(words: list[Word], page: np.ndarray, typical_height: float) -> tuple[list[Word], list[str]]:
    """`words` less the letters read where the scan holds no letter's ink, and those letters' texts. `page`: the grey
    page prepared but not whitened (`engine.prepared_before_whitening`), in the words' frame."""
    if not typical_height:
        return words, []
    spaces = word_spaces(words)
    stray: set[int] = set()
    for key, members in words_by_line(words).items():
        ordered = sorted(members, key=lambda w: w.left)
        space = spaces.get(key, 0.0) or 0.3 * typical_height
        for at, word in enumerate(ordered):
            if not (0 < len(word.text) <= STRAY_MAX_LETTERS and word.text.isalpha()) or word.second == word.text:
                continue
            before = word.left - ordered[at - 1].right if at > 0 else None
            after = ordered[at + 1].left - word.right if at + 1 < len(ordered) else None
            if any(gap is not None and gap < APART_SPACES * space for gap in (before, after)):
                continue
            if speck_only(page, word, typical_height):
                stray.add(id(word))
    return [w for w in words if id(w) not in stray], [w.text for w in words if id(w) in stray]


def speck_only(page: np.ndarray, word: Word, typical_height: float) -> bool:
    """Whether `word`'s box on the grey `page` holds no ink (`INK_BELOW`), or ink no larger each way than a speck:
    SPECK_MAX_HEIGHT of the text height, or of the box's height where that is lower."""
    box = page[max(word.top, 0) : max(word.bottom, 0), max(word.left, 0) : max(word.right, 0)] < INK_BELOW
    rows, columns = np.nonzero(box)
    if rows.size == 0:
        return True
    limit = SPECK_MAX_HEIGHT * min(typical_height, max(word.bottom - word.top, 1))
    return bool(rows.max() - rows.min() + 1 <= limit and columns.max() - columns.min() + 1 <= limit)
