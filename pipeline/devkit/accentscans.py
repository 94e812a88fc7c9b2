"""Marks over letters on generated scans, read by the OCR path: how many printed marks are lost, and how many marks
are read where none was printed (issue 27, `accent-lines`).

    python -m pipeline.devkit.accentscans --out /tmp/accents                  # tuning and checking languages, apart
    python -m pipeline.devkit.accentscans --out /tmp/accents --languages cs --disable accent-lines --show

Each language's page is `punctscans`' prose (its Tesseract word list's words, with marks of punctuation placed by
chance) printed twice: as the words are spelled (`marked`), and with every combining mark taken off every letter
(`bare`: `período` printed `periodo`, `łódź` printed `łodz`; a page of words printed without their marks, which
no pass may read back). Each page is scanned at each setting, read as a season run reads a scan (`ocr_pages`, every
pass but those `--disable` names), and its words aligned with the printed ones. A word read with the same letters
under other marks counts as `lost` where the reading has fewer marks, `added` where it has more, `moved` else.
`tuning` languages are those the accent passes were built on; `checking` languages only report.
"""
from __future__ import annotations

import difflib
import sys
import unicodedata
from collections import Counter
from dataclasses import replace
from pathlib import Path

from pipeline.devkit.punctscans import (
    Language, chosen_sets, disabled_passes, language_scans_parser, page_pdf, read_words, scanned_prose,
)
from pipeline.devkit.sample.scansetting import ScanSetting

TUNING = (
    Language("es", "spa", "DejaVuSerif", 1), Language("pt", "por", "DejaVuSans", 2), Language("pl", "pol", "DejaVuSerif", 3),
    Language("sk", "slk", "DejaVuSans", 4), Language("vi", "vie", "DejaVuSans", 6),
)
CHECKING = (Language("cs", "ces", "DejaVuSerif", 8), Language("tr", "tur", "DejaVuSerif", 5))  # no mechanism built on them
SETS = {"tuning": TUNING, "checking": CHECKING}
SCANS = "150/0.8/70,200/0.6/80"
KINDS = ("lost", "added", "moved")


def unmarked(text: str) -> str:
    """`text` with every combining mark taken off (`período` → `periodo`; `ł`, which does not decompose, stays)."""
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)))


def marks(text: str) -> int:
    return sum(1 for ch in unicodedata.normalize("NFD", text) if unicodedata.combining(ch))


def mark_kind(printed: str, read: str) -> str | None:
    """How `read` differs from `printed` in marks alone (`KINDS`), or None where it differs otherwise or not at all."""
    if printed == read or unmarked(printed) != unmarked(read):
        return None
    have, got = marks(printed), marks(read)
    return "lost" if got < have else "added" if got > have else "moved"


def compare(printed: list[str], read: list[str]) -> tuple[Counter[str], list[tuple[str, str, str]]]:
    """The words read with other marks than printed, by kind, and each (kind, printed, read)."""
    counts: Counter[str] = Counter()
    shown = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, read, autojunk=False).get_opcodes():
        if op != "replace" or i2 - i1 != j2 - j1:
            continue
        for p, r in zip(printed[i1:i2], read[j1:j2]):
            kind = mark_kind(p, r)
            if kind:
                counts[kind] += 1
                shown.append((kind, p, r))
    return counts, shown


def bare_page(out: Path, language: Language, scan: ScanSetting) -> tuple[Path, str]:
    """`language`'s prose with its marks taken off, scanned at `scan` under `out`, made once and kept."""
    _, text = scanned_prose(out, language, scan)
    text = unmarked(text)
    folder = out / language.name / f"{scan.folder()}-bare"
    scanned = folder / "scan.pdf"
    if not scanned.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        scan.rasterise(page_pdf(folder / "text.pdf", text, language.font), scanned, seed=language.seed + scan.dpi)
    return scanned, text


def measure(out: Path, language: Language, scan: ScanSetting, page: str, disabled: tuple[str, ...]
            ) -> tuple[int, Counter[str], list[tuple[str, str, str]]]:
    """The marks printed on `page` (`marked` or `bare`), the words read with other marks by kind, and each such word."""
    scanned, text = scanned_prose(out, language, scan) if page == "marked" else bare_page(out, language, scan)
    read = read_words(scanned, language, scan.dpi, out / "cache", disabled)
    counts, shown = compare(text.split(), read)
    return marks(text), counts, shown


def main(argv: list[str] | None = None) -> int:
    parser = language_scans_parser("python -m pipeline.devkit.accentscans", __doc__.split("\n")[0], SETS, SCANS,
                                   "every word read with other marks: printed → read")
    args = parser.parse_args(argv)
    disabled = disabled_passes(args)
    for set_name, languages in chosen_sets(args, SETS):
        print(f"# {set_name}")
        total: Counter[str] = Counter()
        for language in languages:
            for text in args.scans.split(","):
                scan = replace(ScanSetting.parse(text), noise=0.0)
                for page in ("marked", "bare"):
                    printed, counts, shown = measure(args.out, language, scan, page, disabled)
                    total.update({f"{page} {k}": v for k, v in counts.items()})
                    row = "  ".join(f"{k} {counts[k]:3d}" for k in KINDS)
                    print(f"{language.name:3} {text:12} {page:6} marks printed {printed:4d}  {row}", flush=True)
                    if args.show:
                        for kind, p, r in shown:
                            print(f"    {kind}: {p!r} -> {r!r}")
        print("all  " + "  ".join(f"{k} {total[k]}" for k in (f"{p} {k}" for p in ("marked", "bare") for k in KINDS)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
