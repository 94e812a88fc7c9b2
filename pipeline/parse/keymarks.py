"""Key entries whose number lost its mark on a scan: a key printing `1. A` whose dot a speckled scan's
smoothing took away is read `1  A`, which the spec's entry pattern (`N.`) refuses, so every such row of the
column would be a line the reader could not read. Here a row that reads as no entry is read again with the
mark put back after each bare number (the mark the column's entries read with print, else one of the
typographic marks of `NUMBER_MARKS`), and taken only when:
- the whole row is entries so read (a stem's or a prose line's `1 A man …` leaves words no entry covers);
- each such entry's number follows on from the row above or leads on to the row below (the column's numbers
  count up by one there), so a lone line starting with a number is never an entry;
- the column's rows, with these, are key entries for at least `COLUMN_SHARE` of its OCR'd lines.
Only on OCR'd rows. The entries are answers as printed (no letter was guessed, only the mark), so they are
not flagged unsure; the reader reports them, one line per key part (`key.marks_restored`).
"""
from __future__ import annotations

import re

from pipeline.parse.keyruns import ColumnRow

MIN_ENTRIES = 3  # rows a column must read this way before any is taken (one or two are `key-runs`' to mend, each inferred)
COLUMN_SHARE = 0.7  # of the column's OCR'd lines that must be entries, these included
# The marks printed after a key entry's number, tried (after those the column's own entries show) in this order.
NUMBER_MARKS = (".", ")", ":", "-", "–")
_BARE_NUMBER = re.compile(r"(?<![\w.,:;)\-–])(\d{1,3})(?=\s+\S)")


def marks_read(items: list[list], rows: list[ColumnRow], entry_re: re.Pattern) -> list[str]:
    """The marks the column's entries read with show after their number (most common first)."""
    counts: dict[str, int] = {}
    for index in dict.fromkeys(item[2] for item in items if item[0] is not None):
        text = rows[index].text
        for match in entry_re.finditer(text):
            mark = text[match.end("number"):match.start("answer")].strip()
            if mark and not any(ch.isalnum() for ch in mark):
                counts[mark] = counts.get(mark, 0) + 1
    return sorted(counts, key=lambda m: -counts[m])


def entries_without_mark(text: str, entry_re: re.Pattern, marks: list[str]) -> list[tuple[str, str]] | None:
    """`text` read as entries with `mark` put back after each bare number, for the first mark that makes the
    whole text entries: [(number, answer)], or None."""
    numbers = [m.group(1) for m in _BARE_NUMBER.finditer(text)]
    if not numbers:
        return None
    for mark in dict.fromkeys([*marks, *NUMBER_MARKS]):
        marked = _BARE_NUMBER.sub(rf"\g<1>{mark.replace(chr(92), chr(92) * 2)}", text)
        matches = list(entry_re.finditer(marked))
        if not matches or [m.group("number") for m in matches] != numbers:
            continue
        covered = [False] * len(marked)
        for m in matches:
            covered[m.start():m.end()] = [True] * (m.end() - m.start())
        if all(c or ch.isspace() for c, ch in zip(covered, marked)):
            return [(m.group("number"), m.group("answer").strip()) for m in matches]
    return None


def read_without_marks(items: list[list], rows: list[ColumnRow], entry_re: re.Pattern) -> tuple[list[list], list[str]]:
    """The column's items with its unread OCR'd rows read as entries without their mark where the column's run
    allows it (see the module); the numbers so read, in order."""
    ocr = [row.ocr for row in rows]
    marks = marks_read(items, rows, entry_re)
    found: dict[int, list[tuple[str, str]]] = {}
    for k, item in enumerate(items):
        if item[0] is None and ocr[item[2]]:
            entries = entries_without_mark(item[3], entry_re, marks)
            if entries:
                found[k] = entries
    if len(found) < MIN_ENTRIES:
        return items, []
    firsts: list[tuple[int, int | None]] = []  # (item position, its row's first number) per row with entries, in order
    for k, item in enumerate(items):
        number = found[k][0][0] if k in found else item[0]
        if number is not None and (not firsts or items[firsts[-1][0]][2] != item[2]):
            firsts.append((k, int(number) if number.isdecimal() else None))
    in_run = set()
    for i, (k, value) in enumerate(firsts):
        before = firsts[i - 1][1] if i else None
        after = firsts[i + 1][1] if i + 1 < len(firsts) else None
        if value is not None and ((before is not None and value == before + 1) or (after is not None and value == after - 1)):
            in_run.add(k)
    taken = {k: entries for k, entries in found.items() if k in in_run}
    lines = sum(1 for item in items if ocr[item[2]])
    keyed = sum(1 for k, item in enumerate(items) if ocr[item[2]] and (item[0] is not None or k in taken))
    if len(taken) < MIN_ENTRIES or not lines or keyed < COLUMN_SHARE * lines:
        return items, []
    result: list[list] = []
    numbers: list[str] = []
    for k, item in enumerate(items):
        if k not in taken:
            result.append(item)
            continue
        for number, answer in taken[k]:
            result.append([number, answer, item[2], item[3], False])
            numbers.append(number)
    return result, numbers
