"""Punctuation read from the ink: a mark Tesseract read as another is read again from its shape in the page as
scanned (`Exterior. los` → `Exterior, los`, `veršov:` → `veršov;`, `,şubemizin` → `„şubemizin`, `25.10%` →
`25,10%`), and a mark whose ink is unclear marks its word unsure (`Word.unsure_mark`, which the flag reads).

On soft scans (150–200 dpi, blur 0.8) a comma's or semicolon's tail fades, and the page prepared for Tesseract
whitens what is left of it: Tesseract then reads a comma as a period (the commonest error inside otherwise right
words on the corpus sheets: Spanish `Exterior.`, `Presidencia.`, Slovak `hory.`, Polish `licencję.`, decimal
commas `25.10%`), a semicolon as a colon (on generated Slovak prose, 15 of 16 semicolons at 150 dpi) and a low
quotation mark as a comma glued to its word (Turkish, Portuguese, Greek). What tells the marks apart is their
geometry, the same in every script that uses them, never the words:
- the marks (`low_marks`): pieces of faint ink (grey under FAINT_BELOW, where blur has spread it) in the word's box
  and under it, no taller than MARK_HEIGHT and no wider than MARK_WIDTH font sizes, whose top stands within
  MARK_TOP_FROM over the baseline, in columns of their own near the baseline (a dot below a letter is no mark); the
  baseline is the median of each letter column's lowest ink;
- a tail: the mark reaches TAIL_FROM font sizes under the baseline and is taller than wide (TALL_FROM); a period's
  and a colon's lower dot reach no deeper than NO_TAIL;
- stacked dots: another small piece stands over the mark in its columns at the letters' middle (a colon, a
  semicolon);
- the context, where it makes one mark likelier: a word of small letters after a period on the same line follows
  a comma or an abbreviation (whose period has no tail), so there TAIL_FROM decides; before a capital, at a line's
  end or in a number either mark may stand, so only a sure tail (SURE_TAIL, SURE_TALL, SURE_HEIGHT) rewrites, and a mark between
  UNCLEAR_FROM and it is unclear: kept as read, its word unsure.
A comma or semicolon Tesseract read is never made a period or colon (a faint tail may fade), and a mark that is not
apart from the letters is not judged. Measured by `python -m pipeline.devkit.punctscans` and `misreads`
(docs/results.md, "Punctuation read from the ink").
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.words import Word, line_sizes, words_by_line

MIN_LETTERS = 2  # letters of a word whose last mark is judged (an abbreviation's period, `art.`, has no tail)
FAINT_BELOW = 170  # grey level: a comma's faded tail is ink this pale
TAIL_FROM = 0.08  # font sizes below the letters' baseline that a comma's tail reaches at least
TALL_FROM = 1.1  # a comma's height over its width, at least
MARK_TOP_FROM = 0.3  # font sizes above the baseline: a mark reaching higher is no period or comma
BELOW = 0.35  # font sizes under the word's box searched for the tail
_LABEL = re.compile(r"^\w[).]$")
_DECIMAL = re.compile(r"^[-+(]?\d+([.,])\d+(?!\d*[.,]\d)")  # one mark between digits (a thousands separator repeats)


def commas_read_as_periods(words: list[Word], page: Image.Image | np.ndarray) -> list[Word]:
    """Each mark whose ink shows it to be another, read as the one it is (module docstring); a mark whose ink is
    unclear is kept and its word marked unsure (`Word.unsure_mark`). `page` is the page as scanned, not as
    prepared for Tesseract: the preparation whitens the faint ink of a comma's tail, which is why Tesseract read
    a period."""
    sizes = line_sizes(words)
    mended: dict[int, Word] = {}
    grey: np.ndarray | None = page if isinstance(page, np.ndarray) else None
    for members in words_by_line(words).values():
        for at, word in enumerate(members):
            after = members[at + 1] if at + 1 < len(members) else None
            if not _judged(word, after) or word.bottom <= word.top:
                continue
            if grey is None:
                assert isinstance(page, Image.Image)
                grey = np.asarray(page.convert("L"))
            marks = low_marks(grey, word, sizes[word.line])
            if marks is not None:
                text, unsure = read_marks(word.text, marks, _small_follows(after), word.left, word.right)
                if text != word.text or unsure:
                    mended[id(word)] = replace(word, text=text, unsure_mark=unsure or word.unsure_mark)
    return [mended.get(id(w), w) for w in words]


def _small_follows(after: Word | None) -> bool:
    """A word of small letters follows on the line (a label such as `b)` is no word)."""
    if after is None:
        return False
    following = word_core(after.text)[1]
    return bool(following) and following[0].islower() and not _LABEL.match(after.text)


def _judged(word: Word, after: Word | None) -> bool:
    """A word with a mark to judge: letters ending in `.`, `,`, `:` or `;`, a number with a decimal mark, or a word
    opened by a comma or a full stop (a low quotation mark read as one); not a label (`b)`, `12.`)."""
    lead, core, trail = word_core(word.text)
    if _DECIMAL.match(word.text):
        return True
    if not core or not any(ch.isalpha() for ch in core) or core.isupper() and len(core) > 1 and trail == ".":
        return False  # an abbreviation in capitals (`EE.UU.`, `S.A.`) or a number: no sentence mark to judge
    if lead in (",", "."):
        return True
    return trail in (".", ",", ":", ";") and len(core) >= MIN_LETTERS


def read_marks(text: str, marks: list[Mark], small_follows: bool, left: int, right: int) -> tuple[str, bool]:
    """`text` with its marks read from their ink (`marks`, the word's `low_marks`), and whether one stays unclear.

    - A word's last mark (`.` `,` `:`) is the rightmost low piece, where it stands at the word's right end: a
      tail makes `.` a comma and `:` a semicolon; a dot stacked over it makes `.` or `,` a colon (no tail) or a
      semicolon (a tail). A comma or semicolon read is never made a period or colon: a faint tail may fade. Before
      a small letter a tail of TAIL_FROM decides (a sentence's period is followed by a capital); elsewhere only
      SURE_TAIL does, and a depth between UNCLEAR_FROM and it is unclear.
    - A decimal mark between digits: the one low piece where the mark stands in the number (its share of the word's
      characters), decided as a word's last mark is where the context allows either.
    - A comma or full stop opening a word, where two low pieces with tails stand before the letters: a low
      quotation mark (`„`); a comma opening a word otherwise is unclear (no comma opens a word)."""
    unsure = False
    lead, core, trail = word_core(text)
    pitch = (right - left + 1) / max(1, len(text))  # one character's width, about

    def near(at: int) -> list[Mark]:
        centre = left + (at + 0.5) * pitch
        return [m for m in marks if abs((m.left + m.right) / 2 - centre) <= 1.5 * pitch]

    decimal = _DECIMAL.match(text)
    if decimal:
        inside = near(decimal.start(1))
        if len(inside) == 1:
            mark, unclear = _decided(text[decimal.start(1)], inside[0], small_follows=False)
            text = text[:decimal.start(1)] + mark + text[decimal.end(1):]
            unsure |= unclear
        return text, unsure
    if trail and trail[-1] in ".,:" and marks and marks[-1].right >= right - 1.5 * pitch:
        mark, unclear = _decided(trail[-1], marks[-1], small_follows)
        text, unsure = text[:-1] + mark, unclear
    if lead in (",", ".") and len(marks) >= 2 and marks[1].right <= left + 2.5 * pitch:
        first, second = marks[0], marks[1]
        if min(first.depth, second.depth) >= TAIL_FROM and not first.stacked and not second.stacked:
            return "„" + text[1:], unsure
    if lead == ",":
        unsure = True  # no comma opens a word: a low quote whose two tails the blur joined, or a speck
    return text, unsure


def _decided(read: str, mark: Mark, small_follows: bool) -> tuple[str, bool]:
    """The mark `read` as its ink shows it, and whether the ink is unclear. A dot stacked over the mark makes it a
    colon or a semicolon, whose tail TAIL_FROM decides in any context (neither is likelier by the next word); a
    lone mark read `.` is a comma by a tail of TAIL_FROM before a small letter, of SURE_TAIL elsewhere."""
    lenient = small_follows or mark.stacked
    tail = mark.depth >= TAIL_FROM and mark.tallness >= TALL_FROM if lenient else \
        mark.depth >= SURE_TAIL and mark.tallness >= SURE_TALL and mark.top + mark.depth >= SURE_HEIGHT
    bare = mark.depth <= NO_TAIL
    unclear = read in ".:" and not tail and not bare and mark.depth >= UNCLEAR_FROM  # a comma read is kept as read
    if mark.stacked and read in ".,:":
        return (";" if tail else ":" if bare else read), unclear
    if read in ".:" and tail:
        return ("," if read == "." else ";"), False
    return read, unclear


APART_FROM = 0.7  # a mark's share of columns that no letter's ink shares, at least (a dot below a letter is no mark)
LOW_BAND = 0.2  # font sizes over the baseline in which a letter's ink and a mark's must not share columns
MARK_WIDTH = 0.4  # font sizes: a period's, comma's or colon's lower dot is no wider
# font sizes: a low mark is no taller (commas measured 0.30 at most; a small letter of the next line, in a box
# Tesseract drew over two lines, 0.42: OAB 2016 at 300 dpi read `falecer.` as `falecer,` by it)
MARK_HEIGHT = 0.35
REACHES_UP = 0.03  # font sizes under the baseline a mark's top stands at most (lower: the next line's ink)
SURE_TAIL = 0.09  # font sizes: where the context allows either mark, a tail this deep at least decides
SURE_TALL = 1.3  # ... with the mark this much taller than wide at least
SURE_HEIGHT = 0.12  # ... and this tall, in font sizes (a comma's head and tail; a period sunk by the blur is a dot's height)
NO_TAIL = 0.04  # font sizes: a mark reaching no deeper has no tail (a period, a colon's lower dot)
UNCLEAR_FROM = 0.05  # font sizes: a mark read `.` or `:` reaching this deep but not to a sure tail is unclear


@dataclass(frozen=True)
class Mark:
    """One small piece of ink on or under the baseline in a word's box, in its own columns: the lower dot of a
    period, colon, `?` or `!`, or a comma's or semicolon's dot and tail. Lengths in font sizes."""

    left: int  # columns in the page
    right: int
    depth: float  # how far under the letters' baseline its lowest ink reaches (negative: above it)
    top: float  # how far above the baseline its highest ink stands
    tallness: float  # height over width
    stacked: bool  # another small piece stands over it in its columns, at the letters' middle (a colon's upper dot)


def lowest_ink_rows(mask: np.ndarray) -> np.ndarray:
    """The row of the lowest ink of each column of a 2-d `mask` that holds any, left to right (int64): what
    `[np.flatnonzero(column)[-1] for column in mask.T if column.any()]` gives, in whole-array passes (this pass and
    `unreadmarks` ask it of every word they measure, a Python step a column)."""
    if mask.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    last = mask.shape[0] - 1 - np.argmax(mask[::-1], axis=0)
    return last[mask.any(axis=0)].astype(np.int64)


def low_marks(grey: np.ndarray, word: Word, size: float) -> list[Mark] | None:
    """The marks on or under the baseline in `word`'s box, left to right (`Mark`), measured on the page as scanned:
    faint ink (under FAINT_BELOW) joined into pieces, the letters' baseline the median of each letter column's lowest
    ink. None when the word has no letters to measure the baseline by."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    if size <= 0 or word.bottom <= word.top:
        return None
    bottom = min(grey.shape[0], word.bottom + int(round(BELOW * size)))
    left, right = max(0, word.left - 1), min(grey.shape[1], word.right + 2)
    crop = grey[word.top:bottom, left:right] < FAINT_BELOW
    pieces, count = ndimage.label(crop, structure=np.ones((3, 3), dtype=bool))
    if count < 2:
        return None
    boxes = ndimage.find_objects(pieces)
    small = [i for i, box in enumerate(boxes, 1) if box is not None
             and box[0].stop - box[0].start <= MARK_HEIGHT * size and box[1].stop - box[1].start <= MARK_WIDTH * size]
    letters = (pieces > 0) & ~np.isin(pieces, small)
    lowest = lowest_ink_rows(letters)
    if not len(lowest):
        return None
    baseline = float(np.median(lowest))
    # The letters' columns near the baseline: an `r`'s arm or an `f`'s hook may overhang a mark, no letter's foot does.
    letter_columns = letters[max(0, int(baseline - LOW_BAND * size)):].any(axis=0)
    found = []
    for index in small:
        rows, columns = boxes[index - 1]
        top_row, low_row = rows.start, rows.stop - 1
        if top_row < baseline - MARK_TOP_FROM * size or top_row > baseline + REACHES_UP * size:
            continue  # an accent, an i's dot, a colon's upper dot: above the baseline's marks; ink of the line below
        if letter_columns[columns].mean() > 1 - APART_FROM:
            continue  # under a letter (a dot below, a cedilla apart from its letter): no mark of its own
        above = pieces[: max(0, top_row - 1), columns]
        stacked = any(i in small and boxes[i - 1][0].stop - 1 >= baseline - 0.75 * size for i in np.unique(above) if i)
        found.append(Mark(left + columns.start, left + columns.stop - 1, (low_row - baseline) / size, (baseline - top_row) / size,
                          (rows.stop - rows.start) / max(1, columns.stop - columns.start), stacked))
    return sorted(found, key=lambda m: m.left)
