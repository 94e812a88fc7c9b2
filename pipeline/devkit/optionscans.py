"""How many option texts of small-type option grids survive a scan: generated option-grid pages
(`sample.optiongrids`) scanned at several resolutions, blurs and JPEG qualities, OCR'd, and each option's
text looked for, exactly (spaces folded), in the page's lines.

    python -m pipeline.devkit.optionscans [--families boxes-2x2-pol,...] [--dpi 150,200] [--blur 0.4,0.8] [--jpeg 70,90] [--disable dropped-ink]

Tuning and checking families are reported apart; `--disable` leaves passes out to measure what they add.
"""
from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
import tempfile
import unicodedata
from pathlib import Path

from pipeline.devkit.sample.optiongrids import CHECKING, TUNING, OptionSheet
from pipeline.devkit.sample.pdfgen import build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import OcrSettings


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def page_text(pdf: Path, sheet: OptionSheet, disabled: tuple[str, ...] = ()) -> str:
    """The OCR'd text of `pdf`, its lines one after another."""
    settings = OcrSettings(languages=sheet.languages, dpi=300, option_labels=sheet.labels, disabled_passes=disabled)
    document = extract_document(pdf, hashlib.sha256(pdf.read_bytes()).hexdigest(),
                                ExtractOptions(ocr=settings, ocr_workers=1, layout=settings.layout))
    return "\n".join(line.text for page in document.pages for line in page.lines)


def recall(sheet: OptionSheet, text: str) -> tuple[int, int]:
    """(options found exactly in the text, options printed)."""
    folded = _folded(text.replace("\n", " "))
    return sum(_folded(option) in folded for option in sheet.options), len(sheet.options)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.optionscans", description=__doc__.split("\n\n")[0])
    parser.add_argument("--families", default=",".join([*TUNING, *CHECKING]))
    parser.add_argument("--dpi", default="150,200")
    parser.add_argument("--blur", default="0.8")
    parser.add_argument("--jpeg", default="80")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--disable", default="", help="OCR passes to leave out, comma-separated")
    args = parser.parse_args(argv)
    disabled = tuple(name for name in args.disable.split(",") if name)
    families = {**TUNING, **CHECKING}
    with tempfile.TemporaryDirectory(prefix="optionscans-") as tmp:
        for name in args.families.split(","):
            sheet = families[name](args.seed)
            kind = "tuning" if name in TUNING else "checking"
            source = build_pdf(Path(tmp) / f"{name}.pdf", sheet.pages)
            for dpi, blur, jpeg in itertools.product(
                [int(v) for v in args.dpi.split(",")], [float(v) for v in args.blur.split(",")], [int(v) for v in args.jpeg.split(",")]
            ):
                setting = ScanSetting(dpi, blur, jpeg)
                scan = setting.rasterise(source, Path(tmp) / f"{name}-{setting.folder()}.pdf", seed=args.seed)
                found, total = recall(sheet, page_text(scan, sheet, disabled))
                print(f"{kind:8} {name:15} {setting.label()}  options {found:3}/{total} ({found / total:.0%})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
