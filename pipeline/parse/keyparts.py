"""Where an answer key's parts lie, and where its region starts and ends: by position, column then row.

Keys print their parts side by side and two by two ("Primera parte" over the left column, "Segunda parte"
over the right, "Tercera" and "Cuarta" under them), headings left-aligned or centred over their part. A
line belongs to the part whose heading stands lowest above it *in its column*; the columns of a page are
the horizontal spans of its headings (headings of one column overlap), parted at the widest gutter
between them, so entries set left of a centred heading, or in several sub-columns under it, stay in its
part. A column keeps its part across a page break; a column with no heading above a line continues the
part of the column before it in reading order.

The same reading order bounds the key. A line that ends something (`key.stop_at`, or `key.in_sheet`
where the booklet's questions end and its key begins) ends its own column and what follows it, never
the columns printed beside it on its row: on a header row of side-by-side columns ("GABARITO" |
"TABELA DE CORRESPONDÊNCIA") the stop ends only its own column, and a key printed beside the last
questions takes none of their lines.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from pipeline.extract import ExtractedDocument, Line, search_rule
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import LineReader, StreamLine, line_stream, same_row
from pipeline.patterns import spec_pattern
from pipeline.specs import SectionRule

COLUMN_SLACK = 12.0  # points a column's lines may start left of its heading when no gutter parts the columns


# --------------------------------------------------------------------------- parts


@dataclass(eq=False)
class KeyPart:
    """One part of a key: the prefix its numbers get, the top-level prefix it lies in (for nested parts),
    and the heading that opened it (None: the part before any heading)."""

    prefix: str
    top: str
    heading: StreamLine | None = None

    def describe(self) -> str:
        where = f"heading {self.heading.text!r}, page {self.heading.page}" if self.heading else "before any heading"
        return f"key part {self.prefix or '(no prefix)'} ({where})"


@dataclass(frozen=True)
class Placed:
    """A key line with the part it belongs to and its column on its page (0 = leftmost); `opens` is
    set on a heading line (the part it opens)."""

    line: StreamLine
    part: KeyPart
    column: int
    opens: KeyPart | None = None


def _heading_rule(item: StreamLine, text: str, sections: list[SectionRule]) -> SectionRule | None:
    # A heading OCR misread ("Preauntas de reserva") still opens its section.
    return next((r for r in sections if r.start and search_rule(r.start, text, ocr=item.ocr)[0]), None)


def _spans(headings: list[StreamLine]) -> list[list[float]]:
    """The headings' horizontal spans, overlapping ones merged, left to right: one per column."""
    spans: list[list[float]] = []
    for item in sorted(headings, key=lambda h: h.line.x0):
        if spans and item.line.x0 <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], item.line.x1)
        else:
            spans.append([item.line.x0, item.line.x1])
    return spans


def _boundaries(spans: list[list[float]], lines: list[StreamLine]) -> list[float]:
    """Where each column after the first starts: the middle of the widest gutter (x-range no line of the
    page crosses) between two columns' centres, or, with no gutter, a little left of the right column."""
    result = []
    for (a0, a1), (b0, b1) in zip(spans, spans[1:]):
        gutter = widest_gap(lines, (a0 + a1) / 2, (b0 + b1) / 2)
        result.append(gutter if gutter is not None else b0 - COLUMN_SLACK)
    return result


def widest_gap(lines: list[StreamLine], low: float, high: float, min_width: float = 0.0) -> float | None:
    """The middle of the widest x-range in (low, high) that no line crosses (at least `min_width` wide),
    or None. Lines spanning the whole range (a title across both columns) do not close it."""
    covered = sorted(
        (max(sl.line.x0, low), min(sl.line.x1, high)) for sl in lines
        if sl.line.x1 > low and sl.line.x0 < high and not (sl.line.x0 <= low and sl.line.x1 >= high)
    )
    gaps, edge = [], low
    for start, end in covered:
        if start > edge:
            gaps.append((start - edge, (start + edge) / 2))
        edge = max(edge, end)
    if high > edge:
        gaps.append((high - edge, (high + edge) / 2))
    gaps = [gap for gap in gaps if gap[0] >= min_width]
    return max(gaps)[1] if gaps else None


def _column(x0: float, boundaries: list[float]) -> int:
    return sum(1 for b in boundaries if x0 >= b)


def place_parts(stream: list[StreamLine], sections: list[SectionRule], texts: dict[int, str]) -> list[Placed]:
    """Every line of a key's stream with its part and column (see the module docstring). `texts`: the
    text each line's heading rules are matched on, by id of the stream line."""
    first = sections[0] if sections and sections[0].start is None else None  # the part before any heading
    last = KeyPart(first.prefix, first.prefix) if first else KeyPart("", "")  # the last part in reading order
    carried: list[tuple[list[float], KeyPart]] = []  # the columns of the page before, each with its last part
    placed: list[Placed] = []
    for page_lines in _by_page(stream):
        rules = {id(sl): rule for sl in page_lines if (rule := _heading_rule(sl, texts[id(sl)], sections)) is not None}
        spans = _spans([sl for sl in page_lines if id(sl) in rules])
        spans += [list(span) for span, _ in carried if not any(span[0] <= s[1] and s[0] <= span[1] for s in spans)]
        spans = sorted(spans) or [[float("-inf"), float("inf")]]
        bounds = _boundaries(spans, page_lines)
        columns = {id(sl): _column(sl.line.x0, bounds) for sl in page_lines}
        parts: dict[int, KeyPart] = {}
        ends: list[tuple[list[float], KeyPart]] = []
        for index, span in enumerate(spans):
            # The column's part at its top: carried from the page before, else where the column before ends.
            here = next((part for old, part in carried if old[0] <= span[1] and span[0] <= old[1]), None)
            current = here or (ends[-1][1] if ends else last)
            mine = [sl for sl in page_lines if columns[id(sl)] == index]
            opened: list[tuple[float, KeyPart]] = []  # (top, part) of the column's headings, top down
            for sl in sorted((sl for sl in mine if id(sl) in rules), key=lambda h: h.line.top):
                above = next((p for top, p in reversed(opened) if top <= sl.line.top), current)
                rule = rules[id(sl)]
                top = above.top if rule.nested else rule.prefix
                part = KeyPart(top + rule.prefix if rule.nested else rule.prefix, top, sl)
                opened.append((sl.line.top, part))
                parts[id(sl)] = part
            for sl in mine:
                if id(sl) not in parts:
                    middle = (sl.line.top + sl.line.bottom) / 2
                    parts[id(sl)] = next((p for top, p in reversed(opened) if top <= middle), current)
            ends.append((span, opened[-1][1] if opened else current))
        carried, last = ends, ends[-1][1]
        for sl in page_lines:
            part = parts[id(sl)]
            placed.append(Placed(sl, part, columns[id(sl)], part if part.heading is sl else None))
    return placed


def _by_page(stream: list[StreamLine]) -> list[list[StreamLine]]:
    pages: list[list[StreamLine]] = []
    for sl in stream:
        if pages and pages[-1][0].page == sl.page:
            pages[-1].append(sl)
        else:
            pages.append([sl])
    return pages


# --------------------------------------------------------------------------- region


@dataclass(frozen=True)
class Cut:
    """Where a stop line ends a stream: its index in the stream and, when other columns stand beside it
    on its row, the x where its column starts (`boundary`) and ends (`end`): the lines after it wholly
    left or right of its column are not ended."""

    index: int
    boundary: float | None
    at: int = 0  # where the match starts in the stop line's text: text before it heads the column beside
    end: float | None = None


def find_cut(document: ExtractedDocument, stream: list[StreamLine], patterns: list[str],
             labels: list[str] | None = None, *, reader: LineReader) -> Cut | None:
    """The line of `stream` (the document's `line_stream`, read by `reader`) at which `line_stream` stops
    for `patterns`, and the column it ends."""
    if not patterns:
        return None
    index = len(line_stream(document, patterns, labels=labels, reader=reader))
    if index >= len(stream):
        return None
    item = stream[index]
    match = next((m for p in patterns if (m := spec_pattern(p).search(item.text))), None)
    at = match.start() if match and item.text[: match.start()].strip() else 0
    row = [sl for sl in stream if sl is not item and same_row(sl, item)]
    lefts = [sl.line.x1 for sl in row if sl.line.x1 <= item.line.x0]
    rights = [sl.line.x0 for sl in row if sl.line.x0 >= item.line.x1]
    # The stop's column lies between the gutters to the columns beside it, from the stop's row down.
    below = [sl for sl in stream[index + 1:] if sl.page == item.page]
    boundary = None
    if at:  # the row's cells in one line: the match's place estimated from its share of the characters
        estimate = item.line.x0 + (item.line.x1 - item.line.x0) * at / len(item.text)
        low, high = (item.line.x0 + estimate) / 2, estimate + COLUMN_SLACK
        boundary = widest_gap(below, low, high)
        boundary = boundary if boundary is not None else (low + high) / 2
    elif lefts:
        boundary = widest_gap(below, max(lefts), item.line.x0)
        boundary = boundary if boundary is not None else (max(lefts) + item.line.x0) / 2
    # A column heading on its right counts only across a real gutter (a page number on the row does not).
    end = widest_gap(below, (item.line.x0 + item.line.x1) / 2, min(rights), COLUMN_SLACK) if rights else None
    return Cut(index, boundary, at, end)


def beside(cut: Cut, stream: list[StreamLine], item: StreamLine) -> bool:
    """Whether `item`, after the stop line in the stream, stands wholly in a column beside the stop's
    column (left or right of it) on the stop's page: it was printed beside what the stop ends, not after it."""
    stop = stream[cut.index]
    if item.page != stop.page:
        return False
    return (cut.boundary is not None and item.line.x1 <= cut.boundary) or (cut.end is not None and item.line.x0 >= cut.end)


def _split_line(item: StreamLine, cut: Cut, right: bool) -> StreamLine:
    """The stop line's text left of the match (`right` False) or from it on, as a line of its own."""
    assert cut.boundary is not None
    text = item.text[cut.at:].strip() if right else item.text[: cut.at].strip()
    edges = {"x0": cut.boundary} if right else {"x1": cut.boundary}
    return replace(item, line=replace(item.line, text=text, **edges))


def before_cut(stream: list[StreamLine], cut: Cut | None) -> list[StreamLine]:
    """The stream up to the stop line, and the lines printed beside its column (see `beside`)."""
    if cut is None:
        return stream
    kept = stream[: cut.index] + ([_split_line(stream[cut.index], cut, right=False)] if cut.at else [])
    return kept + [sl for sl in stream[cut.index + 1:] if beside(cut, stream, sl)]


def key_stream(document: ExtractedDocument, stop_at: list[str], recovery: Recovery | None = None) -> list[StreamLine]:
    """A key document's lines in reading order up to `stop_at` (which ends only its own column); OCR'd
    lines as `recovery`'s line passes read them (every one when not given)."""
    reader = (recovery or Recovery.every()).line_reader(None)
    stream = line_stream(document, reader=reader)
    return before_cut(stream, find_cut(document, stream, list(stop_at), reader=reader))


def split_booklet(
    sheet: ExtractedDocument, layout_stops: list[str], key_start: str | None, labels: list[str] | None,
    recovery: Recovery | None = None,
) -> tuple[list[StreamLine], ExtractedDocument | None]:
    """(the sheet's stream, the key printed inside it as a document of its own, or None). The key starts
    at the first line of a parsed page that `key_start` (`key.in_sheet`) matches and runs to the end (its
    own `stop_at` ends it there); lines printed beside its column on that row and below stay the
    sheet's (the last questions beside the key). `layout_stops` end the sheet's stream as usual. OCR'd
    lines are read by `recovery`'s line passes (every one when not given)."""
    reader = (recovery or Recovery.every()).line_reader(labels)
    stream = line_stream(sheet, labels=labels, reader=reader)
    layout_cut = find_cut(sheet, stream, list(layout_stops), labels, reader=reader)
    key_cut = find_cut(sheet, stream, [key_start], labels, reader=reader) if key_start else None
    if key_cut is None or (layout_cut is not None and layout_cut.index < key_cut.index):
        return (stream[: layout_cut.index] if layout_cut else stream), (_key_document(sheet, stream, key_cut) if key_cut else None)
    sheet_stream = before_cut(stream, key_cut)
    if layout_cut is not None and layout_cut.index > key_cut.index:  # a stop line among the questions beside the key
        stop = stream[layout_cut.index]
        sheet_stream = [sl for sl in sheet_stream if not (sl.page == stop.page and sl.line.top >= stop.line.top)]
    return sheet_stream, _key_document(sheet, stream, key_cut)


def _key_document(sheet: ExtractedDocument, stream: list[StreamLine], cut: Cut) -> ExtractedDocument:
    """The booklet's key as a document: its first page holds the lines from the key's first line on that
    are beside its column (the document's own lines, as extracted), the pages after it all theirs."""
    start = stream[cut.index]
    keep = {_place(sl.line) for sl in stream[cut.index:] if sl.page == start.page and not beside(cut, stream, sl)}
    pages = []
    for page in sheet.pages:
        if page.number < start.page:
            continue
        if page.number == start.page:
            lines = [line for line in page.lines if _place(line) in keep]
            if cut.at:  # the key's heading shares its line with the column beside it: only the heading
                lines = [_split_line(start, cut, right=True).line if _place(line) == _place(start.line) else line
                         for line in lines]
            page = replace(page, lines=lines)
        pages.append(page)
    return replace(sheet, pages=pages, page_count=len(pages))


def _place(line: Line) -> tuple[float, float, float]:
    return round(line.x0, 2), round(line.top, 2), round(line.x1, 2)
