"""The objects a plain PDF keeps inside its object streams (`/Type /ObjStm`, PDF 1.5), read for the bomb check.

A file may keep every dictionary that is not a stream (its pages, their resources, a stream's /Filter array, an
image's /Width) compressed inside object streams, where a scan of the file's bytes for `N G obj` finds nothing.
pdfium reads them through the cross-reference stream; the bomb check, reading the bytes, found no page (so no
XObject draw was counted: forms nested eight deep, or one image drawn 10,000 times, were read) and resolved no
reference into them (a `/Filter 5 0 R` naming `[/FlateDecode]` was taken as no filter, a 600 KB stream read by pdfium
as 600 MB; an image's `/Width 6 0 R /Height 7 0 R` declared nothing). Each object stream is decoded here through its
byte filters, at most `MAX_OBJECT_STREAM_BYTES` for the whole file (a real sheet's are kilobytes), and the objects it
lists are indexed by number.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from pipeline.extract import streamfilters as sf

MAX_OBJECT_STREAM_BYTES = 64 * 1024 * 1024  # what a file's object streams may decode to in all
MAX_PACKED_OBJECT = 65536  # bytes one object is read within, as a plain file's objects are
_OBJSTM = re.compile(rb"/Type[ \t\r\n\f\x00]*/ObjStm(?![^ \t\r\n\f\x00()<>\[\]{}/%])")
_STREAM = re.compile(rb"[ \t\r\n\f\x00]*stream\r?\n")
_PAIR = re.compile(rb"[ \t\r\n\f\x00]*(\d{1,10})[ \t\r\n\f\x00]+(\d{1,12})")


class Packed:
    """Objects held in a file's object streams: `where[number]` is (decoded stream, start, end) of its bytes."""

    def __init__(self) -> None:
        self.where: dict[int, tuple[bytes, int, int]] = {}
        # By the copy of the object stream (where its header ends), its objects: a stream's number may stand twice (an
        # update, a decoy), and pdfium reads the objects of the copy its cross-reference names.
        self.held: dict[int, dict[int, tuple[bytes, int, int]]] = {}
        self.unread: str | None = None  # why the object streams were not all read (the file is then refused)

    def parse(self, number: int, stream: int | None = None) -> object:
        """Object `number`: the copy in the object stream whose header ends at `stream` where given (the one a
        cross-reference names)."""
        return sf.parse_object(*self.bytes_of(number, stream))[0]

    def bytes_of(self, number: int, stream: int | None = None) -> tuple[bytes, int, int]:
        """(decoded stream, start, end) of the bytes object `number` is parsed within (`parse`)."""
        buffer, start, end = self.where[number] if stream is None else self.held[stream][number]
        return buffer, start, min(end, start + MAX_PACKED_OBJECT)

    def numbers(self) -> Iterator[int]:
        return iter(self.where)


def read_packed(data: sf.Buf, header_before: Callable[[int], int | None], resolve: Callable[[object], object],
                current: Callable[[int], bool] = lambda header: True) -> Packed:
    """Every object stream of `data` decoded (within `MAX_OBJECT_STREAM_BYTES` in all) and its objects indexed.
    `header_before(offset)` is where the plain object holding `offset` begins, `resolve` follows a plain reference,
    `current(header)` whether that copy of its number is the one pdfium reads (only those stand for the objects no
    cross-reference names: `where`)."""
    packed = Packed()
    budget = MAX_OBJECT_STREAM_BYTES
    for match in _OBJSTM.finditer(data):
        header = header_before(match.start())
        if header is None:
            continue
        try:
            info, after = sf.parse_object(data, header, min(len(data), header + MAX_PACKED_OBJECT))
        except (sf.ParseError, IndexError):
            continue
        keyword = _STREAM.match(data, after)
        if not isinstance(info, dict) or keyword is None or resolve(info.get("Type")) != "ObjStm":
            continue
        decoded = _decoded(data, keyword.end(), info, resolve, budget)
        if decoded is None:
            continue  # a filter pdfium does not know: it reads nothing from this stream either
        budget -= len(decoded)
        if budget < 0:
            packed.unread = (f"the object streams decode past {MAX_OBJECT_STREAM_BYTES >> 20} MiB in all (by the one at "
                             f"byte {keyword.end()}): a decompression bomb, not read")
            return packed
        _index(packed, decoded, info, resolve, header, current(header))
    return packed


def _decoded(data: sf.Buf, start: int, info: dict, resolve: Callable[[object], object], budget: int) -> bytes | None:
    """The stream's bytes through its byte filters, up to one byte past `budget`."""
    length = resolve(info.get("Length"))
    end = start + length if isinstance(length, int) and 0 <= length <= len(data) - start else len(data)
    parms = resolve(info.get("DecodeParms", info.get("DP")))
    chain: Iterator[bytes] = iter([bytes(data[start:end])])
    for index, name in enumerate(str(resolve(f)) for f in sf.names(resolve(info.get("Filter")))):
        parm = parms[index] if isinstance(parms, list) and index < len(parms) else parms
        if name not in sf.BYTE_FILTERS:
            return None
        chain = sf.decode(chain, sf.BYTE_FILTERS[name], resolve(parm))
    out = bytearray()
    for piece in chain:
        out += piece[:budget + 1 - len(out)]
        if len(out) > budget:
            break
    return bytes(out)


def _index(packed: Packed, decoded: bytes, info: dict, resolve: Callable[[object], object], header: int,
           current: bool) -> None:
    """The stream's `N` (number, offset) pairs, each object's bytes running to the next one's offset. A number
    listed in a later current object stream replaces an earlier one in `where` (where no cross-reference says which
    one is read); `held` keeps each stream's own, by where its header ends."""
    count, first = resolve(info.get("N")), resolve(info.get("First"))
    if not (isinstance(count, int) and isinstance(first, int) and 0 <= first <= len(decoded)):
        return
    pairs, at = [], 0
    for _ in range(min(count, first)):
        match = _PAIR.match(decoded, at, first)
        if match is None:
            break
        pairs.append((int(match.group(1)), first + int(match.group(2))))
        at = match.end()
    for index, (number, start) in enumerate(pairs):
        end = pairs[index + 1][1] if index + 1 < len(pairs) and pairs[index + 1][1] > start else len(decoded)
        if start < len(decoded):
            if current:
                packed.where[number] = (decoded, start, end)
            packed.held.setdefault(header, {})[number] = (decoded, start, end)
