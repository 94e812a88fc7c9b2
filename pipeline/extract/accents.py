"""Accents a text layer writes as glyphs of their own, placed on the letter they belong to by geometry.

Producers write an accented letter in three ways: one precomposed glyph (`é`), a base glyph and a combining-mark
glyph (`e` + U+0301, the way a decomposed string or a ToUnicode map giving one is drawn), or a base glyph and a
*spacing* accent glyph (`´` U+00B4, Greek `΄` U+0384, `¨`, `˘`, `ˆ` …) drawn over it, as TeX's `\\accent` and some
word processors write it, the accent often emitted before its letter. The layout orders a row's glyphs by x, so a
combining mark over a narrow letter (`ì`) or a spacing accent centred over its letter lands before or after it, and
NFC (applied to every text-layer line) cannot put them together.

`attach_marks` finds each mark's letter on the page by its ink: a mark (combining, or a spacing accent whose centre
lies over the inner part of a letter of its line) is given a box just inside its letter's, after the letter and any
mark already on it (content-stream order among them), and a spacing accent becomes its combining mark. The row's
sort then writes letter and marks together and NFC composes them. A spacing accent printed between letters (`l´homme`)
or alone is left as it is. What counts as a spacing accent is Unicode's knowledge: the characters whose compatibility
decomposition is a space and one combining mark, and the modifier letters and ASCII characters printed as accents.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable

import numpy as np

# Spacing characters printed as accents that have no compatibility decomposition to their mark.
_SPACING_WITHOUT_DECOMPOSITION = {"\u02c6": "\u0302", "\u02c7": "\u030c", "\u02ca": "\u0301", "\u02cb": "\u0300",
                                  "`": "\u0300", "^": "\u0302", "~": "\u0303", "\u02c9": "\u0304"}
# How far inside its letter's box a spacing accent's centre must lie (a share of the letter's width from each side):
# an accent between two letters is a character of its own.
INNER = 0.2


class _CodeTable:
    """A value a BMP code point (0 or more), worked out by `of` for the code points a caller asks about and kept: a
    process asks about the few hundred code points its pages hold, not the 65,536 of the plane (all of them took 25-55
    CPU ms a process, most of a generated sheet's glyph read on its first page). Past the BMP: 0."""

    UNKNOWN = -1

    def __init__(self, of: Callable[[int], int], dtype: type) -> None:
        self.of = of
        self.values: np.ndarray = np.full(0x10000, self.UNKNOWN, dtype=dtype)

    def __getitem__(self, codes: np.ndarray) -> np.ndarray:
        """Each code's value (`codes`: a 1-D array of integer code points)."""
        inside = np.minimum(codes, 0xFFFF)
        found = self.values[inside]
        if len(found) and found.min() < 0:
            for code in set(inside[found < 0].tolist()):  # (not `np.unique`: its first call imports 7 modules, 10-60 ms)
                self.values[code] = self.of(code)
            found = self.values[inside]
        if len(codes) and codes.max() > 0xFFFF:
            found[codes > 0xFFFF] = 0
        return found


def _kind_and_mark(code: int) -> tuple[int, int]:
    """(kind, mark) of a BMP code point: kind 1 a combining mark, 2 a spacing accent (mark: its combining mark's code)."""
    ch = chr(code)
    if ch in _SPACING_WITHOUT_DECOMPOSITION:
        return 2, ord(_SPACING_WITHOUT_DECOMPOSITION[ch])
    if unicodedata.category(ch) == "Mn" and unicodedata.combining(ch):
        return 1, 0
    decomposed = unicodedata.normalize("NFKD", ch)
    if len(decomposed) == 2 and decomposed[0] == " " and unicodedata.combining(decomposed[1]):
        return 2, ord(decomposed[1])
    return 0, 0


_KINDS = _CodeTable(lambda code: _kind_and_mark(code)[0], np.int8)
_MARKS = _CodeTable(lambda code: _kind_and_mark(code)[1], np.int64)
_LETTERS = _CodeTable(lambda code: int(unicodedata.category(chr(code))[0] == "L"), np.int8)


def mark_kinds(codes: np.ndarray) -> np.ndarray:
    """Per code point: 0 none, 1 a combining mark, 2 a spacing accent (past the BMP: none)."""
    return _KINDS[codes]


def attach_marks(codes: np.ndarray, x0: np.ndarray, x1: np.ndarray, top: np.ndarray, bottom: np.ndarray, size: np.ndarray,
                 ink: dict[int, tuple[float, float]]) -> list[int]:
    """Marks moved onto their letters in place (`codes` and the boxes, glyphs in content-stream order, top-left origin);
    `ink`: a mark's ink extent (left, right) where the text layer gives one (its loose box is its advance, nothing for a
    zero-width combining mark). Returns the marks attached."""
    kinds = mark_kinds(codes)
    candidates = np.flatnonzero(kinds)
    if not len(candidates):
        return []
    letters = np.flatnonzero((_LETTERS[codes] == 1) & (kinds == 0))
    if not len(letters):
        return []
    on_letter: dict[int, list[int]] = {}
    for at in candidates.tolist():
        # A spacing accent is centred by its advance (as TeX's `\accent` centres it); a combining mark has none, its
        # ink tells where it is drawn.
        left, right = ink.get(at, (float(x0[at]), float(x1[at]))) if kinds[at] == 1 else (float(x0[at]), float(x1[at]))
        centre = (left + right) / 2
        middle = (top[at] + bottom[at]) / 2
        line = (middle >= top[letters] - 0.6 * size[letters]) & (middle <= bottom[letters]) & (np.abs(size[letters] - size[at]) <= 0.25 * size[letters])
        width = x1[letters] - x0[letters]
        base = -1
        if kinds[at] == 1:
            # A combining mark without advance is drawn at the pen position its letter's advance left, so its box ends
            # where its letter's does (the text page's box of such a mark runs from its ink to that point): the letter
            # of its line ending there, under the mark's ink, whatever order the stream emits them in.
            tolerance = 0.05 * size[at]
            ending = letters[line & (x1[letters] >= x0[at] - tolerance) & (x1[letters] <= x1[at] + tolerance)
                             & (x0[letters] - 0.3 * size[at] <= centre) & (centre <= x1[letters] + 0.3 * size[at])]
            if len(ending):  # (a horn's ink reaches past the pen position: the letter ending nearest the box's end)
                base = int(ending[np.argmin(np.abs(x1[ending] - x1[at]) + 1e-6 * np.abs(ending - at))])
        if base < 0 and kinds[at] == 1:  # else the letter before it in the stream where it is drawn near it
            before = np.searchsorted(letters, at) - 1
            if before >= 0 and line[before] and all(kinds[k] == 1 for k in range(int(letters[before]) + 1, at)) \
                    and x0[letters[before]] - 0.3 * size[at] <= centre <= x1[letters[before]] + 0.3 * size[at]:
                base = int(letters[before])
        if base < 0:
            margin = INNER * width if kinds[at] == 2 else -0.05 * width  # a combining mark's ink may reach a little past
            found = letters[line & (x0[letters] + margin <= centre) & (centre <= x1[letters] - margin)]
            if not len(found):
                continue
            base = int(found[np.argmin(np.abs(found - at))])  # the nearest in the content stream
        on_letter.setdefault(base, []).append(at)
    # A letter's marks follow it nearest first in the content stream: in stream order where they follow it, the other
    # way round where a line is emitted backwards (NFC keeps the order of marks of one class: `ề` is `e` + ̂ + ̀).
    attached = []
    for base, marks in on_letter.items():
        span = float(x1[base] - x0[base])
        for rank, at in enumerate(sorted(marks, key=lambda m: (abs(m - base), m)), 1):
            x0[at] = x0[base] + min(0.01 * rank, span / 100 * rank)
            x1[at] = x1[base]
            top[at], bottom[at], size[at] = top[base], bottom[base], size[base]
            if kinds[at] == 2:
                codes[at] = _MARKS[codes[at:at + 1]][0]
            attached.append(at)
    return sorted(attached)
