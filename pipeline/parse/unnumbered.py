"""Questions whose number was lost: on a scan Tesseract may drop a question number or read it as
something else ("4" as "A)"), and the question then runs on inside the block before it: as text
after a question's options (a second complete run of option labels after its own, with a stem
between), or at the end of a passage (a paragraph set at the labels' edge right above a run of
labels, where the passage runs from the margin). It is cut there, and the piece takes the number
the numbering leaves for it, only where the gap in the numbering around it is exactly as wide as
the pieces found (3, [piece], [piece], 6 gives 4 and 5; passages between do not count). Anything
else is left as it was, so the usual flags and the numbering gap report it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.diagnostics import Code, diagnose
from pipeline.parse.blocks import Block
from pipeline.parse.labels import canonical_label, matched_label, number_key
from pipeline.parse.geometry import continues, measure_pitch
from pipeline.parse.options import find_options
from pipeline.parse.recovery import Recovery
from pipeline.parse.stream import StreamLine

NUMBER_INK_MAX_CHARS = 3  # a lone token left of the options' labels: the lost number's ink, misread
NUMBER_INK_MIN_SHIFT = 0.8  # font sizes left of the option labels where a "label" is a misread number


@dataclass
class _Piece:
    """A question cut out of the block before it: its lines, and what stood in its number's place."""

    owner: Block
    owner_lines: list[StreamLine]  # the owner's lines before any cut, to put back if no number fits
    block: Block
    number_ink: str | None


def recover_unnumbered(blocks: list[Block], labels: list[str], option_re: re.Pattern, bare_min_run: int | None,
                       recovery: Recovery | None = None) -> list[Block]:
    """`blocks` with each lost-number question cut out of the block before it and numbered, where the
    numbering allows exactly one number for it (see the module's docstring). `recovery`: the passes the
    options of the pieces are found with (every one when not given)."""
    values = [_value(b) for b in blocks]
    following: list[int | None] = []  # the next numbered question's number after each block
    upcoming: int | None = None
    for value in reversed(values):
        following.append(upcoming)
        upcoming = value if value is not None else upcoming
    following.reverse()
    result: list[Block | _Piece] = []
    before: int | None = None
    for index, block in enumerate(blocks):
        before = values[index] if values[index] is not None else before
        after = following[index]
        result.append(block)
        # Only where the numbering jumps can a piece get a number: elsewhere (most sheets, all of a
        # complete one) no block is searched for pieces.
        if before is not None and after is not None and after - before > 1:
            result += _pieces(block, labels, option_re, bare_min_run, recovery)
    return _numbered(result)


def _label(item: StreamLine, labels: list[str], option_re: re.Pattern) -> tuple[str | None, str]:
    match = option_re.match(item.text)
    if not match:
        return None, ""
    return canonical_label(matched_label(match), labels), match.group("text").strip()


def _pieces(block: Block, labels: list[str], option_re: re.Pattern, bare_min_run: int | None,
            recovery: Recovery | None) -> list[_Piece]:
    """The questions that run on after `block`'s options (or at the end of a passage), cut off `block`
    (its lines shortened)."""
    pieces: list[_Piece] = []
    original = list(block.lines)
    owner = block
    if block.kind == "context":
        cut = _question_closing_passage(block, labels, option_re, bare_min_run, recovery)
        if cut is None:
            return pieces
        owner = Block("question", None, None, "", lines=block.lines[cut:], start=block.lines[cut])
        block.lines = block.lines[:cut]
        pieces.append(_Piece(block, original, owner, None))
    while True:
        found = find_options(owner.lines, labels, option_re, bare_min_run, recovery)
        if len(found.options) < 2 or not found.trailing or found.trailing[0] not in owner.lines:
            return pieces
        trailing = found.trailing
        label_x = min(o.first.line.x0 for o in found.options)
        number_ink = None
        first = trailing[0]
        label, text = _label(first, labels, option_re)
        left_of_labels = label_x - first.line.x0 > NUMBER_INK_MIN_SHIFT * (first.line.font_size or 10)
        if len(first.text.strip()) <= NUMBER_INK_MAX_CHARS and first.line.x1 < label_x:
            number_ink = first.text.strip()  # "A)" read where "4" stands, on its own left of the labels
            trailing = trailing[1:]
        elif label is not None and text and left_of_labels:
            # "A) Enunciado…": the misread number joined to its stem on one line
            number_ink = first.text[: len(first.text) - len(text)].strip()
            trailing = [replace(first, line=replace(first.line, text=text)), *trailing[1:]]
        starts = [i for i, item in enumerate(trailing) if _label(item, labels, option_re)[0] == labels[0]]
        if not starts or starts[0] == 0:
            return pieces
        if labels[1] not in {_label(item, labels, option_re)[0] for item in trailing[starts[0]:]}:
            return pieces
        cut = owner.lines.index(found.trailing[0])
        piece = Block("question", None, None, "", lines=list(trailing), start=trailing[0])
        piece.reserve = owner.reserve
        owner.lines = owner.lines[:cut]
        pieces.append(_Piece(block, original, piece, number_ink))
        owner = piece


def _question_closing_passage(block: Block, labels: list[str], option_re: re.Pattern, bare_min_run: int | None,
                              recovery: Recovery | None) -> int | None:
    """Where a question with no number starts at the end of a passage: the paragraph right above a run
    of option labels, set at or right of the labels (the passage runs from the margin), or None."""
    lines = block.lines
    found = find_options(lines, labels, option_re, bare_min_run, recovery)
    if len(found.options) < 2 or found.options[0].label != labels[0] or found.options[0].first not in lines:
        return None
    first_option = lines.index(found.options[0].first)
    label_x = min(o.first.line.x0 for o in found.options)
    pitch = measure_pitch(lines)

    def at_labels(item: StreamLine) -> bool:
        return item.line.x0 >= label_x - NUMBER_INK_MIN_SHIFT * (item.line.font_size or 10)

    start = first_option - 1
    if start < 1 or not at_labels(lines[start]):
        return None
    while start > 1 and at_labels(lines[start - 1]) and continues(lines[start - 1], lines[start], pitch, left_edge=label_x):
        start -= 1
    return start


def _numbered(items: list[Block | _Piece]) -> list[Block]:
    """Number the pieces from the gaps around them (passages between do not count), or put them back
    into their owners' lines where the gap does not leave exactly one number for each."""
    numbered: list[Block] = []
    run: list[_Piece] = []
    before: Block | None = None
    for item in [*items, None]:
        if isinstance(item, _Piece):
            run.append(item)
            numbered.append(item.block)
            continue
        if item is not None and _value(item) is None:
            numbered.append(item)  # a passage
            continue
        if run:
            _number_run(run, before, item, numbered)
            run = []
        if item is not None:
            numbered.append(item)
            before = item
    return numbered


def _number_run(run: list[_Piece], before: Block | None, after: Block | None, numbered: list[Block]) -> None:
    low, high = (_value(before) if before else None), (_value(after) if after else None)
    if low is None or high is None or high - low - 1 != len(run):
        for piece in run:  # no single number fits: the text stays where it was and is flagged there
            numbered.remove(piece.block)
            piece.owner.lines = piece.owner_lines
        return
    prefix = before.number[: len(before.number) - len(str(low))]
    for offset, piece in enumerate(run, start=1):
        piece.block.number = f"{prefix}{low + offset}"
        read = f"read as {piece.number_ink!r}" if piece.number_ink else "not read"
        piece.block.flags.append(diagnose(Code.NUMBER_INFERRED, read=read, number=piece.block.number))


def _value(block: Block) -> int | None:
    if block.kind != "question" or block.number is None:
        return None
    digits = re.search(r"(\d+)$", number_key(block.number))
    return int(digits.group(1)) if digits else None
