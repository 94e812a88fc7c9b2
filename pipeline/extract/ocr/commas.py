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
  (grey under FAINT_BELOW, where blur has spread it) must reach TAIL_FROM font sizes under the baseline of
  the word's letters (the median of each letter column's lowest ink), and the mark must be taller than wide
  (TALL_FROM). On the corpus scans at 150 dpi, commas reached 0.086–0.18 of the font size below the
  baseline and periods 0.02–0.08 (a few abbreviations' periods 0.1).
A mark that is not clearly apart from the letters, or that shows no tail, stays a period.
"""
from __future__ import annotations

import re
from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.words import Word, line_sizes, words_by_line

MIN_LETTERS = 4  # shorter words ending in a period are often abbreviations (`art.`, `núm.`, `etc.`)
FAINT_BELOW = 170  # grey level: a comma's faded tail is ink this pale
TAIL_FROM = 0.08  # font sizes below the letters' baseline that a comma's tail reaches at least
TALL_FROM = 1.1  # a comma's height over its width, at least
MARK_TOP_FROM = 0.3  # font sizes above the baseline: a mark reaching higher is no period or comma
BELOW = 0.35  # font sizes under the word's box searched for the tail
_LABEL = re.compile(r"^\w[).]$")


def commas_read_as_periods(words: list[Word], grey: np.ndarray) -> list[Word]:
    """Each period that the context and the mark's shape show to be a comma, read as one (module docstring)."""
    sizes = line_sizes(words)
    mended: dict[int, Word] = {}
    for members in words_by_line(words).values():
        for word, after in zip(members, members[1:]):
            lead, core, trail = word_core(word.text)
            if trail != "." or len(core) < MIN_LETTERS or not core.isalpha() or core.isupper():
                continue
            following = word_core(after.text)[1]
            if not following or not following[0].islower() or _LABEL.match(after.text) or word.bottom <= word.top:
                continue
            if has_tail(grey, word, sizes[word.line]):
                mended[id(word)] = replace(word, text=word.text[:-1] + ",")
    return [mended.get(id(w), w) for w in words]


def has_tail(grey: np.ndarray, word: Word, size: float) -> bool:
    """Whether the mark after `word`'s last letter hangs below the letters' baseline as a comma's tail does."""
    if size <= 0:
        return False
    ink = grey[word.top:word.bottom, word.left:word.right + 1] < 128
    inked = np.flatnonzero(ink.any(axis=0))
    breaks = np.flatnonzero(np.diff(inked) > 1) if inked.size > 1 else np.array([], dtype=int)
    if breaks.size == 0:
        return False  # the mark touches the letters: its shape cannot be told
    mark_left, letters_right = int(inked[breaks[-1] + 1]), int(inked[breaks[-1]])
    lowest = [int(np.flatnonzero(column)[-1]) for column in ink[:, : letters_right + 1].T if column.any()]
    baseline = word.top + float(np.median(lowest))
    top = int(baseline - MARK_TOP_FROM * size)
    bottom = min(grey.shape[0], word.bottom + int(round(BELOW * size)))
    left = word.left + max(0, mark_left - 1)
    right = min(grey.shape[1], word.right + 2)
    mark = grey[top:bottom, left:right] < FAINT_BELOW
    rows, columns = np.flatnonzero(mark.any(axis=1)), np.flatnonzero(mark.any(axis=0))
    if rows.size == 0 or rows[0] == 0:
        return False  # nothing there, or ink that reaches above the band: no period or comma
    height, width = int(rows[-1] - rows[0] + 1), int(columns[-1] - columns[0] + 1)
    depth = (top + rows[-1] - baseline) / size
    return depth >= TAIL_FROM and height >= TALL_FROM * width
