"""Punctuation on generated scans, by class: prose full of marks in several languages, printed with a text layer,
rasterised soft, read by the OCR path, and every mark read otherwise counted (`punctkinds`).

    python -m pipeline.devkit.punctscans --out /tmp/punct                       # tuning and checking languages, apart
    python -m pipeline.devkit.punctscans --out /tmp/punct --languages cs --disable ink-marks --show

Each language's page is prose of its Tesseract word list's words (what any exam prints) with the marks every
script shares placed by chance and not by any word: commas before small letters and before capitals (a name, a
noun in German-style orthography), commas and full stops at line ends, semicolons, colons, questions, exclamations,
words in brackets and in quotation marks, dashes between words and hyphens inside them. The page is read as a
season run reads a scan (`ocr_pages`, every pass but those `--disable` names) and its words compared with what was
printed. `tuning` languages are those the punctuation passes were built on; `checking` (Czech) was chosen before
any of them was built and only reports. The OCR cache under `--out` keeps every reading.
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.devkit import punctkinds
from pipeline.devkit.ocrcertainty import _vocabulary
from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import OcrSettings, installed_languages, ocr_pages
from pipeline.infra import sha256_file


@dataclass(frozen=True)
class Language:
    name: str
    tesseract: str
    font: str
    seed: int


TUNING = (
    Language("es", "spa", "DejaVuSerif", 1), Language("pt", "por", "DejaVuSans", 2), Language("pl", "pol", "DejaVuSerif", 3),
    Language("sk", "slk", "DejaVuSans", 4), Language("tr", "tur", "DejaVuSerif", 5), Language("vi", "vie", "DejaVuSans", 6),
    Language("el", "ell", "DejaVuSerif", 7),
)
CHECKING = (Language("cs", "ces", "DejaVuSerif", 8),)  # chosen before any punctuation pass was built
SETS = {"tuning": TUNING, "checking": CHECKING}
SCANS = "150/0.8/70,200/0.6/85"
SENTENCES = 40
SIZE = 10.5


def _capital(word: str) -> str:
    return word[:1].upper() + word[1:]


def prose(vocabulary: list[str], rng: random.Random, sentences: int = SENTENCES) -> str:
    """Sentences of `vocabulary`'s words with every common mark placed by chance (the module's docstring)."""
    out: list[str] = []
    for _ in range(sentences):
        words = [rng.choice(vocabulary) for _ in range(rng.randint(6, 16))]
        words[0] = _capital(words[0])
        tokens: list[str] = []
        for at, word in enumerate(words):
            last = at == len(words) - 1
            roll = rng.random()
            if not last and roll < 0.05:
                word = "(" + word
                words[at + 1] = words[at + 1] + ")"
            elif not last and roll < 0.09:
                word = "„" + word if rng.random() < 0.5 else "\u201c" + word
                words[at + 1] = words[at + 1] + "\u201d"
            elif 0.09 <= roll < 0.11 and "-" not in word and not last:
                word = word + "-" + rng.choice(vocabulary)
            tokens.append(word)
            if last:
                break
            after = rng.random()
            if after < 0.14:
                tokens[-1] += ","
                if rng.random() < 0.3:
                    words[at + 1] = _capital(words[at + 1])  # a name or a capitalised noun after a comma
            elif after < 0.18:
                tokens[-1] += ";"
            elif after < 0.22:
                tokens[-1] += ":"
            elif after < 0.25:
                tokens.append("–")
        end = rng.random()
        tokens[-1] += "?" if end < 0.15 else "!" if end < 0.22 else "."
        out.append(" ".join(tokens))
    return " ".join(out)


def page_pdf(path: Path, text: str, font: str) -> Path:
    return build_pdf(path, [PageSpec([TextBox(text, 20, 20, 170, size=SIZE, font=font)])])


def read_words(scan: Path, language: Language, dpi: int, cache: Path, disabled: tuple[str, ...]) -> list[str]:
    settings = replace(OcrSettings(languages=(language.tesseract,), dpi=dpi), disabled_passes=disabled)
    pages = ocr_pages(scan, [1], settings, workers=1, cache_dir=cache, sha256=sha256_file(scan), progress=False)
    return " ".join(line.text for line in pages[1].lines).split()


def kept_scan(out: Path, language: Language, scan: ScanSetting, printed: Callable[[Path], Path]) -> Path:
    """The page `printed` writes (given where its PDF goes) scanned at `scan` under `out`, made once and kept."""
    folder = out / language.name / scan.folder()
    scanned = folder / "scan.pdf"
    if not scanned.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        scan.rasterise(printed(folder / "text.pdf"), scanned, seed=language.seed + scan.dpi)
    return scanned


def scanned_prose(out: Path, language: Language, scan: ScanSetting) -> tuple[Path, str]:
    """`language`'s prose page scanned at `scan` under `out`, made once and kept, and the text printed on it."""
    text = prose(_vocabulary(language.tesseract, random.Random(language.seed)), random.Random(language.seed))
    return kept_scan(out, language, scan, lambda path: page_pdf(path, text, language.font)), text


def measure(out: Path, language: Language, scan: ScanSetting, disabled: tuple[str, ...]
            ) -> tuple[int, Counter[str], list[tuple[str, str]]]:
    """The printed marks of `language`'s page, its punctuation differences by class, and each differing run."""
    scanned, text = scanned_prose(out, language, scan)
    printed, read = text.split(), read_words(scanned, language, scan.dpi, out / "cache", disabled)
    import difflib
    shown = [(" ".join(printed[i1:i2]), " ".join(read[j1:j2]))
             for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, read, autojunk=False).get_opcodes() if op != "equal"]
    shown = [(p, r) for p, r in shown if punctkinds.classify(p, r)]
    marks = sum(punctkinds.is_mark(ch) for ch in text)
    return marks, punctkinds.classify_words(printed, read), shown


def language_scans_parser(prog: str, description: str, sets: Mapping[str, Sequence[Language]], scans: str,
                          show: str) -> argparse.ArgumentParser:
    """The command line every generated-prose measure shares (`punctscans`, `unitscans`, `accentscans`): a work folder,
    a set of languages or all, some of its languages, the scans, passes left out, and what `--show` prints."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--out", type=Path, required=True, help="work folder: pages, scans and the OCR cache")
    parser.add_argument("--set", choices=[*sets, "all"], default="all")
    parser.add_argument("--languages", default="", help="language names, comma-separated (default: every one of the set)")
    parser.add_argument("--scans", default=scans, help="dpi/blur/jpeg, comma-separated")
    parser.add_argument("--disable", default="", help="passes left out, comma-separated")
    parser.add_argument("--show", action="store_true", help=show)
    return parser


def chosen_sets(args: argparse.Namespace, sets: Mapping[str, Sequence[Language]]) -> Iterator[tuple[str, list[Language]]]:
    """Each set the command line asks for, with its languages the command line chose and Tesseract can read (one line
    said for each it cannot)."""
    chosen = {name for name in args.languages.split(",") if name}
    installed = installed_languages()
    for set_name in sets if args.set == "all" else [args.set]:
        languages = []
        for language in sets[set_name]:
            if chosen and language.name not in chosen:
                continue
            if language.tesseract not in installed:
                print(f"{set_name}: {language.name} skipped, Tesseract has no {language.tesseract}", flush=True)
                continue
            languages.append(language)
        yield set_name, languages


def disabled_passes(args: argparse.Namespace) -> tuple[str, ...]:
    """The passes `--disable` leaves out."""
    return tuple(p for p in args.disable.split(",") if p)


def main(argv: list[str] | None = None) -> int:
    parser = language_scans_parser("python -m pipeline.devkit.punctscans", __doc__.split("\n\n")[0], SETS, SCANS,
                                   "every run with a punctuation difference: printed → read")
    args = parser.parse_args(argv)
    scans = ScanSetting.parse_list(args.scans)
    disabled = disabled_passes(args)
    for set_name, languages in chosen_sets(args, SETS):
        total_marks, total = 0, Counter[str]()
        for language in languages:
            for scan in scans:
                marks, found, shown = measure(args.out, language, scan, disabled)
                total_marks += marks
                total.update(found)
                print(f"{set_name:8} {language.name:3} {scan}  marks {marks:4d}  differing "
                      f"{sum(found.values()):3d}  {punctkinds.table_row(found)}", flush=True)
                for printed, read in shown if args.show else ():
                    print(f"    {printed!r} → {read!r}")
        print(f"{set_name:8} all {'':12} marks {total_marks:4d}  differing {sum(total.values()):3d}  {punctkinds.table_row(total)}",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
