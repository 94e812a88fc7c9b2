"""OCR of parts of a text page: the ink inside given boxes, everything else white.

    read_masked(pdf_path, requests, settings, *, workers, cache_dir, sha256) -> {page: [PlacedWord]}

A text page whose text layer explains most of its ink but not all of it (text drawn as outlines, a
font without a Unicode map: `pipeline.extract.inked`) is not OCR'd whole: the page is rendered at
`settings.dpi`, every pixel outside the `keep` boxes (and inside the `erase` boxes: text-layer glyphs
that fall in a kept box) is painted white, and that image goes through the same page passes as a scan
(`read_page`: key cells, label repairs, word repairs). Only the words read come back, in PDF points, so
the stage splices them into the page's own glyphs; the text layer's glyphs are never read again.

Readings are cached like whole pages (`cache`), under the page's key plus the boxes, and under what the
image holds (`content_key`: the pixels pasted and where, the boxes erased, the settings): the same drawn
block in another file (a family's title or key table drawn as outlines on every sheet of an archive)
is read once, and every later file takes that reading, which is what reading its identical image gives.
"""
from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageDraw

from pipeline.extract.ocr.cache import ReadingCache, reading_key
from pipeline.extract.ocr.engine import OcrError, require_languages
from pipeline.extract.ocr.pagepasses import enabled_passes, read_page
from pipeline.extract.ocr.reading import PageReading
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.rendering import render_on_white
from pipeline.infra import fingerprint

Box = tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, origin top-left
KEEP_PAD_PT = 2.0  # points kept around each box: anti-aliased edges, a diacritic just outside a loose box
MASKED_FORMAT = "masked/2"
CONTENT_FORMAT = "masked-content/1"


@dataclass(frozen=True)
class MaskedRequest:
    page: int  # 1-based
    keep: tuple[Box, ...]  # the ink read
    erase: tuple[Box, ...] = ()  # painted white inside the kept boxes (the text layer's own glyphs)
    languages: tuple[str, ...] | None = None  # Tesseract's languages for these boxes; None: the settings'


@dataclass(frozen=True)
class PlacedWord:
    """One word read, in PDF points (top-left origin); `size` its line's ink height in points."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool = False
    line: tuple[int, int, int] | None = None
    conf: float | None = None  # Tesseract's confidence in the word


def masked_key(sha256: str, request: MaskedRequest, settings: OcrSettings) -> str:
    return fingerprint(MASKED_FORMAT, reading_key(sha256, request.page, settings), [list(b) for b in request.keep], [list(b) for b in request.erase])


def content_key(image: MaskedImage, settings: OcrSettings) -> str:
    """The cache key of a masked image's reading by what the image holds: a reading depends on the image
    and the settings only (`pagepasses.read_page`), never on the file or page it came from."""
    return fingerprint(CONTENT_FORMAT, reading_key("", 0, settings), image.digest)


def read_masked(
    pdf_path: Path | str,
    requests: list[MaskedRequest],
    settings: OcrSettings,
    *,
    workers: int = 1,
    cache_dir: Path | str | None = None,
    sha256: str | None = None,
) -> dict[int, list[PlacedWord]]:
    """The words read inside each request's boxes, by page (a page's requests together). Raises
    OcrUnavailable (Tesseract or a language missing) or OcrError, like `ocr_pages`."""
    if not requests:
        return {}
    # A text page is not a scan: it lies straight, so nothing is straightened; and it is read in parts.
    settings = replace(settings, deskew=False, parts_only=True)
    enabled_passes(settings)
    require_languages(sorted({language for r in requests for language in (r.languages or settings.languages)}))
    cache = ReadingCache(cache_dir) if cache_dir is not None and sha256 is not None else None
    try:
        document = pdfium.PdfDocument(str(pdf_path))
    except Exception as exc:
        raise OcrError(f"{pdf_path}: cannot open as PDF: {exc}") from exc
    words: dict[int, list[PlacedWord]] = {}
    try:
        with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="ocr-masked") as pool:
            pending = []
            for request in requests:
                asked = replace(settings, languages=request.languages) if request.languages else settings
                key = masked_key(sha256, request, asked) if cache is not None and sha256 is not None else None
                cached = cache.get(key) if cache is not None and key is not None else None
                if cached is not None:
                    words.setdefault(request.page, []).extend(_placed(cached, settings.dpi))
                    continue
                masked = _masked_image(document, request, settings.dpi)
                same = content_key(masked, asked) if cache is not None else None
                cached = cache.get(same) if cache is not None and same is not None else None
                if cache is not None and cached is not None:  # the same image, read for another file or page
                    if key is not None:
                        cache.put(key, cached)
                    words.setdefault(request.page, []).extend(_placed(cached, settings.dpi))
                    continue
                pending.append((request, (key, same), pool.submit(read_page, masked.image, asked, page_number=request.page)))
            for request, keys, future in pending:
                try:
                    reading = future.result()
                except OcrError as exc:
                    raise OcrError(f"{pdf_path} page {request.page}: {exc}") from exc
                for stored in keys:
                    if cache is not None and stored is not None:
                        cache.put(stored, reading)
                words.setdefault(request.page, []).extend(_placed(reading, settings.dpi))
    finally:
        document.close()
    return words


@dataclass(frozen=True)
class MaskedImage:
    image: Image.Image
    digest: str  # what made it: its size, each pasted box with its pixels, each rectangle painted white


def _masked_image(document: pdfium.PdfDocument, request: MaskedRequest, dpi: int) -> MaskedImage:
    """The page rendered at `dpi` (`render_page`'s pixels), white but for the boxes kept, less the
    rectangles erased. Only the kept boxes are taken out of pdfium's BGR buffer (as RGB): the whole
    page never becomes a PIL image, which cost as much as the render."""
    page = document[request.page - 1]
    try:
        bitmap = render_on_white(page, dpi / 72.0)
    finally:
        page.close()
    rendered = bitmap.to_numpy()  # rows × columns × BGR, a view of pdfium's buffer
    height, width = rendered.shape[:2]
    scale = dpi / 72.0
    canvas = Image.new("RGB", (width, height), (255, 255, 255))
    made = hashlib.sha256(repr((MASKED_FORMAT, (width, height))).encode())
    pasted: list[tuple[int, int, int, int]] = []
    for x0, top, x1, bottom in request.keep:
        box = (
            max(0, int((x0 - KEEP_PAD_PT) * scale)), max(0, int((top - KEEP_PAD_PT) * scale)),
            min(width, int((x1 + KEEP_PAD_PT) * scale) + 1), min(height, int((bottom + KEEP_PAD_PT) * scale) + 1),
        )
        if box[0] < box[2] and box[1] < box[3]:
            piece = np.ascontiguousarray(rendered[box[1]:box[3], box[0]:box[2], ::-1])  # RGB, as PIL holds it
            canvas.paste(Image.fromarray(piece), box[:2])
            made.update(repr(("paste", box)).encode())
            made.update(piece.tobytes())
            pasted.append(box)
    if request.erase:
        draw = ImageDraw.Draw(canvas)
        for x0, top, x1, bottom in request.erase:
            rectangle = (x0 * scale, top * scale, x1 * scale, bottom * scale)
            draw.rectangle(rectangle, fill=(255, 255, 255))
            # White on the white around the pasted boxes changes nothing: only a rectangle (a pixel wider
            # each way) that reaches a pasted box is part of what made the image.
            if any(rectangle[0] - 1 < b[2] and b[0] < rectangle[2] + 1 and rectangle[1] - 1 < b[3] and b[1] < rectangle[3] + 1
                   for b in pasted):
                made.update(repr(("erase", rectangle)).encode())
    return MaskedImage(canvas, made.hexdigest())


def _placed(reading: PageReading, dpi: int) -> list[PlacedWord]:
    if reading.rotation:  # read as turned: its boxes are not the page's (a text page never is)
        return []
    scale = 72.0 / dpi
    return [
        PlacedWord(w.text, w.left * scale, w.top * scale, w.right * scale, w.bottom * scale, w.size * scale, w.bold, w.line, w.conf)
        for w in reading.words
    ]
