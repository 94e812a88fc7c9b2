"""The ink above a letter, with and without a printed mark: does a scan's grey say whether a mark is there where
Tesseract read none? (issue 27: the lost accent, mostly `í` at 150 dpi).

    python -m pipeline.devkit.accentink --out /tmp/accentink                     # es pt pl sk cs vi tr, 150 and 200 dpi
    python -m pipeline.devkit.accentink --out /tmp/accentink --languages es --scans 150/0.8/70

Each language's page is `punctscans`' prose (its Tesseract word list's words), printed with a text layer and
rasterised soft. The scan is read once by Tesseract (`--psm 6`, character boxes) and its characters aligned with the
printed ones on their base letters (marks taken off, lower case), so each read lower-case letter of the x-height
(`a c e g i m n o r s u v w x y z` and their marked forms) is known as printed with a mark above it or without.
For each such letter, in the grey of the scan as rasterised (no threshold): the band above its line's x-height
(from 0.1 to 1.0 x-height over the median top of the line's letters without ascenders or dots) over the letter's
box columns; `peak` is the band's darkest ink (255 − grey, the page's paper level taken off), `mass` its ink summed
over pixels darker than a noise floor, and `top` how far above the x-height the ink reaches (x-heights). Each
is divided by the median of the same figure over the page's `i`s printed and read as `i` (the page's own dots).

Groups: `i` printed plain (a dot), `i` printed with a mark (`í ì î ï`), other letters printed plain (nothing above)
and with a mark, each with a mark also split by whether Tesseract read the mark (`kept`) or not (`lost`). The
figures are quantiles of each group: the two distributions that a pass adding a lost mark would have to separate.
"""
from __future__ import annotations

import argparse
import difflib
import os
import statistics
import subprocess
import sys
import tempfile
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
from PIL import Image, ImageFilter

from pipeline.devkit.punctscans import CHECKING, TUNING, Language, scanned_prose
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import installed_languages, prepare_for_tesseract, prepared_before_whitening, render_page, tesseract_command

X_HEIGHT = set("acegimnorsuvwxyz")
FLAT = set("acemnorsuvwxz")  # no ascender, no dot, no descender: the line's x-height and baseline
BELOW = {"\u0323", "\u0327", "\u0328", "\u0324", "\u0331"}  # dot below, cedilla, ogonek, diaeresis below, macron below
LANGUAGES = tuple(lang for lang in (*TUNING, *CHECKING) if lang.name != "el")
SCANS = "150/0.8/70,200/0.6/85"
PREPARED = 0  # `--prepared`: the dpi the OCR path reads a scan at (0: the scan as rasterised)
# `--variant`: how the page rendered at `PREPARED` dpi is made ready: as the OCR path prepares it, prepared but not
# whitened, the grey page as rendered, or that grey smoothed as the preparation smooths.
VARIANTS = ("prepared", "not-whitened", "grey", "grey-smoothed")
VARIANT = "prepared"
GROUPS = ("i plain", "i marked, kept", "i marked, lost", "other plain", "other marked, kept", "other marked, lost")


def base(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)[0].lower()


def marked_above(ch: str) -> bool:
    return any(unicodedata.combining(m) and m not in BELOW for m in unicodedata.normalize("NFD", ch)[1:])


@dataclass(frozen=True)
class Box:
    ch: str
    left: int
    top: int
    right: int
    bottom: int


def boxes(grey: np.ndarray, language: str, dpi: int) -> list[Box]:
    """Tesseract's character boxes of the page (`tesseract … --psm 6 makebox`), top-down coordinates."""
    height = grey.shape[0]
    out: list[Box] = []
    with tempfile.TemporaryDirectory(prefix="accentink-") as folder:
        image = Path(folder) / "page.png"
        Image.fromarray(grey).save(image)
        made = subprocess.run([tesseract_command(), str(image), "stdout", "-l", language, "--psm", "6", "--dpi", str(dpi), "makebox"],
                              capture_output=True, text=True, check=True, env={**os.environ, "OMP_THREAD_LIMIT": "1"})
    for row in made.stdout.splitlines():
        parts = row.split(" ")
        if len(parts) < 6 or not parts[0].strip():
            continue
        left, bottom, right, top = (int(v) for v in parts[1:5])
        out.append(Box(parts[0], left, height - top, right, height - bottom))
    return out


def lines(read: list[Box]) -> list[list[int]]:
    """Indices of `read` by line: a box starts a new line when it lies wholly below the current line's letters
    without ascenders or descenders (or above them: a reading that went back up), or starts far left of the last."""
    out: list[list[int]] = [[]]
    top = bottom = None
    for at, box in enumerate(read):
        if out[-1] and top is not None and bottom is not None:
            last = read[out[-1][-1]]
            if box.top >= bottom or box.bottom <= top or box.left < last.left - 3 * max(1, box.right - box.left) and box.top > last.top:
                out.append([])
                top = bottom = None
        out[-1].append(at)
        if box.ch in FLAT:
            top = box.top if top is None else min(top, box.top)
            bottom = box.bottom if bottom is None else max(bottom, box.bottom)
    return [line for line in out if line]


def features(grey: np.ndarray, read: list[Box]) -> list[tuple[int, float, float, float] | None]:
    """(index, peak, mass, top) of each x-height letter's band above its line's x-height; None elsewhere."""
    ink = np.clip(np.percentile(grey, 90) - grey.astype(np.float32), 0, None)  # the paper level taken off
    floor = 40.0
    out: list[tuple[int, float, float, float] | None] = [None] * len(read)
    for line in lines(read):
        flat = [read[i] for i in line if read[i].ch in FLAT]
        if len(flat) < 3:
            continue
        x_top = statistics.median(b.top for b in flat)
        x_height = statistics.median(b.bottom for b in flat) - x_top
        if x_height < 4:
            continue
        for i in line:
            box = read[i]
            if base(box.ch) not in X_HEIGHT or box.ch != box.ch.lower():
                continue
            y0, y1 = int(round(x_top - 1.0 * x_height)), int(round(x_top - 0.1 * x_height))
            band = ink[max(0, y0):max(0, y1), box.left:box.right + 1]
            if band.size == 0:
                continue
            peak = float(band.max())
            rows = np.nonzero((band > floor).any(axis=1))[0]
            top = (y1 - (max(0, y0) + int(rows[0]))) / x_height + 0.1 if rows.size else 0.0
            out[i] = (i, peak, float(band[band > floor].sum()), top)
    return out


def prepared_as(image: Image.Image, dpi: int, variant: str) -> Image.Image:
    """`image` made ready to read as `variant` (`VARIANTS`) says."""
    if variant == "prepared":
        return prepare_for_tesseract(image, dpi)
    if variant == "not-whitened":
        return Image.fromarray(prepared_before_whitening(image, dpi), mode="L")
    grey = image.convert("L")
    # The preparation's smoothing: a 0.8 px Gaussian blur at 300 dpi (`engine.SMOOTHING_RADIUS_PX`).
    return grey.filter(ImageFilter.GaussianBlur(0.8 * dpi / 300)) if variant == "grey-smoothed" else grey


def measure(out: Path, language: Language, scan: ScanSetting) -> dict[str, list[tuple[float, float, float]]]:
    """Each group's (peak, mass, top) figures, relative to the page's plain `i`s, on `language`'s page at `scan`."""
    scanned, text = scanned_prose(out, language, scan)
    return page_groups(scanned, 0, text, language.tesseract, scan.dpi)


def page_groups(scanned: Path, index: int, text: str, tesseract: str, dpi: int) -> dict[str, list[tuple[float, float, float]]]:
    """Each group's (peak, mass, top) figures, relative to the page's plain `i`s, on page `index` of `scanned`, whose
    printed text is `text`: the scan as rasterised, or (`PREPARED`) rendered at that dpi and prepared as the OCR path
    prepares a page for Tesseract."""
    document = pdfium.PdfDocument(str(scanned))
    try:
        image, _, _ = render_page(document, index, PREPARED or dpi)
    finally:
        document.close()
    if PREPARED:
        image, dpi = prepared_as(image, PREPARED, VARIANT), PREPARED
    grey = np.asarray(image.convert("L"))
    read = boxes(grey, tesseract, dpi)
    figures = features(grey, read)
    printed = [ch for ch in text if not ch.isspace()]
    matcher = difflib.SequenceMatcher(None, [base(c) for c in printed], [base(b.ch) for b in read], autojunk=False)
    groups: dict[str, list[tuple[float, float, float]]] = {g: [] for g in GROUPS}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            p, r = printed[block.a + k], block.b + k
            got = figures[r]
            if got is None or p != p.lower():
                continue
            kind = "i" if base(p) == "i" else "other"
            if not marked_above(p):
                if kind == "i" and read[r].ch != "i":
                    continue
                group = f"{kind} plain"
            else:
                group = f"{kind} marked, {'kept' if marked_above(read[r].ch) else 'lost'}"
            groups[group].append(got[1:])
    dots = groups["i plain"]
    if not dots:
        return {g: [] for g in GROUPS}
    scale = tuple(statistics.median(d[k] for d in dots) or 1.0 for k in range(3))
    return {g: [(a / scale[0], b / scale[1], c / scale[2]) for a, b, c in values] for g, values in groups.items()}


# The calibration sheets of `ocrcertainty`'s corpus set, scanned as there (the checking sheets are not measured here).
CORPUS_PAGES = (("es-inap-2024-150", "spa"), ("es-inap-2024", "spa"), ("br-oab-2016", "por"))


def corpus_groups(out: Path, name: str, tesseract: str) -> dict[str, list[tuple[float, float, float]]]:
    """The groups over every page of corpus sheet `name` (its text layer the truth), each page against its own dots."""
    from pipeline.devkit.ocrcertainty import CORPUS, CORPUS_SHEETS, _pages_of
    sheet = next(s for s in CORPUS_SHEETS if s.name == name)
    clean = _pages_of(CORPUS / sheet.folder / sheet.sheet, out / name / "text" / sheet.sheet, sheet.pages)
    scanned = out / name / clean.name
    if not scanned.is_file():
        sheet.scan.rasterise(clean, scanned, seed=sheet.seed, colour=sheet.colour)
    total: dict[str, list[tuple[float, float, float]]] = {g: [] for g in GROUPS}
    document = pdfium.PdfDocument(str(clean))
    try:
        texts = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()
    for index, text in enumerate(texts):
        for group, values in page_groups(scanned, index, text, tesseract, sheet.scan.dpi).items():
            total[group].extend(values)
    return total


def quantiles(values: list[float]) -> str:
    if not values:
        return "–"
    q = np.percentile(values, [5, 25, 50, 75, 95])
    return " ".join(f"{v:.2f}" for v in q)


def show(label: str, groups: dict[str, list[tuple[float, float, float]]]) -> None:
    print(label)
    for group in GROUPS:
        values = groups[group]
        print(f"  {group:20} n={len(values):4}  peak {quantiles([v[0] for v in values]):28}"
              f"  mass {quantiles([v[1] for v in values]):28}  top {quantiles([v[2] for v in values])}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.accentink", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: pages and scans")
    parser.add_argument("--languages", default="", help="language names, comma-separated (default: es pt pl sk cs vi tr)")
    parser.add_argument("--scans", default=SCANS, help="dpi/blur/jpeg, comma-separated")
    parser.add_argument("--corpus", action="store_true", help="also the corpus calibration sheets (INAP 2024, OAB 2016)")
    parser.add_argument("--no-generated", action="store_true", help="leave the generated pages out")
    parser.add_argument("--prepared", type=int, default=0,
                        help="measure the page rendered at this dpi and prepared as the OCR path prepares it (0: the scan itself)")
    parser.add_argument("--variant", choices=VARIANTS, default="prepared",
                        help="with --prepared: the page as the OCR path prepares it, or not whitened, or grey (smoothed)")
    args = parser.parse_args(argv)
    global PREPARED, VARIANT
    PREPARED, VARIANT = args.prepared, args.variant
    chosen = {name for name in args.languages.split(",") if name}
    installed = installed_languages()
    scans = ScanSetting.parse_list(args.scans)
    print("quantiles 5/25/50/75/95 % of each figure over the page's plain i-dots' median (1.00 = a read dot)")
    for scan in scans if not args.no_generated else ():
        for language in LANGUAGES:
            if (chosen and language.name not in chosen) or language.tesseract not in installed:
                continue
            groups = measure(args.out, language, scan)
            show(f"{language.name} {scan}", groups)
            sys.stdout.flush()
    for name, tesseract in CORPUS_PAGES if args.corpus else ():
        show(name, corpus_groups(args.out, name, tesseract))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
