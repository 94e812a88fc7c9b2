"""Specks taken out of a key row's binary band before it is cut into cells and read (`gridcells`).

On a specked scan a grid key's rows carry dust: white specks on a dark number fill turn into ink once the band is
inverted, black ones sit on the pale answer cells. A speck in the white between two cells joins them into one cell
(a number row read as 18 cells for 20 numbers, no number then paired with its answer), and one inside a cell's crop
reads as a mark beside its glyph. A speck is a small connected piece of ink: no more than `SPECK_MAX_BAND` of the
band's height either way (a glyph of a key row stands at least a third of its band tall), and not flat (an annulled
question's dash is at least twice as wide as tall, and is kept for `gridcells._is_dash` to judge). A glyph's own
pieces are larger; a band without specks comes back as it was.
"""
from __future__ import annotations

import numpy as np

SPECK_MAX_BAND = 0.12  # of the band's height, each way: a piece of ink no larger (and not flat) is a speck
SPECK_MIN_PX = 2  # each way: a piece this small is a speck at any band height
FLAT = 2.0  # a piece at least this many times as wide as tall, of `DASH_MIN_PX` pixels or more, is a dash, never a speck
DASH_MIN_PX = 6  # as `gridcells.DASH_MIN_PIXELS`
HALO_PX = 1  # around a speck, the pixels its blur and JPEG smeared grey, also taken out of the image read


def band_specks(band: np.ndarray) -> np.ndarray:
    """The pixels of `band` (True = ink) that belong to specks."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    if not band.any():
        return np.zeros_like(band, dtype=bool)
    limit = max(SPECK_MIN_PX, round(SPECK_MAX_BAND * band.shape[0]))
    pieces, count = ndimage.label(band, structure=np.ones((3, 3), dtype=bool))
    small = np.zeros(count + 1, dtype=bool)
    for index, box in enumerate(ndimage.find_objects(pieces), start=1):
        if box is None:
            continue
        height, width = box[0].stop - box[0].start, box[1].stop - box[1].start
        flat = width >= FLAT * height and int((pieces[box] == index).sum()) >= DASH_MIN_PX
        small[index] = height <= limit and width <= limit and not flat
    return small[pieces]


def with_halo(specks: np.ndarray) -> np.ndarray:
    """`specks` grown by `HALO_PX`: the grey their blur left around them, taken out of the image Tesseract reads too."""
    from scipy import ndimage

    return ndimage.binary_dilation(specks, structure=np.ones((3, 3), dtype=bool), iterations=HALO_PX) if specks.any() else specks
