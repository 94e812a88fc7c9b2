"""Two-column bands: runs of rows that all leave one vertical gutter free, tall enough and with enough
text on both sides, read left column first (`pipeline.extract.layout` lays each column out again).

Works on `layout.Row`s, read through the `Row` protocol (so this module does not import `layout`):
their anchor box (`top`, `bottom`), their segments' extent (`x0`, `x1`), and their glyphs as indices
into the page's `GlyphArrays` (`members`, in the order the rows were grouped; `by_x`, sorted by x0),
read through the arrays' Python lists. The tests a gutter passes before its band counts (not a grid's gap, no heading
across it) are `gutterchecks`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pipeline.extract import charloop
from pipeline.extract.glypharrays import GlyphArrays
from pipeline.extract.gutterchecks import LayoutParams, Row, band_glyphs, gridlike, head_across, without_trailing_heading


@dataclass
class ColumnBand:
    """The glyphs (indices) of a two-column band, left column and right."""

    left: list[int]
    right: list[int]


def bands(glyphs: GlyphArrays, rows: list[Row], page_height: float, params: LayoutParams):
    """Rows as they are, except runs of rows that form a two-column layout, yielded as one ColumnBand.

    Where the compiled loops are on (`charloop.compiled_layout`), the gutters of every start row are
    tried in one compiled call (`column_candidates` of `layoutir`, or `layoutjit`) and only the inner-gap test is made here;
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
    members = band_glyphs(rows, "members")[0]
    to_left = glyphs.x1[members] <= gutter[1]
    return ColumnBand(members[to_left].tolist(), members[~to_left].tolist())


def _compiled_column_runs(glyphs: GlyphArrays, rows: list[Row], page_height: float, params: LayoutParams):
    """`_column_run` for each start row from the compiled candidates, the rows' spans found compiled too
    (`row_spans`, `_spans` of each row); None: the loops are off, or a glyph or row edge is NaN."""
    kernels = charloop.compiled_layout()
    if kernels is None or not rows:
        return None
    flat, row_of = band_glyphs(rows, "by_x")
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

    lines: dict = {}  # `gutterchecks._side_lines` of the bands tried, by their end and gutter

    def column_run(start: int):
        for k in range(tried_from[start], tried_from[start + 1]):
            end, current = ends[k], gutters[k]
            # The costliest test, as `_gutter_run` makes it last.
            if gridlike(glyphs, rows, start, end, current, params, lines) or head_across(glyphs, rows, start, end, current):
                continue
            return without_trailing_heading(glyphs, rows, start, end, current), current
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
    flat, row_of = band_glyphs(rows, "by_x")
    lengths = np.bincount(row_of, minlength=len(rows))
    x0, x1 = glyphs.x0[flat], glyphs.x1[flat]
    if not len(flat) or (x1 < x0).any() or np.isnan(x0).any() or np.isnan(x1).any():
        return [_spans(row.by_x, glyphs.x0s, glyphs.x1s, min_gap) for row in rows]
    row_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
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


LONG_BAND_ROWS = 3  # times min_column_rows
MIN_COLUMN_SHARE = 0.25  # each page column is at least this share of the band's width


def merge_spans(spans: list[tuple[float, float]], min_gap: float) -> list[tuple[float, float]]:
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
    merged = merge_spans(sorted(span for i in window for span in spans[i]), params.min_gutter)
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
        self.lines: dict = {}  # `gutterchecks._side_lines` of the bands tested, by their end and gutter
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
        if gridlike(glyphs, rows, start, end, current, params, walks.lines):
            continue  # a grid (a key's numbers over letters): its cells stand as far apart as the "gutter"
        if head_across(glyphs, rows, start, end, current):
            continue
        return without_trailing_heading(glyphs, rows, start, end, current), current
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


