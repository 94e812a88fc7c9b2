"""pdfium's three per-character calls in loops written as LLVM IR and compiled by llvmlite alone, without numba.

    loops = build()                      # CharLoops, or an exception where llvmlite cannot build them
    loops.map_errors(textpage, count, flags_address)                      # int32 flags (count,)
    loops.loose_boxes(textpage, indices_address, n, rects_address, found_address)  # int32 indices, float32 (n, 4), int32
    loops.font_weights(textpage, indices_address, n, weights_address)     # int32 weights (n,)
    loops.path_fills(page, open_forms, out, rows, status); loops.ink_objects(page, ...)   # the page walks (`walkir`)

The same C calls as `charloopjit`'s numba loops and `pagechars`' ctypes maps, with the same arguments in the
same order, so pdfium writes the same values (`tests/pipeline/extract/test_char_loop_ir.py`). What differs is
what loading them costs a process: numba's import, its typing and target tables (which import `scipy.linalg`
for its BLAS check) and its cached loops cost about 0.6-0.75 CPU s after a run's imports; these three loops,
parsed, compiled and linked by llvmlite's MCJIT, about 0.04 s (llvmlite's import 0.03 of it), and compiled once a
machine: their object code is kept on disk and loaded by later processes (`objectcache`). So a process
reads every page's characters through them from its first page, where the numba reader waited until it
had read (or was planned to read) enough characters to repay its load (`charloop.COMPILED_AFTER_CHARACTERS`).

Each loop is called through ctypes once a page and kind, with the arrays' addresses: pointers and `intp`
are 64 bits wide where `charloop` uses this (as for the numba loops).
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any


def _loop(name: str, parameters: str, body: str) -> str:
    """One function that runs `body` for each `%k` from 0 to `%count` - 1 (nothing where `%count` <= 0): the frame
    every loop here shares."""
    return f"""
define void @{name}(i8* %page, {parameters}) {{
entry:
  %none = icmp sle i32 %count, 0
  br i1 %none, label %done, label %loop
loop:
  %k = phi i32 [0, %entry], [%next, %loop]
{body}
  %next = add i32 %k, 1
  %more = icmp slt i32 %next, %count
  br i1 %more, label %loop, label %done
done:
  ret void
}}
"""


_INDEX = """  %index_at = getelementptr i32, i32* %indices, i32 %k
  %index = load i32, i32* %index_at"""
# The C signatures (pdfium's public headers): FPDF_TEXTPAGE is a pointer, a character index an int, a
# FPDF_BOOL an int; FS_RECTF is four floats (left, top, right, bottom).
_IR = """
declare i32 @FPDFText_HasUnicodeMapError(i8*, i32)
declare i32 @FPDFText_GetLooseCharBox(i8*, i32, float*)
declare i32 @FPDFText_GetFontWeight(i8*, i32)
""" + _loop("map_errors", "i32 %count, i32* %flags", """  %flag = call i32 @FPDFText_HasUnicodeMapError(i8* %page, i32 %k)
  %at = getelementptr i32, i32* %flags, i32 %k
  store i32 %flag, i32* %at""") + _loop("loose_boxes", "i32* %indices, i32 %count, float* %rects, i32* %found", _INDEX + """
  %row = mul i32 %k, 4
  %rect = getelementptr float, float* %rects, i32 %row
  %ok = call i32 @FPDFText_GetLooseCharBox(i8* %page, i32 %index, float* %rect)
  %at = getelementptr i32, i32* %found, i32 %k
  store i32 %ok, i32* %at""") + _loop("font_weights", "i32* %indices, i32 %count, i32* %weights", _INDEX + """
  %weight = call i32 @FPDFText_GetFontWeight(i8* %page, i32 %index)
  %at = getelementptr i32, i32* %weights, i32 %k
  store i32 %weight, i32* %at""")
_FUNCTIONS = ("FPDFText_HasUnicodeMapError", "FPDFText_GetLooseCharBox", "FPDFText_GetFontWeight")
_VOID_P, _INT = ctypes.c_void_p, ctypes.c_int32


@dataclass(frozen=True)
class CharLoops:
    """The compiled loops as ctypes functions (arguments: see the module's docstring); `engine` keeps their code alive."""

    map_errors: Any
    loose_boxes: Any
    font_weights: Any
    path_fills: Any  # the page's path objects and their fills (`walkir`, `pagechars.filled_paths`)
    ink_objects: Any  # the drawn-text check's walk (`walkir`, `inked._walk_objects`)
    engine: Any


def build() -> CharLoops:
    """Compile the three loops against the pdfium that pypdfium2 loaded (its functions' addresses registered
    under their own names); raises where llvmlite is missing or cannot compile for this machine."""
    import llvmlite.binding as llvm
    import numpy as np
    import pypdfium2.raw as pdfium_c

    from pipeline.extract import walkir
    from pipeline.extract.irwriter import DATA_WORD
    from pipeline.extract.objectcache import load_or_compile

    probe = np.zeros(1)
    if ctypes.c_void_p.from_address(id(probe) + DATA_WORD * ctypes.sizeof(ctypes.c_void_p)).value != probe.ctypes.data:
        raise RuntimeError("numpy's array object does not hold its data pointer where the walks read it")
    kinds = (pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM)
    if kinds != (walkir.TEXT, walkir.PATH, walkir.IMAGE, walkir.FORM):
        raise RuntimeError("pdfium's object types are not those the walks test")
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    for name in (*_FUNCTIONS, *walkir.FUNCTIONS):
        llvm.add_symbol(name, ctypes.cast(getattr(pdfium_c, name), ctypes.c_void_p).value)
    target = llvm.Target.from_default_triple()
    # Compiled once on a machine and kept (`objectcache`): the object code names pdfium's functions, which are found
    # by name (above) where each process loads it.
    engine = load_or_compile(llvm, _IR, target.create_target_machine(opt=2), build="codegen=2")
    # The walks apart, at code generation level 0: their time is pdfium's calls, and level 2 took 22 ms more to build.
    walk_engine = load_or_compile(llvm, str(walkir.module()), target.create_target_machine(opt=0), build="codegen=0")
    address, walk_address = engine.get_function_address, walk_engine.get_function_address
    return CharLoops(
        map_errors=ctypes.CFUNCTYPE(None, _VOID_P, _INT, _VOID_P)(address("map_errors")),
        loose_boxes=ctypes.CFUNCTYPE(None, _VOID_P, _VOID_P, _INT, _VOID_P, _VOID_P)(address("loose_boxes")),
        font_weights=ctypes.CFUNCTYPE(None, _VOID_P, _VOID_P, _INT, _VOID_P)(address("font_weights")),
        **{name: ctypes.CFUNCTYPE(result, *arguments)(walk_address(name)) for name, (result, arguments) in walkir.SIGNATURES.items()},
        engine=(engine, walk_engine),
    )
