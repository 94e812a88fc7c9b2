"""A read ring placed among the page's words as a word of its label (`placed`): on the line of the words read
across it, what of those words lies outside the ring kept (`_outside`), a ring's look-alike read into them cut away.
"""
from __future__ import annotations

import unicodedata
from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.ringshapes import Ring
from pipeline.extract.ocr.words import Word

NARROW_GLYPH = 0.55  # a digit's or a Latin letter's width, in ring widths (a wide glyph's is about one)
MIN_RUN_HEIGHTS = 0.12  # a run of ink past a ring narrower than this (in ring heights) is no character
# What Tesseract reads a ring as, the digit or letter inside aside (`D1`, `@`, `©)`, `(3)`, `01778`, `Q`): its outline as a
# round capital or zero, or as brackets and signs; no character of these opens a word glued to its ring as printed.
RING_LOOKALIKES = frozenset("OQD0CG©®@()[]{}")
LOOKALIKE_MAX = 3  # characters a ring's look-alike takes at most ("(3)")
NARROWEST_GLYPH = 0.2  # the narrowest character's advance ("i", "l"), in ring heights
DIGIT_WIDTH = 0.45  # a digit's advance at the least, in ring heights (0.55-0.6 printed; a ring is a little over an em)


def placed_rings(words: list[Word], read: list[tuple[Ring, str, float]], ink: np.ndarray | None = None) -> list[Word]:
    """`words` with each read ring a word of its label: on the line of the words read across it or, where
    Tesseract read nothing there, of the nearest word right of it on its row, else left of it; a ring with
    no word near on its row is left out (no line to stand on)."""
    result = list(words)
    for ring, label, conf in read:
        height = ring.bottom - ring.top
        across = [w for w in result if w.left < ring.right and ring.left < w.right and w.top < ring.bottom and ring.top < w.bottom]
        crossed = {id(w) for w in across}
        if across:
            line = across[0].line
        else:
            # The option's text right of it, else what stands left of it on its row (a key's "4:" before its answer).
            beside = [w for w in result if w.top < ring.bottom and ring.top < w.bottom
                      and (ring.right <= w.left <= ring.right + 2 * height or ring.left - 3 * height <= w.right <= ring.left)]
            if not beside:
                continue
            line = min(beside, key=lambda w: (w.left < ring.left, abs(w.left - ring.right))).line
        kept: list[Word] = []
        for word in result:
            if id(word) in crossed:
                # Tesseract's box of a ring's look-alike may reach over the next word's ink ("(5)" over "61").
                others = [(w.left, w.right) for w in result if w is not word and w.top < word.bottom and word.top < w.bottom]
                kept += _outside(word, ring, ink, others, label)
            else:
                kept.append(word)
        at = next((i for i, w in enumerate(kept) if w.line == line and w.left >= ring.left), None)
        if at is None:
            at = max((i + 1 for i, w in enumerate(kept) if w.line == line), default=len(kept))
        kept.insert(at, Word(label, conf, ring.left, ring.top, ring.right, ring.bottom, line))
        result = kept
    return result


def _outside(word: Word, ring: Ring, ink: np.ndarray | None, others: list[tuple[int, int]], label: str = "") -> list[Word]:
    """What of a word read across a ring lies outside it, left and right. Its characters are shared out
    by the ink: glyphs that stand apart (digits, letters of alphabets) one to each run of ink past the
    ring; with wide glyphs (Hangul, Han) among them, as many from the end as fill the ink's span; the
    ring's look-alike ("01" of "01778") is what is left."""
    count = len(word.text)
    parts = []
    before = round(count * max(0, ring.left - word.left) / max(1, word.right - word.left))
    if before:
        parts.append(replace(word, text=word.text[:before], right=ring.left))
    runs = _ink_runs_past(word, ring, ink, others)
    # A run narrower than a stroke is the bleed of a neighbour's ink, no character.
    runs = [(a, b) for a, b in runs if b - a >= MIN_RUN_HEIGHTS * (ring.bottom - ring.top)]
    if not runs:
        return parts
    start = runs[0][0]
    if any(unicodedata.east_asian_width(ch) in "WF" for ch in word.text):
        # From the word's end, as many characters as fill the inked span past the ring: a wide glyph
        # about a ring's width, any other about half (a ring read as "(1)" is three narrow ones).
        span, filled, after = word.right - start, 0.0, 0
        for ch in reversed(word.text[before:]):
            width = (ring.bottom - ring.top) * (1.0 if unicodedata.east_asian_width(ch) in "WF" else NARROW_GLYPH)
            if filled + width / 2 > span:
                break
            filled += width
            after += 1
        after = max(after, 1)
    else:
        # A word whose box only reaches into the ring's right half holds no reading of it: all of it is text.
        fit = max(len(runs), _fitting(word.text[before:], word.right - start, ring.bottom - ring.top))
        after = _past_lookalike(word.text[before:], label, len(runs), fit) if word.left < (ring.left + ring.right) / 2 else count - before
    after = min(after, count - before)
    if after > 0:
        parts.append(replace(word, text=word.text[count - after:], left=start))
    return parts


def _fitting(text: str, span: int, height: int) -> int:
    """How many of `text`'s last characters the ink's span past a ring can hold at the least, each at its
    narrowest: a digit `DIGIT_WIDTH` ring heights (figures print at one width), any other `NARROWEST_GLYPH`."""
    used, count = 0.0, 0
    for ch in reversed(text):
        used += (DIGIT_WIDTH if ch.isdigit() else NARROWEST_GLYPH) * height
        if used > span:
            break
        count += 1
    return count


def _past_lookalike(text: str, label: str, runs: int, fit: int) -> int:
    """How many of `text`'s characters (a word read from over a ring on: `Qodstawiłam`, `©Qczujka`, `(3)`, `096`)
    are the text printed past the ring. Its look-alike is what opens the word in the shapes a ring and its
    inside are read as (`RING_LOOKALIKES`, the label's own plain character once), at most `LOOKALIKE_MAX`
    characters, and never so many that fewer characters than the runs of ink past the ring are left, nor so
    few that more are left than the ink's span past the ring can hold (`fit`: "01778" read for a ring and "78").
    Counting characters by the runs alone dropped the first letters of a word glued to its ring, wherever
    letters touch (`①zielonej` read `④ elonej`): a run may hold two letters, never less than one."""
    plain = unicodedata.normalize("NFKC", label)
    taken, own = 0, False
    for ch in text[:LOOKALIKE_MAX]:
        if ch in RING_LOOKALIKES or (not ch.isalnum() and not ch.isspace()):
            taken += 1
        elif ch == plain and not own:
            taken, own = taken + 1, True
        else:
            break
    if taken == len(text):  # all of it the ring's look-alike ("(3)"): the ink past it is the ring's own or the next word's
        return 0
    return min(max(len(text) - taken, min(runs, len(text))), fit)


def _ink_runs_past(word: Word, ring: Ring, ink: np.ndarray | None, others: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Runs of columns with ink in the word's box right of the ring and in no other word's box (`others`:
    their columns), in page columns (all of the box past the ring as one run when the page's ink is not at hand)."""
    left = ring.right + 1
    if word.right <= left:
        return []
    if ink is None:
        return [(left, word.right)]
    columns = [bool(dark) for dark in np.asarray(np.asarray(ink[max(0, word.top):word.bottom, left:word.right]).any(axis=0), dtype=bool)]
    for first, last in others:
        for at in range(max(0, first - left), min(len(columns), max(0, last - left))):
            columns[at] = False
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for at, dark in enumerate(columns):
        if dark and start is None:
            start = at
        elif not dark and start is not None:
            runs.append((left + start, left + at))
            start = None
    if start is not None:
        runs.append((left + start, left + len(columns)))
    return runs
