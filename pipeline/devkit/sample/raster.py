"""Scans of generated sheets: any PDF rendered to an image-only PDF (no text layer), with the grain,
blur and skew of a real scanner, for OCR tests, and the faults of a native scan (`scanfaults`: bilevel pages
stored 1-bit, uneven light, bleed-through, a dark border, bent lines, grey paper). Deterministic: the same
arguments and seed give byte-identical output."""
from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from pipeline.devkit.sample.scanfaults import ScanFaults, before_scanner, stored
from pipeline.devkit.sample.pdfbase import PT_PER_MM, PdfGenError, new_fpdf
from pipeline.infra import write_bytes_atomic



def rasterize_pdf(
    src: Path | str,
    dst: Path | str,
    *,
    dpi: int = 200,
    noise: float = 0.0,
    blur: float = 0.0,
    rotate_deg: float = 0.0,
    seed: int = 0,
    jpeg_quality: int = 80,
    colour: bool = False,
    speckle: float = 0.0,
    faults: ScanFaults | None = None,
) -> Path:
    """Render every page of `src` and write `dst` as an image-only PDF: a "scan" without text, grey-scale
    unless `colour` (a yellow key marking survives only a colour scan).

    noise: standard deviation of Gaussian pixel noise as a fraction of full scale (0.02 is a mild scan);
    blur: Gaussian blur radius in pixels; rotate_deg: skew of every page (counter-clockwise);
    speckle: salt-and-pepper noise, the share of pixels turned black or white (half each), as dust and
    a dirty scanner glass leave (0.002 is a speckled scan); faults: a native scan's faults (`scanfaults`), a bilevel
    page stored as a 1-bit image (CCITT G4) instead of a JPEG. The same arguments and seed give byte-identical output.
    """
    data = rasterized_pdf_bytes(
        src, dpi=dpi, noise=noise, blur=blur, rotate_deg=rotate_deg, seed=seed, jpeg_quality=jpeg_quality, colour=colour,
        speckle=speckle, faults=faults,
    )
    return write_bytes_atomic(Path(dst), data)


def rasterized_pdf_bytes(
    src: Path | str,
    *,
    dpi: int = 200,
    noise: float = 0.0,
    blur: float = 0.0,
    rotate_deg: float = 0.0,
    seed: int = 0,
    jpeg_quality: int = 80,
    colour: bool = False,
    speckle: float = 0.0,
    faults: ScanFaults | None = None,
) -> bytes:
    """The bytes `rasterize_pdf` would write."""
    src = Path(src)
    try:
        document = pdfium.PdfDocument(str(src))
    except Exception as exc:
        raise PdfGenError(f"{src}: cannot open as PDF: {exc}") from exc
    rng = np.random.default_rng(seed)
    out = new_fpdf()
    try:
        for index in range(len(document)):
            page = document[index]
            width_pt, height_pt = page.get_size()
            image = _rendered(page, dpi, colour)
            if faults:
                verso = _verso(document, index, dpi, colour) if faults.bleeds else None
                image = before_scanner(image, faults, dpi=dpi, index=index, verso=verso)
            image = _degrade(image, rng, noise=noise, blur=blur, rotate_deg=rotate_deg, speckle=speckle)
            size_mm = (width_pt / PT_PER_MM, height_pt / PT_PER_MM)
            out.add_page(format=size_mm)
            if faults and faults.bilevel:
                # 1-bit, as archives store bilevel scans: fpdf2 writes it as CCITT G4.
                out.image(stored(image, faults), x=0, y=0, w=size_mm[0], h=size_mm[1])
                continue
            buffer = io.BytesIO()
            image.save(buffer, format="JPEG", quality=jpeg_quality, optimize=False, dpi=(dpi, dpi))
            out.image(io.BytesIO(buffer.getvalue()), x=0, y=0, w=size_mm[0], h=size_mm[1])
    finally:
        document.close()
    return bytes(out.output())


def _rendered(page: pdfium.PdfPage, dpi: int, colour: bool) -> Image.Image:
    rendered = page.render(scale=dpi / 72, grayscale=not colour).to_pil()
    return rendered.convert("RGB" if colour else "L")


def _verso(document: pdfium.PdfDocument, index: int, dpi: int, colour: bool) -> Image.Image:
    """The other side of page `index`'s leaf (pages 1–2, 3–4, … share one), or the page itself when it has none."""
    other = index ^ 1 if (index ^ 1) < len(document) else index
    return _rendered(document[other], dpi, colour)


def _degrade(image: Image.Image, rng: np.random.Generator, *, noise: float, blur: float, rotate_deg: float,
             speckle: float = 0.0) -> Image.Image:
    if rotate_deg:
        white = (255, 255, 255) if image.mode == "RGB" else 255
        image = image.rotate(rotate_deg, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=white)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    if noise:
        pixels = np.asarray(image, dtype=np.float32)
        # One noise value per pixel, shared by its colour channels, as a scanner's sensor grain is.
        grain = rng.normal(0.0, noise * 255.0, size=pixels.shape[:2]).astype(np.float32)
        pixels = pixels + (grain[..., None] if pixels.ndim == 3 else grain)
        image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), mode=image.mode)
    if speckle:
        # Dust lands before the scanner's optics: a speck is a dot about a pixel wide at 200 dpi, drawn
        # after the blur so it stays sharp, as specks on real scans do.
        pixels = np.array(image)
        hit = rng.random(pixels.shape[:2])
        pixels[hit < speckle / 2] = 0
        pixels[(hit >= speckle / 2) & (hit < speckle)] = 255
        image = Image.fromarray(pixels, mode=image.mode)
    return image
