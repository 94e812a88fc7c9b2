"""Four of layout's row steps as loops written in LLVM IR into layout's module (`layoutir`, which compiles them with its
own loops and hands them out as `LayoutLoops.rows`):

    loops.walk_rows(order, top, bottom, size)
        # `layout._group`'s walk: the runs of glyphs alike and `anchor_rows` over them, reading the sorted glyphs in place
    loops.small_row_candidates(size, top, bottom, order, opened, anchor, reach, small)
        # `smallrows.small_row_candidates`: each walked row's largest size, ink top and bottom, and whether it may be
        # a row of superscripts or subscripts (the sums `smallrows.join_small_rows` asks of every text page)
    loops.inner_gaps(x0, x1, flat, row_of, gutter)
        # `gutterchecks._typical_inner_gap`'s widest gap of each row between neighbours on either side of a gutter
    loops.overprint_rows(texts, x0, x1, top, bottom, flat, lengths, reach)
        # `layoutir`'s `overprint_rows` (`layout._drop_overprints`) reading the page's arrays in place through `flat`

Each computes what the numpy reference of its name computes (kept for the pure layout and for numba's loops, which have
none of these), with the same float operations: numpy's `maximum`/`minimum` reductions (a NaN kept, of equal values the
later), ordered
comparisons (false on a NaN). What they save is numpy's cost per call, a dozen array operations and their temporaries
on every page and every band tried (`tests/pipeline/extract/test_row_ir.py` compares both).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

import numpy as np
from llvmlite import ir

from pipeline.extract.irwriter import F64, I1, I8, I64, ONE, P64, PI8, PI64, ZERO, Array, Code, Var, const, c_floats, c_ints


def _reduce(c: Code, acc: Var, value: Any, take_if: str) -> None:
    """`acc` reduced with `value` as numpy's `maximum.reduceat` (`take_if` ">=") or `minimum.reduceat` ("<=") reduce:
    a NaN in either is kept, of two equal values the later (a -0.0 after a 0.0)."""
    b = c.b
    with b.if_then(b.not_(c.nan(acc.get()))):
        with b.if_then(b.or_(c.nan(value), c.f(take_if, value, acc.get()))):
            acc.set(value)


def _small_row_candidates(module: ir.Module) -> None:
    """Each row's largest size, ink top and bottom (its glyphs `order[opened[r]:opened[r + 1]]`) into `row_max`,
    `row_top`, `row_bottom`, and `candidate[r]` (one byte): the row is `small` of a row within `reach` rows or less and
    overlaps its anchor box (`anchor[2 r]`, `anchor[2 r + 1]`: top and bottom); returns how many rows are candidates."""
    c = Code(module, "small_row_candidates", I64, [
        ("size", Array(P64)), ("top", Array(P64)), ("bottom", Array(P64)), ("order", Array(PI64)), ("opened", Array(PI64)),
        ("rows", I64), ("count", I64), ("anchor", Array(P64)), ("reach", I64), ("small", F64), ("row_max", Array(P64)),
        ("row_top", Array(P64)), ("row_bottom", Array(P64)), ("candidate", Array(PI8))])
    b, a = c.b, c.a
    largest, highest, lowest = c.var(F64), c.var(F64), c.var(F64)
    with c.loop(ZERO, a["rows"]) as row:
        start = c.load(a["opened"], row.k)
        next_row = b.add(row.k, ONE)
        end = b.select(c.i("<", next_row, a["rows"]), c.load(a["opened"], next_row), a["count"])
        first = c.load(a["order"], start)
        largest.set(c.load(a["size"], first))
        highest.set(c.load(a["top"], first))
        lowest.set(c.load(a["bottom"], first))
        with c.loop(b.add(start, ONE), end) as turn:
            glyph = c.load(a["order"], turn.k)
            _reduce(c, largest, c.load(a["size"], glyph), ">=")
            _reduce(c, highest, c.load(a["top"], glyph), "<=")
            _reduce(c, lowest, c.load(a["bottom"], glyph), ">=")
        c.store(a["row_max"], row.k, largest.get())
        c.store(a["row_top"], row.k, highest.get())
        c.store(a["row_bottom"], row.k, lowest.get())
    found = c.var(I64, ZERO)
    with c.loop(ZERO, a["rows"]) as row:
        here = row.k
        size, ink_top, ink_bottom = c.load(a["row_max"], here), c.load(a["row_top"], here), c.load(a["row_bottom"], here)
        small = c.var(I1, const(0, I1))
        with c.loop(ONE, b.add(a["reach"], ONE)) as step:
            for other in (b.add(here, step.k), b.sub(here, step.k)):
                inside = b.and_(c.i(">=", other, ZERO), c.i("<", other, a["rows"]))
                with b.if_then(c.all(lambda: inside,  # noqa: B023 (asked here, in this turn)
                                     lambda: c.f("<=", size, b.fmul(a["small"], c.load(a["row_max"], other))),  # noqa: B023
                                     lambda: c.f(">", ink_bottom, c.load(a["anchor"], b.add(other, other))),  # noqa: B023
                                     lambda: c.f("<", ink_top, c.load(a["anchor"], b.add(b.add(other, other), ONE))))):  # noqa: B023
                    small.set(const(1, I1))
        c.store(a["candidate"], here, b.zext(small.get(), I8))
        found.set(b.add(found.get(), b.zext(small.get(), I64)))
    b.ret(found.get())
    c.done()


def _inner_gaps(module: ir.Module) -> None:
    """For each side of the gutter (glyphs ending at or before `left_edge`, then those starting at or after
    `right_edge`), each row's widest gap between its neighbouring glyphs there (`flat` the band's glyphs row after row
    in x order, `row_of` the row of each) into `widest`; returns how many, or -1 where a gap is NaN."""
    c = Code(module, "inner_gaps", I64, [
        ("x0", Array(P64)), ("x1", Array(P64)), ("flat", Array(PI64)), ("row_of", Array(PI64)), ("count", I64),
        ("left_edge", F64), ("right_edge", F64), ("widest", Array(P64))])
    b, a = c.b, c.a
    found = c.var(I64, ZERO)
    for side in (0, 1):
        previous, previous_row = c.var(I64, ZERO), c.var(I64, const(-1, I64))
        widest, has = c.var(F64, const(0.0)), c.var(I1, const(0, I1))
        with c.loop(ZERO, a["count"]) as turn:
            glyph = c.load(a["flat"], turn.k)
            x0 = c.load(a["x0"], glyph)
            on_side = c.f("<=", c.load(a["x1"], glyph), a["left_edge"]) if side == 0 else c.f(">=", x0, a["right_edge"])
            with b.if_then(b.not_(on_side)):
                turn.next()
            row = c.load(a["row_of"], turn.k)
            with b.if_else(c.i("==", row, previous_row.get())) as (same, other):
                with same:
                    gap = b.fsub(x0, c.load(a["x1"], previous.get()))
                    with b.if_then(c.nan(gap)):
                        b.ret(const(-1, I64))
                    # numpy's `maximum.at` from -inf: a wider gap replaces the widest (of equal ones, the later kept)
                    with b.if_then(b.or_(b.not_(has.get()), c.f(">=", gap, widest.get()))):
                        widest.set(gap)
                        has.set(const(1, I1))
                with other:
                    with b.if_then(has.get()):
                        c.store(a["widest"], found.get(), widest.get())
                        found.set(b.add(found.get(), ONE))
                        has.set(const(0, I1))
            previous.set(glyph)
            previous_row.set(row)
        with b.if_then(has.get()):
            c.store(a["widest"], found.get(), widest.get())
            found.set(b.add(found.get(), ONE))
    b.ret(found.get())
    c.done()


def _overprint_rows_in_place(module: ir.Module) -> None:
    """`layoutir`'s `overprint_rows` reading the page's arrays through `flat` (the rows' glyphs one after the other,
    `lengths` each row's count) instead of gathered copies: per row, whether a glyph has a twin (the same text, boxes
    overlapping) among the `reach` glyphs before it in its row, into `suspect` (zeros, one byte a row)."""
    c = Code(module, "overprint_rows_in_place", ir.VoidType(), [
        ("texts", Array(PI64)), ("x0", Array(P64)), ("x1", Array(P64)), ("top", Array(P64)), ("bottom", Array(P64)),
        ("flat", Array(PI64)), ("lengths", Array(PI64)), ("rows", I64), ("reach", I64), ("suspect", Array(PI8))])
    b, a = c.b, c.a

    row_start = c.var(I64, ZERO)
    with c.loop(ZERO, a["rows"]) as row:
        start = row_start.get()
        end = b.add(start, c.load(a["lengths"], row.k))
        row_start.set(end)
        with c.loop(b.add(start, ONE), end) as glyph:
            second = glyph.k
            with c.loop(ONE, b.add(a["reach"], ONE)) as back:
                first = b.sub(second, back.k)
                with b.if_then(c.i("<", first, start)):
                    back.stop()
                one, other = c.load(a["flat"], first), c.load(a["flat"], second)
                with b.if_then(c.i("!=", c.load(a["texts"], one), c.load(a["texts"], other))):
                    back.next()
                with b.if_then(overprinted(c, one, other)):
                    c.store(a["suspect"], row.k, const(1, I8))
                    glyph.stop()  # the row is suspect: the next row
    b.ret_void()
    c.done()


def overprinted(c: Code, one: ir.Value, other: ir.Value) -> ir.Value:
    """Whether glyphs `one` and `other` (indices into the code's `x0`, `x1`, `top`, `bottom`) overlap as a twin printed
    over its glyph does (`layoutjit.overprint_rows`' test): by 0.4 of the narrower's width and half the lower's height,
    a NaN coordinate taken as numpy's min and max take it. Written into `overprint_rows` (`layoutir`) and
    `overprint_rows_in_place` alike."""
    b, a = c.b, c.a

    def nan_min(x: Any, y: Any) -> Any:
        return b.select(b.or_(c.f("<", x, y), c.nan(x)), x, y)

    def nan_max(x: Any, y: Any) -> Any:
        return b.select(b.or_(c.f(">", x, y), c.nan(x)), x, y)

    x0a, x0b, x1a, x1b = (c.load(a[name], at) for name in ("x0", "x1") for at in (one, other))
    topa, topb, bottoma, bottomb = (c.load(a[name], at) for name in ("top", "bottom") for at in (one, other))
    overlap_x = b.fsub(nan_min(x1a, x1b), nan_max(x0a, x0b))
    overlap_y = b.fsub(nan_min(bottoma, bottomb), nan_max(topa, topb))
    narrow = nan_max(nan_min(b.fsub(x1a, x0a), b.fsub(x1b, x0b)), const(0.01))
    low = nan_max(nan_min(b.fsub(bottoma, topa), b.fsub(bottomb, topb)), const(0.01))
    return b.and_(c.f(">=", overlap_x, b.fmul(const(0.4), narrow)), c.f(">=", overlap_y, b.fmul(const(0.5), low)))


def anchor_step(c: Code, rows: Var, largest: Var, k: ir.Value, run_top: ir.Value, run_bottom: ir.Value,
                run_size: ir.Value) -> None:
    """`layoutjit.anchor_rows`' step for one run (`k`, its box and size): inside the open row's anchor box it may
    widen the box (a run larger by a quarter than the row's largest) and raise `largest`; else it opens a row at `k`.
    Written into `anchor_rows` (`layoutir`) and `walk_rows` alike; the code's arrays `opened`, `row_top`, `row_bottom`."""
    b, a = c.b, c.a
    centre = b.fdiv(b.fadd(run_top, run_bottom), const(2.0))
    last = lambda: b.sub(rows.get(), ONE)  # noqa: E731
    inside = c.all(lambda: c.i(">", rows.get(), ZERO), lambda: c.f("<=", c.load(a["row_top"], last()), centre),
                   lambda: c.f("<=", centre, c.load(a["row_bottom"], last())))
    with b.if_else(inside) as (then, otherwise):
        with then:
            with b.if_then(c.f(">", run_size, b.fmul(const(1.25), largest.get()))):
                c.store(a["row_top"], last(), run_top)
                c.store(a["row_bottom"], last(), run_bottom)
            with b.if_then(c.f(">", run_size, largest.get())):
                largest.set(run_size)
        with otherwise:
            at = rows.get()
            c.store(a["opened"], at, k)
            c.store(a["row_top"], at, run_top)
            c.store(a["row_bottom"], at, run_bottom)
            rows.set(b.add(at, ONE))
            largest.set(run_size)


def _walk_rows(module: ir.Module) -> None:
    """`layout._group`'s walk over its sorted glyphs (`order`, read in place): the runs (a glyph with the box and size
    of the one before it, and not upside down, decides nothing) and `anchor_rows` over their first glyphs; each row's
    first place in `order` into `opened`, its anchor box into `row_top` and `row_bottom`; returns the rows."""
    c = Code(module, "walk_rows", I64, [("order", Array(PI64)), ("top", Array(P64)), ("bottom", Array(P64)), ("size", Array(P64)),
                                         ("count", I64), ("opened", Array(PI64)), ("row_top", Array(P64)), ("row_bottom", Array(P64))])
    b, a = c.b, c.a
    rows, largest = c.var(I64, ZERO), c.var(F64, const(0.0))
    before_top, before_bottom, before_size = c.var(F64, const(0.0)), c.var(F64, const(0.0)), c.var(F64, const(0.0))
    with c.loop(ZERO, a["count"]) as turn:
        k = turn.k
        glyph = c.load(a["order"], k)
        run_top, run_bottom, run_size = c.load(a["top"], glyph), c.load(a["bottom"], glyph), c.load(a["size"], glyph)
        same = c.all(lambda: c.i(">", k, ZERO), lambda: c.f("==", run_top, before_top.get()),
                     lambda: c.f("==", run_bottom, before_bottom.get()), lambda: c.f("==", run_size, before_size.get()),
                     lambda: c.f("<=", run_top, run_bottom))
        before_top.set(run_top)
        before_bottom.set(run_bottom)
        before_size.set(run_size)
        with b.if_then(same):
            turn.next()
        anchor_step(c, rows, largest, k, run_top, run_bottom, run_size)
    b.ret(rows.get())
    c.done()


def add(module: ir.Module) -> None:
    """The four loops written into layout's module."""
    _walk_rows(module)
    _small_row_candidates(module)
    _inner_gaps(module)
    _overprint_rows_in_place(module)


_O, _N, _F = ctypes.py_object, ctypes.c_int64, ctypes.c_double
SIGNATURES = {
    "small_row_candidates": (_N, (_O, _O, _O, _O, _O, _N, _N, _O, _N, _F, _O, _O, _O, _O)),
    "inner_gaps": (_N, (_O, _O, _O, _O, _N, _F, _F, _O)),
    "overprint_rows_in_place": (None, (_O,) * 7 + (_N, _N, _O)),
    "walk_rows": (_N, (_O, _O, _O, _O, _N, _O, _O, _O)),
}


@dataclass(frozen=True)
class RowLoops:
    """The four compiled loops (`functions` by name, from layout's engine), called with a page's arrays."""

    functions: dict[str, Any]

    def walk_rows(self, order: np.ndarray, top: np.ndarray, bottom: np.ndarray, size: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(opened, row_top, row_bottom): the rows the walk over the sorted glyphs `order` opens, as `layout._group` finds them."""
        count = len(order)
        opened, row_top, row_bottom = np.empty(count, dtype=np.int64), np.empty(count), np.empty(count)
        rows = self.functions["walk_rows"](c_ints(order), c_floats(top), c_floats(bottom), c_floats(size), count, opened, row_top, row_bottom)
        return opened[:rows], row_top[:rows], row_bottom[:rows]

    def small_row_candidates(self, size: np.ndarray, top: np.ndarray, bottom: np.ndarray, order: np.ndarray, opened: np.ndarray,
                             anchor: np.ndarray, reach: int, small: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(row_max, row_top, row_bottom, candidate) of the rows opened at `opened` in `order` (at least one glyph each),
        `anchor` their anchor boxes (a row's top and bottom)."""
        rows = len(opened)
        row_max, row_top, row_bottom = np.empty((3, rows))
        candidate = np.empty(rows, dtype=np.bool_)
        self.functions["small_row_candidates"](
            c_floats(size), c_floats(top), c_floats(bottom), c_ints(order), c_ints(opened), rows, len(order), c_floats(anchor), int(reach),
            float(small), row_max, row_top, row_bottom, candidate)
        return row_max, row_top, row_bottom, candidate

    def inner_gaps(self, x0: np.ndarray, x1: np.ndarray, flat: np.ndarray, row_of: np.ndarray, gutter: tuple[float, float]
                   ) -> np.ndarray | None:
        """Each row's widest gap left of the gutter, then right of it (rows without one left out); None: a gap is NaN."""
        widest = np.empty(max(len(flat), 1))
        found = self.functions["inner_gaps"](c_floats(x0), c_floats(x1), c_ints(flat), c_ints(row_of), len(flat), float(gutter[0]),
                                             float(gutter[1]), widest)
        return None if found < 0 else widest[:found]

    def overprint_rows(self, texts: np.ndarray, x0: np.ndarray, x1: np.ndarray, top: np.ndarray, bottom: np.ndarray, flat: np.ndarray,
                       lengths: np.ndarray, reach: int) -> np.ndarray:
        """Per row (its glyphs `flat`, `lengths` a row), whether a glyph has an overprinted twin among the `reach` before it."""
        suspect = np.zeros(len(lengths), dtype=np.bool_)
        self.functions["overprint_rows_in_place"](c_ints(texts), c_floats(x0), c_floats(x1), c_floats(top), c_floats(bottom), c_ints(flat),
                                                  c_ints(lengths), len(lengths), int(reach), suspect)
        return suspect
