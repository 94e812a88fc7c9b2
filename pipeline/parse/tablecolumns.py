"""Where a key table's next column begins, from its rows' cells: what stops an answer cell at a notes column.

A key table prints `number | answer | …`, and what stands right of the answer column (a note, a score, a
remark on the form accepted) is no part of the answer. Its header does not always say where that column is: the
header row may be read as a line apart from the column's cells, set far down the page's reading order, or its
cell may be empty. The rows say it all the same. Each column's cells cover an x range of their own (centred,
flush left or right: whatever their alignment, a column's cells stay inside it), and between two columns runs a
gutter no cell crosses. Here the cells of the table's rows right of the number column are laid on the x axis;
the ranges they cover, parted by gutters at least `GUTTER_LINES` line heights wide (a word space inside one cell
is far narrower), are the table's columns; the one under the answer header is the answer column, and the next
one to its right starts where the answer column's cells stop. No further range: no further column, and the
answer column is read as before.

Public: `next_column_start(cells, centre)`.
"""
from __future__ import annotations

from statistics import median

from pipeline.extract import Line, merge_spans

# How wide, in line heights, a white gutter between the x ranges of a table's cells must be to part two columns.
# A word space inside a cell is about a third of a line height; a ruled table's padding on both sides of a rule,
# plus the slack a centred cell leaves, is wider than a line height.
GUTTER_LINES = 1.0


def next_column_start(cells: list[Line], centre: float) -> float:
    """The x where the column right of the answer column begins, or infinity where none stands. `cells`: the
    lines of the table's rows right of the number column (one page's); `centre`: the x of the answer column's
    header (the range nearest to it is the answer column)."""
    if not cells:
        return float("inf")
    gutter = GUTTER_LINES * median(cell.bottom - cell.top for cell in cells)
    ranges = merge_spans(sorted((cell.x0, cell.x1) for cell in cells), gutter)  # the cells' x ranges, parted by gutters

    def distance(span: tuple[float, float]) -> float:
        return max(span[0] - centre, centre - span[1], 0.0)

    answer = min(ranges, key=distance)
    later = [x0 for x0, _ in ranges if x0 > answer[1]]
    return min(later) if later else float("inf")
