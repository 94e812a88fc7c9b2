"""Rings found by their shape on a scan (`find_rings`): the enclosed option labels (① ② ③, Ⓐ Ⓑ) `labelrings` reads.

Every connected piece of ink about a text line tall and about as wide whose outline, its holes filled, is an ellipse
filling its box (`RING_MIN_MATCH`), which is thin (`RING_MAX_INK` of the filled ellipse is ink, ink measured at half
the box's darkest, so a blurred 150 dpi ring's grey spread is not), stands apart from what it encloses (`MOAT`: a
round letter's stroke lies where a ring has paper) and has ink at its centre (`CENTRE_INK`: a bold "O" or "0" has
none there, so it is no ring). A piece too wide for a ring (a ring glued to its word, `①zielonej`) is tried for one
at either end, cut from the rest by its circle.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.extract.ocr.deskew import paper_level

# Grey level: darker is a ring's ink, on the page as scanned. A thin ring at 150 dpi, blurred, is grey
# (170–200) all round, and preparing the page for Tesseract whitens it, so rings are looked for before that.
RING_INK_BELOW = 215
RING_HEIGHTS = (0.6, 1.9)  # a ring's height in the page's text heights
RING_ASPECT = (0.75, 1.33)  # its width over its height
RING_MIN_MATCH = 0.8  # the overlap (intersection over union) of its filled outline and the ellipse in its box
# Of the filled ellipse that is ink (ring and digit), as its own darkness sets it (`_core_ink`): a printed ring
# measures 0.10–0.25 (Noto CJK) and 0.26–0.51 (DejaVu, ④ the most) at 150–300 dpi, blur 0.4–0.8; a bold "©" or "@"
# 0.54–0.79, a Hangul syllable round enough to pass the other tests 0.60. (Against a fixed grey level, v4 and
# before, a thin ring at 150 dpi, blur 0.8, measured 0.76–0.85, more than a bold "0": no ring was found.)
RING_MAX_INK = 0.53
CORE_DARK = 5  # percentile of a piece's grey levels taken as its darkest ink
GLUED_HEIGHTS = 2.5  # a ring glued to its word: the ink of both is up to this many text heights tall (a letter's ascender)
GLUED_STRAY = 0.03  # of the ring's box's left half past its circle that may be ink (grain, a touching stroke's end)
HOLE_MIN = 0.25  # of the filled ellipse that is light inside the ring: a ring closes around a space
# A ring stands apart from what it encloses: the band between them is paper. A letter as round (o, e, a, d, ę)
# has its stroke there (0.67–1.0 of the band ink at 150–200 dpi), a ring 0–0.21, a Hangul syllable that passes
# the other tests 0.38.
MOAT = (0.6, 0.78)  # the band, in shares of the ring's radius
MOAT_MAX_INK = 0.3
CENTRE = 0.55  # the centre searched for the digit: this share of the ring's radius
CENTRE_INK = (0.04, 0.75)  # of the centre that is ink: none in an "O", a digit's strokes in a ring
RING_KEEP = 0.68  # ink within this share of the ring's radius from its centre is the digit's; beyond, the ring's
MIN_TEXT_PX = 8
# `RING_INK_BELOW` and `_core_ink`'s halfway mark are levels on white paper; on grey paper (a recycled sheet, a copy
# scanned dark: the paper at 205) every pixel is under 215 and the page is one piece of ink, so the page's levels are
# first lifted until its paper is white (`on_white`).
PAPER_GREY_BELOW = 245  # paper brighter than this is white enough: its levels are left as scanned
PAPER_DARKEST = 129  # a page whose bright end is darker than this is no grey paper (a dark photograph, a black page)


@dataclass(frozen=True)
class Ring:
    left: int
    top: int
    right: int
    bottom: int


def find_rings(grey: np.ndarray, text_height: float) -> list[Ring]:
    """The rings with ink at their centre on `grey` (a prepared page), top to bottom, left to right; a ring
    whose ink touches the word it labels (`①zielonej`) is cut from it by its outline (`_glued_ring`)."""
    if text_height < MIN_TEXT_PX:
        return []
    from scipy import ndimage  # here, not at import: scipy costs every process a second, OCR or not

    ink = grey < RING_INK_BELOW
    pieces, _ = ndimage.label(ink, structure=np.ones((3, 3), dtype=bool))
    rings = []
    for index, box in enumerate(ndimage.find_objects(pieces), start=1):
        if box is None:
            continue
        height, width = box[0].stop - box[0].start, box[1].stop - box[1].start
        if not RING_HEIGHTS[0] * text_height <= height <= GLUED_HEIGHTS * text_height:
            continue
        piece = pieces[box] == index
        if RING_HEIGHTS[0] * text_height <= height <= RING_HEIGHTS[1] * text_height and RING_ASPECT[0] <= width / height <= RING_ASPECT[1]:
            if _is_ring(piece, grey[box]):
                rings.append(Ring(box[1].start, box[0].start, box[1].stop, box[0].stop))
                continue
        if width / height > RING_ASPECT[1]:
            for mirrored in (False, True):  # a label opens its text, left of it in most scripts, right of it in some
                cut = _glued_ring(piece[:, ::-1] if mirrored else piece, grey[box][:, ::-1] if mirrored else grey[box], text_height)
                if cut is not None:
                    top, left, size = cut
                    left = width - left - size if mirrored else left
                    rings.append(Ring(box[1].start + left, box[0].start + top, box[1].start + left + size, box[0].start + top + size))
    return sorted(rings, key=lambda r: (r.top, r.left))


def on_white(grey: np.ndarray) -> np.ndarray:
    """A whole page's grey levels (as scanned) lifted in proportion until its paper (`deskew.paper_level`)
    is white, where the paper is grey (under `PAPER_GREY_BELOW`, not under `PAPER_DARKEST`); the page itself otherwise.
    Ink keeps its place among the levels, so the fixed ink levels rings are found by hold on any paper."""
    paper = paper_level(grey)
    if not PAPER_DARKEST <= paper < PAPER_GREY_BELOW:
        return grey
    return np.minimum(grey.astype(np.float32) * (255.0 / paper), 255.0).astype(np.uint8)


def ring_inside(box: np.ndarray) -> np.ndarray:
    """A ring's box (grey, as `find_rings` found it) with the ring whitened: only the ink within `RING_KEEP` of the
    ellipse the box holds, its digit or letter, is kept."""
    height, width = box.shape
    ys, xs = np.mgrid[0:height, 0:width]
    distance = np.hypot((ys - (height - 1) / 2) / (height / 2), (xs - (width - 1) / 2) / (width / 2))
    return np.where(distance <= RING_KEEP, box, 255).astype(np.uint8)


def _glued_ring(piece: np.ndarray, grey: np.ndarray, text_height: float) -> tuple[int, int, int] | None:
    """(top, left, size) of a ring at the left end of `piece` (ink of a ring and the letters it touches), or None.
    The columns of the piece's left half-height hold only the ring's ink whatever glyph is glued past it (the ring
    is at least that wide), and they reach its top and bottom: its size is their rows' span; the square of that
    size at the piece's left is the ring's box, and its ink within the ring's circle (the glued letter's is
    outside, but where they touch) is tested as a lone ring is."""
    height = piece.shape[0]
    rows = np.flatnonzero(piece[:, : max(1, height // 2)].any(axis=1))
    if not rows.size:
        return None
    top, size = int(rows[0]), int(rows[-1] - rows[0] + 1)
    if not RING_HEIGHTS[0] * text_height <= size <= RING_HEIGHTS[1] * text_height or size > piece.shape[1]:
        return None
    box = piece[top : top + size, :size]
    ys, xs = np.mgrid[0:size, 0:size]
    centre = (size - 1) / 2
    circle = np.hypot(ys - centre, xs - centre) <= size / 2 + 0.5
    # Past the circle, the box's left half holds no ink of the ring's neighbour: a ring is round at its left as well.
    if (box & ~circle)[:, : size // 2].mean() > GLUED_STRAY:
        return None
    return (top, 0, size) if _is_ring(box & circle, np.where(circle, grey[top : top + size, :size], 255)) else None


def _is_ring(piece: np.ndarray, grey: np.ndarray) -> bool:
    """Whether `piece` (one piece of ink, its box) is a thin ring around a digit or letter, by its outline and by its
    ink as the ring's own darkness sets it (`_core_ink`), so that a blur's grey spread is not counted as ink."""
    from scipy import ndimage

    filled = ndimage.binary_fill_holes(piece)
    height, width = piece.shape
    ys, xs = np.mgrid[0:height, 0:width]
    cy, cx, ry, rx = (height - 1) / 2, (width - 1) / 2, height / 2, width / 2
    distance = np.hypot((ys - cy) / ry, (xs - cx) / rx)
    ellipse = distance <= 1.0
    match = (filled & ellipse).sum() / max(1, (filled | ellipse).sum())
    if match < RING_MIN_MATCH:
        return False
    inside = filled & ellipse
    ink = _core_ink(grey)
    if ink[inside].mean() > RING_MAX_INK or (inside & ~ink).sum() < HOLE_MIN * inside.sum():
        return False
    if ink[(distance > MOAT[0]) & (distance < MOAT[1])].mean() > MOAT_MAX_INK:
        return False
    centre = ink[distance <= CENTRE].mean()
    return bool(CENTRE_INK[0] <= centre <= CENTRE_INK[1])


def _core_ink(grey: np.ndarray) -> np.ndarray:
    """The box's pixels darker than halfway between its darkest ink (`CORE_DARK`, of the ring's and its digit's,
    which may be a piece of its own) and white: a stroke's width as printed, however far the scan's blur spread its
    grey (a thin ring at 150 dpi, blur 0.8, was 0.76–0.85 ink under the fixed `RING_INK_BELOW`, as full as a bold "0";
    0.24–0.46 at half its darkness). A ring printed lighter than its digit (Noto CJK's at 150 dpi) is then its digit."""
    values = grey[grey < RING_INK_BELOW]
    if not values.size:
        return np.zeros(grey.shape, dtype=bool)
    dark = float(np.percentile(values, CORE_DARK))
    return grey < (dark + 255) / 2
