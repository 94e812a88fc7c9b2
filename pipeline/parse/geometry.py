"""Line pitch of a sheet measured from its own lines: what "the next line of the same paragraph" means.

Sheets are set single-spaced, 1.15, 1.5 or double-spaced, in any font; a fixed multiple of the font
size cannot tell a wrapped line from a new paragraph on all of them. The sheet itself can: inside a
paragraph, consecutive lines of one column stand at the same distance, and the smallest distances that
recur between stacked lines are that paragraph leading. A gap clearly wider than it is a paragraph break.

Public: `Pitch`, `measure_pitch(lines)`, `continues(previous, item, pitch, left_edge)`; `column_edges(lines)`
and `indent(x0, edges)`: how far right of its column's left edge a line starts (what `inspect` prints, and
what `layout.question_max_indent` bounds).
"""
from __future__ import annotations

from dataclasses import dataclass
from statistics import median

from pipeline.parse.stream import StreamLine

# How much wider than the paragraph leading a gap may be, as a share of the line pitch, and still be the
# same paragraph: OCR'd line boxes move by a few pixels, a line with a subscript sits a little lower;
# a paragraph break adds a blank line or a paragraph space, normally a third of a line or more.
GAP_TOLERANCE = 0.3
# A wrapped line starts at its option's label or further right (hanging indent); only jitter may put it
# left of the label, a fraction of the line height.
INDENT_TOLERANCE = 0.25


@dataclass(frozen=True)
class Pitch:
    leading: float  # the white gap between two lines of one paragraph (bottom of one to top of the next)
    height: float  # the height of a line box

    @property
    def pitch(self) -> float:
        return self.leading + self.height

    @property
    def widest_gap(self) -> float:
        """The widest gap that still continues a paragraph."""
        return self.leading + GAP_TOLERANCE * self.pitch


def _height(item: StreamLine) -> float:
    return max(item.line.bottom - item.line.top, 0.01)


def _same_size(a: float | None, b: float | None) -> bool:
    """Two lines' type sizes are one size (within a tenth), or one of them is not known."""
    return not (a and b and abs(a - b) > 0.1 * max(a, b))


def measure_pitch(lines: list[StreamLine]) -> Pitch | None:
    """The paragraph leading and line height of `lines` (in reading order), or None when no two lines
    are stacked in one column.

    The leading is the lower quartile of the gaps between stacked consecutive lines: wrapped lines of
    stems, options and passages give the in-paragraph gap, paragraph breaks only add wider ones, and the
    quartile (not the minimum) ignores a stray pair drawn closer than the rest (a subscript row).
    """
    gaps: list[float] = []
    heights: list[float] = []
    # Two consecutive lines are stacked when the second sits on the row below the first (not above half its height
    # down), overlaps it horizontally (else another column) and is set in the same type size. Written out in one
    # walk, each line's box read once: every pair of lines of every block of a sheet is asked.
    previous_page, before = None, None
    for item in lines:
        line = item.line
        if before is not None and previous_page == item.page:
            height = max(before.bottom - before.top, 0.01)
            if (not line.top < before.top + 0.5 * height and not min(before.x1, line.x1) <= max(before.x0, line.x0)
                    and _same_size(before.font_size, line.font_size)):
                gaps.append(max(line.top - before.bottom, 0.0))
                heights.append(height)
        previous_page, before = item.page, line
    if not gaps:
        return None
    gaps.sort()
    return Pitch(leading=gaps[(len(gaps) - 1) // 4], height=median(heights))


def continues(previous: StreamLine, item: StreamLine, pitch: Pitch | None, left_edge: float | None = None) -> bool:
    """`item` is the next line of the paragraph whose last line is `previous`: same page, on the row
    below, no wider a gap than the paragraph leading allows, and (given the paragraph's `left_edge`, an
    option's label) not starting left of it. Without a measured pitch, the previous line's own height
    stands for it with single spacing's leading (a fifth of a line)."""
    if previous.page != item.page:
        return False
    height = _height(previous)
    pitch = pitch or Pitch(leading=0.2 * height, height=height)
    if item.line.top <= previous.line.top + 0.3 * min(height, pitch.height):
        return False  # the same row, or above
    if left_edge is not None and item.line.x0 < left_edge - INDENT_TOLERANCE * pitch.height:
        return False
    return item.line.top - previous.line.bottom <= pitch.widest_gap


# A column's left edge is the leftmost x0 that at least this many of its lines, and this share of
# them, start at (a stray line further left does not move it).
EDGE_MIN_LINES = 2
EDGE_MIN_SHARE = 0.1
# Lines starting further apart than this share of the page's text width stand in two columns; nearer
# starts are indents inside one.
COLUMN_SHARE = 0.2
EDGE_JITTER = 1.5  # points between the starts of lines set at one edge (side bearings, a scan's pixels)


@dataclass(frozen=True)
class ColumnEdge:
    start: float  # the leftmost x0 of any line in the column: where the column begins
    edge: float  # where its text is set: the x0 that indents are measured from


def column_edges(lines: list) -> list[ColumnEdge]:
    """The columns of a page's lines, left to right, each with the left edge its text is set at: lines
    are grouped into columns by their starts (a gap of a fifth of the text width between starts opens a
    new column), and a column's edge is the leftmost place at least `EDGE_MIN_LINES` lines (and
    `EDGE_MIN_SHARE` of the column's) start at (within `EDGE_JITTER` of each other), their median x0. `lines` are `Line`s or
    `StreamLine`s of one page."""
    boxes = sorted((getattr(item, "line", item) for item in lines), key=lambda box: box.x0)
    if not boxes:
        return []
    width = max(box.x1 for box in boxes) - boxes[0].x0
    groups: list[list] = [[boxes[0]]]
    for box in boxes[1:]:
        if box.x0 - groups[-1][-1].x0 > COLUMN_SHARE * width:
            groups.append([])
        groups[-1].append(box)
    found = []
    for group in groups:
        starts = _starts(group)
        least = max(EDGE_MIN_LINES, EDGE_MIN_SHARE * len(group))
        recurring = [xs for xs in starts if len(xs) >= least]
        found.append(ColumnEdge(group[0].x0, median(recurring[0] if recurring else starts[0])))
    return found


def _starts(group: list) -> list[list[float]]:
    """The x0 of a column's lines gathered where they stand together (within `EDGE_JITTER` of the last
    one: a scan's lines at one edge start a pixel or two apart), left to right."""
    starts: list[list[float]] = []
    for box in group:  # sorted by x0
        if starts and box.x0 - starts[-1][-1] <= EDGE_JITTER:
            starts[-1].append(box.x0)
        else:
            starts.append([box.x0])
    return starts


def indent(x0: float, edges: list[ColumnEdge]) -> float:
    """How far right of its column's left edge a line starting at `x0` stands (negative left of it)."""
    if not edges:
        return 0.0
    column = max((c for c in edges if c.start <= x0), key=lambda c: c.start, default=edges[0])
    return x0 - column.edge
