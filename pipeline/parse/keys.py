"""Answer-key formats: each reads a key document into {number key: answer text}."""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from statistics import median


from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.extract import UNREAD_CELL, ExtractedDocument
from pipeline.languages import caseless
from pipeline.parse.bookletlabels import BookletLabels
from pipeline.parse.labels import number_key
from pipeline.parse.keyparts import KeyPart, key_stream, place_parts, split_booklet
from pipeline.parse.keyruns import ColumnRow, column_items, mended_column
from pipeline.parse.recovery import KeyColumnWork, Point, Recovery
from pipeline.parse.tablecolumns import next_column_start
from pipeline.parse.variantrows import SectionRow, place_section, section_row
from pipeline.parse.stream import StreamLine, match_number_line, names_variant, plain_text, rest_after, rows, variant_names
from pipeline.patterns import spec_pattern
from pipeline.specs import KeySpec

_ROW_NUMBER = re.compile(r"^\s*(?P<number>\d{1,3}(?:\.\d{1,2})*)\.?(?:\s+(?P<rest>.*))?$")
MAX_ANSWER_LINES = 12
_PIECE_NUMBER = re.compile(r"^\s*(?P<number>\d{1,3})(?!\d)")
_LINE_NUMBER = re.compile(r"(?:^|\s{2,})(?P<number>\d{1,3})(?![\d\w])")  # a number where a row's entry (or a cell's) starts
_UNREAD_ENTRY = re.compile(rf"^\s*(?P<number>\d{{1,3}})[^\w\s]{{0,2}}\s*[-–—]?\s*{re.escape(UNREAD_CELL)}\s*$")


@dataclass
class KeyTable:
    name: str  # file name, for messages
    answers: dict[str, str] = field(default_factory=dict)  # number key -> answer text
    problems: list[str] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)  # variant codes the key has columns for
    voided: set[str] = field(default_factory=set)  # number keys whose entry says the question was annulled
    pilot: set[str] = field(default_factory=set)  # number keys marked as keyed, unscored pilot items
    twice: dict[str, list[str]] = field(default_factory=dict)  # number keys given different answers: left unkeyed
    unread: list[str] = field(default_factory=list)  # questions (as printed) whose answer cell OCR could not read
    named: set[str] = field(default_factory=set)  # number keys a problem line of the table names (row lost, no answer)
    inferred: set[str] = field(default_factory=set)  # number keys keyed by inference (a grid number put back): unsure
    sources: dict[str, list[StreamLine]] = field(default_factory=dict)  # number key -> the lines its answer was read from, where known
    repaired: dict[str, list[str]] = field(default_factory=dict)  # number key -> its words as read, where a pass mended them
    number_lines: dict[str, StreamLine] = field(default_factory=dict)  # number key -> its number's line, where `sources` are known
    flags: dict[str, Diagnostic] = field(default_factory=dict)  # number key -> a line on its entry its question carries (`keystrays`)
    # number key -> the line naming it where it has no entry: a place its row's run of entries puts it that reads as nothing
    # (`row_places`); given only for the questions of the sheet that end up unkeyed (`unaccounted_line`)
    empty_places: dict[str, Diagnostic] = field(default_factory=dict)

    def put(self, number: str, answer: str) -> bool:
        """Record `answer` for `number`; whether it is now the number's answer. A number given two
        different answers is keyed twice: no answer is "first", so it is left unkeyed (`twice`) and the
        reader reports it (`keyed_twice`)."""
        if number in self.twice:
            self.twice[number].append(answer)
            return False
        previous = self.answers.get(number)
        if previous is None:
            self.answers[number] = answer
            return True
        if previous != answer:
            self.twice[number] = [self.answers.pop(number), answer]
            self.voided.discard(number)
            self.pilot.discard(number)
        return False

    def report_twice(self) -> None:
        self.problems += [keyed_twice(self.name, number, answers) for number, answers in self.twice.items()]


def read_marking_scheme(document: ExtractedDocument, spec: KeySpec, name: str, recovery: Recovery | None = None) -> KeyTable:
    """Answers follow `answer_marker` inside the task opened by `task_start` (or, with no marker, make up
    the task's text); a page break between marker and answer does not matter (the stream runs across
    pages, footers already removed)."""
    task_re = spec_pattern(spec.task_start)
    marker_re = spec_pattern(spec.answer_marker) if spec.answer_marker else None
    end_re = spec_pattern(spec.answer_end) if spec.answer_end else None
    table = KeyTable(name)
    number: str | None = None
    collecting: list[str] | None = None
    printed: dict[str, str] = {}  # number key -> the task's number as printed, for a task keyed twice
    # After a marker: each time a task's header is followed by its marker, (number key, the lines after the marker).
    # A task printed again with a marker and another answer is keyed twice, as on a line of its own.
    marked: list[tuple[str, list[str]]] = []
    marked_here = False  # whether the task now open has had its marker (a later one is part of its answer)
    for item in key_stream(document, spec.stop_at, recovery):
        task = match_number_line(task_re, item)
        if task:
            number = number_key(task.group("number"))
            printed.setdefault(number, task.group("number"))
            collecting = None
            marked_here = False
            if marker_re is None and number not in table.answers and number not in table.twice:
                # No marker: the answer is the task's own text ("Α2. γ", "Α1. 1. Λάθος 2. Σωστό").
                rest = rest_after(item, task).strip(" :.")
                collecting = [rest] if rest else []
                table.answers[number] = rest
            elif marker_re is None:
                # The task again with an answer of its own on its line ("Α1 → β" … "Α1 → δ"): no answer is the first,
                # so none is kept, as for a list key's number keyed twice (said by `report_twice`).
                rest = rest_after(item, task).strip(" :.")
                if rest and rest != table.answers.get(number, "").strip():
                    table.put(number, rest)
            continue
        marker = marker_re.search(item.text) if marker_re else None
        if marker and number is not None and not marked_here:
            marked_here = True
            rest = item.text[marker.end():].strip(" :")
            collecting = [rest] if rest else []
            marked.append((number, collecting))
            continue
        if collecting is not None and end_re is not None and end_re.search(item.text):
            collecting = None
            continue
        if collecting is not None and len(collecting) < MAX_ANSWER_LINES:
            collecting.append(item.text)
            if marker_re is None:
                table.answers[number] = "\n".join(collecting)
    for marked_number, lines in marked:
        answer = "\n".join(lines)
        if answer.strip() and answer.strip() != table.answers.get(marked_number, "").strip():  # the same answer twice is no conflict
            table.put(marked_number, answer)
    table.answers = {k: v for k, v in table.answers.items() if v.strip()}
    table.problems += [keyed_twice(name, printed.get(number, number), answers) for number, answers in table.twice.items()]
    return table


def read_variant_table(document: ExtractedDocument, spec: KeySpec, name: str,
                       recovery: Recovery | None = None, variant: str | None = None) -> dict[str, KeyTable]:
    """Per variant code: a table. A header row naming variants opens a section. With several variants,
    each row is a number followed by one answer per variant column; with one variant, the answer is the
    text of the answer cell: everything between the number column and the next header column that lies
    in the number's row band (cells are centred vertically, so an answer may start above its number).
    A header's variant read as a look-alike of a declared one is that one (`bookletlabels`; `variant`: the
    sheet's own, where the spec declares none)."""
    header_re = spec_pattern(spec.variant_header)
    booklets = BookletLabels.of(spec, variant)
    tables: dict[str, KeyTable] = {}
    section: list[str] = []
    spans: list[tuple[float, float]] = []  # the section's variant headers across the page, where each names one variant
    single: list[tuple[str, StreamLine, float, list]] = []  # (variant, answer column's header, next column centre, rows)
    scanned: list[tuple[list[str], list[SectionRow]]] = []  # OCR'd rows of each section of several variants
    header_problems: list[str] = []  # header names no declared variant matches: said on every table
    for row in rows(key_stream(document, spec.stop_at, recovery)):
        variants, unmatched = booklets.name_row(variant_names(header_re, row), any(sl.ocr for sl in row))
        header_problems += unmatched
        if variants:
            section = variants
            named_here = [(sl.line.x0, sl.line.x1) for sl in row if names_variant(header_re, sl)]
            spans = named_here if len(named_here) == len(variants) else []
            scanned.append((variants, []))
            for v in variants:
                tables.setdefault(v, KeyTable(name, variants=[]))
            if len(variants) == 1:
                header = next((sl for sl in row if names_variant(header_re, sl)), row[0])
                later = [(sl.line.x0 + sl.line.x1) / 2 for sl in row if sl.line.x0 > header.line.x1]
                single.append((variants[0], header, min(later) if later else float("inf"), []))
            continue
        if not section:
            continue
        if len(section) == 1:
            single[-1][3].append(row)
            continue
        if any(sl.ocr for sl in row):  # placed by the table's geometry and numbering (`variantrows`)
            scanned[-1][1].append(section_row(row))
            continue
        first = _ROW_NUMBER.match(row[0].text)
        if not first:
            continue
        number = number_key(first.group("number"))
        cells = ([first.group("rest")] if first.group("rest") else []) + [sl.text for sl in row[1:]]
        tokens = " ".join(cells).split()
        answers = _row_answers(row, spans) if spans and not first.group("rest") else tokens if len(tokens) == len(section) else None
        if answers is None:
            line = diagnose(Code.KEY_ROW_UNREAD, name=name, question=first.group("number"), read=" ".join(tokens)[:60],
                            columns=len(section), variants=", ".join(section))
            for variant in section:
                tables[variant].problems.append(line)
                tables[variant].flags[number] = line
                tables[variant].named.add(number)
            continue
        for variant, token in zip(section, answers):
            if token == UNREAD_CELL:  # OCR found the cell and could not read it: its question is reported
                tables[variant].unread.append(first.group("number"))
                continue
            tables[variant].put(number, token.strip())
    for variants, scanned_rows in scanned:
        placed = place_section(variants, scanned_rows)
        for variant in variants:
            for number, answer in placed.answers[variant]:
                tables[variant].put(number, answer)
            tables[variant].unread += placed.unread[variant]
            tables[variant].problems += placed.problems
    for variant, header, next_centre, section_rows in single:
        for number, answer, lines, number_line in _answer_cells(section_rows, header, next_centre):
            if tables[variant].put(number, answer):
                tables[variant].sources[number] = lines
                tables[variant].number_lines[number] = number_line
        tables[variant].unread += _rows_lost(section_rows)
    for table in tables.values():
        table.variants = sorted(tables)
        table.problems[:0] = header_problems
        # A question another part of the key answers (a row of its own below the table) is not unread.
        table.unread = list(dict.fromkeys(n for n in table.unread if number_key(n) not in table.answers and number_key(n) not in table.twice))
        table.report_twice()
    return tables


def _row_answers(row: list[StreamLine], spans: list[tuple[float, float]]) -> list[str] | None:
    """A text-layer row's answer for each variant column: the one cell standing under its header (a cell's centre
    within the header, or the header's within the cell), so that a cell of several words (NÚCEM's short answers) is one
    answer and a cell under no header (points, notes) none. None where a column holds no cell or several: which cell
    is whose cannot be told (the row is reported, never keyed shifted)."""
    answers = []
    for x0, x1 in spans:
        under = [sl.text.strip() for sl in row[1:]
                 if x0 <= (sl.line.x0 + sl.line.x1) / 2 <= x1 or sl.line.x0 <= (x0 + x1) / 2 <= sl.line.x1]
        if len(under) != 1:
            return None
        answers.append(under[0])
    return answers


def _answer_cells(section_rows: list[list], header: StreamLine, next_centre: float) -> list[tuple[str, str, list[StreamLine], StreamLine]]:
    """Cells centred under the answer header (closer to it than to the next column's header), left of the next
    column the table's rows show (`tablecolumns`: a notes column whose header is no cell of the header's row, or
    none): (number key, answer, the lines it was read from, the number's line)."""
    lines = [sl for row in section_rows for sl in row]
    numbers = [(row[0], m) for row in section_rows if (m := _ROW_NUMBER.match(row[0].text))]
    centre = (header.line.x0 + header.line.x1) / 2
    stops = _next_columns(lines, numbers, header, centre)
    middles = _row_middles(lines, numbers)
    result = []
    for sl, match in numbers:
        row_middle = (sl.line.top + sl.line.bottom) / 2
        above = [m for m in middles[sl.page] if m < row_middle]
        below = [m for m in middles[sl.page] if m > row_middle]
        low = (row_middle + max(above)) / 2 if above else -1.0
        high = (row_middle + min(below)) / 2 if below else float("inf")
        parts = [match.group("rest")] if match.group("rest") else []
        read_from = [sl] if match.group("rest") else []
        for other in lines:
            middle = (other.line.top + other.line.bottom) / 2
            if (
                other is not sl
                and other.page == sl.page
                and low <= middle < high
                and other.line.x0 >= sl.line.x1
                and other.line.x0 < stops.get(sl.page, float("inf"))
                and abs((other.line.x0 + other.line.x1) / 2 - centre) < abs((other.line.x0 + other.line.x1) / 2 - next_centre)
            ):
                parts.append(other.text)
                read_from.append(other)
        answer = " ".join(p.strip() for p in parts if p.strip())
        if answer:
            result.append((number_key(match.group("number")), answer, read_from, sl))
    return result


def _row_middles(lines: list[StreamLine], numbers: list[tuple[StreamLine, re.Match]]) -> dict[int, list[float]]:
    """{page: the middles of the table's rows}: the rows whose number was read, and the rows whose number cell holds
    a line read as no number (OCR misread it: `47` as `AT`). Such a row still ends its neighbours' cells, so that its
    answer is not run into the row above or below (its question is reported by `_rows_lost`). A line is in the number
    column where it overlaps the page's numbers across, and stands clear of every number line (not a piece of one)."""
    found: dict[int, list[float]] = {}
    for page in dict.fromkeys(sl.page for sl, _ in numbers):
        here = [sl.line for sl, _ in numbers if sl.page == page]
        left, right = min(line.x0 for line in here), max(line.x1 for line in here)
        found[page] = [(line.top + line.bottom) / 2 for line in here]
        found[page] += [(other.line.top + other.line.bottom) / 2 for other in lines
                        if other.page == page and not _ROW_NUMBER.match(other.text) and any(ch.isalnum() for ch in other.text)
                        and other.line.x0 < right and other.line.x1 > left
                        and not any(other.line.top < line.bottom and line.top < other.line.bottom for line in here)]
    return found


def _rows_lost(section_rows: list[list]) -> list[str]:
    """On OCR'd rows of a one-answer-column table: every number between the first and the last row number read
    that no row shows (its number lost, its answer run into the row above): reported unread for its question, unless
    another row keys it (the table's `unread` is filtered by its answers at the end)."""
    values = {int(m.group("number")) for row in section_rows if any(sl.ocr for sl in row)
              and (m := _ROW_NUMBER.match(row[0].text)) and m.group("number").isdecimal()}
    return [str(n) for n in range(min(values), max(values) + 1) if n not in values] if len(values) > 1 else []


def _next_columns(lines: list[StreamLine], numbers: list[tuple[StreamLine, re.Match]], header: StreamLine,
                  centre: float) -> dict[int, float]:
    """{page: x where the column right of the answer column begins} (`tablecolumns.next_column_start`), from the
    lines right of each row's number within its row's band (below the header on its page; the last row's band
    reaching half a row pitch below it, so that text under the table is no cell)."""
    cells: dict[int, list] = {}
    for page in dict.fromkeys(sl.page for sl, _ in numbers):
        rows_here = [sl for sl, _ in numbers if sl.page == page]
        middles = [(sl.line.top + sl.line.bottom) / 2 for sl in rows_here]
        pitch = median(b - a for a, b in zip(middles, middles[1:])) if len(middles) > 1 else float("inf")
        lows = [-1.0] + [(a + b) / 2 for a, b in zip(middles, middles[1:])]
        bounds = list(zip(lows, [*lows[1:], middles[-1] + pitch / 2]))
        top = header.line.top if page == header.page else -1.0
        cells[page] = [other.line for other in lines if other.page == page and (other.line.top + other.line.bottom) / 2 >= top
                       and any(low <= (other.line.top + other.line.bottom) / 2 < high and other.line.x0 >= sl.line.x1
                               for sl, (low, high) in zip(rows_here, bounds))]
    return {page: next_column_start(found, centre) for page, found in cells.items()}


def read_list(document: ExtractedDocument, spec: KeySpec, name: str, recovery: Recovery | None = None) -> KeyTable:
    """Rows of `entry` matches. A heading of one of `spec.sections` opens a part whose prefix goes before
    the numbers below it in its column (the key's numbering restarts there, as the sheet's does); parts
    are found by position, column then row (`keyparts`), so parts printed side by side or two by two
    each get their own entries. `entry` is matched on each cell (extracted line) of a row, and on the
    cells of a row joined where that finds more (a number and its answer printed in cells of their own).
    On OCR'd pages an entry number misread or unread is mended from its column's run (the `key-runs` pass,
    `Point.KEY_COLUMN`, one of `recovery`'s: every one when not given)."""
    entry_re = spec_pattern(spec.entry)
    table = KeyTable(name)
    stream = key_stream(document, spec.stop_at, recovery)
    # Entries are matched on plain text: a bold number or letter is layout.
    texts = {id(sl): plain_text(sl.text)[0] for sl in stream}
    placed = {id(p.line): p for p in place_parts(stream, list(spec.sections), texts)}
    runs: dict[int, tuple[KeyPart, list[ColumnRow]]] = {}  # id of a part -> (part, its rows in order)
    # (part prefix, text, its place, whether an entry off its row's run) of OCR'd row pieces beside entries that read as none
    pieces: list[tuple[str, str, tuple[str, str, int] | None, bool]] = []
    unread_lines: list[tuple[str, str]] = []  # (part prefix, text) of OCR'd rows among the entries that read as none
    for row in rows(stream):
        cells: dict[int, list[StreamLine]] = {}  # id of a part -> its cells on this row
        for sl in row:
            if placed[id(sl)].opens is None:
                cells.setdefault(id(placed[id(sl)].part), []).append(sl)
        for part_id, lines in cells.items():
            part = placed[id(lines[0])].part
            texts_here = [texts[id(sl)] for sl in lines]
            # An entry OCR found but whose answer it could not read ("22) ?"): reported for its question.
            unread = [m.group("number") for t, sl in zip(texts_here, lines) if sl.ocr and (m := _UNREAD_ENTRY.match(t))]
            table.unread += [number_key(part.prefix + number) for number in unread]
            texts_here = [t for t in texts_here if not _UNREAD_ENTRY.match(t)]
            matches, covered, starts = _entry_cells(texts_here, entry_re)
            odd = _off_run([(i, m.group("number")) for i, m in zip(starts, matches)]) if any(sl.ocr for sl in lines) else None
            if odd is not None:  # an entry whose number breaks its row's even run: its number misread, the entry not used
                index, place = odd
                row_numbers = ", ".join(m.group("number") for k, m in enumerate(matches) if k != index)
                pieces.append((part.prefix, matches[index].group(0).strip(), (place[0], row_numbers, place[1]), True))
                matches, starts = [m for k, m in enumerate(matches) if k != index], [c for k, c in enumerate(starts) if k != index]
            entries = [
                (m.group("number"), m.group("answer").strip(),
                 bool(spec.pilot_mark) and m.string[m.end("number"):].startswith(spec.pilot_mark))
                for m in matches
            ]
            if entries and any(sl.ocr for sl in lines):
                # A piece of a row beside its entries that reads as none: one entry's cell garbled. Where the row's
                # entries run evenly, the place the piece stands in names its question (`row_places`).
                loose = [i for i, t in enumerate(texts_here) if i not in covered and any(ch.isalnum() for ch in t)]
                places, empty = row_places([(i, m.group("number")) for i, m in zip(starts, matches)], loose)
                pieces += [(part.prefix, texts_here[i], places.get(i), False) for i in loose]
                row = ", ".join(m.group("number") for m in matches)
                for number, step in empty.items():
                    key = number_key(part.prefix + number)
                    table.empty_places.setdefault(key, diagnose(Code.KEY_PLACE_EMPTY, name=name, question=key, row=row, step=step))
            runs.setdefault(part_id, (part, []))[1].append(ColumnRow("  ".join(texts_here), entries, any(sl.ocr for sl in lines)))
    for part, column_rows in runs.values():
        prefix = part.prefix
        work = (recovery or Recovery.every()).run(Point.KEY_COLUMN, KeyColumnWork(column_rows, column_items(column_rows), entry_re))
        column = mended_column(work.items, list(work.mended))
        for raw, answer, pilot in column.entries:
            number = number_key(prefix + raw)
            if table.put(number, answer) and pilot:
                table.pilot.add(number)
        # Each mended entry is a line on its question, and its entry rests on the run: inferred, its question unsure.
        for raw, line in column.mended:
            detail = f"key entry {line.replace('taken as ', 'taken as ' + prefix)} from its column's run"
            table.problems.append(diagnose(Code.KEY_TABLE, name=table.name, detail=detail, question=prefix + raw))
            table.inferred.add(number_key(prefix + raw))
        if work.markless:
            table.problems.append(diagnose(Code.KEY_MARKS_RESTORED, name=name, count=len(work.markless),
                                           numbers=spans(list(work.markless)) + (f" (part {prefix})" if prefix else "")))
        unread_lines += [(prefix, text) for text in column.unread]
        lines = [row.text.strip() for row in column_rows if row.ocr and row.text.strip()]
        if prefix and not column.entries and lines:
            # A part of the key opened by its heading where OCR read no entry at all: its rows are all lost.
            shown = ", ".join(repr(text) for text in lines[:8]) + (", ..." if len(lines) > 8 else "")
            table.problems.append(f"key part {prefix}: {len(lines)} line(s) read but none as an entry (OCR): {shown}")
    _report_lines(table, unread_lines)
    _report_pieces(table, pieces)
    table.report_twice()
    return table


def _report_lines(table: KeyTable, lines: list[tuple[str, str]]) -> None:
    """Each OCR'd row among the entries that read as none: a line per question whose number it shows where an entry
    starts (the row's start, or a cell's) and that the key left unkeyed (named: no catch-all line needed), or one
    line for the row when it shows none."""
    for prefix, text in lines:
        shown = [number_key(prefix + m.group("number")) for m in _LINE_NUMBER.finditer(text)]
        questions = [n for n in dict.fromkeys(shown) if n not in table.answers and n not in table.twice]
        if not questions:
            table.problems.append(f"key line {text!r} among the entries could not be read as one (OCR)")
        for number in questions:
            table.problems.append(diagnose(Code.KEY_LINE_UNREAD, name=table.name, line=text, question=number))
            table.named.add(number)


def _report_pieces(table: KeyTable, pieces: list[tuple[str, str, tuple[str, str, int] | None, bool]]) -> None:
    """Each unread piece of a row: the question whose number it shows and that the key left unkeyed is
    reported as its answer cell unread (`key.cell_unread`); one showing no number, or an entry whose number breaks its
    row's run (`_off_run`), that stands where its row's run of entries puts a question the key left unkeyed
    (`row_places`) is a `key.piece_in_place` line on that question (the pieces of one place together); any other piece
    a line of its own."""
    in_place: dict[str, tuple[list[str], str, int]] = {}
    for prefix, text, place, off_run in pieces:
        shown = None if off_run else _PIECE_NUMBER.match(text)
        number = number_key(prefix + shown.group("number")) if shown else None
        if number is not None and number not in table.answers and number not in table.twice:
            if number not in table.unread:
                table.unread.append(number)
            continue
        placed = number_key(prefix + place[0]) if place and not shown else None
        if placed is not None and placed not in table.answers and placed not in table.twice:
            in_place.setdefault(placed, ([], place[1], place[2]))[0].append(text)
            continue
        table.problems.append(f"key row piece {text!r} beside the row's entries could not be read as one (OCR)")
    for number, (texts, row, step) in in_place.items():  # `texts` as read: a misread number shows in the line
        table.problems.append(diagnose(Code.KEY_PIECE_IN_PLACE, name=table.name, pieces=", ".join(map(repr, texts)),
                                       question=number, row=row, step=step))
        table.named.add(number)


MIN_RUN_ENTRIES = 3  # entries a row's even run needs besides one off it for that one to be taken as misnumbered


def _off_run(entries: list[tuple[int, str]]) -> tuple[int, tuple[str, int]] | None:
    """The one entry of a row, (its index among `entries`, (the number its place in the run has, the step)), whose
    number breaks the row's run where all the others, at least `MIN_RUN_ENTRIES`, run evenly (`12 C  22 A … 62 B  2 B`:
    `72` read `2`, which would key question 2 with 72's answer); None where no one entry does. An entry further along
    the run by whole steps (`16  36  56  96`, 76's cell unread) is in it: places skipped, not a number misread."""
    if len(entries) < MIN_RUN_ENTRIES + 1 or not all(n.isdecimal() for _, n in entries):
        return None
    values = [int(n) for _, n in entries]
    found = []
    for k in range(len(values)):
        a, b = (0, 1) if k >= 2 else (len(values) - 2, len(values) - 1)  # two neighbours besides `k` give the step
        step = values[b] - values[a]
        base = values[a] - a * step
        place = base + k * step
        before, after = values[k - 1] if k else -1, values[k + 1] if k + 1 < len(values) else float("inf")
        in_run = (values[k] - base) % step == 0 and before < values[k] < after if step else False  # places skipped, not off
        if step > 0 and place >= 1 and not in_run and all(v == base + i * step for i, v in enumerate(values) if i != k):
            found.append((k, (str(place), step)))
    return found[0] if len(found) == 1 else None


def row_places(entries: list[tuple[int, str]], loose: list[int]) -> tuple[dict[int, tuple[str, str, int]], dict[str, int]]:
    """Where a row's entries, (cell index, number) in the row's order, run evenly (two or more, each number the last
    plus one step, or two where one place between is empty: the columns of a key set side by side, `11 B  21 D  31 A`), the questions whose entries the run puts
    beside them: ({index of a `loose` cell (read as no entry): (the number of the place it stands in, the row's numbers,
    the step)}, {number: step} of the places just before the first entry, after the last and in a gap of two steps
    between two that no cell stands in). The step is the row's least; a gap of two steps holds one place.
    A loose cell before the first entry stands in the place one step before it, after the last one step after it,
    between two entries two steps apart in the place between; a place before the first is one from 1 up. {} , {}
    where the row's numbers do not run so."""
    numbers = [(i, int(n)) for i, n in entries if n.isdecimal()]
    if len(numbers) < 2 or len(numbers) != len(entries):
        return {}, {}
    gaps = [b[1] - a[1] for a, b in zip(numbers, numbers[1:])]
    step = min(gaps)
    if step <= 0 or any(gap not in (step, 2 * step) for gap in gaps) or all(gap == 2 * step for gap in gaps) and len(gaps) > 1:
        return {}, {}
    row = ", ".join(n for _, n in entries)
    first, last = numbers[0], numbers[-1]
    places: dict[int, tuple[str, str, int]] = {}
    for cell in loose:
        if cell < first[0] and first[1] - step >= 1:
            places[cell] = (str(first[1] - step), row, step)
        elif cell > last[0]:
            places[cell] = (str(last[1] + step), row, step)
        else:
            gap = next(((a, b) for a, b in zip(numbers, numbers[1:]) if a[0] < cell < b[0]), None)
            if gap is not None and gap[1][1] - gap[0][1] == 2 * step:
                places[cell] = (str(gap[0][1] + step), row, step)
    between = [a[1] + step for a, b in zip(numbers, numbers[1:]) if b[1] - a[1] == 2 * step]
    taken = {place[0] for place in places.values()}
    empty = {str(n): step for n in (first[1] - step, *between, last[1] + step) if n >= 1 and str(n) not in taken}
    return places, empty


def unaccounted(expected: Iterable[str], table: KeyTable) -> list[str]:
    """The questions of `expected` (number keys, in their order) the table neither keys, voids, reports
    keyed twice, reports unread nor names in a problem line: entries lost without a word (a table or a
    number row the reader never found)."""
    said = set(table.answers) | table.voided | set(table.twice) | table.named | {number_key(n) for n in table.unread}
    return [n for n in dict.fromkeys(number_key(n) for n in expected) if n not in said]


def spans(numbers: list[str]) -> str:
    """`1–3, 7, 9–10` for number keys in order (plain numbers run; any other key stands alone)."""
    groups: list[list[str]] = []
    for n in numbers:
        if groups and n.isdecimal() and groups[-1][-1].isdecimal() and int(n) == int(groups[-1][-1]) + 1:
            groups[-1].append(n)
        else:
            groups.append([n])
    return ", ".join(g[0] if len(g) == 1 else f"{g[0]}–{g[-1]}" for g in groups)


def place_lines(expected: Iterable[str], table: KeyTable) -> list[Diagnostic]:
    """The `key.place_empty` line of each question of `expected` no line accounts for (`unaccounted`) that a row's run
    of entries puts in a place read as nothing (`KeyTable.empty_places`), then counted in the table's `named`: asked
    before `unaccounted_line`, which names the rest."""
    placed = [n for n in unaccounted(expected, table) if n in table.empty_places]
    table.named |= set(placed)
    return [table.empty_places[n] for n in placed]


def unaccounted_line(expected: Iterable[str], table: KeyTable, where: str) -> Diagnostic | None:
    """One `key.entries_unaccounted` line naming the questions `unaccounted` for (then counted in the
    table's `named`), or None: with the reader's own lines, every expected question without an entry
    has exactly one line saying why. `where`: the key file(s) read."""
    lost = unaccounted(expected, table)
    if not lost:
        return None
    table.named |= set(lost)
    return diagnose(Code.KEY_ENTRIES_UNACCOUNTED, name=where, count=len(lost), numbers=spans(lost))


def keyed_twice(name: str, number: str, answers: list[str]) -> Diagnostic:
    """A question the key gives different answers: a problem, and the question is left unkeyed."""
    return diagnose(Code.KEY_KEYED_TWICE, name=name, number=number, answers=", ".join(answers))


def row_entries(cells: list[str], entry_re: re.Pattern) -> list[re.Match]:
    """The entries of one row of a key column, from its cells left to right. Each cell is matched on its
    own, so `^…$` anchors hold for a cell; where the cells joined find more entries (a number and its
    answer printed in cells of their own, "7" | "B"), the joined text is taken."""
    return _entry_cells(cells, entry_re)[0]


def _entry_cells(cells: list[str], entry_re: re.Pattern) -> tuple[list[re.Match], set[int], list[int]]:
    """`row_entries`'s matches, the indices of the cells they cover (a cell no entry touches is a
    piece of the row left unread), and the index of the cell each match starts in."""
    text = "  ".join(cells)
    starts = [sum(len(c) + 2 for c in cells[:i]) for i in range(len(cells))]
    joined = list(entry_re.finditer(text))
    alone = [(i, m) for i, cell in enumerate(cells) for m in entry_re.finditer(cell)]
    if len(alone) > len(joined):
        return [m for _, m in alone], {i for i, _ in alone}, [i for i, _ in alone]
    covered = {i for m in joined for i, start in enumerate(starts) if m.start() < start + len(cells[i]) and m.end() > start}
    return joined, covered, [max(i for i, start in enumerate(starts) if start <= m.start()) for m in joined]


@lru_cache(maxsize=4096)
def voided_form(text: str) -> str:
    """A key entry as voided marks are compared: NFKC (a full-width "－" or "＊" is the ASCII mark),
    stripped, ignoring case as every language's words are (`languages.caseless`: a Turkish key's `İPTAL` is `iptal`).
    Kept per text: every entry of a key is compared with every voided mark."""
    return caseless(unicodedata.normalize("NFKC", text).strip())


def is_voided(answer: str, voided: list[str] | tuple[str, ...]) -> bool:
    """Whether a key entry means the question was annulled: the whole entry, after NFKC, ignoring case."""
    return voided_form(answer) in {voided_form(v) for v in voided}


def mark_voided(table: KeyTable, spec: KeySpec) -> None:
    """Entries that say the question was annulled ("Anulada", "-"): recorded in `table.voided`."""
    table.voided |= {number for number, answer in table.answers.items() if is_voided(answer, spec.voided)}


def key_in_sheet(sheet: ExtractedDocument, start: str) -> ExtractedDocument | None:
    """The answer key printed inside a booklet, from the line matching `start` on (`keyparts.split_booklet`),
    or None."""
    return split_booklet(sheet, [], start, None)[1]


def find_variant(sheet: ExtractedDocument, spec: KeySpec) -> str | None:
    pattern = spec_pattern(spec.variant_pattern, re.MULTILINE)
    for page in sheet.pages:
        match = pattern.search(page.text)
        if match:
            return match.group("variant")
    return None
