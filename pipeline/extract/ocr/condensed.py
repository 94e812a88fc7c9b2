"""Condensed type: pages whose letters are narrower than a normal typeface are read a second time,
widened to a normal letter width, and the widened readings replace the words they cover.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import prepare_for_tesseract, read_widened
from pipeline.extract.ocr.words import Word, line_sizes

# Condensed type: the median advance per character of confidently read words (CONDENSED_MIN_CONF, five
# letters or more, at least CONDENSED_MIN_WORDS of them) under CONDENSED_BELOW font sizes. Measured:
# CONAREME's narrow sans 0.37; CKE, NÚCEM and the generated sheets 0.44–0.48. Such a page is widened
# towards NORMAL_CHAR_WIDTH, at most MAX_STRETCH times.
CONDENSED_BELOW = 0.41
CONDENSED_MIN_CONF = 80.0
CONDENSED_MIN_WORDS = 10
NORMAL_CHAR_WIDTH = 0.47
MAX_STRETCH = 1.5
WIDE_MIN_LETTERS = 4
WIDE_MIN_SHARE = 0.8
WIDE_MAX_OTHER = 0.05  # share of a first-pass word other widened words may cover and leave it replaceable


def char_width(words: list[Word]) -> float | None:
    """Median advance per character of the page's confidently read words, in font sizes (line ink heights)."""
    sizes = line_sizes(words)
    widths = sorted(
        (w.right - w.left) / len(w.text) / sizes[w.line]
        for w in words
        if len(w.text) >= 5 and w.text.isalpha() and w.conf >= CONDENSED_MIN_CONF and sizes.get(w.line)
    )
    return widths[len(widths) // 2] if len(widths) >= CONDENSED_MIN_WORDS else None


def read_condensed(
    image: Image.Image, dpi: int, stretch: float, languages: Sequence[str], omp_thread_limit: int | None, folder: Path
) -> list[Word]:
    """The page pass again on condensed type: unsmoothed and widened by `stretch`, word boxes mapped back.

    Tesseract's models lose letters inside the tight pairs of a narrow typeface ("Sitaglipina",
    "Infuenza") and glue a question number's dot off ("64 ."); widened to a normal letter width and
    left sharp, a CONAREME sheet read 100 of 100 questions with 94 % of options exact, against 99 and
    83 % as it was."""
    sharp = prepare_for_tesseract(image, dpi, smoothing=False)
    return read_widened(sharp, stretch, folder / "condensed.pgm", languages, dpi, omp_thread_limit)


def _intersections(boxes: np.ndarray, word: Word) -> np.ndarray:
    """Area each of `boxes` (left, top, right, bottom rows) shares with `word`'s box."""
    width = np.minimum(boxes[:, 2], word.right) - np.maximum(boxes[:, 0], word.left)
    height = np.minimum(boxes[:, 3], word.bottom) - np.maximum(boxes[:, 1], word.top)
    return np.clip(width, 0, None) * np.clip(height, 0, None)


def wide_readings(first: list[Word], wide: list[Word]) -> list[Word]:
    """`first` with its words replaced by the widened pass's reading of the same place.

    A widened word of WIDE_MIN_LETTERS letters or more replaces the first-pass words that lie inside it
    (WIDE_MIN_SHARE of their area) when together they fill it (the same share of its area) and none of them is a label or number (fewer than two
    letters): letters lost in tight pairs come back ("Sitaglipina", "Esofagostom ía"). Labels and
    numbers stay as the first pass read them: the widened pass, its layout analysis upset by the new
    proportions, garbled a column of option labels ("1." as "P.", "A." as "<>..")."""
    boxes = np.array([(w.left, w.top, w.right, w.bottom) for w in first], dtype=np.int64).reshape(-1, 4)
    areas = np.maximum((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]), 1)
    # How much of each first-pass word the widened words cover in all: a word split across two widened
    # words ("Esofagostomia" read wide as "Esofagostom" + "ía") is no one reading's to replace.
    shared = [_intersections(boxes, reading) for reading in wide]
    covered = np.sum(shared, axis=0) if shared else np.zeros(len(first))
    replaced: dict[int, Word | None] = {}
    for reading, inter in zip(wide, shared):
        if sum(ch.isalpha() for ch in reading.text) < WIDE_MIN_LETTERS:
            continue
        touched = np.flatnonzero(inter > 0)
        members = [int(i) for i in touched if inter[i] > WIDE_MIN_SHARE * areas[i]]
        area = max((reading.right - reading.left) * (reading.bottom - reading.top), 1)
        if (
            not members
            or len(members) != len(touched)
            or inter[members].sum() < WIDE_MIN_SHARE * area
            or any(covered[i] - inter[i] > WIDE_MAX_OTHER * areas[i] for i in members)
            or any(i in replaced or sum(ch.isalpha() for ch in first[i].text) < 2 for i in members)
        ):
            continue
        head = first[members[0]]
        replaced[members[0]] = replace(
            head,
            text=reading.text,
            conf=reading.conf,
            left=min(first[i].left for i in members),
            right=max(first[i].right for i in members),
            top=min(first[i].top for i in members),
            bottom=max(first[i].bottom for i in members),
        )
        replaced.update({i: None for i in members[1:]})
    mended = [replaced.get(i, word) for i, word in enumerate(first)]
    return [w for w in mended if w is not None]
