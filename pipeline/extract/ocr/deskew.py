"""Skewed scans straightened before Tesseract reads them.

A page fed crooked through a scanner tilts every text line; over a 17 cm line a 1° tilt drops the line
by 3 mm, more than half a line of 10-point type, so Tesseract splits lines and the layout joins the
wrong pieces. The skew is found from the page's own text: projected at the right angle the ink falls
into sharp bands (lines) and white (the space between them), so the row profile's variance is largest.
"""
from __future__ import annotations

import numpy as np
from PIL import Image

MAX_SKEW_DEG = 5.0  # searched either way; a scan tilted more is a different fault (rotated 90°)
COARSE_STEP_DEG = 0.25
FINE_STEP_DEG = 0.05
# Tilts smaller than this are left alone: over a 17 cm line 0.15° moves the end by 0.45 mm, a tenth of a
# line, and rotating costs a resampling of the whole page (a slight blur).
MIN_CORRECTION_DEG = 0.15
SAMPLE_WIDTH_PX = 800  # the estimate works on the page scaled to this width
INK_BELOW = 128
MAX_INK_SAMPLES = 60_000
PAPER_PERCENTILE = 90
WHITE_PAPER = 245  # paper at least this bright is white: the uncovered corners are filled white


def _ink_points(grey: Image.Image) -> tuple[np.ndarray, np.ndarray] | None:
    """Coordinates of dark pixels of the page scaled to SAMPLE_WIDTH_PX (a fixed subsample if many)."""
    scale = min(1.0, SAMPLE_WIDTH_PX / grey.width)
    small = grey.resize((max(1, round(grey.width * scale)), max(1, round(grey.height * scale)))) if scale < 1 else grey
    ys, xs = np.nonzero(np.asarray(small) < INK_BELOW)
    if len(xs) < 500:
        return None
    if len(xs) > MAX_INK_SAMPLES:
        keep = np.random.default_rng(0).choice(len(xs), MAX_INK_SAMPLES, replace=False)
        xs, ys = xs[keep], ys[keep]
    return xs.astype(np.float64), ys.astype(np.float64)


def _sharpness(xs: np.ndarray, ys: np.ndarray, degrees: float) -> float:
    """Variance of the row profile of the ink rotated by `degrees` (counter-clockwise)."""
    theta = np.deg2rad(degrees)
    rows = ys * np.cos(theta) + xs * np.sin(theta)
    profile = np.bincount((rows - rows.min()).astype(np.int64))
    return float(profile.var())


def estimate_skew(grey: Image.Image) -> float:
    """The counter-clockwise tilt of the page's text lines in degrees (0.0 when there is too little text
    to tell, or when the row profile has no peak inside the search range): rotating the page by minus this straightens them."""
    points = _ink_points(grey.convert("L"))
    if points is None:
        return 0.0
    xs, ys = points
    # One coarse step past the range either way, so that a tilt at the range's edge is still a peak.
    reach = MAX_SKEW_DEG + COARSE_STEP_DEG
    coarse = np.arange(-reach, reach + 1e-9, COARSE_STEP_DEG)
    best = max(coarse, key=lambda a: _sharpness(xs, ys, a))
    if abs(best) >= reach - 1e-9:
        # The profile sharpens all the way to the end of the search: no text lines peak it but a dark fill,
        # a figure or the white corners of a cover do. That is no measured tilt, and turning the page by it
        # would tilt whatever lines it has.
        return 0.0
    fine = np.arange(best - COARSE_STEP_DEG, best + COARSE_STEP_DEG + 1e-9, FINE_STEP_DEG)
    best = max(fine, key=lambda a: _sharpness(xs, ys, a))
    # In image coordinates (y down) the projection at `best` straightens lines that PIL's rotate(best)
    # would have tilted: the page is tilted by `best`, counter-clockwise positive as PIL counts.
    return round(float(best), 2)


def deskewed(image: Image.Image) -> tuple[Image.Image, float]:
    """`image` straightened (same size, the corners the rotation uncovers filled with its paper's grey) and the tilt found;
    the image itself when the tilt is under MIN_CORRECTION_DEG."""
    skew = estimate_skew(image)
    if abs(skew) < MIN_CORRECTION_DEG:
        return image, skew
    paper = paper_grey(image)
    paper = 255 if paper >= WHITE_PAPER else paper  # white paper's corners white, as they always were
    fill = (paper, paper, paper) if image.mode == "RGB" else paper
    return image.rotate(-skew, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=fill), skew


def paper_grey(image: Image.Image) -> int:
    """The page's paper grey (`PAPER_PERCENTILE` of its levels: most of a page is paper), what the corners a rotation
    uncovers are filled with: white corners on grey paper are edges no scan has, and Tesseract's layout read a 240 dpi
    Korean page on paper at 205, tilted 0.5°, without the right-hand options of its pairs."""
    return int(paper_level(np.asarray(image.convert("L"))))


def paper_level(grey: np.ndarray) -> float:
    """A page's paper as a grey level: `PAPER_PERCENTILE` of its levels (most of a page is paper), on every fourth
    pixel each way; 255 for an empty page."""
    return float(np.percentile(grey[::4, ::4], PAPER_PERCENTILE)) if grey.size else 255.0
