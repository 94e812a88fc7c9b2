"""Two-column bands: runs of rows that all leave one vertical gutter free, tall enough and with enough
text on both sides, read left column first (`pipeline.extract.layout` lays each column out again).

Works on `layout.Row`s, read through the `Row` protocol (so this module does not import `layout`):
their anchor box (`top`, `bottom`), their segments' extent (`x0`, `x1`), and their glyphs as indices
into the page's `GlyphArrays` (`members`, in the order the rows were grouped; `by_x`, sorted by x0),
read through the arrays' Python lists.
"""
from __future__ import annotations

import bisect
import math
import statistics
from dataclasses import dataclass
from itertools import chain
from typing import Protocol

import numpy as np

from pipeline.extract import charloop
from pipeline.extract.glypharrays import GlyphArrays


class Row(Protocol):
    """What a band reads of a row (`layout.Row`)."""

    members: list[int]
    by_x: list[int]
    top: float
    bottom: float
    x0: float
    x1: float


class LayoutParams(Protocol):
    """What a band reads of the layout's parameters (`layout.LayoutParams`)."""

    @property
    def min_column_rows(self) -> int: ...

    @property
    def min_column_fill(self) -> float: ...

    @property
    def min_gutter(self) -> float: ...

    @property
    def min_column_height(self) -> float: ...


@dataclass
class ColumnBand:
    """The glyphs (indices) of a two-column band, left column and right."""

    left: list[int]
    right: list[int]


def bands(glyphs: GlyphArrays, rows: list[Row], page_height: float, params: LayoutParams):
    """Rows as they are, except runs of rows that form a two-column layout, yielded as one ColumnBand.

    Where the compiled loops are on (`charloop.compiled_layout`), the gutters of every start row are
    tried in one compiled call (`layoutjit.column_candidates`) and only the inner-gap test is made here;
    else (and on a page with a NaN edge) by `_column_run`, the reference."""
    column_run = _compiled_column_runs(glyphs, rows, page_height, params)
    if column_run is None:
        spans = _row_spans(glyphs, rows, params.min_gutter)
        walks = GutterWalks(spans, params.min_gutter, _RowEdges(rows))

        def column_run(start: int):
            return _column_run(glyphs, rows, walks, start, page_height, params)
    i = 0
    while i < len(rows):
        found = column_run(i)
        if found is None:
            yield rows[i]
            i += 1
            continue
        end, gutter = found
        yield _split_band(glyphs, rows[i:end], gutter)
        i = end


def _split_band(glyphs: GlyphArrays, rows: list[Row], gutter: tuple[float, float]) -> ColumnBand:
    """The band's glyphs (row by row, each row's `members` in order) parted at the gutter: those ending
    at or before its right edge to the left column, the others (a NaN edge too) to the right, in one
    comparison over the band's glyphs."""
    members = np.fromiter(chain.from_iterable(row.members for row in rows), dtype=np.int64, count=sum(len(row.members) for row in rows))
    to_left = glyphs.x1[members] <= gutter[1]
    return ColumnBand(members[to_left].tolist(), members[~to_left].tolist())


def _compiled_column_runs(glyphs: GlyphArrays, rows: list[Row], page_height: float, params: LayoutParams):
    """`_column_run` for each start row from the compiled candidates, the rows' spans found compiled too
    (`layoutjit.row_spans`, `_spans` of each row); None: the loops are off, or a glyph or row edge is NaN."""
    kernels = charloop.compiled_layout()
    if kernels is None or not rows:
        return None
    flat, row_of = _band_glyphs(rows, "by_x")
    x0, x1 = glyphs.x0[flat], glyphs.x1[flat]
    edges = np.array([(row.top, row.bottom, row.x0, row.x1) for row in rows], dtype=np.float64)
    if np.isnan(x0).any() or np.isnan(x1).any() or np.isnan(edges).any():
        return None
    first, span_lo, span_hi = kernels.row_spans(x0, x1, np.bincount(row_of, minlength=len(rows)), float(params.min_gutter))
    limits = np.array([params.min_column_rows, params.min_gutter, params.min_column_height * page_height,
                       LONG_BAND_ROWS * params.min_column_rows, params.min_column_fill, MIN_COLUMN_SHARE], dtype=np.float64)
    found = kernels.column_candidates(first, span_lo, span_hi, *(np.ascontiguousarray(edge) for edge in edges.T), limits)
    start_of = found[:, 0].astype(np.int64)
    tried_from = np.searchsorted(start_of, np.arange(len(rows) + 1)).tolist()
    ends = found[:, 1].astype(np.int64).tolist()
    gutters = list(zip(found[:, 2].tolist(), found[:, 3].tolist()))

    lines: dict = {}  # `_side_lines` of the bands tried, by their end and gutter

    def column_run(start: int):
        for k in range(tried_from[start], tried_from[start + 1]):
            end, current = ends[k], gutters[k]
            # The costliest test, as `_gutter_run` makes it last.
            if _gridlike(glyphs, rows, start, end, current, params, lines) or _head_across(glyphs, rows, start, end, current):
                continue
            return _without_trailing_heading(glyphs, rows, start, end, current), current
        return None

    return column_run


class _RowEdges:
    """The rows' left and right ink edges (`x0`, `x1`) as arrays: a band's edges are the extremes over a
    slice of them, asked for every gutter a walk tries (a slice of hundreds of rows at each start row)."""

    def __init__(self, rows: list[Row]):
        self.rows = rows
        self.x0 = np.fromiter((row.x0 for row in rows), dtype=np.float64, count=len(rows))
        self.x1 = np.fromiter((row.x1 for row in rows), dtype=np.float64, count=len(rows))

    def span(self, start: int, end: int) -> tuple[float, float]:
        """(min x0, max x1) over rows[start:end], as `min`/`max` over the rows give them (those compare
        a NaN edge in order, numpy spreads it: with one, the rows are asked one by one)."""
        x0, x1 = self.x0[start:end], self.x1[start:end]
        low, high = float(x0.min()), float(x1.max())
        if math.isnan(low) or math.isnan(high):
            rows = self.rows[start:end]
            return min(row.x0 for row in rows), max(row.x1 for row in rows)
        return low, high


def _row_spans(glyphs: GlyphArrays, rows: list[Row], min_gap: float) -> list[list[tuple[float, float]]]:
    """`_spans` of every row, for the page at once. A span opens where a glyph starts `min_gap` past the
    rightmost end of the row so far: the rightmost end of the span so far, as long as no glyph ends left
    of where it starts (else, or with a NaN edge, row by row)."""
    lengths = np.array([len(row.by_x) for row in rows], dtype=np.int64)
    flat = np.fromiter(chain.from_iterable(row.by_x for row in rows), dtype=np.int64, count=int(lengths.sum()))
    x0, x1 = glyphs.x0[flat], glyphs.x1[flat]
    if not len(flat) or (x1 < x0).any() or np.isnan(x0).any() or np.isnan(x1).any():
        return [_spans(row.by_x, glyphs.x0s, glyphs.x1s, min_gap) for row in rows]
    row_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    row_of = np.repeat(np.arange(len(rows)), lengths)
    column = np.arange(len(flat)) - row_starts[row_of]
    ends = np.full((len(rows), int(lengths.max())), -np.inf)
    ends[row_of, column] = x1
    rightmost = np.maximum.accumulate(ends, axis=1)[row_of, column]
    opens = np.ones(len(flat), dtype=bool)
    opens[1:] = x0[1:] - rightmost[:-1] >= min_gap
    opens[row_starts] = True
    span_starts = np.flatnonzero(opens)
    spans: list[list[tuple[float, float]]] = [[] for _ in rows]
    for row, left, right in zip(row_of[span_starts].tolist(), x0[span_starts].tolist(), np.maximum.reduceat(x1, span_starts).tolist()):
        spans[row].append((left, right))
    return spans


def _spans(by_x: list[int], x0s: list[float], x1s: list[float], min_gap: float) -> list[tuple[float, float]]:
    """A row's ink as (x0, x1) runs (its glyphs `by_x`, sorted by x0), glyphs joined across gaps
    narrower than `min_gap`.

    Finer than segments: a gutter narrower than a segment gap (4 mm beside 10 pt text) still parts
    two columns, while a line's word spaces stay inside one span."""
    spans: list[tuple[float, float]] = []
    for glyph in by_x:
        x0, x1 = x0s[glyph], x1s[glyph]
        if spans and x0 - spans[-1][1] < min_gap:
            spans[-1] = (spans[-1][0], max(spans[-1][1], x1))
        else:
            spans.append((x0, x1))
    return spans


def _open_free_intervals(spans: list[tuple[float, float]], min_gap: float) -> list[tuple[float, float]]:
    """A row's free intervals (`_free_intervals`) open at both ends, without those narrower than `min_gap`.

    Inside a gutter, which lies strictly between the first row's edges and narrows from row to row, these
    give what `_free_intervals(spans, min(lo, row.x0) - 1, max(hi, row.x1) + 1)` gives: clipped to the
    gutter, an interval's outer end is the gutter's either way, and one narrower than `min_gap` never
    becomes the gutter. So they are found once per row, not once per row and gutter tried."""
    return [(a, b) for a, b in _free_intervals(spans, -math.inf, math.inf) if b - a >= min_gap]


def _free_intervals(spans: list[tuple[float, float]], lo: float, hi: float) -> list[tuple[float, float]]:
    gaps = []
    cursor = lo
    for x0, x1 in spans:
        if x0 > cursor:
            gaps.append((cursor, x0))
        cursor = max(cursor, x1)
    if cursor < hi:
        gaps.append((cursor, hi))
    return gaps


HEADING_GAP = 1.4  # a heading stands this many line pitches below the line before it
LONG_BAND_ROWS = 3  # times min_column_rows
MIN_COLUMN_SHARE = 0.25  # each page column is at least this share of the band's width
GUTTER_OVER_INNER_GAP = 1.5  # a page gutter is this much wider than the widest gap inside a typical row


def _band_glyphs(rows: list[Row], name: str) -> tuple[np.ndarray, np.ndarray]:
    """(glyphs, the row of each): the rows' `members` or `by_x` lists one after the other."""
    lengths = [len(getattr(row, name)) for row in rows]
    flat = np.fromiter(chain.from_iterable(getattr(row, name) for row in rows), dtype=np.int64, count=sum(lengths))
    return flat, np.repeat(np.arange(len(rows)), lengths)


def _gridlike(glyphs: GlyphArrays, rows: list[Row], start: int, end: int, gutter: tuple[float, float], params: LayoutParams,
              lines: dict) -> bool:
    """Whether the band's gutter is only a gap of a grid: no wider than its cells' own gaps
    (`GUTTER_OVER_INNER_GAP` times `_typical_inner_gap`), its two sides' lines on one baseline, and a white
    band of its own on a side (a grid's or table's next column, `_inner_band`).

    A grid's cells (a key's numbers over letters, a table's cells) stand on the rows' baselines on both
    sides of the gap, and its other gaps run down all its rows as the gutter does. Two page columns stand
    wherever their own text puts them: where they drift a fraction of a line apart (`_offset_sides`) their
    lines interleave row by row, and where they stay level the gaps inside each (options two a row) are
    crossed by its stems. Either way the band is columns, however wide those gaps."""
    if gutter[1] - gutter[0] >= GUTTER_OVER_INNER_GAP * _typical_inner_gap(glyphs, rows[start:end], gutter):
        return False
    # The bands tried from one start row after another mostly share their end and gutter: each row's lines
    # are found once for them (`lines`, the page's), the test made on the rows from `start` on.
    found = lines.get((end, gutter))
    if found is None or found[0] > start:
        found = lines[(end, gutter)] = (start, *_side_lines(glyphs, rows[start:end], gutter))
    first, left, right, heights = found
    if _offset_sides(left[start - first:], right[start - first:], heights[start - first:], params.min_column_rows):
        return False
    # A band of rows from `start` on holds every white band the rows from an earlier start held.
    if lines.get(("band", end, gutter), end) <= start:
        return True
    if _inner_band(glyphs, rows[start:end], gutter, (gutter[1] - gutter[0]) / GUTTER_OVER_INNER_GAP):
        lines[("band", end, gutter)] = start
        return True
    return False


def _inner_band(glyphs: GlyphArrays, rows: list[Row], gutter: tuple[float, float], min_gutter: float) -> bool:
    """Whether either side of the gutter holds a white band of its own, `min_gutter` wide (as wide as the gap
    test asks a row's gaps to be), that none of that side's rows crosses: a grid's or a table's next column. Two page columns whose rows hold options two a row
    have gaps as wide as the gutter, but their stems run across them."""
    flat, _ = _band_glyphs(rows, "members")
    x0, x1 = glyphs.x0[flat], glyphs.x1[flat]
    for side in (x1 <= gutter[0], x0 >= gutter[1]):
        left, right = x0[side], x1[side]
        if len(left) < 2 or np.isnan(left).any() or np.isnan(right).any():
            return True  # as the gap test said
        order = np.argsort(left, kind="stable")
        reach = np.maximum.accumulate(right[order])
        if (left[order][1:] - reach[:-1] >= min_gutter).any():
            return True
    return False


def _head_across(glyphs: GlyphArrays, rows: list[Row], start: int, end: int, gutter: tuple[float, float]) -> bool:
    """Whether the band's first row is a line across the columns' gutter (a centred running head above them),
    not a column's line: its ink all on one side of the gutter, it reaches into the wider gutter the band's
    other rows leave (from their last ink left of it to their first right of it). Such a row narrows the
    gutter to a sliver beside it, which a long line of a column then closes: the band starts below it."""
    if end - start < 2:
        return False
    first = rows[start]
    ink = np.array(first.members, dtype=np.int64)
    x0, x1 = glyphs.x0[ink], glyphs.x1[ink]
    if not (np.all(x1 <= gutter[0]) or np.all(x0 >= gutter[1])):
        return False
    below, _ = _band_glyphs(rows[start + 1:end], "members")
    left_ends, right_starts = glyphs.x1[below], glyphs.x0[below]
    left_ends = left_ends[left_ends <= gutter[0]]
    right_starts = right_starts[right_starts >= gutter[1]]
    if not len(left_ends) or not len(right_starts):
        return False
    wide = (float(left_ends.max()), float(right_starts.min()))
    return float(x0.min()) < wide[1] and float(x1.max()) > wide[0] and (wide[1] - wide[0]) > (gutter[1] - gutter[0])


ALIGNED = 0.2  # row heights: two lines whose baselines stand closer than this stand on one baseline
OFFSET_SHARE = 0.5  # of the lines beside a line of the other side, at least this share stand off its baseline


def _side_lines(glyphs: GlyphArrays, rows: list[Row], gutter: tuple[float, float]) -> tuple[list[float], list[float], list[float]]:
    """(left, right, heights): where each row's line stands left and right of the gutter (NaN where the row
    has no ink there), and each row's height. A side's line stands at the bottom of its middle glyph in the
    row's `members` order, the order rows were grouped by (the descent line, or the centre), so without a
    sort: a text layer's boxes end at the font's descent, which a line shares; OCR boxes sort by their
    centre, the middle one's keeping to the line."""
    flat, row_of = _band_glyphs(rows, "members")
    bottom = glyphs.bottom[flat]
    heights = np.fromiter((row.bottom - row.top for row in rows), dtype=np.float64, count=len(rows))
    sides = []
    for side in (glyphs.x1[flat] <= gutter[0], glyphs.x0[flat] >= gutter[1]):
        chosen_row, chosen = row_of[side], bottom[side]
        line = np.full(len(rows), np.nan)
        if len(chosen):
            starts = np.flatnonzero(np.concatenate(([True], chosen_row[1:] != chosen_row[:-1])))
            counts = np.diff(np.append(starts, len(chosen)))
            line[chosen_row[starts]] = chosen[starts + (counts - 1) // 2]
        sides.append(line)
    return sides[0].tolist(), sides[1].tolist(), heights.tolist()


def _offset_sides(left: list[float], right: list[float], heights: list[float], min_lines: int) -> bool:
    """Whether the lines left and right of the gutter (`_side_lines` of the band's rows) stand off each
    other's baselines: each line of either side within the other side's run of lines set against the
    nearest line of the other side, aligned within `ALIGNED` of a row's height (the band's median), off
    it by less than that side's line pitch less as much (a line farther than that has no line beside it:
    a wrapped cell's second line beside a one-line cell, a column's blank). At least `min_lines` lines
    off, and `OFFSET_SHARE` of those beside a line. (A band's rows are tens at most: lists, not arrays.)"""
    sides = [sorted(line for line in side if line == line) for side in (left, right)]  # NaN: no line there
    if not heights or min(len(side) for side in sides) < 2:
        return False
    height = statistics.median(heights)
    if not height > 0.0:
        return False
    offset = aligned = 0
    for lines, other in (sides, sides[::-1]):
        pitch = statistics.median([b - a for a, b in zip(lines, lines[1:])])
        for line in lines:
            if not other[0] - height <= line <= other[-1] + height:
                continue
            at = min(max(bisect.bisect_left(other, line), 1), len(other) - 1)
            nearest = min(abs(line - other[at - 1]), abs(other[at] - line))
            if nearest <= ALIGNED * height:
                aligned += 1
            elif nearest < pitch - ALIGNED * height:
                offset += 1
    return offset >= min_lines and offset >= OFFSET_SHARE * (offset + aligned)


def _typical_inner_gap(glyphs: GlyphArrays, rows: list[Row], gutter: tuple[float, float]) -> float:
    """The median, over rows, of the widest gap between neighbouring glyphs on either side of the gutter
    (`_typical_inner_gap_by_rows`, for the band at once: each side's glyphs of a row in their x order,
    the gaps between neighbours of one row, each row's widest; row by row where a gap is NaN)."""
    flat, row_of = _band_glyphs(rows, "by_x")
    found = []
    for side in (glyphs.x1[flat] <= gutter[0], glyphs.x0[flat] >= gutter[1]):
        chosen, row = flat[side], row_of[side]
        neighbours = row[1:] == row[:-1]
        gaps = (glyphs.x0[chosen[1:]] - glyphs.x1[chosen[:-1]])[neighbours]
        if np.isnan(gaps).any():
            return _typical_inner_gap_by_rows(glyphs, rows, gutter)
        gap_row = row[1:][neighbours]
        largest = np.full(len(rows), -np.inf)
        np.maximum.at(largest, gap_row, gaps)
        found.append(largest[np.unique(gap_row)])
    # The median does not ask the order of the rows' widest gaps.
    values = np.sort(np.concatenate(found)).tolist()
    if not values:
        return 0.0
    middle = len(values) // 2
    return values[middle] if len(values) % 2 == 1 else (values[middle - 1] + values[middle]) / 2


def _typical_inner_gap_by_rows(glyphs: GlyphArrays, rows: list[Row], gutter: tuple[float, float]) -> float:
    """`_typical_inner_gap` row by row, as `statistics.median` and `max` give it."""
    widest = []
    x0s, x1s = glyphs.x0s, glyphs.x1s
    for row in rows:
        for ordered in ([g for g in row.by_x if x1s[g] <= gutter[0]], [g for g in row.by_x if x0s[g] >= gutter[1]]):
            gaps = [x0s[b] - x1s[a] for a, b in zip(ordered, ordered[1:])]
            if gaps:
                widest.append(max(gaps))
    return statistics.median(widest) if widest else 0.0


def _merge_spans(spans: list[tuple[float, float]], min_gap: float) -> list[tuple[float, float]]:
    """Sorted (x0, x1) runs joined where they overlap or leave less than `min_gap` between them."""
    merged: list[tuple[float, float]] = []
    for x0, x1 in spans:
        if merged and x0 - merged[-1][1] < min_gap:
            merged[-1] = (merged[-1][0], max(merged[-1][1], x1))
        else:
            merged.append((x0, x1))
    return merged


def _column_run(glyphs: GlyphArrays, rows: list[Row], walks: GutterWalks, start: int, page_height: float, params: LayoutParams):
    """(end, gutter) when rows[start:end] (whose ink spans are `walks.spans`) read as two columns, else None."""
    spans = walks.spans
    first = rows[start]
    if len(spans[start]) >= 2:
        found = _gutter_run(glyphs, rows, walks, start, spans[start], first.x0, first.x1, page_height, params)
        if found is not None:
            return found
    # Column heads set at different heights ("QUESTÃO 98" a few points above "QUESTÃO 99") give rows
    # of one column each (a stray mark beside a head adds a span but no gutter): look for the gutter in
    # the ink of the next few rows together.
    window = range(start, min(start + params.min_column_rows, len(rows)))
    merged = _merge_spans(sorted(span for i in window for span in spans[i]), params.min_gutter)
    if len(merged) < 2:
        return None
    return _gutter_run(glyphs, rows, walks, start, merged, merged[0][0], merged[-1][1], page_height, params)


class GutterWalks:
    """The walks down a page's rows that narrow a gutter to what each row leaves free, remembered.

    A walk's rest depends only on the row it has reached and the gutter it holds there, and the walks
    from neighbouring start rows (each tried in turn until a band is found) mostly reach the same row
    with the same gutter: from there on a walk takes the rest of the earlier one instead of walking it
    again, so each row and gutter is walked once a page (the walks were quadratic in the rows). The sums
    over a walk's rows are still added up row by row from its start, as one walk adds them, so the
    figures are the same to the last bit."""

    def __init__(self, spans: list[list[tuple[float, float]]], min_gutter: float, edges: _RowEdges | None = None):
        self.spans = spans
        self.edges = edges  # the rows' edges, where a band is tested (`_gutter_run`)
        self.free = [_open_free_intervals(row_spans, min_gutter) for row_spans in spans]
        self.min_gutter = min_gutter
        self.lines: dict = {}  # `_side_lines` of the bands tested, by their end and gutter
        # (row, gutter held there) -> (the steps of a walk through it, where that row's step is, its end)
        self._rest: dict[tuple[int, tuple[float, float]], tuple[list[_Step], int, int]] = {}

    def walk(self, start: int, gutter: tuple[float, float]) -> tuple[int, tuple[float, float], float, float]:
        """(end, gutter, left fill, right fill): the rows from `start` on that keep part of `gutter` free,
        the gutter narrowed to what they all leave, and the ink (points, summed over the rows) left and
        right of it on each row."""
        steps: list[_Step] = []
        row, current, rows = start, gutter, len(self.spans)
        rest: tuple[list[_Step], int, int] | None = None
        while row < rows:
            rest = self._rest.get((row, current))
            if rest is not None:
                break
            step = self._step(row, current)
            if step is None:
                break
            steps.append(step)
            current = step[1]
            row += 1
        walked = steps if rest is None else steps + rest[0][rest[1]:]
        end = row if rest is None else rest[2]
        for at, step in enumerate(steps):
            self._rest[(start + at, step[0])] = (walked, at, end)
        left_fill = right_fill = 0.0
        for _, _, left, right in walked:
            left_fill += left
            right_fill += right
        return end, (walked[-1][1] if walked else gutter), left_fill, right_fill

    def right_column_end(self, start: int, gutter: tuple[float, float], min_rows: int) -> tuple[float, int]:
        """`_column_end` of the right side of the walk `walk(start, gutter)` made."""
        walked, at, _ = self._rest[(start, gutter)]
        return _column_end([step[3] for step in walked[at:]], min_rows)

    def _step(self, row: int, current: tuple[float, float]) -> _Step | None:
        """The gutter holding `current` narrows on `row` to the widest (the first of the widest) of the
        row's free intervals inside it, at least min_gutter wide; None where there is none. With it, the
        row's ink left and right of the narrowed gutter."""
        widest: tuple[float, float] | None = None
        widest_width = 0.0
        low, high = current
        min_gutter = self.min_gutter
        for a, b in self.free[row]:
            a = a if a > low else low
            b = b if b < high else high
            if b - a >= min_gutter and (widest is None or b - a > widest_width):
                widest, widest_width = (a, b), b - a
        if widest is None:
            return None
        left = right = 0.0
        for x0, x1 in self.spans[row]:
            if x1 <= widest[0]:
                left += x1 - x0
            if x0 >= widest[1]:
                right += x1 - x0
        return current, widest, left, right


# One row of a gutter walk: the gutter before the row, after it, and the row's ink left and right of it.
_Step = tuple[tuple[float, float], tuple[float, float], float, float]


def _gutter_run(
    glyphs: GlyphArrays, rows: list[Row], walks: GutterWalks, start: int, first_spans: list[tuple[float, float]],
    lo: float, hi: float, page_height: float, params: LayoutParams,
):
    """(end, gutter) for the first gap inside `first_spans` (widest first) that the rows from `start` on
    keep free as two page columns, else None."""
    first = rows[start]
    inner = [g for g in _free_intervals(first_spans, lo, hi) if g[0] > lo and g[1] < hi]
    for gutter in sorted(inner, key=lambda g: g[0] - g[1]):
        if gutter[1] - gutter[0] < params.min_gutter:
            continue
        end, current, left_fill, right_fill = walks.walk(start, gutter)
        count = end - start
        if count < params.min_column_rows:
            continue
        # Side-by-side answer options between short stems form short bands; page columns run long.
        # (A band of many rows is columns however short: two questions side by side above a full-width one.)
        if rows[end - 1].bottom - first.top < params.min_column_height * page_height and count < LONG_BAND_ROWS * params.min_column_rows:
            continue
        # Each column's ink, per row, against that column's own width (rows of the two columns often
        # alternate, and a figure may leave one column short of text for a while).
        band_lo, band_hi = (walks.edges or _RowEdges(rows)).span(start, end)
        left_width, right_width = max(current[0] - band_lo, 1.0), max(band_hi - current[1], 1.0)
        if min(left_width, right_width) < MIN_COLUMN_SHARE * (band_hi - band_lo):
            continue  # the last column of a table beside the rest of it, not a page column
        if _sparse(left_fill, count, left_width, params):
            continue
        if _sparse(right_fill, count, right_width, params):
            # Text fills the left column before the right one, so the right may end before the band does
            # (the last page's, halfway down beside a left one that runs on): it is judged on its rows down
            # to its end, not on the empty rows below. (A left column sparse beside a full right one is a
            # table's: headings beside their long cells.)
            right_run, right_rows = walks.right_column_end(start, gutter, params.min_column_rows)
            if _sparse(right_run, right_rows, right_width, params):
                continue
        # The costliest test last (each is pure, so their order changes nothing but the time).
        if _gridlike(glyphs, rows, start, end, current, params, walks.lines):
            continue  # a grid (a key's numbers over letters): its cells stand as far apart as the "gutter"
        if _head_across(glyphs, rows, start, end, current):
            continue
        return _without_trailing_heading(glyphs, rows, start, end, current), current
    return None


def _sparse(ink: float, rows: int, width: float, params: LayoutParams) -> bool:
    """Whether `ink` (points, summed over `rows` rows) leaves a column `width` wide emptier than page text."""
    return ink / rows < params.min_column_fill * width


def _column_end(inks: list[float], min_rows: int) -> tuple[float, int]:
    """(ink, rows) of one side of a band down to where the column ends: its last row with ink before
    `min_rows` rows without any (a page number far below is not more of it); rows at least `min_rows`."""
    ink, last, empty = 0.0, 0, 0
    for at, here in enumerate(inks):
        if here > 0.0:
            if empty >= min_rows:
                break
            ink += here
            last, empty = at + 1, 0
        else:
            empty += 1
    return ink, max(last, min_rows)


def _without_trailing_heading(glyphs: GlyphArrays, rows: list[Row], start: int, end: int, gutter: tuple[float, float]) -> int:
    """A heading set on one side just before full-width text ("QUESTÃO 100" above a question that spans
    the page) is part of what follows, not the last line of its column: it stands further below its
    column's previous line than the column's own line pitch, and the other column has ended above it."""
    if end >= len(rows) or end - start < 3:
        return end
    last = rows[end - 1]
    band = rows[start:end]
    flat, row_of = _band_glyphs(band, "members")
    on_left = np.bincount(row_of, weights=glyphs.x1[flat] <= gutter[0], minlength=len(band)) > 0
    on_right = np.bincount(row_of, weights=glyphs.x0[flat] >= gutter[1], minlength=len(band)) > 0
    left = [r for r, here in zip(band, on_left.tolist()) if here]
    right = [r for r, here in zip(band, on_right.tolist()) if here]
    side, other = (left, right) if left and left[-1] is last else (right, left)
    if not side or side[-1] is not last or (other and other[-1] is last) or len(side) < 3:
        return end
    pitches = [b.top - a.top for a, b in zip(side[:-1], side[1:-1])]
    if pitches and last.top - side[-2].top > HEADING_GAP * statistics.median(pitches):
        return end - 1
    return end
