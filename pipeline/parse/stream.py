"""A document as one stream of lines across pages, with the rows they sit on."""
from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import lru_cache

from pipeline.extract import ExtractedDocument, Line, PageMethod
from pipeline.parse.labels import enclosed_labels, plain_enclosed
from pipeline.patterns import AnyPattern

PLAIN_TEXTS_KEPT = 8192  # `plain_text` results kept: a long sheet's lines, a few times over

# Answer blanks and leaders: nothing a reader needs.
_BLANK = re.compile(r"^[\s.…_·]+$")


@dataclass(frozen=True)
class StreamLine:
    page: int  # 1-based
    line: Line
    ocr: bool = False  # read by OCR
    fold_digits: bool = False  # its numbers are read with letter look-alikes as digits ("3.l", "(I pkt)")
    # The line's text, read once when the stream line is made (parse's rules read it hundreds of thousands of
    # times a sheet set; an attribute, not a property). Every `replace` makes a new one, so it is set anew; a
    # `Line` is not changed in place once a stream holds it (a changed text is `replace(line, text=…)`).
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "text", self.line.text)


# What parse's `Point.OCR_LINE` passes make of an OCR'd line's text (`recovery.Recovery.line_reader`): its
# text repaired, and whether its numbers are read with letter look-alikes as digits.
LineReader = Callable[[str], tuple[str, bool]]


def line_stream(
    document: ExtractedDocument, stop_at: list[str] = (), include_dropped: bool = False, labels: list[str] | None = None,
    *, reader: LineReader,
) -> list[StreamLine]:
    """Lines of the parsed pages in reading order; OCR'd lines as `reader` reads them. Enclosed letters and
    digits read as the plain ones, except the spec's own enclosed labels (①), kept as printed.

    `reader` is required, with no default: it is parse's OCR line passes as the sheet's spec leaves them
    (`recovery_for(spec.ocr.passes.disable).line_reader(labels)`), and a stream read without them would
    silently lose every repair of an OCR'd line (a question number's look-alike digits, a glued label) while
    reading text-layer sheets alike. A caller names the passes it reads with, even `Recovery.every()`.

    Inside `streams_kept` (one sheet's parse) a document's stream is read once and kept (`_KeptStreams`):
    the stream `stop_at` ends is the part of it before the first line (as `reader` read it) a stop matches."""
    stops = AnyPattern(list(stop_at)) if stop_at else None  # one bounded search a line for all of them
    keep = enclosed_labels(labels)
    kept: _KeptStreams | None = getattr(_kept, "streams", None)
    if kept is None:
        return _read_stream(document, include_dropped, keep, reader, stops).lines
    read = kept.read(document, include_dropped, keep, reader)
    if stops is None:
        return list(read.lines)
    for text, before in read.texts:
        if stops.found_in(text):
            return read.lines[:before]
    return list(read.lines)


@dataclass(frozen=True)
class _Read:
    """A document's stream (`lines`), each of its lines' texts as `reader` read them with the stream's length
    before it (`texts`: where a stop on that line would end the stream), and whether `reader` was asked at all."""

    lines: list[StreamLine]
    texts: list[tuple[str, int]]
    asked_reader: bool


def _read_stream(document: ExtractedDocument, include_dropped: bool, keep: frozenset[str], reader: LineReader,
                 stops: AnyPattern | None) -> _Read:
    stream: list[StreamLine] = []
    texts: list[tuple[str, int]] = []
    asked = False
    for page in document.pages:
        if page.dropped_reason and not include_dropped:
            continue
        ocr_page = page.method is PageMethod.OCR
        number = page.number
        for line in page.lines:
            read = ocr_page or line.ocr  # a text page's line OCR read in place is an OCR'd line too
            fold = False
            printed = line.text
            if read:
                asked = True
                repaired, fold = reader(printed)
                if repaired != printed:
                    line, printed = replace(line, text=repaired), repaired
            if stops is not None and stops.found_in(printed):
                return _Read(stream, texts, asked)
            texts.append((printed, len(stream)))
            text = _stream_text(printed, keep)
            if text is None:
                continue
            stream.append(StreamLine(number, line if text == printed else replace(line, text=text), read, fold))
    return _Read(stream, texts, asked)


class _KeptStreams:
    """The streams read during one sheet's parse: the sheet's is read by the booklet split, by each stop's cut and by
    the stop report; a key's by its reader and its stop's cut. Kept per document (held, so its id stays its own),
    dropped lines in or not, and the spec's enclosed labels kept as printed; a stream `reader` was asked for (an
    OCR'd line in it) is another reader's only when it is the same reader."""

    def __init__(self) -> None:
        self._found: dict[tuple[int, bool, frozenset[str]], list[tuple[ExtractedDocument, LineReader, _Read]]] = {}

    def read(self, document: ExtractedDocument, include_dropped: bool, keep: frozenset[str], reader: LineReader) -> _Read:
        found = self._found.setdefault((id(document), include_dropped, keep), [])
        for held, by, read in found:
            if held is document and (by is reader or not read.asked_reader):
                return read
        read = _read_stream(document, include_dropped, keep, reader, None)
        found.append((document, reader, read))
        return read


_kept = threading.local()  # `streams_kept`'s streams, per thread


@contextmanager
def streams_kept() -> Iterator[None]:
    """Every `line_stream` in this thread inside it reads a document's stream once (one sheet's parse: its documents
    are not changed while it runs)."""
    previous = getattr(_kept, "streams", None)
    _kept.streams = _KeptStreams()
    try:
        yield
    finally:
        _kept.streams = previous


@lru_cache(maxsize=PLAIN_TEXTS_KEPT)
def _stream_text(text: str, keep: frozenset[str]) -> str | None:
    """A line's text as the stream holds it (None: a blank or leader line, left out). Kept per text: a
    sheet's stream is read several times over (the sheet, its key's cut, the losses report)."""
    if _BLANK.match(text):
        return None
    return unmark_prefix(plain_enclosed(text, keep))


_BOLD_PREFIX = re.compile(r"^\*\*(?P<inner>[^*]{1,16}?)\*\*\s*")
# A bold run that opens the line and goes on past its first token ("**108. Stem…**", "**A. text**").
_BOLD_LEAD = re.compile(r"^\*\*(?P<lead>[^*\s]{1,16})\s+(?=[^*\s])")


def unmark_prefix(text: str) -> str:
    """'**01** Ktoré…' -> '01 Ktoré…', '**A. text**' -> 'A. **text**': a bold question number or option
    label is layout, not emphasis; the emphasis of the text after it is kept."""
    if not text.startswith("**"):  # both patterns open with the bold mark: most lines are answered here
        return text
    match = _BOLD_PREFIX.match(text)
    if match:
        rest = text[match.end():]
        return match.group("inner") + (" " + rest if rest else "")
    lead = _BOLD_LEAD.match(text)
    if lead and "**" in text[lead.end():]:
        return f"{lead.group('lead')} **{text[lead.end():]}"
    return text


@lru_cache(maxsize=PLAIN_TEXTS_KEPT)
def plain_text(text: str) -> tuple[str, Sequence[int]]:
    """`text` as patterns see it: bold marks removed, each run of whitespace (tab, no-break or wide
    spaces) one space. Also the position in `text` of each plain character, and len(text) at the end,
    so a match on the plain text can be cut from the marked one (`marked_rest`).

    Kept for the last texts asked (parse's rules ask it of each line several times, once per rule); a
    tuple (a range where each character stays where it is), so no caller can change what the next one is handed."""
    if "**" not in text and not _IRREGULAR_SPACE.search(text):  # most lines: already plain
        if not _NUMBER_APART.match(text):  # and no number set apart from its mark: each character where it is
            return text, range(len(text) + 1)
        return _number_together(text, list(range(len(text) + 1)))
    chars: list[str] = []
    positions: list[int] = []
    index = 0
    while index < len(text):
        if text.startswith("**", index):
            index += 2
            continue
        ch = text[index]
        if ch.isspace():
            if not chars or chars[-1] != " ":
                chars.append(" ")
                positions.append(index)
        else:
            chars.append(ch)
            positions.append(index)
        index += 1
    positions.append(len(text))
    return _number_together("".join(chars), positions)


# What `plain_text` changes besides bold marks: a whitespace character other than a space, or two in a row
# (re's \s is str.isspace's set).
_IRREGULAR_SPACE = re.compile(r"[^\S ]|\s\s")


def _number_together(plain: str, positions: list[int]) -> tuple[str, tuple[int, ...]]:
    apart = _NUMBER_APART.match(plain)
    if apart:  # "15 . ¿Cuál…": a number set larger than its ". Stem" reads as "15. ¿Cuál…"
        cut = apart.end("number")
        plain = plain[:cut] + plain[cut + 1:]
        del positions[cut]
    return plain, tuple(positions)


_NUMBER_APART = re.compile(r"^(?P<number>\d{1,3}) [.):](?= |$)")


def marked_rest(text: str, plain_end: int) -> str:
    """The marked text after the first `plain_end` plain characters, its bold marks balanced: a cut
    inside a bold run reopens it."""
    start = plain_text(text)[1][plain_end]
    rest = text[start:].strip()
    if text[:start].count("**") % 2 and rest:
        rest = "**" + rest.lstrip("* ").lstrip() if not rest.startswith("**") else rest[2:].lstrip()
    return "" if rest.strip("* ") == "" else rest


# A letter and a hyphen: asked of the joined text's last two characters only (each part is stripped, so the text
# never ends in a newline and `$` is its end). A search from the start of the text so far, at every part, was
# two-thirds of the joins' time on the corpus's options.
_LINE_END_HYPHEN = re.compile(r"[^\W\d_]-$")


def join_wrapped(parts: list[str]) -> str:
    """Wrapped lines as one text: a space between lines, none after a word that ends its line with a
    hyphen ("operar-" + "se-á" is "operar-se-á"; the printed hyphen is kept, as it may be a real one)."""
    text = ""
    for part in (p.strip() for p in parts):
        if not part:
            continue
        text += part if not text or _LINE_END_HYPHEN.search(text, len(text) - 2) else " " + part
    return text


def same_row(a: StreamLine, b: StreamLine) -> bool:
    if a.page != b.page:
        return False
    overlap = min(a.line.bottom, b.line.bottom) - max(a.line.top, b.line.top)
    return overlap > 0.5 * min(a.line.bottom - a.line.top, b.line.bottom - b.line.top)


def rows(stream: list[StreamLine]) -> list[list[StreamLine]]:
    """Consecutive lines sharing a row, left to right."""
    result: list[list[StreamLine]] = []
    for item in stream:
        if result and same_row(result[-1][0], item):
            result[-1].append(item)
        else:
            result.append([item])
    return [sorted(row, key=lambda s: s.line.x0) for row in result]


def document_text(document: ExtractedDocument) -> str:
    return "\n".join(line.text for page in document.pages for line in page.lines)


# A token of digits with a letter look-alike inside ("3.l", "1O", "2I") or a lone I/l/| between spaces or
# brackets ("(I pkt)"): Tesseract's reading of a number.
_NUMBER_TOKEN = re.compile(r"(?<![^\W\d_])(?:[0-9IlO|.,]*[0-9][0-9IlO|.,]*|[Il|])(?![^\W\d_])")
# Letters a digit's shape is read as, in the scripts we read: Latin I, l, |, O; Greek Ι, Ο; Cyrillic І, О.
_DIGIT_LOOKALIKES = str.maketrans({"I": "1", "l": "1", "|": "1", "O": "0", "\u0399": "1", "\u039f": "0", "\u0406": "1", "\u041e": "0"})


# A number after its part's letter at a line's start ("Α1.", "B12)"), its digits read as the letters they look
# like: "ΑΙ." (Greek capital iota), "ΔΙ.", "BI2.": a one-character part and look-alikes (`_DIGIT_LOOKALIKES`) up to
# the mark after them. Glyph shapes, not words; tried only
# where the line does not match as read, so a heading "ΟΙ ..." (no mark) or a word stays as it is.
_PART_NUMBER = re.compile(r"^(\S)([0-9IlO|\u0399\u039f\u0406\u041e]*[IlO|\u0399\u039f\u0406\u041e][0-9IlO|\u0399\u039f\u0406\u041e]*)(?=[.)])")


def _fold_part_number(text: str) -> str:
    """`text` with the look-alike digits of a part-lettered number at its start read as digits, character for
    character (offsets hold)."""
    found = _PART_NUMBER.match(text)
    if found is None:
        return text
    return text[:found.start(2)] + found.group(2).translate(_DIGIT_LOOKALIKES) + text[found.end(2):]


# An em dash between digits is an en dash Tesseract read too long: ranges ("(0–1)") take the en dash.
_RANGE_DASH = re.compile(r"(?<=\d)\s?—\s?(?=\d)")


def fold_ocr_digits(text: str) -> str:
    """`text` with letter look-alikes inside number tokens read as digits and an em dash between digits
    as an en dash, character for character (so match offsets stay valid on the original text). Words are
    left alone: "Ola" and "Il" keep their letters."""
    text = _NUMBER_TOKEN.sub(lambda m: m.group(0).translate(_DIGIT_LOOKALIKES), text)
    return _RANGE_DASH.sub(lambda m: m.group(0).replace("—", "–"), text)


_TRAILING_SPECK = re.compile(r"\s+\S{1,2}\s*$")
# A closing bracket, brace or bang glued to a line's last digit: the right edge of the box or banner the number is
# printed in, read into the number's token ("Questão 2]"). Bars and "l" fold to digits instead (`blocks.edge_stroke_read`).
_GLUED_EDGE = re.compile(r"(?<=\d)[\]\[{}!]\s*$")


def match_number_line(pattern: re.Pattern, item: StreamLine) -> re.Match | None:
    """`pattern.match` on the line's plain text (`plain_text`: no bold marks, whitespace as one space;
    cut the rest with `rest_after`); on a line whose numbers fold look-alikes (`fold_digits`, the
    `number-lookalikes` pass), on its digit-folded text (same length, so offsets hold), since "Zadanie 3.l."
    would otherwise match as task 3. An OCR'd line that still does not match
    is tried once more without a trailing token of one or two characters: a margin icon or speck read
    into the header's row ("Zadanie 4. (0-1) F)"), and without a bracket glued to its last digit: the
    edge of the box the number is printed in ("Questão 2]").

    Kept per pattern and text: parse's passes try the numbering on most lines several times over."""
    return _number_line_match(pattern, item.text, item.ocr, item.fold_digits)


def match_text_as(pattern: re.Pattern, text: str, like: StreamLine) -> re.Match | None:
    """`match_number_line` of a line with `text` read as `like` is (OCR'd or not, its numbers folded or not),
    without making that line: a join asked before it is built."""
    return _number_line_match(pattern, text, like.ocr, like.fold_digits)


@lru_cache(maxsize=PLAIN_TEXTS_KEPT)
def _number_line_match(pattern: re.Pattern, marked: str, ocr: bool, fold: bool) -> re.Match | None:
    text = plain_text(marked)[0]
    if not ocr:
        return pattern.match(text)
    folded = fold_ocr_digits(text) if fold else text
    found = pattern.match(folded)
    if found is None and fold:
        found = pattern.match(_fold_part_number(folded))
    if found is None:
        speck = _TRAILING_SPECK.search(folded)
        if speck and speck.start() > 0:
            found = pattern.match(folded[: speck.start()])
    if found is None and (edge := _GLUED_EDGE.search(folded)):
        found = pattern.match(folded[: edge.start()])
    return found


def variant_names(header_re: re.Pattern, row: list[StreamLine]) -> list[str]:
    """The variants (booklet types, models) a key's header row names (`key.variant_header`'s `variant` group),
    matched on the row's plain text; on a row whose numbers fold look-alikes (`number-lookalikes`) and that
    names none as read, on its digit-folded text: a scan's "TIPO l – BRANCO" names booklet type 1."""
    text = " ".join(plain_text(sl.text)[0] for sl in row)
    found = [m.group("variant") for m in header_re.finditer(text)]
    if not found and any(sl.fold_digits for sl in row):
        found = [m.group("variant") for m in header_re.finditer(fold_ocr_digits(text))]
    if any(sl.ocr for sl in row):
        joined = _names_across_split_words(header_re, text)
        if len(joined) > len(found):
            found = joined
    return found


def _names_across_split_words(header_re: re.Pattern, text: str) -> list[str]:
    """The variants `header_re` names in an OCR row's `text` read with its word spaces taken out, where a match begins
    and ends at the row's word edges: a scan splits a header's word at a wide letter gap ("ТИ П А" for "ТИП А" in a
    serif face at 195 dpi), and the row named no booklet type, so its block's answers went to the type above it or to
    none. A match that begins or ends inside a word joins words the row never printed together: not taken."""
    words = text.split()
    starts, ends, at = set(), set(), 0
    for word in words:
        starts.add(at)
        at += len(word)
        ends.add(at)
    return [m.group("variant") for m in header_re.finditer("".join(words)) if m.start() in starts and m.end() in ends]


def names_variant(header_re: re.Pattern, item: StreamLine) -> bool:
    """Whether the line names a variant (`variant_names` of the line alone)."""
    return bool(variant_names(header_re, [item]))


def rest_after(item: StreamLine, match: re.Match) -> str:
    """The line's (marked) text after a `match_number_line` match."""
    return marked_rest(item.text, match.end())
