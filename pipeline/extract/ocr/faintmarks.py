"""Faint marks kept through the whitening: an accent or a thin stroke that a soft scan printed lighter than paper's cut.

The page preparation turns every grey above `WHITE_FROM` to paper (fills, tints, grain, light boxes). On a 150 dpi
scan with blur the marks of writing are lighter than their letters: of the accents Tesseract lost on generated
150–175 dpi pages, four in five had their darkest pixel above that level, and the page Tesseract read had lost them
(`docs/results.md`, the `ink-accents` section). Keeping every light grey instead keeps the rims round every letter
too, which changed how whole pages read (the `h-whiten` branches). So only faint ink of a mark's shape is kept:

- a *valley*: a light pixel (above `WHITE_FROM`, at most `FAINT_FLOOR`) with lighter grey on both sides of it across
  some direction, `VALLEY_STEP` letter heights away. A letter's rim is a slope (darker on one side, paper on the
  other) and is never a valley; the middle of an accent, a dot or a thin stroke printed light is;
- valleys in a piece no larger than a letter (`MARK_MAX_LETTER` letter heights each way) and at least
  `MARK_MIN_AREA` of a letter's height squared (grain is smaller), lying within `NEAR_LETTER` letter heights of
  ink above or below (a mark sits by its letter; grain and show-through lie anywhere, most of it between lines and
  in margins, and stay paper);
- each such piece is taken with the light grey round it (down to `GROW_TO`) and made as dark as ink
  (`DARKEN`): Tesseract binarises the page with one threshold, under which the mark's own grey would be white.

The page's letter height comes from its own ink (`specks.letter_height`), so every distance scales with the type
and the resolution; a page with too few letters to measure keeps the plain whitening. Nothing is added that the
scan lacks: only pixels the scan has darker than paper are kept.
"""
from __future__ import annotations

import numpy as np

from pipeline.extract.ocr.specks import letter_height

FAINT_FLOOR = 210  # grey level: a faint mark's middle is at least this dark (grain and show-through are lighter)
VALLEY_RISE = 12  # grey levels: how much lighter both sides of a valley pixel are than it
VALLEY_STEP = 0.1  # letter heights: how far away the lighter sides are looked for (and that plus one pixel)
MARK_MAX_LETTER = 1.2  # letter heights, each way: a kept piece is no larger (an i's stem, an accent, a thin `c`)
MARK_MIN_AREA = 0.015  # of a letter's height squared: a kept piece's valley pixels are no fewer (grain's are)
NEAR_LETTER = 0.6  # letter heights up or down from ink (and half that along the row) within which a mark lies
APART = 0.15  # letter heights: some of a mark's middle lies this far from any ink (a letter's edge hugs it)
GROW_TO = 225
WINDOW_UP_DOWN = 1.5  # letter heights: the rows looked at above and below a piece for its line's band
WINDOW_ALONG = 1.0  # letter heights: the columns looked at either side of a piece
BAND_FILL = 0.45  # of the fullest row's ink: a row of a line's body (its x-height band) holds at least this much
OFF_BAND = 0.15  # letter heights: a mark's middle lies at least this far over or under its line's band  # grey level: the light grey round a kept valley, down to this, is the mark's too
DARKEN = 3.0  # a kept pixel's distance from paper is multiplied by this: grey 210 becomes 120, 190 becomes 60
_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def faint_marks(grey: np.ndarray, dpi: int, white_from: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The faint marks of `grey` (the page prepared but not whitened, uint8) at `dpi` as (their pixels' flat indices,
    the grey each is given), or None where there is none or the page's letters cannot be measured."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second, OCR or not

    dark = grey <= white_from
    labels, count = ndimage.label(dark, structure=np.ones((3, 3), dtype=bool))
    if count == 0:
        return None
    boxes = ndimage.find_objects(labels)
    heights = np.array([b[0].stop - b[0].start for b in boxes])
    widths = np.array([b[1].stop - b[1].start for b in boxes])
    height = letter_height(heights, widths, dpi)
    if not height:
        return None
    valleys = _valleys(grey, white_from, max(1, round(VALLEY_STEP * height)))
    if not valleys.any():
        return None
    pieces, found = ndimage.label(valleys, structure=np.ones((3, 3), dtype=bool))
    piece_boxes = ndimage.find_objects(pieces)
    areas = np.bincount(pieces.ravel(), minlength=found + 1)[1:]
    tall = np.array([b[0].stop - b[0].start for b in piece_boxes])
    wide = np.array([b[1].stop - b[1].start for b in piece_boxes])
    reach = max(1, round(NEAR_LETTER * height))
    near = _grown(dark, reach, max(1, reach // 2))
    by_ink = np.zeros(found + 1, dtype=bool)
    by_ink[np.unique(pieces[near & valleys])] = True
    # A piece hugging ink (none of it `APART` letter heights from it) is a letter's own edge or corner, not a mark
    # standing by its letter.
    grow = max(1, round(VALLEY_STEP * height))
    apart = max(grow + 1, round(APART * height))
    off_ink = ~_grown(dark, apart, apart)
    standing = np.zeros(found + 1, dtype=bool)
    standing[np.unique(pieces[off_ink & valleys])] = True
    limit = MARK_MAX_LETTER * height
    chosen = (areas >= MARK_MIN_AREA * height**2) & (tall <= limit) & (wide <= limit) & by_ink[1:] & standing[1:]
    for index in np.flatnonzero(chosen):
        chosen[index] = _off_its_line(dark, piece_boxes[index], height)
    if not chosen.any():
        return None
    keep = np.zeros(found + 1, dtype=bool)
    keep[1:] = chosen
    seeds = keep[pieces]
    # not the pixels touching ink (a cross round it): a mark's grey joining its letter would thicken the letter
    kept = _grown(seeds, grow, grow) & (grey <= GROW_TO) & ~(_grown(dark, 1, 0) | _grown(dark, 0, 1))
    where = np.flatnonzero(kept)
    distance = 255.0 - grey.ravel()[where]
    return where, np.clip(255.0 - DARKEN * distance, 0, 255).astype(np.uint8)


def _grown(mask: np.ndarray, up_down: int, along: int) -> np.ndarray:
    """`mask` grown by `up_down` px vertically and `along` px horizontally (a box, in two passes)."""
    from scipy import ndimage
    grown = ndimage.maximum_filter1d(mask.view(np.uint8), 2 * up_down + 1, axis=0)
    return ndimage.maximum_filter1d(grown, 2 * along + 1, axis=1).view(bool)


def _off_its_line(dark: np.ndarray, box: tuple[slice, slice], height: float) -> bool:
    """Whether a piece in `box` lies over or under the body of the line of writing beside it: its middle at least
    `OFF_BAND` letter heights above the top of the nearest band of rows the letters round it fill (`BAND_FILL` of
    the fullest row), or as far below its bottom. A serif's pale foot, a letter's pale joint lie in the band."""
    rows, columns = box
    top = max(0, rows.start - round(WINDOW_UP_DOWN * height))
    left = max(0, columns.start - round(WINDOW_ALONG * height))
    profile = dark[top:rows.stop + round(WINDOW_UP_DOWN * height), left:columns.stop + round(WINDOW_ALONG * height)].sum(axis=1)
    if profile.max() == 0:
        return False
    filled = np.flatnonzero(profile >= BAND_FILL * profile.max())
    runs = np.split(filled, np.flatnonzero(np.diff(filled) > 1) + 1)
    middle = (rows.start + rows.stop - 1) / 2 - top
    margin = OFF_BAND * height
    # the band nearest the piece: each band's distance from the piece's middle (0 inside)
    nearest = min(runs, key=lambda run: max(run[0] - middle, middle - run[-1], 0))
    return bool(middle <= nearest[0] - margin or middle >= nearest[-1] + margin)


def _valleys(grey: np.ndarray, white_from: int, step: int) -> np.ndarray:
    """Light pixels (above `white_from`, at most `FAINT_FLOOR`) with grey lighter by `VALLEY_RISE` on both sides
    across one of four directions, `step` or `step + 1` px away."""
    h, w = grey.shape
    margin = step + 1
    padded = np.full((h + 2 * margin, w + 2 * margin), 255, dtype=np.int16)
    padded[margin:margin + h, margin:margin + w] = grey
    rows, columns = np.nonzero((grey > white_from) & (grey <= FAINT_FLOOR))
    if rows.size == 0:
        return np.zeros(grey.shape, dtype=bool)
    rows_p, columns_p = rows + margin, columns + margin
    level = padded[rows_p, columns_p] + VALLEY_RISE
    valley = np.zeros(rows.size, dtype=bool)
    for dy, dx in _DIRECTIONS:
        for k in (step, step + 1):
            before = padded[rows_p - k * dy, columns_p - k * dx]
            after = padded[rows_p + k * dy, columns_p + k * dx]
            valley |= (before >= level) & (after >= level)
    out = np.zeros(grey.shape, dtype=bool)
    out[rows[valley], columns[valley]] = True
    return out
