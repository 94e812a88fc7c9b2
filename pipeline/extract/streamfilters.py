"""A PDF stream's dictionary read from the file's bytes, and its filters undone a piece at a time.

For `bombs`: what a stream decodes to is counted before pdfium is given the file, without holding it. Each
decoder takes the stream's bytes as an iterable of pieces and yields its output in pieces, stopping at the
filter's end-of-data mark (or at the first byte it cannot read, where pdfium stops too); a chain of filters
is a chain of these generators, so memory is a few pieces whatever the stream inflates to.

The five filters that only transform bytes are undone: FlateDecode, LZWDecode, ASCII85Decode, ASCIIHexDecode,
RunLengthDecode (and their abbreviations). The image codecs (DCTDecode, JPXDecode, JBIG2Decode, CCITTFaxDecode)
end a chain: an image is bounded by the size its dictionary (and a JPEG by its frame header) declares.

The dictionary reader knows PDF's objects well enough to find a stream's top-level keys (names with `#xx`
escapes, strings with nested parentheses, nested dictionaries and arrays, comments, indirect references): a
key hidden in a nested dictionary or a string is not taken for the stream's own.
"""
from __future__ import annotations

import base64
import mmap
import re
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

Buf = bytes | memoryview | mmap.mmap  # what the reader reads objects from
PIECE = 16 * 1024 * 1024  # output bytes asked of zlib at a time

BYTE_FILTERS = {"FlateDecode": "FlateDecode", "Fl": "FlateDecode", "LZWDecode": "LZWDecode", "LZW": "LZWDecode",
                "ASCII85Decode": "ASCII85Decode", "A85": "ASCII85Decode", "ASCIIHexDecode": "ASCIIHexDecode",
                "AHx": "ASCIIHexDecode", "RunLengthDecode": "RunLengthDecode", "RL": "RunLengthDecode"}
# The most bytes each byte filter writes for one byte it reads, whatever the bytes: Deflate a 258-byte match in two
# bits (RFC 1951; zlib's documentation gives the same 1032:1); LZW a code of at least 9 bits for a string no longer
# than its 4096-entry table; run-length 128 bytes from a 2-byte run; ASCII85 four zero bytes from one `z`; ASCIIHex
# half a byte from each digit. `bombs` decodes only a stream whose stored bytes times these could pass its bounds.
MAX_EXPANSION = {"FlateDecode": 1032, "LZWDecode": 4096 * 8 // 9 + 1, "RunLengthDecode": 64, "ASCII85Decode": 4,
                 "ASCIIHexDecode": 1}
IMAGE_CODECS = {"DCTDecode": "DCTDecode", "DCT": "DCTDecode", "JPXDecode": "JPXDecode", "JBIG2Decode": "JBIG2Decode",
                "CCITTFaxDecode": "CCITTFaxDecode", "CCF": "CCITTFaxDecode"}


@dataclass(frozen=True)
class Ref:
    """An indirect reference `number generation R`."""
    number: int
    generation: int


class Name(str):
    """A PDF name, its `#xx` escapes read."""


_WHITE = b" \t\r\n\f\x00"
_DELIMS = b"()<>[]{}/%"
_REGULAR = re.compile(rb"[^ \t\r\n\f\x00()<>\[\]{}/%]*")
_NUMBER = re.compile(rb"[+-]?(?:\d+\.?\d*|\.\d+)")
_REF_TAIL = re.compile(rb"[ \t\r\n\f\x00]+(\d+)[ \t\r\n\f\x00]+R(?![^ \t\r\n\f\x00()<>\[\]{}/%])")
_HEX_NAME = re.compile(rb"#([0-9A-Fa-f]{2})")
_SKIPPED = _WHITE + b"%"
_SPACE = re.compile(rb"(?:[ \t\r\n\f\x00]|%[^\r\n]*)*")  # white space, and comments to their line's end
_STRING_SPECIAL = re.compile(rb"[()\\]")


class ParseError(ValueError):
    """The bytes are not a PDF object this reader can follow."""


def parse_object(data: Buf, at: int, end: int, depth: int = 0) -> tuple[object, int]:
    """The PDF object starting at or after `at` (white space and comments skipped) and the offset after it.
    Dictionaries are dicts of `Name` keys, arrays lists, references `Ref`, strings bytes."""
    if depth > 64:
        raise ParseError("nested past 64 levels")
    at = _skip(data, at, end)
    if at >= end:
        raise ParseError("no object")
    first = data[at]
    if data[at:at + 2] == b"<<":
        return _parse_dict(data, at + 2, end, depth)
    if first == 0x5B:  # [
        items: list[object] = []
        at += 1
        while True:
            at = _skip(data, at, end)
            if at >= end:
                raise ParseError("an array without its end")
            if data[at] == 0x5D:
                return items, at + 1
            item, at = _value(data, at, end, depth)
            items.append(item)
    return _value(data, at, end, depth)


def _value(data: Buf, at: int, end: int, depth: int) -> tuple[object, int]:
    """One object; a number followed by `G R` is a reference. The patterns match in `data` itself between bounds
    (`pattern.match(data, at, stop)` reads as the slice `data[at:stop]` would, none of them looking behind), so no
    object's bytes are copied before they are known: a stream's dictionary is read for every stream of a file."""
    at = _skip(data, at, end)
    first = data[at]
    if first == 0x5B or (first == 0x3C and data[at:at + 2] == b"<<"):
        return parse_object(data, at, end, depth + 1)
    if first == 0x2F:  # /
        match = _REGULAR.match(data, at + 1, min(end, at + 1 + 4096))
        raw = match.group(0) if match else b""
        text = _HEX_NAME.sub(lambda m: bytes([int(m.group(1), 16)]), raw) if b"#" in raw else raw
        return Name(text.decode("latin-1")), at + 1 + len(raw)
    if first == 0x28:  # (
        return _parse_string(data, at + 1, end)
    if first == 0x3C:  # <hex>
        close = _find(data, b">", at, end)
        if close < 0:
            raise ParseError("a hex string without its end")
        return bytes(data[at + 1:close]), close + 1
    stop = min(end, at + 64)
    number = _NUMBER.match(data, at, stop)
    if number:
        text = number.group(0)
        after = at + len(text)
        if text.isdigit():
            tail = _REF_TAIL.match(data, after, min(end, after + 64))
            if tail:
                return Ref(int(text), int(tail.group(1))), tail.end()
            return int(text), after
        return float(text), after
    word = _REGULAR.match(data, at, stop)
    if not word or not word.group(0):
        raise ParseError(f"unexpected byte {first:#x}")
    return word.group(0).decode("latin-1"), word.end()


def _find(data: Buf, sub: bytes, start: int, end: int) -> int:
    """Where `sub` first occurs in `data[start:end]`, as an offset in `data`; -1 where it does not."""
    if isinstance(data, memoryview):  # no `find` of its own
        found = bytes(data[start:end]).find(sub)
        return found + start if found >= 0 else -1
    return data.find(sub, start, end) if start <= end else -1


def _parse_dict(data: Buf, at: int, end: int, depth: int) -> tuple[dict[str, object], int]:
    found: dict[str, object] = {}
    while True:
        at = _skip(data, at, end)
        if at >= end:
            raise ParseError("a dictionary without its end")
        if data[at] == 0x3E and data[at:at + 2] == b">>":
            return found, at + 2
        key, at = _value(data, at, end, depth)
        if not isinstance(key, Name):
            raise ParseError("a dictionary key that is not a name")
        value, at = _value(data, at, end, depth)
        found[str(key)] = value


def _parse_string(data: Buf, at: int, end: int) -> tuple[bytes, int]:
    """A literal string's raw bytes (escapes left as written) after its `(`, to its balancing `)`."""
    level = 1
    start = at
    while True:
        special = _STRING_SPECIAL.search(data, at, end) if at <= end else None  # the next ( ) or backslash
        if special is None:
            raise ParseError("a string without its end")
        at = special.start()
        byte = data[at]
        if byte == 0x5C:  # backslash escapes the next byte
            at += 2
            continue
        if byte == 0x28:
            level += 1
        else:
            level -= 1
            if level == 0:
                return bytes(data[start:at]), at + 1
        at += 1


def _skip(data: Buf, at: int, end: int) -> int:
    """`at` past white space and comments (a `%` to the end of its line), never past `end`."""
    if at >= end or data[at] not in _SKIPPED:  # most objects follow their neighbour's delimiter or one space
        return at
    spaces = _SPACE.match(data, at, end)  # never None: the pattern matches the empty string too
    return spaces.end() if spaces is not None else at


# --------------------------------------------------------------------------- filters


def names(value: object) -> list[str]:
    """A /Filter value as a list of names (a single name or an array)."""
    if isinstance(value, list):
        return [str(v) for v in value if isinstance(v, str)]
    return [str(value)] if isinstance(value, str) else []


def decode(pieces: Iterable[bytes], name: str, parms: object = None) -> Iterator[bytes]:
    """The output of byte filter `name` (a full name) over `pieces`."""
    if name == "FlateDecode":
        return inflate(pieces)
    if name == "LZWDecode":
        early = parms.get("EarlyChange", 1) if isinstance(parms, dict) else 1
        return lzw(pieces, 0 if early == 0 else 1)
    if name == "ASCII85Decode":
        return ascii85(pieces)
    if name == "ASCIIHexDecode":
        return asciihex(pieces)
    if name == "RunLengthDecode":
        return runlength(pieces)
    raise ValueError(name)


def inflate(pieces: Iterable[bytes]) -> Iterator[bytes]:
    inflater = zlib.decompressobj()
    for piece in pieces:
        pending = piece
        while pending:
            try:
                out = inflater.decompress(pending, PIECE)
            except zlib.error:
                return  # a broken stream: pdfium stops there too
            if out:
                yield out
            if inflater.eof:
                return
            pending = inflater.unconsumed_tail


def lzw(pieces: Iterable[bytes], early: int = 1) -> Iterator[bytes]:
    """LZW as ISO 32000 7.4.4 writes it: 9- to 12-bit codes, 256 clears, 257 ends."""
    table = [bytes([i]) for i in range(256)] + [b"", b""]
    width, bits, held = 9, 0, 0
    prev: bytes | None = None
    out: list[bytes] = []
    size = 0
    for piece in pieces:
        for byte in piece:
            bits = (bits << 8) | byte
            held += 8
            while held >= width:
                held -= width
                code = bits >> held
                bits &= (1 << held) - 1
                if code == 256:
                    del table[258:]
                    width, prev = 9, None
                    continue
                if code == 257:
                    if out:
                        yield b"".join(out)
                    return
                if code < len(table):
                    entry = table[code]
                    if prev is not None and len(table) < 4096:
                        table.append(prev + entry[:1])
                elif code == len(table) and prev is not None:
                    entry = prev + prev[:1]
                    if len(table) < 4096:
                        table.append(entry)
                else:
                    if out:
                        yield b"".join(out)
                    return  # a code not yet defined: the stream is broken there
                prev = entry
                out.append(entry)
                size += len(entry)
                if size >= PIECE:
                    yield b"".join(out)
                    out, size = [], 0
                if len(table) + early >= 1 << width and width < 12:
                    width += 1
    if out:
        yield b"".join(out)


def ascii85(pieces: Iterable[bytes]) -> Iterator[bytes]:
    held = b""
    for piece in pieces:
        text = held + re.sub(rb"[ \t\r\n\f\x00]", b"", piece)
        stop = text.find(b"~")
        done = stop >= 0
        if done:
            text = text[:stop]
        text = text.replace(b"z", b"!!!!!")
        cut = len(text) if done else len(text) - len(text) % 5
        try:
            if cut:
                yield base64.a85decode(text[:cut])
        except ValueError:
            return
        held = text[cut:]
        if done:
            return
    if held:
        try:
            yield base64.a85decode(held)
        except ValueError:
            return


def asciihex(pieces: Iterable[bytes]) -> Iterator[bytes]:
    held = b""
    for piece in pieces:
        text = held + re.sub(rb"[ \t\r\n\f\x00]", b"", piece)
        stop = text.find(b">")
        done = stop >= 0
        if done:
            text = text[:stop] + (b"0" if stop % 2 else b"")
        cut = len(text) - len(text) % 2
        try:
            yield bytes.fromhex(text[:cut].decode("latin-1"))
        except ValueError:
            return
        held = text[cut:]
        if done:
            return


def runlength(pieces: Iterable[bytes]) -> Iterator[bytes]:
    held = b""
    for piece in pieces:
        data = held + piece
        out: list[bytes] = []
        size = at = 0
        while at < len(data):
            length = data[at]
            if length == 128:
                yield b"".join(out)
                return
            if length < 128:
                if at + 1 + length + 1 > len(data):
                    break
                out.append(data[at + 1:at + length + 2])
                at += length + 2
                size += length + 1
            else:
                if at + 1 >= len(data):
                    break
                out.append(data[at + 1:at + 2] * (257 - length))
                at += 2
                size += 257 - length
            if size >= PIECE:  # up to 64 times the input: yielded a piece at a time
                yield b"".join(out)
                out, size = [], 0
        held = data[at:]
        yield b"".join(out)


def jpeg_frame(head: bytes) -> tuple[int, int, int] | None:
    """(width, height, components) from a JPEG's start-of-frame header in `head`, or None."""
    at = 2 if head[:2] == b"\xff\xd8" else -1
    while 0 <= at < len(head) - 9:
        if head[at] != 0xFF:
            return None
        marker = head[at + 1]
        if marker == 0xFF:
            at += 1
            continue
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height = head[at + 5] << 8 | head[at + 6]
            width = head[at + 7] << 8 | head[at + 8]
            return width, height, head[at + 9]
        at += 2 + (head[at + 2] << 8 | head[at + 3])
    return None
