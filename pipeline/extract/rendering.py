"""A page rendered the way pypdfium2's `page.render(scale=...)` renders it, on a buffer numpy fills white.

`page.render` hands pdfium a zeroed ctypes buffer and has pdfium's FillRect paint it white before the
page is drawn: at 300 dpi that costs about a third of the render. `render_on_white` makes the same call
to pdfium (same size, flags and form drawing) on a buffer numpy filled white at memory speed: the same
pixels (`tests/pipeline/extract/test_figures.py` compares them page by page). Figure crops and the OCR
renders (`ocr.engine.render_page`) both use it; figure crops have only their own boxes filled (`read`).

`drop_objects_apart(page, boxes, margin)` takes out of a loaded page the objects that paint nothing in
`boxes`: a masked page (`ocr.masked`) keeps the pixels of a few boxes of a 300 dpi render and paints the
rest white, so the page's other text, images and drawings need not be drawn at all.
"""
from __future__ import annotations

import ctypes
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c


PixelBox = tuple[int, int, int, int]  # left, top, right, bottom in the bitmap's pixels


def render_on_white(page: pdfium.PdfPage, scale: float, *, read: Iterable[PixelBox] | None = None) -> pdfium.PdfBitmap:
    """`page.render(scale=scale)`: a BGR bitmap of the page, the same pixels, white filled by numpy.

    `read`: the only pixels the caller will read (a page's figure crops): those alone are filled white, and
    the rest of the buffer is left as numpy allocated it (a fresh page-sized buffer is untouched memory the
    system maps on first write). pdfium paints every pixel from the page's objects and that pixel's own
    value before (a blend, a group's backdrop and a mask are pixel by pixel), so the pixels inside `read`
    are those of the whole page on white; a 150 dpi A4 page is 6.5 MB to fill, a crop a tenth of it."""
    width, height = render_size(page, scale)
    if read is None:
        pixels = np.full((height, width * 3), 255, dtype=np.uint8)
    else:
        pixels = _unfilled((height, width * 3))
        for left, top, right, bottom in read:
            pixels[max(top, 0):max(bottom, 0), 3 * max(left, 0):3 * max(right, 0)] = 255
    buffer = (ctypes.c_ubyte * pixels.size).from_buffer(pixels)
    bitmap = pdfium.PdfBitmap.new_native(width, height, format=pdfium_c.FPDFBitmap_BGR, buffer=buffer)
    placed = (bitmap, page, 0, 0, width, height, 0, pdfium_c.FPDF_ANNOT)  # `render`'s defaults: annotations drawn
    pdfium_c.FPDF_RenderPageBitmap(*placed)
    if page.formenv:
        pdfium_c.FPDF_FFLDraw(page.formenv, *placed)
    return bitmap


def render_size(page: pdfium.PdfPage, scale: float) -> tuple[int, int]:
    """The pixels (width, height) of `render_on_white(page, scale)`, `page.render`'s: known before it draws."""
    width, height = (math.ceil(side * scale) for side in page.get_size())
    return width, height


def _unfilled(shape: tuple[int, int]) -> np.ndarray:
    """A buffer whose values are not set (`render_on_white`'s pixels outside what is read)."""
    return np.empty(shape, dtype=np.uint8)


Box = tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, origin top-left
# The kinds whose bounds hold all they paint; a shading (`sh`) paints its clip, and is always drawn.
_BOUNDED = (pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM)


def drop_objects_apart(page: pdfium.PdfPage, boxes: Iterable[Box], margin: float) -> int:
    """Remove from `page` (loaded, never saved) each of its objects whose bounds, grown by `margin` points,
    reach none of `boxes`. pdfium draws a page object by object, each inside its bounds
    (a stroke's width, a glyph's outline and an image's corners included; anti-aliasing reaches a pixel
    past them, `margin` covers that), so the pixels inside `boxes` are the ones the whole page gives
    (`tests/pipeline/extract/ocr/test_masked_objects_apart.py` compares them). Only text, path, image and
    form objects are taken out; an object whose bounds pdfium cannot tell, and a shading, stay. A form
    XObject that reaches a box stays, less its own objects apart, `FORM_LEVELS` deep: a form's objects are
    drawn one by one like the page's, their bounds in the form's space (its matrix maps them onto the
    page), so a full-page background form of ornaments is drawn with the few that reach a box, and one
    left with none paints nothing and is taken out too (a form with a transparency group is composited
    over its whole box, at 300 dpi as costly as the page: 40 ms). Returns how many objects were taken
    out, a form's own counted. The removed
    objects are freed here; the page's annotations and form fields are not page objects and are drawn as
    before. A page turned (`/Rotate`) or whose crop box does not start at the page space's origin is left
    whole: its objects' bounds are not the render's top-left points by a flip alone."""
    boxes = list(boxes)
    if page.get_rotation() % 360 or tuple(page.get_cropbox()[:2]) != (0.0, 0.0):
        return 0
    raw = _handle(page.raw)
    page_objects = _Container(_COUNT_OBJECTS(raw), partial(_GET_OBJECT, raw), partial(_REMOVE_OBJECT, raw))
    return _drop_apart(page_objects, _IDENTITY, page.get_size()[1], boxes, margin, FORM_LEVELS)


FORM_LEVELS = 3  # form XObjects opened this many levels down to take out what of them lies apart
Matrix = tuple[float, float, float, float, float, float]  # a, b, c, d, e, f: x' = a x + c y + e, y' = b x + d y + f
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _typed(function, restype, *argtypes):
    """`function` (a pypdfium2 binding) with plain C argument types: a handle as `c_void_p` takes a Python int,
    which a `map` hands it without a Python frame or pypdfium2's pointer conversion per call."""
    return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(function, ctypes.c_void_p).value)


def _handle(raw) -> int:
    return ctypes.cast(raw, ctypes.c_void_p).value or 0


_VOID = ctypes.c_void_p
_COUNT_OBJECTS = _typed(pdfium_c.FPDFPage_CountObjects, ctypes.c_int, _VOID)
_GET_OBJECT = _typed(pdfium_c.FPDFPage_GetObject, _VOID, _VOID, ctypes.c_int)
_REMOVE_OBJECT = _typed(pdfium_c.FPDFPage_RemoveObject, ctypes.c_int, _VOID, _VOID)
_COUNT_FORM_OBJECTS = _typed(pdfium_c.FPDFFormObj_CountObjects, ctypes.c_int, _VOID)
_GET_FORM_OBJECT = _typed(pdfium_c.FPDFFormObj_GetObject, _VOID, _VOID, ctypes.c_ulong)
_REMOVE_FORM_OBJECT = _typed(pdfium_c.FPDFFormObj_RemoveObject, ctypes.c_int, _VOID, _VOID)
_OBJECT_TYPE = _typed(pdfium_c.FPDFPageObj_GetType, ctypes.c_int, _VOID)
_BOUNDS_AT = _typed(pdfium_c.FPDFPageObj_GetBounds, ctypes.c_int, _VOID, _VOID, _VOID, _VOID, _VOID)
_MATRIX = _typed(pdfium_c.FPDFPageObj_GetMatrix, ctypes.c_int, _VOID, ctypes.POINTER(pdfium_c.FS_MATRIX))
_DESTROY = _typed(pdfium_c.FPDFPageObj_Destroy, None, _VOID)


@dataclass(frozen=True)
class _Container:
    """A page's or a form's own objects (handles as ints): how many, the one at an index, and taking one out."""

    count: int
    get: Callable[[int], int | None]
    remove: Callable[[int], int]


def _bounds(handles: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """(found, bounds) of each object: whether pdfium gave its bounds, and them (left, bottom, right, top; PDF
    space) widened exactly from pdfium's floats, each kind of call one `map` writing into an array by address."""
    count = len(handles)
    values = np.zeros((count, 4), dtype=np.float32)
    at, size = values.ctypes.data, values.itemsize
    corners = [range(at + k * size, at + 4 * size * count, 4 * size) for k in range(4)]
    found = np.fromiter(map(_BOUNDS_AT, handles, *corners), dtype=np.int64, count=count) != 0
    return found, values.astype(np.float64)


def _drop_apart(container: _Container, matrix: Matrix, height: float, boxes: list[Box], margin: float, levels: int) -> int:
    """`drop_objects_apart` over one container whose objects' bounds `matrix` maps onto the page. The objects'
    types and bounds are asked in one `map` each and weighed against every box at once (a page holds hundreds
    to thousands of objects); the comparisons are those of one object against one box, made in float64 as
    Python's floats make them."""
    handles = [handle for handle in map(container.get, range(container.count)) if handle]
    kinds = np.fromiter(map(_OBJECT_TYPE, handles), dtype=np.int64, count=len(handles))
    bounded = np.flatnonzero(np.isin(kinds, _BOUNDED))
    found, bounds = _bounds([handles[k] for k in bounded.tolist()])
    bounded, bounds = bounded[found], bounds[found]
    if matrix == _IDENTITY:
        left, bottom, right, top = bounds.T
    else:  # a form's objects: each box's corners mapped as `_mapped` maps them
        mapped = [_mapped(matrix, *box) for box in bounds.tolist()]
        left, bottom, right, top = np.array(mapped, dtype=np.float64).reshape(-1, 4).T
    x0, y0, x1, y1 = left - margin, height - top - margin, right + margin, height - bottom + margin
    near = np.array(boxes, dtype=np.float64).reshape(-1, 4)
    reaches = ((x0[:, None] < near[:, 2]) & (near[:, 0] < x1[:, None]) & (y0[:, None] < near[:, 3]) & (near[:, 1] < y1[:, None])).any(axis=1)
    apart = [handles[k] for k in bounded[~reaches].tolist()]
    forms = [handles[k] for k in bounded[reaches & (kinds[bounded] == pdfium_c.FPDF_PAGEOBJ_FORM)].tolist()] if levels > 0 else []
    dropped = 0
    for form in forms:
        inner = pdfium_c.FS_MATRIX()
        if not _MATRIX(form, inner):
            continue
        objects = _Container(_COUNT_FORM_OBJECTS(form), partial(_GET_FORM_OBJECT, form), partial(_REMOVE_FORM_OBJECT, form))
        composed = _then((inner.a, inner.b, inner.c, inner.d, inner.e, inner.f), matrix)
        dropped += _drop_apart(objects, composed, height, boxes, margin, levels - 1)
        if objects.count and _COUNT_FORM_OBJECTS(form) == 0:
            apart.append(form)  # none of its objects left: it paints nothing (its transparency group, nothing over the page)
    for handle in apart:
        if container.remove(handle):
            _DESTROY(handle)
            dropped += 1
    return dropped


def _then(first: Matrix, second: Matrix) -> Matrix:
    """The matrix that applies `first`, then `second`."""
    a, b, c, d, e, f = first
    a2, b2, c2, d2, e2, f2 = second
    return (a * a2 + b * c2, a * b2 + b * d2, c * a2 + d * c2, c * b2 + d * d2, e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def _mapped(matrix: Matrix, left: float, bottom: float, right: float, top: float) -> tuple[float, float, float, float]:
    """The box (left, bottom, right, top) around a rectangle's corners mapped by `matrix`."""
    if matrix == _IDENTITY:
        return left, bottom, right, top
    a, b, c, d, e, f = matrix
    xs = [a * x + c * y + e for x in (left, right) for y in (bottom, top)]
    ys = [b * x + d * y + f for x in (left, right) for y in (bottom, top)]
    return min(xs), min(ys), max(xs), max(ys)
