"""Rows and pairs of options on noisy scans: letters read from specks in a row's wide gaps, numbers glued to words.

    python -m pipeline.devkit.strayscans --out /tmp/strays [--set tuning|all] [--show]

Each family is an `ocrcertainty` family (its words, names, years and numbers; its sheet and key) in a row or pairs
layout, scanned at 200-300 dpi with noise 0.02-0.04 (`sample.raster`): a speck in the wide gap between two cells of
a row was read as a one-letter word (`veriyorsunuz o`), a number and the word beside it as one token (`1904lice`).
These are the tuning sheets of the mechanisms against both (`specks.stray_specks`, `spelling` number splits); the
flag's five sets (`ocrcertainty`) check them. Counted as `ocrcertainty` counts (wrong, caught, flagged; `--show`
prints each wrong question).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.devkit.ocrcertainty import Family, run_set
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import CertaintyPolicy

TUNING = (
    Family("es-row-noisy", "es", "spa", ("A", "B", "C", "D"), "row", "DejaVuSans", ScanSetting(300, 0.5, 90, noise=0.03), 601),
    Family("pl-row-noisy", "pl", "pol", ("a", "b", "c", "d"), "row", "DejaVuSerif", ScanSetting(250, 0.5, 85, noise=0.04), 602),
    Family("pt-pairs-noisy", "pt", "por", ("A", "B", "C", "D"), "pairs", "DejaVuSans", ScanSetting(300, 0.5, 90, noise=0.04), 603),
    Family("vi-row-noisy", "vi", "vie", ("A", "B", "C", "D"), "row", "DejaVuSans", ScanSetting(200, 0.5, 85, noise=0.02), 604),
    Family("es-pairs-noisy", "es", "spa", ("a", "b", "c", "d"), "pairs", "DejaVuSerif", ScanSetting(200, 0.4, 90, noise=0.03), 605),
    Family("tr-row-noisy", "tr", "tur", ("A", "B", "C", "D"), "row", "DejaVuSerif", ScanSetting(300, 0.5, 90, noise=0.03), 606),
    Family("pl-row-sans", "pl", "pol", ("A", "B", "C", "D"), "row", "DejaVuSans", ScanSetting(300, 0.5, 90, noise=0.03), 607),
)
SETS = {"tuning": TUNING, "all": TUNING, **{f.name: (f,) for f in TUNING}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.strayscans", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: generated sheets, scans and the OCR cache")
    parser.add_argument("--set", choices=list(SETS), default="all")
    parser.add_argument("--show", action="store_true", help="print each wrong question")
    args = parser.parse_args(argv)
    _, lines = run_set(args.out, SETS[args.set], CertaintyPolicy(), show=args.show)
    print("\n".join(lines), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
