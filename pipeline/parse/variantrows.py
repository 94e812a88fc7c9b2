"""The rows of a key table with one answer column per booklet type, as OCR read them, placed by the
table's geometry and its numbering.

On a scan the table passes write one line per cell, but what Tesseract read off the rules between the
rows comes too ("5 | I | i"), a number cell may be glued to the row above ("16 AŚ" beside "15") and a
row may lose its number. Taking a row's tokens left to right then gives a rule's remnant as an answer,
or the next question's answers to this one, and drops a number-less row without a word. Here:
- each answer is taken from the cell under its column: the columns' centres are learnt from the rows
  that hold exactly one cell per column, and a row's cells go to the nearest centre (a cell in the
  number's column is no answer);
- numbers count up: a row whose number is not in the longest rising run of the section's numbers is
  out of order and not read (reported);
- a row without a number, one cell per column, standing between rows numbered n−1 and n+1, is row n
  (reported as mended from the run);
- every number between the first and the last read that got no answer is reported unread, for each
  booklet type of the section (`key.cell_unread`): nothing is lost silently; but the numbers between two
  rows read one row pitch apart (`05` right above `09`: a key of the closed questions only) are no entries.
Rows of a text layer are not placed here (`keys.read_variant_table` reads them as before).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from statistics import median

from pipeline.extract import UNREAD_CELL
from pipeline.parse.labels import number_key
from pipeline.parse.stream import StreamLine, plain_text

CENTRED_WITHIN = 0.25  # of the columns' spacing: how far off its column's centre a cell not spanning it may stand
ADJACENT_ROWS = 1.5  # of the row pitch: two rows nearer than this have no row between them
ROW_NUMBER = re.compile(r"^\s*(?P<number>\d{1,3}(?:\.\d{1,2})*)\.?(?:\s+(?P<rest>.*))?$")


@dataclass
class SectionRow:
    """One row of a section: its number (as printed) and the cells right of it, or no number."""

    number: str | None
    number_line: StreamLine | None
    cells: list[StreamLine]
    rest: str = ""  # text read after the number in the number's own cell


@dataclass
class PlacedSection:
    """What the rows of one section give each booklet type."""

    answers: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # variant -> (number key, answer)
    unread: dict[str, list[str]] = field(default_factory=dict)  # variant -> questions (as printed)
    problems: list[str] = field(default_factory=list)  # for every variant of the section


def section_row(row: list[StreamLine]) -> SectionRow:
    first = ROW_NUMBER.match(plain_text(row[0].text)[0])
    if not first:
        return SectionRow(None, None, list(row))
    return SectionRow(first.group("number"), row[0], list(row[1:]), (first.group("rest") or "").strip())


def _middle(line: StreamLine) -> float:
    return (line.line.x0 + line.line.x1) / 2


def _centres(rows: list[SectionRow], width: int) -> list[float] | None:
    """Each answer column's centre, from the numbered rows with exactly one cell per column."""
    clean = [row for row in rows if row.number and not row.rest and len(row.cells) == width]
    if not clean:
        return None
    first = [median(_middle(row.cells[k]) for row in clean) for k in range(width)]
    # Few clean rows (a soft scan) may hold a misplaced reading: the centre is then that of every cell of
    # every row that stands nearest it, within half the columns' spacing.
    spacing = min((b - a for a, b in zip(first, first[1:])), default=float("inf"))
    near: list[list[float]] = [[] for _ in first]
    for row in rows:
        for cell in row.cells:
            distance, k = min((abs(_middle(cell) - c), k) for k, c in enumerate(first))
            if distance <= spacing / 2:
                near[k].append(_middle(cell))
    return [median(middles) if middles else centre for centre, middles in zip(first, near)]


def _in_columns(row: SectionRow, centres: list[float]) -> list[list[str]]:
    """The tokens under each column: every cell goes to the nearest centre, within half the columns'
    spacing; a cell over the number's own column is no answer. A cell's text stands about the column's
    centre or spans it; a reading in a column's outer quarters that does not reach its centre is what
    Tesseract made of a rule or a fill's edge beside the cell (`O,` off a grey fill's edge, with the cell's
    own `D` lost), no answer: the cell is reported unread rather than keyed with it."""
    spacing = min((b - a for a, b in zip(centres, centres[1:])), default=float("inf"))
    columns: list[list[str]] = [[] for _ in centres]
    for cell in row.cells:
        if row.number_line is not None and cell.line.x0 < row.number_line.line.x1:
            continue
        distance, k = min((abs(_middle(cell) - c), k) for k, c in enumerate(centres))
        spans = cell.line.x0 <= centres[k] <= cell.line.x1
        if distance <= spacing / 2 and (spans or distance <= CENTRED_WITHIN * spacing):
            columns[k] += plain_text(cell.text)[0].split()
    return columns


def place_section(section: list[str], rows: list[SectionRow]) -> PlacedSection:
    """The answers of each of `section`'s booklet types from the section's OCR'd `rows`, top to bottom."""
    placed = PlacedSection({v: [] for v in section}, {v: [] for v in section})
    centres = _centres(rows, len(section))
    widths = [len(row.cells) for row in rows if row.number and not row.rest]
    common = max(set(widths), key=widths.count) if widths else 0
    if centres is None and common > len(section):
        # The header's reading lost a booklet type ("C Kitapçığı" read as "CcC. sı"): which column is whose
        # cannot be told, so no column is read, and every question is reported below.
        placed.problems.append(f"key table header names {len(section)} booklet type(s) {section} over rows of {common} "
                               "answer cells: a header cell was misread; its rows are not read (OCR)")
    in_order = _rising(rows)
    numbered = sorted(in_order)
    read: set[int] = set()  # numbers whose row was placed (answered or reported)
    places: dict[int, tuple[int, float]] = {}  # number -> (page, middle) of its row, for the rows numbered as read
    for index, row in enumerate(rows):
        if row.number is None:
            number = _between(rows, numbered, index)
            if number is None or centres is None:
                continue
            columns = _in_columns(row, centres)
            if any(len(tokens) != 1 for tokens in columns):
                continue
            placed.problems.append(f"key row {number}: its number unread, taken from the rows above and below it (OCR)")
            printed = str(number)
        else:
            printed = row.number
            columns = _in_columns(row, centres) if centres is not None else _by_order(row, len(section))
        value = int(printed) if printed.isdecimal() else None
        if value is not None and row.number is not None and index not in in_order:
            placed.problems.append(f"key row {printed}: out of the rows' order, not read (OCR)")
            continue
        if value is not None:
            read.add(value)
            if row.number_line is not None:
                places[value] = (row.number_line.page, (row.number_line.line.top + row.number_line.line.bottom) / 2)
        for variant, tokens in zip(section, columns):
            if len(tokens) == 1 and tokens[0] != UNREAD_CELL:
                placed.answers[variant].append((number_key(printed), tokens[0]))
            else:  # blank, unread, or two readings in one cell: reported for its question
                placed.unread[variant].append(printed)
    if read:
        for missing in sorted(set(range(min(read), max(read) + 1)) - read - _not_in_table(places)):
            for variant in section:
                placed.unread[variant].append(str(missing))
    return placed


def _not_in_table(places: dict[int, tuple[int, float]]) -> set[int]:
    """The numbers a key leaves out: between two rows read one row pitch apart on a page (`05` right above
    `09` in a key of the closed questions only) no row of the table stands, so the numbers between are none
    of its entries. The pitch is that of rows whose numbers follow on; rows further apart, or on two pages,
    may have lost rows between them, and their numbers are still reported."""
    numbers = sorted(places)
    pitches = [places[b][1] - places[a][1] for a, b in zip(numbers, numbers[1:]) if b == a + 1 and places[a][0] == places[b][0]]
    if len(pitches) < 2:
        return set()
    pitch = median(pitches)
    left_out: set[int] = set()
    for a, b in zip(numbers, numbers[1:]):
        if b > a + 1 and places[a][0] == places[b][0] and 0 < places[b][1] - places[a][1] < ADJACENT_ROWS * pitch:
            left_out |= set(range(a + 1, b))
    return left_out


def _rising(rows: list[SectionRow]) -> set[int]:
    """Indices of the numbered rows in the longest run of numbers rising down the section: a number
    read off a rule ("5" between 24 and 25) or glued from elsewhere falls outside it."""
    values = [(i, int(row.number)) for i, row in enumerate(rows) if row.number and row.number.isdecimal()]
    best: list[list[int]] = []  # per row, the longest rising run ending there (indices into `values`)
    for j, (_, value) in enumerate(values):
        before = [best[k] for k in range(j) if values[k][1] < value]
        best.append(max(before, key=len, default=[]) + [j])
    longest = max(best, key=len, default=[])
    return {values[j][0] for j in longest}


def _by_order(row: SectionRow, width: int) -> list[list[str]]:
    """Without column centres: the row's tokens left to right, one per column while they match the
    columns in count; a row of more or fewer tokens gives no column an answer (reported unread)."""
    tokens = ([row.rest] if row.rest else []) + [t for cell in row.cells for t in plain_text(cell.text)[0].split()]
    return [[t] for t in tokens] if len(tokens) == width else [[] for _ in range(width)]


def _between(rows: list[SectionRow], numbered: list[int], index: int) -> int | None:
    """The number a number-less row stands for: n when the numbered rows just above and below it are
    n − 1 and n + 1, else None."""
    above = [i for i in numbered if i < index]
    below = [i for i in numbered if i > index]
    if not above or not below:
        return None
    low, high = rows[above[-1]].number, rows[below[0]].number
    if not (low and high and low.isdecimal() and high.isdecimal()) or int(high) - int(low) != 2:
        return None
    return int(low) + 1
