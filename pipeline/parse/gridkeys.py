"""Answer keys printed as horizontal grids: a row of question numbers over a row of answers.

    Questão   1  2  3  4 …  20          (the row label is optional)
    Gabarito  D  D  B  -  …  A

Numbers and answers sit in different rows, so they are paired by horizontal position. The text layer
often merges several cells into one line ("10 11 12 … 20"), so each token's centre is estimated from
its line's x0/x1, the token's width at the line's font size and evenly shared gaps. An answer is
taken for the number whose column it lies in; a column with no answer is reported, never filled from
its neighbour. Only when positions cannot decide and the counts agree are the rows paired in order.
Numbers a scan lost from the number row (a tilted grid's "88 89" read as nothing) are put back where the
row's pitch says they stood (`with_lost_numbers`) only when the white between their neighbours holds exactly
them and the answer row then has one answer per number, each reported on its question (`key.number_restored`)
and its entry counted as inferred (its question flagged unsure); otherwise the row is reported as before.
A number that joins neighbouring cells' numbers (a scan's "1" and "2" read as one "12" before 3, 4, 5) is read as the
numbers the row's count leaves out there, one a cell (`unjoined_numbers`), and paired by place like the others.

With `variant_header`, a row naming one variant ("… – TIPO 2 – VERDE") opens that variant's block; a
row naming several (the header of a correspondence table) opens none. Rows of other content (titles,
tables of number pairs: numbers not increasing along the row, or rows of numbers over rows of numbers)
are not grids and are ignored.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from statistics import median

from pipeline.extract import UNREAD_CELL, ExtractedDocument
from pipeline.diagnostics import Code, diagnose
from pipeline.parse.keyparts import key_stream, place_parts
from pipeline.parse.recovery import Recovery
from pipeline.parse.keys import KeyTable, is_voided
from pipeline.parse.labels import fold, number_key
from pipeline.parse.bookletlabels import BookletLabels
from pipeline.parse.stream import StreamLine, plain_text, rows, variant_names
from pipeline.patterns import spec_pattern
from pipeline.specs import KeySpec

__all__ = ["read_grid"]

MIN_GRID_NUMBERS = 3
LABEL_COLUMN_PITCHES = 1.5  # a row label's column: its cell sits this many of the row's pitches or more before the first number's
# An answer cell: a short word (option letters, "V"/"F", "Anulada"), or letters joined by / or ,
# ("A/C": both accepted).
_ANSWER_WORD = re.compile(r"^(?:[^\W\d_]{1,12}|[^\W\d_]{1,3}(?:[/,][^\W\d_]{1,3})+)$")
LOST_SLACK = 0.4  # of the row's pitch: how far two numbers around lost ones may stand from the places the pitch gives (positions are estimated)
ROW_LABEL_MIN_CHARS = 3  # a leading word this long that is no label is the answer row's label ("Odp")
_SHORT = 3  # most cells of an answer row are at most this long (titles are made of longer words)

# Rough advance widths of a sans-serif face, in ems: enough to place a token inside a merged line.
_NARROW, _MEDIUM, _WIDE = set(" iljI.,:;|!'"), set("frt-()[]*/"), set("mwMW")


def _advance(ch: str) -> float:
    if unicodedata.combining(ch):
        return 0.0  # a combining mark sets no width of its own
    if ch in _NARROW:
        return 0.28
    if ch in _MEDIUM:
        return 0.36
    if ch in _WIDE:
        return 0.85
    if ch.isdigit():
        return 0.56
    return 0.68 if ch.isupper() else 0.54


@dataclass(frozen=True)
class Token:
    text: str
    x: float  # estimated horizontal centre, in the page's units


def row_tokens(row: list[StreamLine], default_scale: float = 1.0, numbers: bool = False) -> list[Token]:
    """The row's whitespace-separated tokens, left to right, each with its estimated centre; `numbers`: the row is
    taken for a number row, and a number joining its neighbouring cells' numbers is those numbers (`unjoined_numbers`)."""
    scale = _face_scale(row) or default_scale
    words = [_words(item) for item in row]
    if numbers:  # split before the places are shared out, each part in a cell of its own; the count runs across the row's lines
        flat = [(line, word) for line, item_words in enumerate(words) for word in item_words]
        parts = unjoined_parts([word for _, word in flat])
        words = [[part for (line, _), split in zip(flat, parts) if line == index for part in split] for index in range(len(row))]
    return [token for item, item_words in zip(row, words) for token in _line_tokens(item, scale, item_words)]


def _words(item: StreamLine) -> list[str]:
    return [cell for word in re.findall(r"\S+", plain_text(item.text)[0]) for cell in _unglued(word)]


def _em(item: StreamLine) -> float:
    return item.line.font_size or (item.line.bottom - item.line.top)


def _estimated_width(word: str, em: float) -> float:
    return em * _word_advance(word)


@lru_cache(maxsize=4096)
def _word_advance(word: str) -> float:
    """The word's advance in ems, summed character by character (kept per word: a key's cells are a few
    letters and numbers, each asked again on every row and every reading of the row)."""
    return sum(_advance(ch) for ch in word)


def _face_scale(lines: list[StreamLine]) -> float | None:
    """How much wider this face sets than the width table, measured on the lines of one word (a row's,
    or a document's for a row printed as one line); None when there are none."""
    ratios = []
    for item in lines:
        word = plain_text(item.text)[0].strip()
        if word and " " not in word:
            ratios.append((item.line.x1 - item.line.x0) / _estimated_width(word, _em(item)))
    return median(ratios) if ratios else None


def _line_tokens(item: StreamLine, scale: float, words: list[str]) -> list[Token]:
    """Tokens of one extracted line. A grid's cells are set far wider apart than a space, so the text's
    characters do not say where a token lies: each token's width is estimated from the font size and
    the space left over is shared equally by the gaps between tokens (grid cells are evenly spaced,
    and so, roughly, is a row label from the first cell)."""
    if not words:
        return []
    x0, x1 = item.line.x0, item.line.x1
    widths = [scale * _estimated_width(word, _em(item)) for word in words]
    free = (x1 - x0) - sum(widths)
    if free < 0:  # the estimate ran wider than the line: shrink the words, no gaps
        widths = [w * (x1 - x0) / sum(widths) for w in widths]
        free = 0.0
    gap = free / (len(words) - 1) if len(words) > 1 else 0.0
    left = x0 if len(words) > 1 else x0 + free / 2
    tokens = []
    for word, width in zip(words, widths):
        tokens.append(Token(word, left + width / 2))
        left += width + gap
    return tokens


def unjoined_numbers(words: list[str]) -> list[str]:
    """A number row's words with each number that breaks the row's count and reads as the run its neighbours leave out
    between them written as that run's numbers, one a cell: a scan's second reading joined two cells' "1" and "2" into
    "12" before 3, 4, 5, …, and the row, no longer counting up, lost the answers of its first two cells (reported, 18
    numbers against 20 answers). The count fixes every part: between two neighbours the parts are the numbers they
    skip, at least two; at the row's first (last) word the neighbours after (before) it count on by one for two more
    words. Anything else stays as read, and a row whose answers then do not fit its columns is reported (`pair`)."""
    return [part for parts in unjoined_parts(words) for part in parts]


def unjoined_parts(words: list[str]) -> list[list[str]]:
    """Each of a number row's words as `unjoined_numbers` writes it: the numbers it joins, or the word alone."""
    values = [int(word) if word.isdecimal() else None for word in words]
    return [_joined_run(values, index, word) or [word] for index, word in enumerate(words)]


def _joined_run(values: list[int | None], index: int, word: str) -> list[str] | None:
    """The numbers `word` (at `index` of a row read as `values`) joins, by the row's count, or None (`unjoined_numbers`)."""
    value = values[index]
    if value is None or len(word) < 2:
        return None
    before = values[index - 1] if index > 0 else None
    after = values[index + 1] if index + 1 < len(values) else None
    if before is not None and after is not None:
        if before < value < after:
            return None  # it fits the count as read
        first, last = before + 1, after - 1
    elif after is not None and index + 2 < len(values) and values[index + 2] == after + 1:
        last = after - 1  # the row's first word: the run ends before its neighbour, wherever it starts
        first = next((start for start in range(max(0, last - len(word) + 1), last) if _written(start, last) == word), last)
    elif before is not None and index >= 2 and values[index - 2] == before - 1:
        first = before + 1  # the row's last word: the run starts after its neighbour
        last = next((end for end in range(first + 1, first + len(word)) if _written(first, end) == word), first)
    else:
        return None
    if not 1 <= last - first < len(word) or _written(first, last) != word:  # each part a digit at least
        return None
    return [str(number) for number in range(first, last + 1)]


def _written(first: int, last: int) -> str:
    return "".join(str(number) for number in range(first, last + 1))


# An overlay mark (Unicode combining class 1: a stroke or solidus drawn through a cell, U+0335, U+0336,
# U+0338, U+20E5) printed alone in its cell, glued by the text layer to the letter of the next cell or the one
# before: a cell of its own, never a part of its neighbour.
_OVERLAY = 1


def _unglued(word: str) -> list[str]:
    """`word` with each run of overlay marks a cell of its own ("̶B" -> "̶", "B")."""
    cells: list[str] = []
    for ch in word:
        mark = unicodedata.combining(ch) == _OVERLAY
        if cells and mark == is_mark(cells[-1]):
            cells[-1] += ch
        else:
            cells.append(ch)
    return cells


def is_mark(text: str) -> bool:
    """A cell made only of overlay marks (a voided answer printed as a lone stroke)."""
    return bool(text) and all(unicodedata.combining(ch) == _OVERLAY for ch in text)


@dataclass(frozen=True)
class NumberCell:
    key: str  # number key, pilot mark stripped
    printed: str
    x: float
    pilot: bool


def number_row(tokens: list[Token], pilot_mark: str | None) -> list[NumberCell] | None:
    """The question numbers of a grid's number row (after an optional leading label of words), or None
    when the row is something else. Numbers must increase along the row: a table of number pairs
    (which question of one booklet is which of another) does not."""
    mark = re.escape(pilot_mark) if pilot_mark else "(?!)"  # no mark: a pattern that never matches
    pattern = re.compile(rf"^(?P<n>\d{{1,4}})(?P<pilot>{mark})?$")
    tokens = _after_label(tokens)
    # A row label OCR read with digits ("문항" as "24" or "2%") opens a row that counts up without it.
    cells = _number_cells(tokens, pattern) or (_number_cells(tokens[1:], pattern) if len(tokens) > MIN_GRID_NUMBERS else None)
    return _without_label_number(cells) if cells else cells


def _without_label_number(cells: list[NumberCell]) -> list[NumberCell]:
    """The row without its first number where that is a row label OCR read as a smaller number ("문항"
    as "2" before 21, 22, …): the rest count up by one, the first does not continue them, and it stands
    in a column of its own, farther from the next than `LABEL_COLUMN_PITCHES` of the row's pitch."""
    rest = cells[1:]
    if len(rest) < MIN_GRID_NUMBERS:
        return cells
    values = [int(c.key) for c in cells]
    counts_up = all(b - a == 1 for a, b in zip(values[1:], values[2:]))
    apart = rest[0].x - cells[0].x > LABEL_COLUMN_PITCHES * _pitch(rest)
    return rest if counts_up and values[1] - values[0] != 1 and apart else cells


def _number_cells(tokens: list[Token], pattern: re.Pattern) -> list[NumberCell] | None:
    cells = []
    for token in tokens:
        match = pattern.match(token.text)
        if not match:
            return None
        cells.append(NumberCell(number_key(match.group("n")), token.text, token.x, bool(match.group("pilot"))))
    values = [int(c.key) for c in cells]
    if len(cells) < MIN_GRID_NUMBERS or any(b <= a for a, b in zip(values, values[1:])):
        return None
    return cells


def _after_label(tokens: list[Token]) -> list[Token]:
    """The tokens after a leading row label (words without digits: "Questão", "Nº da questão")."""
    start = 0
    while start < len(tokens) and not any(ch.isdigit() for ch in tokens[start].text):
        start += 1
    return tokens[start:]


def _numbers(tokens: list[Token]) -> list[int] | None:
    """The row's numbers when, after a leading label, it holds numbers only (in any order)."""
    rest = _after_label(tokens)
    return [int(t.text) for t in rest] if rest and all(t.text.isdecimal() for t in rest) else None


def _pitch(cells: list[NumberCell]) -> float:
    return median(b.x - a.x for a, b in zip(cells, cells[1:]))


def answer_cells(tokens: list[Token], cells: list[NumberCell], voided: list[str], labels: Sequence[str] = ()) -> list[Token] | None:
    """The answer tokens of the row under a number row (a leading label left of the first number's column
    dropped, and, given the option `labels`, any leading word that is no label: "Odp", "정답"), or None
    when the row is not an answer row. A label that folds to a digit (① read as 1) is an answer."""
    folded = {fold(label) for label in labels}
    # A row label is a word; a cell OCR misread is a character or two, and stays (dropped, it would
    # move every answer after it). A shorter one goes only where the row then holds one answer per
    # number ("ee" read for "정답").
    while folded and tokens and not _is_answer(tokens[0].text, voided, folded) and (
            len(tokens[0].text) >= ROW_LABEL_MIN_CHARS or len(tokens) - 1 == len(cells)):
        tokens = tokens[1:]
    # Left of the first number's column: a label. Places are estimated from the line's ends, and a
    # label in the line moves them, so given the labels no token goes that leaves a number without one.
    left = cells[0].x - _pitch(cells) / 2
    while tokens and tokens[0].x < left and (not folded or len(tokens) > len(cells)):
        tokens = tokens[1:]
    if not tokens:
        return None
    odd = [t.text == UNREAD_CELL or is_voided(t.text, voided) or is_mark(t.text) for t in tokens]
    kinds = [known or _is_answer(t.text, voided, folded) or (_ANSWER_WORD.match(t.text) is not None) for known, t in zip(odd, tokens)]
    short = [known or len(t.text) <= _SHORT for known, t in zip(odd, tokens)]
    if not all(kinds) or sum(short) * 2 < len(tokens):
        return None
    return tokens


def _is_answer(text: str, voided: list[str], folded_labels: set[str]) -> bool:
    return text == UNREAD_CELL or is_voided(text, voided) or fold(text) in folded_labels


def pair(cells: list[NumberCell], answers: list[Token]) -> tuple[dict[int, Token], str | None]:
    """{index of number cell: its answer}, and a problem when the rows cannot be paired. Each answer goes
    to the number whose column it lies in (within half the column pitch); when positions fail (two answers
    in one column, one outside every column) and the counts agree, the rows are paired in order."""
    half = _pitch(cells) / 2
    paired: dict[int, Token] = {}
    for answer in answers:
        index = min(range(len(cells)), key=lambda i: abs(cells[i].x - answer.x))
        if abs(cells[index].x - answer.x) > half or index in paired:
            break
        paired[index] = answer
    else:
        if len(paired) == len(cells) or len(answers) != len(cells):
            return paired, None
        # One answer per number, yet by place a number is left without one: the places, estimated from
        # a line that holds the row's label too, drifted, and an answer would sit on its neighbour's
        # question. In order, each is its own.
    if len(answers) == len(cells):
        return dict(enumerate(answers)), None
    return {}, f"{len(answers)} answers cannot be paired with {len(cells)} numbers"


def _value(cell: NumberCell) -> int:
    return int(re.match(r"\d+", cell.printed).group())  # type: ignore[union-attr]


def with_lost_numbers(cells: list[NumberCell]) -> list[NumberCell]:
    """The number row with the numbers OCR lost from it put back where the row itself says they stood: two
    neighbours whose numbers skip k - 1 between them and stand k of the row's pitches apart (within
    `LOST_SLACK` of a pitch; the pitch is the median step between neighbours one apart) had those numbers
    between them, evenly set. A skip the white does not match (a part's numbering going on elsewhere, a
    column left out) restores nothing."""
    ones = [b.x - a.x for a, b in zip(cells, cells[1:]) if _value(b) - _value(a) == 1]
    if len(ones) < MIN_GRID_NUMBERS - 1:
        return cells
    pitch = median(ones)
    restored = [cells[0]]
    for a, b in zip(cells, cells[1:]):
        skip = _value(b) - _value(a)
        if skip > 1 and abs((b.x - a.x) - skip * pitch) <= LOST_SLACK * pitch:
            step = (b.x - a.x) / skip
            restored += [NumberCell(number_key(str(_value(a) + k)), str(_value(a) + k), a.x + k * step, False) for k in range(1, skip)]
        restored.append(b)
    return restored


def _span(cells: list[NumberCell]) -> str:
    return f"{cells[0].printed}–{cells[-1].printed}"


def read_grid(document: ExtractedDocument, spec: KeySpec, name: str, labels: Sequence[str] = (),
              recovery: Recovery | None = None, variant: str | None = None) -> dict[str, KeyTable]:
    """One table per variant named by a `variant_header` row ({"" : table} without variant_header).
    `labels`, the spec's option labels, let an answer row of digits (①–⑤ print as 1–5) be one. A header's variant
    read as a look-alike of a declared one is that one (`bookletlabels`; `variant`: the sheet's own, where the spec
    declares none)."""
    header_re = spec_pattern(spec.variant_header) if spec.variant_header else None
    booklets = BookletLabels.of(spec, variant)
    header_problems: list[str] = []  # header names no declared variant matches: said on every table
    tables: dict[str, KeyTable] = {} if header_re else {"": KeyTable(name)}
    current: KeyTable | None = None if header_re else tables[""]
    orphans: list[str] = []  # grids before any variant header: reported on every table
    stream = key_stream(document, spec.stop_at, recovery)
    all_rows = rows(stream)
    scale = _face_scale(stream) or 1.0
    # Parts whose numbering restarts (`key.sections`): a grid's numbers take the prefix of the part it lies in.
    parts = {id(p.line): p.part for p in place_parts(stream, list(spec.sections), {id(sl): plain_text(sl.text)[0] for sl in stream})}
    for index, row in enumerate(all_rows):
        if header_re:
            named, unmatched = booklets.name_row(variant_names(header_re, row), any(sl.ocr for sl in row))
            header_problems += unmatched
            variants = set(named)
            if len(variants) == 1:
                current = tables.setdefault(variants.pop(), KeyTable(name))
            if variants:  # a row naming several variants heads some other table: it opens no block
                continue
        cells = number_row(row_tokens(row, scale, numbers=True), spec.pilot_mark)
        if cells is None:
            continue
        if parts[id(row[0])].prefix:
            cells = [replace(c, key=number_key(parts[id(row[0])].prefix + c.key)) for c in cells]
        page = row[0].page
        where = f"page {page}: questions {_span(cells)}"
        below = all_rows[index + 1] if index + 1 < len(all_rows) and all_rows[index + 1][0].page == page else None
        answers = answer_cells(row_tokens(below, scale), cells, spec.voided, labels) if below else None
        if current is None:
            if header_re and answers is not None:
                orphans.append(f"{where} come before any variant header (key.variant_header); not read")
            continue
        if answers is None:
            following = _numbers(row_tokens(below, scale)) if below else None
            if following and following[0] <= int(re.match(r"\d+", cells[-1].printed).group()):  # type: ignore[union-attr]
                continue  # a table of numbers (which question of one booklet is which of another), not a grid
            current.problems.append(f"{where}: no row of answers under the numbers")
            current.named |= {c.key for c in cells}
            continue
        paired, problem = pair(cells, answers)
        if problem and not spec.pilot_mark and not parts[id(row[0])].prefix:
            # Numbers lost from the row (a tilted scan's cells read as nothing): put back where the row's pitch
            # says they stood, the answer row must then hold one answer for each, by place or in order.
            restored = with_lost_numbers(cells)
            if len(restored) > len(cells) and len(restored) == len(answers):
                again, still = pair(restored, answers)
                if still is None and len(again) == len(restored):
                    # Each number put back is a line on its question, whose entry rests on the inference.
                    read = {id(c) for c in cells}
                    for cell in (c for c in restored if id(c) not in read):
                        current.problems.append(diagnose(Code.KEY_NUMBER_RESTORED, name=current.name, where=where, question=cell.printed))
                        current.inferred.add(cell.key)
                    cells, paired, problem = restored, again, None
        if problem:
            current.problems.append(f"{where}: {problem}")
            current.named |= {c.key for c in cells}
            continue
        _record(current, cells, paired, spec, where)
    for table in tables.values():
        table.report_twice()
        table.problems[:0] = header_problems + orphans
        table.variants = sorted(tables) if header_re else []
    return tables  # with variant_header but none printed: empty (the caller reports the missing header)


def _record(
    table: KeyTable, cells: list[NumberCell], paired: dict[int, Token], spec: KeySpec, where: str
) -> None:
    missing = [cells[i].printed for i in range(len(cells)) if i not in paired]
    if missing:
        table.problems.append(f"{where}: no answer under question(s) {', '.join(missing)}")
        table.named |= {cells[i].key for i in range(len(cells)) if i not in paired}
    table.unread += [cells[i].printed for i, answer in sorted(paired.items()) if answer.text == UNREAD_CELL]
    marks = [i for i, answer in sorted(paired.items()) if is_mark(answer.text) and not is_voided(answer.text, spec.voided)]
    if marks:
        shown = ", ".join(f"U+{ord(ch):04X}" for ch in dict.fromkeys("".join(paired[i].text for i in marks)))
        table.problems.append(diagnose(Code.KEY_MARK_CELL, name=table.name, where=where,
                                       numbers=", ".join(cells[i].printed for i in marks), marks=shown))
        table.named |= {cells[i].key for i in marks}
    paired = {i: answer for i, answer in paired.items() if answer.text != UNREAD_CELL and i not in marks}
    for index, answer in sorted(paired.items()):
        cell = cells[index]
        if not table.put(cell.key, answer.text):  # keyed already (or twice: no answer is "first")
            continue
        if is_voided(answer.text, spec.voided):
            table.voided.add(cell.key)
        if cell.pilot:
            table.pilot.add(cell.key)
