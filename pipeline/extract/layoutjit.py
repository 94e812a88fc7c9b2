"""Layout's per-row loops compiled (numba), imported only through `charloop.compiled_layout`, which
guards the import and serves them only where llvmlite cannot build its own forms of them (`layoutir`, which
does what these do and is what a process uses from its first page).

Each kernel does, with the same float operations in the same order, what a pure-Python function of
`layout` or `columns` does; those stay the reference (`tests/pipeline/extract/test_layout_jit.py` lays
pages of several layouts out both ways). Pages with a NaN edge never come here (Python's `min`, `max`
and `sorted` order a NaN by position, which a compiled comparison does not copy).

- `anchor_rows`: `layout._group`'s walk over runs of alike glyphs: where each row opens, its anchor box.
- `column_candidates`: `columns._column_run` for every start row of a page at once: the gutters whose
  walk down the rows passes every test of `columns._gutter_run` but the costliest (the rows' inner gaps,
  which reads glyphs and stays in Python), in the order `_column_run` tries them.
- `lex_order`: `np.lexsort` of two float keys (layout's row and segment sorts), a natural merge sort.
- `overprint_rows`: `layout._overprint_rows`, the rows holding an overprinted twin.
- `row_spans`: `columns._spans` of every row, as arrays for `column_candidates`.
"""
from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def anchor_rows(top, bottom, size):  # pragma: no cover - compiled
    """For runs with these boxes and sizes (in sort order): (the run each row opens at, row tops, row
    bottoms), as `layout._group` walks them."""
    count = top.shape[0]
    opened = np.empty(count, dtype=np.int64)
    row_top = np.empty(count, dtype=np.float64)
    row_bottom = np.empty(count, dtype=np.float64)
    rows = 0
    largest = 0.0
    for k in range(count):
        run_top, run_bottom, run_size = top[k], bottom[k], size[k]
        centre = (run_top + run_bottom) / 2
        if rows > 0 and row_top[rows - 1] <= centre and centre <= row_bottom[rows - 1]:
            if run_size > 1.25 * largest:
                row_top[rows - 1], row_bottom[rows - 1] = run_top, run_bottom
            if run_size > largest:
                largest = run_size
        else:
            opened[rows], row_top[rows], row_bottom[rows] = k, run_top, run_bottom
            rows += 1
            largest = run_size
    return opened[:rows], row_top[:rows], row_bottom[:rows]


@numba.njit(cache=True, nogil=True)
def _free_intervals(lo_spans, hi_spans, lo, hi, out_lo, out_hi):  # pragma: no cover - compiled
    """`columns._free_intervals` into out_lo/out_hi; returns how many."""
    found = 0
    cursor = lo
    for k in range(lo_spans.shape[0]):
        if lo_spans[k] > cursor:
            out_lo[found], out_hi[found] = cursor, lo_spans[k]
            found += 1
        if hi_spans[k] > cursor:
            cursor = hi_spans[k]
    if cursor < hi:
        out_lo[found], out_hi[found] = cursor, hi
        found += 1
    return found


@numba.njit(cache=True, nogil=True)
def _walk(start, g0, g1, span_first, span_lo, span_hi, free_first, free_lo, free_hi, min_gutter, min_rows, track):  # pragma: no cover - compiled
    """`columns.GutterWalks.walk` without its memory: (end, gutter lo, gutter hi, left fill, right fill), and
    where `track`, the right side's `columns._column_end` (ink, rows) with `min_rows` (else 0.0, min_rows)."""
    rows = span_first.shape[0] - 1
    row = start
    low, high = g0, g1
    left_fill = 0.0
    right_fill = 0.0
    right_run = 0.0
    right_last = 0
    right_empty = 0
    right_ended = False
    while row < rows:
        found = False
        w0 = 0.0
        w1 = 0.0
        widest = 0.0
        for k in range(free_first[row], free_first[row + 1]):
            a = free_lo[k] if free_lo[k] > low else low
            b = free_hi[k] if free_hi[k] < high else high
            if b - a >= min_gutter and (not found or b - a > widest):
                found, w0, w1, widest = True, a, b, b - a
        if not found:
            break
        left = 0.0
        right = 0.0
        for k in range(span_first[row], span_first[row + 1]):
            if span_hi[k] <= w0:
                left += span_hi[k] - span_lo[k]
            if span_lo[k] >= w1:
                right += span_hi[k] - span_lo[k]
        left_fill += left
        right_fill += right
        if track and right > 0.0:
            if right_empty >= min_rows:
                right_ended = True
            if not right_ended:
                right_run += right
                right_last, right_empty = row - start + 1, 0
        elif track:
            right_empty += 1
        low, high = w0, w1
        row += 1
    right_rows = right_last if right_last > min_rows else min_rows
    return row, low, high, left_fill, right_fill, right_run, right_rows


@numba.njit(cache=True, nogil=True)
def _gutter_tries(start, first_lo, first_hi, lo, hi, span_first, span_lo, span_hi, free_first, free_lo, free_hi,
                  row_top, row_bottom, row_x0, row_x1, limits, out, found):  # pragma: no cover - compiled
    """`columns._gutter_run`'s tries of `first_lo`/`first_hi` from `start`, less the inner-gap test: each
    gutter that passes the others appended to `out` (start, end, gutter lo, gutter hi) from row `found`;
    returns the rows of `out` filled (`out` is grown by the caller: it holds enough for any page)."""
    min_rows, min_gutter, min_height, long_rows, min_fill, min_share = limits[0], limits[1], limits[2], limits[3], limits[4], limits[5]
    gaps_lo = np.empty(first_lo.shape[0] + 1)
    gaps_hi = np.empty(first_lo.shape[0] + 1)
    gaps = _free_intervals(first_lo, first_hi, lo, hi, gaps_lo, gaps_hi)
    inner_lo = np.empty(gaps)
    inner_hi = np.empty(gaps)
    inner = 0
    for k in range(gaps):
        if gaps_lo[k] > lo and gaps_hi[k] < hi:
            # sorted by (lo - hi), stably: widest first, equal widths in their order
            at = inner
            while at > 0 and gaps_lo[k] - gaps_hi[k] < inner_lo[at - 1] - inner_hi[at - 1]:
                inner_lo[at], inner_hi[at] = inner_lo[at - 1], inner_hi[at - 1]
                at -= 1
            inner_lo[at], inner_hi[at] = gaps_lo[k], gaps_hi[k]
            inner += 1
    for k in range(inner):
        if inner_hi[k] - inner_lo[k] < min_gutter:
            continue
        end, g0, g1, left_fill, right_fill, _, _ = _walk(start, inner_lo[k], inner_hi[k], span_first, span_lo, span_hi,
                                                         free_first, free_lo, free_hi, min_gutter, int(min_rows), False)
        count = end - start
        if count < min_rows:
            continue
        if row_bottom[end - 1] - row_top[start] < min_height and count < long_rows:
            continue
        band_lo = row_x0[start]
        band_hi = row_x1[start]
        for row in range(start + 1, end):
            if row_x0[row] < band_lo:
                band_lo = row_x0[row]
            if row_x1[row] > band_hi:
                band_hi = row_x1[row]
        left_width = g0 - band_lo
        if 1.0 > left_width:
            left_width = 1.0
        right_width = band_hi - g1
        if 1.0 > right_width:
            right_width = 1.0
        narrower = right_width if right_width < left_width else left_width
        if narrower < min_share * (band_hi - band_lo):
            continue
        if left_fill / count < min_fill * left_width:
            continue
        if right_fill / count < min_fill * right_width:
            # a right column that ends before the band does, on its rows down to its end (`columns._gutter_run`):
            # the walk again, tracking it (seldom asked)
            _, _, _, _, _, right_run, right_rows = _walk(start, inner_lo[k], inner_hi[k], span_first, span_lo, span_hi,
                                                         free_first, free_lo, free_hi, min_gutter, int(min_rows), True)
            if right_run / right_rows < min_fill * right_width:
                continue
        out[found, 0], out[found, 1], out[found, 2], out[found, 3] = start, end, g0, g1
        found += 1
    return found


@numba.njit(cache=True, nogil=True)
def column_candidates(span_first, span_lo, span_hi, row_top, row_bottom, row_x0, row_x1, limits):  # pragma: no cover - compiled
    """Every start row's gutters as `columns._column_run` tries them, less the inner-gap test: rows of
    (start, end, gutter lo, gutter hi), by start row, in the order tried. `span_first[r]:span_first[r+1]`
    are row r's ink spans; `limits`: min rows, min gutter, min band height (points), rows of a long band,
    min column fill, min column share."""
    rows = span_first.shape[0] - 1
    min_rows, min_gutter = int(limits[0]), limits[1]
    # Each row's free intervals open at both ends, those narrower than min_gutter left out.
    free_first = np.zeros(rows + 1, dtype=np.int64)
    free_lo = np.empty(span_lo.shape[0] + rows)
    free_hi = np.empty(span_lo.shape[0] + rows)
    free = 0
    scratch_lo = np.empty(span_lo.shape[0] + 1)
    scratch_hi = np.empty(span_lo.shape[0] + 1)
    for row in range(rows):
        a, b = span_first[row], span_first[row + 1]
        gaps = _free_intervals(span_lo[a:b], span_hi[a:b], -np.inf, np.inf, scratch_lo, scratch_hi)
        for k in range(gaps):
            if scratch_hi[k] - scratch_lo[k] >= min_gutter:
                free_lo[free], free_hi[free] = scratch_lo[k], scratch_hi[k]
                free += 1
        free_first[row + 1] = free
    out = np.empty((64, 4))
    found = 0
    most = span_lo.shape[0] + 2
    for start in range(rows):
        if out.shape[0] - found < 2 * most:  # room for both tries of this start row
            grown = np.empty((2 * out.shape[0] + 2 * most, 4))
            grown[:found] = out[:found]
            out = grown
        a, b = span_first[start], span_first[start + 1]
        if b - a >= 2:
            found = _gutter_tries(start, span_lo[a:b], span_hi[a:b], row_x0[start], row_x1[start], span_first, span_lo,
                                  span_hi, free_first, free_lo, free_hi, row_top, row_bottom, row_x0, row_x1, limits, out, found)
        # The next few rows' spans together, sorted (lo, then hi) and merged across gaps under min_gutter.
        last = min(start + min_rows, rows)
        a, b = span_first[start], span_first[last]
        by_hi = np.argsort(span_hi[a:b], kind="mergesort")
        order = by_hi[np.argsort(span_lo[a:b][by_hi], kind="mergesort")]
        merged_lo = np.empty(b - a)
        merged_hi = np.empty(b - a)
        merged = 0
        for k in order:
            x0, x1 = span_lo[a + k], span_hi[a + k]
            if merged > 0 and x0 - merged_hi[merged - 1] < min_gutter:
                if x1 > merged_hi[merged - 1]:
                    merged_hi[merged - 1] = x1
            else:
                merged_lo[merged], merged_hi[merged] = x0, x1
                merged += 1
        if merged < 2:
            continue
        found = _gutter_tries(start, merged_lo[:merged], merged_hi[:merged], merged_lo[0], merged_hi[merged - 1], span_first,
                              span_lo, span_hi, free_first, free_lo, free_hi, row_top, row_bottom, row_x0, row_x1, limits,
                              out, found)
    return out[:found]


@numba.njit(cache=True, nogil=True, inline="always")
def _before(primary, secondary, i, j):  # pragma: no cover - compiled
    """Whether item i sorts strictly before item j by (primary, secondary), as numpy orders floats: a NaN
    after every number, NaNs equal to each other."""
    a, b = primary[i], primary[j]
    if a < b or (b != b and a == a):
        return True
    if b < a or (a != a and b == b):
        return False
    c, d = secondary[i], secondary[j]
    return c < d or (d != d and c == c)


@numba.njit(cache=True, nogil=True)
def lex_order(primary, secondary):  # pragma: no cover - compiled
    """`np.lexsort((secondary, primary))`: the stable order by primary, then secondary. A natural merge
    sort: the runs already in order are found and merged, so a page whose glyphs come nearly in reading
    order (most) costs a pass or two. A stable sort under one strict order has one result, so it is the
    same permutation as numpy's."""
    count = primary.shape[0]
    order = np.arange(count)
    if count < 2:
        return order
    bounds = np.empty(count + 1, dtype=np.int64)
    runs = 0
    bounds[0] = 0
    for k in range(1, count):
        if _before(primary, secondary, k, k - 1):
            runs += 1
            bounds[runs] = k
    runs += 1
    bounds[runs] = count
    scratch = np.empty(count, dtype=np.int64)
    while runs > 1:
        merged = 0
        for pair in range(0, runs, 2):
            lo = bounds[pair]
            if pair + 1 == runs:  # an odd run out: copied as it is
                scratch[lo:count] = order[lo:count]
                bounds[merged] = lo
                merged += 1
                continue
            mid, hi = bounds[pair + 1], bounds[pair + 2]
            i, j, out = lo, mid, lo
            while i < mid and j < hi:
                if _before(primary, secondary, order[j], order[i]):  # the right one only when strictly before
                    scratch[out] = order[j]
                    j += 1
                else:
                    scratch[out] = order[i]
                    i += 1
                out += 1
            while i < mid:
                scratch[out] = order[i]
                i += 1
                out += 1
            while j < hi:
                scratch[out] = order[j]
                j += 1
                out += 1
            bounds[merged] = lo
            merged += 1
        bounds[merged] = count
        runs = merged
        order, scratch = scratch, order
    return order


@numba.njit(cache=True, nogil=True, inline="always")
def _nan_min(a, b):  # pragma: no cover - compiled
    """np.minimum of two floats: a NaN if either is."""
    return a if (a < b or a != a) else b


@numba.njit(cache=True, nogil=True, inline="always")
def _nan_max(a, b):  # pragma: no cover - compiled
    """np.maximum of two floats: a NaN if either is."""
    return a if (a > b or a != a) else b


@numba.njit(cache=True, nogil=True)
def overprint_rows(texts, row_of, x0, x1, top, bottom, reach, rows):  # pragma: no cover - compiled
    """`layout._drop_overprints`'s search: per row, whether a glyph has a twin (the same text, boxes
    overlapping by 0.4 of the narrower width and 0.5 of the lower height) among the `reach` glyphs
    before it in the row (the glyphs one row after the other, sorted by x), with numpy's float operations."""
    suspect = np.zeros(rows, dtype=np.bool_)
    count = texts.shape[0]
    for b in range(1, count):
        row = row_of[b]
        if suspect[row]:
            continue
        for back in range(1, reach + 1):
            a = b - back
            if a < 0 or row_of[a] != row:
                break
            if texts[a] != texts[b]:
                continue
            overlap_x = _nan_min(x1[a], x1[b]) - _nan_max(x0[a], x0[b])
            overlap_y = _nan_min(bottom[a], bottom[b]) - _nan_max(top[a], top[b])
            narrow = _nan_max(_nan_min(x1[a] - x0[a], x1[b] - x0[b]), 0.01)
            low = _nan_max(_nan_min(bottom[a] - top[a], bottom[b] - top[b]), 0.01)
            if overlap_x >= 0.4 * narrow and overlap_y >= 0.5 * low:
                suspect[row] = True
                break
    return suspect


@numba.njit(cache=True, nogil=True)
def row_spans(x0, x1, lengths, min_gap):  # pragma: no cover - compiled
    """`columns._spans` of every row (the rows' glyphs one after the other, each row sorted by x0, with
    these edges; no NaN): (span_first, span lo, span hi), row r's spans at span_first[r]:span_first[r+1]."""
    rows = lengths.shape[0]
    first = np.zeros(rows + 1, dtype=np.int64)
    lo = np.empty(x0.shape[0])
    hi = np.empty(x0.shape[0])
    spans = 0
    at = 0
    for row in range(rows):
        opened = spans
        for k in range(at, at + lengths[row]):
            if spans > opened and x0[k] - hi[spans - 1] < min_gap:
                if x1[k] > hi[spans - 1]:
                    hi[spans - 1] = x1[k]
            else:
                lo[spans], hi[spans] = x0[k], x1[k]
                spans += 1
        at += lengths[row]
        first[row + 1] = spans
    return first, lo[:spans], hi[:spans]
