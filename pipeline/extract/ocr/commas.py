"""A comma read as a period where a small letter follows and the mark hangs below the line (`Exterior. los` →
`Exterior, los`).

On soft scans (150–200 dpi, blur 0.8) a comma's tail fades and Tesseract reads the comma as a period: on the
corpus sheets rasterised by `python -m pipeline.devkit.misreads` it was the commonest error inside words that
were otherwise read right (Spanish `Exterior.`, Slovak `hory.`, `dýchanie.`, Polish `licencję.`), and each
costs an option read exactly. Two features tell the marks apart in any script that has capitals, not the
words of one language:
- the context: a sentence's period is followed by a capital; a word of small letters after a period on the
  same line follows a comma or an abbreviation (`etc.`, `art.`), so only a word of at least MIN_LETTERS
  letters ending in `.` is judged, and only where the next word on its line starts with a small letter (a
  label such as `b)` is no word);
- the shape: a period sits on the baseline, a comma's tail hangs below it. The mark's lowest faint ink
  on the page as scanned (grey under FAINT_BELOW, where blur has spread it; the page prepared for Tesseract
  has that ink whitened) must reach TAIL_FROM font sizes under the baseline of
  the word's letters (the median of each letter column's lowest ink), and the mark must be taller than wide
  (TALL_FROM). On INAP 2024 and NÚCEM 2023/2024 pages rasterised at 150 dpi with blur 0.8 (Tesseract's own
  readings of 346 marks after words of five letters or more, taken as what is printed), the test found a tail under 152 of 170 commas
  and under 1 of 176 periods.
A mark that is not clearly apart from the letters, or that shows no tail, stays a period.
"""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.words import Word, line_sizes, words_by_line

MIN_LETTERS = 4  # shorter words ending in a period are often abbreviations (`art.`, `núm.`, `etc.`)
FAINT_BELOW = 170  # grey level: a comma's faded tail is ink this pale
TAIL_FROM = 0.08  # font sizes below the letters' baseline that a comma's tail reaches at least
TALL_FROM = 1.1  # a comma's height over its width, at least
MARK_TOP_FROM = 0.3  # font sizes above the baseline: a mark reaching higher is no period or comma
BELOW = 0.35  # font sizes under the word's box searched for the tail
MAX_HEIGHT = 0.45  # font sizes: a comma is no taller
_LABEL = re.compile(r"^\w[).]$")


def commas_read_as_periods(words: list[Word], page: Image.Image | np.ndarray) -> list[Word]:
    """Each period that the context and the mark's shape show to be a comma, read as one (module docstring).
    `page` is the page as scanned, not as prepared for Tesseract: the preparation whitens the faint ink of a
    comma's tail, which is why Tesseract read a period."""
    sizes = line_sizes(words)
    mended: dict[int, Word] = {}
    grey: np.ndarray | None = page if isinstance(page, np.ndarray) else None
    for members in words_by_line(words).values():
        for word, after in zip(members, members[1:]):
            lead, core, trail = word_core(word.text)
            if trail != "." or len(core) < MIN_LETTERS or not core.isalpha() or core.isupper():
                continue
            following = word_core(after.text)[1]
            if not following or not following[0].islower() or _LABEL.match(after.text) or word.bottom <= word.top:
                continue
            if grey is None:
                assert isinstance(page, Image.Image)
                grey = np.asarray(page.convert("L"))
            if has_tail(grey, word, sizes[word.line]):
                mended[id(word)] = replace(word, text=word.text[:-1] + ",")
    return [mended.get(id(w), w) for w in words]


def has_tail(grey: np.ndarray, word: Word, size: float) -> bool:
    """Whether the mark after `word`'s last letter hangs below the letters' baseline as a comma's tail does: the
    rightmost piece of faint ink in the word's lower half, apart from the letters, that is no taller than a
    comma (MAX_HEIGHT) and starts under MARK_TOP_FROM above the baseline."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    if size <= 0 or word.bottom <= word.top:
        return False
    bottom = min(grey.shape[0], word.bottom + int(round(BELOW * size)))
    right = min(grey.shape[1], word.right + 2)
    crop = grey[word.top:bottom, word.left:right] < FAINT_BELOW
    pieces, count = ndimage.label(crop, structure=np.ones((3, 3), dtype=bool))
    if count < 2:
        return False
    inked = np.flatnonzero(crop.any(axis=0))
    last = pieces[:, inked[-1]]
    mark = int(last[last > 0][-1])  # the lowest piece in the rightmost inked column
    rows, columns = np.nonzero(pieces == mark)
    letters = (pieces > 0) & (pieces != mark)
    letters[:, columns.min():] = False
    lowest = [int(np.flatnonzero(column)[-1]) for column in letters.T if column.any()]
    if not lowest:
        return False
    baseline = float(np.median(lowest))
    height, width = int(rows.max() - rows.min() + 1), int(columns.max() - columns.min() + 1)
    if rows.min() < baseline - MARK_TOP_FROM * size or height > MAX_HEIGHT * size:
        return False  # a letter, or the mark joined to one by the blur: its shape cannot be told
    depth = (rows.max() - baseline) / size
    return depth >= TAIL_FROM and height >= TALL_FROM * width
