"""The tests a gutter passes before its band is read as two page columns: not a grid's gap (`gridlike`: the
cells' own gaps as wide, or the two sides' lines on one baseline), no heading across it (`head_across`), and no
heading left hanging at the band's end (`without_trailing_heading`); and the `Row` and `LayoutParams` protocols
they and `columns` read rows and the layout's parameters through.
"""
from __future__ import annotations

import bisect
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Protocol, overload

import numpy as np

from pipeline.extract import charloop
from pipeline.extract.glypharrays import GlyphArrays


@dataclass(frozen=True, eq=False)
class RowArrays:
    """The `members` and `by_x` lists of a page's rows one after the other as arrays, row r's at
    `bounds[r]:bounds[r + 1]` (what `band_glyphs` slices for a run of rows instead of reading their lists).
    It holds no rows: each row holds it (`page`) with its place (`at`), and a page's rows referring back to
    their arrays that referred to them would be a cycle, garbage only the collector frees (a file's layout
    then outlives the file, `infra.collector`)."""

    members: np.ndarray
    by_x: np.ndarray
    bounds: np.ndarray

    def row_list(self, name: str, at: int) -> list[int]:
        """Row `at`'s `members` or `by_x` as a list."""
        return getattr(self, name)[self.bounds[at]:self.bounds[at + 1]].tolist()


class RowLists(Sequence[list[int]]):
    """Each row's `by_x` list, read from the row when asked for (a page's rows as grouped: most are read only as arrays)."""

    def __init__(self, rows: Sequence[Row]):
        self.rows = rows

    def __len__(self) -> int:
        return len(self.rows)

    @overload
    def __getitem__(self, at: int) -> list[int]: ...

    @overload
    def __getitem__(self, at: slice) -> list[list[int]]: ...

    def __getitem__(self, at: int | slice) -> list[int] | list[list[int]]:
        if isinstance(at, slice):
            return [row.by_x for row in self.rows[at]]
        return self.rows[at].by_x


class Row(Protocol):
    """What a band reads of a row (`layout.Row`); a row may also have `page`, its lists and those of the rows
    grouped with it as arrays (`RowArrays`), and `at`, its place among them."""

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


HEADING_GAP = 1.4  # a heading stands this many line pitches below the line before it


GUTTER_OVER_INNER_GAP = 1.5  # a page gutter is this much wider than the widest gap inside a typical row


def band_glyphs(rows: Sequence[Row], name: str) -> tuple[np.ndarray, np.ndarray]:
    """(glyphs, the row of each): the rows' `members` or `by_x` lists one after the other; a slice of
    their page's arrays (`RowArrays`) where the rows follow one another there."""
    page = getattr(rows[0], "page", None) if rows else None
    if page is not None:
        first = rows[0].at  # type: ignore[attr-defined]
        # A run of the page's rows: each of them one of the page's, at its place after the one before.
        if all(getattr(row, "page", None) is page and row.at == first + i for i, row in enumerate(rows)):  # type: ignore[attr-defined]
            bounds = page.bounds[first:first + len(rows) + 1]
            return getattr(page, name)[bounds[0]:bounds[-1]], np.repeat(np.arange(len(rows)), np.diff(bounds))
    lengths = [len(getattr(row, name)) for row in rows]
    flat = np.fromiter(chain.from_iterable(getattr(row, name) for row in rows), dtype=np.int64, count=sum(lengths))
    return flat, np.repeat(np.arange(len(rows)), lengths)


def gridlike(glyphs: GlyphArrays, rows: list[Row], start: int, end: int, gutter: tuple[float, float], params: LayoutParams,
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
    flat, _ = band_glyphs(rows, "members")
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


def head_across(glyphs: GlyphArrays, rows: list[Row], start: int, end: int, gutter: tuple[float, float]) -> bool:
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
    below, _ = band_glyphs(rows[start + 1:end], "members")
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
    flat, row_of = band_glyphs(rows, "members")
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
    flat, row_of = band_glyphs(rows, "by_x")
    loops = getattr(charloop.compiled_layout(), "rows", None)
    if loops is not None:  # the same widest gaps compiled (`rowir.inner_gaps`)
        widest = loops.inner_gaps(glyphs.x0, glyphs.x1, flat, row_of, gutter)
        if widest is None:
            return _typical_inner_gap_by_rows(glyphs, rows, gutter)
        return _median(np.sort(widest).tolist())
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
    return _median(np.sort(np.concatenate(found)).tolist())


def _median(values: list[float]) -> float:
    """The median of sorted `values` (0.0 of none)."""
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


def without_trailing_heading(glyphs: GlyphArrays, rows: list[Row], start: int, end: int, gutter: tuple[float, float]) -> int:
    """A heading set on one side just before full-width text ("QUESTÃO 100" above a question that spans
    the page) is part of what follows, not the last line of its column: it stands further below its
    column's previous line than the column's own line pitch, and the other column has ended above it."""
    if end >= len(rows) or end - start < 3:
        return end
    last = rows[end - 1]
    band = rows[start:end]
    flat, row_of = band_glyphs(band, "members")
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
