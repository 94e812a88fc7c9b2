"""Questions whose number was lost: on a scan Tesseract may drop a question number or read it as
something else ("4" as "A)"), and the question then runs on inside the one before it as text after
its options. Such a block holds a second complete run of option labels after its own, with a stem
between; it is cut there, and the piece takes the number the numbering leaves for it, only where the
gap in the numbering around it is exactly as wide as the pieces found (3, [piece], [piece], 6 gives 4
and 5). Anything else is left as it was, so the usual flags report the text after the options.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.parse.blocks import Block
from pipeline.parse.labels import canonical_label, matched_label, number_key
from pipeline.parse.options import find_options
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


def recover_unnumbered(blocks: list[Block], labels: list[str], option_re: re.Pattern, bare_min_run: int | None) -> list[Block]:
    """`blocks` with each lost-number question cut out of the block before it and numbered, where the
    numbering allows exactly one number for it (see the module's docstring)."""
    result: list[Block | _Piece] = []
    for block in blocks:
        result.append(block)
        if block.kind == "question":
            result += _pieces(block, labels, option_re, bare_min_run)
    return _numbered(result)


def _label(item: StreamLine, labels: list[str], option_re: re.Pattern) -> tuple[str | None, str]:
    match = option_re.match(item.text)
    if not match:
        return None, ""
    return canonical_label(matched_label(match), labels), match.group("text").strip()


def _pieces(block: Block, labels: list[str], option_re: re.Pattern, bare_min_run: int | None) -> list[_Piece]:
    """The questions that run on after `block`'s options, cut off `block` (its lines shortened)."""
    pieces: list[_Piece] = []
    owner = block
    original = list(block.lines)
    while True:
        found = find_options(owner.lines, labels, option_re, bare_min_run)
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
        rest = trailing[starts[0]:]
        if labels[1] not in {_label(item, labels, option_re)[0] for item in rest}:
            return pieces
        cut = owner.lines.index(found.trailing[0])
        stem = trailing[: starts[0]]
        piece = Block("question", None, None, "", lines=list(trailing), start=stem[0])
        piece.reserve = owner.reserve
        owner.lines = owner.lines[:cut]
        pieces.append(_Piece(block, original, piece, number_ink))
        owner = piece


def _numbered(items: list[Block | _Piece]) -> list[Block]:
    """Number the pieces from the gaps around them, or put them back into their owners' lines."""
    result: list[Block] = []
    index = 0
    while index < len(items):
        item = items[index]
        if not isinstance(item, _Piece):
            result.append(item)
            index += 1
            continue
        run = []
        while index < len(items) and isinstance(items[index], _Piece):
            run.append(items[index])
            index += 1
        before = _value(result[-1]) if result else None
        after = next((_value(b) for b in items[index:] if isinstance(b, Block) and b.kind == "question"), None)
        if before is not None and after is not None and after - before - 1 == len(run):
            prefix = result[-1].number[: len(result[-1].number) - len(str(before))]
            for offset, piece in enumerate(run, start=1):
                piece.block.number = f"{prefix}{before + offset}"
                read = f"read as {piece.number_ink!r}" if piece.number_ink else "not read"
                piece.block.flags.append(
                    f"question number {read}, taken as {piece.block.number}: the only number the numbering allows there"
                )
                result.append(piece.block)
        else:  # no single number fits: the text stays after the options and is flagged there
            run[0].owner.lines = run[0].owner_lines
    return result


def _value(block: Block) -> int | None:
    if block.kind != "question" or block.number is None:
        return None
    digits = re.search(r"(\d+)$", number_key(block.number))
    return int(digits.group(1)) if digits else None
