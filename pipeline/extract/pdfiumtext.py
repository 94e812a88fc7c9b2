"""A text page's characters read from pdfium at the cost of its C calls, not of ctypes' argument checks.

    codes = char_codes(raw_textpage, count)       # every character's code unit (int64 array), one call for the page
    LOOSE_CHAR_BOX(handle(raw_textpage), index, ctypes.byref(rect))   # rect: an FS_RECTF; RECT_FIELDS reads it
    FONT_WEIGHT(handle(raw_textpage), index)

A page holds 1,000-5,000 characters and the text layer asks pdfium three things of each (its code, its
loose box, its font weight). Through pypdfium2's bindings each call converts its arguments against the
declared pointer types, about 1 µs a call, the larger part of reading a page. So:

- the codes come in one `FPDFText_GetText` call, into a numpy buffer. It writes one UTF-16 unit per character index
  (surrogate halves are characters of their own there too), except that it writes U+FFFE where the
  character's own code is a control (pdfium's generated hyphen 0x02, a 0): those few are asked one by
  one (`FPDFText_GetUnicode`), and a page whose text is not one unit per character is asked character by
  character altogether;
- the box and weight calls go through prototypes without declared arguments: the text page handle as a
  `c_void_p`, the index as a C int, the box as a pointer to an `FS_RECTF`, which is what the C
  functions take.
"""
from __future__ import annotations

import ctypes
import struct

import numpy as np
import pypdfium2.raw as pdfium_c

# What FPDFText_GetText writes in place of a character whose code it does not copy.
PLACEHOLDER = 0xFFFE
# FS_RECTF's fields in their order (left, top, right, bottom): C floats, read as Python floats.
RECT_FIELDS = struct.Struct("=4f")
assert RECT_FIELDS.size == ctypes.sizeof(pdfium_c.FS_RECTF)


def _bare(function, restype):
    """`function` (a pypdfium2 binding) called without argument conversion."""
    return ctypes.CFUNCTYPE(restype)(ctypes.cast(function, ctypes.c_void_p).value)


LOOSE_CHAR_BOX = _bare(pdfium_c.FPDFText_GetLooseCharBox, ctypes.c_int)
FONT_WEIGHT = _bare(pdfium_c.FPDFText_GetFontWeight, ctypes.c_int)


def handle(raw_textpage) -> ctypes.c_void_p:
    """The text page handle as the bare calls take it."""
    return ctypes.c_void_p(ctypes.cast(raw_textpage, ctypes.c_void_p).value)


def char_codes(raw_textpage, count: int) -> np.ndarray:
    """The code unit of each of the page's `count` characters, as FPDFText_GetUnicode gives them (int64).

    Written by pdfium straight into a numpy buffer and looked at as an array: the placeholders are found by
    one comparison, not a Python step a character (on a corpus page of 2,000 characters, 0.19 -> 0.02 ms)."""
    if count <= 0:
        return np.zeros(0, dtype=np.int64)
    buffer = np.zeros(count + 1, dtype=np.uint16)
    written = pdfium_c.FPDFText_GetText(raw_textpage, 0, count, buffer.ctypes.data_as(ctypes.POINTER(ctypes.c_ushort)))
    if written - 1 != count:  # not one unit per character: ask each
        return np.array([pdfium_c.FPDFText_GetUnicode(raw_textpage, index) for index in range(count)], dtype=np.int64)
    codes = buffer[:count].astype(np.int64)
    for index in np.flatnonzero(codes == PLACEHOLDER).tolist():
        codes[index] = pdfium_c.FPDFText_GetUnicode(raw_textpage, index)
    return codes
