"""A scanned page read at its scan's own pixels instead of pdfium's upscaling of them.

A page that is one raster image and nothing else (a scan: no text, no drawing beside it) holds the scanner's
pixels at the scan's resolution: the image's pixels over the size it is placed at on the page. Rendered at
the OCR dpi (300), a 150 or 200 dpi scan is upscaled by pdfium's image smoothing, which widens every stroke
edge the scan's blur and JPEG already softened; Tesseract then misreads letters it reads right at the scan's
own pixels (generated prose at 150 dpi, blur 0.8, JPEG 70: 2–10 of ~400 words differing read at 150 dpi
against 11–20 rendered at 300; the measures are in `docs/results.md`).

`native_scan(page)` hands the page's scan at its own pixels (`NativeScan`: the image placed on a white page
at its own dpi, and that dpi), or None for any other page: a text layer, vector drawing or a second image
beside the scan, an image turned or sheared on the page, stretched unevenly, with a mask or in a colour
space other than grey or RGB. The pass `scan-resolution` (`pagepasses`) reads the page at that dpi when
it lies under the OCR dpi: every later pass then works at the scan's dpi (`OcrSettings.dpi` of the
page's work), and the page's words are laid out in points as before (`PageReading`'s image size).
"""
from __future__ import annotations

from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

PT_PER_INCH = 72.0
# The image's pixels per inch along its two sides may differ by this share (rounding of the placed size);
# beyond it the scan was stretched unevenly and is rendered as before.
EVEN_SCALE = 0.02
# The scan covers at least this share of the page (a page that is a small picture on white is not a scan).
MIN_PAGE_SHARE = 0.8
# A scan under the OCR dpi by more than UNDER_OCR_DPI (a 290 dpi scan is read as before) is read at its own pixels
# when at most NATIVE_UNDER of the OCR dpi (150 dpi under 300: 2–10 of ~400 words differing against 11–20), and
# otherwise upscaled to the OCR dpi by a Lanczos filter rather than pdfium's smoothing (200 under 300: 0–9 against
# 3–10). Not under MIN_NATIVE_DPI: the passes are measured on scans of 150–300 dpi; a coarser scan is rendered
# as before.
UNDER_OCR_DPI = 0.1
NATIVE_UNDER = 0.6
MIN_NATIVE_DPI = 140.0
# Colour spaces whose pixels pdfium hands as they are (grey or RGB, no separations, masks or palettes to apply).
PLAIN_COLOURSPACES = frozenset({
    pdfium_c.FPDF_COLORSPACE_DEVICEGRAY, pdfium_c.FPDF_COLORSPACE_DEVICERGB, pdfium_c.FPDF_COLORSPACE_CALGRAY,
    pdfium_c.FPDF_COLORSPACE_CALRGB, pdfium_c.FPDF_COLORSPACE_ICCBASED,
})
PLAIN_FORMATS = frozenset({pdfium_c.FPDFBitmap_Gray, pdfium_c.FPDFBitmap_BGR, pdfium_c.FPDFBitmap_BGRx})


@dataclass(frozen=True)
class NativeScan:
    """A scanned page at its scan's own pixels: `image` is the whole page at `dpi` (the scan pasted where it
    lies, white around it), grey or RGB as scanned."""

    image: Image.Image
    dpi: float


def native_scan(page: pdfium.PdfPage) -> NativeScan | None:
    """The page's scan at its own pixels when the page is one plain raster image and nothing else; else None."""
    objects = list(page.get_objects(max_depth=2))
    if len(objects) != 1 or objects[0].type != pdfium_c.FPDF_PAGEOBJ_IMAGE:
        return None
    image_object = objects[0]
    assert isinstance(image_object, pdfium.PdfImage)
    a, b, c, d, _, _ = image_object.get_matrix().get()
    if b != 0 or c != 0 or a <= 0 or d <= 0:  # turned, sheared or mirrored on the page
        return None
    metadata = image_object.get_metadata()
    if metadata.colorspace not in PLAIN_COLOURSPACES or metadata.bits_per_pixel not in (8, 24):
        return None
    width_px, height_px = image_object.get_px_size()
    left, bottom, right, top = image_object.get_bounds()
    page_width, page_height = page.get_size()
    if width_px <= 0 or height_px <= 0 or (right - left) * (top - bottom) < MIN_PAGE_SHARE * page_width * page_height:
        return None
    dpi_x, dpi_y = width_px * PT_PER_INCH / (right - left), height_px * PT_PER_INCH / (top - bottom)
    if abs(dpi_x - dpi_y) > EVEN_SCALE * max(dpi_x, dpi_y):
        return None
    bitmap = image_object.get_bitmap(render=False)
    if bitmap.format not in PLAIN_FORMATS or (bitmap.width, bitmap.height) != (width_px, height_px):
        return None
    pixels = bitmap.to_pil()
    pixels = pixels.convert("L" if pixels.mode == "L" else "RGB")
    dpi = (dpi_x + dpi_y) / 2
    return NativeScan(_on_page(pixels, (left, page_height - top), (page_width, page_height), dpi), dpi)


def _on_page(pixels: Image.Image, origin_pt: tuple[float, float], page_pt: tuple[float, float], dpi: float) -> Image.Image:
    """The scan pasted at its place on a white page of its own dpi; the scan itself when it covers the page (to a
    pixel: the page's size in points is rounded)."""
    scale = dpi / PT_PER_INCH
    size = (max(round(page_pt[0] * scale), pixels.width), max(round(page_pt[1] * scale), pixels.height))
    at = (min(max(round(origin_pt[0] * scale), 0), size[0] - pixels.width), min(max(round(origin_pt[1] * scale), 0), size[1] - pixels.height))
    if size[0] - pixels.width <= 1 and size[1] - pixels.height <= 1:
        return pixels
    page = Image.new(pixels.mode, size, "white")
    page.paste(pixels, at)
    return page


def reads_natively(scan: NativeScan | None, ocr_dpi: int) -> bool:
    """Whether a page's scan is read from its own pixels rather than rendered by pdfium at `ocr_dpi`."""
    return scan is not None and MIN_NATIVE_DPI <= scan.dpi < (1 - UNDER_OCR_DPI) * ocr_dpi


def scan_to_read(scan: NativeScan, ocr_dpi: int) -> tuple[Image.Image, int]:
    """The image a scan `reads_natively` is read from, and its dpi: its own pixels at its own dpi when at most
    NATIVE_UNDER of `ocr_dpi`, else its pixels upscaled to `ocr_dpi` (Lanczos)."""
    if scan.dpi <= NATIVE_UNDER * ocr_dpi:
        return scan.image, round(scan.dpi)
    scale = ocr_dpi / scan.dpi
    size = (round(scan.image.width * scale), round(scan.image.height * scale))
    return scan.image.resize(size, Image.Resampling.LANCZOS), ocr_dpi
