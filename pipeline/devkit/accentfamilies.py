"""Accent-dense prose on low-resolution scans, by family: how many words and how many marked letters the OCR path
reads as printed (issue 27, bar 1: accents and small letters lost at 150–200 dpi).

    python -m pipeline.devkit.accentfamilies --out /tmp/accentfam                      # tuning and checking, apart
    python -m pipeline.devkit.accentfamilies --out /tmp/accentfam --set tuning --show --disable accent-lines

A family is a language, a face, a size and a scan setting. Its page is prose of words its Tesseract word list and its
spelling dictionaries both know (real words any exam prints), drawn so that about three words in four carry a mark,
set in one of Debian's faces (Liberation Serif, Sans and Sans Narrow, DejaVu Serif), printed with a text layer,
rasterised soft at 150–200 dpi with blur, JPEG loss and grain or specks, and read as a season run reads a scan of a
300 dpi spec (`ocr_pages` at 300 dpi, every pass but those `--disable` names). Read words are aligned with printed ones
(difflib); a printed marked letter is right where its word is aligned and the letter read at its place is the same.

The split by language was fixed before any page was read: `tuning` (es, pt, pl) is what a mechanism may be built and
tuned on; `checking` (tr, vi, sk, cs) only reports.
"""
from __future__ import annotations

import argparse
import difflib
import random
import sys
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from fpdf import FPDF

from pipeline.devkit.ocrcertainty import _vocabulary
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import OcrSettings, installed_languages, ocr_pages
from pipeline.infra import sha256_file

FONT_ROOT = Path("/usr/share/fonts/truetype")


@dataclass(frozen=True)
class Face:
    name: str
    path: str  # under FONT_ROOT
    points: float


@dataclass(frozen=True)
class Family:
    face: Face
    scan: str  # ScanSetting syntax

    @property
    def name(self) -> str:
        return f"{self.face.name}{self.face.points:g}@{self.scan}"


FACES = {
    "serif": Face("serif", "liberation/LiberationSerif-Regular.ttf", 10),
    "sans": Face("sans", "liberation/LiberationSans-Regular.ttf", 9),
    "dvserif": Face("dvserif", "dejavu/DejaVuSerif.ttf", 9),
    "narrow": Face("narrow", "liberation/LiberationSansNarrow-Regular.ttf", 9.5),
    "narrow8": Face("narrow", "liberation/LiberationSansNarrow-Regular.ttf", 8),
    "sans8": Face("sans", "liberation/LiberationSans-Regular.ttf", 8.5),
    "serif8": Face("serif", "liberation/LiberationSerif-Regular.ttf", 8),
}
FAMILIES = (
    Family(FACES["serif"], "150/0.8/70"),
    Family(FACES["sans"], "150/1.0/80/0/g0.02"),
    Family(FACES["dvserif"], "175/0.7/85"),
    Family(FACES["narrow"], "200/0.6/90/0/s0.002"),
    Family(FACES["narrow8"], "150/1.0/75"),
    Family(FACES["sans8"], "150/1.2/80/0/g0.03"),
    Family(FACES["serif8"], "175/1.0/70"),
    Family(FACES["serif"], "300/0.5/90"),  # sharp scans: no mark is lost, none may be added
    Family(FACES["sans"], "300/0.4/85/0/g0.02"),
)
TUNING = {"es": ("spa", 11), "pt": ("por", 12), "pl": ("pol", 13)}
CHECKING = {"tr": ("tur", 21), "vi": ("vie", 22), "sk": ("slk", 23), "cs": ("ces", 24)}
SETS = {"tuning": TUNING, "checking": CHECKING}
MARKED_SHARE = 0.75
WORDS = 260
OCR_DPI = 300


def marks(word: str) -> int:
    return sum(1 for ch in unicodedata.normalize("NFD", word) if unicodedata.combining(ch))


def is_marked(ch: str) -> bool:
    """A letter with a combining mark, or one of the Latin letters with a stroke or hook that do not decompose."""
    return marks(ch) > 0 or ch in "łŁđĐıøØ"


def prose(tesseract: str, seed: int, count: int = WORDS) -> str:
    """`count` words of the language (module doc), about `MARKED_SHARE` of them marked, in sentences."""
    rng = random.Random(seed)
    vocabulary = _vocabulary(tesseract, random.Random(seed))
    marked = [w for w in vocabulary if any(is_marked(ch) for ch in w)]
    plain = [w for w in vocabulary if w not in set(marked)]
    words, sentence = [], 0
    for _ in range(count):
        word = rng.choice(marked if marked and rng.random() < MARKED_SHARE else plain)
        if sentence == 0:
            word = word[:1].upper() + word[1:]
        sentence += 1
        if sentence >= rng.randint(7, 14):
            word, sentence = word + ".", 0
        elif rng.random() < 0.1:
            word += ","
        words.append(word)
    return " ".join(words) + "."


@lru_cache(maxsize=16)
def face_letters(face: Face) -> frozenset[str]:
    """The characters `face`'s font file draws."""
    return frozenset(chr(code) for code in TTFont(str(FONT_ROOT / face.path)).getBestCmap())


def missing_letters(text: str, face: Face) -> str:
    """The letters of `text` that `face` cannot draw (Liberation has no Vietnamese letters with two marks)."""
    have = face_letters(face)
    return "".join(sorted({ch for ch in text if not ch.isspace() and ch not in have}))


def page_pdf(path: Path, text: str, face: Face) -> Path:
    pdf = FPDF(unit="mm", format="A4")
    pdf.add_font(face.name, "", str(FONT_ROOT / face.path))
    pdf.set_margins(20, 20, 20)
    pdf.add_page()
    pdf.set_font(face.name, size=face.points)
    pdf.multi_cell(170, face.points * 0.3528 * 1.3, text)
    pdf.output(str(path))
    return path


def unmarked(text: str) -> str:
    """`text` with every combining mark taken off (`período` → `periodo`; `ł`, which does not decompose, stays)."""
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)))


def scanned(out: Path, language: str, tesseract: str, seed: int, family: Family, bare_page: bool = False) -> tuple[Path, str]:
    """The family's page in `language`, scanned under `out` (made once, kept) and the text printed on it; `bare_page`:
    the same prose printed with no mark on any letter (a sheet that prints words without their accents: every mark read
    there is one the ink does not show)."""
    text = prose(tesseract, seed)
    if bare_page:
        text = unmarked(text)
    folder = out / language / (family.name.replace("/", "_") + ("-bare" if bare_page else ""))
    scan = folder / "scan.pdf"
    if not scan.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        ScanSetting.parse(family.scan).rasterise(page_pdf(folder / "text.pdf", text, family.face), scan, seed=seed)
    return scan, text


def read_words(scan: Path, tesseract: str, cache: Path, disabled: tuple[str, ...]) -> list[str]:
    settings = OcrSettings(languages=(tesseract,), dpi=OCR_DPI, disabled_passes=disabled)
    pages = ocr_pages(scan, [1], settings, workers=1, cache_dir=cache, sha256=sha256_file(scan), progress=False)
    # a line's text marks words it measured bold (`**word**`); the page prints none, so the marks are not its words'
    return " ".join(line.text for line in pages[1].lines).replace("**", "").split()


@dataclass
class Score:
    words: int = 0
    words_right: int = 0
    marked: int = 0  # printed marked letters
    marked_right: int = 0
    lost: int = 0  # a marked letter read as its bare letter
    added: int = 0  # a bare letter read with a mark

    def add(self, other: Score) -> None:
        for field in self.__dataclass_fields__:
            setattr(self, field, getattr(self, field) + getattr(other, field))

    def row(self) -> str:
        return (f"words {self.words_right:4d}/{self.words:4d} ({100 * self.words_right / max(1, self.words):5.1f} %)  "
                f"marked letters {self.marked_right:4d}/{self.marked:4d} ({100 * self.marked_right / max(1, self.marked):5.1f} %)  "
                f"lost {self.lost:3d}  added {self.added:3d}")


def bare(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)[0]


def score(printed: list[str], read: list[str]) -> tuple[Score, list[tuple[str, str]]]:
    """The page's score (`Score`) and each printed word read otherwise, with its reading ('' where none aligned)."""
    result = Score(words=len(printed), marked=sum(is_marked(ch) for w in printed for ch in w))
    wrong: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, read, autojunk=False).get_opcodes():
        if op == "equal":
            result.words_right += i2 - i1
            result.marked_right += sum(is_marked(ch) for w in printed[i1:i2] for ch in w)
            continue
        pairs = list(zip(printed[i1:i2], read[j1:j2])) if i2 - i1 == j2 - j1 else [(w, "") for w in printed[i1:i2]]
        for word, got in pairs:
            wrong.append((word, got))
            for op2, a1, a2, b1, b2 in difflib.SequenceMatcher(None, word, got, autojunk=False).get_opcodes():
                if op2 == "equal":
                    result.marked_right += sum(is_marked(ch) for ch in word[a1:a2])
                elif op2 == "replace" and a2 - a1 == b2 - b1:
                    for p, r in zip(word[a1:a2], got[b1:b2]):
                        if bare(p).lower() == bare(r).lower() and is_marked(p) and not is_marked(r):
                            result.lost += 1
                        elif bare(p).lower() == bare(r).lower() and not is_marked(p) and is_marked(r):
                            result.added += 1
    return result, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.accentfamilies", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: pages, scans and the OCR cache")
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--languages", default="", help="language names, comma-separated (default: every one of the set)")
    parser.add_argument("--families", default="", help="family numbers (0-based), comma-separated (default: all)")
    parser.add_argument("--disable", default="", help="passes left out, comma-separated")
    parser.add_argument("--show", action="store_true", help="every printed word read otherwise: printed → read")
    parser.add_argument("--bare", action="store_true", help="read the pages printed without marks (`added` counts marks read there)")
    args = parser.parse_args(argv)
    disabled = tuple(p for p in args.disable.split(",") if p)
    chosen = {name for name in args.languages.split(",") if name}
    families = [FAMILIES[int(i)] for i in args.families.split(",") if i] or list(FAMILIES)
    installed = installed_languages()
    for set_name in SETS if args.set == "all" else [args.set]:
        total = Score()
        by_family: dict[str, Score] = {}
        for language, (tesseract, seed) in SETS[set_name].items():
            if (chosen and language not in chosen) or tesseract not in installed:
                continue
            for family in families:
                lacking = missing_letters(prose(tesseract, seed), family.face)
                if lacking:  # a page that prints blanks for letters measures the font, not OCR
                    print(f"{set_name:8} {language:3} {family.name:34} skipped: the face has no {lacking}", flush=True)
                    continue
                scan, text = scanned(args.out, language, tesseract, seed, family, args.bare)
                page, wrong = score(text.split(), read_words(scan, tesseract, args.out / "cache", disabled))
                total.add(page)
                by_family.setdefault(family.name, Score()).add(page)
                print(f"{set_name:8} {language:3} {family.name:34} {page.row()}", flush=True)
                if args.show:
                    shown = Counter(f"{p!r} → {r!r}" for p, r in wrong)
                    for pair, n in shown.items():
                        print(f"    {pair}" + (f" ×{n}" if n > 1 else ""))
        for name, family_score in by_family.items():
            print(f"{set_name:8} all {name:34} {family_score.row()}")
        print(f"{set_name:8} all {'':34} {total.row()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
