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

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from PIL import Image

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
# Specks per square inch of page below which the page is left as scanned: a clean scan has a few isolated
# dots on a page (measured at 150–300 dpi: at most 3.0 per square inch, CONAREME 2018 at 150 dpi; 0–0.1 at
# 300 dpi; a cover printed as a fine dot screen is the exception, 30–990), a speckled one tens (0.001 of a 200 dpi scan's pixels: about 10; 0.003: 17–70).
MIN_SPECKS_PER_SQUARE_INCH = 4.0
# Grey level under which a pixel of the page as scanned is ink here: lighter than the prepared page's
# threshold, since a speck a pixel wide at 150–200 dpi comes out grey once rendered and smeared by JPEG,
# and the readers of unprepared cells (grid keys, table rules) see it.
SPECK_INK_BELOW = 170
# Writing, that a small mark may lie by: components from WRITING_MIN_LETTER to WRITING_MAX_LETTERS letter
# heights tall and at most WRITING_MAX_WIDTH wide (letters, letters touching, a heading's capitals); rules,
# frames and figures are not (a speck in a key's cell lies by its rules).
WRITING_MIN_LETTER = 0.5
WRITING_MAX_LETTERS = 3.0
WRITING_MAX_WIDTH = 10.0
# A dot at most TINY_LETTER of a letter's height each way is smaller than any mark of the page's type (a period
# or i-dot of 6 pt type beside 10 pt text is 0.17): a speck even beside a letter, unless it lies within
# TOUCH_LETTER (TOUCH_PX at least) of other ink.
TINY_LETTER = 0.15
TOUCH_LETTER = 0.1
TOUCH_PX = 2
# A tiny dot that is the darkest part of a pale stroke is no speck: a thin ring (①) or hairline printed light and scanned
# soft at 150 dpi is grey (170–215) all round, darker than SPECK_INK_BELOW only in spots a few px long, which the tiny
# rule took for specks and whitened, cutting the ring open. A speck on paper has only its own blurred halo round it:
# under STROKE_INK_BELOW, the stroke it lies on is writing-sized, larger than a speck each way or the other.
STROKE_INK_BELOW = 215
FILL_RING_PX = 3  # px round a light speck whose median shade it takes
GROUND_SOLID = 0.7  # share of its box a light component fills to be ground (a cell's white), not a letter's strokes
_EIGHT = np.ones((3, 3), dtype=bool)
HALO_PX = 1  # px around a speck also turned to paper: the blur and JPEG smear its edge


@dataclass(frozen=True)
class Specks:
    """The page's specks: a mask of their pixels (halo included), how many, and the letter height measured."""

    mask: np.ndarray  # dark specks, turned to paper
    count: int
    letter_height: float
    small_marks: int  # small dark components near writing or in a leader, kept
    light_mask: np.ndarray | None = None  # light specks on dark fills, turned to the fill's shade
    light_count: int = 0
    # False where the page stopped at the first, cheap step: fewer small marks stand apart from writing than a
    # speckled page has, so `count` is that number (the specks are at most as many) and `mask` is empty.
    settled: bool = True

    def per_square_inch(self, dpi: int) -> float:
        """Dark specks per square inch: what tells a speckled scan (a light speck shows only on a fill)."""
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
    from scipy import ndimage  # here, not at import: scipy costs every process a second, OCR or not
    along = up_down if along is None else along
    grown = ndimage.maximum_filter1d(mask.view(np.uint8), 2 * up_down + 1, axis=0)
    return ndimage.maximum_filter1d(grown, 2 * along + 1, axis=1).view(bool)


def _in_leaders(centres: np.ndarray, areas: np.ndarray, height: float) -> np.ndarray:
    """Which of the isolated small marks belong to a row of at least `LEADER_MIN_DOTS` like, close marks."""
    count = len(centres)
    if count < LEADER_MIN_DOTS:
        return np.zeros(count, dtype=bool)
    from scipy.spatial import cKDTree

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


def find_specks(grey: np.ndarray, dpi: int, *, settle: bool = True) -> Specks:
    """The specks of a grey page as scanned (uint8) at `dpi`: dark dots on paper and light dots on dark fills,
    small components standing apart from writing and from any row of like dots (none where the page has too
    few letters to measure its type by). `settle=False`: a page on which fewer small marks stand apart from
    writing than a speckled page has specks is left there (`Specks.settled`), its paper never labelled: what
    the pass's condition needs on a clean page, at a fraction of the cost."""
    dark = _Components(grey < SPECK_INK_BELOW)
    height = letter_height(dark.heights, dark.widths, dpi)
    if not height:
        return Specks(np.zeros(grey.shape, dtype=bool), 0, 0.0, 0)
    light = None

    def paper() -> np.ndarray:  # labelled only on a page that may be speckled: most of a clean page's cost
        nonlocal light
        light = _Components(grey >= SPECK_INK_BELOW)
        return light.image_of(light.ground(height))

    # Dark specks lie on paper (or a cell's white), never inside a light letter on a fill (its counter); they
    # stand apart from writing, which has a word's shape: letters, letters touching, not rules, frames and
    # figures, whose edges a speck may lie by anywhere.
    writing = (dark.heights >= WRITING_MIN_LETTER * height) & (dark.heights <= WRITING_MAX_LETTERS * height) & (
        dark.widths <= WRITING_MAX_WIDTH * height)
    least = MIN_SPECKS_PER_SQUARE_INCH * grey.size / dpi**2
    specks, count, marks = _apart(dark, writing, paper, height, 0.0 if settle else least, lambda: _pale_strokes(grey, height))
    if light is None:
        return Specks(specks, count, height, marks, settled=False)
    if count < least:
        return Specks(specks, count, height, marks)  # no speckled scan: its light dots are not looked for
    # Light specks lie on a dark fill (a key's filled number row), never inside a dark letter (its counter);
    # they stand apart from the light shapes there, the fill's light letters.
    light_writing = ~light.small(height) & ~light.ground(height)
    lit, light_count, _ = _apart(light, light_writing, lambda: dark.image_of(dark.ground(height, solid=False)), height)
    return Specks(specks, count, height, marks, lit, light_count)


class _Components:
    """The 8-connected components of a mask, with their boxes' heights and widths and their areas."""

    def __init__(self, mask: np.ndarray):
        from scipy import ndimage
        self.labels, _ = ndimage.label(mask, structure=_EIGHT)
        self.boxes = ndimage.find_objects(self.labels)
        self.heights = np.array([b[0].stop - b[0].start for b in self.boxes], dtype=int)
        self.widths = np.array([b[1].stop - b[1].start for b in self.boxes], dtype=int)

    @functools.cached_property
    def areas(self) -> np.ndarray:
        return np.bincount(self.labels.ravel(), minlength=len(self.boxes) + 1)[1:]

    def small(self, height: float) -> np.ndarray:
        return (self.heights <= SPECK_MAX_LETTER * height) & (self.widths <= SPECK_MAX_LETTER * height)

    def ground(self, height: float, *, solid: bool = True) -> np.ndarray:
        """Which components are ground a speck may lie on: larger than writing (the paper, a fill) or, with
        `solid`, filling most of their box (a table cell's white), not a letter's strokes. Dark ground is
        large only: a bold letter fills its box as a cell's white does, and its counters are no specks."""
        large = (self.heights > WRITING_MAX_LETTERS * height) | (self.widths > WRITING_MAX_WIDTH * height)
        if solid:
            large |= self.areas >= GROUND_SOLID * self.heights * self.widths
        return large & ~self.small(height)

    def image_of(self, chosen: np.ndarray) -> np.ndarray:
        """The pixels of the chosen components (`chosen` per component)."""
        return np.concatenate(([False], chosen))[self.labels]


def _pale_strokes(grey: np.ndarray, height: float) -> np.ndarray:
    """The pixels of the page's pale strokes: components under `STROKE_INK_BELOW` of writing's size at most and larger than
    a speck (`SPECK_MAX_LETTER`) one way at least: a light ring's or hairline's grey, of which a tiny dark dot may be part."""
    pale = _Components(grey < STROKE_INK_BELOW)
    sized = (pale.heights <= WRITING_MAX_LETTERS * height) & (pale.widths <= WRITING_MAX_WIDTH * height)
    return pale.image_of(sized & ~pale.small(height))


def _any_in(mask: np.ndarray, labels: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Per component in `ids`, whether any of its pixels is in `mask`: one count over the page (`ndimage.maximum`
    sorts every pixel by its label, most of a page's cost)."""
    return np.bincount(labels[mask], minlength=int(ids.max()) + 1)[ids] > 0


def _apart(
    components: _Components, writing: np.ndarray, ground_of: Callable[[], np.ndarray], height: float, least: float = 0.0,
    strokes_of: Callable[[], np.ndarray] | None = None,
) -> tuple[np.ndarray, int, int]:
    """(mask of the small components standing apart on ground, halo included; how many; how many small ones kept).
    Where fewer than `least` stand apart from writing, the later steps (which only take marks back) are skipped and
    `ground_of` (the ground's pixels) is never called: (an empty mask, that number, how many were kept so far).
    `strokes_of`: the pale strokes' pixels (`_pale_strokes`), on which a tiny dot is a stroke's part, kept."""
    labels, boxes = components.labels, components.boxes
    small = components.small(height)
    ids = np.flatnonzero(small) + 1
    if not ids.size:
        return np.zeros(labels.shape, dtype=bool), 0, 0
    anchors = components.image_of(writing & ~small)
    # Near writing: within NEAR_LETTER every way (dots, accents, dots below), or beside it on its rows within
    # NEAR_ROW (a period after a wide letter). Not on ground: a counter inside a letter's strokes.
    near = _near(anchors, max(1, round(NEAR_LETTER * height))) | _near(anchors, 0, max(1, round(NEAR_ROW * height)))
    kept = _any_in(near, labels, ids)
    # A dot smaller than any mark of the page's type is a speck wherever it lies, unless it touches other ink
    # (a fragment of a pale letter's stroke).
    tiny = (components.heights <= TINY_LETTER * height) & (components.widths <= TINY_LETTER * height)
    lone_tiny = np.zeros(ids.size, dtype=bool)
    if tiny.any():
        touching = _near(components.image_of(~tiny), max(TOUCH_PX, round(TOUCH_LETTER * height)))
        lone_tiny = kept & tiny[ids - 1] & ~_any_in(touching, labels, ids)
        kept &= ~lone_tiny
    if np.count_nonzero(~kept) < least:  # the tiny dots on pale strokes counted: at most as many specks
        return np.zeros(labels.shape, dtype=bool), int(np.count_nonzero(~kept)), int(np.count_nonzero(kept))
    if strokes_of is not None and lone_tiny.any():
        kept |= lone_tiny & _any_in(strokes_of(), labels, ids)
    kept |= ~_any_in(_near(ground_of(), 1), labels, ids)
    if kept.any() and not kept.all():
        # Only writing and the marks kept near it: a mark's own pixels are not in `stacked` unless it was kept.
        stacked = _near(np.isin(labels, ids[kept]), max(1, round(STACK_NEAR * height)))
        kept |= _any_in(stacked, labels, ids)
    apart = ids[~kept]
    if apart.size:
        starts = np.array([[boxes[i - 1][0].start, boxes[i - 1][1].start] for i in apart], dtype=float)
        ends = np.array([[boxes[i - 1][0].stop, boxes[i - 1][1].stop] for i in apart], dtype=float)
        apart = apart[~_in_leaders((starts + ends) / 2, components.areas[apart - 1], height)]
    mask = np.isin(labels, apart)
    if HALO_PX and apart.size:
        mask = _near(mask, HALO_PX)
    return mask, int(apart.size), int(ids.size - apart.size)


def without_specks(image: Image.Image, specks: Specks) -> Image.Image:
    """`image` (L or RGB, the masks' size) with its dark specks turned to paper (white) and each light speck to
    the median shade of the fill round it."""
    from scipy import ndimage
    pixels = np.array(image)
    pixels[specks.mask] = 255
    if specks.light_mask is not None and specks.light_mask.any():
        labels, _ = ndimage.label(specks.light_mask, structure=_EIGHT)
        for index, box in enumerate(ndimage.find_objects(labels), start=1):
            rows, columns = box
            top, left = max(rows.start - FILL_RING_PX, 0), max(columns.start - FILL_RING_PX, 0)
            around = (slice(top, rows.stop + FILL_RING_PX), slice(left, columns.stop + FILL_RING_PX))
            ring = ~specks.light_mask[around]
            if ring.any():
                speck = labels[around] == index
                pixels[around][speck] = np.median(pixels[around][ring], axis=0).astype(pixels.dtype)
    return Image.fromarray(pixels, mode=image.mode)


_last = threading.local()  # the last page measured on this thread: a pass's condition and its step measure it once


def specks_of(image: Image.Image, dpi: int) -> Specks:
    """`find_specks` of `image` (any mode), measured once for the same image object on this thread."""
    cached = getattr(_last, "entry", None)
    if cached is not None and cached[0] is image and cached[1] == dpi:
        return cached[2]
    found = find_specks(np.asarray(image.convert("L")), dpi, settle=False)
    _last.entry = (image, dpi, found)
    return found
