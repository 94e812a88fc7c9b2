"""The two page walks of `charloopjit` (`path_fills`, `ink_objects`) written as LLVM IR for llvmlite alone, without numba;
compiled with the per-character loops (`charloopir.build`), so a process walks its pages' objects in compiled code
from its first page and never loads numba to do it.

    loops.path_fills(page, open_forms, out, rows, status) -> found       # out: int64 (rows, 7); status: int64 (1,)
    loops.ink_objects(page, form_levels, texts, texts_room, images, images_room, found, counts, rectangle, long) -> 1 | 0

The same pdfium calls on the same objects in the same order as the numba loops (and as `pagechars`' ctypes walks), with
the same arguments, so pdfium gives the same answers (`tests/pipeline/extract/test_walk_ir.py`); what differs is what
loading them costs: numba's import, tables and cached loops 0.7-1.0 CPU s a process, which a process paid once it had
read `charloop.COMPILED_AFTER_CHARACTERS` (inside a corpus run, in its drawn-text check), these a few thousandths of a
second with the character loops. The arrays are passed as the array objects (`irwriter.Array`); where the numba loop
returns (found, status), `path_fills` returns found and writes the status into status[0].
"""
from __future__ import annotations

import ctypes

from llvmlite import ir

from pipeline.extract.irwriter import I64, ONE, PI8, PI64, ZERO, Array, Code, const

I32 = ir.IntType(32)
ULONG = ir.IntType(8 * ctypes.sizeof(ctypes.c_ulong))  # FPDFFormObj_GetObject's index: an unsigned long
# pdfium's object types (fpdf_edit.h) and the walk's statuses (`charloop.WALK_STATUS`, checked where built).
TEXT, PATH, IMAGE, FORM = 1, 2, 3, 5
WALKED, COUNT_FAILED, NULL_OBJECT, FULL = 0, 1, 2, 3
# Each pdfium function the walks call: (result, parameters), as its C signature declares it.
FUNCTIONS = {
    "FPDFPage_CountObjects": (I32, (PI8,)),
    "FPDFPage_GetObject": (PI8, (PI8, I32)),
    "FPDFPageObj_GetType": (I32, (PI8,)),
    "FPDFFormObj_CountObjects": (I32, (PI8,)),
    "FPDFFormObj_GetObject": (PI8, (PI8, ULONG)),
    "FPDFPath_GetDrawMode": (I32, (PI8, I32.as_pointer(), I32.as_pointer())),
    "FPDFPageObj_GetFillColor": (I32, (PI8, *[I32.as_pointer()] * 4)),
    "FPDFPath_CountSegments": (I32, (PI8,)),
}
_O, _N, _P = ctypes.py_object, ctypes.c_int64, ctypes.c_void_p
SIGNATURES = {
    "path_fills": (_N, (_P, _N, _O, _N, _O)),
    "ink_objects": (_N, (_P, _N, _O, _N, _O, _N, _O, _O, _N, _N)),
}


class _Walk(Code):
    """A walk's function: pdfium's calls by name, ints widened as C widens them."""

    def __init__(self, module: ir.Module, name: str, parameters: list):
        super().__init__(module, name, I64, parameters)
        self.pdfium = {name: module.globals.get(name) or ir.Function(module, ir.FunctionType(result, list(arguments)), name)
                       for name, (result, arguments) in FUNCTIONS.items()}

    def call(self, name: str, *arguments):
        return self.b.call(self.pdfium[name], list(arguments))

    def int64(self, value):
        return self.b.sext(value, I64)

    def is_null(self, handle):
        return self.b.icmp_unsigned("==", self.b.ptrtoint(handle, I64), ZERO)

    def kind_is(self, kind, wanted: int):
        return self.i("==", kind, const(wanted, I32))

    def page_count(self):
        """`FPDFPage_CountObjects(page) if page != 0 else -1`, widened."""
        count = self.var(I64, const(-1, I64))
        with self.b.if_then(self.b.not_(self.is_null(self.a["page"]))):
            count.set(self.int64(self.call("FPDFPage_CountObjects", self.a["page"])))
        return count.get()

    def form_object(self, form, at):
        index = at if ULONG.width == 64 else self.b.trunc(at, ULONG)
        return self.call("FPDFFormObj_GetObject", form, index)

    def finish(self, value) -> None:
        self.b.ret(value)


def _path_fills(module: ir.Module) -> None:
    """`charloopjit.path_fills`: each path object (forms on the page opened one level where `open_forms`) as a row of
    `out`: handle, filled, FPDFPageObj_GetFillColor's result, r, g, b, a."""
    c = _Walk(module, "path_fills", [("page", PI8), ("open_forms", I64), ("out", Array(PI64)), ("rows", I64),
                                     ("status", Array(PI64))])
    b, a = c.b, c.a
    modes = c.slots.alloca(I32, size=const(2, I32))
    colors = c.slots.alloca(I32, size=const(4, I32))
    for at in range(2):
        b.store(const(0, I32), b.gep(modes, [const(at, I32)]))
    for at in range(4):
        b.store(const(0, I32), b.gep(colors, [const(at, I32)]))
    found = c.var(I64, ZERO)

    def stop(status: int, value) -> None:
        c.store(a["status"], ZERO, const(status, I64))
        c.finish(value)

    def path(handle) -> None:
        with b.if_then(c.i("==", found.get(), a["rows"])):
            stop(FULL, found.get())
        row = b.mul(found.get(), const(7, I64))
        drawn = c.call("FPDFPath_GetDrawMode", handle, modes, b.gep(modes, [const(1, I32)]))
        filled = b.and_(c.i("!=", drawn, const(0, I32)), c.i("!=", b.load(modes), const(0, I32)))
        c.store(a["out"], row, b.ptrtoint(handle, I64))
        c.store(a["out"], b.add(row, ONE), b.zext(filled, I64))
        c.store(a["out"], b.add(row, const(2, I64)), ZERO)
        with b.if_then(filled):
            channel = [b.gep(colors, [const(at, I32)]) for at in range(4)]
            c.store(a["out"], b.add(row, const(2, I64)), c.int64(c.call("FPDFPageObj_GetFillColor", handle, *channel)))
            for at in range(4):
                c.store(a["out"], b.add(row, const(3 + at, I64)), b.zext(b.load(channel[at]), I64))  # an unsigned int
        found.set(b.add(found.get(), ONE))

    count = c.page_count()
    with b.if_then(c.i("<", count, ZERO)):
        stop(COUNT_FAILED, ZERO)
    with c.loop(ZERO, count) as turn:
        handle = c.call("FPDFPage_GetObject", a["page"], b.trunc(turn.k, I32))
        with b.if_then(c.is_null(handle)):
            stop(NULL_OBJECT, found.get())
        kind = c.call("FPDFPageObj_GetType", handle)
        with b.if_then(c.kind_is(kind, PATH)):
            path(handle)
        with b.if_then(c.all(lambda: c.kind_is(kind, FORM), lambda: c.i("!=", a["open_forms"], ZERO))):
            inner = c.int64(c.call("FPDFFormObj_CountObjects", handle))
            with b.if_then(c.i("<", inner, ZERO)):
                stop(COUNT_FAILED, found.get())
            with c.loop(ZERO, inner) as inside:
                child = c.form_object(handle, inside.k)
                with b.if_then(c.is_null(child)):
                    stop(NULL_OBJECT, found.get())
                with b.if_then(c.kind_is(c.call("FPDFPageObj_GetType", child), PATH)):
                    path(child)
    stop(WALKED, found.get())
    c.done()


def _ink_objects(module: ir.Module) -> None:
    """`charloopjit.ink_objects`: the text and image objects' handles, and the paths' segment counts told, forms opened
    `form_levels` (at most 2) levels down; 0 where `texts` or `images` filled up, else 1."""
    c = _Walk(module, "ink_objects", [("page", PI8), ("levels", I64), ("texts", Array(PI64)), ("texts_room", I64),
                                      ("images", Array(PI64)), ("images_room", I64), ("found", Array(PI64)),
                                      ("counts", Array(PI64)), ("rectangle", I64), ("long", I64)])
    b, a = c.b, c.a

    def keep(slot: int, into: str, room: str, handle) -> None:
        held = c.load(a["found"], const(slot, I64))
        with b.if_then(c.i("==", held, a[room])):
            c.finish(ZERO)
        c.store(a[into], held, b.ptrtoint(handle, I64))
        c.store(a["found"], const(slot, I64), b.add(held, ONE))

    def one(handle, kind) -> None:
        with b.if_then(c.kind_is(kind, TEXT)):
            keep(0, "texts", "texts_room", handle)
        with b.if_then(c.kind_is(kind, IMAGE)):
            keep(1, "images", "images_room", handle)
        with b.if_then(c.kind_is(kind, PATH)):
            segments = c.int64(c.call("FPDFPath_CountSegments", handle))
            with b.if_then(c.i(">", segments, a["rectangle"])):
                c.store(a["counts"], ZERO, b.add(c.load(a["counts"], ZERO), ONE))
            with b.if_then(c.i(">=", segments, a["long"])):
                c.store(a["counts"], ONE, ONE)

    with c.loop(ZERO, c.page_count()) as turn:
        handle = c.call("FPDFPage_GetObject", a["page"], b.trunc(turn.k, I32))
        with b.if_then(c.is_null(handle)):
            turn.next()
        kind = c.call("FPDFPageObj_GetType", handle)
        one(handle, kind)
        with b.if_then(c.all(lambda: c.kind_is(kind, FORM), lambda: c.i(">=", a["levels"], ONE))):
            with c.loop(ZERO, c.int64(c.call("FPDFFormObj_CountObjects", handle))) as at:
                child = c.form_object(handle, at.k)
                with b.if_then(c.is_null(child)):
                    at.next()
                inner = c.call("FPDFPageObj_GetType", child)
                one(child, inner)
                with b.if_then(c.all(lambda: c.kind_is(inner, FORM), lambda: c.i(">=", a["levels"], const(2, I64)))):
                    with c.loop(ZERO, c.int64(c.call("FPDFFormObj_CountObjects", child))) as deeper:
                        leaf = c.form_object(child, deeper.k)
                        with b.if_then(b.not_(c.is_null(leaf))):
                            one(leaf, c.call("FPDFPageObj_GetType", leaf))
    c.finish(ONE)
    c.done()


def module() -> ir.Module:
    """Both walks in one module, pdfium's functions declared (their addresses registered by the caller)."""
    walks = ir.Module("walks")
    _path_fills(walks)
    _ink_objects(walks)
    return walks

