"""Typography read from the image: bold words (stem thickness) and highlighted words (a yellow fill
behind them, how some publishers mark the key).
"""
from __future__ import annotations


import numpy as np

from pipeline.extract.layout import Glyph
from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.words import Word

# A line counts as highlighted when this share of its background (the non-ink pixels) is yellow.
HIGHLIGHT_MIN_SHARE = 0.45


def _yellow_mask(rgb: np.ndarray) -> np.ndarray:
    r, g, b = (rgb[..., i].astype(np.int16) for i in range(3))
    return (r > 170) & (g > 160) & (b < 150) & (r - b > 70) & (g - b > 60)


def highlight_share(rgb: np.ndarray | None, box: tuple[int, int, int, int]) -> float:
    """Share of a word box's background pixels that are yellow (0 when the page has no colour)."""
    if rgb is None:
        return 0.0
    left, top, right, bottom = box
    patch = rgb[max(top, 0) : bottom, max(left, 0) : right]
    if patch.size == 0:
        return 0.0
    # Ink (dark pixels) is neither highlight nor paper; judge the background only.
    light = patch.max(axis=2) > 140
    background = int(light.sum())
    if background == 0:
        return 0.0
    return float((_yellow_mask(patch) & light).sum()) / background


def _stroke_width(ink: np.ndarray, word: Word, size: float) -> float | None:
    """Mean length of the word's horizontal ink runs no longer than a quarter font size (its stems),
    in font sizes."""
    box = ink[word.top : word.bottom, word.left : word.right]
    edges = np.diff(np.pad(box.astype(np.int8), ((0, 0), (1, 1))), axis=1).ravel()
    runs = np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1)
    stems = runs[runs <= 0.25 * size]
    return float(stems.mean()) / size if stems.size else None


BOLD_MIN_LETTERS = 4
BOLD_MIN_RATIO = 1.35
BOLD_MIN_WORDS = 20


def bold_words(words: list[Word], ink: np.ndarray, sizes: dict[tuple[int, int, int], float]) -> set[int]:
    """ids of the words printed bold: stems BOLD_MIN_RATIO times as thick as the page's median word.

    Measured against the text layer's fonts on the NÚCEM scans: regular words 0.99 (median), 1.27 at
    the 99.9th percentile; bold words 1.37–1.39 (median). Words under BOLD_MIN_LETTERS letters are too
    few stems to tell ("tos" came out at 1.4)."""
    widths = {}
    for word in words:
        if sum(ch.isalpha() for ch in word.text) >= 3 and sizes.get(word.line):
            width = _stroke_width(ink, word, sizes[word.line])
            if width:
                widths[id(word)] = (word, width)
    if len(widths) < BOLD_MIN_WORDS:
        return set()
    median = float(np.median([width for _, width in widths.values()]))
    return {
        key for key, (word, width) in widths.items()
        if width >= BOLD_MIN_RATIO * median and sum(ch.isalpha() for ch in word.text) >= BOLD_MIN_LETTERS
    }


def joined_words(glyphs: list[Glyph]) -> str:
    """The words of a segment joined by spaces, a run of bold words in a line of regular type as
    **run**, as the text path marks it. A line mostly bold is a bold line (a title, a bold paragraph):
    the stems of some of its words measure regular, and marking the rest would break it up."""
    measured = [g for g in glyphs if sum(ch.isalpha() for ch in g.text) >= BOLD_MIN_LETTERS]
    if not any(g.bold for g in glyphs) or 2 * sum(g.bold for g in measured) >= len(measured):
        return " ".join(g.text for g in glyphs)
    parts, at = [], 0
    while at < len(glyphs):
        end = at
        while end < len(glyphs) and glyphs[end].bold == glyphs[at].bold:
            end += 1
        run = " ".join(g.text for g in glyphs[at:end])
        if glyphs[at].bold:
            # Punctuation around a bold word is usually set regular ("**však**,"), as the text path shows.
            lead, core, trail = word_core(run)
            run = f"{lead}**{core}**{trail}" if core else run
        parts.append(run)
        at = end
    return " ".join(parts)
