"""Layout's segment cuts (`layout._segment_rows`) as three loops over a page's rows, written as LLVM IR into layout's
module (`layoutir`, which compiles them with its own loops and hands them out as `LayoutLoops.segments`).

    loops.segment_starts(source, flat, lengths, params)   # (gap, row sizes, starts, the wide gaps Python must judge)
    loops.segment_cuts(source, flat, lengths, starts, gap, params)   # each segment's size, box, flags, spaces, text
    loops.wide_gap_starts(gap, starts, rounded_sizes)    # (segment, glyph) of each `Segment.wide_gap_starts` entry

Each computes what the numpy steps of `layout._segment_rows` compute (the reference, kept for the pure layout and for
numba's loops, which have no such loops), with the same float operations in the same order: the medians by the same
sort (`lex_sort`, numpy's order of floats), box edges as numpy's `minimum`/`maximum` reduce them (a NaN kept, of two
equal values the later), comparisons ordered (false on a NaN). What they save is numpy's cost per call: a corpus
page made some forty array operations and as many temporary arrays to cut its rows; here each step is one pass over
the page's glyphs, gathered through `flat` in place (`tests/pipeline/extract/test_segment_ir.py`).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import ir

from pipeline.extract.irwriter import F64, I1, I8, I64, ONE, P64, PI8, PI64, ZERO, Array, Code, const, c_floats, c_ints, c_flags

I32 = ir.IntType(32)
PI32 = I32.as_pointer()
NAN = const(float("nan"))
SPACE = const(ord(" "), I32)


def _medians(c: Code, lex_sort: ir.Function, groups: Any, group_first: Any, count: Any, keys: Any, work: Any,
             out: Any) -> None:
    """`layout._group_medians` of the `count` values in `keys[count:2 count]` whose groups (contiguous, ascending) are
    numbered in `keys[0:count]`: each group's median (the two middle values' mean where even; a zero made 1.0) into
    `out`, the groups starting at `group_first` (groups + 1 entries, the last `count`). A group of one value (most rows
    and segments: one font size) is its median; only the others' keys are moved to the front and sorted (`work`:
    3 count + 1 for the sort, then a place a group)."""
    b = c.b
    primary, secondary = keys, c.at(keys, count)
    place = c.at(work, b.add(b.mul(count, const(3, I64)), ONE))  # each group's first among the sorted keys; -1: none
    sorting = c.var(I64, ZERO)
    with c.loop(ZERO, groups) as group:
        start, end = c.load(group_first, group.k), c.load(group_first, b.add(group.k, ONE))
        head = c.load(secondary, start)
        alike = c.var(I1, c.f("==", head, head))  # a NaN goes to the sort, which orders it as numpy does
        with c.loop(b.add(start, ONE), end) as turn:
            with b.if_then(b.not_(c.f("==", c.load(secondary, turn.k), head))):
                alike.set(const(0, I1))
                turn.stop()
        with b.if_else(alike.get()) as (same, mixed):
            with same:  # the median of equal values is the value ((v + v) / 2 is v too)
                c.store(place, group.k, const(-1, I64))
                c.store(out, group.k, b.select(c.f("==", head, const(0.0)), const(1.0), head))
            with mixed:
                c.store(place, group.k, sorting.get())
                with c.loop(start, end) as turn:
                    moved = b.add(sorting.get(), b.sub(turn.k, start))
                    c.store(primary, moved, c.load(primary, turn.k))
                    c.store(secondary, moved, c.load(secondary, turn.k))
                sorting.set(b.add(sorting.get(), b.sub(end, start)))
    total = sorting.get()
    order = work
    b.call(lex_sort, [primary, secondary, total, order, c.at(work, total), c.at(work, b.add(total, total))])
    with c.loop(ZERO, groups) as group:
        first = c.load(place, group.k)
        with b.if_then(c.i(">=", first, ZERO)):
            length = b.sub(c.load(group_first, b.add(group.k, ONE)), c.load(group_first, group.k))
            middle = b.add(first, b.sdiv(length, const(2, I64)))
            odd = c.load(secondary, c.load(order, middle))
            below = b.select(c.i(">", middle, ZERO), b.sub(middle, ONE), ZERO)
            even = b.fdiv(b.fadd(c.load(secondary, c.load(order, below)), odd), const(2.0))
            median = b.select(c.i("==", b.srem(length, const(2, I64)), ONE), odd, even)
            c.store(out, group.k, b.select(c.f("==", median, const(0.0)), const(1.0), median))


def _segment_starts(module: ir.Module, lex_sort: ir.Function) -> None:
    """Phase one: each glyph's gap (NaN at a row's first), each row's median size, and where a gap wider than
    `segment_gap` row sizes cuts the row: at once where no justified line can hold it (a text layer: too wide, or no
    space of the content stream there: `WordSpaces.may_be_justified`), else asked of Python (returns how many, their
    places in `asked`)."""
    c = Code(module, "segment_starts", I64, [
        ("flat", Array(PI64)), ("lengths", Array(PI64)), ("rows", I64), ("count", I64), ("x0", Array(P64)), ("x1", Array(P64)),
        ("size", Array(P64)), ("seq", Array(PI64)), ("space_after", Array(PI8)), ("text_layer", I64), ("segment_gap", F64),
        ("justified_max", F64), ("gap", Array(P64)), ("row_size", Array(P64)), ("starts", Array(PI8)), ("asked", Array(PI64)),
        ("keys", Array(P64)), ("work", Array(PI64)), ("row_first", Array(PI64))])
    b, a = c.b, c.a
    flat, count = a["flat"], a["count"]
    at = c.var(I64, ZERO)
    with c.loop(ZERO, a["rows"]) as row:
        start = at.get()
        c.store(a["row_first"], row.k, start)
        end = b.add(start, c.load(a["lengths"], row.k))
        with c.loop(start, end) as turn:
            glyph = c.load(flat, turn.k)
            c.store(a["keys"], turn.k, b.sitofp(row.k, F64))
            c.store(a["keys"], b.add(count, turn.k), c.load(a["size"], glyph))
            with b.if_else(c.i("==", turn.k, start)) as (first, later):
                with first:
                    c.store(a["gap"], turn.k, NAN)
                    c.store(a["starts"], turn.k, const(1, I8))
                with later:
                    previous = c.load(flat, b.sub(turn.k, ONE))
                    c.store(a["gap"], turn.k, b.fsub(c.load(a["x0"], glyph), c.load(a["x1"], previous)))
        at.set(end)
    c.store(a["row_first"], a["rows"], count)
    _medians(c, lex_sort, a["rows"], a["row_first"], count, a["keys"], a["work"], a["row_size"])
    asked = c.var(I64, ZERO)
    with c.loop(ZERO, a["rows"]) as row:
        size = c.load(a["row_size"], row.k)
        limit, widest = b.fmul(a["segment_gap"], size), b.fmul(a["justified_max"], size)
        with c.loop(b.add(c.load(a["row_first"], row.k), ONE), c.load(a["row_first"], b.add(row.k, ONE))) as turn:
            gap = c.load(a["gap"], turn.k)
            with b.if_then(c.f(">", gap, limit)):
                glyph, previous = c.load(flat, turn.k), c.load(flat, b.sub(turn.k, ONE))
                spaced = c.all(lambda: c.i("==", c.load(a["seq"], glyph), b.add(c.load(a["seq"], previous), ONE)),
                               lambda: c.i("!=", c.load(a["space_after"], previous), const(0, I8)))
                never = b.and_(c.i("!=", a["text_layer"], ZERO), b.or_(c.f(">", gap, widest), b.not_(spaced)))
                with b.if_else(never) as (cut, ask):
                    with cut:
                        c.store(a["starts"], turn.k, const(1, I8))
                    with ask:
                        c.store(a["asked"], asked.get(), turn.k)
                        asked.set(b.add(asked.get(), ONE))
    b.ret(asked.get())
    c.done()


def _nan_min(c: Code, kept: Any, value: Any) -> Any:
    """numpy's `minimum` as its reduction meets `value` after `kept`: a NaN stays, of two equal values the later."""
    return c.b.select(c.b.or_(c.f("<", kept, value), c.nan(kept)), kept, value)


def _nan_max(c: Code, kept: Any, value: Any) -> Any:
    return c.b.select(c.b.or_(c.f(">", kept, value), c.nan(kept)), kept, value)


def _segment_cuts(module: ir.Module, lex_sort: ir.Function) -> None:
    """Phase two, the segments `starts` opens (`segments` of them, their first glyphs in `first`): per segment its
    median size, box, bold and marked counts made flags (all bold, partly bold, highlighted) and row; per glyph
    whether a space comes before it; and where `codes` are given, the page's text (`units`, a space before each
    spaced glyph) with each segment's bounds in it (`text_bounds`: from, to). Returns the text's length."""
    c = Code(module, "segment_cuts", I64, [
        ("flat", Array(PI64)), ("lengths", Array(PI64)), ("rows", I64), ("count", I64), ("segments", I64), ("starts", Array(PI8)),
        ("gap", Array(P64)), ("x0", Array(P64)), ("x1", Array(P64)), ("top", Array(P64)), ("bottom", Array(P64)),
        ("size", Array(P64)), ("seq", Array(PI64)), ("space_after", Array(PI8)), ("bold", Array(PI8)),
        ("highlighted", Array(PI8)), ("codes", Array(PI32)), ("has_codes", I64), ("text_layer", I64), ("word_gap", F64),
        ("shifted", F64), ("small", F64), ("first", Array(PI64)), ("values", Array(P64)), ("flags", Array(PI8)),
        ("segment_row", Array(PI64)), ("space", Array(PI8)), ("units", Array(PI32)), ("text_bounds", Array(PI64)),
        ("keys", Array(P64)), ("work", Array(PI64))])
    b, a = c.b, c.a
    flat, count, segments = a["flat"], a["count"], a["segments"]
    # Each segment's first glyph and row, and the sort keys of its sizes (segment number, size).
    segment, row, row_end = c.var(I64, const(-1, I64)), c.var(I64, const(-1, I64)), c.var(I64, ZERO)
    with c.loop(ZERO, count) as turn:
        with c.while_(lambda: c.i("<=", row_end.get(), turn.k)):
            row.set(b.add(row.get(), ONE))
            row_end.set(b.add(row_end.get(), c.load(a["lengths"], row.get())))
        with b.if_then(c.i("!=", c.load(a["starts"], turn.k), const(0, I8))):
            segment.set(b.add(segment.get(), ONE))
            c.store(a["first"], segment.get(), turn.k)
            c.store(a["segment_row"], segment.get(), row.get())
        c.store(a["keys"], turn.k, b.sitofp(segment.get(), F64))
        c.store(a["keys"], b.add(count, turn.k), c.load(a["size"], c.load(flat, turn.k)))
    c.store(a["first"], segments, count)
    sizes = a["values"]
    _medians(c, lex_sort, segments, a["first"], count, a["keys"], a["work"], sizes)
    # Spaces, then each segment's box, counts and text in one pass over its glyphs.
    placed = c.var(I64, ZERO)
    text_layer, has_codes = c.i("!=", a["text_layer"], ZERO), c.i("!=", a["has_codes"], ZERO)
    with c.loop(ZERO, segments) as seg:
        start, end = c.load(a["first"], seg.k), c.load(a["first"], b.add(seg.k, ONE))
        size_here = c.load(sizes, seg.k)
        head = c.load(flat, start)
        lo, lo_top, hi, hi_bottom = (c.var(F64, c.load(a[name], head)) for name in ("x0", "top", "x1", "bottom"))
        bold, marked = c.var(I64, ZERO), c.var(I64, ZERO)
        with b.if_then(has_codes):
            c.store(a["text_bounds"], b.add(seg.k, seg.k), placed.get())
        with c.loop(start, end) as turn:
            glyph = c.load(flat, turn.k)
            spaced = c.var(I1, const(0, I1))
            with b.if_then(c.i(">", turn.k, start)):
                previous = c.load(flat, b.sub(turn.k, ONE))
                gap = c.load(a["gap"], turn.k)
                stream = c.var(I1, c.all(
                    lambda: c.i("!=", c.load(a["space_after"], previous), const(0, I8)),
                    lambda: c.i("==", c.load(a["seq"], glyph), b.add(c.load(a["seq"], previous), ONE)),
                    lambda: c.f(">", gap, b.fmul(const(-0.1), size_here))))
                here, before = c.load(a["size"], glyph), c.load(a["size"], previous)
                smaller = c.var(F64, b.select(c.f("<", here, before), here, before))
                with b.if_then(text_layer):  # `smallrows.shifted_pairs`
                    first_smaller = c.f("<", before, here)
                    larger = b.select(first_smaller, here, before)
                    sign = b.select(first_smaller, const(1.0), const(-1.0))
                    rise_top = b.fmul(sign, b.fsub(c.load(a["top"], previous), c.load(a["top"], glyph)))
                    rise_bottom = b.fmul(sign, b.fsub(c.load(a["bottom"], previous), c.load(a["bottom"], glyph)))
                    reach = b.fmul(a["shifted"], larger)
                    below = b.fneg(reach)
                    raised = b.and_(c.f("<", rise_bottom, below), c.f("<", rise_top, below))
                    lowered = b.and_(c.f(">", rise_top, reach), c.f(">", rise_bottom, reach))
                    shifted = b.and_(c.f("<=", smaller.get(), b.fmul(a["small"], larger)), b.or_(raised, lowered))
                    smaller.set(b.select(shifted, larger, smaller.get()))
                    kept = b.or_(b.not_(shifted), c.f(">", gap, b.fmul(a["word_gap"], smaller.get())))
                    stream.set(b.and_(stream.get(), kept))
                half = b.fmul(const(0.5), size_here)
                measure = b.select(c.f(">", smaller.get(), half), smaller.get(), half)
                spaced.set(b.or_(stream.get(), c.f(">", gap, b.fmul(a["word_gap"], measure))))
                lo.set(_nan_min(c, lo.get(), c.load(a["x0"], glyph)))
                lo_top.set(_nan_min(c, lo_top.get(), c.load(a["top"], glyph)))
                hi.set(_nan_max(c, hi.get(), c.load(a["x1"], glyph)))
                hi_bottom.set(_nan_max(c, hi_bottom.get(), c.load(a["bottom"], glyph)))
            c.store(a["space"], turn.k, b.zext(spaced.get(), I8))
            bold.set(b.add(bold.get(), b.zext(c.i("!=", c.load(a["bold"], glyph), const(0, I8)), I64)))
            marked.set(b.add(marked.get(), b.zext(c.i("!=", c.load(a["highlighted"], glyph), const(0, I8)), I64)))
            with b.if_then(has_codes):
                with b.if_then(spaced.get()):
                    c.store(a["units"], placed.get(), SPACE)
                    placed.set(b.add(placed.get(), ONE))
                c.store(a["units"], placed.get(), c.load(a["codes"], glyph))
                placed.set(b.add(placed.get(), ONE))
        with b.if_then(has_codes):
            c.store(a["text_bounds"], b.add(b.add(seg.k, seg.k), ONE), placed.get())
        for block, edge in enumerate((lo, lo_top, hi, hi_bottom), start=1):
            c.store(sizes, b.add(b.mul(segments, const(block, I64)), seg.k), edge.get())
        length = b.sub(end, start)
        # A marker often skips the printed label ('A. ' then yellow '24'): up to three glyphs discounted.
        unmarked = b.sub(length, const(3, I64))
        share = b.fmul(const(0.5), b.sitofp(b.select(c.i(">", unmarked, ONE), unmarked, ONE), F64))
        lit = b.and_(c.i(">", marked.get(), ZERO), c.f(">=", b.sitofp(marked.get(), F64), share))
        c.store(a["flags"], seg.k, b.zext(lit, I8))
        c.store(a["flags"], b.add(segments, seg.k), b.zext(c.i("==", bold.get(), length), I8))
        partly = b.and_(c.i(">", bold.get(), ZERO), c.i("<", bold.get(), length))
        c.store(a["flags"], b.add(b.add(segments, segments), seg.k), b.zext(partly, I8))
    b.ret(placed.get())
    c.done()


def _wide_gap_starts(module: ir.Module, lex_sort: ir.Function) -> None:
    """Phase three, `layout._wide_gap_starts` with the segments' rounded sizes: the glyphs after a gap wider than
    `wide_gap` sizes and `wide_spread` times its segment's median word space (over `word_space_min` sizes), as
    (segment, glyph) pairs into `found`; returns how many. Only segments holding a gap that wide sort their spaces."""
    c = Code(module, "wide_gap_starts", I64, [
        ("gap", Array(P64)), ("count", I64), ("first", Array(PI64)), ("segments", I64), ("sizes", Array(P64)),
        ("word_space_min", F64), ("wide_gap", F64), ("wide_spread", F64), ("found", Array(PI64)), ("keys", Array(P64)),
        ("work", Array(PI64)), ("space_first", Array(PI64)), ("chosen", Array(PI64))])
    b, a = c.b, c.a
    gap, first = a["gap"], a["first"]
    spaces, chosen = c.var(I64, ZERO), c.var(I64, ZERO)

    def size_of(seg: Any) -> Any:
        size = c.load(a["sizes"], seg)
        return b.select(c.f("==", size, const(0.0)), const(1.0), size)

    # The candidates' word spaces, as sort keys (candidate number, gap); keys[count + k] is the k-th's gap.
    with c.loop(ZERO, a["segments"]) as seg:
        size = size_of(seg.k)
        start, end = b.add(c.load(first, seg.k), ONE), c.load(first, b.add(seg.k, ONE))
        wide = c.var(I1, const(0, I1))
        with c.loop(start, end) as turn:
            with b.if_then(c.f(">", c.load(gap, turn.k), b.fmul(a["wide_gap"], size))):
                wide.set(const(1, I1))
                turn.stop()
        with b.if_then(wide.get()):
            c.store(a["chosen"], chosen.get(), seg.k)
            c.store(a["space_first"], chosen.get(), spaces.get())
            with c.loop(start, end) as turn:
                value = c.load(gap, turn.k)
                with b.if_then(c.f(">", value, b.fmul(a["word_space_min"], size))):
                    c.store(a["keys"], spaces.get(), b.sitofp(chosen.get(), F64))
                    c.store(a["keys"], b.add(a["count"], spaces.get()), value)
                    spaces.set(b.add(spaces.get(), ONE))
            chosen.set(b.add(chosen.get(), ONE))
    c.store(a["space_first"], chosen.get(), spaces.get())
    # The keys' gaps moved next to their numbers, so `_medians` reads them as it sorts them.
    with c.loop(ZERO, spaces.get()) as turn:
        c.store(a["keys"], b.add(spaces.get(), turn.k), c.load(a["keys"], b.add(a["count"], turn.k)))
    total = spaces.get()
    b.call(lex_sort, [a["keys"], c.at(a["keys"], total), total, a["work"], c.at(a["work"], total), c.at(a["work"], b.add(total, total))])
    sorted_gap = c.at(a["keys"], total)
    found = c.var(I64, ZERO)
    with c.loop(ZERO, chosen.get()) as pick:
        seg = c.load(a["chosen"], pick.k)
        size = size_of(seg)
        lo, hi = c.load(a["space_first"], pick.k), c.load(a["space_first"], b.add(pick.k, ONE))
        length = b.sub(hi, lo)
        usual = c.var(F64, NAN)  # no word space: no gap is wider than a multiple of it
        with b.if_then(c.i(">", length, ZERO)):
            middle = b.add(lo, b.sdiv(length, const(2, I64)))
            odd = c.load(sorted_gap, c.load(a["work"], middle))
            below = b.select(c.i(">", middle, ZERO), b.sub(middle, ONE), ZERO)
            even = b.fdiv(b.fadd(c.load(sorted_gap, c.load(a["work"], below)), odd), const(2.0))
            usual.set(b.select(c.i("==", b.srem(length, const(2, I64)), ONE), odd, even))
        with c.loop(b.add(c.load(first, seg), ONE), c.load(first, b.add(seg, ONE))) as turn:
            value = c.load(gap, turn.k)
            with b.if_then(b.and_(c.f(">", value, b.fmul(a["wide_gap"], size)), c.f(">", value, b.fmul(a["wide_spread"], usual.get())))):
                c.store(a["found"], b.add(found.get(), found.get()), seg)
                c.store(a["found"], b.add(b.add(found.get(), found.get()), ONE), turn.k)
                found.set(b.add(found.get(), ONE))
    b.ret(found.get())
    c.done()


def add(module: ir.Module, lex_sort: ir.Function) -> None:
    """The three loops written into layout's module (they call its `lex_sort`)."""
    _segment_starts(module, lex_sort)
    _segment_cuts(module, lex_sort)
    _wide_gap_starts(module, lex_sort)


_O, _N, _F = ctypes.py_object, ctypes.c_int64, ctypes.c_double
SIGNATURES = {
    "segment_starts": (_N, (_O, _O, _N, _N, _O, _O, _O, _O, _O, _N, _F, _F, _O, _O, _O, _O, _O, _O, _O)),
    "segment_cuts": (_N, (_O, _O, _N, _N, _N, _O, _O, _O, _O, _O, _O, _O, _O, _O, _O, _O, _O, _N, _N, _F, _F, _F)
                     + (_O,) * 9),
    "wide_gap_starts": (_N, (_O, _N, _O, _N, _O, _F, _F, _F, _O, _O, _O, _O, _O)),
}


@dataclass(frozen=True)
class Starts:
    """Phase one's answers: each glyph's `gap`, each row's median size (`row_size`), the segment starts found
    (`starts`, a row's first glyph among them), the wide gaps left to Python (`asked`), and the scratch the later
    phases reuse."""

    gap: np.ndarray
    row_size: np.ndarray
    starts: np.ndarray
    asked: np.ndarray
    keys: np.ndarray
    work: np.ndarray


@dataclass(frozen=True)
class Cuts:
    """Phase two's answers for `count` segments: `first` (count + 1, each segment's first glyph in `flat`, then the
    glyph count), `values` (sizes, then the x0, top, x1 and bottom edges, each `count` long), `flags` (highlighted,
    all bold, partly bold, each `count` long), `row` (each segment's), `space` per glyph, and the page's `text` with
    each segment's bounds in it (`text_bounds`, from and to; None where the glyphs have no code points)."""

    count: int
    first: np.ndarray
    values: np.ndarray
    flags: np.ndarray
    row: np.ndarray
    space: np.ndarray
    text: str | None
    text_bounds: np.ndarray


@dataclass(frozen=True)
class SegmentLoops:
    """The three compiled phases (`functions` by name, from layout's engine), called with a page's arrays."""

    functions: dict[str, Any]

    def segment_starts(self, x0: np.ndarray, x1: np.ndarray, size: np.ndarray, seq: np.ndarray, space_after: np.ndarray,
                       flat: np.ndarray, lengths: np.ndarray, text_layer: bool, segment_gap: float, justified_max: float) -> Starts:
        flat, lengths = c_ints(flat), c_ints(lengths)
        count, rows = len(flat), len(lengths)
        gap, row_size, starts = np.empty(count), np.empty(rows), np.zeros(count, dtype=np.bool_)
        asked = np.empty(count, dtype=np.int64)
        # `work`: the sort's order, scratch and bounds (3 count + 1), a place a row or segment (count + 1), each row's first
        keys, work = np.empty(2 * count), np.empty(4 * count + 2 + rows + 1, dtype=np.int64)
        row_first = work[4 * count + 2:]
        found = self.functions["segment_starts"](
            flat, lengths, rows, count, c_floats(x0), c_floats(x1), c_floats(size), c_ints(seq), c_flags(space_after), int(text_layer),
            float(segment_gap), float(justified_max), gap, row_size, starts, asked, keys, work, row_first)
        return Starts(gap, row_size, starts, asked[:found], keys, work)

    def segment_cuts(self, x0: np.ndarray, x1: np.ndarray, top: np.ndarray, bottom: np.ndarray, size: np.ndarray, seq: np.ndarray,
                     space_after: np.ndarray, bold: np.ndarray, highlighted: np.ndarray, codes: np.ndarray | None,
                     flat: np.ndarray, lengths: np.ndarray, found: Starts, text_layer: bool, word_gap: float, shifted: float,
                     small: float) -> Cuts:
        flat, lengths = c_ints(flat), c_ints(lengths)
        count = len(flat)
        segments = int(np.count_nonzero(found.starts))
        first, values, flags = np.empty(segments + 1, dtype=np.int64), np.empty(5 * segments), np.empty(3 * segments, dtype=np.bool_)
        row, space = np.empty(segments, dtype=np.int64), np.empty(count, dtype=np.bool_)
        has_codes = codes is not None
        units = np.empty(2 * count if has_codes else 1, dtype=np.uint32)
        text_bounds = np.empty(2 * segments, dtype=np.int64)
        placed = self.functions["segment_cuts"](
            flat, lengths, len(lengths), count, segments, found.starts, found.gap, c_floats(x0), c_floats(x1), c_floats(top),
            c_floats(bottom), c_floats(size), c_ints(seq), c_flags(space_after), c_flags(bold), c_flags(highlighted),
            np.ascontiguousarray(codes, dtype=np.uint32) if has_codes else units, int(has_codes), int(text_layer), float(word_gap),
            float(shifted), float(small), first, values, flags, row, space, units, text_bounds, found.keys, found.work)
        text = units[:placed].tobytes().decode("utf-32-le", "surrogatepass") if has_codes else None
        return Cuts(segments, first, values, flags, row, space, text, text_bounds)

    def wide_gap_starts(self, gap: np.ndarray, first: np.ndarray, sizes: np.ndarray, word_space_min: float, wide_gap: float,
                        wide_spread: float, keys: np.ndarray, work: np.ndarray) -> np.ndarray:
        """(segment, glyph) rows, one a wide gap's start; `keys` and `work` scratch (2 and 3 glyphs + 1 long at least)."""
        count, segments = len(gap), len(first) - 1
        found = np.empty(2 * count, dtype=np.int64)
        extra = np.empty(2 * segments + 1, dtype=np.int64)
        pairs = self.functions["wide_gap_starts"](
            c_floats(gap), count, c_ints(first), segments, c_floats(sizes), float(word_space_min), float(wide_gap), float(wide_spread),
            found, keys, work, extra[:segments + 1], extra[segments + 1:] if segments else extra)
        return found[:2 * pairs].reshape(pairs, 2)
