"""A PDF's bounds checked before pdfium is given it: streams that inflate past what any exam sheet holds.

pdfium inflates a page's content streams whole into memory (a 1 MB file of compressed white space took
2.1 GB; a larger one is killed by the kernel, and under a memory limit pdfium aborts the process), so
a FlateDecode bomb is refused from the file's bytes first: every zlib stream in the file (a stream's data
opens with a zlib header right after its `stream` keyword; streams never sit inside object streams) is
inflated in pieces, counting, and stops at the first that passes `MAX_STREAM_BYTES`. Nothing is kept:
the memory is one piece at a time. A real sheet's largest stream is a page scan stored raw (an A4 page
at 600 dpi in colour is about 100 MB); the check costs one inflate of each Flate stream, which pdfium
makes anyway for the pages it reads.

A page larger than `MAX_PAGE_SIDE` points on a side, or `MAX_PAGE_AREA` in all, is refused too: OCR and
figure crops render a page at up to 300 dpi into one buffer, and a page of 100000 × 100000 pt would ask
485 GiB (numpy raises MemoryError; a page just small enough to be granted is filled and the kernel kills
the process). ISO 32000 gives 14400 units as an implementation's largest side; A0 is 2384 × 3370 pt.

Not caught here: streams under an encryption filter (pdfium decrypts them first) and filters other than
Flate (LZW, run-length) — an encrypted sheet is refused as such before this matters unless it opens
without a password.
"""
from __future__ import annotations

import mmap
import re
import zlib
from pathlib import Path

MAX_STREAM_BYTES = 512 * 1024 * 1024  # what one stream may inflate to
_PIECE = 16 * 1024 * 1024  # inflated bytes asked of zlib at a time
_INPUT = 1024 * 1024  # compressed bytes handed to zlib at a time
_STREAM = re.compile(rb"stream\r?\n")
MAX_PAGE_SIDE = 14400.0  # points: ISO 32000's implementation limit (200 inches)
MAX_PAGE_AREA = 2384.0 * 3370.0  # points²: A0, at 300 dpi a 139-megapixel render (418 MB in BGR)


def file_bomb(path: Path) -> str | None:
    """Why the PDF at `path` is refused before pdfium reads it (a stream inflating past the bound), or None."""
    with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        found = oversized_stream(data)
    if found is None:
        return None
    offset, inflated = found
    return (f"a compressed stream at byte {offset} inflates past {MAX_STREAM_BYTES >> 20} MiB "
            f"({inflated >> 20} MiB read before stopping): a decompression bomb, not read")


def page_too_large(width: float, height: float) -> str | None:
    """Why a page of `width` × `height` points is refused (its renders would not fit in memory), or None."""
    if width > MAX_PAGE_SIDE or height > MAX_PAGE_SIDE or width * height > MAX_PAGE_AREA:
        return (f"is {width:g} × {height:g} pt, over the bound of {MAX_PAGE_SIDE:g} pt a side and A0's area "
                f"(rendered for OCR or figures it would not fit in memory): not read")
    return None


def oversized_stream(data: bytes | mmap.mmap, limit: int = MAX_STREAM_BYTES) -> tuple[int, int] | None:
    """(offset of the stream's data, bytes inflated before the limit was passed) for the first zlib
    stream of `data` that inflates past `limit`, or None when every one stays within it."""
    view = memoryview(data)
    for match in _STREAM.finditer(data):
        start = match.end()
        head = bytes(view[start:start + 2])
        if len(head) < 2 or head[0] & 0x0F != 8 or (head[0] << 8 | head[1]) % 31:
            continue  # not a zlib header: another filter, no filter, or encrypted bytes
        inflated = _inflated_size(view, start, limit)
        if inflated > limit:
            return start, inflated
    return None


def _inflated_size(view: memoryview, start: int, limit: int) -> int:
    """Bytes the zlib stream at `start` inflates to, counted until it ends, breaks, or passes `limit`."""
    inflater = zlib.decompressobj()
    total = 0
    at = start
    pending = b""
    while True:
        if not pending:
            if at >= len(view) or inflater.eof:
                return total
            pending = bytes(view[at:at + _INPUT])
            at += _INPUT
        try:
            out = inflater.decompress(pending, _PIECE)
        except zlib.error:
            return total  # a broken stream: pdfium stops there too
        total += len(out)
        if total > limit:
            return total
        if inflater.eof:
            return total
        pending = inflater.unconsumed_tail
