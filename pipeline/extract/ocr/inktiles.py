"""The parts of a page image that hold ink, for steps whose result at a pixel depends only on the pixels
within a fixed reach of it (a blur, an opening, a dilation).

    ink_tiles(mask, margin) -> [(rows, columns)]   boxes that hold every True pixel of `mask`

A page read in parts (`masked`: drawn text read in place) is white but for a few boxes spread over its
window: a cover's title, a logo, a note at the foot; on the corpus the boxes' ink and its margins are 9–39 %
of the window read. A local step worked out tile by tile, and left at its value on paper elsewhere, gives
the pixels the whole image gives, as long as the step reaches no further than `margin`:

- every True pixel of `mask` lies in exactly one tile, at least `margin` pixels inside its edges (unless
  the tile meets the image's edge there, where the step sees the image's own edge as before);
- the True pixels of two tiles are more than 2 × `margin` apart along the rows or along the columns, so no
  tile's box (its ink's box grown by `margin`) reaches another tile's ink, and no pixel within `margin`
  of one tile's box's edge is ink of another tile.

Tiles come from cuts along bands of bare rows and columns wider than 2 × `margin`: rows, then the columns
of each band of rows, then the rows of each of those (a drawn title above a logo beside a note).
"""
from __future__ import annotations

import numpy as np

Tile = tuple[slice, slice]  # rows, columns of the image
CUT_LEVELS = 3  # rows, columns, rows again


def ink_tiles(mask: np.ndarray, margin: int) -> list[Tile]:
    """Boxes around the True pixels of the 2-D `mask`, each its ink's box grown by `margin` (within the
    image), apart as the module says; top to bottom, left to right. Empty when `mask` has no True pixel."""
    height, width = mask.shape
    found: list[Tile] = []
    for top, bottom, left, right in _cut(mask, 0, 0, 2 * margin, CUT_LEVELS, by_rows=True):
        found.append((slice(max(top - margin, 0), min(bottom + margin, height)),
                      slice(max(left - margin, 0), min(right + margin, width))))
    return found


def tiled_area(tiles: list[Tile]) -> int:
    """Pixels the tiles cover (they never overlap)."""
    return sum((rows.stop - rows.start) * (columns.stop - columns.start) for rows, columns in tiles)


def _bands(occupied: np.ndarray, gap: int) -> list[tuple[int, int]]:
    """(first, past last) of each run of True entries, runs closer than `gap` + 1 joined."""
    at = np.flatnonzero(occupied)
    if at.size == 0:
        return []
    cuts = np.flatnonzero(np.diff(at) > gap)
    starts, ends = np.r_[at[0], at[cuts + 1]], np.r_[at[cuts], at[-1]] + 1
    return list(zip(starts.tolist(), ends.tolist()))


def _cut(mask: np.ndarray, top: int, left: int, gap: int, levels: int, *, by_rows: bool) -> list[tuple[int, int, int, int]]:
    """(top, bottom, left, right) of the ink of `mask` (placed at `top`, `left`) cut into bands apart by
    more than `gap` bare rows (`by_rows`) or columns, the other way within each band, `levels` cuts deep;
    each box tight around its ink."""
    if levels == 0:
        rows = np.flatnonzero(mask.any(axis=1))
        if rows.size == 0:
            return []
        columns = np.flatnonzero(mask[rows[0]:rows[-1] + 1].any(axis=0))
        return [(top + int(rows[0]), top + int(rows[-1]) + 1, left + int(columns[0]), left + int(columns[-1]) + 1)]
    boxes = []
    occupied = np.asarray(mask.any(axis=1 if by_rows else 0))
    for first, last in _bands(occupied, gap):
        part, place = (mask[first:last], (top + first, left)) if by_rows else (mask[:, first:last], (top, left + first))
        boxes += _cut(part, *place, gap, levels - 1, by_rows=not by_rows)
    return boxes
