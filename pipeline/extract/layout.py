"""Page geometry to reading order: glyph boxes become words, rows, segments and columns.

Works on positioned glyphs only (no PDF library here), so the same assembly serves the text layer and
anything else that yields boxes. Coordinates are PDF points, origin top-left.

Reading order is decided by geometry, never by the order glyphs were stored in the content stream:
 - glyphs whose vertical extents overlap form a row; a row sorted by x, with spaces where gaps open;
 - a row splits into segments at wide gaps (tables, 2x2 option grids, "statement ... P F" lines);
 - a band of rows that all leave one vertical gutter free, tall enough and with enough text on both
   sides, is a two-column layout and is read left column first. Short grids (answer options side by
   side) stay row by row: the parser pairs grid options by label and column, which keeps tables intact.
"""
from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter

from pipeline.extract.document import Line


@dataclass(frozen=True)
class LayoutParams:
    word_gap: float = 0.18  # a gap wider than this many font sizes is a space
    segment_gap: float = 1.6  # a gap wider than this many font sizes splits a row into segments
    min_column_rows: int = 6  # a two-column band needs at least this many rows
    min_column_fill: float = 0.25  # each column's text covers at least this share of the band width
    min_gutter: float = 9.0  # points of free space between two columns
    min_column_height: float = 0.3  # a two-column band spans at least this share of the page height


@dataclass(slots=True)
class Glyph:
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    highlighted: bool = False
    seq: int = 0  # position in the content stream
    space_after: bool = False  # the content stream has a space (real or generated) after this glyph
    bold: bool = False  # a bold font, or the same glyph printed twice (simulated bold)
    run: object = None  # OCR: the Tesseract line that read this word (None on the text layer)
    # Text layer: the font gives no Unicode for this glyph (or only a private-use point); its text is a
    # stand-in until OCR reads the span it stands in (`pipeline.extract.inked.unmapped_spans`).
    unmapped: bool = False
    conf: float | None = None  # OCR: Tesseract's confidence in the word, 0–100 (None on the text layer)
    second: str | None = None  # OCR: what the second recogniser read there (None: not read again; `ocr.agreement`)

    @property
    def center_y(self) -> float:
        return (self.top + self.bottom) / 2


# Segment sizes (glyph box heights): a gap inside a segment wider than this is more than a word space (0.17 of the
# box in Noto Sans CJK, 0.27 in DejaVu Sans; two spaces 0.36 and 0.55): cells of
# a row set a few spaces apart (options side by side), recorded on the Line for the parser to split at.
WIDE_GAP = 0.33
WIDE_SPREAD = 1.5  # times the line's median word space
WORD_SPACE_MIN = 0.1  # segment sizes: a narrower gap is kerning or a glyph's side bearing, no space


@dataclass
class Segment:
    """A run of text on one row with no wide gap inside: one Line of the extracted document."""

    glyphs: list[Glyph]
    text: str = ""
    x0: float = 0.0
    top: float = 0.0
    x1: float = 0.0
    bottom: float = 0.0
    size: float = 0.0
    highlighted: bool = False
    bold: bool = False  # every glyph bold (a heading); partly bold runs are marked **like this** in text

    def to_line(self, text: str, *, highlighted: bool, font_size: float, bold: bool = False) -> Line:
        """The document Line at this segment's place (coordinates rounded to 0.01 pt)."""
        return Line(
            text=text,
            x0=round(self.x0, 2),
            top=round(self.top, 2),
            x1=round(self.x1, 2),
            bottom=round(self.bottom, 2),
            highlighted=highlighted,
            font_size=font_size,
            bold=bold,
            wide_gap_starts=self.wide_gap_starts(),
        )

    def wide_gap_starts(self) -> list[float]:
        """Where words start after a gap wider than this line's own word spaces (`WIDE_SPREAD` times their
        median) and than `WIDE_GAP`: the cells of a row kept as one segment. A justified line stretches all
        its spaces alike and records none."""
        ordered = sorted(self.glyphs, key=_X0)
        size = self.size or 1.0
        gaps = [(glyph.x0 - previous.x1, glyph.x0) for previous, glyph in zip(ordered, ordered[1:])]
        spaces = [gap for gap, _ in gaps if gap > WORD_SPACE_MIN * size]
        if not spaces:
            return []
        usual = statistics.median(spaces)
        return [round(x, 2) for gap, x in gaps if gap > WIDE_GAP * size and gap > WIDE_SPREAD * usual]


@dataclass
class Row:
    glyphs: list[Glyph] = field(default_factory=list)
    top: float = 0.0
    bottom: float = 0.0
    segments: list[Segment] = field(default_factory=list)

    # Read once the row's segments are set (`_rows_with_segments`), then many times by the column search.
    @cached_property
    def x0(self) -> float:
        return min(s.x0 for s in self.segments)

    @cached_property
    def x1(self) -> float:
        return max(s.x1 for s in self.segments)


_X0, _X1, _TOP, _BOTTOM = attrgetter("x0"), attrgetter("x1"), attrgetter("top"), attrgetter("bottom")
_SIZE, _BOLD = attrgetter("size"), attrgetter("bold")


def clusters(values: list[float], tolerance: float) -> list[list[float]]:
    """`values` sorted and grouped: a new group wherever the next value is over `tolerance` on (the
    columns that positions stand in)."""
    groups: list[list[float]] = []
    for value in sorted(values):
        if groups and value - groups[-1][-1] <= tolerance:
            groups[-1].append(value)
        else:
            groups.append([value])
    return groups


def group_rows(glyphs: list[Glyph], shared_descent: bool = False) -> list[Row]:
    """Rows of glyphs whose vertical centres fall inside the row's anchor glyph box, top to bottom.

    The anchor is the row's first full-size glyph; joining glyphs never widen it, so a label centred
    between two lines of a table cell cannot chain those two lines into one row.
    """
    rows: list[Row] = []
    # With `shared_descent` (text-layer loose boxes, which run from the font's ascent to its descent),
    # glyphs sort by the descent line a row shares whatever their height: an accented capital (Ã),
    # whose box reaches higher, would otherwise sort among the rows above it. OCR boxes are tight
    # (a dash sits mid-line), so those sort by centre.
    order = attrgetter("bottom", "x0") if shared_descent else (lambda g: ((g.top + g.bottom) / 2, g.x0))
    largest = 0.0  # the largest glyph size in the current row so far
    row: Row | None = None
    for glyph in sorted(glyphs, key=order):
        if row is not None and row.top <= (glyph.top + glyph.bottom) / 2 <= row.bottom:  # its centre_y
            row.glyphs.append(glyph)
            size = glyph.size
            if size > 1.25 * largest:  # a small glyph opened the row: re-anchor on a big one
                row.top, row.bottom = glyph.top, glyph.bottom
            if size > largest:
                largest = size
        else:
            row = Row([glyph], glyph.top, glyph.bottom)
            rows.append(row)
            largest = glyph.size
    return rows


def _overprints(a: Glyph, b: Glyph) -> bool:
    if a.text != b.text:
        return False
    overlap_x = min(a.x1, b.x1) - max(a.x0, b.x0)
    overlap_y = min(a.bottom, b.bottom) - max(a.top, b.top)
    narrow = max(min(a.x1 - a.x0, b.x1 - b.x0), 0.01)
    low = max(min(a.bottom - a.top, b.bottom - b.top), 0.01)
    return overlap_x >= 0.4 * narrow and overlap_y >= 0.5 * low


def _drop_overprint(glyphs: list[Glyph]) -> list[Glyph]:
    """Fake bold and shadowed headings draw each glyph twice, a little apart; keep one copy."""
    kept: list[Glyph] = []
    texts: list[str] = []  # kept's texts: most glyphs differ from the last four, which one `in` tells
    for glyph in glyphs:
        text = glyph.text
        if text in texts[-4:]:
            twin = next((k for k in kept[-4:] if k.text == text and _overprints(k, glyph)), None)
            if twin is not None:
                twin.bold = True
                continue
        kept.append(glyph)
        texts.append(text)
    return kept


def split_segments(row: Row, params: LayoutParams) -> list[Segment]:
    glyphs = _drop_overprint(sorted(row.glyphs, key=_X0))
    size = statistics.median(map(_SIZE, glyphs)) or 1.0
    segments: list[list[Glyph]] = [[glyphs[0]]]
    spaces: WordSpaces | None = None  # the row's word spaces, read at its first wide gap (most rows have none)
    widest = params.segment_gap * size
    current = segments[-1]
    for glyph in glyphs[1:]:
        previous = current[-1]
        gap = glyph.x0 - previous.x1
        if gap > widest:
            spaces = spaces or WordSpaces.of(glyphs)
            if not spaces.justified(previous, glyph, gap, size):
                current = [glyph]
                segments.append(current)
                continue
        current.append(glyph)
    return [_make_segment(run, params) for run in segments]


JUSTIFIED_MAX_GAP = 4.0  # font sizes: the widest space of a justified line; wider is a gutter or a tab stop
SPACE_SPREAD = 1.5  # a justified line stretches all its spaces alike: none is wider than this × their median
JUSTIFIED_MIN_SPACE = 0.8  # font sizes: a stretched line's median space (a plain one is 0.25-0.35)
_OPENS_AN_ITEM = re.compile(r"^[(\[]?(?:\w|\d{1,3})[.):\]]$|^\d+$")


@dataclass
class WordSpaces:
    """The word spaces of one row, line by line: on the text layer a line is a run of glyphs that follow
    each other in the content stream, a space where the stream has one; on a scan it is the words
    Tesseract read as one line, each gap between them a space. Per line, the median space, and per
    space the word it opens."""

    median: dict[object, float] = field(default_factory=dict)
    # (id of the glyph before, id of the glyph after) -> (the line of the space, the word it opens)
    spaces: dict[tuple[int, int], tuple[object, str]] = field(default_factory=dict)

    @classmethod
    def of(cls, glyphs: list[Glyph]) -> WordSpaces:
        """From a row's glyphs, sorted by x."""
        spaces = cls()
        gaps: dict[object, list[float]] = {}
        last: dict[object, Glyph] = {}
        for glyph in glyphs:  # OCR: every neighbour in one Tesseract line is a space away
            if glyph.run is None:
                continue
            if glyph.run in last:
                spaces._add(gaps, ("ocr", glyph.run), last[glyph.run], glyph, glyph.text)
            last[glyph.run] = glyph
        stream = sorted((g for g in glyphs if g.run is None), key=lambda g: g.seq)
        chain = 0
        for at, glyph in enumerate(stream):
            if at and glyph.seq != stream[at - 1].seq + 1:
                chain += 1
            if at and glyph.seq == stream[at - 1].seq + 1 and stream[at - 1].space_after:
                word = ""
                for following in stream[at:]:
                    word += following.text
                    if following.space_after:
                        break
                spaces._add(gaps, ("stream", chain), stream[at - 1], glyph, word)
        spaces.median = {line: statistics.median(values) for line, values in gaps.items()}
        return spaces

    def _add(self, gaps: dict[object, list[float]], line: object, before: Glyph, after: Glyph, word: str) -> None:
        gaps.setdefault(line, []).append(after.x0 - before.x1)
        self.spaces[(id(before), id(after))] = (line, word)

    def justified(self, previous: Glyph, glyph: Glyph, gap: float, size: float) -> bool:
        """Whether a wide gap is a space of a justified line, stretched like all its others: a short
        justified line spreads its words across the column ("denúncia   do   locador,   a   qualquer"),
        and its median space is wide too. Not a gap much wider than the line's other spaces (a column
        gutter read across), nor one before a label or a number ("B)", "12.", a bare "B"), which opens a
        grid's next cell, nor one wider than a justified line ever spaces its words."""
        space = self.spaces.get((id(previous), id(glyph)))
        if space is None:
            return False
        line, word = space
        median = self.median[line]
        return (
            gap <= JUSTIFIED_MAX_GAP * size and median >= JUSTIFIED_MIN_SPACE * size and gap <= SPACE_SPREAD * median
            and not _OPENS_AN_ITEM.match(word) and not (len(word) == 1 and word.isupper())
        )


def _make_segment(glyphs: list[Glyph], params: LayoutParams) -> Segment:
    size = statistics.median(map(_SIZE, glyphs)) or 1.0
    bolds = list(map(_BOLD, glyphs))
    all_bold = all(bolds)
    mark_bold = not all_bold and any(bolds)
    parts: list[str] = []
    in_bold = False
    previous: Glyph | None = None
    overlap, half, word_gap = -0.1 * size, 0.5 * size, params.word_gap  # the expressions below, hoisted
    for glyph in glyphs:
        space = False
        if previous is not None:
            gap = glyph.x0 - previous.x1
            space = previous.space_after and glyph.seq == previous.seq + 1 and gap > overlap  # a stream space
            if not space:
                smaller = glyph.size if glyph.size < previous.size else previous.size
                space = gap > word_gap * (smaller if smaller > half else half)
        if not mark_bold:
            if space:
                parts.append(" ")
            parts.append(glyph.text)
            previous = glyph
            continue
        if mark_bold and in_bold and (not glyph.bold):
            parts.append("**")
            in_bold = False
        if space:
            parts.append(" ")
        if mark_bold and glyph.bold and not in_bold:
            parts.append("**")
            in_bold = True
        parts.append(glyph.text)
        previous = glyph
    if in_bold:
        parts.append("**")
    marked = sum(1 for g in glyphs if g.highlighted)
    return Segment(
        glyphs=glyphs,
        text="".join(parts),
        x0=min(map(_X0, glyphs)),
        top=min(map(_TOP, glyphs)),
        x1=max(map(_X1, glyphs)),
        bottom=max(map(_BOTTOM, glyphs)),
        size=round(size, 2),
        # A marker often skips the printed label ('A. ' then yellow '24'): discount up to three glyphs.
        highlighted=marked > 0 and marked >= 0.5 * max(1, len(glyphs) - 3),
        bold=all_bold,
    )


def assemble(
    glyphs: list[Glyph],
    page_width: float,
    params: LayoutParams = LayoutParams(),
    page_height: float = 842.0,
    shared_descent: bool = False,
) -> list[Segment]:
    """Segments of one page in reading order; `shared_descent`: the glyph boxes are a text layer's
    loose boxes (see `group_rows`)."""
    if not glyphs:
        return []
    rows = _rows_with_segments(glyphs, params, shared_descent)
    ordered: list[Segment] = []
    for band in _bands(rows, page_height, params):
        if isinstance(band, _ColumnBand):
            for column in (band.left, band.right):
                for row in _rows_with_segments(column, params, shared_descent):
                    ordered.extend(row.segments)
        else:
            ordered.extend(band.segments)
    return ordered


def _rows_with_segments(glyphs: list[Glyph], params: LayoutParams, shared_descent: bool = False) -> list[Row]:
    rows = group_rows(glyphs, shared_descent)
    for row in rows:
        row.segments = split_segments(row, params)
    return rows


@dataclass
class _ColumnBand:
    left: list[Glyph]
    right: list[Glyph]


def _bands(rows: list[Row], page_height: float, params: LayoutParams):
    """Rows as they are, except runs of rows that form a two-column layout, yielded as one band."""
    spans = [_spans(row, params.min_gutter) for row in rows]
    i = 0
    while i < len(rows):
        found = _column_run(rows, spans, i, page_height, params)
        if found is None:
            yield rows[i]
            i += 1
            continue
        end, gutter = found
        left: list[Glyph] = []
        right: list[Glyph] = []
        for row in rows[i:end]:
            for glyph in row.glyphs:
                (left if glyph.x1 <= gutter[1] else right).append(glyph)
        yield _ColumnBand(left, right)
        i = end


def _spans(row: Row, min_gap: float) -> list[tuple[float, float]]:
    """The row's ink as (x0, x1) runs, glyphs joined across gaps narrower than `min_gap`.

    Finer than segments: a gutter narrower than a segment gap (4 mm beside 10 pt text) still parts
    two columns, while a line's word spaces stay inside one span."""
    spans: list[tuple[float, float]] = []
    for glyph in sorted(row.glyphs, key=_X0):
        if spans and glyph.x0 - spans[-1][1] < min_gap:
            spans[-1] = (spans[-1][0], max(spans[-1][1], glyph.x1))
        else:
            spans.append((glyph.x0, glyph.x1))
    return spans


def _free_intervals(spans: list[tuple[float, float]], lo: float, hi: float) -> list[tuple[float, float]]:
    gaps = []
    cursor = lo
    for x0, x1 in spans:
        if x0 > cursor:
            gaps.append((cursor, x0))
        cursor = max(cursor, x1)
    if cursor < hi:
        gaps.append((cursor, hi))
    return gaps


HEADING_GAP = 1.4  # a heading stands this many line pitches below the line before it
LONG_BAND_ROWS = 3  # times min_column_rows
MIN_COLUMN_SHARE = 0.25  # each page column is at least this share of the band's width
GUTTER_OVER_INNER_GAP = 1.5  # a page gutter is this much wider than the widest gap inside a typical row


def _typical_inner_gap(rows: list[Row], gutter: tuple[float, float]) -> float:
    """The median, over rows, of the widest gap between neighbouring glyphs on either side of the gutter."""
    widest = []
    for row in rows:
        for side in ([g for g in row.glyphs if g.x1 <= gutter[0]], [g for g in row.glyphs if g.x0 >= gutter[1]]):
            ordered = sorted(side, key=_X0)
            gaps = [b.x0 - a.x1 for a, b in zip(ordered, ordered[1:])]
            if gaps:
                widest.append(max(gaps))
    return statistics.median(widest) if widest else 0.0


def _merge_spans(spans: list[tuple[float, float]], min_gap: float) -> list[tuple[float, float]]:
    """Sorted (x0, x1) runs joined where they overlap or leave less than `min_gap` between them."""
    merged: list[tuple[float, float]] = []
    for x0, x1 in spans:
        if merged and x0 - merged[-1][1] < min_gap:
            merged[-1] = (merged[-1][0], max(merged[-1][1], x1))
        else:
            merged.append((x0, x1))
    return merged


def _column_run(
    rows: list[Row], spans: list[list[tuple[float, float]]], start: int, page_height: float, params: LayoutParams
):
    """(end, gutter) when rows[start:end] (whose ink spans are `spans`) read as two columns, else None."""
    first = rows[start]
    if len(spans[start]) >= 2:
        found = _gutter_run(rows, spans, start, spans[start], first.x0, first.x1, page_height, params)
        if found is not None:
            return found
    # Column heads set at different heights ("QUESTÃO 98" a few points above "QUESTÃO 99") give rows
    # of one column each (a stray mark beside a head adds a span but no gutter): look for the gutter in
    # the ink of the next few rows together.
    window = range(start, min(start + params.min_column_rows, len(rows)))
    merged = _merge_spans(sorted(span for i in window for span in spans[i]), params.min_gutter)
    if len(merged) < 2:
        return None
    return _gutter_run(rows, spans, start, merged, merged[0][0], merged[-1][1], page_height, params)


def _gutter_run(
    rows: list[Row], spans: list[list[tuple[float, float]]], start: int, first_spans: list[tuple[float, float]],
    lo: float, hi: float, page_height: float, params: LayoutParams,
):
    """(end, gutter) for the first gap inside `first_spans` (widest first) that the rows from `start` on
    keep free as two page columns, else None."""
    first = rows[start]
    inner = [g for g in _free_intervals(first_spans, lo, hi) if g[0] > lo and g[1] < hi]
    for gutter in sorted(inner, key=lambda g: g[0] - g[1]):
        if gutter[1] - gutter[0] < params.min_gutter:
            continue
        end = start
        current = gutter
        left_fill = right_fill = 0.0
        while end < len(rows):
            row = rows[end]
            # The gutter narrows to what every row leaves free: the widest (the first of the widest) of the
            # row's free intervals inside it, at least min_gutter wide.
            widest: tuple[float, float] | None = None
            widest_width = 0.0
            for a, b in _free_intervals(spans[end], min(lo, row.x0) - 1, max(hi, row.x1) + 1):
                free = (max(a, current[0]), min(b, current[1]))
                width = free[1] - free[0]
                if width >= params.min_gutter and (widest is None or width > widest_width):
                    widest, widest_width = free, width
            if widest is None:
                break
            current = widest
            left = right = 0.0
            for x0, x1 in spans[end]:
                if x1 <= current[0]:
                    left += x1 - x0
                if x0 >= current[1]:
                    right += x1 - x0
            left_fill += left
            right_fill += right
            end += 1
        count = end - start
        if count < params.min_column_rows:
            continue
        # Side-by-side answer options between short stems form short bands; page columns run long.
        # (A band of many rows is columns however short: two questions side by side above a full-width one.)
        if rows[end - 1].bottom - first.top < params.min_column_height * page_height and count < LONG_BAND_ROWS * params.min_column_rows:
            continue
        # Each column's ink, per row, against that column's own width (rows of the two columns often
        # alternate, and a figure may leave one column short of text for a while).
        band_lo = min(row.x0 for row in rows[start:end])
        band_hi = max(row.x1 for row in rows[start:end])
        left_width, right_width = max(current[0] - band_lo, 1.0), max(band_hi - current[1], 1.0)
        if min(left_width, right_width) < MIN_COLUMN_SHARE * (band_hi - band_lo):
            continue  # the last column of a table beside the rest of it, not a page column
        if left_fill / count < params.min_column_fill * left_width or right_fill / count < params.min_column_fill * right_width:
            continue
        # The costliest test last (each is pure, so their order changes nothing but the time).
        if current[1] - current[0] < GUTTER_OVER_INNER_GAP * _typical_inner_gap(rows[start:end], current):
            continue  # a grid (a key's numbers over letters): its cells stand as far apart as the "gutter"
        return _without_trailing_heading(rows, start, end, current), current
    return None


def _without_trailing_heading(rows: list[Row], start: int, end: int, gutter: tuple[float, float]) -> int:
    """A heading set on one side just before full-width text ("QUESTÃO 100" above a question that spans
    the page) is part of what follows, not the last line of its column: it stands further below its
    column's previous line than the column's own line pitch, and the other column has ended above it."""
    if end >= len(rows) or end - start < 3:
        return end
    last = rows[end - 1]
    left = [r for r in rows[start:end] if any(g.x1 <= gutter[0] for g in r.glyphs)]
    right = [r for r in rows[start:end] if any(g.x0 >= gutter[1] for g in r.glyphs)]
    side, other = (left, right) if left and left[-1] is last else (right, left)
    if not side or side[-1] is not last or (other and other[-1] is last) or len(side) < 3:
        return end
    pitches = [b.top - a.top for a, b in zip(side[:-1], side[1:-1])]
    if pitches and last.top - side[-2].top > HEADING_GAP * statistics.median(pitches):
        return end - 1
    return end
