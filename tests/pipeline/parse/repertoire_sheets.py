"""Builders for the layout-repertoire tests: a spec written inline the way a curator writes one, and
generated sheets and keys made of questions laid out in the ways real national exams print them."""
from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from pipeline.devkit.sample.pdfgen import PageSpec, TextBox, build_pdf
from pipeline.parse import ParseResult
from pipeline.records import Question
from pipeline.specs import SourceSpec, parse_spec
from tests.pipeline.parse.conftest import run_family

SPEC_NAME = "repertoire_test"
SIZE = 10  # points: body text of every generated sheet
ROW = 5.5  # mm from one line's top to the next line's at SIZE
LEFT = 20.0  # mm: left edge of question numbers
OPTION_INDENT = 6.0  # mm: option labels right of the question numbers
PART_HEADINGS = {"layout": ("PRIMERA PARTE", "SEGUNDA PARTE"), "key": ("Primera parte", "Segunda parte")}
RESERVE_HEADING = "Preguntas de reserva"

SECTIONS = {
    "layout": [
        {"start": "^PRIMERA PARTE", "prefix": "1."},
        {"start": "^SEGUNDA PARTE", "prefix": "2."},
        {"start": "(?i)^preguntas de reserva", "prefix": "R", "nested": True, "reserve": True},
    ],
    "key": [
        {"start": "^Primera parte", "prefix": "1."},
        {"start": "^Segunda parte", "prefix": "2."},
        {"start": "(?i)^preguntas de reserva", "prefix": "R", "nested": True, "reserve": True},
    ],
}

_BASE = {
    "name": SPEC_NAME,
    "description": "generated sheets, one per layout of the repertoire",
    "metadata": {"country": "ES", "language": "es", "exam": "test", "subject": "derecho", "license_note": "generated"},
    "ocr": {"languages": ["spa"]},
    "local": {
        "files": [
            {"role": "sheet", "pattern": r"(?P<year>\d{4})/sheet\.pdf$"},
            {"role": "key", "pattern": r"(?P<year>\d{4})/key\.pdf$"},
        ]
    },
    "pairing": {"on": ["year"]},
    "layout": {
        "question_start": r"^(?P<number>\d{1,3})\.\s+(?=\S)",
        "options": {"labels": ["A", "B", "C", "D"], "styles": ["A)"]},
    },
    "key": {"kind": "list", "entry": r"(?<![\d.])(?P<number>\d{1,3})\.\s*(?P<answer>[A-D])\b"},
}


def spec(layout: dict | None = None, key: dict | None = None, options: dict | None = None, pairing: dict | None = None) -> SourceSpec:
    """The base spec with `layout`, `key`, `layout.options` and `pairing` fields replaced, validated as a
    YAML file is."""
    data = copy.deepcopy(_BASE)
    data["pairing"].update(pairing or {})
    data["layout"].update(layout or {})
    data["layout"]["options"].update(options or {})
    data["key"] = {**data["key"], **(key or {})}
    return parse_spec(data, f"{SPEC_NAME}.yaml")


@dataclass(frozen=True)
class Item:
    """One question as printed: number, stem and option texts (labels added by the sheet)."""

    number: str
    stem: str
    options: tuple[str, ...]


def item(number: int | str, options: int = 4, stem: str | None = None) -> Item:
    """Question `number` with `options` distinct option texts ("opción b de 3")."""
    labels = "ABCDEFGHIJ"[:options]
    return Item(str(number), stem or f"Enunciado de la pregunta {number}", tuple(f"opción {x.lower()} de {number}" for x in labels))


def question_rows(
    q: Item, y: float, x: float = LEFT, style: str = "{}) ", columns: int = 1, width: float = 80
) -> tuple[list[TextBox], float]:
    """A question block from `y` down: its header, then its options in `columns` columns, row by row
    (A B / C D in two columns). Returns the boxes and the `y` under the block."""
    boxes = [TextBox(f"{q.number}. {q.stem}", x, y, 170, size=SIZE)]
    y += ROW + 1
    column_width = width / columns
    for index, text in enumerate(q.options):
        row, column = divmod(index, columns)
        label = style.format("ABCDEFGHIJ"[index])
        boxes.append(TextBox(f"{label}{text}", x + OPTION_INDENT + column * column_width, y + row * ROW, column_width - 2, size=SIZE))
    rows = -(-len(q.options) // columns)
    return boxes, y + rows * ROW + 3


def lines_at(texts: list[str], x: float, y: float) -> list[TextBox]:
    return [TextBox(t, x, y + ROW * i, 80, size=SIZE) for i, t in enumerate(texts)]


def pdf(path: Path, *pages: list[TextBox]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    return build_pdf(path, [PageSpec(tuple(p)) for p in pages])


def sheet_of(path: Path, questions: list[Item], **rows) -> Path:
    """A one-page sheet of `questions`, one after another."""
    boxes, y = [], 20.0
    for q in questions:
        found, y = question_rows(q, y, **rows)
        boxes += found
    return pdf(path, boxes)


def run(the_spec: SourceSpec, sheet: Path, key: Path | None = None) -> ParseResult:
    return run_family(the_spec, sheet, [key] if key else [], {"year": "2031"})


def by_number(result: ParseResult) -> dict[str, Question]:
    return {q.number: q for q in result.questions}


# --------------------------------------------------------------------------- two parts, each with reserves

PART_QUESTIONS, PART_RESERVES = 3, 2
# The answer of every question of the two-part sheet: main part, then its reserve questions.
PART_ANSWERS = {"1": "ABC", "1.R": "DA", "2": "BCD", "2.R": "CB"}


def two_part_sheet(path: Path) -> Path:
    """A booklet in two parts, one page each, whose numbering restarts at 1 in each part and again in
    each part's "Preguntas de reserva"; a stem says where it stands ("Reserva 2 de la parte 1")."""
    pages = []
    for part, heading in enumerate(PART_HEADINGS["layout"], start=1):
        boxes, y = [TextBox(heading, LEFT, 20, 170, size=12, bold=True)], 29.0
        for n in range(1, PART_QUESTIONS + 1):
            found, y = question_rows(item(n, stem=f"Pregunta {n} de la parte {part}"), y)
            boxes += found
        boxes.append(TextBox(RESERVE_HEADING, LEFT, y, 170, size=11, bold=True))
        y += 8
        for n in range(1, PART_RESERVES + 1):
            found, y = question_rows(item(n, stem=f"Reserva {n} de la parte {part}"), y)
            boxes += found
        pages.append(boxes)
    return pdf(path, *pages)


def side_by_side_key(path: Path) -> Path:
    """The key with the parts side by side: "Primera parte" over the left column, "Segunda parte"
    over the right, each column with its own "Preguntas de reserva" lower down."""
    boxes = [TextBox("PLANTILLA DE RESPUESTAS", LEFT, 18, 170, size=12)]
    for part, (heading, x) in enumerate(zip(PART_HEADINGS["key"], (20, 110)), start=1):
        main = [f"{i}. {a}" for i, a in enumerate(PART_ANSWERS[str(part)], 1)]
        reserve = [f"{i}. {a}" for i, a in enumerate(PART_ANSWERS[f"{part}.R"], 1)]
        boxes += lines_at([heading, *main, RESERVE_HEADING, *reserve], x, 30)
    return pdf(path, boxes)


def expected_part_answers() -> dict[str, str]:
    """Record number -> key answer: 1.1 … 1.3, 1.R1, 1.R2, 2.1 …"""
    return {
        f"{prefix}{n}": answer
        for part in ("1", "2")
        for prefix, answers in ((f"{part}.", PART_ANSWERS[part]), (f"{part}.R", PART_ANSWERS[f"{part}.R"]))
        for n, answer in enumerate(answers, start=1)
    }
