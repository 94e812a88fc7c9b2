"""Blanks to fill in read from the ink: a short stroke lying on a text line's baseline, outside every word Tesseract
read, is the underscore(s) the sheet printed (`5, 1, 5, 2, 10, 3, _` read `5, 1, 5, 2, 10, 3,`).

Tesseract drops a lone underscore, or a run of them, as a rule or noise: it holds no letter shape, and the line's
words around it read well. A sheet prints one where the candidate fills something in (the next number of a series,
a word left out of a sentence, a form's field), so the blank is part of the question as printed. What tells it
apart is geometry, the same in every script, never the words:
- it lies in a gap of its line: between two words or after the line's last word (before the next word of any
  line beside it), in columns no word's box holds, with white columns on both sides (an underline or a table rule
  runs on under the words);
- it is a stroke: no taller than STROKE_HEIGHT font sizes, at least MIN_WIDTH font sizes wide and FLAT_FROM times
  wider than tall;
- it lies on the line's baseline: its middle from ON_BASELINE_FROM to ON_BASELINE_TO font sizes under it (a hyphen
  or a dash stands at the letters' middle, the next line's letters start lower);
- nothing else stands over it in the line's letters' band (a letter dropped with its foot, an accent).
Its length gives the count of underscores, each UNDERSCORE_WIDTH font sizes wide (the underscore glyph of common
faces, 0.5–0.56 em). Measured on the page as scanned (`PageWork.image`): the prepared page may have whitened a thin
stroke. Measured by `python -m pipeline.devkit.ocrcertainty` (docs/results.md, "Blanks to fill in").
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.words import Word, line_sizes, words_by_line

STROKE_HEIGHT = 0.22  # font sizes: a blank's stroke is no taller (a rule 0.05–0.1 em thick, spread by blur)
MIN_WIDTH = 0.3  # font sizes: a blank's stroke is at least this wide (one underscore, 0.5 em, shortened by blur)
FLAT_FROM = 3.0  # its width over its height, at least
ON_BASELINE_FROM = -0.08  # font sizes under the baseline its middle stands at least (negative: over it)
ON_BASELINE_TO = 0.3  # ... and at most (an underscore's middle stands 0.1–0.17 em under the baseline)
LETTER_BAND = 0.7  # font sizes over the baseline in which no other ink may stand over the stroke
AFTER_LINE = 25.0  # font sizes after a line's last word searched for a blank, at most
UNDERSCORE_WIDTH = 0.5  # font sizes: one underscore's width
SPECK = 0.004  # a piece of ink under this share of a square font size is a speck, not ink over the stroke
LETTERS_OVER = 0.12  # font sizes over the baseline: ink higher than this in a word's box is its letters' (a blank lies lower)
FAINT_BELOW = 170  # grey level: ink this pale counts (a thin stroke blurred at 150 dpi keeps a core of 1-2 dark pixels)
_DESCENDERS = set("gjpqyQ,;()[]{}|/")


def blanks_on_baselines(words: list[Word], page: Image.Image | np.ndarray) -> tuple[list[Word], int]:
    """`words` with a word of underscores put after the word before each blank found on its line (module docstring),
    and how many were found. `page`: the page as scanned (grey)."""
    if not words:
        return words, 0
    grey = page if isinstance(page, np.ndarray) else np.asarray(page.convert("L"))
    ink = grey < FAINT_BELOW
    after: dict[int, Word] = {}  # id of the word a blank follows -> the blank
    for ordered, base, size in sized_lines(words):
        for at, word in enumerate(ordered):
            if "_" in word.text or at + 1 < len(ordered) and "_" in ordered[at + 1].text:
                continue  # Tesseract read the blank
            start = letters_end(ink, word, base, size) + 1
            end = ordered[at + 1].left - 1 if at + 1 < len(ordered) else _line_end(word, words, base, size, ink.shape[1])
            blank = blank_in_gap(ink, start, end, base, size, own=word.right)
            if blank is not None:
                left, top, right, bottom = blank
                count = max(1, round((right - left + 1) / (UNDERSCORE_WIDTH * size)))
                after[id(word)] = Word("_" * count, -1.0, left, top, right, bottom, word.line)
    if not after:
        return words, 0
    result: list[Word] = []
    for word in words:
        added = after.get(id(word))
        # A box Tesseract drew over the blank it did not read ends before it.
        result.append(replace(word, right=added.left - 1) if added is not None and word.right >= added.left else word)
        if added is not None:
            result.append(added)
    return result, len(after)


def sized_lines(words: list[Word]) -> Iterator[tuple[list[Word], float, float]]:
    """Each line's words left to right, with its baseline and font size (`words.line_sizes`); a line of no size is
    left out. The walk over the gaps after words that finds a blank here and a lost mark in `unreadmarks`."""
    sizes = line_sizes(words)
    for key, members in words_by_line(words).items():
        if sizes[key] > 0:
            ordered = sorted(members, key=lambda w: w.left)
            yield ordered, baseline(ordered), sizes[key]


def baseline(members: list[Word]) -> float:
    """The line's baseline: the median bottom of its words with no descender or low mark (of all, where none)."""
    flat = [w.bottom for w in members if not _DESCENDERS & set(w.text)]
    return float(np.median(flat or [w.bottom for w in members]))


def _line_end(word: Word, words: list[Word], base: float, size: float, width: int) -> int:
    """The last column searched after a line's last word: AFTER_LINE font sizes on, short of the next word of any line
    standing beside it (the other column of a two-column page) and of the page's edge."""
    end = min(width - 1, int(word.right + AFTER_LINE * size))
    top, bottom = base - LETTER_BAND * size, base + ON_BASELINE_TO * size
    for other in words:
        if other.left > word.right and other.top < bottom and other.bottom > top:
            end = min(end, other.left - 1)
    return end


def letters_end(ink: np.ndarray, word: Word, base: float, size: float) -> int:
    """The last column of `word`'s letters: its box's last column with ink over the baseline's band (Tesseract may draw
    a word's box over a blank it did not read: `16,` boxed with the `_` after it)."""
    rows = ink[max(0, word.top):max(0, int(base - LETTERS_OVER * size)), max(0, word.left):word.right + 1]
    columns = np.flatnonzero(rows.any(axis=0)) if rows.size else np.zeros(0, dtype=int)
    return word.left + int(columns[-1]) if len(columns) else word.right


def blank_in_gap(ink: np.ndarray, start: int, end: int, base: float, size: float, own: int = -1) -> tuple[int, int, int, int] | None:
    """The box (left, top, right, bottom) of a blank's stroke in columns `start`..`end` of a line whose baseline is
    `base`, or None: one flat piece of ink on the baseline, clear of both ends, and no other piece there but specks
    and the marks of the word before it (pieces ending by column `own`, its box's last: a comma, a period)."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    start, end = max(0, start), min(ink.shape[1] - 1, end)
    if end - start + 1 < MIN_WIDTH * size:
        return None
    top = max(0, int(base - LETTER_BAND * size))
    bottom = min(ink.shape[0], int(base + (ON_BASELINE_TO + STROKE_HEIGHT) * size) + 1)
    crop = ink[top:bottom, start:end + 1]
    if not crop.any():
        return None
    pieces, count = ndimage.label(crop, structure=np.ones((3, 3), dtype=bool))
    boxes = ndimage.find_objects(pieces)
    areas = ndimage.sum(crop, pieces, range(1, count + 1))
    inked = [boxes[i] for i in range(count) if areas[i] >= SPECK * size * size]
    strokes = [box for box in inked if _stroke(box, top, base, size, crop.shape)]
    others = [box for box in inked if box not in strokes and start + box[1].stop - 1 > own]
    if len(strokes) != 1 or others:
        return None  # no blank, two, or ink beside it: letters Tesseract dropped, a mark, the next line's ink
    rows, columns = strokes[0]
    return start + columns.start, top + rows.start, start + columns.stop - 1, top + rows.stop - 1


def _stroke(box: tuple[slice, slice], top: int, base: float, size: float, shape: tuple[int, ...]) -> bool:
    """A flat piece on the baseline, clear of the searched band's ends (an underline or a rule runs on under words)."""
    rows, columns = box
    height, width = rows.stop - rows.start, columns.stop - columns.start
    if columns.start == 0 or columns.stop == shape[1] or rows.stop == shape[0]:
        return False
    if height > STROKE_HEIGHT * size or width < MIN_WIDTH * size or width < FLAT_FROM * height:
        return False
    middle = top + (rows.start + rows.stop - 1) / 2
    return ON_BASELINE_FROM * size <= middle - base <= ON_BASELINE_TO * size
