"""Units, temperatures and formulas on generated scans: prose printed with raised and lowered small glyphs, rasterised
soft, read by the OCR path, and every unit read otherwise counted (`smallglyphs`).

    python -m pipeline.devkit.unitscans --out /tmp/units                        # tuning and checking languages, apart
    python -m pipeline.devkit.unitscans --out /tmp/units --disable small-glyphs --show

Each language's page is prose of its Tesseract word list's words with, placed by chance and not by any word, what
science and medicine exams print: a temperature (`37.5°C`, `T°39`), an angle with minutes and seconds (`45°30'`,
`12'40"`), a count with a prime (`110X'`), a formula with lowered digits (`SatO2`, `H2O`, `Na2SO4`: fpdf2's
subscript, which a text layer gives as plain digits) and a unit or power with a raised digit (`12 m2`, `10 3`: its
superscript). The text layer of such a page writes the small digits plain (as the corpus's text layers do:
`SatO2`), so the printed text holds them plain. The page is read as a season run reads a scan (`ocr_pages`, every
pass but those `--disable` names); the units (tokens holding a small glyph) read exactly are counted, and every word
run that differs. `tuning` languages are those the pass was built on; `checking` (Czech, Vietnamese: the most marks
above its letters of any Latin script) only reports.
"""
from __future__ import annotations

import difflib
import random
import sys
from pathlib import Path

from fpdf import FPDF

from pipeline.devkit.ocrcertainty import _vocabulary
from pipeline.devkit.punctscans import (
    Language, chosen_sets, disabled_passes, kept_scan, language_scans_parser, read_words,
)
from pipeline.devkit.sample.pdfgen import FONT_FILES, font_dir
from pipeline.devkit.sample.scansetting import ScanSetting

TUNING = (
    Language("es", "spa", "DejaVuSerif", 11), Language("pt", "por", "DejaVuSans", 12), Language("pl", "pol", "DejaVuSerif", 13),
    Language("el", "ell", "DejaVuSans", 14), Language("tr", "tur", "DejaVuSerif", 15),
)
CHECKING = (Language("cs", "ces", "DejaVuSans", 16), Language("vi", "vie", "DejaVuSerif", 17))  # chosen before the pass was built
SETS = {"tuning": TUNING, "checking": CHECKING}
SCANS = "150/0.8/70,200/0.6/85,300/0.4/90"
SENTENCES = 30
SIZE = 10.5
_ELEMENTS = ("H", "O", "C", "N", "Na", "S", "Ca", "Fe", "K", "Cl", "Mg", "P")

# A piece of printed text: (text, vertical position) with fpdf2's positions ("LINE", "SUB", "SUP").
Piece = tuple[str, str]


def _n(rng: random.Random, low: int, high: int) -> str:
    return str(rng.randint(low, high))


def unit(rng: random.Random) -> list[Piece]:
    """One expression holding a raised or lowered small glyph, as pieces at their vertical places."""
    kind = rng.randrange(8)
    if kind == 0:
        decimals = f".{rng.randint(0, 9)}" if rng.random() < 0.5 else ""
        return [(f"{_n(rng, 34, 41)}{decimals}°C", "LINE")]
    if kind == 1:
        return [(f"T°{_n(rng, 35, 41)}", "LINE")]
    if kind == 2:
        return [(f"{_n(rng, 10, 89)}°{_n(rng, 10, 59)}'", "LINE")]
    if kind == 3:
        return [(f"{_n(rng, 1, 59)}'{_n(rng, 10, 59)}\"", "LINE")]
    if kind == 4:
        return [(_n(rng, 40, 160) + "X" + rng.choice(("'", '"')), "LINE")]
    if kind == 5:  # a formula: elements, some followed by a lowered count
        pieces: list[Piece] = []
        for _ in range(rng.randint(2, 3)):
            pieces.append((rng.choice(_ELEMENTS), "LINE"))
            if rng.random() < 0.7:
                pieces.append((str(rng.randint(2, 4)), "SUB"))
        if all(vpos == "LINE" for _, vpos in pieces):
            pieces.append(("2", "SUB"))
        return pieces
    if kind == 6:
        return [(f"{_n(rng, 2, 99)} {rng.choice(['m', 'cm', 'km'])}", "LINE"), (rng.choice("23"), "SUP")]
    return [(f"{rng.choice(['10', '2', '5'])}", "LINE"), (_n(rng, 2, 9), "SUP")]


def prose(vocabulary: list[str], rng: random.Random, sentences: int = SENTENCES) -> list[list[Piece]]:
    """Sentences of `vocabulary`'s words with units placed by chance: the page's tokens, each a list of pieces."""
    tokens: list[list[Piece]] = []
    for _ in range(sentences):
        words: list[list[Piece]] = [[(rng.choice(vocabulary), "LINE")] for _ in range(rng.randint(6, 14))]
        words[0] = [(words[0][0][0][:1].upper() + words[0][0][0][1:], "LINE")]
        for _ in range(rng.randint(1, 2)):
            words.insert(rng.randint(1, len(words)), unit(rng))
        for at, word in enumerate(words[:-1]):
            if rng.random() < 0.12:
                words[at] = [*word, (",", "LINE")]
        words[-1] = [*words[-1], (".", "LINE")]
        tokens += words
    return tokens


def printed_text(tokens: list[list[Piece]]) -> list[str]:
    """The tokens as a text layer gives them: small digits plain."""
    return ["".join(text for text, _ in token) for token in tokens]


def is_unit(token: list[Piece]) -> bool:
    return any(vpos != "LINE" for _, vpos in token) or any(ch in "°'\"" for text, _ in token for ch in text)


def page_pdf(path: Path, tokens: list[list[Piece]], font: str) -> Path:
    pdf = FPDF(format="A4")
    pdf.set_margins(20, 20, 20)
    pdf.add_page()
    pdf.add_font(font, "", str(font_dir() / FONT_FILES[(font, False)]))
    pdf.set_font(font, "", SIZE)
    height = SIZE * 1.35 / 72 * 25.4
    for at, token in enumerate(tokens):
        for text, vpos in token:
            pdf.char_vpos = vpos  # type: ignore[assignment]
            pdf.write(height, text)
        pdf.char_vpos = "LINE"  # type: ignore[assignment]
        if at + 1 < len(tokens):
            pdf.write(height, " ")
    pdf.output(str(path))
    return path


def scanned_page(out: Path, language: Language, scan: ScanSetting) -> tuple[Path, list[list[Piece]]]:
    """`language`'s page of units scanned at `scan` under `out`, made once and kept, and the tokens printed on it."""
    tokens = prose(_vocabulary(language.tesseract, random.Random(language.seed)), random.Random(language.seed))
    return kept_scan(out, language, scan, lambda path: page_pdf(path, tokens, language.font)), tokens


def measure(out: Path, language: Language, scan: ScanSetting, disabled: tuple[str, ...]
            ) -> tuple[int, int, int, list[tuple[str, str]]]:
    """(units printed, units read exactly, word runs differing, the differing runs printed → read). A unit is read
    exactly where none of its words lies in a differing run."""
    scanned, tokens = scanned_page(out, language, scan)
    read = read_words(scanned, language, scan.dpi, out / "cache", disabled)
    printed, owner = [], []  # the printed words (a unit such as `12 m2` is two) and the token each belongs to
    for at, text in enumerate(printed_text(tokens)):
        for word in text.split():
            printed.append(word)
            owner.append(at)
    units = {at for at, token in enumerate(tokens) if is_unit(token)}
    wrong, shown = set(), []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, read, autojunk=False).get_opcodes():
        if op != "equal":
            wrong |= {owner[i] for i in range(i1, i2)}
            shown.append((" ".join(printed[i1:i2]), " ".join(read[j1:j2])))
            if i1 == i2 and 0 < i1 < len(owner):  # words read where none was printed: both neighbours are no longer exact
                wrong |= {owner[i1 - 1], owner[i1]}
    return len(units), len(units - wrong), len(shown), shown


def main(argv: list[str] | None = None) -> int:
    parser = language_scans_parser("python -m pipeline.devkit.unitscans", __doc__.split("\n\n")[0], SETS, SCANS,
                                   "every differing run: printed → read")
    args = parser.parse_args(argv)
    scans = ScanSetting.parse_list(args.scans)
    disabled = disabled_passes(args)
    for set_name, languages in chosen_sets(args, SETS):
        totals = [0, 0, 0]
        for language in languages:
            for scan in scans:
                units, right, differing, shown = measure(args.out, language, scan, disabled)
                totals = [totals[0] + units, totals[1] + right, totals[2] + differing]
                print(f"{set_name:8} {language.name:3} {str(scan):14} units {units:3d}  read right {right:3d}  "
                      f"differing runs {differing:3d}", flush=True)
                for printed, read in shown if args.show else ():
                    print(f"    {printed!r} → {read!r}")
        print(f"{set_name:8} all {'':14} units {totals[0]:3d}  read right {totals[1]:3d}  differing runs {totals[2]:3d}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
