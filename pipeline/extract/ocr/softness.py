"""How soft a scanned page is, measured from its own ink, and the sharpening that measure calls for.

A scan's softness is the width of its strokes' edges: the pixels an edge takes to rise from a quarter to
three quarters of the way between the ink's darkness and the paper's brightness, across a row (vertical
stems) and down a column (horizontal strokes). A sharp render at the page's dpi rises in a pixel or less;
a soft scan (a low-resolution scan rendered at the page's dpi, a blurred lens, JPEG) takes several. What
Tesseract loses to softness depends on that width *relative to the type* (a 2 px edge on 12 pt leaves a
letter its shape; on 8 pt it fills an e's eye and drops a ż's dot), so the measure is the edge width over
the page's line height (the median height of its bands of inked rows), both in pixels of the same image:
no dpi, no file property, no guess. (The stroke width is no measure of the type: blur widens a thin
stroke as much as it widens its edges.)

`sharpening` turns the measure into an unsharp mask whose radius follows the edge width and whose strength
grows with how far the page is past `SOFT_FROM`; a page under it is not sharpened at all.

Measured on corpus sheets rasterised at 150–300 dpi, blur 0.4–0.8, JPEG 70–90 (`pipeline.devkit.softscans`,
`--softness` lists each page's measure): pages at 300 dpi, or at 200 dpi with blur 0.4, measure 0.01–0.05
with edges under 1.75 px and are never sharpened; INAP's booklet at 150 dpi with blur 0.8 measures 0.095 and
its options read 87 → 93 % sharpened; at 0.06–0.07 (INAP at 150 dpi with blur 0.4, at 200 dpi with blur 0.8)
a mask changed nothing, so pages under `SOFT_FROM` are left alone. A grey fill or a picture's shading is a
long run between ink and paper: runs over `MAX_EDGE_RUN` are no edges (a Revalida page measured soft at
300 dpi before).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageFilter

MIN_CONTRAST = 60  # grey levels between ink and paper; a page with less has no edges worth measuring
STEP = 3  # rows and columns measured: every STEP-th
MAX_EDGE_RUN = 12  # pixels: a longer run between ink and paper is a grey fill or a picture's shading, not an edge
MIN_EDGES = 100  # edges crossed, per direction, before a measure is trusted (a near-empty page is not)
MIN_EDGE_PX = 1.75  # at 300 dpi (scaled with the dpi): a page whose edges rise in fewer pixels is sharp, whatever its lines
SOFT_FROM = 0.07  # edge width over line height from which a page is sharpened
BASE_PERCENT = 60  # unsharp-mask percent at SOFT_FROM ...
PERCENT_PER_SOFTNESS = 1200  # ... and per unit of softness past it
MAX_PERCENT = 200
# Points: the inked band of a line of the smallest type a sheet prints (a 5 pt footnote) is at least this
# tall. A page whose bands measure less is not measured by its text (a chart's hatching made one 12 px at
# 300 dpi, and sharpened so hard Tesseract read no word of it).
MIN_LINE_PT = 5.0
EDGE_TO_SIGMA = 1 / 1.35  # a Gaussian edge's quarter-to-three-quarter rise is 1.35 sigma


@dataclass(frozen=True)
class Softness:
    """An image's edge width and line height in pixels, and their ratio (`softness`)."""

    edge_px: float
    line_px: float

    @property
    def softness(self) -> float:
        return self.edge_px / self.line_px if self.line_px else 0.0


@dataclass(frozen=True)
class Sharpening:
    radius: float  # pixels
    percent: int


def _runs(classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(value, length) of each run of equal values along the rows of `classes` (a run never crosses a row)."""
    padded = np.concatenate([classes, np.full((classes.shape[0], 1), 9, dtype=classes.dtype)], axis=1).ravel()
    starts = np.concatenate([[0], np.flatnonzero(padded[1:] != padded[:-1]) + 1])
    lengths = np.diff(np.concatenate([starts, [padded.size]]))
    return padded[starts], lengths


def _edges(classes: np.ndarray) -> np.ndarray:
    """The widths of the edges crossed along the rows: ink (0) to paper (2) or back, through 0 or more pixels in between (1)."""
    values, lengths = _runs(classes)
    # Direct steps: ink next to paper, an edge no pixel wide.
    direct = np.flatnonzero(((values[:-1] == 0) & (values[1:] == 2)) | ((values[:-1] == 2) & (values[1:] == 0)))
    middle = np.flatnonzero(values[1:-1] == 1) + 1
    before, after = values[middle - 1], values[middle + 1]
    # Only a rise from ink to paper (or back): grain or a JPEG ring between paper and paper is no edge.
    rising = middle[(((before == 0) & (after == 2)) | ((before == 2) & (after == 0))) & (lengths[middle] <= MAX_EDGE_RUN)]
    return np.concatenate([np.zeros(direct.size), lengths[rising].astype(float)])


def _line_height(dark: np.ndarray) -> float:
    """The median height of the page's bands of rows with ink (its text lines, ascenders to descenders), 0 without any."""
    inked = (dark.sum(axis=1) >= 2).astype(np.uint8)[None, :]
    values, lengths = _runs(inked)
    bands = lengths[(values == 1) & (lengths >= 3)]
    return float(np.median(bands)) if bands.size else 0.0


def measure_softness(grey: Image.Image) -> Softness | None:
    """The edge width and line height of a grey page's ink, or None when it has too little contrast or ink to measure."""
    # Every STEP-th row and column: the widths are a page's averages, and a whole 300 dpi page costs a second.
    array = np.asarray(grey.convert("L"))
    rows, columns = array[::STEP], np.ascontiguousarray(array[:, ::STEP].T)
    paper = float(np.percentile(rows[:, ::STEP], 75))
    ink = float(np.percentile(rows[:, ::STEP], 0.5))
    if paper - ink < MIN_CONTRAST:
        return None
    low, high = ink + (paper - ink) / 4, ink + 3 * (paper - ink) / 4

    def classes(pixels: np.ndarray) -> np.ndarray:
        return (pixels > low).astype(np.uint8) + (pixels >= high)

    across, down = _edges(classes(rows)), _edges(classes(columns))
    if across.size < MIN_EDGES or down.size < MIN_EDGES:
        return None
    line = _line_height(columns.T < (ink + paper) / 2)
    if not line:
        return None
    edge = float(np.mean(np.concatenate([across, down])))
    return Softness(round(edge, 3), line)


def sharpening(measure: Softness | None, dpi: int = 300) -> Sharpening | None:
    """The unsharp mask a page of this softness, rendered at `dpi`, reads best with, or None (too sharp to gain, or not
    measured). A page of sparse or tiny lines (a cover, a form) can measure a short line height on sharp edges: the
    edges themselves must be soft too."""
    if measure is None or measure.softness < SOFT_FROM or measure.edge_px < MIN_EDGE_PX * dpi / 300:
        return None
    if measure.line_px < MIN_LINE_PT * dpi / 72:
        return None  # bands thinner than any type: hatching, a chart's bars or rules set the measure, not lines of text
    percent = min(MAX_PERCENT, round(BASE_PERCENT + PERCENT_PER_SOFTNESS * (measure.softness - SOFT_FROM)))
    return Sharpening(radius=round(max(1.0, measure.edge_px * EDGE_TO_SIGMA), 2), percent=percent)


def rule_version() -> str:
    """The constants the decision is made by, for the pass's version: a cached reading made under other ones is read again."""
    return f"{MAX_EDGE_RUN}/{MIN_EDGE_PX}/{MIN_LINE_PT}/{SOFT_FROM}/{BASE_PERCENT}/{PERCENT_PER_SOFTNESS}/{MAX_PERCENT}/{STEP}"


def sharpened(grey: Image.Image, plan: Sharpening) -> Image.Image:
    """`grey` with the unsharp mask `plan` (no threshold: every edge, however faint, is steepened alike)."""
    return grey.filter(ImageFilter.UnsharpMask(radius=plan.radius, percent=plan.percent, threshold=0))
