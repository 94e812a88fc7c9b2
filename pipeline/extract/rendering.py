"""A page rendered the way pypdfium2's `page.render(scale=...)` renders it, on a buffer numpy fills white.

`page.render` hands pdfium a zeroed ctypes buffer and has pdfium's FillRect paint it white before the
page is drawn: at 300 dpi that costs about a third of the render. `render_on_white` makes the same call
to pdfium (same size, flags and form drawing) on a buffer numpy filled white at memory speed: the same
pixels (`tests/pipeline/extract/test_figures.py` compares them page by page). Figure crops and the OCR
renders (`ocr.engine.render_page`) both use it.
"""
from __future__ import annotations

import ctypes
import math

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
