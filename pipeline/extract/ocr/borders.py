"""A scanner's dark border turned to paper before a page is read: the lid or the glass beyond a sheet smaller than
the scan, a copier's black edge, the shadow between them and the paper.

Prepared as it is, such a border becomes a panel (`panels` inverts light on dark) whose grain Tesseract reads as a
column of junk glued to the lines beside it: a generated Turkish sheet with a 0.4 in border at its outer edge lost
every option of a question whose labels the junk preceded. A border is found from the page's edges inward: the
columns (rows) at an edge whose middle grey is darker than `DARK_BELOW` — no printed column is: text, even bold,
inks far less than half of a column — then the shadow after them while a column's middle grey stays under the
paper's by `SHADOW_BELOW_PAPER`. Along each row (column) the paper then starts where the first pixel as light as
the paper's shadow level is, so a tilted border's edge is followed too. Nothing there is ink the sheet printed.
A page whose edges are paper is left exactly as it is.
"""
from __future__ import annotations

import numpy as np
from PIL import Image

DARK_BELOW = 100  # a column's middle grey under this is no paper
EDGE_BAND_INCHES = 0.03  # the outermost strip that must be dark for a side to have a border
SHADOW_BELOW_PAPER = 40  # grey levels under the paper's level: still the border's shadow
MAX_BORDER_SHARE = 0.2  # of the page's width (height): a darker stretch beyond is not a border but the page
RAGGED_INCHES = 0.25  # how far past the border's straight edge a row may still be border (a tilt, a torn edge)


def has_border(image: Image.Image, dpi: int) -> bool:
    """Whether some edge of the page is dark over most of its length, its outer `EDGE_BAND_INCHES` darker in the middle
    than `DARK_BELOW`: a scanner's border. Only the four edge strips are looked at."""
    band = max(2, round(EDGE_BAND_INCHES * dpi))
    width, height = image.size
    strips = ((0, 0, band, height), (0, 0, width, band), (width - band, 0, width, height), (0, height - band, width, height))
    return any(np.median(np.asarray(image.crop(box).convert("L"))) < DARK_BELOW for box in strips)


def without_border(image: Image.Image, dpi: int) -> Image.Image:
    """`image` with its dark borders and their shadows made paper (the page's own paper grey), or `image` itself when
    no edge is dark."""
    grey = np.asarray(image.convert("L"))
    paper = _paper_level(grey)
    widths = _border_widths(grey, dpi, paper)
    if not any(widths):
        return image
    blank = np.zeros(grey.shape, dtype=bool)
    ragged = max(1, round(RAGGED_INCHES * dpi))
    for side, width in enumerate(widths):
        if not width:
            continue
        # Each side turned to the left edge: rows along axis 0, the border at column 0.
        view = np.rot90(grey, side)
        mask = np.rot90(blank, side)  # a view: writing it writes `blank`
        limit = min(view.shape[1], width + ragged)
        dark = view[:, :limit] < paper - SHADOW_BELOW_PAPER
        # Per row: the border reaches to the first light pixel at or after the straight edge's width.
        light_after = ~dark[:, width:limit]
        reach = np.where(light_after.any(axis=1), width + light_after.argmax(axis=1), limit)
        mask[:, :limit] |= np.arange(limit)[None, :] < reach[:, None]
    pixels = np.array(image)
    pixels[blank] = paper if pixels.ndim == 2 else (paper, paper, paper)
    return Image.fromarray(pixels, mode=image.mode)


def _paper_level(grey: np.ndarray) -> int:
    """The paper's grey: the bright end of the page's levels (most of a page is paper), their 90th percentile."""
    counts = np.cumsum(Image.fromarray(grey).histogram())
    return int(np.searchsorted(counts, 0.9 * counts[-1]))


def _border_widths(grey: np.ndarray, dpi: int, paper: int) -> list[int]:
    """The width in pixels of the border at the left, top, right and bottom (the order `np.rot90` turns each side to
    the left edge in), 0 where that edge is paper."""
    band = max(2, round(EDGE_BAND_INCHES * dpi))
    widths = []
    for side in range(4):
        view = np.rot90(grey, side)
        if np.median(view[:, :band]) >= DARK_BELOW:
            widths.append(0)
            continue
        limit = round(MAX_BORDER_SHARE * view.shape[1])
        middles = np.median(view[:, :limit], axis=0)
        # The dark part, then its shadow: columns darker than the paper by SHADOW_BELOW_PAPER.
        shadowed = middles < paper - SHADOW_BELOW_PAPER
        width = int(shadowed.argmin()) if not shadowed.all() else 0  # all of it dark: no paper found, not a border
        widths.append(width)
    return widths
