"""A text page's characters as arrays, read from pdfium in as few Python-level steps as it allows.

    textpage = pdfiumtext.handle(raw_textpage)
    found, boxes = loose_boxes(textpage, indices)    # boxes: (left, top, right, bottom), PDF space, float64
    font_weights(textpage, indices); map_errors(textpage, count)
    filled_paths(raw_page, max_depth, keep_colors)   # filled path objects, as PdfPage.get_objects walks them
    object_tree(raw_page, max_depth)                 # every object's handle and type, in that order

pdfium has no call that returns a page's character boxes together: each character's loose box, font
weight and Unicode-map flag is one C call. What costs is Python around those calls, not the calls
(measured on corpus pages: a bare ctypes call 0.3-0.4 µs, the per-character loop that made a Glyph
object about 3 µs a character). So each kind of call runs as one `map` over the page's indices with no
Python frame per character: the boxes written straight into one `FS_RECTF` array (read as numpy),
weights and flags into lists. The codes come in one `FPDFText_GetText` call (`pdfiumtext.char_codes`).

Which characters need which call is decided from the codes first: every character needs its map flag
(an unmapped character may carry any code, a space's too), only characters that are not spaces need a
box and a weight.

Where llvmlite is installed, the same calls run in one compiled loop a kind from the first page
(`charloop.char_loops`, built from LLVM IR in hundredths of a second; the path walk of `filled_paths` too,
`walkir`), and numba is never loaded; else numba's loops (`charloop`), once a process has read enough
characters to repay loading them; the values are the same either way.
"""
from __future__ import annotations

import ctypes
from collections.abc import Callable
from dataclasses import dataclass
from itertools import repeat

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from pipeline.extract import charloop, pdfiumtext



def typed_call(function, restype, *argtypes):
    """`function` (a pypdfium2 binding) with plain C argument types: a handle as `c_void_p` takes a
    Python int, which a `map` can hand it without a Python frame per call."""
    return ctypes.CFUNCTYPE(restype, *argtypes)(ctypes.cast(function, ctypes.c_void_p).value)


# The per-character calls go bare (no declared arguments, no conversion: about a third cheaper than
# typed ones): the text page as a `c_void_p`, the index as a C int, the box as a `byref` into an array.
_BOX = pdfiumtext.LOOSE_CHAR_BOX
_WEIGHT = pdfiumtext.FONT_WEIGHT
_MAP_ERROR = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.cast(pdfium_c.FPDFText_HasUnicodeMapError, ctypes.c_void_p).value)
_RECT_SIZE = ctypes.sizeof(pdfium_c.FS_RECTF)


def handle_of(raw) -> int:
    """A pdfium handle (a pypdfium2 raw pointer) as the int the typed calls here take."""
    return ctypes.cast(raw, ctypes.c_void_p).value or 0


class _Characters:
    """How many characters this process has read through ctypes, and the files its caller said it is about to
    read (`plan_files`): how many of them are left, how many are read, and `read` when they were planned."""

    read = 0
    files_left = 0
    files_read = 0
    read_at_plan = 0
    read_in_files = 0  # characters of the plan's files read (`read` less `read_at_plan` as the last one closed)
    repaid = False  # a plan's forecast has repaid the reader: it is kept for the rest of the process


def plan_files(files: int) -> None:
    """The caller's plan: this process is about to read `files` files (a season run's pending extractions, a
    pool worker's share of them). Once one of them is read, the characters a file it read so far times the
    files left forecast what is still to come; where that alone reaches `charloop.COMPILED_AFTER_CHARACTERS`
    (loading the compiled reader repays itself on those), the reader is loaded at the next page rather than
    after that many characters more through ctypes: an archive of 100 booklets loads it after its first, and
    a run of a few sheets still never does. A plan made while another is under way (files left) is ignored."""
    if files > 0 and _Characters.files_left <= 0:
        _Characters.files_left, _Characters.files_read, _Characters.read_at_plan = files, 0, _Characters.read
        _Characters.read_in_files = 0


def file_read() -> None:
    """One file of the plan read (`extract_document` says so as it closes a file; no plan, nothing)."""
    if _Characters.files_left > 0:
        _Characters.files_left -= 1
        _Characters.files_read += 1
        _Characters.read_in_files = _Characters.read - _Characters.read_at_plan


def _plan_repays() -> bool:
    """Whether the plan's files left, at the characters a file of those read (whole) so far, repay loading the
    reader; once they do, the process keeps it (the characters read after are no longer counted, as past
    `charloop.COMPILED_AFTER_CHARACTERS`)."""
    if not _Characters.repaid:
        done, left = _Characters.files_read, _Characters.files_left
        _Characters.repaid = done > 0 and left > 0 and _Characters.read_in_files * left >= charloop.COMPILED_AFTER_CHARACTERS * done
    return _Characters.repaid


def compiled_reader_now() -> charloop.CompiledReader | None:
    """The compiled reader where this process reads characters through it already (`_compiled`), else
    None: the page walks of other modules follow the characters' choice."""
    return _compiled(0)


def _compiled(count: int) -> charloop.CompiledReader | None:
    """The compiled reader for a page of `count` characters: once the process has read
    `charloop.COMPILED_AFTER_CHARACTERS`, or where its plan forecasts that many still to come (`plan_files`;
    at once where the environment asks for it, never where it forbids it), else None."""
    switch = charloop.switch()
    if switch == "0":
        return None
    if switch == "" and _Characters.read < charloop.COMPILED_AFTER_CHARACTERS and not _plan_repays():
        _Characters.read += count
        return None
    return charloop.compiled_reader()


def _int32s(indices) -> np.ndarray:
    return np.asarray(indices, dtype=np.int32)


def _ints(indices: list[int] | np.ndarray) -> list[int]:
    """Python ints, which the bare ctypes calls take (a numpy integer they do not)."""
    return indices.tolist() if isinstance(indices, np.ndarray) else indices


def loose_boxes(textpage: ctypes.c_void_p, indices: list[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(found, boxes) of the characters `indices` (a list or an integer array) of `textpage`
    (`pdfiumtext.handle`): whether pdfium gave each a loose box, and the box (left, top, right, bottom;
    PDF space) widened exactly from pdfium's floats to float64, so every sum over it is the one Python's
    floats would give."""
    count = len(indices)
    if not count:
        return np.zeros(0, dtype=bool), np.zeros((0, 4), dtype=np.float64)
    loops = charloop.char_loops()
    compiled = _compiled(0) if loops is None else None
    if loops is not None or compiled is not None:
        boxes32 = np.zeros((count, 4), dtype=np.float32)
        found32 = np.zeros(count, dtype=np.int32)
        wanted = _int32s(indices)
        if loops is not None:
            loops.loose_boxes(textpage.value or 0, wanted.ctypes.data, count, boxes32.ctypes.data, found32.ctypes.data)
        elif compiled is not None:
            compiled.loose_boxes(textpage.value or 0, wanted, boxes32, found32)
        return found32 != 0, boxes32.astype(np.float64)
    rects = (pdfium_c.FS_RECTF * count)()
    into = map(ctypes.byref, repeat(rects, count), range(0, _RECT_SIZE * count, _RECT_SIZE))
    found = list(map(_BOX, repeat(textpage, count), _ints(indices), into))
    boxes = np.frombuffer(rects, dtype=np.float32).reshape(-1, 4).astype(np.float64)
    return np.array(found, dtype=np.int64) != 0, boxes


def font_weights(textpage: ctypes.c_void_p, indices: list[int] | np.ndarray) -> np.ndarray:
    """The font weight of each of the characters `indices` (a list or an integer array; -1 where pdfium has none)."""
    loops = charloop.char_loops() if len(indices) else None
    compiled = _compiled(0) if len(indices) and loops is None else None
    if loops is not None or compiled is not None:
        weights = np.zeros(len(indices), dtype=np.int32)
        wanted = _int32s(indices)
        if loops is not None:
            loops.font_weights(textpage.value or 0, wanted.ctypes.data, len(wanted), weights.ctypes.data)
        elif compiled is not None:
            compiled.font_weights(textpage.value or 0, wanted, weights)
        return weights.astype(np.int64)
    return np.array(list(map(_WEIGHT, repeat(textpage, len(indices)), _ints(indices))), dtype=np.int64)


def map_errors(textpage: ctypes.c_void_p, count: int) -> np.ndarray:
    """Per character index, whether pdfium reports a Unicode-map error (the font gives no Unicode).
    Asked first of a page's calls, so it counts the page's characters towards the compiled reader."""
    loops = charloop.char_loops() if count > 0 else None
    compiled = _compiled(count) if count > 0 and loops is None else None  # counted only where numba's may serve
    if loops is not None or compiled is not None:
        flags = np.zeros(count, dtype=np.int32)
        if loops is not None:
            loops.map_errors(textpage.value or 0, count, flags.ctypes.data)
        elif compiled is not None:
            compiled.map_errors(textpage.value or 0, count, flags)
        return flags == 1
    return np.array(list(map(_MAP_ERROR, repeat(textpage, count), range(count))), dtype=np.int64) == 1


_COUNT_OBJECTS = typed_call(pdfium_c.FPDFPage_CountObjects, ctypes.c_int, ctypes.c_void_p)
_GET_OBJECT = typed_call(pdfium_c.FPDFPage_GetObject, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
_COUNT_FORM_OBJECTS = typed_call(pdfium_c.FPDFFormObj_CountObjects, ctypes.c_int, ctypes.c_void_p)
_GET_FORM_OBJECT = typed_call(pdfium_c.FPDFFormObj_GetObject, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_ulong)
_OBJECT_TYPE = typed_call(pdfium_c.FPDFPageObj_GetType, ctypes.c_int, ctypes.c_void_p)


def page_objects(raw_page, wanted_type: int, max_depth: int) -> list[int]:
    """Handles (ints) of the page's objects of `wanted_type`, in the order and to the depth (Form XObjects
    opened up to `max_depth` levels) of `PdfPage.get_objects`, without a helper object per page object."""
    found: list[int] = []
    _collect(handle_of(raw_page), None, 0, wanted_type, max_depth, found)
    return found


def _collect(page: int, form: int | None, level: int, wanted_type: int, max_depth: int, found: list[int]) -> None:
    count = _COUNT_OBJECTS(page) if form is None else _COUNT_FORM_OBJECTS(form)
    if count < 0:
        raise pdfium.PdfiumError("Failed to get number of pageobjects.")
    handles = list(map(_GET_OBJECT, repeat(page, count), range(count))) if form is None else \
        list(map(_GET_FORM_OBJECT, repeat(form, count), range(count)))
    if all(handles):  # the types asked in one `map`; a level without forms to open is taken at once
        kinds = list(map(_OBJECT_TYPE, handles))
        if pdfium_c.FPDF_PAGEOBJ_FORM not in kinds or level >= max_depth - 1:
            found.extend(handle for handle, kind in zip(handles, kinds) if kind == wanted_type)
            return
    for handle in handles:
        if not handle:
            raise pdfium.PdfiumError("Failed to get pageobject.")
        kind = _OBJECT_TYPE(handle)
        if kind == wanted_type:
            found.append(handle)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM and level < max_depth - 1:
            _collect(page, handle, level + 1, wanted_type, max_depth, found)


def object_tree(raw_page, max_depth: int) -> tuple[list[int], list[int]]:
    """(handles, types) of every object of the page, in the order and to the depth of `page_objects`,
    as pdfium's own calls walk them: a null handle stays in the list (its type `FPDF_PAGEOBJ_UNKNOWN`),
    and a form whose count fails reads as empty, where `page_objects` raises."""
    handles: list[int] = []
    kinds: list[int] = []
    _walk(handle_of(raw_page), None, 0, max_depth, handles, kinds)
    return handles, kinds


def _walk(page: int, form: int | None, level: int, max_depth: int, handles: list[int], kinds: list[int]) -> None:
    count = _COUNT_OBJECTS(page) if form is None else _COUNT_FORM_OBJECTS(form)
    found = list(map(_GET_OBJECT, repeat(page, count), range(count))) if form is None else \
        list(map(_GET_FORM_OBJECT, repeat(form, count), range(count)))
    types = [_OBJECT_TYPE(h) if h else pdfium_c.FPDF_PAGEOBJ_UNKNOWN for h in found]
    for handle, kind in zip(found, types):
        handles.append(handle or 0)
        kinds.append(kind)
        if kind == pdfium_c.FPDF_PAGEOBJ_FORM and level < max_depth - 1:
            _walk(page, handle, level + 1, max_depth, handles, kinds)


# Out-parameters as addresses (ints), for `filled_paths`' maps.
_DRAW_MODE_AT = typed_call(pdfium_c.FPDFPath_GetDrawMode, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
_FILL_COLOR_AT = typed_call(pdfium_c.FPDFPageObj_GetFillColor, ctypes.c_int, *[ctypes.c_void_p] * 5)
_BOUNDS = typed_call(pdfium_c.FPDFPageObj_GetBounds, ctypes.c_int, ctypes.c_void_p, *[ctypes.POINTER(ctypes.c_float)] * 4)


@dataclass(frozen=True)
class FilledPath:
    """A filled path object: its fill colour (r, g, b, a; 0-255) and bounds (left, bottom, right, top)."""

    color: tuple[int, int, int, int]
    bounds: tuple[float, float, float, float]


def filled_paths(raw_page, max_depth: int, keep_colors: Callable[[np.ndarray], np.ndarray]) -> list[FilledPath]:
    """The page's filled path objects whose fill colour `keep_colors` keeps, in `page_objects` order (the
    bounds are asked only of those). `keep_colors` answers for all of a page's colours at once: an (n, 4)
    integer array of (r, g, b, a) rows in, n booleans out (a page holds a few hundred filled paths; one
    Python call a colour cost more than the walk)."""
    loops = charloop.char_loops() if max_depth <= 2 else None
    compiled = _compiled(0) if max_depth <= 2 and loops is None else None
    if loops is not None or compiled is not None:
        return _filled_paths_compiled(loops, compiled, raw_page, max_depth, keep_colors)
    paths = page_objects(raw_page, pdfium_c.FPDF_PAGEOBJ_PATH, max_depth)
    # Each kind of call in one `map` over the paths, writing into arrays by address (the calls only read
    # the objects, so asking all draw modes before any colour gives each the same values).
    (modes, mode_at), (_, stroke_at) = _outputs(ctypes.c_int, len(paths)), _outputs(ctypes.c_int, len(paths))
    drawn = list(map(_DRAW_MODE_AT, paths, mode_at, stroke_at))
    filled = [handle for handle, ok, mode in zip(paths, drawn, modes) if ok and mode != 0]
    channels = [_outputs(ctypes.c_uint, len(filled)) for _ in range(4)]
    coloured = list(map(_FILL_COLOR_AT, filled, *(at for _, at in channels)))
    colors = np.array([values[:] for values, _ in channels], dtype=np.int64).reshape(4, len(filled)).T
    kept = np.asarray(coloured, dtype=bool) & np.asarray(keep_colors(colors), dtype=bool) if filled else np.zeros(0, dtype=bool)
    return _bounded([filled[at] for at in np.flatnonzero(kept).tolist()], colors[kept].tolist())


def _bounded(handles: list[int], colors: list[list[int]]) -> list[FilledPath]:
    """A FilledPath of each kept path: its colour and the bounds pdfium gives it (asked in the paths' order)."""
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    bounds = [ctypes.byref(v) for v in (left, bottom, right, top)]
    found = []
    for handle, color in zip(handles, colors):
        if not _BOUNDS(handle, *bounds):
            raise pdfium.PdfiumError("Failed to locate pageobject.")
        found.append(FilledPath(tuple(color), (left.value, bottom.value, right.value, top.value)))
    return found


def _filled_paths_compiled(loops, compiled: charloop.CompiledReader | None, raw_page, max_depth: int,
                           keep_colors: Callable[[np.ndarray], np.ndarray]) -> list[FilledPath]:
    """`filled_paths` with the walk and the draw-mode and colour calls in one compiled loop: llvmlite's
    (`loops`, `walkir`) where built, else numba's (`compiled`): the same calls on the same objects in the
    same order, the same failures raised."""
    walked, count_failed, null_object, full = charloop.WALK_STATUS
    rows = np.zeros((64, 7), dtype=np.int64)
    said = np.zeros(1, dtype=np.int64)
    while True:
        if loops is not None:
            found = loops.path_fills(handle_of(raw_page), int(max_depth >= 2), rows, len(rows), said)
            status = int(said[0])
        elif compiled is not None:
            found, status = compiled.path_fills(handle_of(raw_page), max_depth >= 2, rows)
        else:
            raise ValueError("a compiled walk is needed")
        if status != full:
            break
        rows = np.zeros((2 * len(rows), 7), dtype=np.int64)
    if status == count_failed:
        raise pdfium.PdfiumError("Failed to get number of pageobjects.")
    if status == null_object:
        raise pdfium.PdfiumError("Failed to get pageobject.")
    rows = rows[:found]
    kept = (rows[:, 1] != 0) & (rows[:, 2] != 0)
    if kept.any():
        kept &= np.asarray(keep_colors(rows[:, 3:]), dtype=bool)
    return _bounded(rows[kept, 0].tolist(), rows[kept, 3:].tolist())


def _outputs(kind, count: int) -> tuple:
    """(a C array of `count` values of `kind`, the address of each value): out-parameters for a `map`."""
    values = (kind * count)()
    size = ctypes.sizeof(kind)
    return values, range(ctypes.addressof(values), ctypes.addressof(values) + size * count, size)
