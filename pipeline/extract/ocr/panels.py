"""Light text on a filled panel (a heading printed white on a black or grey banner, a key's number row
filled dark) turned into dark text on white before Tesseract reads the page.

Preparing a page erases straight dark runs as table rules and whitens light greys. A dark panel is made
of such runs, so its white letters were left as loose fragments that Tesseract dropped or read as junk;
on a mid-grey panel the white letters were white on what Tesseract's threshold made white. On the
scanned OAB booklets every "Questão N" header is a black banner, on the Revalida booklet a grey one:
79 of 80 and 100 of 100 questions were lost.

A panel is found by its shape, never by what it says:
- at a quarter of the resolution, fill (anything darker than paper) is dense over a window of a few
  strokes (`DENSE_SHARE`): ordinary type, even bold, leaves more paper than that around its strokes;
- a dense area is grown to its panel's edges, and the panel is wider than tall (`MIN_ASPECT`), between
  `MIN_INCHES` and `MAX_INCHES` tall (a banner or a table row, not a picture), with solid margins above
  and below its letters (`MARGIN_SHARE`): a bold capital or a dark photograph has neither;
- its letters are lighter than the fill and enclosed by it (`MIN_LETTER_SHARE`, `enclosed`): dark text
  on a grey tint has no light inside, and the gaps of a bold E open to the paper beside it;
- its letters are as light as the paper (`MEDIAN_BELOW_PAPER`; on a panel at least `SOFT_MIN_INCHES` tall, their
  lightest part, `LETTERS_PERCENTILE`, within `LETTERS_BELOW_PAPER`: a soft scan's blur greys a letter's edges,
  never its core): bold dark type on a shaded bar is dense enough to pass for fill, but what shows between
  its strokes is the bar's tint, no lighter anywhere;
- its top and bottom edges are straight steps to paper (`EDGE_SHARE`): a filled rectangle ends at once,
  while a dense area inside a line of heavy letters (a bold heading blurred by the scan: crossbars for
  margins, counters for letters) stops where the strokes thin out, and the strokes run on past it;
- its fill is a background, not strokes (`DEEP_FILL_SHARE`): a good part of it lies farther from any light than its
  letters' strokes are wide (margins, spaces between letters and words, the letters' counters, filled). A bold
  heading's strokes blurred into a dense area are themselves the fill: each of its pixels lies within a stroke's
  half-width of paper, and its "letters" (counters, paper between letters) are as wide as its strokes. The tests of
  shape above bound a heading's box, and some heading passes each of them by a hair at some scan setting (an
  underline is a solid margin and a straight edge: INAP's "Segunda parte" at 160 dpi); this one compares the fill
  with the box's own letters, so neither blur nor size moves it.
Inside such a panel the fill becomes white and the light letters black. A banner's ornaments beside it
(the slanted or notched ends, triangles of the bar's tint: Revalida's "QUESTÃO N" banners) become paper too:
left dark beside the inverted letters, Tesseract read them as a word of the heading's line ("WTF questão? r"),
took its size from them and lost the number ("QUESTÃO 5" with them erased). An ornament is told by its place
and shape, never by what it says: a piece of fill on the panel's own rows (no taller than its band), within
`ORNAMENT_REACH` panel heights beside it, with no light inside it (`ORNAMENT_MAX_HOLES`: no letters), that
either touches the panel's edge (a part of the banner the panel's box cut off) or is solid
(`ORNAMENT_CORE_INCHES`: thicker than any letter's stroke). Nothing else on the page changes.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from pipeline.extract.ocr.words import box_mean, ink_runs

FILL_BELOW = 170  # grey levels under this are ink or fill (preparation makes lighter greys paper)
BLOCK = 4  # pixels per side of one cell of the reduced mask
DENSE_SHARE = 0.6  # of a (7 × 7)-cell window that is fill: inside a panel, never in running text
# Margin rows above and below a panel's letters: the fuller at least `MARGIN_SHARE` fill across the
# panel, the other `MARGIN_LOW_SHARE` (a banner's slanted or notched end takes part of one). Measured:
# 0.97-1.0 on black banners, 0.75-0.95 on slanted grey ones; 0.23 on a logo of heavy letters.
MARGIN_SHARE = 0.7
MARGIN_LOW_SHARE = 0.6
MIN_LETTER_SHARE = 0.04  # of a panel that is light and enclosed by fill: its letters
MAX_LETTER_SHARE = 0.6
# A panel's letters are paper showing through; the grey tint between the strokes of bold dark type set on
# a shaded bar (a CKE task heading) is not, and inverting it erased the heading's letters. Measured below
# the paper, at the letters' 98th percentile: 24-30 on OAB's black banners scanned at 150 dpi with blur
# 0.8 (JPEG 70), 1-6 on Revalida's grey ones, under 2 at 300 dpi; 57-61 on CKE's tinted headings. The
# letters' median does not tell them apart on a soft scan: 58-59 on OAB's banners at 150 dpi, blur 0.8
# (every "Questão N" header there was lost), 68-71 on CKE's.
LETTERS_BELOW_PAPER = 42
LETTERS_PERCENTILE = 98
# Judged by their median, a panel's letters must be this close to the paper: what a sharp scan shows (5-6 on
# OAB's banners at 300 dpi). The lightest part alone admits a panel only this tall (inches): a dense area cut
# out of a blurred bold heading (INAP's underlined "Primera parte" at 150 dpi, blur 0.8: 0.10 in, its
# counters' cores paper) is no taller than the letters, a banner holds its letters with room (OAB: 0.18 in).
MEDIAN_BELOW_PAPER = 38
SOFT_MIN_INCHES = 0.12
# Beyond a panel's top and bottom edge, within `EDGE_INCHES` (a blurred edge's width), at most this
# share of each row is fill, on average. Measured: 0-0.09 on black and grey banners scanned at 150-300
# dpi with blur 0.4-0.8; 0.45-0.59 beyond the dense area inside a blurred bold heading ("GABARITO"),
# whose inversion erased it and the key under it.
EDGE_SHARE = 0.25
EDGE_INCHES = 0.01
# Share of a panel's fill deeper than its letters' stroke width (twice the depth of the letters' light at its
# `LETTER_DEPTH_PERCENTILE`), depth measured from the nearest light pixel inside the box. Measured on every panel
# `reversed_panels` found (before this test) on OAB 2016's and Revalida 2023's booklets and keys scanned at
# 150-300 dpi, blur 0.4-0.8: 0.49-0.83 on their banners and filled rows; 0.00-0.11 on the bold headings and cell
# words taken for panels (INAP's underlined "Segunda parte", a generated Greek heading, NÚCEM's bold cell numbers).
DEEP_FILL_SHARE = 0.3
LETTER_DEPTH_PERCENTILE = 90
MIN_ASPECT = 1.5  # width over height
MIN_INCHES = 0.08
MAX_INCHES = 1.0
# Dense areas this close along a row (inches) are one panel: the words on a banner part its dense area.
WORD_GAP_INCHES = 0.2
GROW_CELLS = 3  # how far past its dense area a panel's edge is looked for, in cells
RIM = 3  # pixels around a panel made paper: its edge, blurred by the scan
LETTER_EDGE = 2  # pixels around a panel's light letters that keep their grey (anti-aliased letter edges)
MARGIN_ROWS = 4  # rows at the top and at the bottom of a panel that make its margins (its edge is blurred)
# A banner's ornaments: pieces of fill beside a panel, within this many panel heights of its left or right end
# (Revalida's triangles: up to 3.5 heights from the bar), lying within half a panel height above and below it.
ORNAMENT_REACH = 4.0
# Half the width of a solid piece's thickest part, at least (inches): a letter's stroke is thinner (bold 20 pt:
# 0.014 in), a banner's triangle or slanted end much thicker (Revalida's: 0.15 in tall).
ORNAMENT_CORE_INCHES = 0.02
ORNAMENT_MAX_HOLES = 0.02  # light enclosed by a piece, as a share of its fill: an ornament is solid all through
ORNAMENT_TOUCH = RIM + 2  # pixels from a panel's box within which a piece of fill is part of the banner


class Box(NamedTuple):
    """A rectangle of the page image in pixels, [left, right) × [top, bottom)."""

    left: int
    top: int
    right: int
    bottom: int


def light_on_dark_inverted(grey: np.ndarray, dpi: int) -> np.ndarray:
    """`grey` (0 black, 255 white) with the light letters of each filled panel made dark on white; the
    same array when the page has no panel."""
    panels = reversed_panels(grey, dpi)
    if not panels:
        return grey
    out = panels_inverted(grey, panels)
    for box, _ in panels:  # read on the page with its panels inverted: what the panel's box cut off stands apart
        for rows, columns, piece in banner_ornaments(out, box, dpi):
            out[rows, columns][piece] = 255
    return out


def panels_inverted(grey: np.ndarray, panels: list[tuple[Box, float]]) -> np.ndarray:
    """A copy of `grey` with each of `panels` (`reversed_panels`) inverted, its ornaments still there."""
    out = grey.copy()
    for box, letters_level in panels:
        crop = grey[box.top : box.bottom, box.left : box.right].astype(np.float32)
        fill = crop < FILL_BELOW
        # Linear, so the letters keep their anti-aliased edges: the fill's level to white, paper to black;
        # light that is no letter (corners, ribbons reaching the panel's end) to white.
        lightness = np.clip((crop - letters_level) * (255.0 / max(1.0, 255.0 - letters_level)), 0, 255)
        letters = enclosed(fill)
        # Only what lies at a letter's edge keeps its grey: the panel's own blurred edge, a grey between
        # fill and paper, would come out as a faint dashed rule under the letters, and Tesseract drops a
        # heading with such a rule under it ("Questão 35" on an OAB scan).
        near_letters = box_mean(letters, LETTER_EDGE) > 0
        panel = np.where((fill | letters) & near_letters, 255 - lightness, 255).astype(np.uint8)
        top, left = max(0, box.top - RIM), max(0, box.left - RIM)
        out[top : box.bottom + RIM, left : box.right + RIM] = 255
        out[box.top : box.bottom, box.left : box.right] = panel
    return out


def banner_ornaments(grey: np.ndarray, box: Box, dpi: int) -> list[tuple[slice, slice, np.ndarray]]:
    """The ornaments of the panel at `box` (see the module's docstring) on `grey`, the page with its panels
    inverted (`panels_inverted`): each as its rows, its columns and its pixels there."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second, OCR or not
    height = box.bottom - box.top
    reach = round(ORNAMENT_REACH * height)
    top, bottom = max(0, box.top - height // 2), min(grey.shape[0], box.bottom + height // 2)
    left, right = max(0, box.left - reach), min(grey.shape[1], box.right + reach)
    window = grey[top:bottom, left:right] < FILL_BELOW
    labelled, count = ndimage.label(window, structure=np.ones((3, 3), dtype=bool))
    if not count:
        return []
    core = max(1, round(ORNAMENT_CORE_INCHES * dpi))
    square = np.ones((2 * core + 1, 2 * core + 1), dtype=bool)
    found = []
    inner = (box.top - top, box.left - left, box.bottom - top, box.right - left)  # the panel, in the window
    for index, where in enumerate(ndimage.find_objects(labelled), start=1):
        rows, columns = where
        if rows.start == 0 or rows.stop == window.shape[0] or columns.start == 0 or columns.stop == window.shape[1]:
            continue  # runs on past the panel's band or its reach: a picture, a rule, a column of text
        if columns.start < inner[3] and columns.stop > inner[1]:
            continue  # above or below the panel, or the panel itself
        gap = columns.start - inner[3] if columns.start >= inner[3] else inner[1] - columns.stop
        piece = labelled[where] == index
        if ndimage.binary_fill_holes(piece).sum() - piece.sum() > ORNAMENT_MAX_HOLES * piece.sum():
            continue  # light inside: letters (a piece of a banner the panel left out, a word in a box)
        if gap <= ORNAMENT_TOUCH or ndimage.binary_erosion(piece, structure=square).any():
            found.append((slice(top + rows.start, top + rows.stop), slice(left + columns.start, left + columns.stop), piece))
    return found


def reversed_panels(grey: np.ndarray, dpi: int) -> list[tuple[Box, float]]:
    """The filled panels of a grey page that hold light text, each with its fill's grey level."""
    fill = grey < FILL_BELOW
    h, w = (fill.shape[0] // BLOCK) * BLOCK, (fill.shape[1] // BLOCK) * BLOCK
    if h == 0 or w == 0:
        return []
    cells = _cells_over_half(fill[:h, :w])
    if not cells.any():
        return []
    dense = cells & (box_mean(cells, 3) > DENSE_SHARE)
    paper: float | None = None  # the page's paper level, measured once a candidate gets that far
    panels = []
    for area in _dense_areas(dense, max(1, round(WORD_GAP_INCHES * dpi / BLOCK))):
        box = _grown(fill, Box(*(side * BLOCK for side in area)))
        height, width = box.bottom - box.top, box.right - box.left
        if not MIN_INCHES * dpi <= height <= MAX_INCHES * dpi or width < MIN_ASPECT * height:
            continue
        inside = fill[box.top : box.bottom, box.left : box.right]
        margins = sorted((inside[:2].mean(), inside[-2:].mean()))
        if margins[0] < MARGIN_LOW_SHARE or margins[1] < MARGIN_SHARE or not _steps_to_paper(fill, box, dpi):
            continue
        crop = grey[box.top : box.bottom, box.left : box.right]
        level = float(np.median(crop[inside]))
        letters = (crop > (level + 255) / 2) & enclosed(inside)
        if not MIN_LETTER_SHARE <= letters.mean() <= MAX_LETTER_SHARE or _deep_fill_share(inside, letters) < DEEP_FILL_SHARE:
            continue
        paper = float(np.median(grey[::BLOCK, ::BLOCK])) if paper is None else paper
        light = crop[letters]
        if np.median(light) >= paper - MEDIAN_BELOW_PAPER or (
            height >= SOFT_MIN_INCHES * dpi and np.percentile(light, LETTERS_PERCENTILE) >= paper - LETTERS_BELOW_PAPER
        ):
            panels.append((box, level))
    return _merged(panels)


def _deep_fill_share(inside: np.ndarray, letters: np.ndarray) -> float:
    """The share of a box's fill (`inside`) lying farther from any light in the box than its `letters` (light enclosed
    by the fill) are wide at their strokes: most of a panel's fill is its background, a heading's is its strokes.
    Beyond the box counts as fill: a panel's edge is no light of its own."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second, OCR or not
    depth = ndimage.distance_transform_edt(np.pad(inside, 1, constant_values=True))[1:-1, 1:-1]
    stroke = 2 * float(np.percentile(ndimage.distance_transform_edt(letters)[letters], LETTER_DEPTH_PERCENTILE))
    return float((depth[inside] > stroke).mean())


def _steps_to_paper(fill: np.ndarray, box: Box, dpi: int) -> bool:
    """Whether the rows just above and just below `box` are mostly paper: the straight edges of a filled
    rectangle, not strokes running on past a dense area cut out of heavy letters. An edge at the page's
    border counts as one."""
    reach = max(2, round(EDGE_INCHES * dpi))
    # The row next to the box is the edge itself: `_grown` stops at the first row under `MARGIN_LOW_SHARE` fill,
    # which on a soft scan is the edge's blurred half (0.44 fill under a Revalida banner at 160 dpi, blur 0.55),
    # not what lies beyond it. Counted in, it carried a banner past `EDGE_SHARE` by a hair (0.2547).
    above = fill[max(0, box.top - 1 - reach) : max(0, box.top - 1), box.left : box.right]
    below = fill[box.bottom + 1 : box.bottom + 1 + reach, box.left : box.right]
    return all(rows.size == 0 or rows.mean() <= EDGE_SHARE for rows in (above, below))


def _merged(panels: list[tuple[Box, float]]) -> list[tuple[Box, float]]:
    """Panels that overlap as one (two dense areas of one banner may each grow into the other): inverted
    twice, the overlap would turn back."""
    merged: list[tuple[Box, float]] = []
    for box, level in sorted(panels):
        for at, (other, other_level) in enumerate(merged):
            if box.left < other.right and other.left < box.right and box.top < other.bottom and other.top < box.bottom:
                union = Box(min(box.left, other.left), min(box.top, other.top), max(box.right, other.right), max(box.bottom, other.bottom))
                merged[at] = (union, other_level)
                break
        else:
            merged.append((box, level))
    return merged


def _cells_over_half(mask: np.ndarray) -> np.ndarray:
    """Which BLOCK × BLOCK cells of `mask` (its sides multiples of BLOCK) are over half set. Summed by
    strided slices: a reduction over a reshaped array's inner axes took 15 times as long."""
    counts = mask.view(np.uint8)
    rows = sum(counts[offset::BLOCK] for offset in range(BLOCK))
    cells = sum(rows[:, offset::BLOCK] for offset in range(BLOCK))
    return cells > BLOCK * BLOCK // 2


def enclosed(fill: np.ndarray) -> np.ndarray:
    """The pixels of a box that are not fill and cannot reach the box's edge without crossing fill: the
    light letters inside a panel or disc, not the paper around its corners or a light ribbon that runs
    out to its end. Reached by sweeps along whole rows and columns in turn (a run of open pixels is
    reached as a whole), until nothing more is reached."""
    open_ = ~fill
    reach = np.zeros_like(open_)
    reach[[0, -1], :] = open_[[0, -1], :]
    reach[:, [0, -1]] |= open_[:, [0, -1]]
    while True:
        grown = _runs_reached(_runs_reached(reach, open_).T, open_.T).T
        if np.array_equal(grown, reach):
            return open_ & ~reach
        reach = grown


def _runs_reached(reach: np.ndarray, open_: np.ndarray) -> np.ndarray:
    """Every pixel of each row's runs of `open_` that hold a pixel of `reach`."""
    height, width = open_.shape
    padded = np.zeros((height, width + 1), dtype=bool)  # a closed pixel ends every row's last run
    padded[:, :width] = open_
    flat = padded.ravel()
    starts = flat & ~np.concatenate(([False], flat[:-1]))
    runs = np.cumsum(starts) * flat  # run number of each open pixel, 0 for closed ones
    hit = np.zeros(int(runs.max()) + 1, dtype=bool)
    hit[runs.reshape(height, width + 1)[:, :width][reach & open_]] = True
    hit[0] = False
    return hit[runs].reshape(height, width + 1)[:, :width]


def _grown(fill: np.ndarray, box: Box) -> Box:
    """`box` pushed out to its panel's edges. A dense area stops short of them by up to the window it was
    measured over. Top and bottom: while the next row is mostly fill. Left and right: while the next
    column is solid in the panel's margin rows, or mostly fill close to the dense area."""
    top, bottom, left, right = box.top, box.bottom, box.left, box.right
    limit = GROW_CELLS * BLOCK
    while top > 0 and box.top - top < limit and fill[top - 1, left:right].mean() >= MARGIN_LOW_SHARE:
        top -= 1
    while bottom < fill.shape[0] and bottom - box.bottom < limit and fill[bottom, left:right].mean() >= MARGIN_LOW_SHARE:
        bottom += 1
    band = fill[top:bottom]
    # A column of the panel is solid in its margin rows (however far: letters may part the dense area),
    # or, near the dense area, mostly fill (the panel's end, or part of a slanted end).
    margins = (band[:MARGIN_ROWS].mean(axis=0) >= 0.75) & (band[-MARGIN_ROWS:].mean(axis=0) >= 0.75)
    mostly = band.mean(axis=0) >= MARGIN_LOW_SHARE
    # A letter reaching into a margin (the tilde of "Ã", a descender) parts it for less than half the panel's
    # height: the margin goes on past it. On a soft scan at 150 dpi the panel stopped there, and the letters
    # beyond were left grey on grey ("QUESTÁ" and nothing of a Revalida banner's left half).
    bridge = (bottom - top) // 2
    while left > 0:
        if margins[left - 1] or (box.left - left < limit and mostly[left - 1]):
            left -= 1
            continue
        beyond = [j for j in range(left - 2, max(-1, left - 2 - bridge), -1) if margins[j]]
        if not beyond:
            break
        left = beyond[0]
    while right < fill.shape[1]:
        if margins[right] or (right - box.right < limit and mostly[right]):
            right += 1
            continue
        beyond = [j for j in range(right + 1, min(fill.shape[1], right + 1 + bridge)) if margins[j]]
        if not beyond:
            break
        right = beyond[0] + 1
    return Box(left, top, right, bottom)


def _dense_areas(dense: np.ndarray, gap: int) -> list[Box]:
    """Rectangles around the dense cells: bands of rows with any, then runs of columns within each band,
    bridging `gap` cells (two banners side by side in two columns stay two areas)."""
    areas = []
    for top, bottom in ink_runs(dense.any(axis=1), 0):
        for left, right in ink_runs(dense[top:bottom].any(axis=0), gap):
            rows = np.flatnonzero(dense[top:bottom, left:right].any(axis=1))
            areas.append(Box(left, top + int(rows[0]), right, top + int(rows[-1]) + 1))
    return areas
