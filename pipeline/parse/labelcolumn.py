"""Option labels OCR misread, restored from where they stand: on an OCR'd page a line that starts at
a column of a block's option labels (one, or one per column of an option grid) with a token that is
no word ("0" for "C)", "©", "8", "1)" for "I)") is the label the sequence expects there, when the
labels read before and after it leave exactly that one.
A stem line at that column ("¿Qué…", "En el texto…") starts with a word and is never touched.
"""
from __future__ import annotations

import re
from dataclasses import replace
from statistics import median

from pipeline.extract import clusters
from pipeline.parse.labels import canonical_label, matched_label
from pipeline.parse.stream import StreamLine

COLUMN_TOLERANCE = 0.6  # font sizes between a line's left edge and the label column
MISREAD_MAX_CHARS = 2


def _is_misread_label(token: str) -> bool:
    """A short token that cannot be a word of the text: no letters, or one letter glued to a mark."""
    if len(token) > MISREAD_MAX_CHARS:
        return False
    letters = sum(ch.isalpha() for ch in token)
    return letters == 0 or (letters == 1 and len(token) == 2 and not token.isalpha())


def restore_label_column(lines: list[StreamLine], labels: list[str], option_re: re.Pattern) -> list[StreamLine]:
    """`lines` with misread labels at the label column given the label the sequence leaves for them."""
    if not any(sl.ocr for sl in lines):
        return lines
    read: dict[int, str] = {}
    mark = ""
    for index, sl in enumerate(lines):
        match = option_re.match(sl.text)
        label = canonical_label(matched_label(match), labels) if match else None
        if label is not None:
            read[index] = label
            printed = sl.text.lstrip()
            after = printed[len(matched_label(match)) : len(matched_label(match)) + 1]
            mark = mark or (after if after in ").:" else "")
    if len(read) < 2:
        return lines
    size = median((lines[i].line.font_size or 10) for i in read)
    # The x of each column the labels stand in: options printed in a grid have two or more.
    columns = [median(column) for column in clusters([lines[i].line.x0 for i in read], COLUMN_TOLERANCE * size)]
    restored = list(lines)
    for index, sl in enumerate(lines):
        if index in read or not sl.ocr or min(abs(sl.line.x0 - c) for c in columns) > COLUMN_TOLERANCE * size:
            continue
        token, _, rest = sl.text.strip().partition(" ")
        if not rest or not _is_misread_label(token):
            continue
        before = [read[i] for i in read if i < index]
        after = [read[i] for i in read if i > index]
        expected_at = labels.index(before[-1]) + 1 if before else 0
        if expected_at >= len(labels):
            continue
        expected = labels[expected_at]
        if expected in read.values() or (after and labels.index(after[0]) <= expected_at):
            continue
        read[index] = expected
        restored[index] = replace(sl, line=replace(sl.line, text=f"{expected}{mark} {rest.lstrip()}"))
    return restored
