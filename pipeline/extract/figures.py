"""Figure crops from text-layer pages: embedded images and vector drawings, saved as content-addressed PNGs.

    crop_figures(pdf_path, page_number, out_dir, *, min_area_pt2=2500, dpi=150, root=None) -> list[Figure]
    extract_figures(pdf_path, *, out_dir, sha256=None, min_area_pt2=2500, dpi=150, root=None, scanned=None) -> list[Figure]
    crop_found_figures(pdf_path, boxes, *, out_dir, dpi=150, root=None, name="") -> list[Figure]
    find_figure_boxes(page, *, min_area_pt2=2500) -> list[tuple[float, float, float, float]]   # `figureboxes`
    cut_page(page, number, boxes, out_dir, dpi=150) -> list[Cut]   # rendered, cut, encoded; nothing written
    save_cuts(cuts, out_dir, root) -> list[Figure]                 # the cuts' PNGs written

What a figure is (a cluster of graphic objects holding an image, curved or slanted strokes, or a bar chart, over
`min_area_pt2` square points) is `figureboxes`' to say. Straight-only clusters are table rules, text
frames, answer grids and check boxes, and are not figures. Short text next to a figure (axis labels, "R1")
is taken into its box; body text lines are not.

Skipped on purpose: images covering ≥ 85% of the page (a scanned page is not a figure; the OCR path reads
it), paths covering ≥ 40% of the page (page frames and backgrounds), and anything under the area
threshold (small logos, check boxes, bullets). Logos and barcodes above the threshold on cover pages are
kept: the parser attaches figures to questions by position, and covers hold no questions.

Boxes are PDF points with the origin at the page's top-left. Crops are rendered with pypdfium2 at `dpi`
(text over the figure included) from the page loaded again with the objects that paint nothing in any
crop taken out (`rendering.drop_objects_apart`, `APART_MARGIN_PT`): pdfium then draws what the crops show
and not the rest of the page (the body text, other drawings), on the same bitmap with the same placement,
so the crops' pixels are the whole page's; the page the text was read from stays whole. Written
atomically as `<sha256 of the PNG>.png` into `out_dir`; the same figure gives the same bytes and the same
file (so a process that has encoded a crop's very pixels before takes that address without encoding them
again: `_ENCODED`). `Figure.path` is relative to `root` (default: the project root) when the file is under
it, else absolute.
"""
from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from pipeline.infra import write_bytes_atomic
from pipeline.extract.rendering import drop_objects_apart, render_on_white
from pipeline.extract.document import Figure
from pipeline.extract.figureboxes import Box, find_figure_boxes

PROJECT_ROOT = Path(__file__).resolve().parents[1]
CROP_PADDING_PT = 2.0
# An object this far from every crop (its bounds grown by this) is not drawn for the crops: anti-aliasing
# reaches about a pixel past an object's bounds, 4 pt is 8 pixels at the crops' 150 dpi.
APART_MARGIN_PT = 4.0


class FigureError(RuntimeError):
    """The PDF or page cannot be read; the message names the file and page."""


# --------------------------------------------------------------------------- cropping


def _relative_path(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path.resolve())


def _cut_pixels(bitmap: pdfium.PdfBitmap, box: tuple[int, int, int, int]) -> np.ndarray | None:
    """The BGR pixels of `box` (left, top, right, bottom) of a BGR render, copied out of pdfium's buffer
    (height × width × 3), or None where the render is no BGR one or the box is not inside it."""
    left, top, right, bottom = box
    if bitmap.mode == "BGR" and 0 <= left < right <= bitmap.width and 0 <= top < bottom <= bitmap.height:
        return np.ascontiguousarray(bitmap.to_numpy()[top:bottom, left:right])
    return None


def _rgb(pixels: np.ndarray) -> Image.Image:
    """BGR pixels (`_cut_pixels`) as an RGB image: PIL's raw decoder swaps the channels in C (a numpy copy
    of a reversed channel axis cost three times as much)."""
    height, width = pixels.shape[:2]
    return Image.frombuffer("RGB", (width, height), pixels, "raw", "BGR", 0, 1)


def _crop_bitmap(bitmap: pdfium.PdfBitmap, box: tuple[int, int, int, int]) -> Image.Image:
    """The RGB pixels of `box` (left, top, right, bottom) of a rendered page. A BGR render inside the
    box is cut from pdfium's buffer as it is (a view), so only the crop is copied; converting the whole
    page to a PIL image first cost more than the render itself. The same pixels every way."""
    pixels = _cut_pixels(bitmap, box)
    return _rgb(pixels) if pixels is not None else bitmap.to_pil().convert("RGB").crop(box)


# The content address of each crop this process encoded, by its pixels: a family's logos, ornaments and
# repeated drawings come back on sheet after sheet, and encoding the PNG is half of a crop's cost. PNG
# encoding with fixed settings is deterministic (the same pixels, the same bytes), so a crop whose
# pixels were encoded before has that address without encoding again; the file is written as before
# when it is not in `out_dir`.
_ENCODED: dict[bytes, str] = {}
ENCODED_MAX = 4096  # addresses kept (about 150 bytes each); the memo starts afresh when full


def _pixels_key(crop: Image.Image | np.ndarray) -> bytes:
    """A digest of everything a crop's PNG encodes: its mode, size and pixels. A crop still in pdfium's
    buffer (`_cut_pixels`: rows of BGR pixels) is keyed as it is, its layout named in the key, so the PIL
    image is made only for a crop to encode (the same picture keyed once as BGR and once as an RGB image
    has two keys, and is encoded under each: to the same bytes)."""
    if isinstance(crop, np.ndarray):
        height, width = crop.shape[:2]
        key = hashlib.sha256(f"BGR {width}x{height}\n".encode())
        key.update(crop)
        return key.digest()
    key = hashlib.sha256(f"{crop.mode} {crop.size[0]}x{crop.size[1]}\n".encode())
    key.update(crop.tobytes())
    return key.digest()


def _png(crop: Image.Image) -> bytes:
    buffer = io.BytesIO()
    crop.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()


@dataclass(frozen=True)
class Cut:
    """A figure cut from a rendered page and encoded, not yet written: its page, box (points, rounded),
    content address, and the PNG's bytes where `out_dir` lacked the file when it was cut (None: there)."""

    page: int
    bbox: Box
    sha256: str
    data: bytes | None


def cut_page(page: pdfium.PdfPage, number: int, boxes: list[Box], out_dir: Path, dpi: int = 150) -> list[Cut]:
    """The crops of `boxes` on a loaded page: rendered once at `dpi`, each cut and encoded (or its address
    taken from `_ENCODED`), nothing written; `save_cuts` writes them. The extract stage cuts a page's
    figures while the page is loaded for its text, and writes them once the whole file has been read."""
    if not boxes:
        return []
    width, height = page.get_size()
    scale = dpi / 72.0
    padded = [(max(x0 - CROP_PADDING_PT, 0.0), max(top - CROP_PADDING_PT, 0.0), min(x1 + CROP_PADDING_PT, width),
               min(bottom + CROP_PADDING_PT, height)) for x0, top, x1, bottom in boxes]
    pixel_boxes = [(round(x0 * scale), round(top * scale), round(x1 * scale), round(bottom * scale)) for x0, top, x1, bottom in padded]
    # Drawn from the page loaded again, without what lies apart from every crop, on a buffer white where
    # the crops are (`render_on_white`'s `read`); `page` stays whole.
    drawn = page.pdf[number - 1]
    try:
        drop_objects_apart(drawn, padded, APART_MARGIN_PT)
        bitmap = render_on_white(drawn, scale, read=pixel_boxes)
    finally:
        drawn.close()
    cuts = []
    for (x0, top, x1, bottom), pixel_box in zip(padded, pixel_boxes):
        # Keyed in pdfium's buffer; made a PIL image only to be encoded.
        cut = _cut_pixels(bitmap, pixel_box)
        crop: Image.Image | np.ndarray = cut if cut is not None else bitmap.to_pil().convert("RGB").crop(pixel_box)
        pixels = _pixels_key(crop)
        digest = _ENCODED.get(pixels)
        data = None
        if digest is None or not (out_dir / f"{digest}.png").exists():
            data = _png(_rgb(crop) if isinstance(crop, np.ndarray) else crop)
            digest = hashlib.sha256(data).hexdigest()
            if len(_ENCODED) >= ENCODED_MAX:
                _ENCODED.clear()
            _ENCODED[pixels] = digest
        cuts.append(Cut(number, (round(x0, 2), round(top, 2), round(x1, 2), round(bottom, 2)), digest, data))
    return cuts


def save_cuts(cuts: list[Cut], out_dir: Path, root: Path) -> list[Figure]:
    """Each cut's PNG written (atomically, durably) where `out_dir` lacks it, and its Figure."""
    figures = []
    for cut in cuts:
        target = out_dir / f"{cut.sha256}.png"
        if cut.data is not None and not target.exists():
            write_bytes_atomic(target, cut.data)
        figures.append(Figure(page=cut.page, bbox=cut.bbox, path=_relative_path(target, root), sha256=cut.sha256))
    return figures


def _crop_page(
    page: pdfium.PdfPage, number: int, boxes: list[Box], out_dir: Path, dpi: int, root: Path
) -> list[Figure]:
    return save_cuts(cut_page(page, number, boxes, out_dir, dpi), out_dir, root)


def _open(pdf_path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(pdf_path))
    except Exception as exc:  # pdfium raises PdfiumError, OSError or ValueError depending on the fault
        raise FigureError(f"{pdf_path}: cannot open as PDF: {exc}") from exc


def crop_figures(
    pdf_path: Path,
    page_number: int,
    out_dir: Path,
    *,
    min_area_pt2: float = 2500,
    dpi: int = 150,
    root: Path | None = None,
) -> list[Figure]:
    """Crop the figures of one page (1-based) to `out_dir/<sha256>.png`; see the module docstring."""
    pdf_path, out_dir = Path(pdf_path), Path(out_dir)
    document = _open(pdf_path)
    try:
        if not 1 <= page_number <= len(document):
            raise FigureError(f"{pdf_path}: page {page_number} out of range 1–{len(document)}")
        page = document[page_number - 1]
        try:
            boxes = find_figure_boxes(page, min_area_pt2=min_area_pt2)
            return _crop_page(page, page_number, boxes, out_dir, dpi, root or PROJECT_ROOT)
        finally:
            page.close()
    finally:
        document.close()


def crop_found_figures(
    pdf_path: Path, boxes: dict[int, list[Box]], *, out_dir: Path, dpi: int = 150, root: Path | None = None, name: str = "",
) -> list[Figure]:
    """The crops of `boxes` (1-based page number -> boxes, in the order to crop), which the extract stage
    found while each page was loaded for its text (`find_figure_boxes`): the file is opened again only
    when a page has a box, and only those pages are loaded, to be rendered. `name` names the file in an
    error (default: its path)."""
    wanted = sorted(number for number, found in boxes.items() if found)
    if not wanted:
        return []
    pdf_path, out_dir = Path(pdf_path), Path(out_dir)
    document = _open(pdf_path)
    figures: list[Figure] = []
    try:
        for number in wanted:
            page = document[number - 1]
            try:
                figures += _crop_page(page, number, boxes[number], out_dir, dpi, root or PROJECT_ROOT)
            except pdfium.PdfiumError as exc:
                raise FigureError(f"{name or pdf_path}: page {number} cannot be read: {exc}") from exc
            finally:
                page.close()
    finally:
        document.close()
    return figures


def extract_figures(
    pdf_path: Path,
    *,
    out_dir: Path,
    sha256: str | None = None,
    min_area_pt2: float = 2500,
    dpi: int = 150,
    root: Path | None = None,
    scanned: dict[int, list[Box]] | None = None,
) -> list[Figure]:
    """Figures of every page of a document (the extract stage's seam); `sha256` is accepted for logging
    only. `scanned`: the boxes of figures the OCR path found on scanned pages (page number -> boxes),
    cropped with the others."""
    pdf_path, out_dir = Path(pdf_path), Path(out_dir)
    document = _open(pdf_path)
    figures: list[Figure] = []
    try:
        for index in range(len(document)):
            page = document[index]
            try:
                boxes = find_figure_boxes(page, min_area_pt2=min_area_pt2) + list((scanned or {}).get(index + 1, ()))
                figures += _crop_page(page, index + 1, boxes, out_dir, dpi, root or PROJECT_ROOT)
            except pdfium.PdfiumError as exc:
                name = f"{pdf_path} ({sha256[:12]})" if sha256 else str(pdf_path)
                raise FigureError(f"{name}: page {index + 1} cannot be read: {exc}") from exc
            finally:
                page.close()
    finally:
        document.close()
    return figures
