"""CSV files written for a spreadsheet: a text cell that a spreadsheet would run as a formula is written as text.

A cell opening with `=`, `+`, `-`, `@`, a tab or a carriage return is a formula to Excel, LibreOffice and
Google Sheets (`=HYPERLINK(…)`, `=cmd|' /C calc'!A0`, `@SUM(…)`). The texts in these files come from others:
model names a run folder carries, question texts and options from exam PDFs, sheet codes. Such a cell is
written with a leading `'` (OWASP's advice), which a spreadsheet shows and never evaluates; numbers, and
strings that are numbers (`-0.35`), are written as they are.
"""
from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import IO, Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """`value` as a CSV cell a spreadsheet reads as text, never as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _is_number(value):
        return "'" + value
    return value


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return text == text.strip()


class _Writer:
    def __init__(self, buffer: IO[str]):
        self._writer = csv.writer(buffer, lineterminator="\n")

    def writerow(self, row: Iterable[Any]) -> None:
        self._writer.writerow([cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(buffer: IO[str]) -> _Writer:
    """`csv.writer(buffer, lineterminator="\\n")` whose every text cell is `cell`'d."""
    return _Writer(buffer)
