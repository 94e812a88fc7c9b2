"""Answer-key formats: each reads a key document into {number key: answer text}."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from dataclasses import replace

from pipeline.extract import UNREAD_CELL, ExtractedDocument, search_rule
from pipeline.parse.labels import number_key
from pipeline.parse.keyruns import ColumnRow, mend_column
from pipeline.parse.stream import StreamLine, line_stream, match_number_line, plain_text, rest_after, rows
from pipeline.patterns import spec_pattern
from pipeline.specs import KeySpec

_ROW_NUMBER = re.compile(r"^\s*(?P<number>\d{1,3}(?:\.\d{1,2})*)\.?(?:\s+(?P<rest>.*))?$")
MAX_ANSWER_LINES = 12


@dataclass
class KeyTable:
    name: str  # file name, for messages
    answers: dict[str, str] = field(default_factory=dict)  # number key -> answer text
    problems: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)  # variant codes the key has columns for
    voided: set[str] = field(default_factory=set)  # number keys whose entry says the question was annulled
    pilot: set[str] = field(default_factory=set)  # number keys marked as keyed, unscored pilot items
    unread: list[str] = field(default_factory=list)  # questions (as printed) whose answer cell OCR could not read


def read_marking_scheme(document: ExtractedDocument, spec: KeySpec, name: str) -> KeyTable:
    """Answers follow `answer_marker` inside the task opened by `task_start` (or, with no marker, make up
    the task's text); a page break between marker and answer does not matter (the stream runs across
    pages, footers already removed)."""
    task_re = spec_pattern(spec.task_start)
    marker_re = spec_pattern(spec.answer_marker) if spec.answer_marker else None
    end_re = spec_pattern(spec.answer_end) if spec.answer_end else None
    table = KeyTable(name)
    number: str | None = None
    collecting: list[str] | None = None
    for item in line_stream(document, spec.stop_at):
        task = match_number_line(task_re, item)
        if task:
            number = number_key(task.group("number"))
            collecting = None
            if marker_re is None and number not in table.answers:
                # No marker: the answer is the task's own text ("Α2. γ", "Α1. 1. Λάθος 2. Σωστό").
                rest = rest_after(item, task).strip(" :.")
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
        if collecting is not None and end_re is not None and end_re.search(item.text):
            collecting = None
            continue
        if collecting is not None and len(collecting) < MAX_ANSWER_LINES:
            collecting.append(item.text)
            table.answers[number] = "\n".join(collecting)
    table.answers = {k: v for k, v in table.answers.items() if v.strip()}
    return table


def read_variant_table(document: ExtractedDocument, spec: KeySpec, name: str) -> dict[str, KeyTable]:
    """Per variant code: a table. A header row naming variants opens a section. With several variants,
    each row is a number followed by one answer per variant column; with one variant, the answer is the
    text of the answer cell: everything between the number column and the next header column that lies
    in the number's row band (cells are centred vertically, so an answer may start above its number)."""
    header_re = spec_pattern(spec.variant_header)
    tables: dict[str, KeyTable] = {}
    section: list[str] = []
    single: list[tuple[str, float, float, list]] = []  # (variant, answer column centre, next column centre, rows)
    for row in rows(line_stream(document, spec.stop_at)):
        text = " ".join(plain_text(sl.text)[0] for sl in row)
        variants = [m.group("variant") for m in header_re.finditer(text)]
        if variants:
            section = variants
            for v in variants:
                tables.setdefault(v, KeyTable(name, variants=[]))
            if len(variants) == 1:
                header = next(sl for sl in row if header_re.search(sl.text))
                later = [(sl.line.x0 + sl.line.x1) / 2 for sl in row if sl.line.x0 > header.line.x1]
                centre = (header.line.x0 + header.line.x1) / 2
                single.append((variants[0], centre, min(later) if later else float("inf"), []))
            continue
        if not section:
            continue
        if len(section) == 1:
            single[-1][3].append(row)
            continue
        first = _ROW_NUMBER.match(row[0].text)
        if not first:
            continue
        number = number_key(first.group("number"))
        cells = ([first.group("rest")] if first.group("rest") else []) + [sl.text for sl in row[1:]]
        tokens = " ".join(cells).split()
        if len(tokens) < len(section):
            # Fewer answers than columns: which column lost its answer cannot be told, so none is taken.
            for variant in section:
                tables[variant].problems.append(
                    f"key row {first.group('number')}: {len(tokens)} answer(s) for {len(section)} columns {section}; row not read")
            continue
        if len(tokens) >= len(section):
            for variant, token in zip(section, tokens):
                if token == UNREAD_CELL:  # OCR found the cell and could not read it: its question is reported
                    tables[variant].unread.append(first.group("number"))
                    continue
                tables[variant].answers.setdefault(number, token)
    for variant, centre, next_centre, section_rows in single:
        for number, answer in _answer_cells(section_rows, centre, next_centre):
            tables[variant].answers.setdefault(number, answer)
    for table in tables.values():
        table.variants = sorted(tables)
    return tables


def _answer_cells(section_rows: list[list], centre: float, next_centre: float) -> list[tuple[str, str]]:
    """Cells centred under the answer header (closer to it than to the next column's header)."""
    lines = [sl for row in section_rows for sl in row]
    numbers = [(row[0], m) for row in section_rows if (m := _ROW_NUMBER.match(row[0].text))]
    result = []
    for i, (sl, match) in enumerate(numbers):
        row_middle = (sl.line.top + sl.line.bottom) / 2
        before = numbers[i - 1][0] if i and numbers[i - 1][0].page == sl.page else None
        after = numbers[i + 1][0] if i + 1 < len(numbers) and numbers[i + 1][0].page == sl.page else None
        low = (row_middle + (before.line.top + before.line.bottom) / 2) / 2 if before else -1.0
        high = (row_middle + (after.line.top + after.line.bottom) / 2) / 2 if after else float("inf")
        parts = [match.group("rest")] if match.group("rest") else []
        for other in lines:
            middle = (other.line.top + other.line.bottom) / 2
            if (
                other is not sl
                and other.page == sl.page
                and low <= middle < high
                and other.line.x0 >= sl.line.x1
                and abs((other.line.x0 + other.line.x1) / 2 - centre) < abs((other.line.x0 + other.line.x1) / 2 - next_centre)
            ):
                parts.append(other.text)
        answer = " ".join(p.strip() for p in parts if p.strip())
        if answer:
            result.append((number_key(match.group("number")), answer))
    return result


@dataclass
class _KeyColumn:
    """A key column opened by a section heading: its left edge and the prefix of its numbers."""

    x0: float
    top: str = ""
    prefix: str = ""


def read_list(document: ExtractedDocument, spec: KeySpec, name: str) -> KeyTable:
    """Rows of `entry` matches. A heading of one of `spec.sections` puts its prefix before the numbers
    below it in its column (the key's numbering restarts there, as the sheet's does; keys often print
    the parts side by side, "Primera parte" over the left column and "Segunda parte" over the right).
    On OCR'd pages an entry number misread or unread is mended from its column's run (`keyruns`)."""
    entry_re = spec_pattern(spec.entry)
    table = KeyTable(name)
    first = spec.sections[0] if spec.sections and spec.sections[0].start is None else None  # the part before any heading
    columns: list[_KeyColumn] = [_KeyColumn(float("-inf"), first.prefix, first.prefix) if first else _KeyColumn(float("-inf"))]
    runs: list[tuple[str, list[ColumnRow]]] = []  # (prefix, rows) of each column under each heading
    current: dict[int, tuple[str, list[ColumnRow]]] = {}
    for row in rows(line_stream(document, spec.stop_at)):
        by_column: dict[int, list[StreamLine]] = {}
        for sl in row:
            # Entries are matched on plain text: a bold number or letter is layout.
            text = plain_text(sl.text)[0]
            # A heading OCR misread ("Preauntas de reserva") still opens its section.
            rule = next((r for r in spec.sections if r.start and search_rule(r.start, text, ocr=sl.ocr)[0]), None)
            if rule is not None:
                _open_section(columns, sl.line.x0, rule)
                current = {}  # a heading starts new runs (column indexes may have shifted)
                continue
            index = max(i for i, c in enumerate(columns) if c.x0 <= sl.line.x0 + KEY_COLUMN_SLACK)
            by_column.setdefault(index, []).append(sl)
        for index, lines in by_column.items():
            text = "  ".join(plain_text(sl.text)[0] for sl in lines)
            entries = [
                (m.group("number"), m.group("answer").strip(),
                 bool(spec.pilot_mark) and text[m.end("number"):].startswith(spec.pilot_mark))
                for m in entry_re.finditer(text)
            ]
            prefix = columns[index].prefix
            if index not in current or current[index][0] != prefix:
                current[index] = (prefix, [])
                runs.append(current[index])
            current[index][1].append(ColumnRow(text, entries, any(sl.ocr for sl in lines)))
    for prefix, column_rows in runs:
        column = mend_column(column_rows, entry_re)
        for raw, answer, pilot in column.entries:
            number = number_key(prefix + raw)
            if number in table.answers:
                if table.answers[number] != answer:
                    table.problems.append(f"question {prefix + raw} keyed twice ({table.answers[number]}, {answer}); first kept")
                continue
            table.answers[number] = answer
            if pilot:
                table.pilot.add(number)
        table.problems += [f"key entry {m.replace('taken as ', 'taken as ' + prefix)} from its column's run"
                           for m in column.mended]
        table.problems += [f"key line {text!r} among the entries could not be read as one (OCR)"
                           for text in column.unread]
        lines = [row.text.strip() for row in column_rows if row.ocr and row.text.strip()]
        if prefix and not column.entries and lines:
            # A part of the key opened by its heading where OCR read no entry at all: its rows are all lost.
            shown = ", ".join(repr(text) for text in lines[:8]) + (", ..." if len(lines) > 8 else "")
            table.problems.append(f"key part {prefix}: {len(lines)} line(s) read but none as an entry (OCR): {shown}")
    return table


KEY_COLUMN_SLACK = 12.0  # points a line may start left of its column's heading


def _open_section(columns: list[_KeyColumn], x0: float, rule) -> None:
    column = next((c for c in columns if abs(c.x0 - x0) <= KEY_COLUMN_SLACK), None)
    if column is None:
        column = _KeyColumn(x0)
        columns.append(column)
        columns.sort(key=lambda c: c.x0)
    if rule.nested:
        column.prefix = column.top + rule.prefix
    else:
        column.top = column.prefix = rule.prefix


def is_voided(answer: str, voided: list[str] | tuple[str, ...]) -> bool:
    """Whether a key entry means the question was annulled: the whole entry, ignoring case."""
    return answer.strip().casefold() in {v.casefold() for v in voided}


def mark_voided(table: KeyTable, spec: KeySpec) -> None:
    """Entries that say the question was annulled ("Anulada", "-"): recorded in `table.voided`."""
    table.voided |= {number for number, answer in table.answers.items() if is_voided(answer, spec.voided)}


def key_in_sheet(sheet: ExtractedDocument, start: str) -> ExtractedDocument | None:
    """The part of a booklet from the line matching `start` on (its printed answer key), or None."""
    pattern = spec_pattern(start)
    for index, page in enumerate(sheet.pages):
        for position, line in enumerate(page.lines):
            if pattern.search(line.text):
                first = replace(page, lines=page.lines[position:])
                pages = [first, *sheet.pages[index + 1:]]
                return replace(sheet, pages=pages, page_count=len(pages))
    return None


def find_variant(sheet: ExtractedDocument, spec: KeySpec) -> str | None:
    pattern = spec_pattern(spec.variant_pattern, re.MULTILINE)
    for page in sheet.pages:
        match = pattern.search(page.text)
        if match:
            return match.group("variant")
    return None
