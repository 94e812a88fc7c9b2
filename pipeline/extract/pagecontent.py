"""What a page's content streams ask of pdfium beyond their own bytes: inline images and XObject draws.

For `bombs`. An inline image (`BI <dictionary> ID <data> EI` inside a content stream) carries its own filter
chain (`/F /Fl`, `/AHx`, `/LZW`, chains of them) and declared size; pdfium undoes that chain when it parses the page
(a 750 KB inline image deflated from 768 MB added 1.47 GB to a process that only loaded the page, whatever size the
image declared), so the stream's own count says nothing about it. And `/Name Do` draws an XObject: a form drawn
ten times by a form drawn ten times, eight deep, is 10^7 objects from a 2 KB file (pdfium aborted the process),
and one image drawn 10,000 times is 10,000 figures to crop.

`scan` reads a content stream's decoded pieces once, holding at most a piece and a window: every inline image's
data is decoded through its own filters, counting, and every `Do` is counted by the name it draws. `page_draws`
expands those counts through the forms each page's resources name.
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from pipeline.extract import streamfilters as sf

WINDOW = 1024 * 1024  # bytes kept ahead of the scan: an inline image's dictionary must end within it
_REGULAR = rb"[^ \t\r\n\f\x00()<>\[\]{}/%]"
# Each searched by its literal first bytes (one pattern with both and a look-behind was 10 times slower).
_BI = re.compile(rb"BI(?!" + _REGULAR + rb")")
_DO = re.compile(rb"/(" + _REGULAR + rb"{1,1024})[ \t\r\n\f\x00]{0,64}Do(?!" + _REGULAR + rb")")
_DO_LONGEST = 1 + 1024 + 64 + 2 + 1
_ID = re.compile(rb"ID[ \t\r\n\f\x00]")
_HEX_NAME = re.compile(rb"#([0-9A-Fa-f]{2})")
# An inline image's abbreviated keys and their full names (ISO 32000 table 91).
_INLINE_KEYS = {"F": "Filter", "DP": "DecodeParms", "W": "Width", "H": "Height", "BPC": "BitsPerComponent",
                "IM": "ImageMask", "L": "Length"}


@dataclass
class Facts:
    """What one content stream holds: its decoded size, its inline images, the XObjects it draws by name."""
    size: int = 0
    inline: int = 0  # bytes its inline images decode to, in all
    largest: int = 0  # the most one inline image decodes to or declares
    draws: Counter[str] = field(default_factory=Counter)
    unread: str | None = None  # an inline image this reader could not follow to its data


def scan(pieces: Iterable[bytes], limit: int, declared: Callable[[dict[str, object]], int]) -> Facts:
    """The facts of a content stream whose decoded bytes are `pieces`, read until its size or one inline image
    passes `limit`. `declared` gives the bytes an image dictionary declares."""
    facts = Facts()
    source = iter(pieces)
    state = {"done": False}

    def pull() -> bytes | None:
        piece = next(source, None)
        if piece is None:
            state["done"] = True
            return None
        facts.size += len(piece)
        return piece

    buffer, at = b"", 0
    while facts.size <= limit and facts.largest <= limit:
        while not state["done"] and len(buffer) - at < 2 * WINDOW:
            piece = pull()
            if piece is None:
                break
            buffer, at = buffer[at:] + piece, 0
            if facts.size > limit:
                return facts
        horizon = len(buffer) if state["done"] else len(buffer) - WINDOW
        match = _BI.search(buffer, at)
        while match is not None and match.start() > 0 and not _delimits(buffer[match.start() - 1]):
            match = _BI.search(buffer, match.start() + 1)
        stop = horizon if match is None else min(match.start(), horizon)
        # The `Do`s that begin before `stop` (one is at most `_DO_LONGEST` bytes, so each ends within the search).
        for drawn in _DO.finditer(buffer, at, stop + _DO_LONGEST):
            if drawn.start() >= stop:
                break
            facts.draws[_HEX_NAME.sub(lambda m: bytes([int(m.group(1), 16)]), drawn.group(1)).decode("latin-1")] += 1
        if match is None or match.start() >= horizon:
            if state["done"]:
                break
            at = max(at, stop)
            continue
        opened = _inline_dictionary(buffer, match.end())
        if opened is None:
            at = match.end()
            continue
        info, data_at = opened
        if data_at is None:
            facts.unread = f"an inline image whose dictionary does not end within {WINDOW >> 20} MiB"
            facts.largest = limit + 1
            return facts
        consumed: list[bytes] = []

        def feed(first: bytes = buffer[data_at:], consumed: list[bytes] = consumed) -> Iterator[bytes]:
            yield first
            while facts.size <= limit:
                piece = pull()
                if piece is None:
                    return
                consumed[:] = [piece]
                yield piece

        size = _inline_size(info, feed(), limit, declared)
        facts.inline += size
        facts.largest = max(facts.largest, size)
        if consumed:  # the scan goes on in the last piece the image's data reached (its end is in it)
            buffer, at = consumed[0], 0
        else:
            at = data_at
    return facts


def _delimits(byte: int) -> bool:
    return byte in b" \t\r\n\f\x00()<>[]{}/%"


def _inline_dictionary(buffer: bytes, at: int) -> tuple[dict[str, object], int | None] | None:
    """(the inline image's dictionary, its full key names, where its data begins or None where `ID` is not
    within the window) after `BI` at `at`; None where the bytes are no dictionary."""
    info: dict[str, object] = {}
    end = min(len(buffer), at + WINDOW)
    while True:
        try:
            at = sf._skip(buffer, at, end)  # noqa: SLF001 - the object reader's own white space and comments
        except IndexError:
            return None
        if at >= end:
            return info, None
        if _ID.match(buffer, at):
            return info, at + 3
        try:
            key, at = sf.parse_object(buffer, at, end)
            value, at = sf.parse_object(buffer, at, end)
        except (sf.ParseError, IndexError):
            return None
        if not isinstance(key, sf.Name):
            return None
        info[_INLINE_KEYS.get(str(key), str(key))] = value


def _inline_size(info: dict[str, object], data: Iterator[bytes], limit: int,
                 declared: Callable[[dict[str, object]], int]) -> int:
    """What an inline image's data decodes to through its own filters (counted to past `limit`), or the bytes its
    dictionary declares where that is more."""
    filters = [_FULL.get(str(f), str(f)) for f in sf.names(info.get("Filter"))]
    parms = info.get("DecodeParms")
    chain: Iterable[bytes] = data
    size = 0
    coded = False
    for index, name in enumerate(filters):
        parm = parms[index] if isinstance(parms, list) and index < len(parms) else parms
        if name in sf.BYTE_FILTERS:
            chain = sf.decode(chain, sf.BYTE_FILTERS[name], parm)
            coded = True
        elif name in sf.IMAGE_CODECS:
            head = next(iter(chain), b"")
            frame = sf.jpeg_frame(head) if sf.IMAGE_CODECS[name] == "DCTDecode" else None
            if frame is not None:
                size = frame[0] * frame[1] * max(frame[2], 1)
            coded = False
            break
        else:
            return declared({**info, "Subtype": "Image"})  # a filter pdfium does not know: it decodes nothing
    if coded:
        for piece in chain:
            size += len(piece)
            if size > limit:
                break
    return max(size, declared({**info, "Subtype": "Image"}))


# Inline images may abbreviate filter names (ISO 32000 table 92); streamfilters knows both spellings.
_FULL = {"AHx": "ASCIIHexDecode", "A85": "ASCII85Decode", "LZW": "LZWDecode", "Fl": "FlateDecode",
         "RL": "RunLengthDecode", "CCF": "CCITTFaxDecode", "DCT": "DCTDecode"}


def page_draws(contents: list[int], resources: object, streams: dict[int, Facts], forms: dict[int, object],
               resolve: Callable[[object], object], bound: int) -> int:
    """The XObjects a page draws, each form's draws counted every time the form is drawn (stopping past `bound`).
    `contents` are the page's content streams by object number, `resources` its resources, `streams` each
    content stream's and form's facts, `forms` each form's own resources (None where it has none)."""
    memo: dict[tuple[int, int], int] = {}

    def drawn(facts: Facts, names: object, depth: int, visiting: frozenset[int]) -> int:
        total = 0
        table = resolve(names.get("XObject")) if isinstance(names, dict) else None
        for name, count in facts.draws.items():
            reference = table.get(name) if isinstance(table, dict) else None
            inner = 0
            if isinstance(reference, sf.Ref) and reference.number in forms and reference.number not in visiting \
                    and depth < 32:
                own = resolve(forms[reference.number])
                scope = own if isinstance(own, dict) else names
                key = (reference.number, id(scope))
                if key not in memo:
                    memo[key] = drawn(streams[reference.number], scope, depth + 1, visiting | {reference.number})
                inner = memo[key]
            total += count * (1 + inner)
            if total > bound:
                return total
        return total

    total = 0
    for number in contents:
        if number in streams:
            total += drawn(streams[number], resolve(resources), 0, frozenset())
            if total > bound:
                break
    return total
