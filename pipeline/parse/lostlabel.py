"""An option whose label OCR lost altogether, cut back out of the option before it.

When a label leaves no token at all (not even a misread one, which `labelcolumn` restores), its
option's lines run on in the option before: "a) … de borrado en la búsqueda. / Copiar los archivos …
/ c) …". Only the layout can tell: the labels read skip exactly one, and the option before the gap
holds exactly one paragraph break, a line that ends a sentence well short of the option's right edge
followed by a line that starts with a capital or a digit. That line starts the lost option. Anything
less certain (no break, or two) is left as read and stays flagged as a skipped label.
"""
from __future__ import annotations

from pipeline.parse.options import Option
from pipeline.parse.stream import StreamLine

SENTENCE_END = (".", "?", "!", ":", ";", "…", ")")
# A line that stops this share of the option's width short of its right edge ends a paragraph
# (justified or ragged lines of running text stop within a word's width of it).
SHORT_LINE_SHARE = 0.15


def restore_lost_labels(options: list[Option], labels: list[str]) -> tuple[list[Option], list[str]]:
    """`options` with each lost option cut out of the one before it; a flag line per restored option."""
    restored: list[Option] = []
    flags: list[str] = []
    for at, option in enumerate(options):
        restored.append(option)
        following = options[at + 1] if at + 1 < len(options) else None
        if following is None or option.label not in labels or following.label not in labels:
            continue
        if labels.index(following.label) - labels.index(option.label) != 2:
            continue
        missing = labels[labels.index(option.label) + 1]
        split = _paragraph_split(option, missing)
        if split is not None:
            restored[-1:] = split
            flags.append(f"option {missing}: its label was not read (OCR); taken from the paragraph break in option {option.label}")
    return restored, flags


def _paragraph_split(option: Option, missing: str) -> list[Option] | None:
    lines = option.lines
    # Each part must be one line's text, so that cutting the lines cuts the text with them.
    if len(lines) < 2 or len(option.parts) != len(lines) or not all(sl.ocr for sl in lines):
        return None
    left = min(sl.line.x0 for sl in lines)
    right = max(sl.line.x1 for sl in lines)
    short_of = SHORT_LINE_SHARE * max(right - left, 1.0)
    breaks = [
        k for k in range(1, len(lines))
        if _ends_paragraph(lines[k - 1], right, short_of) and _starts_paragraph(lines[k])
        and lines[k].page == lines[k - 1].page
    ]
    if len(breaks) != 1:
        return None
    k = breaks[0]
    return [
        Option(option.label, option.first, option.parts[:k], lines[:k]),
        Option(missing, lines[k], option.parts[k:], lines[k:]),
    ]


def _ends_paragraph(line: StreamLine, right: float, short_of: float) -> bool:
    return line.text.rstrip().endswith(SENTENCE_END) and line.line.x1 <= right - short_of


def _starts_paragraph(line: StreamLine) -> bool:
    first = line.text.lstrip()[:1]
    return first.isupper() or first.isdigit()
