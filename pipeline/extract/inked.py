"""Where a text page holds text its text layer does not give: ink drawn as glyph outlines, and glyphs
without a Unicode mapping. Both are found here as boxes (PDF points, top-left origin) that the stage has
OCR'd (`pipeline.extract.ocr.masked`) and spliced into the page's lines.

    drawn_text_boxes(page, text_boxes) -> [Box]   ink of text drawn as paths, line by line
    unmapped_spans(glyphs) -> [Box]               runs of unmapped glyphs, row by row
    regions(boxes) -> [Box]                       boxes that touch, as the regions a report counts

**Drawn text.** The page's text objects are made invisible and the page is rendered at `INK_DPI` (1 px
= 1 pt) in grey: what ink is left is what the text layer does not hold. Filled areas (banners, bars,
shaded cells), straight rules (table borders, answer lines, underlines, erased as the OCR path erases
them) and images are taken out. What is left is cut, by its own white space, into rows and then into
pieces of a row (a recursive XY cut); a piece is a line of drawn text when it looks like one: a text
line's height (`MIN_LINE_PT`–`MAX_LINE_PT`), glyph-sized blobs set close side by side and standing on
one line, ink that neither fills its box nor is a hairline, and blobs that are not all alike (a row of
empty answer bubbles, an axis's ticks or a dotted leader repeat one shape; glyphs differ). Figures,
charts and diagrams are taller than a line, or their strokes end anywhere but on a line; a formula's
drawn fraction bar or radical is one or two blobs, under `MIN_BLOBS`. A region needs `MIN_BLOBS`
blobs in text-like pieces before it is read; the stage leaves out regions that repeat at one place on
most pages (a logo). Cost: one walk over the page's objects (~0.3 ms through ctypes, ~0.1 ms in the
compiled loop); a page with no path more complex than a rule is not rendered at all (nor are its text
objects made invisible), others cost one render and a few array passes inside the ink's box (~4 ms).

**Unmapped glyphs.** A glyph whose font gives no Unicode for it (pdfium's map error, U+FFFD) or only a
private-use point (a math font's own codes) is marked `Glyph.unmapped`; neighbouring unmapped glyphs of
one row form a span, and each span is read by OCR in place. Mapped glyphs are never read again.
"""
from __future__ import annotations

import ctypes
import math
import statistics
from collections import Counter
from dataclasses import dataclass
from itertools import repeat

import numpy as np
from numpy.typing import ArrayLike
import pypdfium2.raw as pdfium_c

from pipeline.extract import charloop, pagechars
from pipeline.extract.layout import Glyph, group_rows

Box = tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, origin top-left

INK_DPI = 72  # one pixel a point: boxes in points are pixel boxes
RECTANGLE_SEGMENTS = 5  # a rule, a frame or a cell is a path of at most this many segments
LONG_PATH_SEGMENTS = 200  # one path this long may be a whole line of glyph outlines
INK_BELOW = 160  # grey level: light tints and shaded boxes are paper
RULE_MIN_PT = 25  # a straight dark run this long is a rule, an underline or a frame, not a glyph stroke
MIN_LINE_PT, MAX_LINE_PT = 4, 48  # the height of a drawn text line's ink
MIN_BLOBS = 3  # glyph blobs a page's drawn text needs before it is read (a lone drawn mark is a figure's)
WORD_GAP_LINES = 1.2  # a gap this many line heights wide parts the pieces of a row (table cells, columns)
MIN_DENSITY, MAX_DENSITY = 0.08, 0.72  # share of a piece's box that is ink: a hairline / a filled bar
MAX_BLOB_WIDTH_LINES = 2.5  # a blob wider than this many line heights is a drawing, not (touching) glyphs
ALIKE_SHARE = 0.8  # a piece whose blobs are this much one shape is a pattern (bubbles, ticks), not text
MIN_INK_PX = 12  # left ink under this is nothing to look at
MAX_CUT_DEPTH = 4
REGION_REACH_PT = 12.0  # pieces this close are one region (a table's cells and rows, a paragraph's lines)
FILL_BLOCK = 4  # pixels: a block this size wholly dark is part of a fill
OBJECT_LEVELS = 3  # the page's objects, and form XObjects opened two levels down
MAX_GAP_LINES = 0.45  # the median gap between a text piece's blobs (letters, a cell's "1." and "A")
BASELINE_PX, BASELINE_SHARE = 2, 0.6  # this share of a text piece's blobs end within this of one line
INK_GRID = math.lcm(FILL_BLOCK, RULE_MIN_PT // 2)  # the fill and rule searches' blocks both fall on this grid


@dataclass(frozen=True)
class _Piece:
    box: Box
    blobs: int


def drawn_text_boxes(page) -> list[Box]:
    """Boxes of the pieces of `page` (a pypdfium2 page, its text already read) that look like lines of
    text drawn as outlines; [] on a page whose text layer explains its ink. The page's text objects are
    made invisible for this (the page is not saved, and is only closed after): what renders then is
    what the text layer does not hold. A page with no path more complex than a rule has nothing drawn
    to look at and is not rendered."""
    objects = _walk_objects(page)
    if objects.shapes < MIN_BLOBS and not objects.long_shapes:
        return []
    list(map(_SET_RENDER_MODE, objects.texts, repeat(pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE, len(objects.texts))))
    grey = page.render(scale=INK_DPI / 72, grayscale=True, no_smoothpath=True, no_smoothimage=True).to_numpy()
    dark = _leftover_ink(grey < INK_BELOW, objects.images)
    if int(dark.sum()) < MIN_INK_PX:
        return []
    pieces = [piece for piece in _cut(dark, 0, dark.shape[0], 0, dark.shape[1], 0) if piece.blobs]
    kept: list[Box] = []
    for region in regions([piece.box for piece in pieces]):
        inside = [p for p in pieces if _within(p.box, region)]
        # Lone blobs (an arrowhead, a curve's end beside a label) make no text of their own.
        if sum(p.blobs for p in inside) >= MIN_BLOBS and any(p.blobs >= 2 for p in inside):
            kept.extend(p.box for p in inside)
    return kept


def _leftover_ink(ink: np.ndarray, images: list[Box]) -> np.ndarray:
    """The page's ink (the text layer's not drawn) less straight rules, filled areas and images."""
    from pipeline.extract.ocr import straight_rules  # not at import: the OCR package is heavier

    box = _ink_box(ink)
    if box is None:
        return ink
    # Filled areas (a banner, a bar, a shaded cell, a coloured page) and their rims.
    part = ink[box]
    part = part & ~_fills(part, FILL_BLOCK)
    part &= ~straight_rules(part, RULE_MIN_PT)
    dark = np.zeros_like(ink)
    dark[box] = part
    if images and dark.any():
        dark &= ~_covered(dark.shape, images)
    return dark


def _ink_box(ink: np.ndarray) -> tuple[slice, slice] | None:
    """The part of the page where the fill and rule searches find what they find on the whole page: the
    box of the ink, its top and left edges moved out to the searches' block grid (`INK_GRID`), its bottom
    and right edges to the grid or the page's edge. Both searches test aligned blocks of the page (a
    fill's `FILL_BLOCK` squares; a rule covers a whole aligned block of half `RULE_MIN_PT`): on the grid,
    the box holds the same blocks, and every block outside it is bare paper, where neither finds anything
    (nor grows a fill into ink). None on a page without ink."""
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size == 0:
        return None
    columns = np.flatnonzero(ink[rows[0]:rows[-1] + 1].any(axis=0))

    def span(first: int, last: int, size: int) -> slice:
        return slice(first // INK_GRID * INK_GRID, min(size, -(-(last + 1) // INK_GRID) * INK_GRID))

    return span(int(rows[0]), int(rows[-1]), ink.shape[0]), span(int(columns[0]), int(columns[-1]), ink.shape[1])


_SET_RENDER_MODE = pagechars.typed_call(pdfium_c.FPDFTextObj_SetTextRenderMode, ctypes.c_int, ctypes.c_void_p, ctypes.c_int)
_COUNT_SEGMENTS = pagechars.typed_call(pdfium_c.FPDFPath_CountSegments, ctypes.c_int, ctypes.c_void_p)
_BOUNDS = pagechars.typed_call(pdfium_c.FPDFPageObj_GetBounds, ctypes.c_int, ctypes.c_void_p, *[ctypes.POINTER(ctypes.c_float)] * 4)


@dataclass
class _Objects:
    images: list[Box]
    texts: list[int]  # the text objects, made invisible where the page is rendered
    shapes: int = 0  # path objects with more segments than a rectangle: a glyph's outline may be one
    long_shapes: bool = False  # a path of many glyphs' outlines (a line of text drawn as one path)


def _walk_objects(page) -> _Objects:
    """One walk over a pypdfium2 page's objects (inside form XObjects too, two levels down) with pdfium's
    own calls, each kind of call mapped over the objects of its kind (`pagechars.object_tree`; a tenth
    of the cost of wrapping each of thousands of objects): image boxes (top-left origin), the count of
    paths that could be glyphs, and every text object made invisible."""
    _, height = page.get_size()
    loops = charloop.char_loops()  # llvmlite's walk (`walkir`) where built, else numba's once loaded
    compiled = pagechars.compiled_reader_now() if loops is None else None
    if loops is not None or compiled is not None:
        found, images = _walked_compiled(loops, compiled, page)
    else:
        handles, kinds = pagechars.object_tree(page.raw, OBJECT_LEVELS)
        of_kind = {kind: [h for h, k in zip(handles, kinds) if k == kind]
                   for kind in (pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE)}
        segments = list(map(_COUNT_SEGMENTS, of_kind[pdfium_c.FPDF_PAGEOBJ_PATH]))
        found = _Objects([], of_kind[pdfium_c.FPDF_PAGEOBJ_TEXT], shapes=sum(count > RECTANGLE_SEGMENTS for count in segments),
                         long_shapes=any(count >= LONG_PATH_SEGMENTS for count in segments))
        images = of_kind[pdfium_c.FPDF_PAGEOBJ_IMAGE]
    if found.shapes < MIN_BLOBS and not found.long_shapes:
        return found  # nothing will be rendered: the images' boxes are not asked
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    box = [ctypes.byref(v) for v in (left, bottom, right, top)]
    for image in images:
        if _BOUNDS(image, *box):
            found.images.append((left.value, height - top.value, right.value, height - bottom.value))
    return found


def _walked_compiled(loops, compiled, page) -> tuple[_Objects, list[int]]:
    """The walk of `_walk_objects` in one compiled loop, llvmlite's (`loops`: `walkir.ink_objects`) or numba's
    (`compiled`: `charloopjit.ink_objects`): the same objects, as `pagechars.object_tree` finds them; (what it
    found, the images' handles)."""
    size = 256
    handle = pagechars.handle_of(page.raw)
    while True:
        texts, images = np.zeros(size, dtype=np.int64), np.zeros(size, dtype=np.int64)
        found, counts = np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64)
        if loops is not None:
            walked = loops.ink_objects(handle, OBJECT_LEVELS - 1, texts, size, images, size, found, counts,
                                       RECTANGLE_SEGMENTS, LONG_PATH_SEGMENTS)
        else:
            walked = compiled.ink_objects(handle, OBJECT_LEVELS - 1, texts, images, found, counts,
                                          RECTANGLE_SEGMENTS, LONG_PATH_SEGMENTS)
        if walked:
            break
        size *= 4  # a page of more text or image objects than that: walked again with room for them
    walked = _Objects([], texts[:found[0]].tolist(), shapes=int(counts[0]), long_shapes=bool(counts[1]))
    return walked, images[:found[1]].tolist()


def _within(box: Box, region: Box) -> bool:
    return box[0] >= region[0] and box[1] >= region[1] and box[2] <= region[2] and box[3] <= region[3]


def _covered(shape: tuple[int, ...], boxes: list[Box]) -> np.ndarray:
    """Pixels (one a point) inside any of `boxes`."""
    height, width = shape[:2]
    covered = np.zeros((height, width), dtype=bool)
    for x0, top, x1, bottom in boxes:
        covered[max(0, int(top)):max(0, int(np.ceil(bottom))), max(0, int(x0)):max(0, int(np.ceil(x1)))] = True
    return covered


def _fills(ink: np.ndarray, block: int) -> np.ndarray:
    """Pixels of filled areas and their rims: every `block` × `block` block wholly dark, grown by one
    block (a glyph's strokes are a point or two wide, never a solid block of FILL_BLOCK points)."""
    height, width = ink.shape
    rows, columns = height // block, width // block
    cut = ink[: rows * block, : columns * block]
    solid = cut[0::block, 0::block].copy()  # each block's pixels AND-ed one place of the block at a time
    for place in range(1, block * block):
        solid &= cut[place // block::block, place % block::block]
    if not solid.any():
        return np.zeros_like(ink)
    grown = solid.copy()
    grown[1:] |= solid[:-1]
    grown[:-1] |= solid[1:]
    grown[:, 1:] |= grown[:, :-1].copy()
    grown[:, :-1] |= grown[:, 1:].copy()
    fills = np.zeros_like(ink)
    fills[: rows * block, : columns * block].reshape(rows, block, columns, block)[:] = grown[:, None, :, None]
    return fills


def _runs(ink: ArrayLike, min_gap: int) -> list[tuple[int, int]]:
    """(start, end) of the runs of True in a 1-d array, runs parted by fewer than `min_gap` (at least 1) False joined:
    the True places, broken where more than `min_gap` places part two of them."""
    at = np.flatnonzero(ink)
    if at.size == 0:
        return []
    breaks = np.flatnonzero(at[1:] - at[:-1] > min_gap)
    starts = [int(at[0]), *at[breaks + 1].tolist()]
    ends = [*at[breaks].tolist(), int(at[-1])]
    return [(start, end + 1) for start, end in zip(starts, ends)]


def _cut(dark: np.ndarray, top: int, bottom: int, left: int, right: int, depth: int) -> list[_Piece]:
    """The ink of dark[top:bottom, left:right] cut into rows, and rows into pieces at wide gaps, until a
    piece is one row of ink; each piece with the number of glyph blobs it counts as (0: not text)."""
    pieces: list[_Piece] = []
    for up, down in _runs(dark[top:bottom, left:right].any(axis=1), 1):
        up, down = up + top, down + top
        height = down - up
        gap = max(3, round(WORD_GAP_LINES * min(height, MAX_LINE_PT)))
        for x0, x1 in _runs(dark[up:down, left:right].any(axis=0), gap):
            x0, x1 = x0 + left, x1 + left
            rows = _runs(dark[up:down, x0:x1].any(axis=1), 1)
            if depth < MAX_CUT_DEPTH and (len(rows) > 1 or rows[0] != (0, height)):
                pieces.extend(_cut(dark, up, down, x0, x1, depth + 1))
            else:
                pieces.append(_Piece((float(x0), float(up), float(x1), float(down)), _text_blobs(dark[up:down, x0:x1])))
    return pieces


def _text_blobs(piece: np.ndarray) -> int:
    """How many glyph blobs a piece of one row of ink counts as, 0 when it does not look like text."""
    height, width = piece.shape
    if not MIN_LINE_PT <= height <= MAX_LINE_PT:
        return 0
    density = float(piece.mean())
    if not MIN_DENSITY <= density <= MAX_DENSITY:
        return 0
    blobs = _runs(piece.any(axis=0), 1)
    widths = [x1 - x0 for x0, x1 in blobs]
    if max(widths) > MAX_BLOB_WIDTH_LINES * height:
        return 0
    if len(blobs) == 1:
        return 1 if 0.25 * height <= widths[0] <= 1.6 * height else 0
    shapes = [(x1 - x0, int(piece[:, x0:x1].sum()) // 2) for x0, x1 in blobs]
    most = max(Counter(shapes).values())
    if len(blobs) >= 3 and most >= ALIKE_SHARE * len(blobs):
        return 0
    if statistics.median(widths) < 0.2 * height:  # ticks, hatching: strokes, not glyphs
        return 0
    gaps = [b[0] - a[1] for a, b in zip(blobs, blobs[1:])]
    if statistics.median(gaps) > MAX_GAP_LINES * height:  # boxes or marks set apart, not letters of words
        return 0
    # Glyphs stand on a line (descenders and marks aside); the strokes of a drawing end anywhere.
    bottoms = [int(np.flatnonzero(piece[:, x0:x1].any(axis=1))[-1]) for x0, x1 in blobs]
    on_line = max(sum(abs(b - line) <= BASELINE_PX for b in bottoms) for line in bottoms)
    if on_line < BASELINE_SHARE * len(blobs):
        return 0
    return len(blobs)


def regions(boxes: list[Box], reach: float = REGION_REACH_PT) -> list[Box]:
    """`boxes` merged where they come within `reach` points of each other: the regions a report counts."""
    merged: list[list[float]] = []
    for box in sorted(boxes, key=lambda b: (b[1], b[0])):
        for other in merged:
            if box[0] <= other[2] + reach and box[2] >= other[0] - reach and box[1] <= other[3] + reach and box[3] >= other[1] - reach:
                other[:] = [min(other[0], box[0]), min(other[1], box[1]), max(other[2], box[2]), max(other[3], box[3])]
                break
        else:
            merged.append(list(box))
    changed = True
    while changed:  # a box that joined two regions makes them one
        changed = False
        for i, a in enumerate(merged):
            for b in merged[i + 1:]:
                if a[0] <= b[2] + reach and a[2] >= b[0] - reach and a[1] <= b[3] + reach and a[3] >= b[1] - reach:
                    a[:] = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])]
                    merged.remove(b)
                    changed = True
                    break
            if changed:
                break
    return [(a[0], a[1], a[2], a[3]) for a in merged]


def unmapped_spans(glyphs: list[Glyph]) -> list[Box]:
    """Runs of unmapped glyphs row by row, each the box of its glyphs: neighbours in a row with no
    mapped glyph between them form one span (a formula set in a font without a Unicode map)."""
    if not any(g.unmapped for g in glyphs):
        return []
    spans: list[Box] = []
    for row in group_rows(glyphs, shared_descent=True):
        run: list[Glyph] = []
        for glyph in sorted(row.glyphs, key=lambda g: g.x0) + [None]:
            if glyph is not None and glyph.unmapped:
                run.append(glyph)
                continue
            if run:
                spans.append((min(g.x0 for g in run), min(g.top for g in run), max(g.x1 for g in run), max(g.bottom for g in run)))
                run = []
    return spans
