"""The compiled loops of `charloop` (imported only through `charloop.compiled_reader`, which guards the
import): numba, pdfium's functions registered by name for the compiled code, the three per-character
loops and the walk over a page's path objects (`path_fills`).

Defined at module level so that numba's disk cache (`cache=True`) finds them again in a new process."""
from __future__ import annotations

import ctypes

import llvmlite.binding as llvm
import numba
import numpy as np
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


def _external_to(name: str, binding, result, *arguments):
    """As `_external`, with the result type given (a pointer returned as intp)."""
    llvm.add_symbol(name, ctypes.cast(binding, ctypes.c_void_p).value)
    return types.ExternalFunction(name, result(*arguments))


_count_objects = _external("FPDFPage_CountObjects", pdfium_c.FPDFPage_CountObjects, types.intp)
_get_object = _external_to("FPDFPage_GetObject", pdfium_c.FPDFPage_GetObject, types.intp, types.intp, types.int32)
_object_type = _external("FPDFPageObj_GetType", pdfium_c.FPDFPageObj_GetType, types.intp)
_count_form_objects = _external("FPDFFormObj_CountObjects", pdfium_c.FPDFFormObj_CountObjects, types.intp)
_get_form_object = _external_to("FPDFFormObj_GetObject", pdfium_c.FPDFFormObj_GetObject, types.intp, types.intp, types.uint64)
_draw_mode = _external("FPDFPath_GetDrawMode", pdfium_c.FPDFPath_GetDrawMode, types.intp, types.intp, types.intp)
_fill_color = _external("FPDFPageObj_GetFillColor", pdfium_c.FPDFPageObj_GetFillColor, *[types.intp] * 5)
PATH, FORM = pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_FORM
# What `path_fills` reports besides its rows (`charloop.WALK_STATUS`, which `charloop` checks on loading).
WALK_STATUS = WALKED, COUNT_FAILED, NULL_OBJECT, FULL = 0, 1, 2, 3


@numba.njit(cache=True, nogil=True)
def _path_fill(handle, modes, colors, out, found):  # pragma: no cover - compiled
    """One path object's row of `path_fills`."""
    drawn = _draw_mode(handle, modes.ctypes.data, modes.ctypes.data + 4)
    out[found, 0], out[found, 1], out[found, 2] = handle, drawn != 0 and modes[0] != 0, 0
    if out[found, 1]:
        address = colors.ctypes.data
        out[found, 2] = _fill_color(handle, address, address + 4, address + 8, address + 12)
        for channel in range(4):
            out[found, 3 + channel] = colors[channel]


@numba.njit(cache=True, nogil=True)
def path_fills(page, open_forms, out):  # pragma: no cover - compiled
    """The page's path objects in `pagechars.page_objects` order (Form XObjects on the page opened where
    `open_forms`, one level, as `max_depth` 2 opens them), each as a row of `out` (int64, (n, 7)):
    handle, filled (FPDFPath_GetDrawMode succeeded with a fill mode), FPDFPageObj_GetFillColor's result
    (0 where not asked) and the colour (r, g, b, a). Returns (rows, status): `WALKED`, or the failure
    that stopped the walk (`FULL`: more paths than `out` holds)."""
    modes = np.zeros(2, dtype=np.int32)
    colors = np.zeros(4, dtype=np.uint32)
    count = _count_objects(page) if page != 0 else -1
    if count < 0:
        return 0, COUNT_FAILED
    found = 0
    for index in range(count):
        handle = _get_object(page, index)
        if handle == 0:
            return found, NULL_OBJECT
        kind = _object_type(handle)
        if kind == PATH:
            if found == out.shape[0]:
                return found, FULL
            _path_fill(handle, modes, colors, out, found)
            found += 1
        if kind == FORM and open_forms:
            inner = _count_form_objects(handle)
            if inner < 0:
                return found, COUNT_FAILED
            for at in range(inner):
                child = _get_form_object(handle, at)
                if child == 0:
                    return found, NULL_OBJECT
                if _object_type(child) == PATH:
                    if found == out.shape[0]:
                        return found, FULL
                    _path_fill(child, modes, colors, out, found)
                    found += 1
    return found, WALKED


_count_segments = _external("FPDFPath_CountSegments", pdfium_c.FPDFPath_CountSegments, types.intp)
TEXT, IMAGE = pdfium_c.FPDF_PAGEOBJ_TEXT, pdfium_c.FPDF_PAGEOBJ_IMAGE


@numba.njit(cache=True, nogil=True)
def _ink_object(handle, kind, texts, images, found, counts, rectangle_segments, long_segments):  # pragma: no cover - compiled
    """One object of `ink_objects`' walk; False where an output array is full."""
    if kind == TEXT:
        if found[0] == texts.shape[0]:
            return False
        texts[found[0]] = handle
        found[0] += 1
    elif kind == IMAGE:
        if found[1] == images.shape[0]:
            return False
        images[found[1]] = handle
        found[1] += 1
    elif kind == PATH:
        segments = _count_segments(handle)
        if segments > rectangle_segments:
            counts[0] += 1
        if segments >= long_segments:
            counts[1] = 1
    return True


@numba.njit(cache=True, nogil=True)
def ink_objects(page, form_levels, texts, images, found, counts, rectangle_segments, long_segments):  # pragma: no cover - compiled
    """The walk of `inked._walk_objects` (`pagechars.object_tree`'s objects: a count that fails reads as
    no objects, a null handle as an object of no kind; form XObjects opened `form_levels` levels down,
    at most 2): the text objects' handles into `texts`, the images' into `images` (how many of each into
    found[0], found[1]), and of the paths, counts[0] those of more than `rectangle_segments` segments and
    counts[1] 1 if one has `long_segments` or more. Returns False where `texts` or `images` filled up."""
    count = _count_objects(page) if page != 0 else -1
    for index in range(count):
        handle = _get_object(page, index)
        if handle == 0:
            continue
        kind = _object_type(handle)
        if not _ink_object(handle, kind, texts, images, found, counts, rectangle_segments, long_segments):
            return False
        if kind != FORM or form_levels < 1:
            continue
        for at in range(_count_form_objects(handle)):
            child = _get_form_object(handle, at)
            if child == 0:
                continue
            inner = _object_type(child)
            if not _ink_object(child, inner, texts, images, found, counts, rectangle_segments, long_segments):
                return False
            if inner != FORM or form_levels < 2:
                continue
            for deeper in range(_count_form_objects(child)):
                leaf = _get_form_object(child, deeper)
                if leaf != 0 and not _ink_object(leaf, _object_type(leaf), texts, images, found, counts,
                                                 rectangle_segments, long_segments):
                    return False
    return True
