"""Page geometry to reading order: glyph boxes become words, rows, segments and columns.

Works on positioned glyphs only (no PDF library here), so the same assembly serves the text layer and
anything else that yields boxes. Coordinates are PDF points, origin top-left.

Reading order is decided by geometry, never by the order glyphs were stored in the content stream:
 - glyphs whose vertical extents overlap form a row; a row sorted by x, with spaces where gaps open;
 - a row splits into segments at wide gaps (tables, 2x2 option grids, "statement ... P F" lines);
 - a band of rows that all leave one vertical gutter free, tall enough and with enough text on both
   sides, is a two-column layout and is read left column first. Short grids (answer options side by
   side) stay row by row: the parser pairs grid options by label and column, which keeps tables intact.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np

from pipeline.extract import charloop
from pipeline.extract.columns import ColumnBand, bands
from pipeline.extract.decimals import round2
from pipeline.extract.document import Line
from pipeline.extract.glypharrays import NO_RUN, Glyph, GlyphArrays
from pipeline.extract.gutterchecks import RowArrays, RowLists
from pipeline.extract.smallrows import SHIFTED, SMALL, join_small_rows, shifted_pairs
from pipeline.extract.wordspaces import JUSTIFIED_MAX_GAP, StreamSpaces, WordSpaces

if TYPE_CHECKING:  # llvmlite is imported only where layout's loops are built (`charloop.compiled_layout`)
    from pipeline.extract.segmentir import SegmentLoops

__all__ = ["Glyph", "GlyphArrays", "LayoutParams", "Row", "Segment", "WordSpaces", "assemble", "clusters", "group_rows"]


@dataclass(frozen=True)
class LayoutParams:
    word_gap: float = 0.18  # a gap wider than this many font sizes is a space
    segment_gap: float = 1.6  # a gap wider than this many font sizes splits a row into segments
    min_column_rows: int = 6  # a two-column band needs at least this many rows
    min_column_fill: float = 0.25  # each column's text covers at least this share of the band width
    min_gutter: float = 9.0  # points of free space between two columns
    min_column_height: float = 0.3  # a two-column band spans at least this share of the page height


# Segment sizes (glyph box heights): a gap inside a segment wider than this is more than a word space (0.17 of the
# box in Noto Sans CJK, 0.27 in DejaVu Sans; two spaces 0.36 and 0.55): cells of
# a row set a few spaces apart (options side by side), recorded on the Line for the parser to split at.
WIDE_GAP = 0.33
WIDE_SPREAD = 1.5  # times the line's median word space
WORD_SPACE_MIN = 0.1  # segment sizes: a narrower gap is kerning or a glyph's side bearing, no space


@dataclass(eq=False)
class Segment:
    """A run of text on one row with no wide gap inside: one Line of the extracted document. Its glyphs
    are `indices` (left to right) into the page's `source` arrays."""

    source: GlyphArrays
    indices: np.ndarray
    text: str = ""
    x0: float = 0.0
    top: float = 0.0
    x1: float = 0.0
    bottom: float = 0.0
    size: float = 0.0
    highlighted: bool = False
    bold: bool = False  # every glyph bold (a heading); partly bold runs are marked **like this** in text
    wide_starts: Sequence[float] = ()  # `wide_gap_starts`, measured when the segment is made
    rounded_box: tuple[float, float, float, float] | None = None  # (x0, top, x1, bottom) rounded to 0.01, where made with them

    @property
    def glyphs(self) -> list[Glyph]:
        """The segment's Glyph objects (made once for the page when first asked for)."""
        return self.source.glyphs(self.indices)

    @property
    def read_by_ocr(self) -> bool:
        """Whether any of its glyphs is a word OCR read (`patches` splices those into a text page)."""
        if not self.source.runs:  # a text layer's page as read: no OCR line, so no glyph of one
            return False
        return bool((self.source.run[self.indices] != NO_RUN).any())

    def to_line(self, text: str, *, highlighted: bool, font_size: float, bold: bool = False) -> Line:
        """The document Line at this segment's place (coordinates rounded to 0.01 pt)."""
        x0, top, x1, bottom = self.rounded_box or (round(self.x0, 2), round(self.top, 2), round(self.x1, 2), round(self.bottom, 2))
        return Line(
            text=text,
            x0=x0,
            top=top,
            x1=x1,
            bottom=bottom,
            highlighted=highlighted,
            font_size=font_size,
            bold=bold,
            wide_gap_starts=self.wide_gap_starts(),
        )

    def wide_gap_starts(self) -> list[float]:
        """Where words start after a gap wider than this line's own word spaces (`WIDE_SPREAD` times their
        median) and than `WIDE_GAP`: the cells of a row kept as one segment. A justified line stretches all
        its spaces alike and records none."""
        return list(self.wide_starts)


def _wide_gap_starts(gap: np.ndarray, x0: np.ndarray, seg_of: np.ndarray, seg_starts: np.ndarray, sizes: np.ndarray) -> list[Sequence[float]]:
    """Each segment's `Segment.wide_gap_starts`, for the page at once: `gap` before each glyph (a
    segment's first glyph's is not inside it), `x0` of each glyph, and the segments' rounded sizes."""
    sizes = np.where(sizes == 0, 1.0, sizes)[seg_of]
    inside = np.ones(len(gap), dtype=bool)
    inside[seg_starts] = False
    spaces = inside & (gap > WORD_SPACE_MIN * sizes)
    # The median word space of each segment (NaN where a segment has none: then it records none).
    segment_of_space = seg_of[spaces]
    values = gap[spaces][_lexsort2(charloop.compiled_layout(), gap[spaces], segment_of_space)]
    counts = np.bincount(segment_of_space, minlength=len(seg_starts))
    first = np.concatenate(([0], np.cumsum(counts)[:-1]))
    middle = np.minimum(first + counts // 2, max(len(values) - 1, 0))
    usual = np.full(len(seg_starts), np.nan)
    if len(values):
        odd, even = values[middle], (values[np.maximum(middle - 1, 0)] + values[middle]) / 2
        usual = np.where(counts == 0, np.nan, np.where(counts % 2 == 1, odd, even))
    wide = inside & (gap > WIDE_GAP * sizes) & (gap > WIDE_SPREAD * usual[seg_of])
    found: list[Sequence[float]] = [()] * len(seg_starts)  # most segments record none (a tuple shared)
    for segment, x in zip(seg_of[wide].tolist(), x0[wide].tolist()):
        if not found[segment]:
            found[segment] = []
        found[segment].append(round(x, 2))  # type: ignore[union-attr]
    return found


class Row:
    """Glyphs whose vertical centres fall inside the row's anchor box (`top`, `bottom`): `members` in
    the order they were grouped, `by_x` sorted by x0 (indices into the page's `source` arrays). `page`
    holds those lists of all the rows grouped with it one after the other as arrays, this row the `at`-th
    (`gutterchecks.band_glyphs` slices them for a run of rows); a row grouped with it reads its lists from
    there when first asked for (most rows are read only as the page's arrays)."""

    __slots__ = ("source", "_members", "top", "bottom", "_by_x", "segments", "x0", "x1", "page", "at")

    def __init__(self, source: GlyphArrays, members: list[int] | None, top: float, bottom: float, by_x: list[int] | None = None,
                 segments: list[Segment] | None = None, x0: float = 0.0, x1: float = 0.0, page: RowArrays | None = None, at: int = 0):
        self.source, self._members, self.top, self.bottom = source, members, top, bottom
        self._by_x = by_x if by_x is not None or page is not None else []
        self.segments: list[Segment] = [] if segments is None else segments
        self.x0, self.x1 = x0, x1  # the extent of its segments (set with them)
        self.page, self.at = page, at

    @property
    def members(self) -> list[int]:
        if self._members is None:
            self._members = self.page.row_list("members", self.at) if self.page is not None else []
        return self._members

    @members.setter
    def members(self, value: list[int]) -> None:
        self._members = value

    @property
    def by_x(self) -> list[int]:
        if self._by_x is None:
            self._by_x = self.page.row_list("by_x", self.at) if self.page is not None else []
        return self._by_x

    @by_x.setter
    def by_x(self, value: list[int]) -> None:
        self._by_x = value

    @property
    def glyphs(self) -> list[Glyph]:
        return self.source.glyphs(self.members)


def clusters(values: list[float], tolerance: float) -> list[list[float]]:
    """`values` sorted and grouped: a new group wherever the next value is over `tolerance` on (the
    columns that positions stand in)."""
    groups: list[list[float]] = []
    for value in sorted(values):
        if groups and value - groups[-1][-1] <= tolerance:
            groups[-1].append(value)
        else:
            groups.append([value])
    return groups


def group_rows(glyphs: list[Glyph] | GlyphArrays, shared_descent: bool = False) -> list[Row]:
    """Rows of glyphs whose vertical centres fall inside the row's anchor glyph box, top to bottom.

    The anchor is the row's first full-size glyph; joining glyphs never widen it, so a label centred
    between two lines of a table cell cannot chain those two lines into one row.
    """
    source = glyphs if isinstance(glyphs, GlyphArrays) else GlyphArrays.from_glyphs(glyphs)
    return _group(source, np.arange(len(source)), shared_descent)[0]


def _group(source: GlyphArrays, indices: np.ndarray, shared_descent: bool) -> tuple[list[Row], np.ndarray, np.ndarray]:
    """(rows, by_x, lengths): the rows, and their `by_x` lists one after the other as one array, with each
    row's length (what the page-at-once steps work on, without reading the lists back)."""
    if len(indices) == 0:
        return [], np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    # With `shared_descent` (text-layer loose boxes, which run from the font's ascent to its descent),
    # glyphs sort by the descent line a row shares whatever their height: an accented capital (Ã),
    # whose box reaches higher, would otherwise sort among the rows above it. OCR boxes are tight
    # (a dash sits mid-line), so those sort by centre. (lexsort is stable, as `sorted` is.)
    top, bottom = source.top[indices], source.bottom[indices]
    kernels = charloop.compiled_layout()
    order = indices[_lexsort2(kernels, source.x0[indices], bottom if shared_descent else (top + bottom) / 2)]
    walk = getattr(kernels, "rows", None)
    if walk is not None:  # the runs and the walk below in one compiled pass over `order` (`rowir.walk_rows`)
        opened_at, row_tops, row_bottoms = walk.walk_rows(order, source.top, source.bottom, source.size)
        return _rows_of_walk(source, kernels, order, opened_at.tolist(), list(zip(row_tops.tolist(), row_bottoms.tolist())),
                             shared_descent)
    top, bottom, size = source.top[order], source.bottom[order], source.size[order]
    # Glyphs that follow one another with the same box height and size (the letters of a line set in one
    # font) decide nothing after the first of them: the walk below goes from run to run. A box upside
    # down would not hold its own centre, so it is a run of its own.
    same = (top[1:] == top[:-1]) & (bottom[1:] == bottom[:-1]) & (size[1:] == size[:-1]) & (top[1:] <= bottom[1:])
    starts = np.concatenate(([0], np.flatnonzero(~same) + 1))
    if kernels is not None:  # the same walk compiled (`anchor_rows` of `layoutir`, or `layoutjit`)
        runs, row_tops, row_bottoms = kernels.anchor_rows(top[starts], bottom[starts], size[starts])
        opened = starts[runs].tolist()
        edges = list(zip(row_tops.tolist(), row_bottoms.tolist()))
    else:
        walked, opened = _anchor_rows(source, starts.tolist(), top[starts].tolist(), bottom[starts].tolist(), size[starts].tolist())
        edges = [(row.top, row.bottom) for row in walked]
    return _rows_of_walk(source, kernels, order, opened, edges, shared_descent)


def _rows_of_walk(source: GlyphArrays, kernels, order: np.ndarray, opened: list[int], edges: list[tuple[float, float]],
                  shared_descent: bool) -> tuple[list[Row], np.ndarray, np.ndarray]:
    """`_group`'s answer from its walk's rows (each opened at a place in `order`, with its anchor box)."""
    if shared_descent:  # a text layer's superscripts and subscripts joined to their rows (`smallrows`)
        order, opened, edges, _ = join_small_rows(source, order, opened, edges)
    # Each row sorted by x0 (stable, as `sorted` is), all rows in one sort.
    closed = opened[1:] + [len(order)]
    lengths = np.subtract(closed, opened)
    by_x_array = order[_lexsort2(kernels, source.x0[order], np.repeat(np.arange(len(edges), dtype=np.float64), lengths))]
    page = RowArrays(order, by_x_array, np.array([*opened, len(order)], dtype=np.int64))
    rows = [Row(source, None, row_top, row_bottom, None, [], 0.0, 0.0, page, at) for at, (row_top, row_bottom) in enumerate(edges)]
    return rows, by_x_array, lengths


def _lexsort2(kernels, secondary: np.ndarray, primary: np.ndarray) -> np.ndarray:
    """`np.lexsort((secondary, primary))` (float keys); by the compiled natural merge sort where the loops
    are on (`lex_order` of `layoutir` or `layoutjit`: the same permutation, a pass or two over keys nearly in order)."""
    if kernels is None:
        return np.lexsort((secondary, primary))
    return kernels.lex_order(np.asarray(primary, dtype=np.float64), np.asarray(secondary, dtype=np.float64))


def _anchor_rows(source: GlyphArrays, starts: list[int], tops: list[float], bottoms: list[float], sizes: list[float]) -> tuple[list[Row], list[int]]:
    """(rows, where each row starts in the sort order): the walk from run to run (runs starting at
    `starts`, with these boxes and sizes) that opens a row wherever a run's centre leaves the row's anchor box."""
    rows: list[Row] = []
    opened: list[int] = []
    largest = 0.0  # the largest glyph size in the current row so far
    row: Row | None = None
    for at, run_top, run_bottom, run_size in zip(starts, tops, bottoms, sizes):
        if row is not None and row.top <= (run_top + run_bottom) / 2 <= row.bottom:  # its centre_y
            if run_size > 1.25 * largest:  # a small glyph opened the row: re-anchor on a big one
                row.top, row.bottom = run_top, run_bottom
            if run_size > largest:
                largest = run_size
        else:
            row = Row(source, [], run_top, run_bottom)
            rows.append(row)
            opened.append(at)
            largest = run_size
    return rows, opened


def _overprints(source: GlyphArrays, a: int, b: int) -> bool:
    if source.text[a] != source.text[b]:
        return False
    x0, top, x1, bottom = source.x0s, source.tops, source.x1s, source.bottoms
    overlap_x = min(x1[a], x1[b]) - max(x0[a], x0[b])
    overlap_y = min(bottom[a], bottom[b]) - max(top[a], top[b])
    narrow = max(min(x1[a] - x0[a], x1[b] - x0[b]), 0.01)
    low = max(min(bottom[a] - top[a], bottom[b] - top[b]), 0.01)
    return overlap_x >= 0.4 * narrow and overlap_y >= 0.5 * low


OVERPRINT_REACH = 4  # a twin is looked for among the last this many glyphs kept


def _drop_overprints(source: GlyphArrays, rows: list[Row], flat: np.ndarray, lengths: np.ndarray) -> tuple[Sequence[list[int]], bool]:
    """Each row's glyphs (sorted by x) with overprinted twins dropped (`_drop_overprint`), and whether any
    row is suspect (else the rows are their `by_x`, `flat` the rows' glyphs one after the other). The page
    is searched at once for a glyph with a twin among the few before it in its row: rows without one
    (most) are kept whole, for nothing can be dropped from them."""
    kernels = charloop.compiled_layout()
    in_place = getattr(kernels, "rows", None)
    if in_place is not None:  # compiled, reading the page's arrays through `flat` (`rowir`)
        suspect = in_place.overprint_rows(source.text_ids, source.x0, source.x1, source.top, source.bottom, flat, lengths, OVERPRINT_REACH)
    else:
        row_of = np.repeat(np.arange(len(rows)), lengths)
        texts = source.text_ids[flat]
        x0, x1, top, bottom = source.x0[flat], source.x1[flat], source.top[flat], source.bottom[flat]
        if kernels is not None:  # the same search compiled (`overprint_rows` of `layoutir`, or `layoutjit`)
            suspect = kernels.overprint_rows(texts, row_of, x0, x1, top, bottom, OVERPRINT_REACH, len(rows))
        else:
            suspect = _overprint_rows(texts, row_of, x0, x1, top, bottom, len(rows))
    if not suspect.any():
        return RowLists(rows), False
    return [_drop_overprint(source, row.by_x) if suspect[at] else row.by_x for at, row in enumerate(rows)], True


def _overprint_rows(texts: np.ndarray, row_of: np.ndarray, x0: np.ndarray, x1: np.ndarray, top: np.ndarray, bottom: np.ndarray,
                    rows: int) -> np.ndarray:
    """Per row, whether a glyph has a twin among the `OVERPRINT_REACH` before it in the row (the rows'
    glyphs one after the other, sorted by x): one comparison over the page per distance."""
    suspect = np.zeros(rows, dtype=bool)
    for reach in range(1, min(OVERPRINT_REACH, len(texts) - 1) + 1):
        # Only the pairs of one text in one row are measured (a few in a hundred on a page of prose).
        a = np.flatnonzero((texts[reach:] == texts[:-reach]) & (row_of[reach:] == row_of[:-reach]))
        if not len(a):
            continue
        b = a + reach
        overlap_x = np.minimum(x1[a], x1[b]) - np.maximum(x0[a], x0[b])
        overlap_y = np.minimum(bottom[a], bottom[b]) - np.maximum(top[a], top[b])
        narrow = np.maximum(np.minimum(x1[a] - x0[a], x1[b] - x0[b]), 0.01)
        low = np.maximum(np.minimum(bottom[a] - top[a], bottom[b] - top[b]), 0.01)
        suspect[row_of[b][(overlap_x >= 0.4 * narrow) & (overlap_y >= 0.5 * low)]] = True
    return suspect


def _drop_overprint(source: GlyphArrays, by_x: list[int]) -> list[int]:
    """Fake bold and shadowed headings draw each glyph twice, a little apart; keep one copy (marked bold)."""
    kept: list[int] = []
    kept_texts: list[str] = []  # kept's texts: most glyphs differ from the last four, which one `in` tells
    for glyph in by_x:
        text = source.text[glyph]
        if text in kept_texts[-OVERPRINT_REACH:]:
            twin = next((k for k in kept[-OVERPRINT_REACH:] if source.text[k] == text and _overprints(source, k, glyph)), None)
            if twin is not None:
                source.set_bold(twin)
                continue
        kept.append(glyph)
        kept_texts.append(text)
    return kept


def _group_medians(values: np.ndarray, group_of: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """statistics.median of each group of `values` (contiguous groups: `group_of` per value, each group's
    `starts` and `lengths`), the zero medians made 1.0 (a size to divide by)."""
    ordered = values[_lexsort2(charloop.compiled_layout(), values, group_of)]
    middle = starts + lengths // 2
    odd = ordered[middle]
    even = (ordered[np.maximum(middle - 1, 0)] + odd) / 2
    medians = np.where(lengths % 2 == 1, odd, even)
    return np.where(medians == 0, 1.0, medians)


def _rows_with_segments(source: GlyphArrays, indices: np.ndarray, params: LayoutParams, shared_descent: bool = False) -> list[Row]:
    """The rows of these glyphs, each cut into its segments (`_kept_rows`, then `_segment_rows`)."""
    rows, kept, flat, lengths = _kept_rows(source, indices, shared_descent)
    if rows:
        _segment_rows(source, rows, kept, flat, lengths, params)
    return rows


def _kept_rows(source: GlyphArrays, indices: np.ndarray, shared_descent: bool) -> tuple[list[Row], Sequence[list[int]], np.ndarray, np.ndarray]:
    """(rows, kept, flat, lengths): the rows of these glyphs with their extent (`x0`, `x1`) set, each row's
    glyphs sorted by x less overprinted twins (`kept`), and those one after the other (`flat`) with each
    row's length: all a band needs (`columns.bands`) before any row is cut into segments."""
    rows, flat, lengths = _group(source, indices, shared_descent)
    if not rows:
        return rows, [], flat, lengths
    kept, dropped = _drop_overprints(source, rows, flat, lengths)
    if dropped:
        lengths = np.array([len(k) for k in kept], dtype=np.int64)
        flat = np.fromiter(chain.from_iterable(kept), dtype=np.int64, count=int(lengths.sum()))
    row_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    row_x0 = np.minimum.reduceat(source.x0[flat], row_starts).tolist()
    row_x1 = np.maximum.reduceat(source.x1[flat], row_starts).tolist()
    for row, left, right in zip(rows, row_x0, row_x1):
        row.x0, row.x1 = left, right
    return rows, kept, flat, lengths


def _judge_wide_gaps(source: GlyphArrays, kept: Sequence[list[int]], flat: np.ndarray, row_of: np.ndarray, positions: list[int],
                     gap: np.ndarray, row_size: np.ndarray, starts: np.ndarray) -> None:
    """A gap wider than `segment_gap` (at each of `positions` in `flat`) cuts its row (`starts` set there), unless it is
    a space of a justified line (the row's word spaces are read at its first such gap; most rows have none)."""
    word_spaces: dict[int, WordSpaces] = {}
    page_spaces: StreamSpaces | None | bool = False  # the rows' spaces at once (`StreamSpaces`), made when first asked
    for position in positions:
        row = int(row_of[position])
        previous, glyph, width, size = int(flat[position - 1]), int(flat[position]), float(gap[position]), float(row_size[row])
        if not WordSpaces.may_be_justified(source, previous, glyph, width, size):
            starts[position] = True
            continue
        if page_spaces is False:
            page_spaces = StreamSpaces.of(source, flat, row_of)
        if isinstance(page_spaces, StreamSpaces):
            justified = page_spaces.justified(position, previous, glyph, width, size)
        else:
            spaces = word_spaces.get(row) or word_spaces.setdefault(row, WordSpaces.of(source, kept[row]))
            justified = spaces.justified(previous, glyph, width, size)
        if not justified:
            starts[position] = True


def _segment_rows_compiled(loops: SegmentLoops, source: GlyphArrays, rows: list[Row], kept: Sequence[list[int]], flat: np.ndarray,
                           lengths: np.ndarray, params: LayoutParams) -> None:
    """`_segment_rows` through the compiled phases (`segmentir`): the same segments, each numpy step of the page
    there one pass over its glyphs; Python judges the wide gaps a justified line may hold, and makes the objects."""
    text_layer = not source.runs
    found = loops.segment_starts(source.x0, source.x1, source.size, source.seq, source.space_after, flat, lengths, text_layer,
                                 params.segment_gap, JUSTIFIED_MAX_GAP)
    if len(found.asked):
        row_of = np.repeat(np.arange(len(rows)), lengths)
        _judge_wide_gaps(source, kept, flat, row_of, found.asked.tolist(), found.gap, found.row_size, found.starts)
    cuts = loops.segment_cuts(source.x0, source.x1, source.top, source.bottom, source.size, source.seq, source.space_after,
                              source.bold, source.highlighted, source.codes, flat, lengths, found, text_layer, params.word_gap,
                              SHIFTED, SMALL)
    count, first = cuts.count, cuts.first
    if cuts.text is not None:
        bounds, text = cuts.text_bounds.tolist(), cuts.text
        texts = [text[lo:hi] for lo, hi in zip(bounds[0::2], bounds[1::2])]
    else:
        texts = _segment_texts(source, flat, cuts.space, first[:-1], first[1:])
    flags = cuts.flags
    for at in np.flatnonzero(flags[2 * count:]).tolist():  # partly bold: marked **so**
        start, end = int(first[at]), int(first[at + 1])
        texts[at] = _marked_bold_text([source.text[i] for i in flat[start:end].tolist()], cuts.space[start:end].tolist(),
                                      source.bold[flat[start:end]].tolist())
    rounded_all = round2(cuts.values)  # each value rounded alone: one call for the sizes and the four edges
    rounded = rounded_all[:count]
    wide_starts: list[Sequence[float]] = [()] * count  # most segments record none (a tuple shared)
    wide = loops.wide_gap_starts(found.gap, first, np.array(rounded), WORD_SPACE_MIN, WIDE_GAP, WIDE_SPREAD, found.keys, found.work)
    for segment, x in zip(wide[:, 0].tolist(), source.x0[flat[wide[:, 1]]].tolist()):
        if not wide_starts[segment]:
            wide_starts[segment] = []
        wide_starts[segment].append(round(x, 2))  # type: ignore[union-attr]
    values = cuts.values
    boxes = zip(*(values[count * k:count * (k + 1)].tolist() for k in range(1, 5)))
    rounded_boxes = zip(*(rounded_all[count * k:count * (k + 1)] for k in range(1, 5)))
    ends = first[1:].tolist()
    segments = [
        Segment(source, flat[start:end], text, left, top, right, bottom, size, high, heavy, starts_after_wide_gaps, box)
        for start, end, text, (left, top, right, bottom), box, size, high, heavy, starts_after_wide_gaps in zip(
            first[:-1].tolist(), ends, texts, boxes, rounded_boxes, rounded, flags[:count].tolist(), flags[count:2 * count].tolist(),
            wide_starts)
    ]
    for segment, row in zip(segments, cuts.row.tolist()):
        rows[row].segments.append(segment)


def _segment_rows(source: GlyphArrays, rows: list[Row], kept: Sequence[list[int]], flat: np.ndarray, lengths: np.ndarray,
                  params: LayoutParams) -> None:
    """Each row cut into its segments (`Row.segments`), the per-glyph sums done for the rows at once: the
    row's size, the gaps that cut it, the spaces between words, each segment's box. `kept` holds each row's
    glyphs, `flat` those one after the other, `lengths` each row's count; every sum is a row's own, so the
    rows of a page are cut alike whichever of them are cut together. Where layout's loops are llvmlite's, their
    three phases do it (`_segment_rows_compiled`); these numpy steps are the reference."""
    loops = getattr(charloop.compiled_layout(), "segments", None)
    if loops is not None:
        _segment_rows_compiled(loops, source, rows, kept, flat, lengths, params)
        return
    row_starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    row_of = np.repeat(np.arange(len(rows)), lengths)
    x0, x1, sizes = source.x0[flat], source.x1[flat], source.size[flat]
    row_size = _group_medians(sizes, row_of, row_starts, lengths)
    gap = np.empty(len(flat))
    gap[0] = np.nan  # before a row's first glyph: no gap
    gap[1:] = x0[1:] - x1[:-1]
    gap[row_starts] = np.nan
    wide = gap > params.segment_gap * row_size[row_of]
    starts = np.zeros(len(flat), dtype=bool)
    starts[row_starts] = True
    _judge_wide_gaps(source, kept, flat, row_of, np.flatnonzero(wide).tolist(), gap, row_size, starts)
    seg_starts = np.flatnonzero(starts)
    seg_lengths = np.diff(np.append(seg_starts, len(flat)))
    seg_of = np.cumsum(starts) - 1
    seg_size = _group_medians(sizes, seg_of, seg_starts, seg_lengths)
    # A space before a glyph: the content stream has one (and the glyphs do not overlap), or the gap is
    # wider than `word_gap` of the smaller glyph (at least half the segment's size).
    previous, current = flat[:-1], flat[1:]
    size_here = seg_size[seg_of[1:]]
    stream = source.space_after[previous] & (source.seq[current] == source.seq[previous] + 1) & (gap[1:] > -0.1 * size_here)
    smaller = np.where(sizes[1:] < sizes[:-1], sizes[1:], sizes[:-1])
    if not source.runs:  # a text layer: beside a raised or lowered small glyph, the word gap of its line's glyph
        smaller, shifted = shifted_pairs(source, flat, sizes, smaller)
        stream &= ~shifted | (gap[1:] > params.word_gap * smaller)
    half = 0.5 * size_here
    space = np.zeros(len(flat), dtype=bool)
    space[1:] = stream | (gap[1:] > params.word_gap * np.where(smaller > half, smaller, half))
    space[seg_starts] = False
    ends = np.append(seg_starts[1:], len(flat))
    texts = _segment_texts(source, flat, space, seg_starts, ends)
    bold = source.bold[flat]
    bold_count = np.add.reduceat(bold.astype(np.int64), seg_starts)
    for at in np.flatnonzero((bold_count > 0) & (bold_count < seg_lengths)).tolist():  # partly bold: marked **so**
        start, end = int(seg_starts[at]), int(ends[at])
        texts[at] = _marked_bold_text([source.text[i] for i in flat[start:end].tolist()], space[start:end].tolist(), bold[start:end].tolist())
    marked = np.add.reduceat(source.highlighted[flat].astype(np.int64), seg_starts)
    # A marker often skips the printed label ('A. ' then yellow '24'): discount up to three glyphs.
    highlighted = ((marked > 0) & (marked >= 0.5 * np.maximum(1, seg_lengths - 3))).tolist()
    all_bold = (bold_count == seg_lengths).tolist()
    edges = (np.minimum.reduceat(x0, seg_starts), np.minimum.reduceat(source.top[flat], seg_starts),
             np.maximum.reduceat(x1, seg_starts), np.maximum.reduceat(source.bottom[flat], seg_starts))
    count = len(seg_starts)
    rounded_all = round2(np.concatenate((seg_size, *edges)))  # each value rounded alone: one call for the five
    rounded = rounded_all[:count]
    # Segments with a gap wider than WIDE_GAP of their size may record wide gaps; the others record none.
    wide_starts = _wide_gap_starts(gap, x0, seg_of, seg_starts, np.array(rounded))
    boxes = zip(*(edge.tolist() for edge in edges))
    rounded_boxes = zip(*(rounded_all[count * k:count * (k + 1)] for k in range(1, 5)))
    segments = [
        Segment(source, flat[start:end], text, left, top, right, bottom, size, high, heavy, starts_after_wide_gaps, box)
        for start, end, text, (left, top, right, bottom), box, size, high, heavy, starts_after_wide_gaps in zip(
            seg_starts.tolist(), ends.tolist(), texts, boxes, rounded_boxes, rounded, highlighted, all_bold, wide_starts
        )
    ]
    seg_row = row_of[seg_starts].tolist()
    for segment, row in zip(segments, seg_row):
        rows[row].segments.append(segment)


def _segment_texts(source: GlyphArrays, flat: np.ndarray, space: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> list[str]:
    """The text of each segment, glyphs flat[start:end], each glyph after a space where `space` says (none
    before the first). Where every glyph is one character (a text layer), the page's text is made at once
    from the code points, a space put before each glyph that has one, and a segment's text is a slice of it."""
    codes = source.codes
    if codes is None:
        pieces = [" " + source.text[i] if spaced else source.text[i] for i, spaced in zip(flat.tolist(), space.tolist())]
        return ["".join(pieces[start:end]) for start, end in zip(starts.tolist(), ends.tolist())]
    if not len(flat):
        return [""] * len(starts)
    place = np.arange(len(flat)) + np.cumsum(space)  # each glyph's place in the page's text
    units = np.full(int(place[-1]) + 1, ord(" "), dtype="<u4")
    units[place] = codes[flat]
    text = units.tobytes().decode("utf-32-le", "surrogatepass")
    return [text[lo:hi] for lo, hi in zip(place[starts].tolist(), (place[ends - 1] + 1).tolist())]


def _marked_bold_text(texts: list[str], spaces: list[bool], bolds: list[bool]) -> str:
    """A partly bold segment's text, its bold runs marked **like this**."""
    parts: list[str] = []
    in_bold = False
    for text, space, bold in zip(texts, spaces, bolds):
        if in_bold and not bold:
            parts.append("**")
            in_bold = False
        if space:
            parts.append(" ")
        if bold and not in_bold:
            parts.append("**")
            in_bold = True
        parts.append(text)
    if in_bold:
        parts.append("**")
    return "".join(parts)


def assemble(
    glyphs: list[Glyph] | GlyphArrays,
    page_width: float,
    params: LayoutParams = LayoutParams(),
    page_height: float = 842.0,
    shared_descent: bool = False,
) -> list[Segment]:
    """Segments of one page in reading order; `shared_descent`: the glyph boxes are a text layer's
    loose boxes (see `group_rows`)."""
    source = glyphs if isinstance(glyphs, GlyphArrays) else GlyphArrays.from_glyphs(glyphs)
    if not len(source):
        return []
    rows, kept, flat, lengths = _kept_rows(source, np.arange(len(source)), shared_descent)
    found = list(bands(source, rows, page_height, params))
    # Only the rows read as they are are cut into segments here: a column band's glyphs are grouped and
    # cut again, column by column.
    plain = [band for band in found if not isinstance(band, ColumnBand)]
    if len(plain) == len(rows):
        _segment_rows(source, rows, kept, flat, lengths, params)
    elif plain:
        at = {id(row): index for index, row in enumerate(rows)}
        plain_kept = [kept[at[id(row)]] for row in plain]
        plain_lengths = np.array([len(k) for k in plain_kept], dtype=np.int64)
        plain_flat = np.fromiter(chain.from_iterable(plain_kept), dtype=np.int64, count=int(plain_lengths.sum()))
        _segment_rows(source, plain, plain_kept, plain_flat, plain_lengths, params)
    ordered: list[Segment] = []
    for band in found:
        if isinstance(band, ColumnBand):
            for column in (band.left, band.right):
                for row in _rows_with_segments(source, np.array(column, dtype=np.int64), params, shared_descent):
                    ordered.extend(row.segments)
        else:
            ordered.extend(band.segments)
    return ordered
