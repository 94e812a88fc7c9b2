"""Prose rich in the scan misreadings issue 27 names, read off soft scans, counted class by class (issue 27, bar 1):

- `one-letter`: a one-letter word and the word after it (`w domu`, `k eufemizmom`, `a escola`), read as two words as
  printed; missed as `glued` (`keufemizmom`), or otherwise;
- `digit`: a number beside words (`art. 7`, `7 de`, a date, a year), read as printed; missed as `glued` to a word
  (`el7`) or otherwise;
- `Il1`: a word holding `I`, `l` or `1` set in a sans face, read as printed; missed as an `I`/`l`/`1`/`i`/`|` swap or
  otherwise;
- `qg`: a word holding `q` or `g`, read as printed; missed as a `q`/`g` swap or otherwise;
- any printed word read with one letter `dropped` (`mo tenga` is `letter`, `tenga` read `tena` is `dropped`).

    python -m pipeline.devkit.wordclasses --out /tmp/wc --set tuning --scans 162/0.7/83,185/0.5/72/0/s0.0014 --show
    python -m pipeline.devkit.wordclasses --out /tmp/wc --set checking --scans ... --disable one-letter-words

The page of a language, face and setting is drawn in one of Debian's faces (Liberation Sans, DejaVu Sans, Liberation
Sans Narrow, Liberation Serif, 7–8 pt, one per setting in turn), printed with a text layer, rasterised by `sample` and read as a season run reads a
300 dpi scan (every pass but those `--disable` names). The split by language was fixed before any page was read:
`tuning` (es, pt, pl, cs, tr) is what a mechanism may be built and tuned on; `checking` (sk, el, en) only reports.
"""
from __future__ import annotations

import argparse
import difflib
import random
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.devkit.accentfamilies import Face, missing_letters, page_pdf, read_words
from pipeline.devkit.ocrcertainty import _vocabulary
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import installed_languages
from pipeline.languages import language

TUNING = {"es": ("spa", 31), "pt": ("por", 32), "pl": ("pol", 33), "cs": ("ces", 34), "tr": ("tur", 43)}
# Round seven (one-letter words) moved Turkish to tuning and took English as the third checking language.
CHECKING = {"sk": ("slk", 41), "el": ("ell", 42), "en": ("eng", 44)}
SETS = {"tuning": TUNING, "checking": CHECKING}
# One-letter words of languages with no `glued_words` in their data: Greek's articles and `or`, Turkish's none (its
# pages still carry the digits and the I/l/1 words).
EXTRA_ONE_LETTER = {"el": ("ο", "η", "ή")}
ITEMS = 170  # a page's items: word runs of one class each
# Small type, as exam booklets set options: the classes' misreadings are rare at 9–10 pt (every class read right
# 98–100 % on the tuning languages at five settings of 162–268 dpi).
FACE_CYCLE = (Face("sans", "liberation/LiberationSans-Regular.ttf", 7.5), Face("dvsans", "dejavu/DejaVuSans.ttf", 7),
              Face("narrow", "liberation/LiberationSansNarrow-Regular.ttf", 8), Face("serif", "liberation/LiberationSerif-Regular.ttf", 8))
ONE_LETTER, DIGIT, IL1, QG, PLAIN = "one-letter", "digit", "Il1", "qg", "plain"
CLASSES = (ONE_LETTER, DIGIT, IL1, QG)
STEMS = "I l 1 i | ! ]".split()
ABBREVIATIONS = {"es": "art.", "pt": "art.", "pl": "art.", "cs": "čl.", "sk": "čl.", "el": "άρθ.", "tr": "md.", "en": "No."}


def one_letter_words(name: str) -> tuple[str, ...]:
    glued = language(name).glued_words
    return tuple(glued.one_letter) if glued is not None else EXTRA_ONE_LETTER.get(name, ())


def page_items(name: str, tesseract: str, seed: int) -> list[tuple[str, list[str]]]:
    """The page's items in order, each its class and its words (`PLAIN` between them)."""
    rng = random.Random(seed)
    vocabulary = _vocabulary(tesseract, random.Random(seed))
    singles = one_letter_words(name)
    stems = [w for w in vocabulary if any(ch in w for ch in "l1I")]
    tails = [w for w in vocabulary if any(ch in w for ch in "qg")]
    items: list[tuple[str, list[str]]] = []
    for _ in range(ITEMS):
        kind = rng.choice((ONE_LETTER, ONE_LETTER, DIGIT, IL1, QG, PLAIN)) if singles else rng.choice((DIGIT, IL1, QG, PLAIN))
        if kind == ONE_LETTER:
            items.append((kind, [rng.choice(singles), rng.choice(vocabulary)]))
        elif kind == DIGIT:
            shape = rng.randrange(4)
            number = str(rng.choice((rng.randint(1, 9), rng.randint(10, 99), rng.randint(1900, 2030))))
            words = ([ABBREVIATIONS[name], number] if shape == 0 else [number, rng.choice(vocabulary)] if shape == 1
                     else [rng.choice(vocabulary), number] if shape == 2 else [f"{rng.randint(1, 28)}.{rng.randint(1, 12):02d}.{rng.randint(1990, 2030)}"])
            items.append((kind, words))
        elif kind == IL1 and stems:
            word = rng.choice(stems)
            items.append((kind, [word.capitalize() if rng.random() < 0.3 else word]))
        elif kind == QG and tails:
            items.append((kind, [rng.choice(tails)]))
        else:
            items.append((PLAIN, [rng.choice(vocabulary)]))
    return items


def scanned(out: Path, name: str, tesseract: str, seed: int, face: Face, scan_text: str) -> tuple[Path, list[tuple[str, list[str]]]]:
    items = page_items(name, tesseract, seed)
    text = " ".join(w for _, words in items for w in words)
    folder = out / name / f"{face.name}@{scan_text.replace('/', '_')}"
    scan = folder / "scan.pdf"
    if not scan.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        ScanSetting.parse(scan_text).rasterise(page_pdf(folder / "text.pdf", text, face), scan, seed=seed)
    return scan, items


def _swap_only(printed: str, read: str, letters: str) -> bool:
    """`read` is `printed` with only letters of `letters` read as other letters of `letters`."""
    return len(printed) == len(read) and printed != read and all(
        p == r or (p in letters and r in letters) for p, r in zip(printed, read))


def _one_dropped(printed: str, read: str) -> bool:
    return len(read) == len(printed) - 1 and len(read) >= 1 and any(printed[:k] + printed[k + 1:] == read for k in range(len(printed)))


@dataclass
class Tally:
    items: Counter = field(default_factory=Counter)
    right: Counter = field(default_factory=Counter)
    misses: Counter = field(default_factory=Counter)  # (class, how)
    dropped: int = 0
    words: int = 0
    words_right: int = 0

    def add(self, other: Tally) -> None:
        self.items.update(other.items)
        self.right.update(other.right)
        self.misses.update(other.misses)
        self.dropped += other.dropped
        self.words += other.words
        self.words_right += other.words_right

    def row(self) -> str:
        parts = [f"words {self.words_right}/{self.words}"]
        for kind in CLASSES:
            if self.items[kind]:
                how = ",".join(f"{h} {n}" for (k, h), n in sorted(self.misses.items()) if k == kind)
                parts.append(f"{kind} {self.right[kind]}/{self.items[kind]}" + (f" ({how})" if how else ""))
        parts.append(f"dropped-letter {self.dropped}")
        return "  ".join(parts)


def tally(items: list[tuple[str, list[str]]], read: list[str]) -> tuple[Tally, list[tuple[str, str, str]]]:
    """The page's counts and each missed item: (class, printed words, the read words aligned with them)."""
    printed = [w for _, words in items for w in words]
    owner = [at for at, (_, words) in enumerate(items) for _ in words]
    aligned: list[str | None] = [None] * len(printed)  # the read word at a printed word's place, where one is
    glued_into: dict[int, str] = {}
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, read, autojunk=False).get_opcodes():
        if op == "equal" or (op == "replace" and i2 - i1 == j2 - j1):
            for k in range(i2 - i1):
                aligned[i1 + k] = read[j1 + k]
        elif op == "replace":
            i = i1
            for got in read[j1:j2]:  # a read word that is two printed ones run together
                while i < i2 - 1 and printed[i] + printed[i + 1] != got:
                    i += 1
                if i < i2 - 1 and printed[i] + printed[i + 1] == got:
                    glued_into[i] = glued_into[i + 1] = got
                    i += 2
    result = Tally(words=len(printed))
    missed: list[tuple[str, str, str]] = []
    for at, got in enumerate(aligned):
        if got == printed[at]:
            result.words_right += 1
        elif got is not None and _one_dropped(printed[at], got):
            result.dropped += 1
    for at, (kind, words) in enumerate(items):
        places = [k for k, o in enumerate(owner) if o == at]
        if kind == PLAIN:
            continue
        result.items[kind] += 1
        reads = [aligned[k] for k in places]
        if reads == words:
            result.right[kind] += 1
            continue
        if any(k in glued_into for k in places):
            how = "glued"
        elif kind == IL1 and reads[0] is not None and _swap_only(words[0], reads[0], "Il1i|!]"):
            how = "swap"
        elif kind == QG and reads[0] is not None and _swap_only(words[0], reads[0], "qg9"):
            how = "swap"
        elif any(r is not None and _one_dropped(w, r) for w, r in zip(words, reads)):
            how = "dropped"
        else:
            how = "other"
        result.misses[(kind, how)] += 1
        missed.append((kind, " ".join(words), " ".join(r if r is not None else glued_into.get(k, "∅") for k, r in zip(places, reads))))
    return result, missed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.wordclasses", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: pages, scans and the OCR cache")
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--scans", required=True, help="scan settings, comma-separated (ScanSetting syntax)")
    parser.add_argument("--languages", default="", help="language names, comma-separated (default: every one of the set)")
    parser.add_argument("--disable", default="", help="passes left out, comma-separated")
    parser.add_argument("--show", action="store_true", help="every item read otherwise: printed → read")
    args = parser.parse_args(argv)
    disabled = tuple(p for p in args.disable.split(",") if p)
    chosen = {name for name in args.languages.split(",") if name}
    installed = installed_languages()
    settings = [s for s in args.scans.split(",") if s]
    for set_name in SETS if args.set == "all" else [args.set]:
        total = Tally()
        for name, (tesseract, seed) in SETS[set_name].items():
            if (chosen and name not in chosen) or tesseract not in installed:
                continue
            for number, scan_text in enumerate(settings):
                face = FACE_CYCLE[number % len(FACE_CYCLE)]
                text = " ".join(w for _, words in page_items(name, tesseract, seed) for w in words)
                lacking = missing_letters(text, face)
                if lacking:
                    print(f"{set_name:8} {name:3} {face.name}@{scan_text:24} skipped: the face has no {lacking}", flush=True)
                    continue
                scan, items = scanned(args.out, name, tesseract, seed, face, scan_text)
                page, missed = tally(items, read_words(scan, tesseract, args.out / "cache", disabled))
                total.add(page)
                print(f"{set_name:8} {name:3} {face.name:7}@{scan_text:24} {page.row()}", flush=True)
                if args.show:
                    for kind, words, got in missed:
                        print(f"    {kind:10} {words!r} → {got!r}")
        print(f"{set_name:8} all {'':32} {total.row()}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
