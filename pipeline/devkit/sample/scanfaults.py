"""What a real scanner or an archive's copy does to a page that blur, grain, specks, tilt and JPEG do not: a page
stored **bilevel** (1-bit, thresholded or dithered, as CCITT G4 in the PDF), **uneven illumination** (a gradient
across the page and a darker band at the spine), **bleed-through** (the other side of the leaf, faint and mirrored),
a **dark border** along the outer edge (the scanner's lid beyond the paper, with its shadow), **line curvature**
near the spine (the page lifting off the glass), and **greyish paper** with low contrast.

Each is one optional part of the `--scans` syntax (`scansetting`), a letter and a number:

    bT   bilevel, thresholded at grey T (0–255), e.g. b128;  d  bilevel, dithered (Floyd–Steinberg)
    iD   illumination: the paper at the spine darkened by the share D (0–1), fading across the page
    vO   bleed-through of the verso at opacity O (0–1)
    eW   a dark border W inches wide along the outer edge
    cA   the lines bent by up to A inches at the spine
    pL   paper at grey L (129–255), black ink lifted to 255 − L

All sizes are in inches, so a setting means the same page at any resolution. The spine alternates sides as a bound
book's does: on the left of pages 1, 3, … and on the right of pages 2, 4, … . Nothing here draws random numbers, so
a setting without these faults scans byte-identically to one made before they existed.
"""
from __future__ import annotations

from dataclasses import dataclass, fields

import cv2
import numpy as np
from PIL import Image, ImageFilter

SPINE_BAND_INCHES = 0.8  # the dark band's fall-off at the spine (an exponential's scale)
SPINE_ZONE_INCHES = 1.6  # how far from the spine the lines bend
BORDER_SHADOW_INCHES = 0.12  # the shadow between the lid's black and the paper
BORDER_LEVEL = 28  # the lid's grey beyond the paper
BLEED_BLUR_INCHES = 0.008  # the paper diffuses the verso's ink by about this much
BLEED_SHIFT_INCHES = (0.04, 0.03)  # the verso's text does not lie exactly behind the recto's

_LETTERS = {"b": "bilevel", "d": "bilevel", "i": "illumination", "v": "bleed", "e": "border", "c": "curve", "p": "paper"}


@dataclass(frozen=True)
class ScanFaults:
    """The faults of a native scan, each off at its default. `bilevel`: 0 grey, 1–255 thresholded at that grey,
    -1 dithered."""

    bilevel: int = 0
    illumination: float = 0.0
    bleed: float = 0.0
    border: float = 0.0
    curve: float = 0.0
    paper: int = 255

    def __post_init__(self) -> None:
        if not (-1 <= self.bilevel <= 255):
            raise ValueError(f"bilevel threshold must be 1 to 255 (or dithered), not {self.bilevel}")
        if not (0 <= self.illumination < 1 and 0 <= self.bleed < 1):
            raise ValueError("illumination and bleed-through are shares from 0 to below 1")
        if self.border < 0 or self.curve < 0:
            raise ValueError("a border's width and a curvature are inches, not negative")
        if not 129 <= self.paper <= 255:
            raise ValueError(f"paper grey must be 129 to 255, not {self.paper}")

    def __bool__(self) -> bool:
        return self != ScanFaults()

    @property
    def bleeds(self) -> bool:
        return self.bleed > 0

    def parts(self) -> list[str]:
        """The syntax parts of the faults that are on, in a fixed order (`bT` or `d`, `iD`, `vO`, `eW`, `cA`, `pL`)."""
        parts = ["d" if self.bilevel == -1 else f"b{self.bilevel}"] if self.bilevel else []
        parts += [f"i{self.illumination}"] if self.illumination else []
        parts += [f"v{self.bleed}"] if self.bleed else []
        parts += [f"e{self.border}"] if self.border else []
        parts += [f"c{self.curve}"] if self.curve else []
        parts += [f"p{self.paper}"] if self.paper != 255 else []
        return parts

    def label(self) -> str:
        """` bilevel 128 lit 0.4 …`: what a tool prints after the scan's numbers (empty when no fault is on)."""
        words = {"b": "bilevel ", "d": "dithered", "i": "lit ", "v": "bleed ", "e": "border ", "c": "curve ", "p": "paper "}
        return "".join(f" {words[part[0]]}{part[1:]}" for part in self.parts())


def is_fault_part(part: str) -> bool:
    """Whether a `--scans` part names a fault (a letter of this module's syntax), not a noise."""
    return part[:1] in _LETTERS and (part == "d" or part[:1] != "d")


def with_part(faults: ScanFaults, part: str, text: str) -> ScanFaults:
    """`faults` with the fault `part` names (e.g. `b128`, `i0.4`, `d`) turned on; a ValueError naming `text` otherwise."""
    letter, amount = part[0], part[1:]
    field = _LETTERS[letter]
    if getattr(faults, field) != getattr(ScanFaults(), field):
        raise ValueError(f"scan {text!r}: {field} given twice")
    try:
        if letter == "d":
            if amount:
                raise ValueError
            value: float = -1
        elif field in ("bilevel", "paper"):
            value = int(amount)
        else:
            value = float(amount)
    except ValueError:
        raise ValueError(f"scan {text!r}: a fault is bT, d, iD, vO, eW, cA or pL with a number, not {part!r}") from None
    if letter == "b" and value == 0:
        raise ValueError(f"scan {text!r}: bilevel threshold must be 1 to 255, not 0")
    try:
        return ScanFaults(**{**{f.name: getattr(faults, f.name) for f in fields(faults)}, field: value})
    except ValueError as exc:
        raise ValueError(f"scan {text!r}: {exc}") from None


def before_scanner(image: Image.Image, faults: ScanFaults, *, dpi: int, index: int, verso: Image.Image | None) -> Image.Image:
    """The page as it lies on the scanner's glass: the verso bleeding through, the paper grey, the lines bent and the
    light uneven toward the spine, the lid's dark border beyond the outer edge. `index`: the page's 0-based number
    (the spine's side); `verso`: the other side of the leaf, rendered like `image` (None: no bleed-through)."""
    pixels = np.asarray(image, dtype=np.float32)
    height, width = pixels.shape[:2]
    spine_left = index % 2 == 0
    # Distance from the spine in inches, one value per column.
    columns = np.arange(width, dtype=np.float32)
    from_spine = (columns if spine_left else (width - 1 - columns)) / dpi
    if faults.bleed and verso is not None:
        pixels = _bled(pixels, verso, faults.bleed, dpi)
    if faults.paper != 255:
        ink = 255 - faults.paper
        pixels = ink + pixels * ((faults.paper - ink) / 255.0)
    if faults.curve:
        pixels = _bent(pixels, faults.curve, from_spine, dpi)
    if faults.illumination:
        across = from_spine * dpi / max(width - 1, 1)  # 0 at the spine, 1 at the outer edge
        shade = 0.5 * np.exp(-from_spine / SPINE_BAND_INCHES) + 0.5 * (1.0 - across)
        light = 1.0 - faults.illumination * shade
        pixels = pixels * (light[None, :, None] if pixels.ndim == 3 else light[None, :])
    if faults.border:
        outer = (width - 1) / dpi - from_spine  # inches from the outer edge
        paper = np.clip((outer - faults.border) / BORDER_SHADOW_INCHES, 0.0, 1.0)
        weight = paper[None, :, None] if pixels.ndim == 3 else paper[None, :]
        pixels = BORDER_LEVEL + (pixels - BORDER_LEVEL) * weight
    return Image.fromarray(np.clip(np.rint(pixels), 0, 255).astype(np.uint8), mode=image.mode)


def stored(image: Image.Image, faults: ScanFaults) -> Image.Image:
    """The scanned page as the archive stores it: 1-bit when `faults.bilevel` (thresholded or dithered), else as is."""
    if not faults.bilevel:
        return image
    grey = image.convert("L")
    if faults.bilevel == -1:
        return grey.convert("1", dither=Image.Dither.FLOYDSTEINBERG)
    threshold = faults.bilevel
    return grey.point(lambda value: 255 if value >= threshold else 0).convert("1", dither=Image.Dither.NONE)


def _bled(pixels: np.ndarray, verso: Image.Image, opacity: float, dpi: int) -> np.ndarray:
    """`pixels` darkened where the mirrored, diffused, slightly shifted verso has ink."""
    back = verso.convert("L").transpose(Image.Transpose.FLIP_LEFT_RIGHT).filter(ImageFilter.GaussianBlur(BLEED_BLUR_INCHES * dpi))
    dx, dy = (round(shift * dpi) for shift in BLEED_SHIFT_INCHES)
    back_array = np.full((pixels.shape[0], pixels.shape[1]), 255.0, dtype=np.float32)
    source = np.asarray(back, dtype=np.float32)[: pixels.shape[0] - dy, : pixels.shape[1] - dx]
    back_array[dy:dy + source.shape[0], dx:dx + source.shape[1]] = source
    through = 1.0 - opacity * (1.0 - back_array / 255.0)
    return pixels * (through[..., None] if pixels.ndim == 3 else through)


def _bent(pixels: np.ndarray, amplitude: float, from_spine: np.ndarray, dpi: int) -> np.ndarray:
    """Each column moved down by up to `amplitude` inches at the spine, the shift falling to nothing `SPINE_ZONE_INCHES`
    away (quadratically, as a page lifting off the glass curves); the rows above the page's middle move up instead."""
    height, width = pixels.shape[:2]
    reach = np.clip(1.0 - from_spine / SPINE_ZONE_INCHES, 0.0, 1.0) ** 2 * amplitude * dpi
    rows = np.arange(height, dtype=np.float32)
    towards_edge = (rows - height / 2) / (height / 2)  # -1 at the top, 1 at the bottom
    map_y = (rows[:, None] - towards_edge[:, None] * reach[None, :]).astype(np.float32)
    map_x = np.broadcast_to(np.arange(width, dtype=np.float32)[None, :], (height, width)).astype(np.float32)
    white = (255.0, 255.0, 255.0) if pixels.ndim == 3 else 255.0
    return cv2.remap(pixels, map_x, map_y, interpolation=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=white)
