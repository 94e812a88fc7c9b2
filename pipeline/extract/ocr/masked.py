"""OCR of parts of a text page: the ink inside given boxes, everything else white.

    read_masked(pdf_path, requests, settings, *, workers, cache_dir, sha256, document) -> {page: [PlacedWord]}

A text page whose text layer explains most of its ink but not all of it (text drawn as outlines, a
font without a Unicode map: `pipeline.extract.inked`) is not OCR'd whole: the page is rendered at
`settings.dpi`, every pixel outside the `keep` boxes (and inside the `erase` boxes: text-layer glyphs
that fall in a kept box) is painted white, and that image goes through the same page passes as a scan
(`read_page`: key cells, label repairs, word repairs). Only the words read come back, in PDF points, so
the stage splices them into the page's own glyphs; the text layer's glyphs are never read again.

Only the window of the page around the kept boxes is read (`window`): the boxes' union with
`CROP_MARGIN_PX` of white around it, its top-left corner on a `CROP_GRID_PX` grid, and of each wide
stretch of bare paper between the boxes' rows all but a margin either side taken out (`paper_rows`).
Tesseract's cost follows the pixels it is handed (a white 300 dpi page costs it ~0.1 s before it reads
a word), and all white but those boxes, the rest of the page is only paper: the prepared page has no
grey between 171 and 254 (`engine.WHITE_FROM`), so the Otsu threshold Tesseract takes of the window is
the whole page's, and the words it reads there are the whole page's (on the corpus's 12 masked images:
text, boxes, confidences, after every pass; only the junk read inside logo artwork, never sure, can move
with a window's margin). The words come back in the whole page's pixels, so readings and the cache hold
page pixels as before.

Readings are cached like whole pages (`cache`), under the page's key plus the boxes, and under what the
image holds (`content_key`: the pixels pasted and where, the boxes erased, the settings): the same drawn
block in another file (a family's title or key table drawn as outlines on every sheet of an archive)
is read once, and every later file takes that reading, which is what reading its identical image gives.
The process keeps the last `REMEMBERED_READINGS` readings by what their image holds too (`Remembered`),
with or without a cache folder: a family's drawn cover, the same every year, is read once a process
(a first season run, with its cache still empty, reads it once as well).
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
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
from pipeline.extract.rendering import drop_objects_apart, render_on_white, render_size
from pipeline.infra import fingerprint

Box = tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, origin top-left
KEEP_PAD_PT = 2.0  # points kept around each box: anti-aliased edges, a diacritic just outside a loose box
MASKED_FORMAT = "masked/4"  # 3: read in the window around the kept boxes; 4: without the scan-only passes (`readingpasses._scanned`)
CONTENT_FORMAT = "masked-content/3"
CROP_MARGIN_PX = 128  # white kept around the kept boxes' union: Tesseract's page layout looks past a blob's edge
REMEMBERED_READINGS = 64  # masked images' readings the process keeps by content (each a few kB of words)
APART_MARGIN_PT = 4.0  # an object this far from every kept box (its bounds grown by this) is not drawn
CROP_GRID_PX = 32  # the window's left and top edges on this grid: the halving reductions of Tesseract's layout see the same blocks


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


class Remembered:
    """The last `size` readings of masked images, by `content_key`: what reading the same image gives."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._readings: OrderedDict[str, PageReading] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> PageReading | None:
        with self._lock:
            reading = self._readings.get(key)
            if reading is not None:
                self._readings.move_to_end(key)
            return reading

    def put(self, key: str, reading: PageReading) -> None:
        with self._lock:
            self._readings[key] = reading
            self._readings.move_to_end(key)
            while len(self._readings) > self.size:
                self._readings.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._readings.clear()


REMEMBERED = Remembered(REMEMBERED_READINGS)


def read_masked(
    pdf_path: Path | str,
    requests: list[MaskedRequest],
    settings: OcrSettings,
    *,
    workers: int = 1,
    cache_dir: Path | str | None = None,
    sha256: str | None = None,
    document: pdfium.PdfDocument | None = None,
) -> dict[int, list[PlacedWord]]:
    """The words read inside each request's boxes, by page (a page's requests together). `document`: the
    file already open (the extract stage's, whose pages it has read and closed), used and left open;
    else the file is opened here. Raises OcrUnavailable (Tesseract or a language missing) or OcrError,
    like `ocr_pages`."""
    if not requests:
        return {}
    # A text page is not a scan: it lies straight, so nothing is straightened; and it is read in parts.
    settings = replace(settings, deskew=False, parts_only=True)
    enabled_passes(settings)
    require_languages(sorted({language for r in requests for language in (r.languages or settings.languages)}))
    cache = ReadingCache(cache_dir) if cache_dir is not None and sha256 is not None else None
    opened = document is None
    try:
        document = pdfium.PdfDocument(str(pdf_path)) if document is None else document
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
                same = content_key(masked, asked)
                cached = REMEMBERED.get(same)
                if cached is None and cache is not None:
                    cached = cache.get(same)
                if cached is not None:  # the same image, read for another file or page
                    if cache is not None and key is not None:
                        cache.put(key, cached)
                    words.setdefault(request.page, []).extend(_placed(cached, settings.dpi))
                    continue
                pending.append((request, masked, (key, same), pool.submit(read_page, masked.image, asked, page_number=request.page)))
            for request, masked, keys, future in pending:
                try:
                    reading = future.result()
                except OcrError as exc:
                    raise OcrError(f"{pdf_path} page {request.page}: {exc}") from exc
                reading = masked.in_page(reading)
                REMEMBERED.put(keys[1], reading)
                for stored in keys:
                    if cache is not None and stored is not None:
                        cache.put(stored, reading)
                words.setdefault(request.page, []).extend(_placed(reading, settings.dpi))
    finally:
        if opened:
            document.close()
    return words


@dataclass(frozen=True)
class MaskedImage:
    image: Image.Image  # the window of the page that holds the kept boxes (`window`)
    digest: str  # what made it: the window, each pasted box with its pixels, each rectangle painted white
    origin: tuple[int, int] = (0, 0)  # the window's top-left corner in the whole page's pixels
    page_size: tuple[int, int] = (0, 0)  # the whole page's pixels
    closed: tuple[tuple[int, int], ...] = ()  # (row of the image, rows of bare paper taken out above it), top down

    def in_page(self, reading: PageReading) -> PageReading:
        """A reading of the image in the whole page's pixels."""
        dx = self.origin[0]

        def dy(top: float) -> int:
            return self.origin[1] + sum(rows for at, rows in self.closed if top >= at)

        words = tuple(replace(w, left=w.left + dx, top=w.top + dy(w.top), right=w.right + dx, bottom=w.bottom + dy(w.top))
                      for w in reading.words)
        figures = tuple(replace(f, bbox=(f.bbox[0] + dx, f.bbox[1] + dy(f.bbox[1]), f.bbox[2] + dx, f.bbox[3] + dy(f.bbox[1])))
                        for f in reading.figures)
        return replace(reading, image_width=self.page_size[0], image_height=self.page_size[1], words=words, figures=figures)


def pasted_boxes(keep: tuple[Box, ...], scale: float, width: int, height: int) -> list[tuple[int, int, int, int]]:
    """The pixel boxes (left, top, right, bottom) of the kept boxes on a page `width` × `height` pixels,
    `KEEP_PAD_PT` around each; empty ones (off the page) left out."""
    boxes = []
    for x0, top, x1, bottom in keep:
        box = (
            max(0, int((x0 - KEEP_PAD_PT) * scale)), max(0, int((top - KEEP_PAD_PT) * scale)),
            min(width, int((x1 + KEEP_PAD_PT) * scale) + 1), min(height, int((bottom + KEEP_PAD_PT) * scale) + 1),
        )
        if box[0] < box[2] and box[1] < box[3]:
            boxes.append(box)
    return boxes


def window(boxes: list[tuple[int, int, int, int]], width: int, height: int) -> tuple[int, int, int, int]:
    """The part of a page `width` × `height` pixels read for its pasted `boxes`: their union and
    `CROP_MARGIN_PX` around it, its left and top edges on the `CROP_GRID_PX` grid, within the page."""
    if not boxes:
        return 0, 0, min(width, CROP_MARGIN_PX), min(height, CROP_MARGIN_PX)  # a patch of paper, read as nothing
    left = max(0, (min(b[0] for b in boxes) - CROP_MARGIN_PX) // CROP_GRID_PX * CROP_GRID_PX)
    top = max(0, (min(b[1] for b in boxes) - CROP_MARGIN_PX) // CROP_GRID_PX * CROP_GRID_PX)
    return left, top, min(width, max(b[2] for b in boxes) + CROP_MARGIN_PX), min(height, max(b[3] for b in boxes) + CROP_MARGIN_PX)


def _masked_image(document: pdfium.PdfDocument, request: MaskedRequest, dpi: int) -> MaskedImage:
    """The window of the page rendered at `dpi` (`render_page`'s pixels) around the boxes kept, white but
    for those boxes, less the rectangles erased: the whole page's masked image cut to `window`. The page's
    objects that paint nothing in the kept boxes are taken out before it is drawn (`drop_objects_apart`: on
    a drawn cover or a formula span most of the page's text and images are elsewhere). Only the kept boxes
    are filled white in pdfium's buffer before it draws (`render_on_white`'s `read`: the rest of the page's
    buffer is never written by us nor read) and taken out of it (as RGB), onto a white array the window's
    size: the page never becomes a PIL image, only the image read does (a rectangle erased is drawn by PIL,
    as it was).
    Rendering the window alone is not the same pixels (pdfium shifted by the window's corner, or clipped
    to it, rounds a few edge pixels differently), so the whole page is rendered."""
    scale = dpi / 72.0
    page = document[request.page - 1]  # loaded afresh for each request: the objects taken out are this one's
    try:
        drop_objects_apart(page, [(x0 - KEEP_PAD_PT, top - KEEP_PAD_PT, x1 + KEEP_PAD_PT, bottom + KEEP_PAD_PT)
                                  for x0, top, x1, bottom in request.keep], APART_MARGIN_PT)
        width, height = render_size(page, scale)
        pasted = pasted_boxes(request.keep, scale, width, height)
        # Only the pasted boxes' pixels are read: only they are filled white before pdfium draws (a 300 dpi
        # page is 26 MB to fill; the kept boxes of a drawn cover a few percent of it), the same pixels there.
        bitmap = render_on_white(page, scale, read=pasted)
    finally:
        page.close()
    rendered = bitmap.to_numpy()  # rows × columns × BGR, a view of pdfium's buffer
    left, top, right, bottom = window(pasted, width, height)
    canvas = np.full((bottom - top, right - left, 3), 255, dtype=np.uint8)
    made = hashlib.sha256(repr((MASKED_FORMAT, (width, height), (left, top, right, bottom))).encode())
    for box in pasted:
        piece = np.ascontiguousarray(rendered[box[1]:box[3], box[0]:box[2], ::-1])  # RGB, as PIL holds it
        canvas[box[1] - top:box[3] - top, box[0] - left:box[2] - left] = piece
        made.update(repr(("paste", box)).encode())
        made.update(piece.tobytes())
    image: Image.Image | None = None
    erased = _erased(request.erase, scale, pasted)
    if erased:
        image = Image.fromarray(canvas)
        draw = ImageDraw.Draw(image)
        for rectangle in erased:
            # PIL truncates a rectangle's corners to whole pixels: truncated in the page's pixels, then shifted.
            draw.rectangle([int(rectangle[0]) - left, int(rectangle[1]) - top, int(rectangle[2]) - left, int(rectangle[3]) - top],
                           fill=(255, 255, 255))
            made.update(repr(("erase", rectangle)).encode())
    closed = paper_rows([(b[1] - top, b[3] - top) for b in pasted])
    if closed:
        kept_rows = np.ones(canvas.shape[0], dtype=bool)
        for at, count in closed:
            kept_rows[at:at + count] = False
        image = Image.fromarray(np.ascontiguousarray((np.asarray(image) if image is not None else canvas)[kept_rows]))
        made.update(repr(("closed", closed)).encode())
    if image is None:
        image = Image.fromarray(canvas)
    return MaskedImage(image, made.hexdigest(), (left, top), (width, height), _as_read(closed))


def _erased(erase: tuple[Box, ...], scale: float, pasted: list[tuple[int, int, int, int]]) -> list[tuple[float, float, float, float]]:
    """The rectangles of `erase` (points) in the page's pixels that change the masked image: white on the
    white around the pasted boxes changes nothing, so only a rectangle (a pixel wider each way) that
    reaches a pasted box is painted, and is part of what made the image. In their order; one array test
    for all of them (a page's text-layer glyphs are thousands)."""
    if not erase or not pasted:
        return []
    corners = np.asarray(erase, dtype=np.float64) * scale  # the same products as `x0 * scale` one by one
    boxes = np.asarray(pasted, dtype=np.float64)
    reach = ((corners[:, None, 0] - 1 < boxes[None, :, 2]) & (boxes[None, :, 0] < corners[:, None, 2] + 1)
             & (corners[:, None, 1] - 1 < boxes[None, :, 3]) & (boxes[None, :, 1] < corners[:, None, 3] + 1)).any(axis=1)
    return [(x0 * scale, y0 * scale, x1 * scale, y1 * scale) for x0, y0, x1, y1 in (erase[i] for i in np.flatnonzero(reach).tolist())]


def paper_rows(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The rows of bare paper taken out between the kept boxes' rows (`spans`, top and bottom in the
    window): of each gap wider than 2 × `CROP_MARGIN_PX`, all but `CROP_MARGIN_PX` on either side, in
    whole steps of `CROP_GRID_PX` (what stays below keeps its place on the grid). Tesseract reads lines,
    and lines ~0.85 in apart at 300 dpi are not one; a drawn title and a note at the foot of a cover
    page are read as one image a third of the page's height. (first row taken out, how many), top down."""
    closed: list[tuple[int, int]] = []
    reached = None
    for first, last in sorted(spans):
        if reached is not None and first > reached:
            count = (first - reached - 2 * CROP_MARGIN_PX) // CROP_GRID_PX * CROP_GRID_PX
            if count > 0:
                closed.append((reached + CROP_MARGIN_PX, count))
        reached = last if reached is None else max(reached, last)
    return closed


def _as_read(closed: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """Where each stretch taken out falls in the image read, with its rows: what `in_page` adds back."""
    placed, removed = [], 0
    for at, count in closed:
        placed.append((at - removed, count))
        removed += count
    return tuple(placed)


def _placed(reading: PageReading, dpi: int) -> list[PlacedWord]:
    if reading.rotation:  # read as turned: its boxes are not the page's (a text page never is)
        return []
    scale = 72.0 / dpi
    return [
        PlacedWord(w.text, w.left * scale, w.top * scale, w.right * scale, w.bottom * scale, w.size * scale, w.bold, w.line, w.conf)
        for w in reading.words
    ]
