"""Key entries read with a number that is no question of the sheet, standing where the sheet's questions lack
their entries: a scanned key's `54. a` `55. b` `56. c` read `94.` `95.` `96.` between `53.` and `57.` give
answers to questions the sheet does not have, and left alone, 54–56 would go unkeyed with no line naming them.

Entries are taken in the order the key reader read them (down a column, along a table's rows). A run of entries
whose numbers are no question of the sheet, between two entries that are (`before`, `after`: same part prefix,
`after` above `before`), is a stray run; the sheet's questions between `before` and `after` that have no entry
are its gap. Each stray entry gets a line (`key.entry_stray`) and each question of the gap a line and a flag
(`key.gap_unkeyed`), both naming the other. Only where the reading is unambiguous is an entry put in its
place: the gap has exactly as many questions as the run has entries, in the same order and spacing, and every
entry's number is its place's with one digit misread, the same digit in each (`5` → `9`: 54–56 read 94–96).
Then each is keyed to its place, reported (`key.stray_placed`) and flagged, and its question unsure (its entry
is inferred). Only on keys read by OCR: a text layer's number is what the key prints.
"""
from __future__ import annotations

import re

from pipeline.diagnostics import Code, diagnose
from pipeline.parse.keys import KeyTable

_NUMBER = re.compile(r"^(?P<prefix>.*?)(?P<value>\d+)$")


def _split(number: str) -> tuple[str, int] | None:
    match = _NUMBER.match(number)
    return (match.group("prefix"), int(match.group("value"))) if match else None


def _misread_digit(read: int, place: int) -> int | None:
    """The position of the one digit `read` differs from `place` by (same count of digits), else None."""
    a, b = str(read), str(place)
    differ = [i for i, (x, y) in enumerate(zip(a, b)) if x != y]
    return differ[0] if len(a) == len(b) and len(differ) == 1 else None


def place_strays(table: KeyTable, questions: list[str], known: set[str]) -> None:
    """Report, and where unambiguous place, `table`'s stray runs (see the module). `questions`: the sheet's
    question number keys in order; `known`: every number key the sheet has (questions and their blocks)."""
    order = list(table.answers)
    k = 0
    while k < len(order):
        if order[k] in known:
            k += 1
            continue
        end = k
        while end < len(order) and order[end] not in known:
            end += 1
        if k > 0 and end < len(order):
            _one_run(table, order[k:end], order[k - 1], order[end], questions)
        k = end


def _one_run(table: KeyTable, strays: list[str], before: str, after: str, questions: list[str]) -> None:
    low, high = _split(before), _split(after)
    if low is None or high is None or low[0] != high[0] or high[1] - low[1] < 2:
        return
    prefix = low[0]
    gap = [q for q in questions if (found := _split(q)) is not None and found[0] == prefix and low[1] < found[1] < high[1]
           and q not in table.answers and q not in table.twice]
    if not gap:
        return
    read = [_split(s) for s in strays]
    places = [_split(q) for q in gap]
    digits = {(_misread_digit(r[1], p[1]) if r is not None and p is not None and r[0] == prefix else None)
              for r, p in zip(read, places)}
    if (len(strays) == len(gap) and None not in digits and len(digits) == 1
            and all(r is not None and p is not None and r[1] - read[0][1] == p[1] - places[0][1]  # type: ignore[index]
                    for r, p in zip(read, places))):
        _place(table, strays, gap, before, after)
        return
    shown = ", ".join(repr(s) for s in strays)
    for stray in strays:
        table.problems.append(diagnose(Code.KEY_ENTRY_STRAY, name=table.name, read=stray, before=before, after=after,
                                       gap=", ".join(gap)))
    for question in gap:
        line = diagnose(Code.KEY_GAP_UNKEYED, name=table.name, question=question, before=before, after=after, read=shown)
        table.problems.append(line)
        table.flags[question] = line
        table.named.add(question)


def _place(table: KeyTable, strays: list[str], gap: list[str], before: str, after: str) -> None:
    """Key each stray entry to its place in the gap: its answer and what is known of its reading move with it."""
    moved = dict(zip(strays, gap))
    table.answers = {moved.get(n, n): a for n, a in table.answers.items()}
    for mapping in (table.sources, table.repaired, table.number_lines):
        for stray, place in moved.items():
            if stray in mapping:
                mapping[place] = mapping.pop(stray)  # type: ignore[assignment]
    for marks in (table.voided, table.pilot, table.inferred):
        for stray, place in moved.items():
            if stray in marks:
                marks.discard(stray)
                marks.add(place)
    for stray, place in moved.items():
        line = diagnose(Code.KEY_STRAY_PLACED, name=table.name, read=stray, before=before, after=after, question=place)
        table.problems.append(line)
        table.flags[place] = line
        table.inferred.add(place)
