"""Numbering: the line stream cut into question blocks, groups of parts, and shared passages."""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field, replace

from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.extract import ExtractedDocument
from pipeline.parse.geometry import column_edges, indent
from pipeline.parse.labels import number_key
from pipeline.parse.numberscript import in_page_script, page_scripts
from pipeline.parse.recovery import NumberRunsWork, Point, Recovery
from pipeline.parse.stream import StreamLine, match_number_line, match_text_as, plain_text, rest_after, same_row
from pipeline.patterns import spec_pattern
from pipeline.widths import plain_number


@dataclass
class Block:
    kind: str  # "question" | "context"
    number: str | None
    points: float | None
    header_rest: str  # text after the header on its line
    lines: list[StreamLine] = field(default_factory=list)
    start: StreamLine | None = None
    is_group: bool = False
    context: str | None = None  # shared passage text this question refers to
    duplicate: bool = False
    reserve: bool = False  # in a reserve-questions section (layout.sections)
    flags: list[str] = field(default_factory=list)  # how its number was inferred, where it was

    @property
    def pages(self) -> list[int]:
        found = {self.start.page} if self.start else set()
        found.update(sl.page for sl in self.lines)
        return sorted(found)


def _order_key(number: str) -> tuple:
    parts = []
    for chunk in re.findall(r"\d+|[^\d.\s]+", number_key(number)):
        parts.append((0, int(chunk), "") if chunk.isdecimal() else (1, 0, chunk))
    return tuple(parts)


def _points(value: str | None) -> float | None:
    if not value:
        return None
    try:
        return float(value.replace(",", "."))
    except ValueError:
        return None


DUPLICATE_MAX_SHIFT = 3.0  # font sizes between a repeated number's left edge and the first one's


@dataclass
class Numbering:
    """Where the sheet's question numbering stands: the section prefix, and the restarts found where
    no section was declared (a header "1." aligned with the question numbers, taken as text)."""

    sections: list = field(default_factory=list)  # pipeline.specs.SectionRule, in spec order
    # layout.question_max_indent: a header indented further right of its column's edge is text (a
    # numbered list inside a passage); such lines are kept in `indented`, for `inspect` to say so.
    max_indent: float | None = None
    indented: list[StreamLine] = field(default_factory=list)
    prefix: str = ""
    top: str = ""  # the current top-level section's prefix
    reserve: bool = False
    restarts: list[StreamLine] = field(default_factory=list)
    # OCR'd question numbers read without their mark and given it (`first-number-mark`, `next-number-mark`): the number
    # was read, so no question is flagged; the sheet's notes count them (`parse.marks_restored`, info).
    marks_restored: list[str] = field(default_factory=list)
    # Question numbers read with letters of another script than their page's, written in the page's (`numberscript`):
    # "A1 → Α1", counted in the sheet's notes (`parse.number_script`, info).
    scripts_followed: list[str] = field(default_factory=list)
    # Lines before the first question of the sheet or of a part (after its heading): no question's (`losses.note_unclaimed`).
    unclaimed: list[StreamLine] = field(default_factory=list)

    def __post_init__(self) -> None:
        first = self.sections[0] if self.sections else None
        if first is not None and first.start is None:  # the part before any heading
            self.top = self.prefix = first.prefix
            self.reserve = first.reserve

    def enter(self, text: str) -> bool:
        """Whether `text` (a line's plain text) opens a declared section; if so, the prefix changes."""
        for rule in self.sections:
            if rule.start is not None and spec_pattern(rule.start).search(text):
                if rule.nested:
                    self.prefix = self.top + rule.prefix
                else:
                    self.top = self.prefix = rule.prefix
                self.reserve = rule.reserve
                return True
        return False


def dropped_section_starts(document: ExtractedDocument, sections: list) -> list[Diagnostic]:
    """A declared section's heading printed on a page the spec drops (`drop_pages`, a scratch-page rule)
    is never read, so its part would silently keep the previous part's numbers: one problem per heading."""
    found = []
    for page in document.pages:
        if not page.dropped_reason:
            continue
        for line in page.lines:
            text = plain_text(line.text)[0]
            rule = next((r for r in sections if r.start is not None and spec_pattern(r.start).search(text)), None)
            if rule is not None:
                found.append(diagnose(Code.SECTION_ON_DROPPED_PAGE, prefix=rule.prefix, page=page.number,
                                      why=page.dropped_reason, line=text[:60]))
    return found


def split_blocks(
    stream: list[StreamLine], question_start: str, context_start: str | None, numbering: Numbering | None = None,
    recovery: Recovery | None = None,
) -> list[Block]:
    """Blocks in reading order. A header whose number does not increase is text, not a new question
    (a numbered line inside a stem, or a cover-page instruction list). A heading of a declared
    section (`numbering.sections`) restarts the numbering under its prefix. `recovery`: the OCR recovery
    passes to run on the stream first (`Point.STREAM`: question numbers whose mark OCR lost); every one
    when not given."""
    start_re = spec_pattern(question_start)
    context_re = spec_pattern(context_start) if context_start else None
    numbering = numbering or Numbering()
    blocks: list[Block] = []
    seen: dict[str, StreamLine] = {}
    recent: list[str] = []  # the last two header numbers
    last_order: tuple | None = None
    current: Block | None = None
    stream, given = (recovery or Recovery.every()).lines(Point.STREAM, stream, start_re=start_re)
    # A number whose digits were lost and put back (`lostdigits`) is flagged on its question; a mark put back is a note.
    inferred = {f.concerns.question: f for f in given
                if isinstance(f, Diagnostic) and f.code is Code.NUMBER_INFERRED and f.concerns.question}
    numbering.marks_restored += [f for f in given if not (isinstance(f, Diagnostic) and f.code is Code.NUMBER_INFERRED)]
    items = _join_split_headers(stream, start_re)
    runs = number_runs(items, start_re, numbering.sections)
    misread = (recovery or Recovery.every()).run(Point.NUMBER_RUNS, NumberRunsWork(runs, misread_numbers(runs))).misread
    edges = _page_edges(items) if numbering.max_indent is not None else {}
    scripts: dict[int, str] | None = None  # each page's script, counted where a number first holds a letter
    for item in items:
        if numbering.sections and numbering.enter(plain_text(item.text)[0]):
            seen, recent, last_order, current = {}, [], None, None
            continue
        match = match_number_line(start_re, item)
        if match and edges and indent(item.line.x0, edges[item.page]) > numbering.max_indent:
            numbering.indented.append(item)
            match = None  # indented past the questions' own edge: a numbered line inside the text
        if match and id(item) in misread and misread[id(item)] is None:
            match = None  # a number out of the run ("2020." in a stem): text
        if match:
            printed = plain_number(match.group("number").strip())
            read = misread.get(id(item)) or printed
            if not read.isascii() or not read.isdigit():  # letters in it: written in its page's script
                scripts = page_scripts(items) if scripts is None else scripts
                if (written := in_page_script(read, scripts.get(item.page))) != read:
                    numbering.scripts_followed.append(f"{read} → {written}")
                    read = written
            number = numbering.prefix + read
            order = _order_key(number)
            first = seen.get(number_key(number))
            # A number printed again starts a question only where the first one stood: "19" on a
            # postcard in a passage's picture (read by OCR) is not question 19; and only right after
            # it: a "1." long after question 1 is a numbered list (endnotes) or a restart, not a repeat.
            again = (
                first is not None
                and number_key(number) in recent
                and abs(item.line.x0 - first.line.x0) <= DUPLICATE_MAX_SHIFT * max(item.line.font_size or 10, 1)
            )
            if last_order is None or order > last_order or again:
                points = _points(match.groupdict().get("points"))
                current = Block("question", number, points, rest_after(item, match), start=item)
                current.duplicate = first is not None
                if id(item) in misread:
                    current.flags.append(diagnose(Code.NUMBER_INFERRED, read=f"read as {printed}", number=number))
                elif (lost := inferred.pop(printed, None)) is not None:
                    current.flags.append(lost)
                current.reserve = numbering.reserve
                seen.setdefault(number_key(number), item)
                recent = [*recent[-1:], number_key(number)]
                last_order = max(order, last_order) if last_order else order
                blocks.append(current)
                continue
            if number_key(number) == number_key(numbering.prefix + "1") and _aligned_with_headers(item, seen):
                numbering.restarts.append(item)
        if context_re is not None and context_re.match(plain_text(item.text)[0]):
            current = Block("context", None, None, item.text, start=item)
            blocks.append(current)
            continue
        if current is not None:
            current.lines.append(item)
        else:
            numbering.unclaimed.append(item)
    return blocks


def _page_edges(stream: list[StreamLine]) -> dict[int, list[float]]:
    """Each page's column edges (`geometry.column_edges`), from its lines in the stream."""
    by_page: dict[int, list[StreamLine]] = {}
    for item in stream:
        by_page.setdefault(item.page, []).append(item)
    return {page: column_edges(lines) for page, lines in by_page.items()}


_BARE_NUMBER = re.compile(r"^(\d{1,3})(?=\s|$)")


def restore_next_marks(stream: list[StreamLine], start_re: re.Pattern) -> list[StreamLine]:
    """OCR'd question numbers whose mark was lost ("3" | "¿A cuál…" where the sheet prints "3."): a bare
    number on an OCR'd line, at the left edge of the headers before it, that is the next number of the
    run, gets the mark `question_start` asks for. Only the next number: a bare "1940" in a stem stays.
    Nor does a number right below a line that opens, at its own left edge, with the bare number one less: the
    two count in a column of bare numbers that are not headers (options labelled 1–5 on dark squares, read
    bare: "1 …", "2 …" below the header "1.").
    (The run's first number has no header before it: `restore_first_mark`, the pass before this one.)"""
    restored: list[StreamLine] = []
    last: int | None = None
    lefts: list[float] = []
    previous: StreamLine | None = None
    for item in stream:
        number = _header_number(start_re, item)
        if number is not None:
            last = number
            lefts.append(item.line.x0)
        elif item.ocr and last is not None and (bare := _BARE_NUMBER.match(item.text)) and int(bare.group(1)) == last + 1:
            if (any(abs(item.line.x0 - left) <= _shift_tolerance(item) for left in lefts[-3:]) and not _bare_above(item, previous)
                    and (marked := _marked(item, start_re))):
                item = marked
                last = last + 1
                lefts.append(item.line.x0)
        restored.append(item)
        previous = item
    return restored


BARE_COLUMN_SHIFT = 0.5  # font sizes between the left edges of two bare numbers in one column


def _bare_above(item: StreamLine, previous: StreamLine | None) -> bool:
    """The line before `item`, on its page, is OCR'd, starts at `item`'s left edge and opens with the bare number
    one less than `item`'s: the two count in a column of their own."""
    above = _BARE_NUMBER.match(previous.text) if previous is not None and previous.ocr and previous.page == item.page else None
    bare = _BARE_NUMBER.match(item.text)
    return (above is not None and bare is not None and int(above.group(1)) == int(bare.group(1)) - 1 and previous is not None
            and abs(previous.line.x0 - item.line.x0) <= BARE_COLUMN_SHIFT * max(item.line.font_size or 10, 1))


def _shift_tolerance(item: StreamLine) -> float:
    return DUPLICATE_MAX_SHIFT * max(item.line.font_size or 10, 1)


def _marked(item: StreamLine, start_re: re.Pattern) -> StreamLine | None:
    """The bare number of `item` with the first mark that makes it a header, or None."""
    bare = _BARE_NUMBER.match(item.text)
    rest = item.text[bare.end():] or " x"  # a lone number is joined to its stem later
    for mark in (".", ")"):
        probe = replace(item, line=replace(item.line, text=bare.group(1) + mark + rest))
        if match_number_line(start_re, probe):
            return replace(item, line=replace(item.line, text=bare.group(1) + mark + item.text[bare.end():]))
    return None


FIRST_NUMBER_SHIFT = 0.5  # font sizes between the first number's left edge and the next header's


def restore_first_mark(stream: list[StreamLine], start_re: re.Pattern) -> list[StreamLine]:
    """The first number of the run, whose mark OCR lost: the number before the first header read, the last
    line at that header's left edge before it ("1" | "Por el arriendo…" | "2. Considera…"), gets its mark."""
    first = next((k for k, item in enumerate(stream) if _header_number(start_re, item, alone=True) is not None), None)
    if not first:
        return stream
    header = stream[first]
    number = _header_number(start_re, header, alone=True)
    for k in range(first - 1, -1, -1):
        item = stream[k]
        if item.page < header.page - 1:
            break
        if abs(item.line.x0 - header.line.x0) > FIRST_NUMBER_SHIFT * max(header.line.font_size or 10, 1):
            continue  # indented: the stem and options of the first question
        bare = _BARE_NUMBER.match(item.text)
        if item.ocr and bare and int(bare.group(1)) == number - 1 and (marked := _marked(item, start_re)):
            return [*stream[:k], marked, *stream[k + 1:]]
        break  # another line at the headers' edge stands between: no lost first number
    return stream


def _header_number(start_re: re.Pattern, item: StreamLine, *, alone: bool = False) -> int | None:
    """The question number `item` opens with; with `alone`, also a header number printed on a line of
    its own ("2." beside its stem), which `_join_split_headers` joins to its text later."""
    match = match_number_line(start_re, item)
    if match is None and alone and len(item.text.strip()) <= MAX_SPLIT_HEADER:
        match = match_number_line(start_re, replace(item, line=replace(item.line, text=item.text.strip() + " x")))
    return int(match.group("number").strip()) if match and match.group("number").strip().isdecimal() else None


def number_runs(items: list[StreamLine], start_re: re.Pattern, sections: list) -> list[list[tuple[StreamLine, int]]]:
    """The header lines and their numbers, in runs: a heading of a declared section starts a new run."""
    runs: list[list[tuple[StreamLine, int]]] = [[]]
    for item in items:
        if sections and any(rule.start and spec_pattern(rule.start).search(plain_text(item.text)[0]) for rule in sections):
            runs.append([])
            continue
        match = match_number_line(start_re, item)
        if match and match.group("number").strip().isdecimal():
            runs[-1].append((item, int(match.group("number").strip())))
    return runs


def _triples(runs: list[list[tuple[StreamLine, int]]]):
    """(item, value, before, after, aligned, same_width) of each header between two others of its run that goes
    on rising after it: `aligned`, it stands at the left edge where the run's other headers stand (on a two-column
    page, either column's); `same_width`, its number has as many digits as the one the run leaves there."""
    for run in runs:
        for index in range(1, len(run) - 1):
            (_, before), (item, value), (_, after) = run[index - 1 : index + 2]
            if not (before < after and (index + 2 >= len(run) or run[index + 2][1] > after)):
                continue
            tolerance = DUPLICATE_MAX_SHIFT * max(item.line.font_size or 10, 1)
            aligned = any(abs(item.line.x0 - other.line.x0) <= tolerance for other, _ in run if other is not item)
            yield item, value, before, after, aligned, len(str(value)) == len(str(before + 1))


def misread_numbers(runs: list[list[tuple[StreamLine, int]]]) -> dict[int, str | None]:
    """Header numbers that break an otherwise rising run (`id(line)` -> the number it must be, or None:
    text). Of 51, 92, 53, 54 the 92 is out of the run: the run goes on from 51 without it. Where it
    stands in a gap of exactly one number (51 → 53), at the other headers' left edge, with as many
    digits as that number, it is that number misread (OCR's "92" for 52, "12" for 52) and is taken as
    it; elsewhere it is text (on a scan, the `edge-strokes` pass may still read it: `edge_stroke_numbers`). A repeated number is left to the duplicate rule (and, on a scan, to the
    `twin-numbers` pass: `twin_numbers`)."""
    found: dict[int, str | None] = {}
    for item, value, before, after, aligned, same_width in _triples(runs):
        if not (value > after or value < before):
            continue
        if after == before + 2 and aligned and same_width:
            found[id(item)] = str(before + 1)
        elif value > after:
            found[id(item)] = None
    return found


def edge_stroke_numbers(runs: list[list[tuple[StreamLine, int]]]) -> dict[int, str]:
    """On a scan, the one number of a gap read with a stroke beside it (1, 21, 3: "2|", the banner's edge read
    as a bar): at the headers' left edge, it is the missing number (`id(line)` -> it; `edge_stroke_read`)."""
    return {id(item): str(before + 1) for item, value, before, after, aligned, _ in _triples(runs)
            if item.ocr and after == before + 2 and aligned and edge_stroke_read(value, before + 1)}


def edge_stroke_read(value: int, meant: int) -> bool:
    """Whether `value` is `meant` with one "1" before or after it: the edge of the box or banner a number is
    printed in, read as a bar ("|", "l", "I", which fold to 1) glued to the number ("2|" read as 21, "|7" as 17).
    A shape of the scan, not of the numbering: only the one stroke, only at either end."""
    read, printed = str(value), str(meant)
    return len(read) == len(printed) + 1 and read in (f"1{printed}", f"{printed}1")


def twin_numbers(runs: list[list[tuple[StreamLine, int]]]) -> dict[int, str]:
    """On a scan, the one number of a gap read as a neighbour's (97, 99, 99, 100 or 97, 97, 99): the run must
    rise, so that copy, OCR'd, at the headers' left edge and as wide, is the missing number (`id(line)` -> it)."""
    return {id(item): str(before + 1) for item, value, before, after, aligned, same_width in _triples(runs)
            if item.ocr and after == before + 2 and value in (before, after) and aligned and same_width}


def _aligned_with_headers(item: StreamLine, seen: dict[str, StreamLine]) -> bool:
    """A "1." taken as text stands where the question numbers stand: numbering restarted there."""
    tolerance = DUPLICATE_MAX_SHIFT * max(item.line.font_size or 10, 1)
    lefts = [sl.line.x0 for sl in seen.values()]
    return len(lefts) >= 3 and any(abs(item.line.x0 - left) <= tolerance for left in lefts)


_PUNCTUATION_FIRST = re.compile(r"^[.):]\s")

# A header token printed apart from its text (a tab or wide gap after "1.") is at most this long.
MAX_SPLIT_HEADER = 16


def _join_split_headers(stream: list[StreamLine], start_re: re.Pattern) -> list[StreamLine]:
    """A question number that came out as a line of its own ("1." | "Zgodnie z…" across a tab or wide
    gap; an OCR'd "44" re-read apart from its row) is joined to the text beside it on the same row when
    only the joined line is a question header. The text beside it is the nearest piece to its right
    among the next few lines of its row (exponents of a formula may come between in reading order)."""
    joined: list[StreamLine] = []
    used: set[int] = set()
    for index, item in enumerate(stream):
        if index in used:
            continue
        short = len(plain_text(item.text)[0]) <= MAX_SPLIT_HEADER
        partner = _right_neighbour(stream, index, used) if short and match_number_line(start_re, item) is None else None
        if partner is not None:
            following = stream[partner]
            # On a text layer bare digits beside text are a passage's line numbers ("44" | "Slovo…");
            # a header token carries its printed punctuation ("1." | "Zgodnie…"), or the text beside
            # it starts with that punctuation (a number set larger than its ". Stem").
            bare_digits = not item.ocr and plain_text(item.text)[0].strip().isdigit() and not _PUNCTUATION_FIRST.match(following.text)
            if bare_digits:  # no header, whatever the join: the line stays as it is, unjoined
                joined.append(item)
                continue
            glue = "" if _PUNCTUATION_FIRST.match(following.text) else " "
            text = f"{item.text}{glue}{following.text}"
            # The join is asked of its text first (as the joined line would be read): most such pairs make no header.
            if match_text_as(start_re, text, item) is not None:
                line = replace(
                    item.line,
                    text=text,
                    x1=following.line.x1,
                    top=min(item.line.top, following.line.top),
                    bottom=max(item.line.bottom, following.line.bottom),
                    unsure_words=item.line.unsure_words + following.line.unsure_words,  # what OCR was unsure of, kept
                    unclear_marks=item.line.unclear_marks + following.line.unclear_marks,
                    unaccounted_ink=item.line.unaccounted_ink + following.line.unaccounted_ink,
                )
                joined.append(replace(item, line=line))
                used.add(partner)
                continue
        joined.append(item)
    return joined


NEIGHBOUR_LOOKAHEAD = 4


def _right_neighbour(stream: list[StreamLine], index: int, used: set[int]) -> int | None:
    item = stream[index]
    candidates = [
        j
        for j in range(index + 1, min(index + 1 + NEIGHBOUR_LOOKAHEAD, len(stream)))
        if j not in used and same_row(item, stream[j]) and stream[j].line.x0 >= item.line.x1 - 1
    ]
    return min(candidates, key=lambda j: stream[j].line.x0) if candidates else None


def block_text(block: Block) -> str:
    parts = ([block.header_rest] if block.header_rest else []) + [sl.text for sl in block.lines]
    return "\n".join(parts)


def link_contexts(blocks: list[Block], group_headers: bool) -> list[Block]:
    """Attach shared passages to the questions after them; return the question blocks.

    A passage opened by `context_start` serves every question until the next passage. With
    `group_headers`, a question header whose number prefixes the next header's number is a group:
    its text serves the parts that share its prefix.
    """
    questions = [b for b in blocks if b.kind == "question"]
    if group_headers:
        for block, following in itertools.pairwise(questions):
            if number_key(following.number).startswith(number_key(block.number) + "."):
                block.is_group = True
    passage: str | None = None
    groups: list[Block] = []
    result = []
    for block in blocks:
        if block.kind == "context":
            passage = block_text(block)
            continue
        groups = [g for g in groups if number_key(block.number).startswith(number_key(g.number) + ".")]
        if block.is_group:
            groups.append(block)
            continue
        shared = [passage] if passage else []
        shared += [t for t in (_group_text(g) for g in groups) if t]
        block.context = "\n\n".join(shared) or None
        result.append(block)
    return result


def _group_text(group: Block) -> str:
    head = group.start.text if group.start else ""
    return "\n".join(t for t in [head, *(sl.text for sl in group.lines)] if t).strip()
