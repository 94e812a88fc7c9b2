"""Latin-script question sheets in layouts and typography `scriptscans` does not print: two-column pages, options
in a 2×2 grid or inline in the stem's paragraph, hanging indents, bold option text, 9-point serif, long wrapping
stems, a formula line or a small table in a stem, other question numberings, a running header and page numbers.

    python -m pipeline.devkit.latinscans --out /tmp/latin [--set tuning|checking|all] [--families cs-twocol,...]
        [--scans 150/0.8/70,200/0.6/80,300/0.4/90,200/0.6/80/1.0/0.03] [--disable PASS,...] [--show]

Each family is one sheet in its language's words (Tesseract's word list for it, as `scriptscans` makes them) and
a list key; the sheet and key are written with a text layer and scanned per setting, read as a season run reads
them and scored as `scriptscans` scores (recall, options exact, answers), each scan beside its text path.
`tuning` families are those a mechanism may be built on; `checking` families only report.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pipeline.devkit.sample.pdfgen import Line, PageItem, PageSpec, Rect, TextBox, build_pdf, text_height
from pipeline.devkit.sample.scansetting import ScanSetting
from pipeline.devkit import scriptscans
from pipeline.devkit.scriptscans import Printed, _phrase, _vocabulary, family_arguments, key_pdf, run_families
from pipeline.specs import SourceSpec, parse_spec

# How a question's number is printed, with the regex a spec reads it by.
NUMBERINGS = {
    "dot": ("{n}.", r"^(?P<number>\d{1,3})\.\s+(?=\S)"),
    "paren": ("{n})", r"^(?P<number>\d{1,3})\)\s+(?=\S)"),
    "question": ("Question {n}", r"^Question\s+(?P<number>\d{1,3})\b"),
    "zadanie": ("Zadanie {n}.", r"^Zadanie\s+(?P<number>\d{1,3})\."),
}


@dataclass(frozen=True)
class LatinFamily:
    name: str
    language: str  # ISO 639-1, for the spec
    tesseract: str
    labels: tuple[str, ...]
    style: str  # how a label is printed, written with "A"
    options: Literal["column", "grid", "inline"]  # one per line; two per row (2×2); run on in the stem's paragraph
    seed: int
    numbering: str = "dot"  # a key of NUMBERINGS
    font: str = "DejaVuSans"
    size: float = 10.5
    columns: int = 1  # 2: questions flow down the left column, then the right
    hanging: bool = False  # an option's text in its own block right of its label, wrapped lines under the text
    bold_options: bool = False  # option text in bold (labels regular)
    furniture: bool = False  # a running header and "– n –" page numbers on every page
    extra: Literal["", "formula", "table"] = ""  # a centred formula line or a 2×3 table of numbers under the stem
    stem_words: tuple[int, int] = (6, 14)
    option_words: tuple[int, int] = (1, 4)
    number_alone: bool = False  # the number on its own line above the stem (`Question 12`)
    questions: int = 12


TUNING = (
    LatinFamily("cs-twocol", "cs", "ces", ("A", "B", "C", "D"), "A)", "column", 81, columns=2, furniture=True, size=10),
    LatinFamily("es-inline", "es", "spa", ("A", "B", "C", "D"), "A)", "inline", 82, numbering="paren", font="DejaVuSerif",
                option_words=(1, 2)),
    LatinFamily("tr-hanging", "tr", "tur", ("A", "B", "C", "D", "E"), "A)", "column", 83, numbering="paren", font="DejaVuSerif",
                hanging=True, furniture=True, option_words=(3, 12), size=10),
    LatinFamily("pl-zadanie-grid", "pl", "pol", ("a", "b", "c", "d"), "(A)", "grid", 84, numbering="zadanie", extra="table",
                option_words=(1, 3)),
)
CHECKING = (
    LatinFamily("en-question-bold", "en", "eng", ("A", "B", "C", "D"), "A.", "column", 91, numbering="question", hanging=True,
                bold_options=True, extra="formula", number_alone=True),
    LatinFamily("vi-serif9-lower", "vi", "vie", ("a", "b", "c", "d"), "A)", "column", 92, font="DejaVuSerif", size=9,
                stem_words=(22, 34), option_words=(2, 6)),
    LatinFamily("sk-twocol-grid", "sk", "slk", ("A", "B", "C", "D"), "A.", "grid", 93, columns=2, furniture=True, size=9.5,
                option_words=(1, 2)),
    LatinFamily("pt-inline-long", "pt", "por", ("A", "B", "C", "D", "E"), "(A)", "inline", 94,
                option_words=(2, 4)),
    # Added before the Vietnamese tone-mark and lower-case key work, which was done on `vi-serif9-lower`: another
    # Vietnamese sheet in another type (10-point sans), options two a row, `a.` labels, never looked at while working.
    LatinFamily("vi-sans10-pairs", "vi", "vie", ("a", "b", "c", "d"), "A.", "grid", 95, size=10, stem_words=(14, 24),
                option_words=(1, 3)),
)
SETS = {"tuning": TUNING, "checking": CHECKING}
SCANS = "150/0.8/70,200/0.6/80,300/0.4/90,200/0.6/80/1.0/0.03"


# --------------------------------------------------------------------------- sheets


def printed_questions(family: LatinFamily, vocabulary: list[str]) -> list[Printed]:
    rng = random.Random(family.seed)
    questions = []
    for n in range(1, family.questions + 1):
        stem = _phrase(rng, vocabulary, rng.randint(*family.stem_words))
        stem = stem[:1].upper() + stem[1:] + ("?" if family.options == "inline" else ".")
        options = tuple(_phrase(rng, vocabulary, rng.randint(*family.option_words)) for _ in family.labels)
        questions.append(Printed(str(n), stem, options, rng.choice(family.labels)))
    return questions


def _label(family: LatinFamily, label: str) -> str:
    return family.style.replace("A", label)


def _question_items(family: LatinFamily, q: Printed, x: float, y: float, width: float, rng: random.Random) -> list[PageItem]:
    """A question's boxes from (x, y) down, in a column `width` mm wide."""
    size, font = family.size, family.font
    row = size * 1.3 / 2.835

    def box(text: str, left: float, top: float, w: float, bold: bool = False) -> TextBox:
        return TextBox(text, left, top, w, size=size, font=font, bold=bold, line_spacing=1.2)

    number = NUMBERINGS[family.numbering][0].format(n=q.number)
    items: list[PageItem] = []
    stem = q.stem
    if family.options == "inline":
        stem += " " + " ".join(f"{_label(family, label)} {text}" for label, text in zip(family.labels, q.options))
    if family.number_alone:
        items.append(box(number, x, y, width, bold=True))
        y += row + 0.5
        items.append(box(stem, x, y, width))
    else:
        items.append(box(f"{number} {stem}", x, y, width))
    y = _bottom(items) + 1.0
    if family.extra == "formula":
        a, b, c = rng.randint(2, 9), rng.randint(2, 19), rng.randint(10, 99)
        items.append(TextBox(f"{a}x + {b} = {c}", x, y, width, size=size, font=font, align="C"))
        y = _bottom(items) + 1.0
    elif family.extra == "table":
        cell_w, cell_h = 16.0, row + 1.2
        for r in range(2):
            for col in range(3):
                items.append(Rect(x + 6 + col * cell_w, y + r * cell_h, cell_w, cell_h, stroke=(0, 0, 0), line_width=0.25))
                items.append(TextBox(str(rng.randint(10, 999)), x + 6 + col * cell_w, y + r * cell_h + 0.6, cell_w, size=size - 1,
                                     font=font, align="C"))
        y += 2 * cell_h + 1.5
    if family.options == "inline":
        return items
    per_row = 2 if family.options == "grid" else 1
    cell_w = (width - 6) / per_row
    label_w = size * 0.9 / 2.835 * max(1, len(_label(family, "A")))
    for i in range(0, len(q.options), per_row):
        row_items: list[PageItem] = []
        for j, (label, text) in enumerate(zip(family.labels[i:i + per_row], q.options[i:i + per_row])):
            left = x + 6 + j * cell_w
            if family.hanging or family.bold_options:
                row_items.append(box(_label(family, label), left, y, label_w + 2))
                row_items.append(box(text, left + label_w + 1.5, y, cell_w - label_w - 3, bold=family.bold_options))
            else:
                row_items.append(box(f"{_label(family, label)} {text}", left, y, cell_w - 3))
        items += row_items
        y = _bottom(row_items) + 0.6
    return items


def _bottom(items: list[PageItem]) -> float:
    return max(item.y + text_height(item) if isinstance(item, TextBox) else getattr(item, "y", 0) + getattr(item, "h", 0) for item in items)


def _furniture(family: LatinFamily, vocabulary: list[str], page: int) -> list[PageItem]:
    title = " ".join(vocabulary[5:8]).capitalize() + " 2031"
    return [TextBox(title, 20, 10, 170, size=8, font=family.font, align="C"), Line(20, 15, 190, 15, width=0.3),
            TextBox(f"– {page} –", 20, 284, 170, size=9, font=family.font, align="C")]


def sheet_pdf(path: Path, family: LatinFamily, questions: list[Printed], vocabulary: list[str]) -> Path:
    """The sheet with a text layer: questions flow down a column, then the next column, then the next page."""
    rng = random.Random(family.seed * 7)
    top, bottom = (20.0, 278.0) if family.furniture else (18.0, 282.0)
    gap = 8.0
    width = (170 - gap * (family.columns - 1)) / family.columns
    pages: list[PageSpec] = []
    items: list[PageItem] = []
    column, y = 0, top
    for q in questions:
        state = rng.getstate()
        block = _question_items(family, q, 0, 0, width, rng)
        height = _bottom(block)
        if y + height > bottom:
            column, y = column + 1, top
            if column == family.columns:
                pages.append(PageSpec(tuple(items + (_furniture(family, vocabulary, len(pages) + 1) if family.furniture else []))))
                items, column = [], 0
        rng.setstate(state)
        items += _question_items(family, q, 20 + column * (width + gap), y, width, rng)
        y += height + 4.0
    pages.append(PageSpec(tuple(items + (_furniture(family, vocabulary, len(pages) + 1) if family.furniture else []))))
    return build_pdf(path, pages)


def family_spec(family: LatinFamily) -> SourceSpec:
    name = f"latin_{family.name.replace('-', '_')}"
    return parse_spec({
        "name": name,
        "description": "generated Latin-script sheets in unseen layouts, read by text layer and scanned",
        "metadata": {"country": "XX", "language": family.language, "exam": "test", "subject": "test", "license_note": "generated"},
        "ocr": {"languages": [family.tesseract]},
        "local": {"files": [{"role": "sheet", "pattern": r"(?P<year>\d{4})/sheet\.pdf$"},
                            {"role": "key", "pattern": r"(?P<year>\d{4})/key\.pdf$"}]},
        "pairing": {"on": ["year"]},
        "layout": {"question_start": NUMBERINGS[family.numbering][1],
                   "options": {"labels": list(family.labels), "min_count": len(family.labels), "styles": [family.style]}},
        "key": {"kind": "list", "entry": rf"(?<![\d.])(?P<number>\d{{1,3}}):\s*(?P<answer>[{''.join(family.labels)}])(?!\w)"},
    }, f"{name}.yaml")


# --------------------------------------------------------------------------- measuring


def measure(folder: Path, family: LatinFamily, scans: list[ScanSetting], disabled: tuple[str, ...] = (), show: bool = False) -> list[str]:
    def write(text: Path, family: LatinFamily) -> tuple[list[Printed], Path, Path]:
        vocabulary = _vocabulary(family)
        questions = printed_questions(family, vocabulary)
        return questions, sheet_pdf(text / "sheet.pdf", family, questions, vocabulary), key_pdf(text / "key.pdf", family, questions, vocabulary)

    return scriptscans.measure(folder, family, scans, disabled, show, write=write, the_spec=family_spec(family), widths=(22, 30))


def main(argv: list[str] | None = None) -> int:
    parser = family_arguments("python -m pipeline.devkit.latinscans", __doc__ or "", [*SETS, "all"], SCANS)
    args = parser.parse_args(argv)
    return run_families(args, SETS, list(SETS) if args.set == "all" else [args.set], measure)


if __name__ == "__main__":
    sys.exit(main())
