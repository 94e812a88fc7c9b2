"""Shaded fills in ruled tables: a key table may print one column (the variant a reader is not asked about,
a header row) on a mid-grey fill with black text, its rules running across the fill. Against one fixed ink
threshold the whole fill is ink: every row of the table then holds a long dark run, no horizontal rule stands
apart as a thin one, and the table is not found at all (NÚCEM 2024's key, shaded column at grey 162 under a
threshold of 170). Here a fill is found by its shape (dark over an area far thicker than a rule or a stroke)
and measured: inside it, ink is what is darker than its own background level by half the way to the darkest
ink there. The fill's blurred edges are part of the fill, never a rule or a glyph; a dark fill carrying light
text (a number row's black bar) is left as it was, all ink, for the readers of such rows (`gridcells`).
"""
from __future__ import annotations

import numpy as np

from pipeline.extract.ocr.inktiles import ink_tiles, tiled_area

FILL_MIN_INCHES = 0.05  # a fill is dark over squares this wide (a rule is at most 0.03 in thick, a bold stroke less)
FILL_MIN_LEVEL = 110  # a fill's median grey: lighter fills carry dark text; darker ones light text, left all ink
FILL_EDGE_INCHES = 0.01  # the blur a fill's edge spreads over, counted as the fill's
FILL_CONTRAST = 40  # grey levels under a fill's own level a pixel needs at least to be ink there (a plain fill's grain is none)
INK_PERCENTILE = 1.0  # of a fill's pixels: the darkest ink inside it (its rules, its letters)
TILED_AT_MOST = 0.5  # share of the page tiles may cover for the search to go tile by tile (`inktiles`); past it, whole


def table_ink(grey: np.ndarray, threshold: int, dpi: int) -> np.ndarray:
    """Ink of a page for finding and reading ruled tables: `grey < threshold`, except inside a mid-grey
    fill, where ink is what stands darker than the fill by half the way from its level to its darkest ink."""
    dark = grey < threshold
    fills = shaded_fills(grey, dark, dpi)
    if not fills:
        return dark
    ink = dark.copy()
    for found, inside, level, darkest in fills:
        region = ink[found]
        region[inside] = (grey[found] < min((level + darkest) / 2, level - FILL_CONTRAST))[inside]
    return ink


Fill = tuple[tuple[slice, slice], np.ndarray, float, float]  # where, which pixels there, its level, its darkest ink


def shaded_fills(grey: np.ndarray, dark: np.ndarray, dpi: int) -> list[Fill]:
    """Each mid-grey fill of the page (`dark` over squares `FILL_MIN_INCHES` wide, its blurred edge with it,
    median grey at least `FILL_MIN_LEVEL`): where it is, its pixels, its level and its darkest ink; in no
    set order (each fill's pixels are its own).

    Worked out only around the dark pixels (`inktiles`): a fill, its opening and its grown edge lie within
    a square's side and the edge's width of dark pixels, so tiles that far around the dark pixels find the
    fills the whole page gives; a page read in parts (`masked`, all white but a few boxes) is searched over
    its boxes, a scan, dark all over, whole as before."""
    side = max(3, round(FILL_MIN_INCHES * dpi))
    edge = max(1, round(FILL_EDGE_INCHES * dpi))
    # Past an opening's reach (half a side, a pixel more for an even side) and the edge's: tiles apart by
    # twice this hold every fill whole, and each sees paper where the whole page has paper around it.
    tiles = ink_tiles(dark, side + edge + 2)
    if tiled_area(tiles) > TILED_AT_MOST * dark.size:
        tiles = [(slice(0, dark.shape[0]), slice(0, dark.shape[1]))]
    found_fills: list[Fill] = []
    for rows, columns in tiles:
        for (inner_rows, inner_columns), inside, level, darkest in _fills_in(grey[rows, columns], dark[rows, columns], side, edge):
            where = (slice(rows.start + inner_rows.start, rows.start + inner_rows.stop),
                     slice(columns.start + inner_columns.start, columns.start + inner_columns.stop))
            found_fills.append((where, inside, level, darkest))
    return found_fills


def _fills_in(grey: np.ndarray, dark: np.ndarray, side: int, edge: int) -> list[Fill]:
    """`shaded_fills` of one part of the page, in that part's pixels."""
    fills = _opened(dark, side)
    if not fills.any():
        return []
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    grown = ndimage.binary_dilation(fills, iterations=edge) & (grey < 250)
    labels, _ = ndimage.label(grown)
    found_fills: list[Fill] = []
    for index, found in enumerate(ndimage.find_objects(labels), start=1):
        if found is None:
            continue
        inside = labels[found] == index
        values = grey[found][inside & fills[found]]
        if values.size == 0:
            continue
        level = float(np.median(values))
        if level < FILL_MIN_LEVEL:  # a dark bar with light text: all ink, as before
            continue
        found_fills.append((found, inside, level, float(np.percentile(grey[found][inside], INK_PERCENTILE))))
    return found_fills


def _opened(mask: np.ndarray, side: int) -> np.ndarray:
    """`mask` opened by a square of `side` pixels (what of it a square that wide fits inside), by running
    minima and maxima along rows and columns."""
    from scipy import ndimage

    values = mask.astype(np.uint8)
    eroded = ndimage.minimum_filter1d(ndimage.minimum_filter1d(values, side, axis=0), side, axis=1)
    if not eroded.any():
        return eroded.astype(bool)
    return ndimage.maximum_filter1d(ndimage.maximum_filter1d(eroded, side, axis=0), side, axis=1).astype(bool)
