"""Question sheets in other scripts, read by their text layer and scanned: how far the OCR path falls behind.

    python -m pipeline.devkit.scriptscans --out /tmp/scripts [--set tuning|checking|all|glued] [--families ko-row,...]
        [--scans 150/0.8/70,200/0.6/80,300/0.4/90] [--disable PASS,...] [--show]

Each family is one sheet of numbered multiple-choice questions made of its language's words (Tesseract's
word list for it, plus numbers and names), in one layout: options one per line (`column`), two per row
(`pairs`), all on one row (`row`), or three then two (`grid`, as Korean CSAT sheets print short options),
labelled as the language prints them (①–⑤, Α. Β. Γ. Δ., А) Б) В) Г), A. B. C. D.), with a list key. The
same sheet and key are written once with a text layer and, per scan setting (resolution / blur / JPEG
quality), rasterised as a scan; extract and parse run on each as a season run does (the key matched by
the family's spec), and each is compared with what was printed:

- recall: printed questions a record has;
- options exact: printed options read exactly (`fidelity.normalize_text`), over every printed option;
- answers: printed key answers the record carries.

Each scan line prints the text path's figures beside the scan's and the gap. `tuning` families are the
ones mechanisms were built on; `checking` families (other scripts, other layouts) only report; the two
are printed apart. Families whose Tesseract language or font is not installed are skipped and said so.
"""
from __future__ import annotations

import argparse
import hashlib
import random
import sys
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal, Protocol, cast

from pipeline.acquire import ManifestEntry
from pipeline.devkit.fidelity import normalize_text
from pipeline.devkit.sample.pdfbase import PT_PER_MM
from pipeline.devkit.sample.pdfgen import CJK_FONT, PageItem, PageSpec, Rect, TextBox, build_pdf, cjk_font, text_height
from pipeline.devkit.sample.scansetting import SYNTAX, ScanSetting
from pipeline.extract import ExtractOptions, extract_document
from pipeline.extract.ocr import LexiconUnavailable, installed_languages, word_list
from pipeline.parse import parse_sheet
from pipeline.records import Question
from pipeline.specs import SourceSpec, parse_spec

SIZE = 10.5  # points
ROW_MM = SIZE * 1.45 * 0.3528
CIRCLED = ("①", "②", "③", "④", "⑤")


class SheetFamily(Protocol):
    """What the vocabulary and the score read of a family (this module's `Family`, `latinscans`' `LatinFamily`)."""

    @property
    def name(self) -> str: ...
    @property
    def tesseract(self) -> str: ...
    @property
    def labels(self) -> tuple[str, ...]: ...
    @property
    def seed(self) -> int: ...
    @property
    def font(self) -> str: ...


@dataclass(frozen=True)
class Family:
    name: str
    language: str  # ISO 639-1, for the spec
    tesseract: str
    labels: tuple[str, ...]
    style: str  # how a label is printed, written with "A" ("A.", "A)"); "" for enclosed labels (①)
    layout: Literal["column", "pairs", "row", "grid"]
    font: str
    seed: int
    questions: int = 10
    glued: bool = False  # the label printed against its option's first word, no space between (`①zielonej`)
    mark: Literal["", "disc", "square"] = ""  # the label printed light on a dark disc or rounded square
    mark_size: float = 0.8  # the disc's or square's side, in the option type's size (em)


TUNING = (
    Family("ko-row", "ko", "kor", CIRCLED, "", "row", CJK_FONT, 31),
    Family("ko-column", "ko", "kor", CIRCLED, "", "column", CJK_FONT, 32),
    Family("el-column", "el", "ell", ("Α", "Β", "Γ", "Δ"), "A.", "column", "DejaVuSans", 33),
)
CHECKING = (
    Family("ko-grid", "ko", "kor", CIRCLED, "", "grid", CJK_FONT, 41),
    Family("el-pairs", "el", "ell", ("α", "β", "γ", "δ"), "A)", "pairs", "DejaVuSerif", 42),
    Family("vi-column", "vi", "vie", ("A", "B", "C", "D"), "A.", "column", "DejaVuSans", 43),
    Family("tr-pairs", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "pairs", "DejaVuSerif", 44),
    Family("ru-column", "ru", "rus", ("А", "Б", "В", "Г"), "A)", "column", "DejaVuSans", 45),
)
# Enclosed labels printed glued to Latin options: at 150 dpi the ring's ink and the first letter's touch.
GLUED_TUNING = (Family("pl-ring-glued", "pl", "pol", CIRCLED, "", "column", "DejaVuSans", 51, glued=True),)
GLUED_CHECKING = (Family("es-ring-glued", "es", "spa", CIRCLED, "", "pairs", "DejaVuSans", 52, glued=True),)
# Labels printed light on dark discs (Revalida's booklet) in several sizes, letters, digits and other scripts;
# checked on rounded squares, a shape no disc mechanism was built on.
DISC_TUNING = (
    Family("pt-disc", "pt", "por", ("A", "B", "C", "D"), "A", "column", "DejaVuSans", 61, mark="disc", mark_size=0.7),
    Family("es-disc-lower", "es", "spa", ("a", "b", "c", "d", "e"), "A", "column", "DejaVuSerif", 62, mark="disc", mark_size=1.2),
    Family("el-disc", "el", "ell", ("Α", "Β", "Γ", "Δ"), "A", "column", "DejaVuSans", 63, mark="disc", mark_size=0.8),
    Family("ko-disc", "ko", "kor", ("가", "나", "다", "라"), "A", "column", CJK_FONT, 64, mark="disc", mark_size=1.15),
)
DISC_CHECKING = (
    Family("pl-square", "pl", "pol", ("A", "B", "C", "D"), "A", "column", "DejaVuSans", 71, mark="square", mark_size=1.0),
    Family("tr-square-digits", "tr", "tur", ("1", "2", "3", "4", "5"), "A", "column", "DejaVuSerif", 72, mark="square", mark_size=0.75),
    Family("vi-square-lower", "vi", "vie", ("a", "b", "c", "d"), "A", "column", "DejaVuSans", 73, mark="square", mark_size=1.15),
)
# Option labels of the hidden sheets' scripts in layouts their families above lack (split before any was read).
LABEL_TUNING = (
    Family("ko-pairs", "ko", "kor", CIRCLED, "", "pairs", CJK_FONT, 81),
    Family("el-row", "el", "ell", ("Α", "Β", "Γ", "Δ"), "A)", "row", "DejaVuSerif", 82),
    Family("tr-column", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "column", "DejaVuSans", 83),
    Family("vi-pairs", "vi", "vie", ("A", "B", "C", "D"), "A.", "pairs", "DejaVuSans", 84),
)
LABEL_CHECKING = (
    Family("ko-pairs-12", "ko", "kor", CIRCLED, "", "pairs", CJK_FONT, 91, questions=12),
    Family("el-grid", "el", "ell", ("Α", "Β", "Γ", "Δ"), "A.", "grid", "DejaVuSans", 92),
    Family("tr-grid", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "grid", "DejaVuSerif", 93),
    Family("vi-row", "vi", "vie", ("A", "B", "C", "D"), "A.", "row", "DejaVuSerif", 94),
)
SETS = {"tuning": TUNING, "checking": CHECKING, "glued-tuning": GLUED_TUNING, "glued-checking": GLUED_CHECKING,
        "discs-tuning": DISC_TUNING, "discs-checking": DISC_CHECKING, "labels-tuning": LABEL_TUNING, "labels-checking": LABEL_CHECKING}
GROUPS = {"all": ("tuning", "checking"), "glued": ("glued-tuning", "glued-checking"),
          "discs": ("discs-tuning", "discs-checking"), "labels": ("labels-tuning", "labels-checking")}  # `all` stays the scripts' families


@dataclass(frozen=True)
class Printed:
    number: str
    stem: str
    options: tuple[str, ...]
    answer: str


# --------------------------------------------------------------------------- sheets


def _vocabulary(family: SheetFamily) -> list[str]:
    # Tesseract's Greek list spells μ as the micro sign now and then; a printed sheet never does.
    words = [w.replace("\u00b5", "\u03bc") for w in word_list(family.tesseract) if w.isalpha() and 2 <= len(w) <= 10 and w == w.lower()]
    words.sort()
    random.Random(family.seed).shuffle(words)
    return words[:3000]


def _phrase(rng: random.Random, vocabulary: list[str], count: int) -> str:
    words = [rng.choice(vocabulary) for _ in range(count)]
    if rng.random() < 0.2:  # what a word list lacks: a number or a year
        words.insert(rng.randrange(len(words) + 1), str(rng.choice([rng.randint(2, 99), rng.randint(1900, 2030)])))
    return " ".join(words)


def printed_questions(family: Family, vocabulary: list[str]) -> list[Printed]:
    rng = random.Random(family.seed)
    questions = []
    widths = {"column": (2, 6), "pairs": (1, 3), "row": (1, 1), "grid": (1, 2)}[family.layout]
    for n in range(1, family.questions + 1):
        stem = _phrase(rng, vocabulary, rng.randint(6, 14))
        stem = stem[:1].upper() + stem[1:] + "."
        options = tuple(_phrase(rng, vocabulary, rng.randint(*widths)) for _ in family.labels)
        questions.append(Printed(str(n), stem, options, rng.choice(family.labels)))
    return questions


def _cell(family: Family, label: str, text: str) -> str:
    if family.mark:
        return text  # the label is drawn on its mark (`_marked`)
    return f"{family.style.replace('A', label) if family.style else label}{'' if family.glued else ' '}{text}"


def _marked(family: Family, label: str, x: float, y: float) -> tuple[PageItem, TextBox]:
    """A label printed light on its dark disc or rounded square, the mark centred on the option's first line at `y`,
    the letter filling 0.6 of it."""
    side = family.mark_size * SIZE / PT_PER_MM
    middle = y + 0.55 * SIZE / PT_PER_MM  # the option type's capitals' middle, below its line's top
    mark = Rect(x, middle - side / 2, side, side, fill=(20, 20, 20), stroke=None, radius=side * 0.49 if family.mark == "disc" else side / 4)
    size = 0.6 * side * PT_PER_MM / (0.9 if family.font == CJK_FONT else 0.73)  # a Hangul syllable is 0.9 em tall, a capital 0.73
    letter = TextBox(label, x - 1, middle - 0.55 * size / PT_PER_MM, side + 2, size=size, font=family.font, bold=True, color=(255, 255, 255),
                     align="C")
    return mark, letter


def sheet_pdf(path: Path, family: Family, questions: list[Printed]) -> Path:
    """The question sheet, with a text layer; pages as many as it takes."""
    pages: list[PageSpec] = []
    boxes: list[PageItem] = []
    y = 20.0

    def box(text: str, x: float, width: float) -> TextBox:
        return TextBox(text, x, y, width, size=SIZE, font=family.font)

    for q in questions:
        cells = [_cell(family, label, text) for label, text in zip(family.labels, q.options)]
        rows = {"column": len(cells), "pairs": -(-len(cells) // 2), "row": 1, "grid": 2}[family.layout]
        stem_height = text_height(box(f"{q.number}. {q.stem}", 20, 170))  # as the font wraps it: options never overprint it
        if y + stem_height + rows * ROW_MM + 6 > 275:
            pages.append(PageSpec(tuple(boxes)))
            boxes, y = [], 20.0
        boxes.append(box(f"{q.number}. {q.stem}", 20, 170))
        y += stem_height + 1.5
        per_row = {"column": 1, "pairs": 2, "row": len(cells), "grid": 3}[family.layout]
        width = 164 / per_row
        for i in range(0, len(cells), per_row):
            for j, cell in enumerate(cells[i:i + per_row]):
                if family.mark:
                    boxes += _marked(family, family.labels[i + j], 26 + width * j, y)
                    side = family.mark_size * SIZE / PT_PER_MM
                    boxes.append(box(cell, 26 + width * j + side + 1.5, width - 5.5 - side))
                else:
                    boxes.append(box(cell, 26 + width * j, width - 4))
            y += ROW_MM
        y += 4
    pages.append(PageSpec(tuple(boxes)))
    return build_pdf(path, pages)


def key_pdf(path: Path, family: SheetFamily, questions: list[Printed], vocabulary: list[str]) -> Path:
    """A heading, then one "<word> 12: B" line per question, in columns of 30."""
    boxes = [TextBox(" ".join(vocabulary[:3]).capitalize() + " 2031", 20, 12, 170, size=12, font=family.font, bold=True)]
    boxes += [TextBox(f"{vocabulary[3].capitalize()} {q.number}: {q.answer}", 20 + 60 * (i // 30), 24 + 7 * (i % 30), 55, size=11,
                      font=family.font) for i, q in enumerate(questions)]
    return build_pdf(path, [PageSpec(tuple(boxes))])


KEY_ENTRY = r"(?<![\d.])(?P<number>\d{{1,3}}):\s*(?P<answer>[{labels}])(?!\w)"  # `key_pdf`'s "<word> 12: B"


def family_spec(family: Family, key_entry: str = KEY_ENTRY):
    """The family's spec; `key_entry` its key's entry, `{labels}` standing for the label characters."""
    # A key's stream reads an enclosed label as the plain one it encloses (② as 2), as keys mostly print it.
    labels = "".join(family.labels) + "".join(str(unicodedata.digit(label)) for label in family.labels if unicodedata.digit(label, None) is not None)
    options: dict = {"labels": list(family.labels), "min_count": len(family.labels)}
    if family.style:
        options["styles"] = [family.style]
    return generated_spec(f"scripts_{family.name.replace('-', '_')}", "generated sheets in other scripts, read by text layer and scanned",
                          family.language, family.tesseract, options, labels, key_entry)


def generated_spec(name: str, description: str, language: str, tesseract: str, options: dict, key_labels: str,
                   key_entry: str = KEY_ENTRY):
    """The spec of a generated sheet and its list key (`YYYY/sheet.pdf`, `YYYY/key.pdf`; entries as `key_entry` reads
    them, "12: B" by default, whose answer is one of `key_labels`), its questions numbered "1. ", its options as
    `options` says."""
    return parse_spec({
        "name": name,
        "description": description,
        "metadata": {"country": "XX", "language": language, "exam": "test", "subject": "test", "license_note": "generated"},
        "ocr": {"languages": [tesseract]},
        "local": {"files": [{"role": "sheet", "pattern": r"(?P<year>\d{4})/sheet\.pdf$"},
                            {"role": "key", "pattern": r"(?P<year>\d{4})/key\.pdf$"}]},
        "pairing": {"on": ["year"]},
        "layout": {"question_start": r"^(?P<number>\d{1,3})\.\s+(?=\S)", "options": options},
        "key": {"kind": "list", "entry": key_entry.format(labels=key_labels)},
    }, f"{name}.yaml")


# --------------------------------------------------------------------------- measuring


@dataclass
class Score:
    printed: int = 0
    found: int = 0
    options: int = 0
    options_exact: int = 0
    answers: int = 0

    def percent(self) -> tuple[float, float, float]:
        return (100 * self.found / self.printed, 100 * self.options_exact / self.options, 100 * self.answers / self.printed)

    def text(self) -> str:
        recall, options, answers = self.percent()
        return f"recall {recall:5.1f}  options {options:5.1f}  answers {answers:5.1f}"


def score(printed: list[Printed], records: dict[str, Question], family: SheetFamily, where: str, show: bool = False) -> Score:
    result = Score()
    for q in printed:
        result.printed += 1
        result.options += len(q.options)
        record = records.get(q.number)
        if record is None:
            if show:
                print(f"  {family.name} {where} lost {q.number}: {q.stem!r}", file=sys.stderr)
            continue
        result.found += 1
        read = [normalize_text(c.replace("**", "")) for c in record.choices]
        for at, option in enumerate(q.options):
            exact = at < len(read) and read[at] == normalize_text(option)
            result.options_exact += exact
            if show and not exact:
                print(f"  {family.name} {where} {q.number}{family.labels[at]}: {read[at] if at < len(read) else None!r} "
                      f"for {option!r}", file=sys.stderr)
        result.answers += record.answer == q.answer
        if show and record.answer != q.answer:
            print(f"  {family.name} {where} {q.number}: answer {record.answer!r} for {q.answer!r}", file=sys.stderr)
    return result


def generated_entry(path: Path, role: Literal["sheet", "key"], spec_name: str) -> ManifestEntry:
    """The manifest entry of a generated sheet or key of the year 2031 read from `path`."""
    return ManifestEntry(url=path.as_uri(), final_url=path.as_uri(), spec=spec_name, role=role, facts={"year": "2031"},
                         status="local", sha256="0" * 64, path=str(path))


def read_records(sheet: Path, key: Path, family: Family | None, disabled: tuple[str, ...] = (), cache: Path | None = None,
                 the_spec: SourceSpec | None = None, key_entry: str = KEY_ENTRY) -> dict[str, Question]:
    """Extract (text layer or OCR, as each page needs) and parse the sheet with its key, as a season run does, by
    the family's spec (its key's entries read by `key_entry`), or by `the_spec` when given."""
    if the_spec is None:
        assert family is not None, "a family or its spec"
        the_spec = family_spec(family, key_entry)
    options = ExtractOptions.from_spec(the_spec, ocr_cache_dir=str(cache) if cache else None)
    if disabled:
        options = replace(options, ocr=replace(options.ocr, disabled_passes=disabled))
    key_doc = extract_document(key, hashlib.sha256(key.read_bytes()).hexdigest(), options)
    sheet_doc = extract_document(sheet, hashlib.sha256(sheet.read_bytes()).hexdigest(), options)
    result = parse_sheet(sheet_doc, generated_entry(sheet, "sheet", the_spec.name), [(key_doc, generated_entry(key, "key", the_spec.name))], the_spec)
    return {q.number: q for q in result.questions}


def write_sheet(folder: Path, family: Family) -> tuple[list[Printed], Path, Path]:
    """The family's printed questions, and its sheet and key written with a text layer into `folder`."""
    vocabulary = _vocabulary(family)
    questions = printed_questions(family, vocabulary)
    return questions, sheet_pdf(folder / "sheet.pdf", family, questions), key_pdf(folder / "key.pdf", family, questions, vocabulary)


def measure(folder: Path, family: SheetFamily, scans: list[ScanSetting], disabled: tuple[str, ...] = (), show: bool = False,
            write: Callable[[Path, Any], tuple[list[Printed], Path, Path]] = write_sheet, key_entry: str = KEY_ENTRY,
            the_spec: SourceSpec | None = None, widths: tuple[int, int] = (14, 24)) -> list[str]:
    """The family's text path and each scan, one line each (`widths`: the name's and the scan's columns); `write`
    prints its sheet and key (`write_sheet`), whose entries `key_entry` reads, or `the_spec` when given."""
    # Without `the_spec` the family is this module's `Family`, whose spec `family_spec` writes.
    spec_of = None if the_spec is not None else cast(Family, family)
    folder = folder / f"seed{family.seed}"
    text = folder / family.name / "text" / "2031"
    text.mkdir(parents=True, exist_ok=True)
    questions, sheet, key = write(text, family)
    by_text = score(questions, read_records(sheet, key, spec_of, the_spec=the_spec, key_entry=key_entry), family, "text", show)
    name = f"{family.name} s{family.seed}"
    lines = [f"{name:{widths[0]}} {'text layer':{widths[1]}} {by_text.text()}"]
    for setting in scans:
        scanned = folder / family.name / setting.folder() / "2031"
        scanned.mkdir(parents=True, exist_ok=True)
        for clean in (sheet, key):
            setting.rasterise(clean, scanned / clean.name, seed=family.seed)
        records = read_records(scanned / "sheet.pdf", scanned / "key.pdf", spec_of, disabled, folder / "cache", the_spec, key_entry)
        by_scan = score(questions, records, family, setting.label(), show)
        gaps = [s - t for s, t in zip(by_scan.percent(), by_text.percent())]
        lines.append(f"{name:{widths[0]}} {setting.label():{widths[1]}} {by_scan.text()}   gap {gaps[0]:+6.1f} {gaps[1]:+6.1f} {gaps[2]:+6.1f}")
    return lines


def family_arguments(prog: str, doc: str, sets: list[str], scans: str) -> argparse.ArgumentParser:
    """The command line every generated-family tool takes (this module, `latinscans`, `scriptlayouts`)."""
    parser = argparse.ArgumentParser(prog=prog, description=doc.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="work folder: generated sheets, scans and the OCR cache")
    parser.add_argument("--set", choices=sets, default="all")
    parser.add_argument("--families", default="", help="only these families, comma-separated")
    parser.add_argument("--scans", default=scans, help=f"{SYNTAX} settings, comma-separated (tilt in degrees, grain 0.01 unless given)")
    parser.add_argument("--seeds", default="0", help="sheet variants, comma-separated: 0 is each family's own sheet, k another "
                        "sheet of the same family (other words, answers and grain)")
    parser.add_argument("--disable", default="", help="OCR passes to leave out, comma-separated")
    parser.add_argument("--show", action="store_true", help="print every question, option and answer the reading got wrong")
    return parser


def run_families(args: argparse.Namespace, sets: Mapping[str, Sequence[Any]], names: Sequence[str],
                 measure_family: Callable[[Path, Any, list[ScanSetting], tuple[str, ...], bool], list[str]]) -> int:
    """Each chosen family of the named sets measured (`measure_family`: text path and each scan, one line each) and its lines
    printed; a family whose Tesseract data or font is not installed, or whose language has no word list, is said skipped."""
    scans = ScanSetting.parse_list(args.scans)
    seeds = [int(s) for s in args.seeds.split(",")]
    chosen = set(filter(None, args.families.split(",")))
    disabled = tuple(filter(None, args.disable.split(",")))
    installed = installed_languages()
    for name in names:
        print(f"# {name}", flush=True)
        for family in sets[name]:
            if chosen and family.name not in chosen:
                continue
            if family.tesseract not in installed:
                print(f"{family.name:10} skipped: Tesseract data {family.tesseract} not installed", flush=True)
                continue
            if family.font == CJK_FONT and cjk_font() is None:
                print(f"{family.name:10} skipped: Noto Sans CJK not installed", flush=True)
                continue
            for seed in seeds:
                try:
                    lines = measure_family(args.out, replace(family, seed=family.seed + 100 * seed), scans, disabled, args.show)
                except LexiconUnavailable as exc:
                    lines = [f"{family.name:10} skipped: {exc}"]
                print("\n".join(lines), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = family_arguments("python -m pipeline.devkit.scriptscans", __doc__ or "", [*SETS, *GROUPS], "150/0.8/70,200/0.6/80,300/0.4/90")
    args = parser.parse_args(argv)
    return run_families(args, SETS, GROUPS.get(args.set, (args.set,)), measure)


if __name__ == "__main__":
    sys.exit(main())
