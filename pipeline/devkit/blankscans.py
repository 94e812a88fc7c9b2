"""Blanks to fill in on generated scans: lines of a language's words holding underscores where a candidate writes (the
next number of a series, a word left out, a form's field), printed with a text layer, rasterised, read by the OCR
path, and every blank counted: found where printed, of the printed length, and underscores read where none was.

    python -m pipeline.devkit.blankscans --out /tmp/blanks                        # tuning and checking families
    python -m pipeline.devkit.blankscans --out /tmp/blanks --disable blank-strokes --show

A page holds LINES lines; a third close a series of numbers with `_`, a third leave a word out as a run of 3–6
underscores, a sixth end with a form's field of 8–20, and the rest hold no blank (what a blank's rule must leave
alone). Where a blank stands is chosen by chance, never by a word. `tuning` families are those the `blank-strokes`
pass and the layout of flat marks were built on; `checking` families (other languages, scripts, faces and scans)
only report. Each page is read as a season run reads a scan (`ocr_pages`, every pass but those `--disable` names);
the OCR cache under `--out` keeps every reading.
"""
from __future__ import annotations

import argparse
import difflib
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.devkit.ocrcertainty import _vocabulary
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import OcrSettings, installed_languages, ocr_pages
from pipeline.infra import sha256_file

LINES = 18
SIZE = 10.5


@dataclass(frozen=True)
class Family:
    name: str
    tesseract: str
    font: str
    scan: ScanSetting
    seed: int


TUNING = (
    Family("es-sans-200", "spa", "DejaVuSans", ScanSetting(200, 0.6, 80, noise=0.01), 1),
    Family("pl-serif-150", "pol", "DejaVuSerif", ScanSetting(150, 0.8, 70, noise=0.01), 2),
)
CHECKING = (
    Family("pt-serif-300", "por", "DejaVuSerif", ScanSetting(300, 0.4, 90, noise=0.0), 11),
    Family("cs-sans-150", "ces", "DejaVuSans", ScanSetting(150, 0.6, 85, tilt=0.3, noise=0.02), 12),
    Family("el-serif-200", "ell", "DejaVuSerif", ScanSetting(200, 0.8, 75, noise=0.0), 13),
    Family("vi-mono-200", "vie", "DejaVuSansMono", ScanSetting(200, 0.5, 80, tilt=-0.2, noise=0.01), 14),
)
SETS = {"tuning": TUNING, "checking": CHECKING}


def printed_lines(vocabulary: list[str], rng: random.Random) -> list[str]:
    """LINES lines of `vocabulary`'s words, blanks placed by chance (the module's docstring)."""
    lines = []
    for _ in range(LINES):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(4, 9))]
        words[0] = words[0][:1].upper() + words[0][1:]
        roll = rng.random()
        if roll < 1 / 3:
            start, step = rng.randint(1, 30), rng.randint(2, 9)
            words += [f"{start + step * k}," for k in range(rng.randint(3, 5))] + ["_"]
        elif roll < 2 / 3:
            words.insert(rng.randint(1, len(words) - 1), "_" * rng.randint(3, 6))
        elif roll < 5 / 6:
            words[-1] += ":"
            words.append("_" * rng.randint(8, 20))
        lines.append(" ".join(words))
    return lines


@dataclass
class Tally:
    blanks: int = 0  # printed
    found: int = 0  # read as underscores where printed
    exact: int = 0  # ... of the printed length
    extra: int = 0  # underscores read where none was printed
    missed: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.blanks, self.found, self.exact, self.extra = (self.blanks + other.blanks, self.found + other.found,
                                                          self.exact + other.exact, self.extra + other.extra)
        self.missed += other.missed

    def line(self, name: str) -> str:
        share = self.found / self.blanks * 100 if self.blanks else 100.0
        return (f"{name:<16} blanks {self.blanks:3d}  found {self.found:3d} ({share:5.1f} %)  of the printed length "
                f"{self.exact:3d}  underscores where none was printed {self.extra:2d}")


def _tokens(text: str) -> list[str]:
    return text.split()


def compare(printed: list[str], read: str) -> Tally:
    """Align the page's words as printed and as read (a blank's run as one token `_`) and count the blanks."""
    tally = Tally()
    ours, theirs = _tokens(" ".join(printed)), _tokens(read)
    key = [("_" if set(t) == {"_"} else t) for t in ours]
    seen = [("_" if t and set(t) == {"_"} else t) for t in theirs]
    matched: set[int] = set()
    for block in difflib.SequenceMatcher(a=key, b=seen, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            if key[block.a + k] == "_":
                matched.add(block.b + k)
                tally.found += 1
                tally.exact += ours[block.a + k] == theirs[block.b + k]
    tally.blanks = key.count("_")
    tally.extra = sum(1 for at, t in enumerate(seen) if "_" in t and at not in matched)
    return tally


def measure(out: Path, family: Family, disabled: tuple[str, ...], show: bool) -> Tally:
    rng = random.Random(family.seed)
    lines = printed_lines(_vocabulary(family.tesseract, rng), rng)
    folder = out / family.name
    folder.mkdir(parents=True, exist_ok=True)
    items = [TextBox(text, 15, 20 + 13 * at, 180, size=SIZE, font=family.font) for at, text in enumerate(lines)]
    pdf = build_pdf(folder / "page.pdf", [PageSpec(tuple(items))])
    scan = folder / "scan.pdf"
    if not scan.is_file():
        family.scan.rasterise(pdf, scan, seed=family.seed)
    settings = OcrSettings(languages=(family.tesseract,), dpi=family.scan.dpi, disabled_passes=disabled)
    page = ocr_pages(scan, [1], settings, workers=1, progress=False, cache_dir=out / "cache", sha256=sha256_file(scan))[1]
    read = " ".join(line.text for line in page.lines)
    tally = compare(lines, read)
    if show:
        for line in page.lines:
            print(f"  {family.name}: {line.text}")
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: sheets, scans and the OCR cache")
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--disable", default="", help="comma-separated page passes not to run")
    parser.add_argument("--show", action="store_true", help="print every line as read")
    args = parser.parse_args(argv)
    disabled = tuple(name for name in args.disable.split(",") if name)
    installed = installed_languages()
    for name in SETS if args.set == "all" else [args.set]:
        print(f"# {name}")
        total = Tally()
        for family in SETS[name]:
            if family.tesseract not in installed:
                print(f"{family.name:<16} skipped: Tesseract data {family.tesseract} not installed")
                continue
            tally = measure(args.out, family, disabled, args.show)
            total.add(tally)
            print(tally.line(family.name))
        print(total.line("all"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
