"""Superscripts, subscripts, degrees and primes as medical, physics and chemistry exams print them, on generated scans
in families kept apart: `TUNING` families a small-glyph pass may be tuned on, `CHECKING` families only reported
(`smallglyphs`; issue 27: "keep whole families aside as checking sheets").

    python -m pipeline.devkit.supscans --out /tmp/sup --set tuning --show      # the families tuned on
    python -m pipeline.devkit.supscans --out /tmp/sup --set checking           # the families kept aside, once

A family is a language (its Tesseract word list's words), a face, how high its superscripts stand and how low its
subscripts (fpdf2's `sup_lift`, `sub_lift`, negative for a lowered digit: real raised and lowered digits, as a text layer holds them, not Unicode's
`²`), and its own scans (150–300 dpi, blur 0.4–0.8, JPEG 70–90, tilted, some on grey paper). Its page is prose with,
placed by chance, what such exams print: `12 m²`, `250 cm³`, `kg/m²`, `m/s²`, `4,0 x 10⁹/L`, `10¹²/L`, `10⁻³/L`, `x²`,
`H₂O`, `CO₂`, `SatO₂`, `FiO₂`, `38°C`, `T° 39`, `5′`, `45°30′`, `100X′`.

**The text convention** (what the text path writes for such a page, `printed_text`; checked by
`tests/pipeline/devkit/test_supscans.py`): a raised or lowered digit is a plain digit in its word (`kg/m2`, `SatO2`,
`109/L`, `10-3/L`), a degree sign is `°`, a prime `′`, as pdfium gives a text layer's characters; compared as the flag's
measure compares (`misreadkinds.as_read`: every prime and quote one class, NFKC), with a mark standing alone glued to the
word before it (the text path writes `kg/m2 ,` where its gap rule sees a space after a superscript). OCR must write
the same. A superscript set higher than 0.5 of the size (Revalida's) is split off its word by today's text path
(docs/results.md, "Superscripts, primes and degree signs"), so no family sets one that high.

Families print one of `UNIT_KINDS` (`Family.units`): `mixed` (the above), `minus` (raised minus signs: `10⁻³/L`,
`m·s⁻²`, `mmol·L⁻¹`, `x⁻¹`, a positive power among them) or `latin` (Latin units and symbols after or before a number,
and formulas: `120 mg/dL`, `60 km/h`, `25 m²`, `pH 7,4`, `CO₂`), the latter on Greek and Russian pages to tune and
check the companion script's reading (`companionwords`), on Turkish and Vietnamese ones only to check nothing is lost;
or `cyrillic` (a Russian page's own units: `15 см`, `20 м/с`, `4 м²`, `кПа`), to check the companion's reading of a
unit's shapes (`cm` for `см`) never replaces what was printed.

Counted per family and scan: units read exactly, words read exactly, and sentences read exactly (a question's stem is
a sentence or two: a sentence wrong is a question wrong).
"""
from __future__ import annotations

import argparse
import difflib
import random
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from fpdf import FPDF

from pipeline.devkit.misreadkinds import as_read
from pipeline.devkit.ocrcertainty import _vocabulary
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.extract.ocr import OcrSettings, installed_languages, ocr_pages
from pipeline.infra import sha256_file

FONTS = {
    "DejaVuSerif": "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
    "DejaVuSans": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "NotoSerif": "/usr/share/fonts/truetype/noto/NotoSerif-Regular.ttf",
    "NotoSans": "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
    "LiberationSans": "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "LiberationSerif": "/usr/share/fonts/truetype/liberation/LiberationSerif-Regular.ttf",
    "LiberationSansNarrow": "/usr/share/fonts/truetype/liberation/LiberationSansNarrow-Regular.ttf",
}


@dataclass(frozen=True)
class Family:
    """One family of unit sheets: `language` (a name), its Tesseract language, a face of `FONTS`, its size (pt), how
    high a superscript's baseline stands and how low a subscript's (shares of the size, fpdf2's `sup_lift` and
    `sub_lift`), its scans (`ScanSetting` syntax) and the seed of its text."""

    name: str
    tesseract: str
    font: str
    size: float
    sup_lift: float
    sub_lift: float
    scans: str
    seed: int
    units: str = "mixed"  # which expressions its page prints: a key of `UNIT_KINDS`
    sentences: int = 24

    def scan_settings(self) -> list[ScanSetting]:
        return ScanSetting.parse_list(self.scans)


# Split before any of these was read (issue 27): the pass may be tuned on TUNING only; CHECKING is measured once and
# reported. No language, face or scan of a checking family is in a tuning family but Spanish (another face, other
# lifts, other scans) and Noto Serif (another script).
TUNING = {
    "es-dejavuserif": Family("es", "spa", "DejaVuSerif", 10.5, 0.4, -0.15, "150/0.8/70,200/0.6/85/0.8/p225,300/0.4/90/-0.6", 101),
    "pt-liberationsans": Family("pt", "por", "LiberationSans", 11, 0.45, -0.2, "150/0.6/80/-0.7,200/0.8/70,300/0.5/85/0/p215", 102),
    "pl-notoserif": Family("pl", "pol", "NotoSerif", 10, 0.4, -0.15, "150/0.7/90/0.5/p230,200/0.4/75,300/0.8/80/-0.9", 103),
    "el-dejavusans": Family("el", "ell", "DejaVuSans", 10.5, 0.5, -0.2, "150/0.5/85,200/0.7/90/-0.5/p220,300/0.6/70/0.8", 104),
}
CHECKING = {
    "tr-liberationserif": Family("tr", "tur", "LiberationSerif", 10.5, 0.45, -0.2, "150/0.8/80/0.6,200/0.5/70/0/p220,300/0.7/85/-0.8", 201),
    "vi-notosans": Family("vi", "vie", "NotoSans", 11, 0.4, -0.15, "150/0.6/75/-0.4/p230,200/0.8/90/0.7,300/0.4/80", 202),
    "ru-notoserif": Family("ru", "rus", "NotoSerif", 10.5, 0.5, -0.25, "150/0.7/85/0.9,200/0.6/80/-0.6/p215,300/0.5/75", 203),
    "es-liberationnarrow": Family("es", "spa", "LiberationSansNarrow", 11, 0.45, -0.2, "150/0.4/70/-0.8,200/0.7/85/0.5,300/0.6/90/0/p225", 204),
}
# Seventeenth round (issue 27), split before any was read: raised minus signs (negative exponents: `10⁻³/L`, `m·s⁻²`,
# `mmol·L⁻¹`), and Latin units and symbols inside non-Latin prose (`mg/dL`, `km/h`, `pH`, `CO₂` on Greek and Russian
# pages, where the page's model reads them as its own script's look-alikes), and inside Turkish and Vietnamese as checking.
# Half pages (12 sentences): the reading of a page is the measure's cost.
TUNING.update({
    "el-latin-dejavusans": Family("el", "ell", "DejaVuSans", 10.5, 0.45, -0.2, "150/0.6/80/0.6,200/0.5/90/-0.4/p220,300/0.7/75", 111, "latin", 12),
    "ru-latin-dejavuserif": Family("ru", "rus", "DejaVuSerif", 10.5, 0.45, -0.2, "150/0.5/85/-0.5,200/0.7/75/0/p225,300/0.6/90/0.7", 112, "latin", 12),
    "pt-minus-dejavuserif": Family("pt", "por", "DejaVuSerif", 10.5, 0.4, -0.15, "150/0.7/80/0.5,200/0.5/85/-0.7/p220,300/0.8/75", 113, "minus", 12),
    "el-minus-liberationsans": Family("el", "ell", "LiberationSans", 11, 0.45, -0.2, "150/0.5/75/-0.6/p230,200/0.8/85,300/0.6/90/0.6", 114, "minus", 12),
})
CHECKING.update({
    "el-latin-liberationserif": Family("el", "ell", "LiberationSerif", 11, 0.4, -0.2, "150/0.7/90/-0.7,200/0.6/80/0.5,300/0.5/70/0/p215", 211, "latin", 12),
    "ru-latin-liberationsans": Family("ru", "rus", "LiberationSans", 10, 0.5, -0.2, "150/0.6/70/0.8/p220,200/0.4/85,300/0.8/80/-0.5", 212, "latin", 12),
    "tr-latin-dejavuserif": Family("tr", "tur", "DejaVuSerif", 10.5, 0.45, -0.15, "150/0.8/85,200/0.6/75/-0.8/p230,300/0.5/80/0.4", 213, "latin", 12),
    "vi-latin-dejavusans": Family("vi", "vie", "DejaVuSans", 10.5, 0.4, -0.2, "150/0.5/80/0.7,200/0.7/90/0/p215,300/0.6/70/-0.6", 214, "latin", 12),
    "ru-minus-liberationserif": Family("ru", "rus", "LiberationSerif", 10.5, 0.45, -0.2, "150/0.6/85/0.4/p225,200/0.5/70/-0.5,300/0.7/80", 215, "minus", 12),
    "tr-minus-dejavusans": Family("tr", "tur", "DejaVuSans", 10, 0.4, -0.15, "150/0.8/75/-0.4,200/0.6/90/0.6/p220,300/0.4/85", 216, "minus", 12),
    # a Russian page's own units: the Latin units' reading must leave them Cyrillic (checking only, made after the fact)
    "ru-cyrillic-dejavusans": Family("ru", "rus", "DejaVuSans", 10.5, 0.45, -0.2, "150/0.6/80/0.5,200/0.5/85/-0.6/p220,300/0.7/75", 217, "cyrillic", 12),
})
SETS = {"tuning": TUNING, "checking": CHECKING}
_WORDISH = re.compile(r"[\w\s]")
SENTENCES = 24

# A piece of printed text: (text, vertical position) with fpdf2's positions ("LINE", "SUB", "SUP"), or `UNIT`: on the line,
# and a unit's (`mg/dL` holds no raised glyph, yet is counted as a unit).
Piece = tuple[str, str]
UNIT = "UNIT"
Token = list[Piece]


def _n(rng: random.Random, low: int, high: int) -> str:
    return str(rng.randint(low, high))


def _formula(rng: random.Random) -> Token:
    name = rng.choice(("H2O", "CO2", "SatO2", "FiO2", "O2", "PaCO2", "Na2SO4", "CaCl2", "H2SO4", "NH3"))
    return [(ch, "SUB" if ch.isdigit() else "LINE") for ch in name]


def unit(rng: random.Random) -> list[Token]:
    """One expression holding a raised or lowered small glyph, a degree sign or a prime: one token or two (`12 m²`)."""
    kind = rng.randrange(10)
    if kind == 0:
        return [[(_n(rng, 2, 250), "LINE")], [(rng.choice(("m", "cm", "dm", "mm")), "LINE"), (rng.choice("23"), "SUP")]]
    if kind == 1:
        return [[(rng.choice(("kg/m", "m/s", "g/cm", "N/m")), "LINE"), (rng.choice("23"), "SUP")]]
    if kind == 2:
        mantissa = f"{_n(rng, 1, 9)},{_n(rng, 0, 9)}"
        return [[(mantissa, "LINE")], [("x", "LINE")], [("10", "LINE"), (rng.choice(("9", "12", "6", "3")), "SUP"), ("/L", "LINE")]]
    if kind == 3:
        return [[("10", "LINE"), (rng.choice(("-3", "-6", "12", "9")), "SUP"), (rng.choice(("/L", "/mL", "")), "LINE")]]
    if kind == 4:
        return [[(rng.choice("xyab"), "LINE"), (rng.choice("23"), "SUP")]]
    if kind == 5:
        return [_formula(rng)]
    if kind == 6:
        decimals = f",{rng.randint(0, 9)}" if rng.random() < 0.5 else ""
        return [[(f"{_n(rng, 34, 41)}{decimals}°C", "LINE")]]
    if kind == 7:
        return [[("T°", "LINE")], [(f"{_n(rng, 35, 40)},{_n(rng, 0, 9)}", "LINE")]]
    if kind == 8:
        return [[(rng.choice((f"{_n(rng, 1, 30)}′", f"{_n(rng, 10, 89)}°{_n(rng, 10, 59)}′")), "LINE")]]
    return [[(f"{_n(rng, 40, 160)}X′", "LINE")]]


def _raised(text: str) -> list[Piece]:
    """`text`'s digits and minus signs raised, its letters and marks on the line, as a unit (`m·s-2`: `m·s⁻²`)."""
    return [(ch, "SUP" if ch.isdigit() or ch == "-" else UNIT) for ch in text]


def minus_unit(rng: random.Random) -> list[Token]:
    """One expression with a raised minus sign: a negative power of ten or a unit's negative exponent."""
    kind = rng.randrange(6)
    power = rng.choice(("-1", "-2", "-3", "-6", "-9", "-12"))
    if kind == 0:
        return [[("10", UNIT), (power, "SUP"), (rng.choice(("/L", "/mL", "")), UNIT)]]
    if kind == 1:
        return [[(f"{_n(rng, 1, 9)},{_n(rng, 0, 9)}", "LINE")], [("x", "LINE")], [("10", UNIT), (power, "SUP")]]
    if kind == 2:
        return [[(_n(rng, 2, 99), "LINE")], _raised(rng.choice(("m·s-2", "m·s-1", "kg·m-3", "mol·L-1", "J·K-1", "s-1", "h-1")))]
    if kind == 3:
        return [[(_n(rng, 2, 99), "LINE")], _raised(rng.choice(("mmol·L-1", "g·L-1", "mg·kg-1", "mL·min-1", "cm-1")))]
    if kind == 4:
        return [[(rng.choice("xyabk"), UNIT), (rng.choice(("-1", "-2", "-3")), "SUP")]]
    return [[("10", UNIT), (rng.choice(("9", "12", "6", "3")), "SUP"), ("/L", UNIT)]]  # a positive power among them


def latin_unit(rng: random.Random) -> list[Token]:
    """One Latin unit or symbol as a page of any script prints it: after a number (`120 mg/dL`, `60 km/h`, `25 m²`), or
    alone (`pH 7,4`, `CO₂`)."""
    kind = rng.randrange(8)
    if kind <= 3:
        name = rng.choice(("mg/dL", "km/h", "mmHg", "kg", "cm", "mL", "g/L", "mmol/L", "kPa", "Hz", "mg", "mm", "km", "m/s",
                           "kcal", "MHz", "mA", "kV", "g/dL", "U/L"))
        return [[(_n(rng, 2, 250), "LINE")], [(name, UNIT)]]
    if kind == 4:
        return [[(_n(rng, 2, 250), "LINE")], [(rng.choice(("m", "cm", "km", "mm")), UNIT), (rng.choice("23"), "SUP")]]
    if kind == 5:
        return [[("pH", UNIT)], [(f"{_n(rng, 5, 8)},{_n(rng, 0, 9)}", "LINE")]]
    if kind == 6:
        return [[(ch, "SUB" if ch.isdigit() else UNIT) for ch in rng.choice(("CO2", "O2", "H2O", "PaCO2", "SO2", "NO2"))]]
    return [[(_n(rng, 2, 99), "LINE")], [(rng.choice(("mg/kg", "mL/h", "cm/s", "kJ/mol", "mg/L")), UNIT)]]


def cyrillic_unit(rng: random.Random) -> list[Token]:
    """One unit as Russian school exams print it, in Cyrillic (`15 см`, `20 м/с`, `4 м²`, `кПа`): on such a page the
    companion script's reading of a unit's shapes (`cm` for `см`) must not replace what was printed."""
    kind = rng.randrange(4)
    if kind <= 1:
        name = rng.choice(("см", "мм", "кг", "м/с", "км/ч", "кПа", "мг", "мл", "Дж", "Вт", "мин", "г/л", "моль", "Гц"))
        return [[(_n(rng, 2, 250), "LINE")], [(name, UNIT)]]
    if kind == 2:
        return [[(_n(rng, 2, 250), "LINE")], [(rng.choice(("м", "см", "км", "мм")), UNIT), (rng.choice("23"), "SUP")]]
    return [[(_n(rng, 2, 99), "LINE")], [(rng.choice(("м/с", "Н/м", "кг/м")), UNIT), ("2" if rng.random() < 0.5 else "3", "SUP")]]


UNIT_KINDS = {"mixed": unit, "minus": minus_unit, "latin": latin_unit, "cyrillic": cyrillic_unit}


def prose(vocabulary: list[str], rng: random.Random, sentences: int = SENTENCES, units=unit) -> list[list[Token]]:
    """Sentences of `vocabulary`'s words with one to three `units` placed by chance: each sentence its tokens."""
    out: list[list[Token]] = []
    for _ in range(sentences):
        words: list[Token] = [[(rng.choice(vocabulary), "LINE")] for _ in range(rng.randint(6, 12))]
        words[0] = [(words[0][0][0][:1].upper() + words[0][0][0][1:], "LINE")]
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(1, len(words))
            words[at:at] = units(rng)
        for at, word in enumerate(words[:-1]):
            if rng.random() < 0.1:
                words[at] = [*word, (",", "LINE")]
        words[-1] = [*words[-1], (".", "LINE")]
        out.append(words)
    return out


def token_text(token: Token) -> str:
    """A token as the text path writes it: its small digits plain, in the word."""
    return "".join(text for text, _ in token)


def is_unit(token: Token) -> bool:
    return any(vpos != "LINE" for _, vpos in token) or any(ch in "°′" for text, _ in token for ch in text)


def page_pdf(path: Path, family: Family, sentences: list[list[Token]]) -> Path:
    """The family's page: its sentences run on as one paragraph, small digits at the family's lifts."""
    pdf = FPDF(format="A4")
    pdf.set_margins(20, 20, 20)
    pdf.add_page()
    pdf.add_font(family.font, "", FONTS[family.font])
    pdf.set_font(family.font, "", family.size)
    pdf.sup_lift, pdf.sub_lift = family.sup_lift, family.sub_lift
    height = family.size * 1.4 / 72 * 25.4
    tokens = [token for sentence in sentences for token in sentence]
    for at, token in enumerate(tokens):
        for first, (text, vpos) in enumerate(token):
            pdf.char_vpos = "LINE" if vpos == UNIT else vpos  # type: ignore[assignment]
            # the space before a token written with its first piece: fpdf2 wraps a line at a space of the text it is
            # given, and mid-word where that text holds none
            pdf.write(height, (" " if at and not first else "") + text)
        pdf.char_vpos = "LINE"  # type: ignore[assignment]
    pdf.output(str(path))
    return path


def family_sentences(family: Family) -> list[list[Token]]:
    return prose(_vocabulary(family.tesseract, random.Random(family.seed)), random.Random(family.seed), family.sentences,
                 UNIT_KINDS[family.units])


def printed_page(folder: Path, family: Family) -> Path:
    """The family's page as a PDF under `folder`, made once and kept."""
    path = folder / "text.pdf"
    if not path.is_file():
        folder.mkdir(parents=True, exist_ok=True)
        page_pdf(path, family, family_sentences(family))
    return path


def scanned(out: Path, name: str, family: Family, scan: ScanSetting) -> Path:
    """`family`'s page scanned at `scan` under `out`, made once and kept."""
    folder = out / name / scan.folder()
    target = folder / "scan.pdf"
    if not target.is_file():
        scan.rasterise(printed_page(out / name, family), target, seed=family.seed + scan.dpi)
    return target


def _joined(words: list[str]) -> list[tuple[str, list[int]]]:
    """Words as they are compared, each with the indexes of the given words it holds: `as_read` each, and, as `as_read`
    leaves out a space beside a mark, a word glued to the one before where a mark stands on either side of the space."""
    out: list[tuple[str, list[int]]] = []
    for at, word in enumerate(words):
        word = as_read(word)
        if not word:
            continue
        if out and not (_WORDISH.match(out[-1][0][-1]) and _WORDISH.match(word[0])):
            out[-1] = (out[-1][0] + word, [*out[-1][1], at])
        else:
            out.append((word, [at]))
    return out


def compared(words: list[str]) -> list[str]:
    """Words as the flag's measure compares them (`misreadkinds.as_read`: NFKC, one class of quotes and primes, no space
    beside a mark: `kg/m2 ,` is `kg/m2,`, `10 /L` is `10/L`)."""
    return [word for word, _ in _joined(words)]


@dataclass(frozen=True)
class Reading:
    units: int
    units_right: int
    words: int
    words_right: int
    sentences: int
    sentences_right: int
    shown: tuple[tuple[str, str], ...]


def score(sentences: list[list[Token]], read: list[str]) -> Reading:
    """How many units, words and sentences of `sentences` `read` (the page's words as OCR gave them) holds exactly, and
    each differing run (printed → read)."""
    where = [(s, t) for s, sentence in enumerate(sentences) for t, _ in enumerate(sentence)]
    joined = _joined([token_text(token) for sentence in sentences for token in sentence])
    printed = [word for word, _ in joined]
    owners = [{where[i] for i in held} for _, held in joined]  # the (sentence, token) each compared word holds
    got = compared(read)
    wrong_words, wrong_tokens, shown = set(), set(), []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, printed, got, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        wrong_words |= set(range(i1, i2))
        if i1 == i2:  # words read where none was printed: both neighbours are no longer exact
            wrong_words |= {i for i in (i1 - 1, i1) if 0 <= i < len(printed)}
        shown.append((" ".join(printed[i1:i2]), " ".join(got[j1:j2])))
    wrong_tokens = {o for i in wrong_words for o in owners[i]}
    units = {(s, t) for s, sentence in enumerate(sentences) for t, token in enumerate(sentence) if is_unit(token)}
    wrong_sentences = {s for s, _ in wrong_tokens}
    return Reading(len(units), len(units - wrong_tokens), len(printed), len(printed) - len(wrong_words),
                   len(sentences), len(sentences) - len(wrong_sentences), tuple(shown))


def read_words(scan: Path, family: Family, dpi: int, cache: Path, disabled: tuple[str, ...]) -> list[str]:
    settings = replace(OcrSettings(languages=(family.tesseract,), dpi=dpi), disabled_passes=disabled)
    pages = ocr_pages(scan, [1], settings, workers=1, cache_dir=cache, sha256=sha256_file(scan), progress=False)
    return " ".join(line.text for line in pages[1].lines).split()


def measure(out: Path, name: str, family: Family, scan: ScanSetting, disabled: tuple[str, ...]) -> Reading:
    return score(family_sentences(family), read_words(scanned(out, name, family, scan), family, scan.dpi, out / "cache", disabled))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pipeline.devkit.supscans", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: pages, scans and the OCR cache")
    parser.add_argument("--set", choices=[*SETS, "all"], default="tuning")
    parser.add_argument("--families", default="", help="family names, comma-separated (default: every one of the set)")
    parser.add_argument("--disable", default="", help="passes left out, comma-separated")
    parser.add_argument("--show", action="store_true", help="every differing run: printed → read")
    args = parser.parse_args(argv)
    chosen = {name for name in args.families.split(",") if name}
    disabled = tuple(p for p in args.disable.split(",") if p)
    installed = installed_languages()
    for set_name in SETS if args.set == "all" else [args.set]:
        totals = [0] * 6
        for name, family in SETS[set_name].items():
            if chosen and name not in chosen:
                continue
            if family.tesseract not in installed:
                print(f"{set_name}: {name} skipped, Tesseract has no {family.tesseract}", flush=True)
                continue
            for scan in family.scan_settings():
                r = measure(args.out, name, family, scan, disabled)
                row = [r.units, r.units_right, r.words, r.words_right, r.sentences, r.sentences_right]
                totals = [a + b for a, b in zip(totals, row)]
                print(f"{set_name:8} {name:20} {str(scan):22} units {r.units_right:3d}/{r.units:3d}  words "
                      f"{r.words_right:4d}/{r.words:4d}  sentences {r.sentences_right:2d}/{r.sentences:2d}", flush=True)
                for printed, read in r.shown if args.show else ():
                    print(f"    {printed!r} → {read!r}")
        print(f"{set_name:8} {'all':20} {'':22} units {totals[1]:3d}/{totals[0]:3d}  words {totals[3]:4d}/{totals[2]:4d}  "
              f"sentences {totals[5]:2d}/{totals[4]:2d}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
