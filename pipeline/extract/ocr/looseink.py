"""Ink no word accounts for: glyph- or mark-sized ink inside a text line's band, or just after its last word, that no
word read on the page covers (a stop, a raised mark, a whole short word Tesseract left out: `pani.` read `pani`,
`132X″;` read `132X;`). Nothing read says so: the words around it are read confidently. The words' ink is there to
see, though, so the nearest word is unsure (`certainty`, `Line.unaccounted_ink`).

Two steps, apart because a page's ink is at hand only while it is read and its lines only once it is laid out:
1. when the page is read (the `loose-ink` pass, last of all: the words and figures are final), the prepared page's
   ink (`LOOSE_INK_BELOW`: faint marks too) less every word's box (`drop_covered`, the box grown by `COVER_PAD` text heights for a letter's edge
   blurred past it) is cut into connected pieces, measured in the text height of the words read (`text_height`); those of a glyph's or a mark's size (at least `MIN_MARK` of the
   page's text height one way and `MIN_AREA` of its square in ink, at most `MAX_HEIGHT` high and `MAX_WIDTH`
   wide: not JPEG noise, not a rule, an underline or a frame), touching no ink under a box (a glyph whose word's box
   covers only part of it is no loose ink) and outside every figure are kept with the reading
   (`PageReading.loose_ink`: boxes and ink in image pixels);
2. when the page is laid out (`unaccounted`), a kept piece counts against a line where it stands in the line's band
   (its middle within `BAND_SLACK` of the line's text height of its words' median top and bottom), between the
   line's first word and `AFTER_LAST` text heights past its last, its height at least `MIN_MARK` of the line's
   text height and within `NEAR_WORD` text heights of a word along the row (a speck on the white of a wide word
   space is farther), not over or under a word's letters (an accent or a breve its word's box left out), and, in
   a script whose glyphs are several pieces of ink each, not closer to a word's box than a word space (language data
   `glyph_cells.word_space`: a piece of the word's own glyph its box stops short of, as Hangul words' boxes often
   end before their last syllable's vertical). The word nearest to it is unsure; a label ring or disc is covered by the label read in its
   place, a figure's edges lie in the figure.

Everything is measured in text heights, so it holds at any resolution and type size; nothing knows a script.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from pipeline.extract.ocr.words import Word

LooseInk = tuple[int, int, int, int, int]  # left, top, right, bottom (image pixels), ink pixels

# Grey level under which the prepared page counts as ink here: lighter than the words' (`words.INK_BELOW`), since a
# stop or a raised mark blurred at 150 dpi is a faint dot (grey 130-170 on a 2024 sheet where its letters are 100).
LOOSE_INK_BELOW = 176
COVER_PAD = 0.04  # text heights round a word's box its letters' blurred edges may spread over
MIN_MARK = 0.09  # text heights (a word's box, ascender to descender): a piece smaller both ways is JPEG grain (a stop is 0.12)
MIN_AREA = 0.006  # the page's text height squared: the least ink of a stop (a grain of JPEG noise holds less)
MAX_HEIGHT = 1.3  # text heights: a taller piece is a rule, a bracket of a table or a figure's part
MAX_WIDTH = 1.5  # text heights: a wider piece is a rule, an underline or a drawing
MAX_KEPT = 400  # pieces kept a page (the largest first): past it the page is a drawing or a noisy scan
BAND_SLACK = 0.2  # text heights above and below the line's band a piece's middle may stand at
AFTER_LAST = 1.0  # text heights past the line's last word a piece may start at (a word space or two)
NEAR_WORD = 0.6  # text heights along the row from the nearest word's box


def text_height(words: Sequence[Word]) -> float:
    """The page's text height: the median height of its words of three letters or more (0: none)."""
    heights = sorted(w.bottom - w.top for w in words if sum(ch.isalpha() for ch in w.text) >= 3)
    return float(heights[len(heights) // 2]) if heights else 0.0


def loose_pieces(grey: np.ndarray, words: Sequence[Word], text_height: float,
                 figures: Sequence[tuple[int, int, int, int]]) -> tuple[LooseInk, ...]:
    """The glyph- or mark-sized pieces of the prepared page's ink (`grey` under `LOOSE_INK_BELOW`) no word's box covers,
    outside `figures` (step 1 of the module's docstring)."""
    if not text_height or not words:
        return ()
    ink = np.asarray(grey) < LOOSE_INK_BELOW
    left_ink = ink.copy()
    pad = max(1, round(COVER_PAD * text_height))
    for w in words:
        left_ink[max(0, w.top - pad):w.bottom + pad, max(0, w.left - pad):w.right + pad] = False
    for left, top, right, bottom in figures:
        left_ink[max(0, top):bottom, max(0, left):right] = False
    from scipy import ndimage  # here, not at the top: only scanned pages need it, and a season run starts without it

    labels, count = ndimage.label(left_ink)
    if not count:
        return ()
    sizes = np.bincount(labels.ravel(), minlength=count + 1)
    covered = ink & ~left_ink  # the ink under the words' boxes and the figures
    least = MIN_MARK * text_height
    kept = []
    for index, found in enumerate(ndimage.find_objects(labels), start=1):
        if found is None:
            continue
        rows, columns = found
        height, width = rows.stop - rows.start, columns.stop - columns.start
        if (height < least and width < least) or sizes[index] < MIN_AREA * text_height ** 2:
            continue
        if height > MAX_HEIGHT * text_height or width > MAX_WIDTH * text_height:
            continue
        # Touching ink under a box (within a pixel of its own box): a glyph the box cut (Tesseract's box of a
        # one-letter word often covers half of it), not ink of its own.
        if covered[max(0, rows.start - 1):rows.stop + 1, max(0, columns.start - 1):columns.stop + 1].any():
            continue
        kept.append((columns.start, rows.start, columns.stop, rows.stop, int(sizes[index])))
    kept.sort(key=lambda piece: -piece[4])
    return tuple(sorted(kept[:MAX_KEPT], key=lambda piece: (piece[1], piece[0])))


def unaccounted(boxes: Sequence[tuple[float, float, float, float]], has_text: Sequence[bool],
                pieces: Sequence[tuple[float, float, float, float]], *, own_within: float = 0.0) -> dict[int, int]:
    """{index of a word in `boxes`: pieces of loose ink it is the nearest word to} for one laid-out line (step 2 of the
    module's docstring). `boxes`: the line's words (left, top, right, bottom) left to right, in any one unit;
    `has_text`: which of them hold a letter or a digit (the line's band and text height are theirs); `pieces`: the
    page's loose ink in the same unit; `own_within`: text heights from a word's box within which ink is the word's own (a script whose glyphs
    are several pieces of ink each: its word space)."""
    texts = [box for box, text in zip(boxes, has_text) if text]
    if not texts or not pieces:
        return {}
    height = float(np.median([b[3] - b[1] for b in texts]))
    top, bottom = float(np.median([b[1] for b in texts])), float(np.median([b[3] for b in texts]))
    if height <= 0:
        return {}
    first, last = min(b[0] for b in boxes), max(b[2] for b in boxes)
    found: dict[int, int] = {}
    for left, up, right, down in pieces:
        middle = (up + down) / 2
        if not top - BAND_SLACK * height <= middle <= bottom + BAND_SLACK * height:
            continue
        if left < first or left > last + AFTER_LAST * height or down - up < MIN_MARK * height:
            continue
        gaps = [max(b[0] - right, left - b[2], 0.0) for b in boxes]
        nearest = int(np.argmin(gaps))
        if gaps[nearest] > NEAR_WORD * height:
            continue
        if any(b[0] < right and left < b[2] for b in boxes):
            continue  # over or under a word's letters: a mark of theirs (an accent, a breve) its box left out
        if gaps[nearest] < own_within * height:
            continue  # a piece of the word's own last or first glyph its box stops short of
        found[nearest] = found.get(nearest, 0) + 1
    return found
