"""Punctuation with ink and no reading: a period, comma, colon or semicolon printed right after a word that Tesseract
read without it, put back from its ink (`(STF)` then a comma → `(STF),`; `https://sede` and `telefono060.es` with a
dot between them → `https://sede.telefono060.es`; a line's last word without its full stop).

Tesseract loses such a mark where it stands apart from the word's letters: a comma after a bracket followed by a
justified line's wide word space, a dot inside a web address that it took for a word space, a full stop at a line's
end; it reads the mark as a word of its own at a low confidence (which `noise` drops as junk) or not at all. The ink
stays on the page, in the gap after the word. What tells a mark apart is geometry, the same in every script that uses
these marks, never the words:
- it is the only ink in the gap after the word's letters (the pieces of ink from the word's first column larger than
  a mark: Tesseract's box may hold the mark it left unread), up to the next word of the line or GAP_AFTER font sizes on: a gap that holds a letter, a quote,
  a dash or a bracket Tesseract dropped is not judged;
- it follows the letters closely: it starts within NEAR font sizes of them (a word space is wider);
- it is a dot's or a comma's size: at least MIN_AREA square font sizes of ink, from MIN_SIZE to MARK_WIDTH font sizes wide and at most `commas.MARK_HEIGHT` tall,
  no flatter than FLAT_AT_MOST (a rule's or an underscore's piece is flat), its darkest pixel under DARK (a speck of
  scanner grain is pale);
- it stands on the word's baseline: its top within `commas.MARK_TOP_FROM` font sizes and LOW_SHARE of the word's tallest
  letter over it (a small letter such as `x` stands higher, whatever the size the line was measured at) and at most
  `commas.REACHES_UP` under it (lower: the next line's ink), its bottom no higher than ON_BASELINE over it;
- its shape says which mark: a tail (reaching `commas.UNCLEAR_FROM` under the baseline, `commas.SURE_TALL` times taller
  than wide and COMMA_HEIGHT tall) a comma; no deeper than `commas.NO_TAIL` and less tall than wide by TALL_DOT a full stop; a
  dot of its size over it at the letters' middle (and nothing else there) a colon where the lower dot is the upper's
  height (COLON_UP_TO) and a semicolon where it reaches under the baseline, SEMICOLON_FROM times as tall.
  Ink between those (a blurred dot sunk under the baseline, a faint tail) is unclear: nothing is written, and the word is
  marked unsure (`Word.unsure_mark`, which the flag reads).
A mark put back joins the word it follows (its box grows over the mark); where the next word starts within JOIN_GAP
font sizes of the mark (no word space: an address, a number's decimal mark read as a space), the two words become one.
Measured on the page as scanned (`PageWork.image`): the prepared page whitens a comma's faint tail. Measured by
`python -m pipeline.devkit.ocrcertainty` (docs/results.md, "Marks with ink and no reading").
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.blanks import sized_lines
from pipeline.extract.ocr.commas import MARK_HEIGHT, MARK_TOP_FROM, NO_TAIL, REACHES_UP, SURE_TALL, UNCLEAR_FROM, lowest_ink_rows
from pipeline.extract.ocr.words import Word

FAINT_BELOW = 170  # grey level: ink this pale counts (a comma's faded tail)
DARK = 140  # grey level: a mark's darkest pixel is darker than this (scanner grain and JPEG ringing are paler)
GAP_AFTER = 0.6  # font sizes after a line's last word searched for its mark
NEAR = 0.3  # font sizes: a mark starts this close to its word's letters at most (a word space is wider)
MIN_SIZE = 0.07  # font sizes: a mark is at least this wide and tall (a period is 0.1-0.15 em, spread by blur)
LOW_SHARE = 0.45  # a mark's top stands over the baseline at most this share of the word's tallest letter (an `x` stands higher)
MIN_AREA = 0.006  # square font sizes: a mark's ink covers at least this (a period's dot, 0.01 em², less the blur's pale rim)
MARK_WIDTH = 0.25  # font sizes: a period's, comma's or colon's dot is no wider
FLAT_AT_MOST = 1.8  # a mark's width over its height, at most (an underscore's or a rule's piece is flatter)
ON_BASELINE = 0.12  # font sizes over the baseline a mark's lowest ink stands at most (a hyphen stands higher)
COMMA_HEIGHT = 0.18  # font sizes: a comma's head and tail are this tall at least (a period, even sunk by blur, 0.15 at most)
SEMICOLON_FROM = 1.5  # a semicolon's lower piece is this many times its upper dot's height at least
COLON_UP_TO = 1.25  # a colon's lower dot is this many times its upper dot's height at most
TALL_DOT = 1.35  # a full stop's height over its width is under this (a comma's head and tail are taller)
UPPER_DOT = 0.75  # font sizes over the baseline: a colon's upper dot ends lower than this
WORD_HEIGHTS = 2.0  # a word's box is half a font size tall at least (its small letters): its line's size is at most twice it
JOIN_GAP = 0.12  # font sizes between a mark and the next word under which the two words are one (no word space)
SPECK = 0.004  # a piece of ink under this share of a square font size is a speck, not ink in the gap
_MARKS = frozenset(".,:;!?…")


@dataclass(frozen=True)
class GapMark:
    """A mark found in the gap after a word: its text ("" where its ink is unclear) and its columns in the page."""

    text: str
    left: int
    right: int
    top: int
    bottom: int


def unread_marks(words: list[Word], page: Image.Image | np.ndarray, wide_marks: bool = False) -> tuple[list[Word], list[tuple[str, str]]]:
    """`words` with each mark found in the gap after a word put back (module docstring), and the changes as
    (before, after) texts; a word whose gap holds unclear ink of a mark is kept as read and marked unsure.
    `wide_marks`: the page's script sets its marks full-width on a glyph's cell (`。`, `、`: a language without word
    spaces), so a word ending in a wide glyph is not judged (the ink after it is its mark's, or a stroke of a glyph
    Tesseract read apart, which a Latin mark's shape does not tell)."""
    if not words:
        return words, []
    grey = page if isinstance(page, np.ndarray) else np.asarray(page.convert("L"))
    found: dict[int, tuple[GapMark, Word | None, float]] = {}  # id of a word -> its mark, the next word, its line's size
    for ordered, base, size in sized_lines(words):
        for at, word in enumerate(ordered):
            after = ordered[at + 1] if at + 1 < len(ordered) else None
            if not _judged(word, after) or (wide_marks and unicodedata.east_asian_width(word.text[-1]) in "WF"):
                continue
            end = after.left - 1 if after is not None else _line_end(word, words, base, size, grey.shape[1])
            mark = gap_mark(grey, word, end, size)
            if mark is not None:
                found[id(word)] = (mark, after, size)
    if not found:
        return words, []
    return _applied(words, found)


def _judged(word: Word, after: Word | None) -> bool:
    """A word that may have lost the mark after it: it ends in a letter, a digit or a closing bracket or quote, and
    the next word does not open with a mark (Tesseract put the mark there) nor is one."""
    if not word.text or word.text[-1] in _MARKS or word.text[-1] in "-‐–—_/":
        return False
    if not any(ch.isalnum() for ch in word.text):
        return False
    return after is None or not after.text or after.text[0] not in _MARKS


def _line_end(word: Word, words: list[Word], base: float, size: float, width: int) -> int:
    """The last column searched after a line's last word: GAP_AFTER font sizes on, short of any word beside it."""
    end = min(width - 1, int(word.right + GAP_AFTER * size))
    top, bottom = base - UPPER_DOT * size, base + MARK_HEIGHT * size
    for other in words:
        if other is not word and other.left > word.left and other.top < bottom and other.bottom > top:
            end = min(end, other.left - 1)
    return end


def gap_mark(grey: np.ndarray, word: Word, end: int, size: float) -> GapMark | None:
    """The mark after `word`'s letters, up to column `end` (module docstring), or None where the gap holds no ink,
    other ink, or ink that is no mark. The ink from the word's first column on, from its box's top to a mark's height
    under its bottom, is cut into pieces (faint ink joined): the word's letters are the pieces larger than a mark that
    start inside its box, their baseline the row the lower half of the letter columns' lowest ink ends on most, and the mark a piece wholly
    past them (Tesseract's box may hold the mark it left unread). Pieces starting under the baseline are the next
    line's and are left out."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    size = min(size, WORD_HEIGHTS * (word.bottom - word.top + 1))  # a box over two lines gives its line a size too large
    left, end = max(0, word.left), min(grey.shape[1] - 1, end)
    top = max(0, word.top)
    bottom = min(grey.shape[0], int(word.bottom + MARK_HEIGHT * size) + 1)
    if end <= word.right or bottom <= top or size <= 0:
        return None
    crop = grey[top:bottom, left:end + 1]
    ink = crop < FAINT_BELOW
    pieces, count = ndimage.label(ink, structure=np.ones((3, 3), dtype=bool))
    if count < 2:
        return None
    boxes = ndimage.find_objects(pieces)
    areas = ndimage.sum(ink, pieces, range(1, count + 1))
    darkest = ndimage.minimum(crop, pieces, range(1, count + 1))
    inked = [i for i in range(count) if areas[i] >= SPECK * size * size and darkest[i] < DARK]
    letters = [i for i in inked if not _dot_sized(boxes[i], size) and boxes[i][1].start <= word.right - left
               and boxes[i][0].start <= word.bottom - top]
    if not letters:
        return None
    letter_ink = np.isin(pieces, [i + 1 for i in letters])
    lowest = lowest_ink_rows(letter_ink)
    feet = lowest[lowest >= np.median(lowest)]  # a bar's, an arch's columns end higher: the lower half are feet and descenders
    base = top + float(np.bincount(feet).argmax())  # the row most of them end on
    letters_end = max(boxes[i][1].stop for i in letters)  # the first column past the word's letters, in the crop
    past = [i for i in inked if boxes[i][1].start >= letters_end and top + boxes[i][0].start <= base + REACHES_UP * size]
    tallest = max(boxes[i][0].stop - boxes[i][0].start for i in letters)
    low = [i for i in past if _dot_sized(boxes[i], size) and _on_baseline(boxes[i], top, base, size)
           and base - (top + boxes[i][0].start) <= LOW_SHARE * tallest]
    if len(low) != 1 or areas[low[0]] < MIN_AREA * size * size:
        return None  # no mark on the baseline, or two, or a grain of ink: not judged
    rows, columns = boxes[low[0]]
    if columns.start - letters_end > NEAR * size:
        return None  # apart from the word: a word space before it
    uppers = [i for i in past if i != low[0]]
    if len(uppers) > 1:
        return None  # other ink in the gap: a quote, a dash, a letter Tesseract dropped
    if uppers:
        upper_rows, upper_columns = boxes[uppers[0]]
        over = upper_columns.start < columns.stop and columns.start < upper_columns.stop
        if not (over and _dot_sized(boxes[uppers[0]], size) and top + upper_rows.stop - 1 < base - 0.2 * size):
            return None
    height, width = rows.stop - rows.start, columns.stop - columns.start
    depth = (top + rows.stop - 1 - base) / size
    tail = depth >= UNCLEAR_FROM and height / width >= SURE_TALL and height / size >= COMMA_HEIGHT
    dot = depth <= NO_TAIL and height / width < TALL_DOT
    if uppers:  # a colon's two dots are alike; a semicolon's lower piece is its upper dot with a tail
        upper_height = boxes[uppers[0]][0].stop - boxes[uppers[0]][0].start
        tail = depth >= UNCLEAR_FROM and height >= SEMICOLON_FROM * upper_height
        dot = depth <= NO_TAIL and height <= COLON_UP_TO * upper_height
        text = ";" if tail else ":" if dot else ""
    else:
        text = "," if tail else "." if dot else ""
    first_row = min(rows.start, boxes[uppers[0]][0].start) if uppers else rows.start
    return GapMark(text, left + columns.start, left + columns.stop - 1, top + first_row, top + rows.stop - 1)


def _dot_sized(box: tuple[slice, slice], size: float) -> bool:
    rows, columns = box
    height, width = rows.stop - rows.start, columns.stop - columns.start
    return (MIN_SIZE * size <= width <= MARK_WIDTH * size and MIN_SIZE * size <= height <= MARK_HEIGHT * size
            and width <= FLAT_AT_MOST * height)


def _on_baseline(box: tuple[slice, slice], top: int, base: float, size: float) -> bool:
    rows = box[0]
    high, low = base - (top + rows.start), base - (top + rows.stop - 1)  # over the baseline, in pixels
    return -REACHES_UP * size <= high <= MARK_TOP_FROM * size and low <= ON_BASELINE * size


def _applied(words: list[Word], found: dict[int, tuple[GapMark, Word | None, float]]) -> tuple[list[Word], list[tuple[str, str]]]:
    """The words with the marks found put back, a word and the next joined where no word space stands between."""
    changes: list[tuple[str, str]] = []
    joined: set[int] = set()
    mended: dict[int, Word] = {}
    for word in words:
        if id(word) not in found or id(word) in joined:
            continue
        mark, after, size = found[id(word)]
        if not mark.text:
            mended[id(word)] = replace(word, unsure_mark=True)
            continue
        text = word.text + mark.text
        grown = replace(word, text=text, right=max(word.right, mark.right), top=min(word.top, mark.top),
                        bottom=max(word.bottom, mark.bottom))
        if after is not None and after.left - mark.right - 1 < JOIN_GAP * size and id(after) not in found:
            grown = replace(grown, text=text + after.text, right=max(grown.right, after.right), top=min(grown.top, after.top),
                            bottom=max(grown.bottom, after.bottom), conf=min(word.conf, after.conf),
                            second=word.second if word.second == text + after.text else None)
            joined.add(id(after))
            changes.append((f"{word.text} {after.text}", grown.text))
        else:
            changes.append((word.text, text))
        mended[id(word)] = grown
    return [mended.get(id(w), w) for w in words if id(w) not in joined], changes
