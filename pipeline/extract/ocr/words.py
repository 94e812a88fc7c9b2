"""Tesseract's words (`Word`, from its TSV) and the geometry every repair measures them by: lines,
rows, overlaps, font sizes from ink heights, and runs of ink in the page image.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from pipeline.extract.document import UNREAD_CELL

# Ink height of a whole text line (top of accents/ascenders to bottom of descenders), in font sizes.
LINE_HEIGHT_PER_SIZE = 0.95


@dataclass
class Word:
    text: str
    conf: float  # -1 when Tesseract gives none
    left: int
    top: int
    right: int
    bottom: int
    line: tuple[int, int, int]  # Tesseract's (block, paragraph, line)
    # What the second recogniser read at this word's place (`agreement`); None: it did not read it.
    second: str | None = None
    # A mark whose ink was unclear (`commas`): kept as read, and the word judged unsure when the page is laid out.
    unsure_mark: bool = False
    # What was read at the place of a number a pass put there from its neighbours' count (`numbering`): "" where
    # nothing was read; None for a word read as printed. Such a word, unless anchored, is written at `INFERRED_CONF` when
    # the page's reading is made, so the certainty flag sees it, and the pass says so in a page note (`inferred_notes`).
    inferred_from: str | None = None
    # Such a number put in between neighbours read as the count says (`numbering.anchored_mends`): it keeps the
    # reading's confidence and its note is info; False for any other (written at `INFERRED_CONF`, a warning).
    inferred_anchored: bool = False


def words_by_line(words: list[Word]) -> dict[tuple[int, int, int], list[Word]]:
    """The words of each Tesseract line, in Tesseract's order."""
    lines: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    return lines


def line_openers(words: list[Word]) -> list[Word]:
    """The first word of each Tesseract line."""
    return [members[0] for members in words_by_line(words).values()]


def isolated_short_words(words: list[Word]) -> list[Word]:
    """Words of up to three characters that stand alone in a Tesseract line, or sit in a "line" that is
    really a column (its height is several word heights): the cells of a key table."""
    per_line = words_by_line(words)
    found = []
    for members in per_line.values():
        heights = sorted(w.bottom - w.top for w in members)
        extent = max(w.bottom for w in members) - min(w.top for w in members)
        column = extent > 2.5 * heights[len(heights) // 2]
        if len(members) == 1 or column:
            found += [w for w in members if len(w.text) <= 3]
    return found


INK_BELOW = 128  # grey level: darker is ink where word shapes are measured (spaces, accents, stems, dropped words)


def letter_gaps(ink: np.ndarray, word: Word) -> tuple[np.ndarray, np.ndarray]:
    """(white widths, their first columns) between the runs of ink columns in `word`'s box."""
    runs = ink_runs(ink[word.top : word.bottom, word.left : word.right].any(axis=0), 0)
    ends = np.array([end for _, end in runs[:-1]], dtype=int)
    starts = np.array([start for start, _ in runs[1:]], dtype=int)
    return starts - ends, ends


def overlap_share(a: Word, b: Word) -> float:
    """Intersection over the smaller box."""
    w = min(a.right, b.right) - max(a.left, b.left)
    h = min(a.bottom, b.bottom) - max(a.top, b.top)
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a.right - a.left) * (a.bottom - a.top), (b.right - b.left) * (b.bottom - b.top))
    return w * h / max(smaller, 1)


def box_mean(mask: np.ndarray, radius: int) -> np.ndarray:
    """Mean of a boolean mask over a (2·radius+1)² window around each pixel (integral image)."""
    padded = np.pad(mask.astype(np.float32), radius + 1, mode="edge")
    integral = padded.cumsum(0).cumsum(1)
    size = 2 * radius + 1
    window = integral[size:, size:] - integral[:-size, size:] - integral[size:, :-size] + integral[:-size, :-size]
    h, w = mask.shape
    return window[:h, :w] / (size * size)


def ink_runs(profile: np.ndarray, max_gap: int) -> list[tuple[int, int]]:
    """[start, end) runs where `profile` is non-zero, bridging gaps up to `max_gap`."""
    idx = np.flatnonzero(profile)
    if idx.size == 0:
        return []
    breaks = np.flatnonzero(np.diff(idx) > max_gap + 1)
    starts = np.concatenate(([idx[0]], idx[breaks + 1]))
    ends = np.concatenate((idx[breaks], [idx[-1]])) + 1
    return list(zip(starts.tolist(), ends.tolist()))


def word_spaces(words: list[Word]) -> dict[tuple[int, int, int], float]:
    """The white of a word space on each Tesseract line, in pixels: the median gap between the line's neighbouring words
    that is no wider than its words are tall (a row's wide gaps between option cells, tab stops and columns are wider).
    A line with fewer than two such gaps takes the page's median; 0.0 where the page has none."""
    per_line: dict[tuple[int, int, int], list[int]] = {}
    for key, members in words_by_line(words).items():
        ordered = sorted(members, key=lambda w: w.left)
        heights = sorted(w.bottom - w.top for w in ordered)
        tallest = heights[len(heights) // 2]
        per_line[key] = [b.left - a.right for a, b in zip(ordered, ordered[1:]) if 0 < b.left - a.right <= tallest]
    every = sorted(g for gaps in per_line.values() for g in gaps)
    page = float(every[len(every) // 2]) if every else 0.0
    return {key: float(np.median(gaps)) if len(gaps) >= 2 else page for key, gaps in per_line.items()}


def same_row(a: Word, b: Word) -> bool:
    return min(a.bottom, b.bottom) - max(a.top, b.top) > 0.5 * min(a.bottom - a.top, b.bottom - b.top)


def glued_pair(left: Word, right: Word) -> Word:
    return replace(
        left,
        text=left.text + right.text,
        conf=min(left.conf, right.conf),
        right=max(left.right, right.right),
        top=min(left.top, right.top),
        bottom=max(left.bottom, right.bottom),
    )


def joined_chains(words: list[Word], follows: dict[int, Word]) -> tuple[list[Word], int]:
    """`words` with each chain of pieces glued into one word (`glued_pair`), and how many pieces were glued
    on: `follows` maps the id of a piece to the piece of the same word right of it."""
    continued = {id(w) for w in follows.values()}
    joined: dict[int, Word] = {}
    for first in words:
        if id(first) in continued or id(first) not in follows:
            continue
        word, at = first, first
        while id(at) in follows:
            at = follows[id(at)]
            word = glued_pair(word, at)
        joined[id(first)] = word
    return [joined.get(id(w), w) for w in words if id(w) not in continued], len(continued)


def mean_confidence(words: Sequence[Word]) -> float | None:
    """Mean Tesseract confidence of the words (those it gave one); None when there are none."""
    confs = [w.conf for w in words if w.conf >= 0]
    return sum(confs) / len(confs) if confs else None


def line_sizes(words: list[Word]) -> dict[tuple[int, int, int], float]:
    """Font size (pixels) per Tesseract line: the line's ink height, from its highest to its lowest word.

    Across a line, ascenders, accents and descenders add up to about one font size (Tesseract's own
    hOCR x_size agrees within a pixel); a single word's height depends on its letters ("možnosti" is
    0.75 of it). A stray tall box cannot inflate the estimate beyond 1.6 median word heights.
    """
    by_line = words_by_line(words)
    sizes = {}
    for key, members in by_line.items():
        heights = sorted(w.bottom - w.top for w in members)
        extent = max(w.bottom for w in members) - min(w.top for w in members)
        ink = min(extent, 1.6 * heights[len(heights) // 2])
        # A cell left unread (`UNREAD_CELL`) says nothing of its line's letters: a key row "2. B   2. ?" is capitals.
        read = [w for w in members if w.text != UNREAD_CELL] or members
        if all(_CAP_HEIGHT_CHARS.match(w.text) for w in read):
            sizes[key] = ink / CAP_HEIGHT_PER_SIZE
        elif all(_X_HEIGHT_CHARS.match(w.text) for w in read):
            sizes[key] = ink / X_HEIGHT_PER_SIZE
        else:
            sizes[key] = ink / LINE_HEIGHT_PER_SIZE
    return sizes


# A line of capitals and digits only ("A", "05", "3.1") has no ascenders or descenders: its ink is the
# cap height, about 0.7 of the font size. Measured as a whole line, a key's lone answer letter came out
# a quarter smaller than the text around it and was dropped as a margin note.
CAP_HEIGHT_PER_SIZE = 0.72
_CAP_HEIGHT_CHARS = re.compile(r"^[A-Z0-9.:]+$")
# Likewise small letters without ascenders or descenders ("a", "c", a key's lower-case answers): their
# ink is the x-height, about half the font size (0.45 in Times, 0.52 in Arial).
X_HEIGHT_PER_SIZE = 0.5
_X_HEIGHT_CHARS = re.compile(r"^[acemnorsuvwxz.,:]+$")
_GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")


def clean_text(text: str) -> str:
    # Tesseract emits decomposed accents now and then; the text path gives NFC.
    text = unicodedata.normalize("NFC", text).strip()
    # Greek data reads μ as the micro sign now and then ("αριθµό"); inside a Greek word it is always μ.
    if "\u00b5" in text and _GREEK.search(text):
        text = text.replace("\u00b5", "\u03bc")
    return text
