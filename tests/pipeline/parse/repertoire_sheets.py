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


def spec(layout: dict | None = None, key: dict | None = None, options: dict | None = None) -> SourceSpec:
    """The base spec with `layout`, `key` and `layout.options` fields replaced, validated as a YAML file is."""
    data = copy.deepcopy(_BASE)
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


def question_rows(q: Item, y: float, x: float = LEFT, style: str = "{}) ", columns: int = 1, width: float = 80) -> tuple[list[TextBox], float]:
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
