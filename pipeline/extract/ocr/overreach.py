"""Word boxes that reach over the words after them on their line, cut back to their own ink.

Tesseract now and then gives a line's first word a box that runs to the line's end (seen after a ringed
option label: `① 다루는데 분신 어설프게 왕식렴`, `다루는데` boxed over the whole line, the three words after
it with their own boxes inside it). The text is right; the box is not, and every repair that measures a
word by its box then goes wrong: two pieces of a script without letter spaces are joined because the
overreaching box makes their glyphs overlap (`다루는데분신`), a number inside the box is passed over and
the words either side of it are glued (`당산역 74 높이며` read `당산역높이며 74`), a word's white is measured
across words that are not its own.

A box cannot hold the box of a later word of its own Tesseract line: where one does, the box ends at the
last ink before the first such word (the word before it ends there, whatever its script). Nothing here
knows a script, a language or a word; only boxes and ink.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.words import Word, words_by_line


def clip_overreaching(words: list[Word], ink: np.ndarray | None) -> tuple[list[Word], int]:
    """`words` with each box that holds the whole box of a later word of its line (both ends within it) cut back
    to the last ink column before the first such word (or just before it, with no ink to go by); how many were cut.
    A box left with no width is kept as it was."""
    cut: dict[int, Word] = {}
    for members in words_by_line(words).values():
        for at, word in enumerate(members):
            inside = [w for w in members[at + 1:] if word.left < w.left and w.right <= word.right and w.text.strip()]
            if not inside:
                continue
            stop = min(w.left for w in inside)
            right = _last_ink(ink, word, stop) if ink is not None else stop
            if right > word.left:
                cut[id(word)] = replace(word, right=right)
    return [cut.get(id(w), w) for w in words], len(cut)


def _last_ink(ink: np.ndarray, word: Word, stop: int) -> int:
    """One past the last column of ink in `word`'s rows from its left edge to `stop`; `stop` where there is none."""
    band = np.asarray(ink[max(0, word.top):max(0, word.bottom), max(0, word.left):max(0, stop)])
    columns = np.flatnonzero(band.any(axis=0)) if band.size else np.zeros(0, dtype=int)
    return max(0, word.left) + int(columns[-1]) + 1 if columns.size else stop


__all__ = ["clip_overreaching"]
