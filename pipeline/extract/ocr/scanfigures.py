"""Figures on a scanned page: the regions of ink that Tesseract's words do not account for.

On a text page a figure is an image or a drawing object; on a scan everything is one image, so a
figure is found as the text path cannot: among the page's regions (the XY cut that `segment` makes of
the prepared page, rules and fills already gone, `segment.regions_of_ink`), one is a figure when it is large (at least
`FIGURE_MIN_AREA_PT2`, the text path's threshold, and `FIGURE_MIN_SIDE_PT` each way), holds ink, and
little of that ink lies under its confident words (photographs, charts, diagrams: Tesseract reads junk
or a few labels there, while nearly all of a text region's ink is inside its words' boxes). A
screenshot of a table or text reads as text and stays text.

The figure's box is the ink no confident word accounts for, so a stem printed just above it stays
outside. A figure's own lines stay with it: `prepare` erased every straight run as a rule (a chart's
axes, a diagram's frame), so the box then takes in each rule of the page image that touches it and lies
mostly along it (`own_rules`); a rule running on past it (a table's, an answer line under it) is not the
figure's. The unsure words inside it (junk read in a picture) are left out of the page's text, as a
text layer has none for an image; confident words (labels, a stem, a form's name) stay. The figure
is cropped from the page like a text page's (`pipeline.extract.figures`), and each figure and the
words set aside are named in the document's warnings, so a curator sees them.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import RULE_MIN_INCHES, straight_rules
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
RULE_TOUCH_IN = 0.02  # a rule this near the figure's ink box touches it (a few pixels: an axis beside its trace)
RULE_ALONG_FIGURE = 2 / 3  # share of a rule's length that lies along the figure's box for the rule to be the figure's
RULE_DARK_BELOW = 128  # `prepare_for_tesseract`'s dark threshold: the rules it erased are runs of these pixels


def figure_regions(grey: Image.Image, words: Sequence[Word], text_height: float, dpi: int,
                   page: Image.Image | None = None) -> list[Region]:
    """The figure regions of a prepared page image (pixels), by the rules of the module docstring; with
    `page`, the image it was prepared from, each takes in its own rules (`own_rules`)."""
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
        figure = Region(region.left + int(cols[0]), region.top + int(rows[0]), region.left + int(cols[-1]) + 1, region.top + int(rows[-1]) + 1)
        found.append(own_rules(figure, page, dpi) if page is not None else figure)
    return found


def own_rules(figure: Region, page: Image.Image, dpi: int) -> Region:
    """`figure` grown over the rules of `page` that are its own: straight runs as `prepare` finds them
    (`engine.straight_rules`, the same length), each piece of touching rule pixels taken when it comes
    within `RULE_TOUCH_IN` of the figure's box and at least `RULE_ALONG_FIGURE` of its length lies along
    the box (a chart's axes reach a little past their trace; a table's rule or an answer line runs on)."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second, OCR or not
    length = max(20, round(dpi * RULE_MIN_INCHES))
    # Only rules that reach the box matter, looked for in a window the box's own size wider each way: a
    # rule the window's edge cuts runs on past the box by more than the box is long, so is not the figure's.
    high, wide = figure.bottom - figure.top + length, figure.right - figure.left + length
    top, left = max(figure.top - high, 0), max(figure.left - wide, 0)
    bottom, right = min(figure.bottom + high, page.height), min(figure.right + wide, page.width)
    dark = np.asarray(page.convert("L").crop((left, top, right, bottom))) < RULE_DARK_BELOW
    pieces, count = ndimage.label(straight_rules(dark, length), structure=np.ones((3, 3), dtype=bool))
    if count == 0:
        return figure
    touch = max(1, round(RULE_TOUCH_IN * dpi))
    near = (figure.left - left - touch, figure.top - top - touch, figure.right - left + touch, figure.bottom - top + touch)
    box = [figure.left - left, figure.top - top, figure.right - left, figure.bottom - top]
    for rows, cols in ndimage.find_objects(pieces):
        if cols.start >= near[2] or cols.stop <= near[0] or rows.start >= near[3] or rows.stop <= near[1]:
            continue  # does not reach the figure
        if (cols.start == 0 < left or rows.start == 0 < top or cols.stop == dark.shape[1] and right < page.width
                or rows.stop == dark.shape[0] and bottom < page.height):
            continue  # cut by the window: runs on past the figure
        across = cols.stop - cols.start >= rows.stop - rows.start  # a horizontal rule: its length is across the page
        start, stop, low, high = (cols.start, cols.stop, near[0], near[2]) if across else (rows.start, rows.stop, near[1], near[3])
        if min(stop, high) - max(start, low) < RULE_ALONG_FIGURE * (stop - start):
            continue  # runs on past the figure: a table's or the page's rule
        box = [min(box[0], cols.start), min(box[1], rows.start), max(box[2], cols.stop), max(box[3], rows.stop)]
    return Region(box[0] + left, box[1] + top, box[2] + left, box[3] + top)
