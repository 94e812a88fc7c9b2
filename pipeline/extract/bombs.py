"""A PDF's bounds checked before pdfium is given it: streams that decode past what any exam sheet holds.

pdfium decodes a page's content streams whole into memory, one after the other (a 1 MB file of compressed
white space took 2.1 GB; a larger one is killed by the kernel, and under a memory limit pdfium aborts the
process), so what a file's streams decode to is counted from its bytes first (`streamfilters`): every
stream's dictionary is read, its filters undone in order a piece at a time (FlateDecode, LZWDecode,
ASCII85Decode, ASCIIHexDecode, RunLengthDecode, and chains of them), counting, nothing kept. A file is
refused when one stream decodes past `Bounds.stream`, when the streams that are not images (content streams,
forms, fonts: what a page's reading holds) decode past `Bounds.content` in all (many streams on one page,
each under the bound), or when an image declares more pixels than `Bounds.stream` holds decoded (its
dictionary's /Width × /Height, a JPEG's frame header: the image codecs DCT, JPX, JBIG2 and CCITT decode to
the size they declare, whatever their data's size). A real sheet's largest stream is a page scan (an A4 page
at 600 dpi in colour is about 100 MB decoded); its content streams are kilobytes to a few megabytes a page.

An encrypted file that opens without a password (real sheets do: a publisher's owner password only forbids
editing) is read through pypdf, which decrypts each stream; the count is the same, its XObject draws included
(each stream keeps its object number and a form its resources, the pages come from pypdf's page tree). One that
needs a password is left to pdfium, which refuses it.

A page larger than `MAX_PAGE_SIDE` points on a side, or `MAX_PAGE_AREA` in all, is refused too: OCR and
figure crops render a page at up to 300 dpi into one buffer, and a page of 100000 × 100000 pt would ask
485 GiB (numpy raises MemoryError; a page just small enough to be granted is filled and the kernel kills
the process). ISO 32000 gives 14400 units as an implementation's largest side; A0 is 2384 × 3370 pt.

A content stream (a page's, a form's, a glyph's) is always decoded and read (`pagecontent`): each inline image
inside it (`BI … ID … EI`, with its own filters and declared size, undone by pdfium as it parses the page) is
counted through its own filters, against `Bounds.stream` alone and against `Bounds.content` with the streams;
and every XObject a page draws is counted, each form's draws every time the form is drawn, against
`MAX_DRAWS` a page (forms nested ten by ten, or one image drawn ten thousand times).
"""
from __future__ import annotations

import bisect
import mmap
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.extract import crossrefs, pagecontent
from pipeline.extract import streamfilters as sf
from pipeline.extract.objectstreams import Packed, read_packed

MAX_STREAM_BYTES = 512 * 1024 * 1024  # what one stream may decode to
MAX_CONTENT_BYTES = 512 * 1024 * 1024  # what a file's streams other than images may decode to in all
_INPUT = 1024 * 1024  # stored bytes handed to a decoder at a time
_KEYS = {"Filter", "DecodeParms", "DP", "Subtype", "Width", "Height", "BitsPerComponent", "ImageMask", "Length", "Type",
         "Length1", "Length2", "Length3", "N", "Params", "Resources"}
_HEAD = 65536  # decoded bytes of an image codec's data read for its frame header
_STREAM = re.compile(rb"stream\r?\n")
_ENDSTREAM = re.compile(rb"[ \t\r\n\f\x00]*endstream")
_OBJ = re.compile(rb"obj(?![^ \t\r\n\f\x00()<>\[\]{}/%])")  # a scan for the keyword alone is 35 times quicker
_NUMBERS_BEFORE = re.compile(rb"(?<![0-9])(\d{1,10})[ \t\r\n\f\x00]+(\d{1,5})[ \t\r\n\f\x00]+\Z")
_WHITE = b" \t\r\n\f\x00"
_ENCRYPT = re.compile(rb"/Encrypt(?![^ \t\r\n\f\x00()<>\[\]{}/%])")
MAX_DRAWS = 5000  # XObjects one page may draw, forms' draws counted each time the form is drawn
# Streams that hold no page content: fonts (their programs' lengths), colour profiles, embedded files, metadata.
_NOT_CONTENT_KEYS = ("Length1", "Length2", "Length3", "N", "Params")
_NOT_CONTENT_TYPES = ("XRef", "ObjStm", "Metadata", "EmbeddedFile", "XML")
_PAGE = re.compile(rb"/Type[ \t\r\n\f\x00]*/Page(?![^ \t\r\n\f\x00()<>\[\]{}/%])")
MAX_PAGE_SIDE = 14400.0  # points: ISO 32000's implementation limit (200 inches)
MAX_PAGE_AREA = 2384.0 * 3370.0  # points²: A0, at 300 dpi a 139-megapixel render (418 MB in BGR)
# Bytes without which an object cannot be a page's dictionary: the name /Page written plain, /Type given by reference,
# or what hides either from a plain search (an escaped byte in a name, a comment between a key and its value).
_MAY_NAME_PAGE = re.compile(rb"[#%]|/Page(?![^ \t\r\n\f\x00()<>\[\]{}/%])|/Type[ \t\r\n\f\x00]*[0-9]")
_NUMBER_FIRST = re.compile(rb"[ \t\r\n\f\x00]*[0-9]")  # an object that may be a reference


@dataclass(frozen=True)
class Bounds:
    stream: int = MAX_STREAM_BYTES
    content: int = MAX_CONTENT_BYTES


@dataclass(frozen=True)
class Stream:
    """One stream: where its data begins, its dictionary (references left as `Ref`), its stored bytes."""
    offset: int
    info: dict[str, object]
    pieces: Iterable[bytes]
    stored: int | None  # its stored length where known
    number: int | None = None  # its object number where known
    current: bool = True  # whether it is the copy of its number pdfium reads (not one an update replaced, a decoy)


def file_bomb(path: Path, bounds: Bounds | None = None) -> str | None:
    """Why the PDF at `path` is refused before pdfium reads it (streams decoding past the bounds), or None."""
    bounds = bounds or Bounds(MAX_STREAM_BYTES, MAX_CONTENT_BYTES)
    with open(path, "rb") as handle, mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ) as data:
        if _ENCRYPT.search(data):
            found = _encrypted_streams(path)
            if found is not None:
                return _judge(found[0], found[1], bounds)
        resolver = _Resolver(data)
        found = _judge_plain(data, resolver, bounds)
        if found is None and resolver.names_other_copies:
            # The cross-reference names copies other than the last ones in the bytes. pdfium reads those where it
            # accepts the cross-reference, and the last copies where it rebuilds the table from the bytes: a table our
            # reader takes and pdfium rejects would have it read what was not judged. So both readings are judged.
            found = _judge_plain(data, _Resolver(data, named=False), bounds)
        return found


def _judge_plain(data: bytes | mmap.mmap, resolver: _Resolver, bounds: Bounds) -> str | None:
    streams = _plain_streams(data, resolver)
    try:
        return _judge(streams, resolver, bounds) or resolver.unread()
    finally:
        streams.close()  # its views of the mapped file go before the file is unmapped


def page_too_large(width: float, height: float) -> str | None:
    """Why a page of `width` × `height` points is refused (its renders would not fit in memory), or None."""
    if width > MAX_PAGE_SIDE or height > MAX_PAGE_SIDE or width * height > MAX_PAGE_AREA:
        return (f"is {width:g} × {height:g} pt, over the bound of {MAX_PAGE_SIDE:g} pt a side and A0's area "
                f"(rendered for OCR or figures it would not fit in memory): not read")
    return None


def oversized_stream(data: bytes | mmap.mmap, limit: int = MAX_STREAM_BYTES) -> tuple[int, int] | None:
    """(offset of the stream's data, bytes decoded before the limit was passed) for the first stream of
    `data` that decodes past `limit`, or None when every one stays within it."""
    resolver = _Resolver(data)
    streams = _plain_streams(data, resolver)
    try:
        for stream in streams:
            size = _decoded(stream, resolver, limit)[0]
            if size > limit:
                return stream.offset, size
        return None
    finally:
        streams.close()


# --------------------------------------------------------------------------- judging


def _judge(streams: Iterable[Stream], resolver: _Resolver | _Decrypted, bounds: Bounds) -> str | None:
    content = 0  # what the streams other than images decode to, so far: counted, or at most their ceiling
    by_ceiling: list[Stream] = []  # the streams counted by their ceiling, not decoded
    read: dict[int, pagecontent.Facts] = {}  # the content streams read, by object number
    forms: dict[int, object] = {}  # each form's own resources
    for stream in streams:
        image = stream.info.get("Subtype") == "Image"
        if not image and _holds_content(stream.info, resolver):
            facts = _content(stream, resolver, min(bounds.stream, bounds.content - content))
            if facts.unread is not None:
                return f"{facts.unread} at byte {stream.offset}: not read"
            if facts.largest > bounds.stream:
                return (f"an inline image in the stream at byte {stream.offset} decodes past {bounds.stream >> 20} MiB "
                        f"(its own filters or its declared size): a decompression bomb, not read")
            if facts.size > bounds.stream:
                return (f"a compressed stream at byte {stream.offset} decodes past {bounds.stream >> 20} MiB "
                        f"({facts.size >> 20} MiB read before stopping): a decompression bomb, not read")
            content += facts.size + facts.inline
            if content > bounds.content:
                return (f"the streams other than images decode past {bounds.content >> 20} MiB in all, inline images "
                        f"counted ({content >> 20} MiB by the stream at byte {stream.offset}): a decompression bomb, "
                        f"not read")
            if stream.number is not None and stream.current:
                read[stream.number] = facts
                if resolver.resolve(stream.info.get("Subtype")) == "Form":
                    forms[stream.number] = stream.info.get("Resources")
            continue
        ceiling = _ceiling(stream, resolver)
        if ceiling is not None and ceiling <= bounds.stream and (image or content + ceiling <= bounds.content):
            declared = _declared(stream.info, resolver) if image else 0
            if declared <= bounds.stream:
                # It cannot pass a bound, whatever its bytes hold: not decoded (a sheet's streams cost 3–4 CPU ms a
                # file to inflate, most of a generated page's work outside the stages).
                content += 0 if image else ceiling
                by_ceiling.append(stream)
                continue
        if not image and by_ceiling and content + (ceiling if ceiling is not None else bounds.content) > bounds.content:
            content = _counted_again(content, by_ceiling, resolver, bounds)  # the ceilings made exact before judging
            by_ceiling = []
        size, declared = _decoded(stream, resolver, min(bounds.stream, bounds.content - content if not image else bounds.stream))
        if declared > bounds.stream:
            return (f"an image at byte {stream.offset} declares {declared >> 20} MiB of pixels, past "
                    f"{bounds.stream >> 20} MiB: a decompression bomb, not read")
        if size > bounds.stream:
            return (f"a compressed stream at byte {stream.offset} decodes past {bounds.stream >> 20} MiB "
                    f"({size >> 20} MiB read before stopping): a decompression bomb, not read")
        if not image:
            content += size
            if content > bounds.content:
                return (f"the streams other than images decode past {bounds.content >> 20} MiB in all "
                        f"({content >> 20} MiB by the stream at byte {stream.offset}): a decompression bomb, not read")
    return _too_many_draws(resolver, read, forms)


def _holds_content(info: dict[str, object], resolver: _Resolver | _Decrypted) -> bool:
    """Whether a stream can be content pdfium parses (a page's, a form's, a glyph's, a pattern's): not a font
    program, a colour profile, an embedded file, metadata or a cross-reference stream."""
    if any(key in info for key in _NOT_CONTENT_KEYS):
        return False
    kind, subtype = resolver.resolve(info.get("Type")), resolver.resolve(info.get("Subtype"))
    return kind not in _NOT_CONTENT_TYPES and subtype in (None, "Form")


def _content(stream: Stream, resolver: _Resolver | _Decrypted, limit: int) -> pagecontent.Facts:
    """A content stream decoded and read (`pagecontent.scan`), until it or one inline image passes `limit`."""
    chain = _chain(stream, resolver)
    if chain is None:
        return pagecontent.Facts()
    return pagecontent.scan(chain, limit, lambda info: _declared(info, resolver))


def _too_many_draws(resolver: _Resolver | _Decrypted, read: dict[int, pagecontent.Facts],
                    forms: dict[int, object]) -> str | None:
    """Why a page is refused for the XObjects it draws (forms' draws counted each time a form is drawn), or None."""
    if not any(read[number].draws for number in forms if number in read) and \
            sum(sum(facts.draws.values()) for facts in read.values()) <= MAX_DRAWS:
        return None  # no form draws anything, and all the file's draws together stay within one page's bound
    for where, numbers, resources in resolver.pages():
        draws = pagecontent.page_draws(numbers, resources, read, forms, resolver.resolve, MAX_DRAWS)
        if draws > MAX_DRAWS:
            return (f"a page ({where}) draws more than {MAX_DRAWS} XObjects, forms' draws counted "
                    f"each time a form is drawn ({draws} counted before stopping): not read")
    return None


def _page_resources(page: dict[str, object], resolve: Callable[[object], object]) -> object:
    """A page's resources, its own or inherited from the page tree (32 levels up at most)."""
    found: object = page.get("Resources")
    node: object = page
    for _ in range(32):
        if found is not None or not isinstance(node, dict):
            break
        node = resolve(node.get("Parent"))
        found = node.get("Resources") if isinstance(node, dict) else None
    return resolve(found)


def _contents_numbers(contents: object, resolve: Callable[[object], object]) -> list[int]:
    """The object numbers of a page's content streams (one reference, or an array of them, itself perhaps one)."""
    found = resolve(contents)
    listed = found if isinstance(found, list) else [contents]
    return [c.number for c in listed if isinstance(c, sf.Ref)]


def _ceiling(stream: Stream, resolver: _Resolver | _Decrypted) -> int | None:
    """The most a stream can decode to, whatever its bytes hold: its stored bytes times each byte filter's largest
    expansion (`sf.MAX_EXPANSION`); None where that is not known (an image codec, an unknown stored length)."""
    if stream.stored is None:
        return None
    ceiling = stream.stored
    for name in (str(resolver.resolve(f)) for f in sf.names(resolver.resolve(stream.info.get("Filter")))):
        if name in sf.BYTE_FILTERS:
            ceiling *= sf.MAX_EXPANSION[sf.BYTE_FILTERS[name]]
        elif name != "Crypt":
            return None  # an image codec decodes to what it declares; an unknown filter is decoded by `_decoded`
    return ceiling


def _counted_again(content: int, by_ceiling: list[Stream], resolver: _Resolver | _Decrypted, bounds: Bounds) -> int:
    """`content` with the streams counted by their ceiling decoded and counted by what they hold."""
    for stream in by_ceiling:
        if stream.info.get("Subtype") != "Image":
            content -= _ceiling(stream, resolver) or 0
            content += _decoded(stream, resolver, bounds.content)[0]
    return content


def _decoded(stream: Stream, resolver: _Resolver | _Decrypted, limit: int) -> tuple[int, int]:
    """(bytes the stream decodes to, counted until past `limit`; bytes its image declares, or 0)."""
    info = stream.info
    filters = [resolver.resolve(f) for f in sf.names(resolver.resolve(info.get("Filter")))]  # see also `_chain`
    parms = resolver.resolve(info.get("DecodeParms", info.get("DP")))
    chain: Iterable[bytes] = stream.pieces
    codec = None
    for index, name in enumerate(str(f) for f in filters):
        parm = parms[index] if isinstance(parms, list) and index < len(parms) else parms
        if name in sf.BYTE_FILTERS:
            chain = sf.decode(chain, sf.BYTE_FILTERS[name], resolver.resolve(parm))
        elif name in sf.IMAGE_CODECS:
            codec = sf.IMAGE_CODECS[name]
            break
        elif name != "Crypt":
            return 0, 0  # a filter pdfium does not know: it decodes nothing
    declared = _declared(info, resolver) if info.get("Subtype") == "Image" else 0
    if codec is not None:
        head = _head(chain)
        frame = sf.jpeg_frame(head) if codec == "DCTDecode" else None
        if frame is not None:
            declared = max(declared, frame[0] * frame[1] * max(frame[2], 1))
        return len(head), declared
    if not filters:
        return (stream.stored if stream.stored is not None else 0), declared
    total = 0
    for piece in chain:
        total += len(piece)
        if total > limit:
            break
    return total, declared


def _chain(stream: Stream, resolver: _Resolver | _Decrypted) -> Iterator[bytes] | None:
    """A stream's decoded pieces through its byte filters; None where an image codec or a filter pdfium does not
    know ends the chain."""
    info = stream.info
    parms = resolver.resolve(info.get("DecodeParms", info.get("DP")))
    chain: Iterable[bytes] = stream.pieces
    for index, name in enumerate(str(resolver.resolve(f)) for f in sf.names(resolver.resolve(info.get("Filter")))):
        parm = parms[index] if isinstance(parms, list) and index < len(parms) else parms
        if name in sf.BYTE_FILTERS:
            chain = sf.decode(chain, sf.BYTE_FILTERS[name], resolver.resolve(parm))
        elif name != "Crypt":
            return None
    return iter(chain)


def _declared(info: dict[str, object], resolver: _Resolver | _Decrypted) -> int:
    """Bytes an image's dictionary declares decoded, at four components (what a colour space can ask)."""
    mask = resolver.resolve(info.get("ImageMask"))
    sizes = [resolver.resolve(info.get("Width")), resolver.resolve(info.get("Height")),
             1 if mask is True or mask == "true" else resolver.resolve(info.get("BitsPerComponent", 8))]
    if not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in sizes):
        return 0
    width, height, bits = (int(str(v)) for v in sizes)
    return width * height * 4 * min(bits, 16) // 8


def _head(chain: Iterable[bytes]) -> bytes:
    got = b""
    for piece in chain:
        got += piece[:_HEAD - len(got)]
        if len(got) >= _HEAD:
            break
    return got


# --------------------------------------------------------------------------- streams of a plain file


class _Resolver:
    """Indirect references of a plain file: the copy its cross-reference names (`crossrefs`: in its bytes or in an
    object stream), as pdfium reads it; where no readable cross-reference names one, the copy pdfium's rebuilt table
    takes (of the highest generation, of equal ones the last in the bytes), then its object streams (those of the
    object streams' copies so taken). A reference's generation (`5 1 R`) does not choose a copy: pdfium reads the
    one its table holds, whatever the generation the reference, the entry or the header gives."""

    def __init__(self, data: bytes | mmap.mmap, named: bool = True) -> None:
        """`named`: the copies the cross-reference names; False: the copies a table rebuilt from the bytes takes."""
        self.data = data
        self.starts: list[int] = []
        self.objects: dict[int, int] = {}
        self.numbers: dict[int, int] = {}  # an object's number by where its header ends
        generations: dict[int, int] = {}
        for match in _OBJ.finditer(data):
            at = match.start()
            if at == 0 or data[at - 1] not in _WHITE:
                continue  # a header ends in white space before `obj` (`_NUMBERS_BEFORE`): not `endobj`, half the matches
            header = _NUMBERS_BEFORE.search(data[max(0, at - 24):at])
            if header is not None:
                number, generation = int(header.group(1)), int(header.group(2))
                self.starts.append(match.end())
                self.numbers[match.end()] = number
                # pdfium's rebuilt table keeps a copy of a higher generation over a later one of a lower (a decoy of
                # generation 0 after the real copy of generation 1 was judged in its place).
                if generation >= generations.get(number, 0):
                    self.objects[number], generations[number] = match.end(), generation
        self._packed: Packed | None = None
        self.packed_in: dict[int, int] = {}  # the object stream a cross-reference names an object in
        self.free: set[int] = set()  # numbers a cross-reference names free: pdfium reads null
        self.names_other_copies = False  # whether the cross-reference names a copy other than the last in the bytes
        if named:
            self._name_copies()

    def _name_copies(self) -> None:
        """The copies the cross-reference names, in place of the last ones in the bytes. A named offset holding no
        header of its number is not taken (the last copy stays)."""
        named = crossrefs.read_crossrefs(self.data, self.resolve)
        if named is None:
            return
        for number, offset in named.plain.items():
            end = crossrefs.header_end(self.data, offset, number)
            if end is not None and self.numbers.get(end) == number and self.objects.get(number) != end:
                self.objects[number] = end
                self.names_other_copies = True
        self.packed_in = named.packed
        self.free = named.free
        self.names_other_copies |= any(number in self.objects for number in (*named.packed, *named.free))
        self._packed = None  # read while following the cross-reference's own references: read again by these copies

    def current(self, number: int | None, header: int | None) -> bool:
        """Whether the plain object whose header ends at `header` is the copy of `number` pdfium reads."""
        return number is None or (self.objects.get(number) == header and number not in self.packed_in
                                  and number not in self.free)

    @property
    def packed(self) -> Packed:
        """The objects of the file's object streams, read when first asked for (most files' references stand in their
        bytes, and their pages are only walked where forms draw): `unread` says why they could not all be read."""
        if self._packed is None:
            self._packed = Packed()  # what the object streams' own dictionaries refer to is read from the plain objects
            self._packed = read_packed(self.data, self.header_before, self.resolve,
                                       lambda header: self.current(self.numbers.get(header), header))
        return self._packed

    def unread(self) -> str | None:
        """Why the object streams, once asked for, were not all read: the file is refused then."""
        return self._packed.unread if self._packed is not None else None

    def resolve(self, value: object, depth: int = 0) -> object:
        if not isinstance(value, sf.Ref) or depth > 8:
            return value
        try:
            where = self._copy(value.number)
            if where is None:
                return None
            found, _ = sf.parse_object(*where)
        except (sf.ParseError, IndexError):
            return None
        return self.resolve(found, depth + 1)

    def _copy(self, number: int) -> tuple[bytes | mmap.mmap, int, int] | None:
        """(buffer, start, end) of the copy of object `number` pdfium reads, or None (free, or not in the file)."""
        if number in self.free:
            return None
        stream = self.packed_in.get(number)
        copy = self.objects.get(stream) if stream is not None else None  # the object stream's copy pdfium reads
        if copy is not None and number in self.packed.held.get(copy, {}):
            return self.packed.bytes_of(number, copy)
        at = self.objects.get(number)
        if at is not None:
            return self.data, at, min(len(self.data), at + 65536)
        if number in self.packed.where:
            return self.packed.bytes_of(number)
        return None

    def _may_be_page(self, number: int) -> bool:
        """Whether object `number` can resolve to a dictionary of /Type /Page, judged by its bytes before it is parsed
        (an object stream holds a file's fonts and resources by the thousand, its pages by the ten): only where they
        name `/Page`, give /Type by reference, hold a `#` (a name's escaped byte) or a comment, or start with a
        number (the object a reference, followed)."""
        where = self._copy(number)
        if where is None:
            return False
        return _NUMBER_FIRST.match(*where) is not None or _MAY_NAME_PAGE.search(*where) is not None

    def header_before(self, offset: int) -> int | None:
        index = bisect.bisect_right(self.starts, offset) - 1
        return self.starts[index] if index >= 0 else None

    def pages(self) -> Iterator[tuple[str, list[int], object]]:
        """(where, content stream numbers, resources) of each page object found in the file's bytes."""
        for match in _PAGE.finditer(self.data):
            header = self.header_before(match.start())
            if header is None:
                continue
            try:
                page, _ = sf.parse_object(self.data, header, min(len(self.data), header + 65536))
            except (sf.ParseError, IndexError):
                continue
            if not isinstance(page, dict) or self.resolve(page.get("Type")) != "Page":
                continue
            yield (f"object at byte {header}", _contents_numbers(page.get("Contents"), self.resolve),
                   _page_resources(page, self.resolve))
        for number in self.packed.numbers():
            if number in self.objects and number not in self.packed_in:
                continue  # its plain object is the one read
            if not self._may_be_page(number):
                continue
            page = self.resolve(sf.Ref(number, 0))
            if isinstance(page, dict) and self.resolve(page.get("Type")) == "Page":
                yield (f"object {number} in an object stream", _contents_numbers(page.get("Contents"), self.resolve),
                       _page_resources(page, self.resolve))


def _plain_streams(data: bytes | mmap.mmap, resolver: _Resolver) -> Generator[Stream, None, None]:
    view = memoryview(data)  # type: ignore[arg-type]
    past = 0
    for match in _STREAM.finditer(data):
        keyword, start = match.start(), match.end()
        if keyword < past or data[max(0, keyword - 3):keyword] == b"end":
            continue
        info = _dictionary_before(data, resolver, keyword)
        if info is None:
            head = bytes(view[start:start + 2])
            if len(head) == 2 and head[0] & 0x0F == 8 and not (head[0] << 8 | head[1]) % 31:
                info = {"Filter": sf.Name("FlateDecode")}  # a dictionary this reader cannot follow: read as zlib
            else:
                continue
        length = resolver.resolve(info.get("Length"))
        stored = length if isinstance(length, int) and 0 <= length <= len(data) - start else None
        if stored is not None and not _ENDSTREAM.match(data, start + stored):
            # A /Length that does not end at `endstream` is not taken: pdfium then reads to the keyword it finds, and
            # a short /Length would hide the bytes it decodes (here read to the file's end instead).
            stored = None
        end = start + stored if stored is not None else len(data)
        if stored is None and not info.get("Filter"):
            found = data.find(b"endstream", start)
            stored = (found if found >= 0 else len(data)) - start
        if stored is not None:
            past = start + stored
        header = resolver.header_before(keyword)
        number = resolver.numbers.get(header or -1)
        yield Stream(start, info, _pieces(view, start, end), stored, number, resolver.current(number, header))


def _dictionary_before(data: bytes | mmap.mmap, resolver: _Resolver, keyword: int) -> dict[str, object] | None:
    """The dictionary of the stream whose keyword is at `keyword`: the object opened last before it, read
    to its end, which must be the keyword (white space between)."""
    header = resolver.header_before(keyword)
    if header is None:
        return None
    try:
        found, after = sf.parse_object(data, header, keyword)
    except (sf.ParseError, IndexError):
        return None
    if not isinstance(found, dict) or data[after:keyword].strip(b" \t\r\n\f\x00"):
        return None
    return found


def _pieces(view: memoryview, start: int, end: int) -> Iterator[bytes]:
    for at in range(start, end, _INPUT):
        yield bytes(view[at:min(end, at + _INPUT)])


# --------------------------------------------------------------------------- streams of an encrypted file


class _Decrypted:
    """Values of an encrypted file, read and decrypted by pypdf: a stream's dictionary made plain one level deep,
    references below it kept as `sf.Ref` (a form's resources name its XObjects by reference) until resolved."""

    def __init__(self, reader: object) -> None:
        self.reader = reader

    def resolve(self, value: object, depth: int = 0) -> object:
        if not isinstance(value, sf.Ref) or depth > 8:
            return value
        try:
            found = self.reader.get_object(value.number)  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - an object pypdf cannot read is one pdfium cannot either
            return None
        return self.resolve(_plain(found), depth + 1)

    def pages(self) -> Iterator[tuple[str, list[int], object]]:
        """(where, content stream numbers, resources) of each page object of the file, each once (as the plain
        file's bytes are read: a page tree listing one page 100,000 times is not walked 100,000 times), its
        resources inherited from the page tree where it has none."""
        reader: Any = self.reader
        numbers = sorted({n for table in reader.xref.values() for n in table} | set(getattr(reader, "xref_objStm", {})))
        for number in numbers:
            page = self.resolve(sf.Ref(number, 0))
            if not isinstance(page, dict) or page.get("Type") != "Page":
                continue
            yield f"object {number}", _contents_numbers(page.get("Contents"), self.resolve), _page_resources(page, self.resolve)


def _encrypted_streams(path: Path) -> tuple[list[Stream], _Decrypted] | None:
    """Every stream of an encrypted file, decrypted by pypdf with the empty password, each with its object
    number; None where pypdf cannot read the file or the file needs a password (pdfium decides then)."""
    import pypdf
    from pypdf.generic import StreamObject

    try:
        reader = pypdf.PdfReader(str(path), strict=False)
        if reader.is_encrypted and not reader.decrypt(""):
            return None
        numbers = [(generation, number) for generation, table in reader.xref.items() for number in table]
    except Exception:  # noqa: BLE001 - pypdf's failures are many; pdfium decides then
        return None
    resolver = _Decrypted(reader)
    streams = []
    for generation, number in numbers:
        try:
            found = reader.get_object(pypdf.generic.IndirectObject(number, generation, reader))
            if isinstance(found, StreamObject):
                info = {str(k)[1:]: resolver.resolve(_plain(v)) for k, v in found.items() if str(k)[1:] in _KEYS}
                data = found._data  # noqa: SLF001 - the stored (decrypted, not decoded) bytes
                streams.append(Stream(reader.xref[generation][number], info, [bytes(data)], len(data), number))
        except Exception:  # noqa: BLE001, S112 - an object pypdf cannot read is one pdfium cannot either
            continue
    return streams, resolver


def _plain(value: object, depth: int = 0) -> object:
    """A pypdf object as this module's values: names as `sf.Name`, references as `sf.Ref` (not followed)."""
    from pypdf.generic import ArrayObject, BooleanObject, DictionaryObject, IndirectObject, NameObject

    if depth > 16:
        return None
    if isinstance(value, IndirectObject):
        return sf.Ref(value.idnum, value.generation)
    if isinstance(value, NameObject):
        return sf.Name(str(value)[1:])
    if isinstance(value, BooleanObject):
        return bool(value)
    if isinstance(value, DictionaryObject):
        return {str(k)[1:]: _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, ArrayObject):
        return [_plain(v, depth + 1) for v in value]
    return value
