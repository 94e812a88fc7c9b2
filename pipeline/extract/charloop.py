"""pdfium's per-character calls in one compiled loop, where numba is installed.

    reader = compiled_reader()        # None: numba is missing or failed; the ctypes maps of `pagechars` serve
    reader.loose_boxes(handle, indices, rects, found)   # indices: int32 array; rects: float32 (n, 4); found: int32
    reader.font_weights(handle, indices, weights)       # weights: int32 (n,)
    reader.map_errors(handle, count, flags)             # flags: int32 (count,)
    reader.path_fills(page, open_forms, rows)          # the page's path objects and their fills (`pagechars.filled_paths`)
    reader.ink_objects(page, form_levels, texts, images, found, counts, rectangle, long)  # `inked._walk_objects`' walk
    loops = char_loops()              # the three per-character loops compiled by llvmlite alone (`charloopir`); None: ctypes

`pagechars` reads a page's characters through `char_loops()` from a process's first page (they cost about
0.04 CPU s to build, no numba), walks its objects through the two page walks built with them (`walkir`:
the marker search's path walk, the drawn-text check's object walk), and lays every page out through layout's
loops compiled by llvmlite too (`compiled_layout`, `layoutir`). So where llvmlite's loops build, numba is never
loaded; numba's reader (below) reads the characters and walks the pages, and numba's `layoutjit` lays pages
out, only where they could not be built.

pdfium has no call that returns a page's character boxes, weights or Unicode-map flags together: each
is one C call a character, three for a page of 1,000-5,000 characters. Made from Python (`pagechars`'
`map` over bare ctypes prototypes) each call costs about 0.3 µs of ctypes around a call that itself
costs a few nanoseconds; here numba compiles the loop over the characters, calling the same C functions
(found by name in the pypdfium2 library already loaded: `llvmlite.binding.add_symbol`, so the compiled
code is cached on disk, `cache=True`, and not compiled again in each process).

The calls are the ones `pagechars` makes, in the same order, with the same arguments; pdfium writes the
same values, so what a page reads is the same either way (`tests/pipeline/extract/test_char_loop.py`).
Pointers go to the C functions as 64-bit integers (an x86-64 or AArch64 ABI passes a pointer and an
`intp` alike); where `intp` is narrower than a pointer the compiled reader is not used.

Importing numba and loading the cached loops costs a process 0.7-0.9 CPU s, which its loops (where llvmlite's
could not be built) repay only after most of a million characters; so `pagechars` asks for the reader only
once a process has read `COMPILED_AFTER_CHARACTERS` (a short run, a 60-sheet archive, never pays for
it; a national archive's worker or a long corpus run does once), or sooner where its caller said how many files
it is about to read (`pagechars.plan_files`: a season run's pending extractions) and the files read so far, a
file, promise that many characters in the files left: such a process then loads it after its first file.
"""
from __future__ import annotations

import ctypes
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import numpy as np

from pipeline.infra import settle

# Characters a process reads before numba's loops are loaded, where loading them has paid for itself. Since a
# page's characters are read through llvmlite's loops from the first page (`char_loops`), numba's loops repaid
# only what layout's loops (`compiled_layout`) and the page walks save (measured when layout's were numba's;
# they are llvmlite's now, `layoutir`, so numba repays the page walks alone, and a higher threshold may serve): 0.5-1.3 µs a character (a generated
# archive's `sample_pl`, 954 pages, 461,000 characters, six runs each on a loaded machine: 3.47-4.56 CPU s,
# median 3.79, with them loaded beforehand, against 3.71-4.58, median 4.40, without), while loading them costs
# 0.7-1.0 CPU s (numba's import, its tables and `scipy.linalg`, the cached loops): they break even between
# 0.6 and 1.5 million characters. Loaded after the first file there (as at 250,000), that run took 4.06-5.61
# CPU s, median 4.54: more than without them. (It was 250,000 while they read the characters too, 2.0 µs a
# character saved in all.) A run that stops just past it pays at most the load twice.
COMPILED_AFTER_CHARACTERS = 800_000
# Set to "0" to keep the ctypes path (a comparison, a machine where numba misbehaves); "1" to load the
# compiled reader at once, whatever the count.
ENV_SWITCH = "EXAMCORPUS_COMPILED_CHARS"
# What `CompiledReader.path_fills` reports besides its rows: walked, a count failed, a null object, out full.
WALK_STATUS = (0, 1, 2, 3)


@dataclass(frozen=True)
class CompiledReader:
    """The compiled loops (numba dispatchers); see the module's docstring for their arguments."""

    loose_boxes: Any
    font_weights: Any
    map_errors: Any
    path_fills: Any  # the page's path objects with their fill (`pagechars.filled_paths`)
    ink_objects: Any  # the page's text and image objects and its paths' segment counts (`inked._walk_objects`)


T = TypeVar("T")


@dataclass
class _Once(Generic[T]):
    """An optional accelerator built on its first use, once a process: `build` returns it, or None where it does not
    apply; a build that fails leaves None too (the plain path serves)."""

    build: Callable[[], T | None]
    tried: bool = False
    built: T | None = None

    def get(self) -> T | None:
        if not self.tried:
            self.tried = True
            try:
                self.built = self.build()
            except Exception:  # noqa: BLE001 - any failure of an optional accelerator leaves the plain path
                self.built = None
            settle()  # numba's typing tables and the loops live until the process ends (`infra.heap`)
        return self.built


def switch() -> str:
    """The environment's choice: "0" (never), "1" (at once) or "" (after `COMPILED_AFTER_CHARACTERS`)."""
    value = os.environ.get(ENV_SWITCH, "").strip()
    return value if value in ("0", "1") else ""


def in_use() -> bool:
    """Whether this process has loaded the compiled reader (what the benchmarks report beside their figures)."""
    return _READER.built is not None


def compiled_reader() -> CompiledReader | None:
    """The compiled reader, built (or loaded from numba's cache) on the first call; None where numba is not
    installed, pointers are wider than numba's `intp`, or building it failed (each tried once a process)."""
    return _READER.get()


def _build() -> CompiledReader | None:
    """Import the loops and call each once on no characters, with the argument types `pagechars` passes:
    compiling or loading them from the cache happens here, where a failure leaves the ctypes path."""
    if switch() == "0" or ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    from pipeline.extract import charloopjit

    if charloopjit.WALK_STATUS != WALK_STATUS:
        raise RuntimeError("charloopjit.path_fills reports other statuses than pagechars reads")
    none = np.zeros(0, dtype=np.int32)
    charloopjit.loose_boxes(0, none, np.zeros((0, 4), dtype=np.float32), none.copy())
    charloopjit.font_weights(0, none, none.copy())
    charloopjit.map_errors(0, 0, none.copy())
    charloopjit.path_fills(0, True, np.zeros((0, 7), dtype=np.int64))
    handles, two = np.zeros(0, dtype=np.int64), np.zeros(2, dtype=np.int64)
    charloopjit.ink_objects(0, 2, handles, handles.copy(), two, two.copy(), 5, 200)
    return CompiledReader(charloopjit.loose_boxes, charloopjit.font_weights, charloopjit.map_errors, charloopjit.path_fills,
                          charloopjit.ink_objects)


def char_loops() -> Any:
    """The per-character loops compiled by llvmlite alone (`charloopir.CharLoops`), built on the first call
    (about 0.04 CPU s, no numba): a process reads its characters through them from its first page. None where
    the switch is "0", pointers are not 64 bits, or llvmlite is missing or failed (tried once a process)."""
    return None if switch() == "0" else _CHAR_LOOPS.get()


def _build_char_loops() -> Any:
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    from pipeline.extract import charloopir, walkir

    if (walkir.WALKED, walkir.COUNT_FAILED, walkir.NULL_OBJECT, walkir.FULL) != WALK_STATUS:
        raise RuntimeError("walkir.path_fills reports other statuses than pagechars reads")
    return charloopir.build()


def compiled_layout() -> Any:
    """Layout's compiled loops: llvmlite's (`layoutir.LayoutLoops`, built on the first call, a few hundredths of a CPU
    second, no numba), so a process lays its pages out compiled from its first page; where those cannot be built,
    numba's (the module `layoutjit`) once this process reads characters through the compiled reader (the switch:
    "1" at once, "" once `compiled_reader` has been loaded). None where the switch is "0", or where neither could be
    built (each tried once a process)."""
    choice = switch()
    if choice == "0":
        return None
    loops = _LAYOUT_IR.get()
    if loops is not None:
        return loops
    if choice == "" and _READER.built is None:
        return None
    return _LAYOUT.get()


def _build_layout_ir() -> Any:
    if ctypes.sizeof(ctypes.c_void_p) != 8:
        return None
    from pipeline.extract import layoutir

    return layoutir.build()


def _build_layout() -> Any:
    """Import the layout loops and call each once on no rows, with the argument types layout passes."""
    from pipeline.extract import layoutjit

    floats, first = np.zeros(0), np.zeros(1, dtype=np.int64)
    layoutjit.anchor_rows(floats, floats, floats)
    layoutjit.lex_order(floats, floats)
    ints = np.zeros(0, dtype=np.int64)
    layoutjit.overprint_rows(ints, ints, floats, floats, floats, floats, 4, 0)
    layoutjit.row_spans(floats, floats, ints, 9.0)
    layoutjit.column_candidates(first, floats, floats, floats, floats, floats, floats, np.zeros(6))
    return layoutjit


_READER: _Once[CompiledReader] = _Once(_build)
_LAYOUT: _Once[Any] = _Once(_build_layout)
_LAYOUT_IR: _Once[Any] = _Once(_build_layout_ir)
_CHAR_LOOPS: _Once[Any] = _Once(_build_char_loops)
