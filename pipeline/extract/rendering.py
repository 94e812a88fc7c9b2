"""A page rendered the way pypdfium2's `page.render(scale=...)` renders it, on a buffer numpy fills white.

`page.render` hands pdfium a zeroed ctypes buffer and has pdfium's FillRect paint it white before the
page is drawn: at 300 dpi that costs about a third of the render. `render_on_white` makes the same call
to pdfium (same size, flags and form drawing) on a buffer numpy filled white at memory speed: the same
pixels (`tests/pipeline/extract/test_figures.py` compares them page by page). Figure crops and the OCR
renders (`ocr.engine.render_page`) both use it.

`drop_objects_apart(page, boxes, margin)` takes out of a loaded page the objects that paint nothing in
`boxes`: a masked page (`ocr.masked`) keeps the pixels of a few boxes of a 300 dpi render and paints the
rest white, so the page's other text, images and drawings need not be drawn at all.
"""
from __future__ import annotations

import ctypes
import math
from collections.abc import Iterable

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c


def render_on_white(page: pdfium.PdfPage, scale: float) -> pdfium.PdfBitmap:
    """`page.render(scale=scale)`: a BGR bitmap of the page, the same pixels, white filled by numpy."""
    width, height = (math.ceil(side * scale) for side in page.get_size())
    pixels = np.full((height, width * 3), 255, dtype=np.uint8)
    buffer = (ctypes.c_ubyte * pixels.size).from_buffer(pixels)
    bitmap = pdfium.PdfBitmap.new_native(width, height, format=pdfium_c.FPDFBitmap_BGR, buffer=buffer)
    placed = (bitmap, page, 0, 0, width, height, 0, pdfium_c.FPDF_ANNOT)  # `render`'s defaults: annotations drawn
    pdfium_c.FPDF_RenderPageBitmap(*placed)
    if page.formenv:
        pdfium_c.FPDF_FFLDraw(page.formenv, *placed)
    return bitmap


Box = tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, origin top-left
_BOUNDS = pdfium_c.FPDFPageObj_GetBounds
# The kinds whose bounds hold all they paint; a shading (`sh`) paints its clip, and is always drawn.
_BOUNDED = (pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM)


def drop_objects_apart(page: pdfium.PdfPage, boxes: Iterable[Box], margin: float) -> int:
    """Remove from `page` (loaded, never saved) each of its own objects whose bounds, grown by `margin`
    points, reach none of `boxes`; returns how many. pdfium draws a page object by object, each inside
    its bounds (a stroke's width, a glyph's outline and an image's corners included; anti-aliasing
    reaches a pixel past them, `margin` covers that), so the pixels inside `boxes` are the ones the whole
    page gives (`tests/pipeline/extract/ocr/test_masked_objects_apart.py` compares them). Only text, path,
    image and form objects are taken out; an object whose bounds pdfium cannot tell, a shading, and a
    form XObject that reaches a box stay whole. The removed objects are freed
    here; the page's annotations and form fields are not page objects and are drawn as before. A page
    turned (`/Rotate`) or whose crop box does not start at the page space's origin is left whole: its
    objects' bounds are not the render's top-left points by a flip alone."""
    boxes = list(boxes)
    if page.get_rotation() % 360 or tuple(page.get_cropbox()[:2]) != (0.0, 0.0):
        return 0
    raw = page.raw
    height = page.get_size()[1]
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    apart = []
    for index in range(pdfium_c.FPDFPage_CountObjects(raw)):
        handle = pdfium_c.FPDFPage_GetObject(raw, index)
        if not handle or pdfium_c.FPDFPageObj_GetType(handle) not in _BOUNDED or not _BOUNDS(handle, left, bottom, right, top):
            continue
        x0, y0 = left.value - margin, height - top.value - margin
        x1, y1 = right.value + margin, height - bottom.value + margin
        if not any(x0 < b[2] and b[0] < x1 and y0 < b[3] and b[1] < y1 for b in boxes):
            apart.append(handle)
    for handle in apart:
        if pdfium_c.FPDFPage_RemoveObject(raw, handle):
            pdfium_c.FPDFPageObj_Destroy(handle)
    return len(apart)
