"""Which copy of each object a PDF's cross-reference names, read as pdfium reads it, for the bomb check.

An object number may stand more than once in a file: an incremental update appends a new copy and a new
cross-reference section whose `/Prev` names the older one, and a cross-reference stream may list an object inside an
object stream while a plain object of that number stands in the bytes. pdfium reads the copy the newest section names
(`startxref`, found in the file's last 4 KiB, then each `/Prev`, a table's `/XRefStm` after its own rows); the bomb
check took an object's last copy in the bytes, so a harmless decoy after the real copy was judged in its place (a
`/Filter` array, a form redefined by an update, a packed page). Where a section cannot be read pdfium rebuilds the
table from the bytes, where a later copy replaces an earlier one: `read_crossrefs` answers None then, and the check
keeps the last copies.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from pipeline.extract import streamfilters as sf

MAX_SECTIONS = 512  # cross-reference sections followed through /Prev (a file updated that often is no exam sheet)
MAX_XREF_STREAM_BYTES = 64 * 1024 * 1024  # what one cross-reference stream may decode to (7 bytes an object)
MAX_ENTRIES = 1_000_000  # entries of all sections together (the corpus's largest file names 9,648 objects)
MAX_UNPREDICTED_ROWS = 65536  # rows undone one by one (Sub, Average, Paeth: writers use Up, undone at once)
_WS = rb"[ \t\r\n\f\x00]"
_STARTXREF = re.compile(rb"startxref" + _WS + rb"*(\d{1,12})")
_TABLE = re.compile(_WS + rb"*xref" + _WS + rb"*")
_SUBSECTION = re.compile(rb"(\d{1,10})" + _WS + rb"+(\d{1,10})" + _WS + rb"*")
_ENTRY = re.compile(rb"(\d{1,10})[ \t]+(\d{1,5})[ \t]+([nf])" + _WS + rb"{0,3}")
_TRAILER = re.compile(_WS + rb"*trailer")
_HEADER = re.compile(_WS + rb"*(\d{1,10})" + _WS + rb"+(\d{1,5})" + _WS + rb"+obj")
_STREAM = re.compile(_WS + rb"*stream\r?\n")


@dataclass
class Named:
    """Each object number's copy as the cross-reference names it: a plain object's header offset, the object stream
    holding it, or free (pdfium reads null)."""
    plain: dict[int, int] = field(default_factory=dict)
    packed: dict[int, int] = field(default_factory=dict)
    free: set[int] = field(default_factory=set)
    entries: int = 0  # read so far, all sections together

    def expect(self, count: int) -> None:
        """`count` more entries to read: Unreadable past `MAX_ENTRIES` (a listing of millions is memory, not a sheet:
        the bytes then decide, as before the cross-reference was read)."""
        self.entries += count
        if self.entries > MAX_ENTRIES:
            raise Unreadable(f"{self.entries} cross-reference entries")

    def locates(self, number: int) -> bool:
        return number in self.plain or number in self.packed

    def name(self, numbers: np.ndarray, kinds: np.ndarray, seconds: np.ndarray) -> None:
        """A section's entries (0 free, 1 plain at an offset, 2 in an object stream): each kept only where no newer
        section placed its number (the newest is read first). A newer section's free entry does not hide an older
        section's copy: pdfium reads that copy (an update freeing an object whose older copy, packed, was a bomb's
        `/Filter` left it judged as null), so a number stays free only where no section places it."""
        older = Named(dict(zip(numbers[kinds == 1].tolist(), seconds[kinds == 1].tolist(), strict=True)),
                      dict(zip(numbers[kinds == 2].tolist(), seconds[kinds == 2].tolist(), strict=True)),
                      set(numbers[kinds == 0].tolist()))
        if not (self.plain or self.packed or self.free):
            self.plain, self.packed, self.free = older.plain, older.packed, older.free
            return
        self.plain |= {n: at for n, at in older.plain.items() if not self.locates(n)}
        self.packed |= {n: at for n, at in older.packed.items() if not self.locates(n)}
        self.free = {n for n in self.free | older.free if not self.locates(n)}


def header_end(data: sf.Buf, offset: int, number: int) -> int | None:
    """Where the header `number G obj` at `offset` ends (white space before it allowed), or None where none is."""
    header = _HEADER.match(data, offset)
    return header.end() if header is not None and int(header.group(1)) == number else None


class Unreadable(ValueError):
    """A section pdfium would not take either: it rebuilds the table from the bytes."""


def read_crossrefs(data: sf.Buf, resolve: Callable[[object], object]) -> Named | None:
    """The copies the file's cross-reference sections name, newest first; None where `startxref` or any section it
    leads to cannot be read (pdfium then rebuilds from the bytes). `resolve` follows a reference in a stream's
    dictionary (a cross-reference stream's `/Length`)."""
    tail = max(0, len(data) - 4096 - 32)
    at = bytes(data[tail:]).rfind(b"startxref")
    found = _STARTXREF.match(data, tail + at) if at >= 0 else None
    if found is None:
        return None
    named, offset, seen = Named(), int(found.group(1)), set()
    try:
        while offset is not None:
            if offset in seen or len(seen) >= MAX_SECTIONS or not 0 <= offset < len(data):
                raise Unreadable(offset)
            seen.add(offset)
            offset = _section(data, offset, named, resolve)
    except (Unreadable, sf.ParseError, IndexError, ValueError, OverflowError):
        return None
    return named


def _section(data: sf.Buf, offset: int, named: Named, resolve: Callable[[object], object]) -> int | None:
    """Names the section at `offset`'s entries; the offset of the older section it names (`/Prev`), or None."""
    table = _TABLE.match(data, offset)
    if table is None:
        return _prev(_stream_section(data, offset, named, resolve))
    at = table.end()
    numbers: list[int] = []
    kinds: list[int] = []
    seconds: list[int] = []
    while (trailer := _TRAILER.match(data, at)) is None:
        subsection = _SUBSECTION.match(data, at)
        if subsection is None:
            raise Unreadable(at)
        first, count = int(subsection.group(1)), int(subsection.group(2))
        named.expect(count)
        at = subsection.end()
        rows = _fixed_rows(data, at, count)
        if rows is not None:
            offsets, at = rows
            kinds += (np.frombuffer(bytes(data[at - 20 * count + 17:at:20]), dtype=np.uint8) == ord("n")).tolist()
            seconds += offsets.tolist()
        for _ in range(count if rows is None else 0):
            entry = _ENTRY.match(data, at)
            if entry is None:
                raise Unreadable(at)
            at = entry.end()
            kinds.append(1 if entry.group(3) == b"n" else 0)
            seconds.append(int(entry.group(1)))
        numbers += range(first, first + count)
    named.name(np.array(numbers, dtype=np.int64), np.array(kinds, dtype=np.int64), np.array(seconds, dtype=np.int64))
    info, _ = sf.parse_object(data, trailer.end(), min(len(data), trailer.end() + 65536))
    if not isinstance(info, dict):
        raise Unreadable(trailer.end())
    hybrid = info.get("XRefStm")
    if isinstance(hybrid, int) and not isinstance(hybrid, bool):
        _stream_section(data, hybrid, named, resolve)
    return _prev(info)


def _fixed_rows(data: sf.Buf, at: int, count: int) -> tuple[np.ndarray, int] | None:
    """The offsets of `count` table rows at `at` written as the standard says (20 bytes each: ten digits, a space,
    five digits, a space, `n` or `f`, two bytes of line end), and where they end; None where any is otherwise."""
    block = np.frombuffer(bytes(data[at:at + 20 * count]), dtype=np.uint8)
    if count == 0 or len(block) != 20 * count:
        return None
    rows = block.reshape(count, 20)
    digits = np.concatenate([rows[:, 0:10], rows[:, 11:16]], axis=1)
    if ((digits < 48) | (digits > 57)).any() or (rows[:, 10] != 32).any() or (rows[:, 16] != 32).any() or \
            not np.isin(rows[:, 17], (ord("n"), ord("f"))).all() or not np.isin(rows[:, 18:], (32, 10, 13)).all():
        return None
    offsets = (rows[:, 0:10].astype(np.int64) - 48) @ (10 ** np.arange(9, -1, -1, dtype=np.int64))
    return offsets, at + 20 * count


def _prev(info: dict) -> int | None:
    prev = info.get("Prev")
    if prev is None:
        return None
    if not isinstance(prev, int) or isinstance(prev, bool):
        raise Unreadable(prev)
    return prev


def _stream_section(data: sf.Buf, offset: int, named: Named, resolve: Callable[[object], object]) -> dict:
    """A cross-reference stream's entries named; its dictionary."""
    header = _HEADER.match(data, offset)
    if header is None:
        raise Unreadable(offset)
    info, after = sf.parse_object(data, header.end(), min(len(data), header.end() + 65536))
    keyword = _STREAM.match(data, after)
    if not isinstance(info, dict) or keyword is None or info.get("Type") != "XRef":
        raise Unreadable(offset)
    widths = info.get("W")
    if not (isinstance(widths, list) and len(widths) == 3 and all(isinstance(w, int) and 0 <= w <= 8 for w in widths)):
        raise Unreadable(offset)
    size = info.get("Size")
    index = info.get("Index", [0, size])
    if not (isinstance(index, list) and len(index) % 2 == 0 and all(isinstance(v, int) and v >= 0 for v in index)):
        raise Unreadable(offset)
    row, listed = sum(widths), sum(index[1::2])
    named.expect(listed)
    rows = _decoded(data, keyword.end(), info, resolve, (row + 1) * listed)
    if row == 0 or len(rows) < row * listed:
        raise Unreadable(offset)
    table = np.frombuffer(rows, dtype=np.uint8, count=row * listed).reshape(listed, row).astype(np.int64)
    fields, at = [], 0
    for width in widths:
        fields.append(table[:, at:at + width] @ (256 ** np.arange(width - 1, -1, -1, dtype=np.int64)))
        at += width
    numbers = np.concatenate([np.arange(first, first + count, dtype=np.int64)
                              for first, count in zip(index[::2], index[1::2], strict=True)] or [np.zeros(0, np.int64)])
    named.name(numbers, fields[0] if widths[0] else np.ones(listed, dtype=np.int64), fields[1])
    return info


def _decoded(data: sf.Buf, start: int, info: dict, resolve: Callable[[object], object], needed: int) -> bytes:
    """The stream's bytes through Flate (the only filter a cross-reference stream is written with) and a PNG
    predictor: the first `needed` decoded (its rows, a predictor's byte each), within `MAX_XREF_STREAM_BYTES`."""
    length = resolve(info.get("Length"))
    if not isinstance(length, int) or not 0 <= length <= len(data) - start:
        raise Unreadable(start)
    chain: Iterable[bytes] = iter([bytes(data[start:start + length])])
    filters = sf.names(info.get("Filter"))
    if filters not in ([], ["FlateDecode"], ["Fl"]):
        raise Unreadable(start)
    if filters:
        chain = sf.decode(chain, "FlateDecode")
    out = bytearray()
    for piece in chain:
        out += piece[:needed - len(out)]
        if len(out) > MAX_XREF_STREAM_BYTES:
            raise Unreadable(start)
        if len(out) >= needed:
            break
    parms = info.get("DecodeParms", info.get("DP"))
    predictor = parms.get("Predictor", 1) if isinstance(parms, dict) else 1
    if predictor == 1:
        return bytes(out)
    columns = parms.get("Columns", 1) if isinstance(parms, dict) else 1
    if not (isinstance(predictor, int) and predictor >= 10 and isinstance(columns, int) and 0 < columns <= 4096):
        raise Unreadable(start)
    width = columns + 1
    rows = np.frombuffer(bytes(out), dtype=np.uint8, count=len(out) // width * width).reshape(-1, width)
    if (rows[:, 0] == 2).all():  # Up on every row, what writers use (`/Predictor 12`): sums down the columns
        return np.cumsum(rows[:, 1:], axis=0, dtype=np.uint8).tobytes()
    if len(rows) > MAX_UNPREDICTED_ROWS:
        raise Unreadable(start)
    return b"".join(_unpredicted(bytes(out), columns))


def _unpredicted(data: bytes, columns: int) -> Iterator[bytes]:
    """PNG-predicted rows (each a filter byte then `columns` bytes, one byte a pixel) made plain."""
    previous = np.zeros(columns, dtype=np.uint8)
    for at in range(0, len(data) - columns, columns + 1):
        kind, raw = data[at], np.frombuffer(data, dtype=np.uint8, count=columns, offset=at + 1)
        if kind == 0:
            previous = raw
        elif kind == 2:  # Up, what writers use (`/Predictor 12`): one sum a row
            previous = raw + previous
        elif kind in (1, 3, 4):
            previous = _unfiltered(kind, bytearray(raw.tobytes()), previous.tobytes())
        else:
            raise Unreadable(at)
        yield previous.tobytes()


def _unfiltered(kind: int, raw: bytearray, previous: bytes) -> np.ndarray:
    """One row under PNG's Sub (1), Average (3) or Paeth (4) filter, byte by byte."""
    for i in range(len(raw)):
        left = raw[i - 1] if i else 0
        up, corner = previous[i], previous[i - 1] if i else 0
        if kind == 1:
            raw[i] = (raw[i] + left) & 0xFF
        elif kind == 3:
            raw[i] = (raw[i] + (left + up) // 2) & 0xFF
        else:
            guess = left + up - corner
            nearest = min((abs(guess - left), 0, left), (abs(guess - up), 1, up), (abs(guess - corner), 2, corner))
            raw[i] = (raw[i] + nearest[2]) & 0xFF
    return np.frombuffer(bytes(raw), dtype=np.uint8)
