"""Specks told from the small marks of writing by where they lie, not by their size alone.

Dust and a dirty scanner glass leave dots of ink all over a page; Tesseract reads some as letters or
punctuation, and cell-by-cell key readers see ink in cells that hold none (a speckled OAB grid key read
no answer at all). A despeckle by size alone would take the marks of writing of the same size: i- and
j-dots, periods, acute and grave accents, carons, umlauts, Polish and Slovak dots above, Vietnamese dots
below, Greek tonos; a clean page has hundreds of them. What tells them apart is layout: every such mark
sits within a fraction of a letter's height of a letter (above, below or beside it) or, as the dots of a
leader, in an evenly spaced row of its like, while a speck falls anywhere, most of it on the white
between lines, in margins and in a key's empty cells.

A page's letter height is measured from its own ink (the median height of the components of a letter's
size), so the distances scale with the type and the resolution. A small component (at most
`SPECK_MAX_LETTER` of a letter's height each way) is a speck when no other ink lies within `NEAR_LETTER`
letter heights of it, ink kept near letters counting in turn for the marks stacked on it (a Vietnamese
acute on a circumflex), and it is not one of at least `LEADER_MIN_DOTS` like dots evenly spaced on one
row. Only a page with at least `MIN_SPECKS_PER_SQUARE_INCH` such specks is touched: a clean page's few
stray dots (a figure's points, a lone period) stay as printed.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
from PIL import Image
from scipy import ndimage
from scipy.spatial import cKDTree

# A letter's size, to measure the page's type by: components this many inches tall at least (specks and
# dots are smaller) and at most LETTER_MAX_INCHES (figures, frames and headings' capitals are larger).
LETTER_MIN_INCHES = 0.025
LETTER_MAX_INCHES = 0.3
MIN_LETTERS = 40  # components of a letter's size a page needs for its letter height to be measured
SPECK_MAX_LETTER = 0.4  # letter heights, each way: a component no larger may be a speck (a dot, an accent)
# Letter heights from a small mark's box to the nearest writing beyond which it stands apart: up or down,
# NEAR_LETTER (an i-dot or an accent lies 0.1–0.35 of a letter's height from its letter, a dot below as
# close); along its row, NEAR_ROW (the period of a label "Γ.", "T.", "7." lies a letter's width from its
# stem: 1.1 letter heights on a serif Greek sheet).
NEAR_LETTER = 0.6
NEAR_ROW = 1.5
# Marks kept near a letter count as writing, within STACK_NEAR letter heights, for the marks on them (ệ, ế:
# a mark on a mark, almost touching): one round.
STACK_NEAR = 0.25
# A leader ("......", ". . . ."), a dotted answer line: at least LEADER_MIN_DOTS like dots (areas within
# LEADER_AREA_RATIO) on one row (to LEADER_ROW letter heights), each within LEADER_STEP letter heights of the
# next, evenly spaced (the widest step at most LEADER_EVEN times the narrowest). Specks fall in such rows
# rarely: at 0.002 of a 150 dpi scan's pixels, a speck has another in its row's reach one time in seven.
LEADER_MIN_DOTS = 4
LEADER_STEP = 1.2
LEADER_ROW = 0.1
LEADER_AREA_RATIO = 3.0
LEADER_EVEN = 1.5
# Specks per square inch of page below which the page is left as scanned: a clean sheet has a handful of
# isolated dots on a page (measured: 0–0.3 per square inch on the corpus and generated sheets), a
# speckled scan tens (0.001 of pixels at 200 dpi: about 20).
MIN_SPECKS_PER_SQUARE_INCH = 2.0
# Grey level under which a pixel of the page as scanned is ink here: lighter than the prepared page's
# threshold, since a speck a pixel wide at 150–200 dpi comes out grey once rendered and smeared by JPEG,
# and the readers of unprepared cells (grid keys, table rules) see it.
SPECK_INK_BELOW = 170
HALO_PX = 1  # px around a speck also turned to paper: the blur and JPEG smear its edge


@dataclass(frozen=True)
class Specks:
    """The page's specks: a mask of their pixels (halo included), how many, and the letter height measured."""

    mask: np.ndarray
    count: int
    letter_height: float
    small_marks: int  # small components near writing or in a leader, kept

    def per_square_inch(self, dpi: int) -> float:
        return self.count / (self.mask.size / dpi**2)

    def speckled(self, dpi: int) -> bool:
        """Whether the page has specks enough to be a speckled scan (`MIN_SPECKS_PER_SQUARE_INCH`)."""
        return self.per_square_inch(dpi) >= MIN_SPECKS_PER_SQUARE_INCH


def letter_height(heights: np.ndarray, widths: np.ndarray, dpi: int) -> float:
    """The median height of the components of a letter's size, in px (0 with fewer than `MIN_LETTERS`)."""
    low, high = LETTER_MIN_INCHES * dpi, LETTER_MAX_INCHES * dpi
    letters = heights[(heights >= low) & (heights <= high) & (widths <= high)]
    return float(np.median(letters)) if letters.size >= MIN_LETTERS else 0.0


def _near(mask: np.ndarray, up_down: int, along: int | None = None) -> np.ndarray:
    """Pixels within `up_down` px of `mask` vertically and `along` px (`up_down` when None) horizontally."""
    along = up_down if along is None else along
    grown = ndimage.maximum_filter1d(mask.view(np.uint8), 2 * up_down + 1, axis=0)
    return ndimage.maximum_filter1d(grown, 2 * along + 1, axis=1).view(bool)


def _in_leaders(centres: np.ndarray, areas: np.ndarray, height: float) -> np.ndarray:
    """Which of the isolated small marks belong to a row of at least `LEADER_MIN_DOTS` like, close marks."""
    count = len(centres)
    if count < LEADER_MIN_DOTS:
        return np.zeros(count, dtype=bool)
    parent = np.arange(count)

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return int(i)

    for i, j in cKDTree(centres).query_pairs(LEADER_STEP * height):
        same_row = abs(centres[i, 0] - centres[j, 0]) <= LEADER_ROW * height
        alike = max(areas[i], areas[j]) <= LEADER_AREA_RATIO * min(areas[i], areas[j])
        if same_row and alike:
            parent[root(i)] = root(j)
    roots = np.array([root(i) for i in range(count)])
    leaders = np.zeros(count, dtype=bool)
    for group in np.flatnonzero(np.bincount(roots, minlength=count) >= LEADER_MIN_DOTS):
        members = np.flatnonzero(roots == group)
        steps = np.diff(np.sort(centres[members, 1]))
        if steps.min() > 0 and steps.max() <= LEADER_EVEN * steps.min():
            leaders[members] = True
    return leaders


def find_specks(grey: np.ndarray, dpi: int) -> Specks:
    """The specks of a grey page as scanned (uint8) at `dpi`: small components standing apart from writing
    and from any row of like dots (none where the page has too few letters to measure its type by)."""
    ink = grey < SPECK_INK_BELOW
    labels, total = ndimage.label(ink, structure=np.ones((3, 3), dtype=bool))
    nothing = Specks(np.zeros(ink.shape, dtype=bool), 0, 0.0, 0)
    if total == 0:
        return nothing
    boxes = ndimage.find_objects(labels)
    heights = np.array([b[0].stop - b[0].start for b in boxes])
    widths = np.array([b[1].stop - b[1].start for b in boxes])
    height = letter_height(heights, widths, dpi)
    if not height:
        return nothing
    small_size = SPECK_MAX_LETTER * height
    small = (heights <= small_size) & (widths <= small_size)  # per component (label - 1)
    small_of_label = np.concatenate(([False], small))
    writing = ink & ~small_of_label[labels]
    ids = np.flatnonzero(small) + 1
    kept = np.zeros(ids.size, dtype=bool)
    if ids.size:
        near = _near(writing, max(1, round(NEAR_LETTER * height)), max(1, round(NEAR_ROW * height)))
        kept = np.asarray(ndimage.maximum(near, labels, ids), dtype=bool)
    if kept.any() and not kept.all():
        # Only writing and the marks kept near it: a mark's own pixels are not in `stacked` unless it was kept.
        stacked = _near(ink & np.isin(labels, ids[kept]), max(1, round(STACK_NEAR * height)))
        kept |= np.asarray(ndimage.maximum(stacked, labels, ids), dtype=bool)
    apart = ids[~kept]
    if apart.size:
        starts = np.array([[boxes[i - 1][0].start, boxes[i - 1][1].start] for i in apart], dtype=float)
        ends = np.array([[boxes[i - 1][0].stop, boxes[i - 1][1].stop] for i in apart], dtype=float)
        areas = np.bincount(labels.ravel(), minlength=total + 1)[apart]
        apart = apart[~_in_leaders((starts + ends) / 2, areas, height)]
    small_marks = int(ids.size - apart.size)
    mask = np.isin(labels, apart)
    if HALO_PX:
        mask = _near(mask, HALO_PX)
    return Specks(mask, int(apart.size), height, small_marks)


def without_specks(image: Image.Image, mask: np.ndarray) -> Image.Image:
    """`image` (L or RGB, the mask's size) with the masked pixels turned to paper (white)."""
    pixels = np.array(image)
    pixels[mask] = 255
    return Image.fromarray(pixels, mode=image.mode)


_last = threading.local()  # the last page measured on this thread: a pass's condition and its step measure it once


def specks_of(image: Image.Image, dpi: int) -> Specks:
    """`find_specks` of `image` (any mode), measured once for the same image object on this thread."""
    cached = getattr(_last, "entry", None)
    if cached is not None and cached[0] is image and cached[1] == dpi:
        return cached[2]
    found = find_specks(np.asarray(image.convert("L")), dpi)
    _last.entry = (image, dpi, found)
    return found
