"""Where a text-layer page's figures stand (`find_figure_boxes`): its graphic objects (images and vector paths, inside
Form XObjects too) clustered by their boxes, and the clusters that are figures, with the short text beside them that
labels them; `figures` crops and saves them.

A figure is a cluster of graphic objects (images and vector paths whose boxes touch or nearly touch) that
- holds an image, or
- holds curved or slanted strokes (a chart line, a circuit, a flowchart arrow), unless every stroke runs
  along the cluster's border (a rounded frame around text), or
- is a bar chart made of straight rectangles (three or more filled bars on one baseline, of different
  lengths);
and whose box covers at least `min_area_pt2` square points (see `figures` for what is skipped on purpose).
"""
from __future__ import annotations

import ctypes
import itertools
from dataclasses import dataclass
from itertools import repeat

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.extract import pagechars

JOIN_GAP_PT = 4.0  # objects closer than this belong to one drawing
LABEL_GAP_PT = 8.0  # short text this close to a drawing is its label
LABEL_MAX_WIDTH_SHARE = 0.6  # text wider (or taller) than this share of the drawing is body text, not a label
SCAN_MIN_PAGE_SHARE = 0.85
FRAME_MIN_PAGE_SHARE = 0.40
BORDER_TOLERANCE_PT = 2.0
MIN_SIDE_PT = 12.0
MIN_BAR_PT = 3.0
MAX_TEXT_SHARE = 0.25  # a cluster whose box is this much text is a frame, table or box, not a drawing
MIN_CORE_SHARE = 0.15  # images and curves must span this share of a drawing's box

Box = tuple[float, float, float, float]  # x0, top, x1, bottom (points, top-left origin)


@dataclass
class _Graphic:
    kind: str  # "image", "curved" or "straight"
    box: Box
    filled: bool = False  # filled with a colour other than white




# --------------------------------------------------------------------------- page objects


# pdfium's calls with plain C argument types (`pagechars.typed_call`): an object's handle is an int, and no
# pypdfium2 helper object is made per page object (a page holds a dozen text objects for each drawing).
_COUNT_OBJECTS = pagechars.typed_call(pdfium_c.FPDFPage_CountObjects, ctypes.c_int, ctypes.c_void_p)
_GET_OBJECT = pagechars.typed_call(pdfium_c.FPDFPage_GetObject, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
_COUNT_FORM_OBJECTS = pagechars.typed_call(pdfium_c.FPDFFormObj_CountObjects, ctypes.c_int, ctypes.c_void_p)
_GET_FORM_OBJECT = pagechars.typed_call(pdfium_c.FPDFFormObj_GetObject, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ulong)
_OBJECT_TYPE = pagechars.typed_call(pdfium_c.FPDFPageObj_GetType, ctypes.c_int, ctypes.c_void_p)
_FLOAT_P = ctypes.POINTER(ctypes.c_float)
_BOUNDS = pagechars.typed_call(pdfium_c.FPDFPageObj_GetBounds, ctypes.c_int, ctypes.c_void_p, *[_FLOAT_P] * 4)
_MATRIX = pagechars.typed_call(pdfium_c.FPDFPageObj_GetMatrix, ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(pdfium_c.FS_MATRIX))
_DRAW_MODE = pagechars.typed_call(pdfium_c.FPDFPath_GetDrawMode, ctypes.c_int, ctypes.c_void_p, *[ctypes.POINTER(ctypes.c_int)] * 2)
_FILL_COLOR = pagechars.typed_call(pdfium_c.FPDFPageObj_GetFillColor, ctypes.c_int, ctypes.c_void_p, *[ctypes.POINTER(ctypes.c_uint)] * 4)
_COUNT_SEGMENTS = pagechars.typed_call(pdfium_c.FPDFPath_CountSegments, ctypes.c_int, ctypes.c_void_p)
_GET_SEGMENT = pagechars.typed_call(pdfium_c.FPDFPath_GetPathSegment, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
_SEGMENT_TYPE = pagechars.typed_call(pdfium_c.FPDFPathSegment_GetType, ctypes.c_int, ctypes.c_void_p)
_SEGMENT_POINT = pagechars.typed_call(pdfium_c.FPDFPathSegment_GetPoint, ctypes.c_int, ctypes.c_void_p, _FLOAT_P, _FLOAT_P)
FORM_LEVELS = 8  # Form XObjects opened this deep; a form deeper still is one object, not a figure


def _matrix_box(matrix: pdfium.PdfMatrix | None, bounds: tuple[float, float, float, float]) -> tuple[float, ...]:
    if matrix is None:
        return bounds
    return matrix.on_rect(*bounds)


def _path_shape(handle: int) -> tuple[str, bool]:
    """("curved" | "straight", filled with a visible colour) for a path object."""
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    filled = bool(_DRAW_MODE(handle, fill_mode, stroke)) and fill_mode.value != 0
    if filled:
        # White fills are backgrounds (form fields, table cells), not ink.
        r, g, b, a = (ctypes.c_uint() for _ in range(4))
        if _FILL_COLOR(handle, r, g, b, a):
            filled = a.value > 0 and min(r.value, g.value, b.value) < 235
    count = _COUNT_SEGMENTS(handle)
    x, y = ctypes.c_float(), ctypes.c_float()
    previous: tuple[float, float] | None = None
    for index in range(max(count, 0)):
        segment = _GET_SEGMENT(handle, index)
        if not segment:
            continue
        kind = _SEGMENT_TYPE(segment)
        if kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:
            return "curved", filled
        if not _SEGMENT_POINT(segment, x, y):
            continue
        point = (x.value, y.value)
        if kind == pdfium_c.FPDF_SEGMENT_LINETO and previous is not None:
            dx, dy = abs(point[0] - previous[0]), abs(point[1] - previous[1])
            if dx > 0.5 and dy > 0.5:  # a slanted stroke: arrows, chart lines, crosses
                return "curved", filled
        previous = point
    return "straight", filled


class _Bounds:
    """`PdfObject.get_bounds` for a handle, its four floats made once."""

    def __init__(self) -> None:
        self.values = [ctypes.c_float() for _ in range(4)]

    def __call__(self, handle: int) -> tuple[float, float, float, float]:
        left, bottom, right, top = self.values
        if not _BOUNDS(handle, left, bottom, right, top):
            raise pdfium.PdfiumError("Failed to locate pageobject.")
        return (left.value, bottom.value, right.value, top.value)


def _form_matrix(handle: int) -> pdfium.PdfMatrix:
    raw = pdfium_c.FS_MATRIX()
    if not _MATRIX(handle, raw):
        raise pdfium.PdfiumError("Failed to get matrix of pageobject.")
    return pdfium.PdfMatrix.from_raw(raw)


def _children(page: int, form: int | None) -> list[int]:
    count = _COUNT_OBJECTS(page) if form is None else _COUNT_FORM_OBJECTS(form)
    if count < 0:
        raise pdfium.PdfiumError("Failed to get number of page objects.")
    handles = list(map(_GET_OBJECT, repeat(page, count), range(count))) if form is None else \
        list(map(_GET_FORM_OBJECT, repeat(form, count), range(count)))
    if not all(handles):
        raise pdfium.PdfiumError("Failed to get page object.")
    return handles


def _walk(page: int, bounds: _Bounds, form: int | None = None, matrix: pdfium.PdfMatrix | None = None, level: int = 0):
    """(object handle, type, page-space bounds in PDF coordinates) for every object, descending into
    Form XObjects (`PdfPage.get_objects` one level at a time, as it walks them); a text object's bounds
    are not asked here: its box comes as None and its form's matrix in its place (`_text_box` tells it
    where a figure's text share or labels need it).

    pdfium reports the bounds of an object inside a form in the form's space; the form's matrix (and its
    parents') carries them to the page.
    """
    for handle in _children(page, form):
        kind = _OBJECT_TYPE(handle)
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            yield handle, kind, matrix
            continue
        box = _matrix_box(matrix, bounds(handle))
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM and level < FORM_LEVELS:
            inner = _form_matrix(handle) if matrix is None else _form_matrix(handle).multiply(matrix)
            yield from _walk(page, bounds, handle, inner, level + 1)
        else:
            yield handle, kind, box


def _page_objects(page: pdfium.PdfPage) -> tuple[list[_Graphic], list[Box]]:
    """Graphic objects and text-object boxes of a page, in top-left-origin points."""
    graphics, paths, texts = _page_boxes(page)
    return _shaped(graphics, paths), _text_boxes(page, texts)


def _shaped(graphics: list[_Graphic], paths: list[int]) -> list[_Graphic]:
    """The graphics with each path's shape told (`_path_shape`): `paths` holds the handle of each
    graphic that is a path, in order, and 0 for the others."""
    shaped = []
    for graphic, handle in zip(graphics, paths):
        if handle:
            shape, filled = _path_shape(handle)
            graphic = _Graphic(shape, graphic.box, filled)
        shaped.append(graphic)
    return shaped


TextObject = tuple[int, "pdfium.PdfMatrix | None"]  # a text object's handle and the matrix of the form it is in


def _page_boxes(page: pdfium.PdfPage) -> tuple[list[_Graphic], list[int], list[TextObject]]:
    """`_page_objects` before its paths' shapes and its text objects' boxes are told: the graphics (a path's
    kind left "straight"), the handle of each that is a path (0 for the others), and the text objects
    (`_text_boxes` tells their boxes; most pages have no figure to ask them for)."""
    width, height = page.get_size()
    page_area = width * height
    graphics: list[_Graphic] = []
    paths: list[int] = []
    texts: list[TextObject] = []
    for handle, kind, bounds in _walk(pagechars.handle_of(page.raw), _Bounds()):
        if kind == pdfium_c.FPDF_PAGEOBJ_TEXT:
            texts.append((handle, bounds))
            continue
        left, bottom, right, top = bounds
        box = (max(left, 0.0), max(height - top, 0.0), min(right, width), min(height - bottom, height))
        if box[2] <= box[0] or box[3] <= box[1]:
            if kind != pdfium_c.FPDF_PAGEOBJ_PATH:
                continue
            # A horizontal or vertical rule has zero extent across; give it a hairline so it can join.
            box = (box[0], box[1], max(box[2], box[0] + 0.1), max(box[3], box[1] + 0.1))
        area = (box[2] - box[0]) * (box[3] - box[1])
        if kind == pdfium_c.FPDF_PAGEOBJ_IMAGE and area < SCAN_MIN_PAGE_SHARE * page_area:
            graphics.append(_Graphic("image", box))
            paths.append(0)
        elif kind == pdfium_c.FPDF_PAGEOBJ_PATH and area < FRAME_MIN_PAGE_SHARE * page_area:
            graphics.append(_Graphic("straight", box))
            paths.append(handle)
        elif kind == pdfium_c.FPDF_PAGEOBJ_SHADING and area < FRAME_MIN_PAGE_SHARE * page_area:
            graphics.append(_Graphic("curved", box, True))
            paths.append(0)
    return graphics, paths, texts


def _text_boxes(page: pdfium.PdfPage, texts: list[TextObject]) -> list[Box]:
    """The boxes (top-left-origin points, clipped to the page) of the text objects `_page_boxes` found, in
    its order; a box with no extent left on the page is none."""
    width, height = page.get_size()
    bounds = _Bounds()
    boxes = []
    for handle, matrix in texts:
        left, bottom, right, top = _matrix_box(matrix, bounds(handle))
        box = (max(left, 0.0), max(height - top, 0.0), min(right, width), min(height - bottom, height))
        if not (box[2] <= box[0] or box[3] <= box[1]):
            boxes.append(box)
    return boxes


# --------------------------------------------------------------------------- clustering


def _clusters(boxes: np.ndarray, gap: float) -> list[list[int]]:
    """Indices of boxes grouped by touching (within `gap`), transitively."""
    n = len(boxes)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    grown = boxes + np.array([-gap, -gap, gap, gap]) / 2
    block = 512
    for start in range(0, n, block):
        chunk = grown[start : start + block]
        hits = (
            (chunk[:, None, 0] <= grown[None, :, 2])
            & (grown[None, :, 0] <= chunk[:, None, 2])
            & (chunk[:, None, 1] <= grown[None, :, 3])
            & (grown[None, :, 1] <= chunk[:, None, 3])
        )
        rows, cols = np.nonzero(hits)
        for a, b in zip((rows + start).tolist(), cols.tolist()):
            if a < b:
                ra, rb = find(a), find(b)
                if ra != rb:
                    parent[rb] = ra
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _union(boxes) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def _frame_part(box: Box, outer: Box) -> bool:
    """A piece of a frame around `outer`: the whole outline in one path, or a thin strip along one edge."""
    t = BORDER_TOLERANCE_PT
    if all(abs(a - b) <= t for a, b in zip(box, outer)):
        return True
    thin_x, thin_y = box[2] - box[0] <= 2 * t, box[3] - box[1] <= 2 * t
    on_side = abs(box[0] - outer[0]) <= t or abs(box[2] - outer[2]) <= t
    on_top_or_bottom = abs(box[1] - outer[1]) <= t or abs(box[3] - outer[3]) <= t
    return (thin_x and on_side) or (thin_y and on_top_or_bottom) or (thin_x and thin_y)


def _bar_chart(members: list[_Graphic]) -> bool:
    """Three or more separate filled bars of different lengths standing on one baseline (or one left edge).

    Table cells and rules drawn as filled rectangles abut one another (or are hairlines), so they do not
    qualify: bars must be at least MIN_BAR_PT thick and stand apart.
    """
    bars = [g.box for g in members if g.filled and g.kind == "straight"]
    bars = [b for b in bars if min(b[2] - b[0], b[3] - b[1]) >= MIN_BAR_PT]
    if len(bars) < 3:
        return False
    # (edge the bars share, their length, the axis along which they stand side by side)
    for base, length, across in ((3, lambda b: b[3] - b[1], 0), (0, lambda b: b[2] - b[0], 1)):
        by_base: dict[int, list[Box]] = {}
        for b in bars:
            by_base.setdefault(round(b[base]), []).append(b)
        for group in by_base.values():
            group.sort(key=lambda b: b[across])
            apart = all(nxt[across] - cur[across + 2] >= 1.0 for cur, nxt in itertools.pairwise(group))
            lengths = [length(b) for b in group]
            if len(group) >= 3 and apart and max(lengths) - min(lengths) > 2.0:
                return True
    return False


def _area(box: Box) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def _text_share(box: Box, texts: list[Box]) -> float:
    """Share of `box` covered by text objects."""
    covered = 0.0
    for t in texts:
        covered += _area((max(box[0], t[0]), max(box[1], t[1]), min(box[2], t[2]), min(box[3], t[3])))
    return covered / max(_area(box), 1e-9)


def _is_figure(members: list[_Graphic], box: Box, texts: list[Box]) -> bool:
    """A drawing rather than a text frame, table, answer grid or header bar (see the module docstring)."""
    if _text_share(box, texts) >= MAX_TEXT_SHARE:
        return False
    core = [g.box for g in members if g.kind in ("image", "curved")]
    if core and _area(_union(core)) >= MIN_CORE_SHARE * _area(box):
        # A (rounded) frame around text: every stroke runs along the outer edge (corners are the small bits).
        return any(g.kind == "image" for g in members) or not all(_frame_part(g.box, box) for g in members)
    return _bar_chart(members)


def _with_labels(box: Box, texts: list[Box]) -> Box:
    width, height = box[2] - box[0], box[3] - box[1]
    grown = (box[0] - LABEL_GAP_PT, box[1] - LABEL_GAP_PT, box[2] + LABEL_GAP_PT, box[3] + LABEL_GAP_PT)
    labels = [
        t
        for t in texts
        if t[0] < grown[2] and t[2] > grown[0] and t[1] < grown[3] and t[3] > grown[1]
        and (t[2] - t[0]) <= LABEL_MAX_WIDTH_SHARE * width
        and (t[3] - t[1]) <= LABEL_MAX_WIDTH_SHARE * height
    ]
    return _union([box, *labels]) if labels else box


def _big_enough(box: Box, min_area_pt2: float) -> bool:
    return (box[2] - box[0]) >= MIN_SIDE_PT and (box[3] - box[1]) >= MIN_SIDE_PT and _area(box) >= min_area_pt2


def find_figure_boxes(page: pdfium.PdfPage, *, min_area_pt2: float = 2500) -> list[Box]:
    """Figure boxes on one page, top to bottom, in points with a top-left origin.

    A cluster's box is the union of its members' boxes, so none is bigger than all the page's graphics
    together: where that union is under the size a figure needs (`_big_enough`: most text pages, their
    graphics a rule or two), the page has none, and its paths' segments are not looked at."""
    graphics, paths, text_objects = _page_boxes(page)
    if not graphics or not _big_enough(_union([g.box for g in graphics]), min_area_pt2):
        return []
    graphics = _shaped(graphics, paths)
    texts = _text_boxes(page, text_objects)
    boxes = np.array([g.box for g in graphics], dtype=np.float64)
    found: list[Box] = []
    for group in _clusters(boxes, JOIN_GAP_PT):
        members = [graphics[i] for i in group]
        box = _union([g.box for g in members])
        if _big_enough(box, min_area_pt2) and _is_figure(members, box, texts):
            found.append(_with_labels(box, texts))
            continue
        # A frame, table or bar holding a drawing (a logo on a cover, a chart inside a boxed task):
        # look again at the images and curves alone.
        core = [g for g in members if g.kind in ("image", "curved")]
        if len(core) == len(members) or not core:
            continue
        for sub in _clusters(np.array([g.box for g in core], dtype=np.float64), JOIN_GAP_PT):
            parts = [core[i] for i in sub]
            sub_box = _union([g.box for g in parts])
            if _big_enough(sub_box, min_area_pt2) and _is_figure(parts, sub_box, texts):
                found.append(_with_labels(sub_box, texts))
    # Labels can make two neighbouring figures overlap; one crop then holds both.
    merged: list[Box] = []
    for box in sorted(found, key=lambda b: (b[1], b[0])):
        for i, other in enumerate(merged):
            if box[0] < other[2] and box[2] > other[0] and box[1] < other[3] and box[3] > other[1]:
                merged[i] = _union([box, other])
                break
        else:
            merged.append(box)
    return sorted(merged, key=lambda b: (b[1], b[0]))
