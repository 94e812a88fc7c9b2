"""Answer-key formats: each reads a key document into {number key: answer text}."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.document import ExtractedDocument
from pipeline.parse.labels import number_key
from pipeline.parse.stream import line_stream, rows
from pipeline.specs import KeySpec

_ROW_NUMBER = re.compile(r"^\s*(?P<number>\d{1,3}(?:\.\d{1,2})*)\.?(?:\s+(?P<rest>.*))?$")
MAX_ANSWER_LINES = 12


@dataclass
class KeyTable:
    name: str  # file name, for messages
    answers: dict[str, str] = field(default_factory=dict)  # number key -> answer text
    problems: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)  # variant codes the key has columns for


def read_marking_scheme(document: ExtractedDocument, spec: KeySpec, name: str) -> KeyTable:
    """Answers follow `answer_marker` inside the task opened by `task_start` (or, with no marker, make up
    the task's text); a page break between marker and answer does not matter (the stream runs across
    pages, footers already removed)."""
    task_re = re.compile(spec.task_start)
    marker_re = re.compile(spec.answer_marker) if spec.answer_marker else None
    table = KeyTable(name)
    number: str | None = None
    collecting: list[str] | None = None
    for item in line_stream(document, spec.stop_at):
        task = task_re.match(item.text)
        if task:
            number = number_key(task.group("number"))
            collecting = None
            if marker_re is None and number not in table.answers:
                # No marker: the answer is the task's own text ("Α2. γ", "Α1. 1. Λάθος 2. Σωστό").
                rest = item.text[task.end():].strip(" :.")
                collecting = [rest] if rest else []
                table.answers[number] = rest
            continue
        marker = marker_re.search(item.text) if marker_re else None
        if marker and number is not None and number not in table.answers:
            collecting = []
            rest = item.text[marker.end():].strip(" :")
            if rest:
                collecting.append(rest)
            table.answers[number] = ""
            continue
        if collecting is not None and len(collecting) < MAX_ANSWER_LINES:
            collecting.append(item.text)
            table.answers[number] = "\n".join(collecting)
    table.answers = {k: v for k, v in table.answers.items() if v.strip()}
    return table


def read_variant_table(document: ExtractedDocument, spec: KeySpec, name: str) -> dict[str, KeyTable]:
    """Per variant code: a table. A header row naming variants opens a section; in it, each row is a
    number followed by one answer per variant column (or, for a single-variant section, the answer)."""
    header_re = re.compile(spec.variant_header)
    tables: dict[str, KeyTable] = {}
    section: list[str] = []
    for row in rows(line_stream(document, spec.stop_at)):
        text = " ".join(sl.text for sl in row)
        variants = [m.group("variant") for m in header_re.finditer(text)]
        if variants:
            section = variants
            for v in variants:
                tables.setdefault(v, KeyTable(name, variants=[]))
            continue
        if not section:
            continue
        first = _ROW_NUMBER.match(row[0].text)
        if not first:
            continue
        number = number_key(first.group("number"))
        cells = ([first.group("rest")] if first.group("rest") else []) + [sl.text for sl in row[1:]]
        if len(section) == 1:
            if cells:
                tables[section[0]].answers.setdefault(number, cells[0].strip())
            continue
        tokens = " ".join(cells).split()
        if len(tokens) >= len(section):
            for variant, token in zip(section, tokens):
                tables[variant].answers.setdefault(number, token)
    for table in tables.values():
        table.variants = sorted(tables)
    return tables


def read_list(document: ExtractedDocument, spec: KeySpec, name: str) -> KeyTable:
    entry_re = re.compile(spec.entry)
    table = KeyTable(name)
    for row in rows(line_stream(document, spec.stop_at)):
        text = "  ".join(sl.text for sl in row)
        for match in entry_re.finditer(text):
            table.answers.setdefault(number_key(match.group("number")), match.group("answer").strip())
    return table


def find_variant(sheet: ExtractedDocument, spec: KeySpec) -> str | None:
    pattern = re.compile(spec.variant_pattern, re.MULTILINE)
    for page in sheet.pages:
        match = pattern.search(page.text)
        if match:
            return match.group("variant")
    return None
