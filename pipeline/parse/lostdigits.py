"""Question numbers whose digits OCR lost but whose header it kept: "1." read as "." (a thin `1` at the left edge
of a blurred scan), "Câu 3." as "Câu .", "Soru 4" as "Soru". The line is no header as read, so its question ran
into the one before, or, for the first question, into the page's preamble, where it was lost unseen.

A line gets the number the run of headers leaves for it only where that is one number exactly: right before the
first header (number `n` > 1, giving `n - 1`) or in a gap of exactly one between two headers (`n`, [line],
`n + 2`). It must be OCR'd, stand at the headers' left edge (right of it by the lost digits' width at most), and
read as the headers around it do with the number put back: their text before the number (the prefix, "Câu ")
and, where they print one, their mark after it, which the line must still show (a bare "." or ")" is a lost
number only where the headers print that mark). Each line given a number is flagged `parse.number_inferred`
on its question (`blocks.split_blocks`)."""
from __future__ import annotations

import re
from dataclasses import replace

from pipeline.diagnostics import Code, Concerns, Diagnostic, diagnose
from pipeline.parse.stream import StreamLine, match_number_line, match_text_as, plain_text

DIGIT_WIDTH = 0.65  # font sizes a lost digit may have taken at the line's start (a digit is 0.55–0.6 em wide)
EDGE_SLACK = 0.5  # font sizes left or right of the headers' edge a line may start and still stand there
PREFIX_MAX_CHARS = 12  # the longest text before the number a header may print ("Pregunta ", "Zadanie ")


def restore_lost_digits(stream: list[StreamLine], start_re: re.Pattern) -> tuple[list[StreamLine], list[Diagnostic]]:
    """`stream` with each line whose number's digits were lost given the number the run leaves it (see the
    module), and a `parse.number_inferred` flag per line given one."""
    headers = [(k, number) for k, item in enumerate(stream) if (number := _number(start_re, item)) is not None]
    wanted: dict[int, tuple[int, int]] = {}  # line index -> (number it takes, the header it is measured on)
    if headers and headers[0][1] > 1:
        first, number = headers[0]
        wanted.update({k: (number - 1, first) for k in _before(stream, first)})
    for (k0, low), (k1, high) in zip(headers, headers[1:]):
        if high - low == 2:
            wanted.update({k: (low + 1, k0) for k in range(k0 + 1, k1)})
    by_number: dict[int, list[tuple[int, tuple[StreamLine, str]]]] = {}
    for k, (number, header_at) in wanted.items():
        if (given := _given(stream[k], number, stream[header_at], start_re)) is not None:
            by_number.setdefault(number, []).append((k, given))
    restored = list(stream)
    flags: list[Diagnostic] = []
    for number, found in sorted(by_number.items()):
        if len(found) != 1:
            continue  # two lines could be it: neither is taken
        k, (line, read) = found[0]
        restored[k] = line
        flags.append(diagnose(Code.NUMBER_INFERRED, concerns=Concerns(question=str(number)), read=f"read as {read!r}",
                              number=str(number)))
    return restored, flags


def _number(start_re: re.Pattern, item: StreamLine) -> int | None:
    match = match_number_line(start_re, item)
    number = match.group("number").strip() if match else ""
    return int(number) if number.isdecimal() else None


def _before(stream: list[StreamLine], first: int) -> list[int]:
    """The lines before the first header on its page and the page before, last first."""
    page = stream[first].page
    return [k for k in range(first - 1, -1, -1) if stream[k].page >= page - 1]


def _shape(header: StreamLine, start_re: re.Pattern) -> tuple[str, str] | None:
    """The header's text before its number (its prefix) and the mark right after it ("" where none)."""
    text = plain_text(header.text)[0]
    match = match_number_line(start_re, header)
    if match is None or match.start("number") > PREFIX_MAX_CHARS:
        return None
    prefix = text[: match.start("number")]
    after = text[match.end("number"):]
    mark = after.split(" ")[0] if after and not after[0].isspace() else ""
    return prefix, mark if mark and not any(ch.isalnum() for ch in mark) else ""


def _given(item: StreamLine, number: int, header: StreamLine, start_re: re.Pattern) -> tuple[StreamLine, str] | None:
    """`item` with `number` put back where its digits were lost, and what stood in the header's place ("Câu ."),
    or None where it does not read as a header so."""
    if not item.ocr or _number(start_re, item) is not None:
        return None
    shape = _shape(header, start_re)
    if shape is None:
        return None
    prefix, mark = shape
    size = max(header.line.font_size or item.line.font_size or 10, 1)
    shift = item.line.x0 - header.line.x0
    lost = DIGIT_WIDTH * len(str(number)) if not prefix.strip() else 0.0  # a prefix keeps the line's start
    if not -EDGE_SLACK * size <= shift <= (EDGE_SLACK + lost) * size:
        return None
    text, positions = plain_text(item.text)
    head = prefix.strip()
    if not text.startswith(head):
        return None
    at = len(head)
    rest = text[at:]
    if mark:  # ". 2011 …", "Câu . Ai…": the mark the headers print stands where the number's digits were lost
        at += len(rest) - len(rest.lstrip(" "))
        if not (text.startswith(mark, at) and text[at + len(mark): at + len(mark) + 1] in (" ", "")):
            return None
        spaced = ""
    else:  # "Soru Zaman…": headers with no mark keep only their prefix, a word space after it
        if not head or not (rest == "" or rest.startswith(" ")):
            return None
        at += 1 if rest else 0
        spaced = " " if rest else ""
    cut = positions[at] if at < len(positions) else len(item.text)
    given = replace(item, line=replace(item.line, text=item.text[:cut] + str(number) + spaced + item.text[cut:]))
    match = match_text_as(start_re, given.text, item)
    if match is None or match.group("number").strip() != str(number):
        return None
    return given, text[: at + len(mark)].strip()
