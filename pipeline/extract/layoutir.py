"""Layout's five per-row loops (those of `layoutjit`) written as LLVM IR and compiled by llvmlite alone, without numba.

    loops = build()                 # LayoutLoops, or an exception where llvmlite cannot build them
    loops.anchor_rows(top, bottom, size)                    # as layoutjit.anchor_rows
    loops.lex_order(primary, secondary)                     # as np.lexsort((secondary, primary))
    loops.overprint_rows(texts, row_of, x0, x1, top, bottom, reach, rows)
    loops.row_spans(x0, x1, lengths, min_gap)
    loops.column_candidates(span_first, span_lo, span_hi, row_top, row_bottom, row_x0, row_x1, limits)
    loops.segments                  # `segmentir.SegmentLoops`: the segment cuts, in this module too (numba's have none)
    loops.rows                      # `rowir.RowLoops`: the small rows' candidates, a band's inner gaps (the same)

Each does what the `layoutjit` kernel of its name does, with the same float operations in the same order
(compared, and against the pure-Python layout that stays the reference: `tests/pipeline/extract/test_layout_jit.py`,
`test_layout_ir.py`). What differs is what loading them costs a process: numba's import, tables and cached
loops cost 0.7-1.0 CPU s, which layout's loops repaid only on a long run (`charloop.COMPILED_AFTER_CHARACTERS`),
so a short run laid its pages out in Python; these are built in a few hundredths of a second, so every page is
laid out through them from a process's first (`charloop.compiled_layout`).

The functions are written with `irwriter` (every variable a stack slot, read and written where the Python reads
and writes it; llvmlite's optimiser then makes the slots registers); the outputs and scratch are numpy arrays the
wrappers allocate (the loops allocate nothing), passed to ctypes as the array objects, once a call.
Floats follow the kernels' comparisons exactly: ordered comparisons (false on a NaN), `x != x` for a NaN test.
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import ir

from pipeline.extract import rowir, segmentir
from pipeline.extract.irwriter import DATA_WORD, F64, I1, I8, I64, ONE, P64, PI8, PI64, ZERO, Array, Code, Var, const, c_floats, c_ints


def _anchor_rows(module: ir.Module) -> None:
    """`layoutjit.anchor_rows` into opened/row_top/row_bottom; returns the rows."""
    c = Code(module, "anchor_rows", I64, [("top", Array(P64)), ("bottom", Array(P64)), ("size", Array(P64)), ("count", I64),
                                           ("opened", Array(PI64)), ("row_top", Array(P64)), ("row_bottom", Array(P64))])
    b, a = c.b, c.a
    rows, largest = c.var(I64, ZERO), c.var(F64, const(0.0))
    with c.loop(ZERO, a["count"]) as turn:
        k = turn.k
        run_top, run_bottom, run_size = c.load(a["top"], k), c.load(a["bottom"], k), c.load(a["size"], k)
        rowir.anchor_step(c, rows, largest, k, run_top, run_bottom, run_size)
    b.ret(rows.get())
    c.done()


def _before(module: ir.Module) -> ir.Function:
    """Whether item i sorts strictly before item j by (primary, secondary) as numpy orders floats (`layoutjit._before`)."""
    c = Code(module, "before", I1, [("primary", P64), ("secondary", P64), ("i", I64), ("j", I64)], inner=True)
    c.function.attributes.add("alwaysinline")
    b, a = c.b, c.a
    for keys, last in (("primary", False), ("secondary", True)):
        x, y = c.load(a[keys], a["i"]), c.load(a[keys], a["j"])
        before = b.or_(c.f("<", x, y), b.and_(c.nan(y), b.not_(c.nan(x))))
        if last:
            b.ret(before)
            break
        with b.if_then(before):
            b.ret(const(1, I1))
        after = b.or_(c.f("<", y, x), b.and_(c.nan(x), b.not_(c.nan(y))))
        with b.if_then(after):
            b.ret(const(0, I1))
    c.done()
    return c.function


def _lex_sort(module: ir.Module, before: ir.Function) -> ir.Function:
    """`layoutjit.lex_order` into `order` (`scratch` count items, `bounds` count + 1): the natural merge sort."""
    c = Code(module, "lex_sort", ir.VoidType(), [("primary", P64), ("secondary", P64), ("count", I64), ("order", PI64),
                                                  ("scratch", PI64), ("bounds", PI64)], inner=True)
    b, a = c.b, c.a
    count = a["count"]
    with c.loop(ZERO, count) as turn:
        c.store(a["order"], turn.k, turn.k)
    with b.if_then(c.i("<", count, const(2, I64))):
        b.ret_void()
    runs = c.var(I64, ZERO)
    c.store(a["bounds"], ZERO, ZERO)
    with c.loop(ONE, count) as turn:
        with b.if_then(b.call(before, [a["primary"], a["secondary"], turn.k, b.sub(turn.k, ONE)])):
            runs.set(b.add(runs.get(), ONE))
            c.store(a["bounds"], runs.get(), turn.k)
    runs.set(b.add(runs.get(), ONE))
    c.store(a["bounds"], runs.get(), count)
    order, scratch = c.var(PI64, a["order"]), c.var(PI64, a["scratch"])
    with c.while_(lambda: c.i(">", runs.get(), ONE)):
        merged = c.var(I64, ZERO)
        pair = c.var(I64, ZERO)
        with c.while_(lambda: c.i("<", pair.get(), runs.get())):
            lo = c.load(a["bounds"], pair.get())
            odd = c.i("==", b.add(pair.get(), ONE), runs.get())
            with b.if_else(odd) as (then, otherwise):
                with then:  # an odd run out: copied as it is
                    with c.loop(lo, count) as copy:
                        c.store(scratch.get(), copy.k, c.load(order.get(), copy.k))
                with otherwise:
                    mid, hi = c.load(a["bounds"], b.add(pair.get(), ONE)), c.load(a["bounds"], b.add(pair.get(), const(2, I64)))
                    i, j, out = c.var(I64, lo), c.var(I64, mid), c.var(I64, lo)
                    with c.while_(lambda: b.and_(c.i("<", i.get(), mid), c.i("<", j.get(), hi))):
                        oj, oi = c.load(order.get(), j.get()), c.load(order.get(), i.get())
                        with b.if_else(b.call(before, [a["primary"], a["secondary"], oj, oi])) as (right, left):
                            with right:
                                c.store(scratch.get(), out.get(), oj)
                                j.set(b.add(j.get(), ONE))
                            with left:
                                c.store(scratch.get(), out.get(), oi)
                                i.set(b.add(i.get(), ONE))
                        out.set(b.add(out.get(), ONE))
                    for rest, stop in ((i, mid), (j, hi)):
                        def left_over(rest: Var = rest, stop: Any = stop) -> Any:
                            return c.i("<", rest.get(), stop)
                        with c.while_(left_over):
                            c.store(scratch.get(), out.get(), c.load(order.get(), rest.get()))
                            rest.set(b.add(rest.get(), ONE))
                            out.set(b.add(out.get(), ONE))
            c.store(a["bounds"], merged.get(), lo)
            merged.set(b.add(merged.get(), ONE))
            pair.set(b.add(pair.get(), const(2, I64)))
        c.store(a["bounds"], merged.get(), count)
        runs.set(merged.get())
        swapped = order.get()
        order.set(scratch.get())
        scratch.set(swapped)
    with b.if_then(b.icmp_unsigned("!=", order.get(), a["order"])):  # the result in scratch: copied back
        with c.loop(ZERO, count) as copy:
            c.store(a["order"], copy.k, c.load(order.get(), copy.k))
    b.ret_void()
    c.done()
    return c.function


def _lex_order(module: ir.Module, lex_sort: ir.Function) -> None:
    """`lex_sort` called with arrays: `work` holds the order, then the scratch, then the bounds (3 count + 1)."""
    c = Code(module, "lex_order", ir.VoidType(), [("primary", Array(P64)), ("secondary", Array(P64)), ("count", I64),
                                                   ("work", Array(PI64))])
    b, a = c.b, c.a
    count = a["count"]
    b.call(lex_sort, [a["primary"], a["secondary"], count, a["work"], c.at(a["work"], count), c.at(a["work"], b.add(count, count))])
    b.ret_void()
    c.done()


def _overprint_rows(module: ir.Module) -> None:
    """`layoutjit.overprint_rows` into `suspect` (zeros, one byte a row)."""
    c = Code(module, "overprint_rows", ir.VoidType(), [("texts", Array(PI64)), ("row_of", Array(PI64)), ("x0", Array(P64)),
                                                        ("x1", Array(P64)), ("top", Array(P64)), ("bottom", Array(P64)),
                                                        ("reach", I64), ("count", I64), ("suspect", Array(PI8))])
    b, a = c.b, c.a

    with c.loop(ONE, a["count"]) as glyph:
        second = glyph.k
        row = c.load(a["row_of"], second)
        with b.if_then(c.i("!=", c.load(a["suspect"], row), const(0, I8))):
            glyph.next()
        with c.loop(ONE, b.add(a["reach"], ONE)) as back:
            first = b.sub(second, back.k)
            with b.if_then(b.not_(c.all(lambda: c.i(">=", first, ZERO), lambda: c.i("==", c.load(a["row_of"], first), row)))):
                back.stop()
            with b.if_then(c.i("!=", c.load(a["texts"], first), c.load(a["texts"], second))):
                back.next()
            with b.if_then(rowir.overprinted(c, first, second)):
                c.store(a["suspect"], row, const(1, I8))
                back.stop()
    b.ret_void()
    c.done()


def _row_spans(module: ir.Module) -> None:
    """`layoutjit.row_spans` into first (zeros, rows + 1), lo and hi; returns the spans."""
    c = Code(module, "row_spans", I64, [("x0", Array(P64)), ("x1", Array(P64)), ("lengths", Array(PI64)), ("rows", I64),
                                         ("min_gap", F64), ("first", Array(PI64)), ("lo", Array(P64)), ("hi", Array(P64))])
    b, a = c.b, c.a
    spans, at = c.var(I64, ZERO), c.var(I64, ZERO)
    with c.loop(ZERO, a["rows"]) as row:
        opened = spans.get()
        end = b.add(at.get(), c.load(a["lengths"], row.k))
        with c.loop(at.get(), end) as glyph:
            x0, x1 = c.load(a["x0"], glyph.k), c.load(a["x1"], glyph.k)
            last = lambda: b.sub(spans.get(), ONE)  # noqa: E731
            joined = c.all(lambda: c.i(">", spans.get(), opened), lambda: c.f("<", b.fsub(x0, c.load(a["hi"], last())), a["min_gap"]))
            with b.if_else(joined) as (then, otherwise):
                with then:
                    with b.if_then(c.f(">", x1, c.load(a["hi"], last()))):
                        c.store(a["hi"], last(), x1)
                with otherwise:
                    c.store(a["lo"], spans.get(), x0)
                    c.store(a["hi"], spans.get(), x1)
                    spans.set(b.add(spans.get(), ONE))
        at.set(end)
        c.store(a["first"], b.add(row.k, ONE), spans.get())
    b.ret(spans.get())
    c.done()


def _free_intervals(module: ir.Module) -> ir.Function:
    """`layoutjit._free_intervals` into out_lo/out_hi; returns how many."""
    c = Code(module, "free_intervals", I64, [("lo_spans", P64), ("hi_spans", P64), ("count", I64), ("lo", F64), ("hi", F64),
                                              ("out_lo", P64), ("out_hi", P64)], inner=True)
    b, a = c.b, c.a
    found, cursor = c.var(I64, ZERO), c.var(F64, a["lo"])
    with c.loop(ZERO, a["count"]) as span:
        x0, x1 = c.load(a["lo_spans"], span.k), c.load(a["hi_spans"], span.k)
        with b.if_then(c.f(">", x0, cursor.get())):
            c.store(a["out_lo"], found.get(), cursor.get())
            c.store(a["out_hi"], found.get(), x0)
            found.set(b.add(found.get(), ONE))
        with b.if_then(c.f(">", x1, cursor.get())):
            cursor.set(x1)
    with b.if_then(c.f("<", cursor.get(), a["hi"])):
        c.store(a["out_lo"], found.get(), cursor.get())
        c.store(a["out_hi"], found.get(), a["hi"])
        found.set(b.add(found.get(), ONE))
    b.ret(found.get())
    c.done()
    return c.function


# The page's arrays every walk and try reads, passed along together (span_first, span_lo, span_hi, free_first,
# free_lo, free_hi, rows, min_gutter).
_PAGE = [("span_first", PI64), ("span_lo", P64), ("span_hi", P64), ("free_first", PI64), ("free_lo", P64), ("free_hi", P64),
         ("rows", I64), ("min_gutter", F64)]


def _walk(module: ir.Module) -> ir.Function:
    """`layoutjit._walk`: returns the end row; writes (gutter lo, gutter hi, left fill, right fill, right run,
    right rows) into `result`."""
    c = Code(module, "walk", I64, [("start", I64), ("g0", F64), ("g1", F64), *_PAGE, ("min_rows", I64), ("track", I1),
                                    ("result", P64)], inner=True)
    b, a = c.b, c.a
    zero = const(0.0)
    row, low, high = c.var(I64, a["start"]), c.var(F64, a["g0"]), c.var(F64, a["g1"])
    left_fill, right_fill, right_run = c.var(F64, zero), c.var(F64, zero), c.var(F64, zero)
    right_last, right_empty, right_ended = c.var(I64, ZERO), c.var(I64, ZERO), c.var(I1, const(0, I1))
    with c.while_(lambda: c.i("<", row.get(), a["rows"])) as walk:
        found, w0, w1, widest = c.var(I1, const(0, I1)), c.var(F64, zero), c.var(F64, zero), c.var(F64, zero)
        here = row.get()
        with c.loop(c.load(a["free_first"], here), c.load(a["free_first"], b.add(here, ONE))) as free:
            lo, hi = c.load(a["free_lo"], free.k), c.load(a["free_hi"], free.k)
            x = b.select(c.f(">", lo, low.get()), lo, low.get())
            y = b.select(c.f("<", hi, high.get()), hi, high.get())
            width = b.fsub(y, x)
            with b.if_then(b.and_(c.f(">=", width, a["min_gutter"]), b.or_(b.not_(found.get()), c.f(">", width, widest.get())))):
                found.set(const(1, I1))
                w0.set(x)
                w1.set(y)
                widest.set(width)
        with b.if_then(b.not_(found.get())):
            walk.stop()
        left, right = c.var(F64, zero), c.var(F64, zero)
        with c.loop(c.load(a["span_first"], here), c.load(a["span_first"], b.add(here, ONE))) as span:
            lo, hi = c.load(a["span_lo"], span.k), c.load(a["span_hi"], span.k)
            with b.if_then(c.f("<=", hi, w0.get())):
                left.set(b.fadd(left.get(), b.fsub(hi, lo)))
            with b.if_then(c.f(">=", lo, w1.get())):
                right.set(b.fadd(right.get(), b.fsub(hi, lo)))
        left_fill.set(b.fadd(left_fill.get(), left.get()))
        right_fill.set(b.fadd(right_fill.get(), right.get()))
        with b.if_else(b.and_(a["track"], c.f(">", right.get(), zero))) as (inked, otherwise):
            with inked:
                with b.if_then(c.i(">=", right_empty.get(), a["min_rows"])):
                    right_ended.set(const(1, I1))
                with b.if_then(b.not_(right_ended.get())):
                    right_run.set(b.fadd(right_run.get(), right.get()))
                    right_last.set(b.add(b.sub(here, a["start"]), ONE))
                    right_empty.set(ZERO)
            with otherwise:
                with b.if_then(a["track"]):
                    right_empty.set(b.add(right_empty.get(), ONE))
        low.set(w0.get())
        high.set(w1.get())
        row.set(b.add(here, ONE))
    right_rows = b.select(c.i(">", right_last.get(), a["min_rows"]), right_last.get(), a["min_rows"])
    for at, value in enumerate((low.get(), high.get(), left_fill.get(), right_fill.get(), right_run.get(), b.sitofp(right_rows, F64))):
        c.store(a["result"], const(at, I64), value)
    b.ret(row.get())
    c.done()
    return c.function


# The rows' edges and the limits a try reads (row_top, row_bottom, row_x0, row_x1, limits), the output (out: rows of
# four, found: the rows filled) and four scratch arrays of the spans' count + 1.
_TRY = [("row_top", P64), ("row_bottom", P64), ("row_x0", P64), ("row_x1", P64), ("limits", P64), ("out", P64),
        ("gaps_lo", P64), ("gaps_hi", P64), ("inner_lo", P64), ("inner_hi", P64), ("result", P64)]


def _gutter_tries(module: ir.Module, free_intervals: ir.Function, walk: ir.Function) -> ir.Function:
    """`layoutjit._gutter_tries`: appends to `out` from row `found`; returns the rows of `out` filled."""
    c = Code(module, "gutter_tries", I64, [("start", I64), ("first_lo", P64), ("first_hi", P64), ("first_count", I64),
                                            ("lo", F64), ("hi", F64), *_PAGE, *_TRY, ("found", I64)], inner=True)
    b, a = c.b, c.a
    min_rows, min_gutter, min_height, long_rows, min_fill, min_share = (c.load(a["limits"], const(k, I64)) for k in range(6))
    whole_min_rows = b.fptosi(min_rows, I64)
    page = [a[name] for name, _ in _PAGE]
    start, found = a["start"], c.var(I64, a["found"])
    gaps = b.call(free_intervals, [a["first_lo"], a["first_hi"], a["first_count"], a["lo"], a["hi"], a["gaps_lo"], a["gaps_hi"]])
    inner = c.var(I64, ZERO)
    with c.loop(ZERO, gaps) as gap:
        gap_lo, gap_hi = c.load(a["gaps_lo"], gap.k), c.load(a["gaps_hi"], gap.k)
        with b.if_then(b.and_(c.f(">", gap_lo, a["lo"]), c.f("<", gap_hi, a["hi"]))):
            # sorted by (lo - hi), stably: widest first, equal widths in their order
            at = c.var(I64, inner.get())
            before = lambda: b.sub(at.get(), ONE)  # noqa: E731
            with c.while_(lambda: c.all(lambda: c.i(">", at.get(), ZERO), lambda: c.f(
                    "<", b.fsub(gap_lo, gap_hi), b.fsub(c.load(a["inner_lo"], before()), c.load(a["inner_hi"], before()))))):
                c.store(a["inner_lo"], at.get(), c.load(a["inner_lo"], before()))
                c.store(a["inner_hi"], at.get(), c.load(a["inner_hi"], before()))
                at.set(before())
            c.store(a["inner_lo"], at.get(), gap_lo)
            c.store(a["inner_hi"], at.get(), gap_hi)
            inner.set(b.add(inner.get(), ONE))
    result = a["result"]
    with c.loop(ZERO, inner.get()) as gutter:
        g_lo, g_hi = c.load(a["inner_lo"], gutter.k), c.load(a["inner_hi"], gutter.k)
        with b.if_then(c.f("<", b.fsub(g_hi, g_lo), min_gutter)):
            gutter.next()
        end = b.call(walk, [start, g_lo, g_hi, *page, whole_min_rows, const(0, I1), result])
        g0, g1, left_fill, right_fill = (c.load(result, const(k, I64)) for k in range(4))
        count = b.sub(end, start)
        rows_counted = b.sitofp(count, F64)
        with b.if_then(c.f("<", rows_counted, min_rows)):
            gutter.next()
        last = b.sub(end, ONE)
        last = b.select(c.i("<", last, ZERO), b.add(last, a["rows"]), last)  # numba's index from the end
        short = c.f("<", b.fsub(c.load(a["row_bottom"], last), c.load(a["row_top"], start)), min_height)
        with b.if_then(b.and_(short, c.f("<", rows_counted, long_rows))):
            gutter.next()
        band_lo, band_hi = c.var(F64, c.load(a["row_x0"], start)), c.var(F64, c.load(a["row_x1"], start))
        with c.loop(b.add(start, ONE), end) as row:
            x0, x1 = c.load(a["row_x0"], row.k), c.load(a["row_x1"], row.k)
            with b.if_then(c.f("<", x0, band_lo.get())):
                band_lo.set(x0)
            with b.if_then(c.f(">", x1, band_hi.get())):
                band_hi.set(x1)
        one = const(1.0)
        left_width = b.fsub(g0, band_lo.get())
        left_width = b.select(c.f(">", one, left_width), one, left_width)
        right_width = b.fsub(band_hi.get(), g1)
        right_width = b.select(c.f(">", one, right_width), one, right_width)
        narrower = b.select(c.f("<", right_width, left_width), right_width, left_width)
        with b.if_then(c.f("<", narrower, b.fmul(min_share, b.fsub(band_hi.get(), band_lo.get())))):
            gutter.next()
        with b.if_then(c.f("<", b.fdiv(left_fill, rows_counted), b.fmul(min_fill, left_width))):
            gutter.next()
        with b.if_then(c.f("<", b.fdiv(right_fill, rows_counted), b.fmul(min_fill, right_width))):
            # a right column that ends before the band does, on its rows down to its end: the walk again, tracking it
            b.call(walk, [start, g_lo, g_hi, *page, whole_min_rows, const(1, I1), result])
            right_run, right_rows = c.load(result, const(4, I64)), c.load(result, const(5, I64))
            with b.if_then(c.f("<", b.fdiv(right_run, right_rows), b.fmul(min_fill, right_width))):
                gutter.next()
        row_at = b.mul(found.get(), const(4, I64))
        for k, value in enumerate((b.sitofp(start, F64), b.sitofp(end, F64), g0, g1)):
            c.store(a["out"], b.add(row_at, const(k, I64)), value)
        found.set(b.add(found.get(), ONE))
    b.ret(found.get())
    c.done()
    return c.function


def _column_candidates(module: ir.Module, free_intervals: ir.Function, gutter_tries: ir.Function, lex_sort: ir.Function) -> None:
    """`layoutjit.column_candidates` into `out` (rows of four, room for every try); returns the rows filled. Scratch:
    `floats` holds free_lo, free_hi (spans + rows each), gaps_lo, gaps_hi, inner_lo, inner_hi (spans + 1 each),
    merged_lo, merged_hi (spans each) and the walk's result (6); `ints` free_first (rows + 1, the first 0), the
    window's order and the sort's scratch (spans each) and its runs' bounds (spans + 1)."""
    arrays = [(name, Array(PI64 if name == "span_first" else P64)) for name in
              ("span_first", "span_lo", "span_hi", "row_top", "row_bottom", "row_x0", "row_x1", "limits", "out", "floats")]
    c = Code(module, "column_candidates", I64, [*arrays, ("ints", Array(PI64)), ("rows", I64), ("spans", I64)])
    b, a = c.b, c.a
    rows, spans = a["rows"], a["spans"]
    a["min_gutter"] = c.load(a["limits"], ONE)
    places = {}
    at: Any = ZERO
    for name, length in (("free_lo", b.add(spans, rows)), ("free_hi", b.add(spans, rows)), ("gaps_lo", b.add(spans, ONE)),
                         ("gaps_hi", b.add(spans, ONE)), ("inner_lo", b.add(spans, ONE)), ("inner_hi", b.add(spans, ONE)),
                         ("merged_lo", spans), ("merged_hi", spans), ("result", const(6, I64))):
        places[name] = c.at(a["floats"], at)
        at = b.add(at, length)
    at = ZERO
    for name, length in (("free_first", b.add(rows, ONE)), ("order", spans), ("sorting", spans), ("bounds", b.add(spans, ONE))):
        places[name] = c.at(a["ints"], at)
        at = b.add(at, length)
    a.update(places)
    rows, min_gutter = a["rows"], a["min_gutter"]
    min_rows = b.fptosi(c.load(a["limits"], ZERO), I64)
    free = c.var(I64, ZERO)
    with c.loop(ZERO, rows) as row:
        lo, hi = c.load(a["span_first"], row.k), c.load(a["span_first"], b.add(row.k, ONE))
        gaps = b.call(free_intervals, [c.at(a["span_lo"], lo), c.at(a["span_hi"], lo), b.sub(hi, lo), const(float("-inf")),
                                       const(float("inf")), a["gaps_lo"], a["gaps_hi"]])
        with c.loop(ZERO, gaps) as gap:
            x, y = c.load(a["gaps_lo"], gap.k), c.load(a["gaps_hi"], gap.k)
            with b.if_then(c.f(">=", b.fsub(y, x), min_gutter)):
                c.store(a["free_lo"], free.get(), x)
                c.store(a["free_hi"], free.get(), y)
                free.set(b.add(free.get(), ONE))
        c.store(a["free_first"], b.add(row.k, ONE), free.get())
    found = c.var(I64, ZERO)
    tail = [a[name] for name, _ in (*_PAGE, *_TRY)]
    with c.loop(ZERO, rows) as first:
        start = first.k
        lo, hi = c.load(a["span_first"], start), c.load(a["span_first"], b.add(start, ONE))
        with b.if_then(c.i(">=", b.sub(hi, lo), const(2, I64))):
            found.set(b.call(gutter_tries, [start, c.at(a["span_lo"], lo), c.at(a["span_hi"], lo), b.sub(hi, lo),
                                            c.load(a["row_x0"], start), c.load(a["row_x1"], start), *tail, found.get()]))
        # The next few rows' spans together, sorted (lo, then hi) and merged across gaps under min_gutter.
        last = b.add(start, min_rows)
        last = b.select(c.i("<", last, rows), last, rows)
        hi = c.load(a["span_first"], last)
        window = b.sub(hi, lo)
        window = b.select(c.i("<", window, ZERO), ZERO, window)
        span_lo, span_hi = c.at(a["span_lo"], lo), c.at(a["span_hi"], lo)
        b.call(lex_sort, [span_lo, span_hi, window, a["order"], a["sorting"], a["bounds"]])
        merged = c.var(I64, ZERO)
        with c.loop(ZERO, window) as step:
            k = c.load(a["order"], step.k)
            x0, x1 = c.load(span_lo, k), c.load(span_hi, k)
            previous = lambda: b.sub(merged.get(), ONE)  # noqa: E731
            joined = c.all(lambda: c.i(">", merged.get(), ZERO),
                           lambda: c.f("<", b.fsub(x0, c.load(a["merged_hi"], previous())), min_gutter))
            with b.if_else(joined) as (then, otherwise):
                with then:
                    with b.if_then(c.f(">", x1, c.load(a["merged_hi"], previous()))):
                        c.store(a["merged_hi"], previous(), x1)
                with otherwise:
                    c.store(a["merged_lo"], merged.get(), x0)
                    c.store(a["merged_hi"], merged.get(), x1)
                    merged.set(b.add(merged.get(), ONE))
        with b.if_then(c.i("<", merged.get(), const(2, I64))):
            first.next()
        found.set(b.call(gutter_tries, [start, a["merged_lo"], a["merged_hi"], merged.get(), c.load(a["merged_lo"], ZERO),
                                        c.load(a["merged_hi"], previous()), *tail, found.get()]))
    b.ret(found.get())
    c.done()


def _module() -> ir.Module:
    module = ir.Module("layout")
    _anchor_rows(module)
    before = _before(module)
    lex_sort = _lex_sort(module, before)
    _lex_order(module, lex_sort)
    _overprint_rows(module)
    _row_spans(module)
    free_intervals = _free_intervals(module)
    gutter_tries = _gutter_tries(module, free_intervals, _walk(module))
    _column_candidates(module, free_intervals, gutter_tries, lex_sort)
    segmentir.add(module, lex_sort)
    rowir.add(module)
    return module


# The optimiser's passes run on the loops before code generation (`llvm.create_new_module_pass_manager`'s
# `add_<name>_pass`), in this order; their names are part of the kept object code's key (`objectcache`).
PASSES = ("always_inliner", "sroa", "instruction_combine", "simplify_cfg")
_O, _N, _F = ctypes.py_object, ctypes.c_int64, ctypes.c_double
# Each exported function's ctypes prototype: (result, arguments) in the order of its IR parameters.
_SIGNATURES = {
    "anchor_rows": (_N, (_O, _O, _O, _N, _O, _O, _O)),
    "lex_order": (None, (_O, _O, _N, _O)),
    "overprint_rows": (None, (_O, _O, _O, _O, _O, _O, _N, _N, _O)),
    "row_spans": (_N, (_O, _O, _O, _N, _F, _O, _O, _O)),
    "column_candidates": (_N, (_O,) * 11 + (_N, _N)),
    **segmentir.SIGNATURES,
    **rowir.SIGNATURES,
}


@dataclass(frozen=True)
class LayoutLoops:
    """The compiled loops behind `layoutjit`'s five names (arguments and results as there); `engine` keeps their code
    alive. Every array goes to the code C-contiguous and of the type it reads (`irwriter.c_floats`, `c_ints`: the array itself
    where it already is)."""

    functions: dict[str, Any]
    engine: Any
    segments: segmentir.SegmentLoops | None = None  # `layout._segment_rows`' three phases (numba's loops have none)
    rows: rowir.RowLoops | None = None  # the small rows' candidates and a band's inner gaps (numba's loops have none)

    def anchor_rows(self, top: np.ndarray, bottom: np.ndarray, size: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        top, bottom, size = c_floats(top), c_floats(bottom), c_floats(size)
        count = len(top)
        opened, row_top, row_bottom = np.empty(count, dtype=np.int64), np.empty(count), np.empty(count)
        rows = self.functions["anchor_rows"](top, bottom, size, count, opened, row_top, row_bottom)
        return opened[:rows], row_top[:rows], row_bottom[:rows]

    def lex_order(self, primary: np.ndarray, secondary: np.ndarray) -> np.ndarray:
        primary, secondary = c_floats(primary), c_floats(secondary)
        count = len(primary)
        work = np.empty(3 * count + 1, dtype=np.int64)  # the order, the merge's scratch, the runs' bounds
        self.functions["lex_order"](primary, secondary, count, work)
        return work[:count]

    def overprint_rows(self, texts: np.ndarray, row_of: np.ndarray, x0: np.ndarray, x1: np.ndarray, top: np.ndarray,
                       bottom: np.ndarray, reach: int, rows: int) -> np.ndarray:
        suspect = np.zeros(rows, dtype=np.bool_)
        self.functions["overprint_rows"](c_ints(texts), c_ints(row_of), c_floats(x0), c_floats(x1), c_floats(top), c_floats(bottom),
                                         int(reach), len(texts), suspect)
        return suspect

    def row_spans(self, x0: np.ndarray, x1: np.ndarray, lengths: np.ndarray, min_gap: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        x0, x1, lengths = c_floats(x0), c_floats(x1), c_ints(lengths)
        first, lo, hi = np.zeros(len(lengths) + 1, dtype=np.int64), np.empty(len(x0)), np.empty(len(x0))
        spans = self.functions["row_spans"](x0, x1, lengths, len(lengths), float(min_gap), first, lo, hi)
        return first, lo[:spans], hi[:spans]

    def column_candidates(self, span_first: np.ndarray, span_lo: np.ndarray, span_hi: np.ndarray, row_top: np.ndarray,
                          row_bottom: np.ndarray, row_x0: np.ndarray, row_x1: np.ndarray, limits: np.ndarray) -> np.ndarray:
        limits = c_floats(limits)
        rows, spans = len(span_first) - 1, len(span_lo)
        # Each try's gutters are fewer than its spans: a start row's own, and those of its window of min rows.
        out = np.empty(((min(max(int(limits[0]), 0), rows) + 1) * spans + 2, 4))
        floats = np.empty(2 * (spans + rows) + 4 * (spans + 1) + 2 * spans + 6)  # see `_column_candidates`
        ints = np.empty(rows + 1 + 3 * spans + 1, dtype=np.int64)
        ints[0] = 0
        found = self.functions["column_candidates"](
            c_ints(span_first), c_floats(span_lo), c_floats(span_hi), c_floats(row_top), c_floats(row_bottom), c_floats(row_x0),
            c_floats(row_x1), limits, out, floats, ints, rows, spans)
        return out[:found]


def build(codegen: int = 0, passes: bool = True) -> LayoutLoops:
    """Write, compile and link the loops (llvmlite's MCJIT, at this code generation level); raises where llvmlite is
    missing or cannot compile for this machine."""
    import llvmlite.binding as llvm

    from pipeline.extract.objectcache import load_or_compile

    probe = np.zeros(1)
    if ctypes.c_void_p.from_address(id(probe) + DATA_WORD * ctypes.sizeof(ctypes.c_void_p)).value != probe.ctypes.data:
        raise RuntimeError("numpy's array object does not hold its data pointer where the loops read it")
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(opt=codegen)
    passes = passes and hasattr(llvm, "create_new_module_pass_manager")  # llvmlite 0.44 on; before, the loops as written

    def run_passes(module: Any) -> None:
        # The stack slots made registers and the comparison function inlined: the loops as an optimiser would
        # leave them, for a few hundredths of a second (once a machine: the object code is kept, `objectcache`).
        manager = llvm.create_new_module_pass_manager()
        for name in PASSES:
            getattr(manager, f"add_{name}_pass")()
        manager.run(module, llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options()))

    engine = load_or_compile(llvm, str(_module()), machine, build=f"codegen={codegen} passes={','.join(PASSES) if passes else ''}",
                             prepare=run_passes if passes else None)
    functions = {name: ctypes.CFUNCTYPE(result, *arguments)(engine.get_function_address(name))
                 for name, (result, arguments) in _SIGNATURES.items()}
    return LayoutLoops(functions, engine, segmentir.SegmentLoops(functions), rowir.RowLoops(functions))
