"""Key entries OCR misread, mended from their column's run: a printed key lists its numbers one after
another down each column, so a number that breaks the run in a gap of exactly one ("1." between
"10." and "12.") is the number the gap leaves, and a row whose number could not be read at all ("tl a"
above "2. b", "9 a" with its dot lost) is that number when the rest of the row reads as an entry.
Only on OCR'd pages; every mended entry is reported on its question, so a curator can check it against the key,
and its question is flagged unsure (its entry rests on the run, not on what was read).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.widths import plain_number

MIN_RUN = 2  # entries read in a column before its run mends anything
RUN_MIN_SHARE = 0.7  # of its neighbouring entries that count up by one
NUMBER_TOKEN_MAX_CHARS = 4  # a row's unreadable first token may stand for a number of up to 3 digits and its mark
# Characters Tesseract reads for letters of the same shape: a key's "1. B" read as "1.8", "50. c" as
# "50. e". Only where the read one is no answer the key allows, and only shapes with one letter behind
# them ("0" may be O or D, "O" may be C or D, and stay unread).
ANSWER_LOOKALIKES = {"8": "B", "6": "G", "5": "S", "2": "Z", "1": "I", "e": "c"}


@dataclass
class ColumnRow:
    """One row of a key column under one section prefix: its text, the entries read in it (number,
    answer, pilot mark) and whether it was OCR'd."""

    text: str
    entries: list[tuple[str, str, bool]]
    ocr: bool


@dataclass
class MendedColumn:
    """A column's entries in order as (number, answer, pilot); (number, line) per mended entry ("11", "read as '1',
    taken as 11 (between 10 and 12)"); and the OCR'd rows among its entries that still read as none
    (each may be a lost entry: a curator must see it, not only a question left without a key)."""

    entries: list[tuple[str, str, bool]]
    mended: list[tuple[str, str]]
    unread: list[str]


def column_items(rows: list[ColumnRow]) -> list[list]:
    """A column's items in order, [number or None, answer, row index, read as, pilot]: each entry read, and
    each OCR'd row that read as none (None where the number stands)."""
    items: list[list] = []
    for index, row in enumerate(rows):
        if row.entries:
            items += [[number, answer, index, number, pilot] for number, answer, pilot in row.entries]
        elif row.ocr and row.text.strip():
            items.append([None, None, index, row.text.strip(), False])
    return items


def mended_column(items: list[list], mended: list[tuple[str, str]]) -> MendedColumn:
    """The column's entries from its items (as the `key-runs` pass left them) and the report lines of what it mended."""
    return MendedColumn([(number, answer, pilot) for number, answer, _, _, pilot in items if number is not None],
                        mended, _unread_rows(items))


def _unread_rows(items: list[list]) -> list[str]:
    """OCR'd rows that read as no entry where an entry belongs: between the first entry and the last,
    or just before or after them when the row still shows the number the run gives that place ("1."
    whose letter was lost, above "2. b"). Other rows outside the run are headings and footers."""
    read = [k for k, item in enumerate(items) if item[0] is not None]
    if not read:
        return []
    unread = [item[3] for item in items[read[0] + 1:read[-1]] if item[0] is None]
    first, last = _read_number(items, read[0]), _read_number(items, read[-1])
    for k in range(read[0] - 1, -1, -1):  # upwards from the first entry
        if first is None or not _shows_number(items[k][3], first - (read[0] - k)):
            break
        unread.insert(0, items[k][3])
    for k in range(read[-1] + 1, len(items)):
        if last is None or not _shows_number(items[k][3], last + (k - read[-1])):
            break
        unread.append(items[k][3])
    return unread


def _shows_number(text: str, number: int) -> bool:
    """Whether the row's first token is `number`, alone or before a mark ("8.", "8*", "5.8")."""
    token = text.split()[0] if text.split() else ""
    return number >= 0 and re.match(rf"{number}(?:$|[^\w])", token) is not None


def mend_run(items: list[list], rows: list[ColumnRow], entry_re: re.Pattern) -> list[tuple[str, str]]:
    """Mends, in place, the items of a column that counts up; (number, report line) per mended entry.

    Between two numbers read whose difference is the count of rows between them ("10." … "13." with two
    rows between), every row between is the number its place gives: unread rows, and numbers that break
    the run ("1. d" and a lone "a" between "10." and "13." are 11 and 12). Before the first such number,
    unread rows count back from it ("tl a" above "2. b")."""
    mended = _prefixed_runs(items)
    read = [k for k in range(len(items)) if _read_number(items, k) is not None]
    anchors = [k for k in read if any(_agree(items, k, j) for j in read if j != k)]
    if anchors and anchors[0] > 0 and all(item[0] is None for item in items[:anchors[0]]):
        mended += _mend_group(items, rows, entry_re, 0, anchors[0])
    for p, q in zip(anchors, anchors[1:]):
        if q - p > 1 and _agree(items, p, q):
            mended += _mend_group(items, rows, entry_re, p + 1, q)
    last = anchors[-1] if anchors else None
    if last is not None and last + 2 == len(items) and items[-1][0] is None and rows[items[-1][2]].ocr:
        before = _read_number(items, last)
        if _shows_number(items[-1][3], before + 1):
            # The column's last row, unread, that still shows the number after the last one read.
            line = _mend(items[-1], before + 1, entry_re, before, None)
            if line:
                mended.append(line)
    return mended


def _runs(items: list[list]) -> list[list[int]]:
    """The positions of the numbers read, cut into runs: each number as far from the one before as its row."""
    runs: list[list[int]] = []
    for k in (k for k in range(len(items)) if _read_number(items, k) is not None):
        if runs and _agree(items, runs[-1][-1], k):
            runs[-1].append(k)
        else:
            runs.append([k])
    return runs


def _prefixed_runs(items: list[list]) -> list[tuple[str, str]]:
    """Mends, in place, a run whose every number ends with the number another run of the column gives its row, a digit
    or two more before it (`Số 1: b` read `51: b` … `59: b` above `10: c`: the word before each number read as a digit
    glued to it); (number, report line) per mended entry. The other run must hold `MIN_RUN` numbers and each number
    keep at most two digits more than its place's."""
    mended: list[tuple[str, str]] = []
    runs = _runs(items)
    for run in runs:
        for other in runs:
            if other is run or len(other) < MIN_RUN:
                continue
            base = _read_number(items, other[0])
            assert base is not None
            expected = {k: base - (other[0] - k) for k in run}
            read = {k: items[k][0] for k in run}
            if all(n >= 1 and read[k] != str(n) and read[k].endswith(str(n)) and len(read[k]) - len(str(n)) <= 2
                   for k, n in expected.items()):
                for k, n in expected.items():
                    item = items[k]
                    item[0] = str(n)
                    mended.append((item[0], f"read as {item[3]!r}, taken as {n} (the run from {base} gives its row; "
                                            f"what stands before the number read as a digit)"))
                break
    return mended


def _agree(items: list[list], p: int, q: int) -> bool:
    """Whether the numbers read at `p` and `q` are as far apart as their rows."""
    return _read_number(items, q) - _read_number(items, p) == q - p


def _mend_group(items: list[list], rows: list[ColumnRow], entry_re: re.Pattern, start: int, stop: int) -> list[tuple[str, str]]:
    """Mends the OCR'd rows `start`..`stop` - 1 to the numbers their places give, counted back from the
    number read at `stop`."""
    group = items[start:stop]
    after = _read_number(items, stop)
    before = _read_number(items, start - 1)
    low = after - len(group) - 1
    if low < 0 or not all(rows[item[2]].ocr for item in group):
        return []
    lines = [_mend(item, low + offset, entry_re, before, after) for offset, item in enumerate(group, start=1)]
    return [line for line in lines if line]


def runs_down(items: list[list]) -> bool:
    """Whether the entries read count up down the column (by one, or two across a lost entry), not
    across a row of several columns ("1 A  23 C  45 D" read row by row): only such a run can tell a
    number."""
    values = [int(item[0]) for item in items if item[0] is not None and item[0].isdecimal()]
    steps = sum(1 for a, b in zip(values, values[1:]) if 0 < b - a <= 2)
    # Steps of two are lost entries in a run by ones; all of them by two are a table's rows of pairs read across
    # ("1 в  3 г  5 б" over "2 б  4 г  6 б"), whose numbers run down its pairs of columns, not down this line.
    ones = sum(1 for a, b in zip(values, values[1:]) if b - a == 1)
    across = steps - ones >= 2 and steps - ones > ones
    return len(values) >= MIN_RUN and steps >= RUN_MIN_SHARE * (len(values) - 1) and not across


def _read_number(items: list[list], position: int) -> int | None:
    """The number of the entry at `position` when it was read as one, else None."""
    if 0 <= position < len(items) and items[position][0] is not None and items[position][0].isdecimal():
        return int(items[position][0])
    return None


def _mend(item: list, expected: int, entry_re: re.Pattern, before: int | None, after: int | None) -> tuple[str, str] | None:
    """Give `item` the number `expected` where its reading allows it; (that number, the report line), or None."""
    number = item[0]
    if number is not None and number.isdecimal() and int(number) == expected:
        return None
    lookalike = ""
    if number is None:
        token, _, rest = item[3].partition(" ")
        if len(token) > NUMBER_TOKEN_MAX_CHARS:
            return None
        found = _entry_as(expected, item[3], entry_re)
        if found is None:
            # The answer's letter read as a digit of its shape ("1.8" for "1. B"): the one such reading.
            readings = set()
            shown = re.match(rf"{expected}(?!\d)", item[3])  # the number itself is never a letter
            for at, digit in enumerate(item[3]):
                if digit in ANSWER_LOOKALIKES and not (shown and at < shown.end()):
                    match = _entry_as(expected, item[3][:at] + ANSWER_LOOKALIKES[digit] + item[3][at + 1:], entry_re)
                    if match:
                        readings.add((match.group("answer").strip(), digit))
            if len(readings) != 1:
                return None
            (answer, digit), = readings
            item[1], lookalike = answer, f", its answer {answer} read as {digit!r}"
        else:
            item[1] = found.group("answer").strip()
    elif not number.isdecimal() or len(number) > len(str(expected)) + 1:
        return None
    item[0] = str(expected)
    between = f"between {before} and {after}" if before is not None and after is not None else (
        f"before {after}" if after is not None else f"after {before}")
    return item[0], f"read as {item[3]!r}, taken as {expected} ({between}){lookalike}"


def _entry_as(expected: int, text: str, entry_re: re.Pattern) -> re.Match | None:
    """`text` read as the entry of number `expected`: as it is, or with its first token standing for
    the number ("tl a"), or with the number lost altogether (a lone "C")."""
    _, _, rest = text.partition(" ")
    texts = [text] + [f"{expected}{mark} {body}" for body in (rest, text) for mark in (".", "") if body]
    return next((m for m in map(entry_re.search, texts) if m and plain_number(m.group("number")) == str(expected)), None)
