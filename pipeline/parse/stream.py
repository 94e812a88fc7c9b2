"""A document as one stream of lines across pages, with the rows they sit on."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.document import ExtractedDocument, Line

# Answer blanks and leaders: nothing a reader needs.
_BLANK = re.compile(r"^[\s.…_·]+$")


@dataclass(frozen=True)
class StreamLine:
    page: int  # 1-based
    line: Line

    @property
    def text(self) -> str:
        return self.line.text


def line_stream(document: ExtractedDocument, stop_at: list[str] = (), include_dropped: bool = False) -> list[StreamLine]:
    stops = [re.compile(p) for p in stop_at]
    stream: list[StreamLine] = []
    for page in document.pages:
        if page.dropped_reason and not include_dropped:
            continue
        for line in page.lines:
            if any(r.search(line.text) for r in stops):
                return stream
            if _BLANK.match(line.text):
                continue
            text = unmark_prefix(line.text)
            stream.append(StreamLine(page.number, line if text == line.text else replace(line, text=text)))
    return stream


_BOLD_PREFIX = re.compile(r"^\*\*(?P<inner>[^*]{1,16}?)\*\*\s*")


def unmark_prefix(text: str) -> str:
    """'**01** Ktoré…' -> '01 Ktoré…': a bold question number or option label is layout, not emphasis."""
    match = _BOLD_PREFIX.match(text)
    if not match:
        return text
    rest = text[match.end():]
    return match.group("inner") + (" " + rest if rest else "")


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
