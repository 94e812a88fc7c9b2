"""Raw sheet pages rendered as PNG for the extraction audit, with the question's region outlined.

Both inputs come from a URL anyone on the machine can type, so both are bounded before any pixel is
drawn: the box must be finite, lie on the page (a little slack for regions that overhang the crop
box) and have an area once clamped to it; the rendered image is kept under a pixel budget by lowering
the scale for an oversized page. Drawing a rectangle a trillion points wide held the interpreter
lock for minutes and froze every other request.

PDFium renders outside the interpreter lock, so a slow page (a sheet from the web may hold a
million vector paths) holds one server thread, not the server; at most RENDER_SLOTS pages render at
once, and a request that finds them all taken for RENDER_WAIT_S is told to retry (`RenderBusy`),
so a burst of page requests cannot take every core and the memory of many full-page bitmaps.
"""
from __future__ import annotations

import io
import math
import re
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from pipeline.review.overrides import OverrideError

Box = tuple[float, float, float, float]
_DECIMAL = re.compile(r"-?[0-9]{1,9}(?:\.[0-9]{1,9})?(?:e[-+]?[0-9]{1,3})?")  # points, as the audit writes them (:g)

PAGE_SCALE = 1.5  # pixels per PDF point: a laptop-width page
MAX_PAGE_PIXELS = 12_000_000  # an A4 page at 1.5 is 1.1 M pixels; a poster-sized page is rendered smaller
BOX_SLACK_PT = 36.0  # how far a region may overhang the page (extracted boxes can poke past the crop box)
REGION_MARGIN_PT = 4.0
REGION_COLOUR = (220, 30, 30)
# One: PDFium is not thread-safe (pypdfium2: no two threads may call it at once, not even on different
# documents); two concurrent renders crashed the server process under load. Other requests never wait
# for it: only page images and page texts take the slot.
RENDER_SLOTS = 1
RENDER_WAIT_S = 20.0
render_slots = threading.BoundedSemaphore(RENDER_SLOTS)


class RenderBusy(RuntimeError):
    """Every render slot stayed taken for RENDER_WAIT_S: the page is not rendered now (503)."""


def parse_box(text: str | None) -> Box | None:
    """`x0,top,x1,bottom` in PDF points from a page URL; None when absent; OverrideError when it is
    not four finite numbers with x0 < x1 and top < bottom."""
    if not text:
        return None
    parts = text.split(",")
    # ASCII decimals only: float() also reads '١٢' (Arabic-Indic), '1_0', ' 1e3 ' and 'nan'.
    values = tuple(float(v) for v in parts) if all(_DECIMAL.fullmatch(v) for v in parts) else ()
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise OverrideError(f"box: not four finite numbers x0,top,x1,bottom: {text[:80]!r}", field="box")
    x0, top, x1, bottom = values
    if not (x0 < x1 and top < bottom):
        raise OverrideError(f"box: an empty box (x0 < x1 and top < bottom are needed): {text[:80]!r}", field="box")
    return x0, top, x1, bottom


def fit_box(box: Box, width: float, height: float) -> Box:
    """The box clamped to a page of width × height points; OverrideError when it reaches more than
    BOX_SLACK_PT beyond the page or has no area left on it."""
    x0, top, x1, bottom = box
    if x0 < -BOX_SLACK_PT or top < -BOX_SLACK_PT or x1 > width + BOX_SLACK_PT or bottom > height + BOX_SLACK_PT:
        raise OverrideError(f"box: {x0:g},{top:g},{x1:g},{bottom:g} lies outside the page ({width:g} × {height:g} pt)", field="box")
    clamped = (max(x0, 0.0), max(top, 0.0), min(x1, width), min(bottom, height))
    if not (clamped[0] < clamped[2] and clamped[1] < clamped[3]):
        raise OverrideError(f"box: {x0:g},{top:g},{x1:g},{bottom:g} has no area on the page ({width:g} × {height:g} pt)", field="box")
    return clamped


def page_scale(width: float, height: float, scale: float = PAGE_SCALE, max_pixels: int = MAX_PAGE_PIXELS) -> float:
    """`scale`, lowered so that the rendered page (whole pixels, rounded up) holds at most `max_pixels`."""
    while math.ceil(width * scale) * math.ceil(height * scale) > max_pixels:
        scale = min(scale * 0.999, math.sqrt(max_pixels / (width * height)))
    return scale


def render_page_png(root: Path, sheet_sha256: str, page: int, scale: float = PAGE_SCALE, box: Box | None = None) -> bytes:
    """One page of a raw sheet (raw/<sha256>.pdf) as PNG, for the audit view; `box` (PDF points, origin
    top-left) is outlined: where the question came from."""
    path = _sheet_path(root, sheet_sha256)
    if not render_slots.acquire(timeout=RENDER_WAIT_S):
        raise RenderBusy(f"{RENDER_SLOTS} pages are being rendered already; try again in a moment")
    try:
        image, scale, box = _render(path, page, scale, box)
        if box is not None:
            from PIL import ImageDraw

            x0, top, x1, bottom = (v * scale for v in box)
            margin = REGION_MARGIN_PT * scale
            ImageDraw.Draw(image).rectangle(
                (x0 - margin, top - margin, x1 + margin, bottom + margin), outline=REGION_COLOUR, width=max(2, round(scale * 1.5))
            )
        buffer = io.BytesIO()
        image.save(buffer, format="PNG")
        return buffer.getvalue()
    finally:
        render_slots.release()


@contextmanager
def _opened_page(path: Path, page: int) -> Iterator[tuple[Any, float, float]]:
    """One page of a sheet, open for as long as the block runs: (PDFium page, width pt, height pt).
    A file that is not a PDF, a page it does not have and a page without size are OverrideErrors."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise OverrideError(f"{path} cannot be opened as a PDF ({exc})") from None
    try:
        if not 1 <= page <= len(document):
            raise OverrideError(f"{path} has no page {page} (it has {len(document)})")
        pdf_page = document[page - 1]
        width, height = pdf_page.get_size()
        if not (width > 0 and height > 0):
            raise OverrideError(f"{path}: page {page} has no size ({width:g} × {height:g} pt)")
        yield pdf_page, width, height
    finally:
        document.close()


def _render(path: Path, page: int, scale: float, box: Box | None):
    """The page as a PIL image at a scale within the pixel budget, and the box fitted to the page."""
    with _opened_page(path, page) as (pdf_page, width, height):
        fitted = fit_box(box, width, height) if box is not None else None
        scale = page_scale(width, height, scale)
        return pdf_page.render(scale=scale).to_pil().convert("RGB"), scale, fitted


def page_text(root: Path, sheet_sha256: str, page: int, box: Box | None = None) -> str:
    """The text printed on one page of a raw sheet (its PDF text layer), within `box` (PDF points,
    origin top-left, grown by the outline's margin) when given: what the curator compares the
    extracted text with. A scanned page has no text layer: the answer is empty, and the page image
    is the printed text to compare with."""
    path = _sheet_path(root, sheet_sha256)
    # A page from the web can hold a million text objects: its text takes a render slot like its image.
    if not render_slots.acquire(timeout=RENDER_WAIT_S):
        raise RenderBusy(f"{RENDER_SLOTS} pages are being read already; try again in a moment")
    try:
        with _opened_page(path, page) as (pdf_page, width, height):
            text_page = pdf_page.get_textpage()
            if box is None:
                return text_page.get_text_range().replace("\r\n", "\n")
            x0, top, x1, bottom = fit_box(box, width, height)
            m = REGION_MARGIN_PT
            # PDFium's page space has its origin at the bottom left.
            return text_page.get_text_bounded(left=max(x0 - m, 0), bottom=max(height - bottom - m, 0),
                                              right=min(x1 + m, width), top=min(height - top + m, height)).replace("\r\n", "\n")
    finally:
        render_slots.release()


def _sheet_path(root: Path, sheet_sha256: str) -> Path:
    if len(sheet_sha256) != 64 or any(c not in "0123456789abcdef" for c in sheet_sha256):
        raise OverrideError(f"not a sheet SHA-256: {sheet_sha256!r}")
    path = Path(root) / "raw" / f"{sheet_sha256}.pdf"
    if not path.is_file():
        raise OverrideError(f"sheet {path} is not in raw/ (run `make extract`)")
    return path
