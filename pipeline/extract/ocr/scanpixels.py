"""A scanned page read from its scan's own pixels, upscaled by a Lanczos filter instead of pdfium's smoothing.

A page that is one raster image and nothing else (a scan: no text, no drawing beside it) holds the scanner's
pixels at the scan's resolution: the image's pixels over the size it is placed at on the page. Rendered at
the OCR dpi (300), a 200 dpi scan is upscaled by pdfium's image smoothing, which widens every stroke
edge the scan's blur and JPEG already softened; Tesseract then misreads letters it reads right from the scan's
pixels upscaled by a sharper filter (the measures are in `docs/results.md`).

`native_scan(page)` hands the page's scan at its own pixels (`NativeScan`: the image placed on a white page
at its own dpi, and that dpi), or None for any other page: a text layer, vector drawing or a second image
beside the scan, an image turned or sheared on the page, stretched unevenly, with a mask or in a colour
space other than grey or RGB. The pass `scan-resolution` (`pagepasses`) reads the page from those pixels when
they lie somewhat under the OCR dpi (200 under 300), upscaled to it by a Lanczos filter.
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
# A scan whose pixels lie between LOWEST_SHARE and (1 - UNDER_OCR_DPI) of the OCR dpi is upscaled to the OCR dpi
# from its own pixels by a Lanczos filter (200 under 300: Revalida 2023 options 68.8 → 82.8 % exact, 23 → 25
# questions found). A 290 dpi scan is rendered as before, and so is one at LOWEST_SHARE or under: at 150 under 300
# the filter's sharper edges lost four of Revalida's question banners (recall 100 → 80 %, though options rose
# 8.6 → 43 %), and reading at the scan's own 150 dpi lost labels on discs and squares (generated sheets: answers
# 350 → 320 points over four families, 190 → 150 on the checking ones). `docs/results.md` has the measures.
UNDER_OCR_DPI = 0.1
LOWEST_SHARE = 0.6
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
    """Whether a page's scan is read from its own pixels (upscaled) rather than rendered by pdfium at `ocr_dpi`."""
    return scan is not None and LOWEST_SHARE * ocr_dpi < scan.dpi < (1 - UNDER_OCR_DPI) * ocr_dpi


def scan_to_read(scan: NativeScan, ocr_dpi: int) -> Image.Image:
    """The page a scan that `reads_natively` is read from: its own pixels upscaled to `ocr_dpi` by a Lanczos filter."""
    scale = ocr_dpi / scan.dpi
    return scan.image.resize((round(scan.image.width * scale), round(scan.image.height * scale)), Image.Resampling.LANCZOS)
