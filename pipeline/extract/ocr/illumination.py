"""Uneven paper brightness evened out before a page is read: the shadow of a book's spine, a scanner
lamp that fades to one side.

The page preparation turns grey levels above `WHITE_FROM` to paper and Tesseract then binarises the
page with one threshold, so where the paper itself is grey the letters drown in it: a rasterised CKE
page darkened from 45 % at its left edge to full brightness at its right kept 34 of its 152 words.
The paper's brightness is estimated tile by tile (the bright end of each tile's grey levels: a tile is
mostly paper, even in dense text), smoothed over a span wider than any box, fill or banner a sheet
prints, and divided out. A page whose paper is even to within `EVEN_PAPER_RANGE` grey levels is left
exactly as it is.
"""
from __future__ import annotations

import numpy as np
from PIL import Image, ImageFilter

TILE_INCHES = 0.4  # one tile of paper brightness: several text lines, less than a column
PAPER_PERCENTILE = 90  # of a tile's grey levels: the paper between the letters
SMOOTH_TILES = 5  # median over this many tiles each way: a fill or banner smaller than that is not a shadow
EVEN_PAPER_RANGE = 40  # grey levels of paper brightness across the page under which nothing changes
DARKEST_PAPER = 40  # a tile darker than this is no paper at all (a black border): never brightened from it


def paper_brightness(grey: np.ndarray, dpi: int) -> np.ndarray:
    """The paper's grey level per tile (rows × columns of `TILE_INCHES` tiles), smoothed."""
    tile = max(8, round(TILE_INCHES * dpi))
    rows, columns = -(-grey.shape[0] // tile), -(-grey.shape[1] // tile)
    padded = np.pad(grey, ((0, rows * tile - grey.shape[0]), (0, columns * tile - grey.shape[1])), mode="edge")
    tiles = padded.reshape(rows, tile, columns, tile).transpose(0, 2, 1, 3).reshape(rows, columns, -1)
    # A tile of bare paper (every pixel 255: a margin, or all of a page read in parts but its boxes) is
    # 255 at any percentile; only the others are sorted for theirs.
    inked = tiles.min(axis=2) < 255
    brightness = np.full((rows, columns), 255, dtype=np.uint8)
    if inked.any():
        brightness[inked] = np.percentile(tiles[inked], PAPER_PERCENTILE, axis=1).astype(np.uint8)
    return np.asarray(Image.fromarray(brightness).filter(ImageFilter.MedianFilter(SMOOTH_TILES)))


def even_paper(grey: np.ndarray, dpi: int) -> np.ndarray:
    """`grey` (uint8) with its paper made evenly bright, or `grey` itself when the paper already is."""
    brightness = paper_brightness(grey, dpi)
    if int(brightness.max()) - int(brightness.min()) < EVEN_PAPER_RANGE:
        return grey
    target = float(brightness.max())
    level = np.maximum(brightness, DARKEST_PAPER).astype(np.float32)
    # Bilinear between tile centres, at the page's size.
    background = np.asarray(Image.fromarray(level, mode="F").resize((grey.shape[1], grey.shape[0]), Image.BILINEAR))
    return np.clip(grey.astype(np.float32) * (target / background), 0, 255).astype(np.uint8)
