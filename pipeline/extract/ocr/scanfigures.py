"""Figures on a scanned page: the regions of ink that Tesseract's words do not account for.

On a text page a figure is an image or a drawing object; on a scan everything is one image, so a
figure is found as the text path cannot: among the page's regions (the XY cut that `segment` makes of
the prepared page, rules and fills already gone, `segment.regions_of_ink`), one is a figure when it is large (at least
`FIGURE_MIN_AREA_PT2`, the text path's threshold, and `FIGURE_MIN_SIDE_PT` each way), holds ink, and
little of that ink lies under its confident words (photographs, charts, diagrams: Tesseract reads junk
or a few labels there, while nearly all of a text region's ink is inside its words' boxes). A
screenshot of a table or text reads as text and stays text.

The figure's box is the ink no confident word accounts for, so a stem printed just above it stays
outside. The unsure words inside it (junk read in a picture) are left out of the page's text, as a
text layer has none for an image; confident words (labels, a stem, a form's name) stay. The figure
is cropped from the page like a text page's (`pipeline.extract.figures`), and each figure and the
words set aside are named in the document's warnings, so a curator sees them.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image

from pipeline.extract.ocr.segment import Region, regions_of_ink
from pipeline.extract.ocr.words import Word

FIGURE_MIN_AREA_PT2 = 2500.0  # the text path's `min_area_pt2`: smaller marks are logos, bullets, boxes
FIGURE_MIN_SIDE_PT = 36.0  # half an inch each way: a long thin region is a rule or a line of text
FIGURE_MIN_INK = 0.02  # share of the region's pixels that are ink: a line drawing has a few per cent
# share of the region's ink under confident words' boxes: 0.73-1.0 in the text regions of the Spanish,
# Peruvian and Chilean scans, 0.0 under an ECG trace
FIGURE_MAX_TEXT = 0.2
FIGURE_INK_BELOW = 255  # the prepared page is paper (255) or ink: fills, tints and grain are already white
CONFIDENT_WORD = 60.0  # Tesseract's confidence from which a word is text, not junk read in a picture


def figure_regions(grey: Image.Image, words: Sequence[Word], text_height: float, dpi: int) -> list[Region]:
    """The figure regions of a prepared page image (pixels), by the rules of the module docstring."""
    scale = dpi / 72.0
    min_area, min_side = FIGURE_MIN_AREA_PT2 * scale * scale, FIGURE_MIN_SIDE_PT * scale
    # Any grey left is ink here: the thin coloured trace of a chart is paler than a letter's stroke.
    ink = np.asarray(grey) < FIGURE_INK_BELOW
    confident = [w for w in words if w.conf >= CONFIDENT_WORD]
    found = []
    for region in regions_of_ink(ink, text_height):
        width, height = region.right - region.left, region.bottom - region.top
        area = width * height
        if area < min_area or min(width, height) < min_side:
            continue
        crop = ink[region.top : region.bottom, region.left : region.right]
        if crop.mean() < FIGURE_MIN_INK:
            continue
        covered = np.zeros_like(crop)
        for w in confident:
            if region.holds(w):
                covered[max(w.top - region.top, 0) : w.bottom - region.top, max(w.left - region.left, 0) : w.right - region.left] = True
        share = float((crop & covered).sum()) / max(int(crop.sum()), 1)
        if share > FIGURE_MAX_TEXT:
            continue
        # The figure is the ink no confident word accounts for: a stem above it in the same region
        # ("12. ¿Qué representa la siguiente figura…") stays outside its box, and owns it.
        rows, cols = np.flatnonzero((crop & ~covered).any(axis=1)), np.flatnonzero((crop & ~covered).any(axis=0))
        found.append(Region(region.left + int(cols[0]), region.top + int(rows[0]), region.left + int(cols[-1]) + 1, region.top + int(rows[-1]) + 1))
    return found
