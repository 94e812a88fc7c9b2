"""Words Tesseract splits where the ink shows no space, on generated scans (issue 27, `CertaintyPolicy.split_gap`).

    python -m pipeline.devkit.splitscans --out /tmp/splits                          # tuning languages, seeds 1-5
    python -m pipeline.devkit.splitscans --out /tmp/splits --languages rus --seeds 1-3 --show

Each page prints `WORDS` invented words, each two short words of the language's Tesseract word list run together
(`лаяпир`, `Natpdg`: no word itself, each half one), six a line, in DejaVu Serif at 11 pt, scanned at 150 dpi, blur
0.8, JPEG 70: the words a reader's dictionary pulls apart. The page is read as a season run reads a scan
(`read_page`, every pass), and laid out (`lay_out_page`) under the shipped certainty policy. Counted: printed words
read as two (`split`), of them both pieces among their line's unsure words (`caught`), and words unsure with
`CertaintyPolicy.split_gap` and not without it that are no such piece (`judged otherwise`).
"""
from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf, rasterize_pdf
from pipeline.extract.ocr import OcrSettings, PageReading, lay_out_page, read_page, render_page, word_list

WORDS = 60
PER_LINE = 6
DPI, BLUR, JPEG, NOISE = 150, 0.8, 70, 0.02
TUNING = ("pol", "spa")  # languages of the flag's tuning sets; Russian (a checking family's) only reports
FONT = "DejaVuSerif"


def invented_words(language: str, seed: int) -> list[str]:
    """`WORDS` words no list holds, each two of the list's three-letter words run together, half capitalised."""
    rng = random.Random(seed)
    listed = set(word_list(language))
    short = sorted(w for w in listed if w.isalpha() and len(w) == 3 and w == w.lower())
    words: list[str] = []
    while len(words) < WORDS:
        word = rng.choice(short) + rng.choice(short)
        if word not in listed:
            words.append(word[:1].upper() + word[1:] if rng.random() < 0.5 else word)
    return words


def scanned_page(folder: Path, words: list[str], seed: int):
    """The words printed `PER_LINE` a line and scanned (`DPI`, `BLUR`, `JPEG`): the page image."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [" ".join(words[i:i + PER_LINE]) for i in range(0, len(words), PER_LINE)]
    boxes = tuple(TextBox(text, 20, 20 + 9 * i, 180, size=11, font=FONT) for i, text in enumerate(lines))
    pdf = build_pdf(folder / "page.pdf", [PageSpec(boxes)])
    scan = rasterize_pdf(pdf, folder / "scan.pdf", dpi=DPI, blur=BLUR, noise=NOISE, jpeg_quality=JPEG, seed=seed)
    with pdfium.PdfDocument(str(scan)) as document:
        return render_page(document, 0, DPI)[0]


@dataclass
class Count:
    split: int = 0
    caught: int = 0
    judged_otherwise: int = 0

    def add(self, other: Count) -> None:
        self.split += other.split
        self.caught += other.caught
        self.judged_otherwise += other.judged_otherwise


def unsure_words(reading: PageReading, settings: OcrSettings) -> Counter[str]:
    """The words of the reading laid out (`lay_out_page`) as unsure under `settings`, each as often as it is."""
    page = lay_out_page(reading, settings, page_number=1, width_pt=595.0, height_pt=842.0)
    return Counter(word for line in page.lines for word in line.unsure_words)


def count(reading: PageReading, printed: list[str], settings: OcrSettings, show: bool = False) -> Count:
    """Printed words read as two, of them both pieces unsure when laid out under `settings`; and the words unsure under
    it that are not without `split_gap` and are no such piece."""
    words = reading.words
    unsure = unsure_words(reading, settings)
    added = unsure - unsure_words(reading, replace(settings, certainty=replace(settings.certainty, split_gap=0.0)))
    result = Count()
    pieces: Counter[str] = Counter()
    for a, b in zip(words, words[1:]):
        if a.line == b.line and a.text + b.text in printed:
            caught = unsure[a.text] > 0 and unsure[b.text] > 0
            result.split += 1
            result.caught += caught
            pieces.update((a.text, b.text))
            if show:
                print(f"  split {a.text} | {b.text} ({a.conf}, {b.conf}){' caught' if caught else ''}")
    for word in (added - pieces).elements():
        result.judged_otherwise += 1
        if show:
            print(f"  judged otherwise {word}")
    return result


def _seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.splitscans", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder for the generated pages and scans")
    parser.add_argument("--languages", default=",".join(TUNING), help="Tesseract languages, comma-separated")
    parser.add_argument("--seeds", default="1-5", help="a seed or a range (each seed one page a language)")
    parser.add_argument("--show", action="store_true", help="print each split word and each pair judged otherwise")
    args = parser.parse_args(argv)
    total = Count()
    for language in args.languages.split(","):
        lang_total = Count()
        for seed in _seeds(args.seeds):
            printed = invented_words(language, seed)
            image = scanned_page(args.out / f"{language}-{seed}", printed, seed)
            settings = OcrSettings(languages=(language,), dpi=DPI)
            reading = read_page(image, settings, page_number=1)
            found = count(reading, printed, settings, args.show)
            print(f"{language} seed {seed}: printed {WORDS}  split {found.split}  caught {found.caught}  "
                  f"judged otherwise {found.judged_otherwise}", flush=True)
            lang_total.add(found)
        print(f"{language} all: split {lang_total.split}  caught {lang_total.caught}  judged otherwise {lang_total.judged_otherwise}")
        total.add(lang_total)
    print(f"all: split {total.split}  caught {total.caught}  judged otherwise {total.judged_otherwise}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
