"""The compiled loops of `charloop` (imported only through `charloop.compiled_reader`, which guards the
import): numba, pdfium's functions registered by name for the compiled code, and the three loops.

Defined at module level so that numba's disk cache (`cache=True`) finds them again in a new process."""
from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
import numba
import pypdfium2.raw as pdfium_c
from numba import types


def _external(name: str, binding, *arguments):
    """pdfium's `name` for compiled code: its address registered with LLVM under its own name."""
    llvm.add_symbol(name, ctypes.cast(binding, ctypes.c_void_p).value)
    return types.ExternalFunction(name, types.int32(*arguments))


# Pointers as intp (`charloop` uses these only where a pointer is 64 bits, as intp is there).
_get_box = _external("FPDFText_GetLooseCharBox", pdfium_c.FPDFText_GetLooseCharBox, types.intp, types.int32, types.intp)
_get_weight = _external("FPDFText_GetFontWeight", pdfium_c.FPDFText_GetFontWeight, types.intp, types.int32)
_has_map_error = _external("FPDFText_HasUnicodeMapError", pdfium_c.FPDFText_HasUnicodeMapError, types.intp, types.int32)
RECT_BYTES = ctypes.sizeof(pdfium_c.FS_RECTF)


@numba.njit(cache=True, nogil=True)
def loose_boxes(textpage, indices, rects, found):  # pragma: no cover - compiled
    """FPDFText_GetLooseCharBox of each of `indices` into row k of `rects` (float32, (n, 4)); its result into found[k]."""
    address = rects.ctypes.data
    for k in range(indices.shape[0]):
        found[k] = _get_box(textpage, indices[k], address + RECT_BYTES * k)


@numba.njit(cache=True, nogil=True)
def font_weights(textpage, indices, weights):  # pragma: no cover - compiled
    """FPDFText_GetFontWeight of each of `indices` into weights[k]."""
    for k in range(indices.shape[0]):
        weights[k] = _get_weight(textpage, indices[k])


@numba.njit(cache=True, nogil=True)
def map_errors(textpage, count, flags):  # pragma: no cover - compiled
    """FPDFText_HasUnicodeMapError of characters 0..count-1 into flags."""
    for k in range(count):
        flags[k] = _has_map_error(textpage, k)
