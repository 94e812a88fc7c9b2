"""Answer options inside a question block: labels in any printed style, one column or a grid."""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace

from pipeline.parse.geometry import Pitch, continues, measure_pitch
from pipeline.parse.labels import ENCLOSED_CLASS, canonical_label, fold, label_opener, label_variants, matched_label, opening_label
from pipeline.parse.recovery import Point, Recovery
from pipeline.parse.stream import StreamLine, join_wrapped, same_row


@dataclass
class Option:
    label: str
    first: StreamLine
    parts: list[str] = field(default_factory=list)
    lines: list[StreamLine] = field(default_factory=list)

    @property
    def text(self) -> str:
        return join_wrapped(self.parts)

    @property
    def highlighted(self) -> bool:
        return any(sl.line.highlighted for sl in self.lines)


@dataclass
class OptionBlock:
    stem: list[StreamLine]
    options: list[Option]
    trailing: list[StreamLine]
    flags: list[str] = field(default_factory=list)  # labels restored from where they stand
    # Lines that open with a label already taken, printed as the spec prints labels, read into an option's text:
    # (the label, the option it went into, the line's text), each flagged by `build` (`parse.label_repeated`).
    repeated: list[tuple[str, str, str]] = field(default_factory=list)


def bare_label_run(styles: list[str], min_count: int) -> int | None:
    """How many bare labels in a run make them labels (`find_options`' `bare_min_run`), where the spec's
    styles include bare ones ('A'); None otherwise."""
    return min_count if "A" in styles else None


def find_options(
    lines: list[StreamLine], labels: list[str], option_re: re.Pattern, bare_min_run: int | None = None,
    recovery: Recovery | None = None,
) -> OptionBlock:
    """Split a block's lines into stem, options and trailing text.

    Options begin with the first label; every later line that opens with an unused label is another
    option (a 2x2 grid gives A, D, B, E, C in row order: sorted back by label). A line without a label
    continues the option in its column, if it sits right below that option's last line (no wider a gap
    than the block's own paragraph leading, see `geometry`) and does not start left of its label; a
    line printed between two options' labels (a table, an exponent or a fraction set on rows of its
    own) belongs to the option in its column whenever it does not start left of the labels, and so does
    one in the cell of an option of the labels' last row (a graph's axis letters under its label).
    `recovery`: the OCR recovery passes to run on the lines (`Point.OPTION_LINES`: labels misread at the
    label column); every one when not given.
    """
    pitch = measure_pitch(lines)
    if bare_min_run:
        lines = [_bare_label_row(sl, labels, bare_min_run) for sl in _bare_label_runs(lines, labels, option_re, bare_min_run)]
    lines = _split_inner_labels(_split_run_on_options(_pull_label_partners(lines, option_re), labels, option_re), labels, option_re)
    lines, restored = (recovery or Recovery.every()).lines(Point.OPTION_LINES, lines, labels=labels, option_re=option_re)
    lines = _grid_rows_in_label_order(lines, labels, option_re)
    stem: list[StreamLine] = []
    options: list[Option] = []
    used: set[str] = set()  # the labels of `options`
    trailing: list[StreamLine] = []
    repeated: list[tuple[str, str, str]] = []
    previous: StreamLine | None = None
    # The label each line opens with, read once for the three walks below (each asked it of every line).
    opening_of = label_opener(labels, option_re)
    opening = [opening_of(item.text) for item in lines]
    label_after = _label_lines_after(lines, opening)
    next_label = _next_label_lines(lines, opening)
    beside_next: list[StreamLine] = []  # an exponent or index printed just above the next label's line
    for index, item in enumerate(lines):
        label = opening[index]
        upcoming = next_label[index]
        if label is None and not trailing and upcoming is not None and _beside_label(item, upcoming):
            beside_next.append(item)
            previous = item
            continue
        if label == labels[0] and len(options) == 1:
            # The first label again before any second one: the earlier one was a stray letter in the stem
            # (a spreadsheet's column "A" read from a scanned figure); the sequence starts here.
            stem += options[0].lines + trailing
            options, trailing, used = [], [], set()
        if label is not None and label not in used and (options or label == labels[0]) and not trailing:
            text = option_re.match(item.text).group("text").strip()
            options.append(Option(label, item, [text, *(sl.text for sl in beside_next)], [item, *beside_next]))
            used.add(label)
            beside_next = []
        elif options and previous is options[-1].first and not options[-1].parts[0] and item.page == previous.page:
            options[-1].parts.append(item.text)  # the text cell beside a lone label
            options[-1].lines.append(item)
            if label is not None and _printed_as(option_re.match(item.text), label):
                repeated.append((label, options[-1].label, item.text))
        elif not options:
            stem.append(item)
        elif not trailing and (
            _continues_in_column(options, item, pitch) or _between_labels(options, item, label_after[index], labels)
            or _right_of_on_row(options[-1].lines[-1], item) or _in_last_row_cell(options, item)
        ):
            owner = _column_owner(options, item)
            owner.parts.append(item.text)
            owner.lines.append(item)
            if label is not None and _printed_as(option_re.match(item.text), label):
                repeated.append((label, owner.label, item.text))
        else:
            trailing.append(item)
        previous = item
    if beside_next:
        (options[-1].lines if options else stem).extend(beside_next)
        if options:
            options[-1].parts.extend(sl.text for sl in beside_next)
    options.sort(key=lambda o: labels.index(o.label))
    return OptionBlock(stem, options, trailing, restored, repeated)


def _printed_as(match: re.Match, label: str) -> bool:
    """The label opening the line is printed as the spec prints `label` (its case): "a)" sub-items inside an option
    are not a second "A."."""
    printed = matched_label(match)
    return fold(printed) == fold(label) and printed.isupper() == label.isupper()


def _next_label_lines(lines: list[StreamLine], opening: list[str | None]) -> list[StreamLine | None]:
    """For each line, the next later line that opens with an option label (`opening`: the label each line opens
    with, or None)."""
    found: list[StreamLine | None] = [None] * len(lines)
    following: StreamLine | None = None
    for index in range(len(lines) - 1, -1, -1):
        found[index] = following
        if opening[index] is not None:
            following = lines[index]
    return found


def _beside_label(item: StreamLine, label_line: StreamLine) -> bool:
    """`item` sits on the label line's row, right of the label, though reading order met it first (a
    raised exponent or a fraction's numerator overlaps the row from above)."""
    overlap = min(item.line.bottom, label_line.line.bottom) - max(item.line.top, label_line.line.top)
    return item.page == label_line.page and overlap > 0 and item.line.x0 > label_line.line.x0 + 1


_BARE_WORD = re.compile(r"^\s*(?P<label>\S)\s(?P<text>\S.*)$", re.DOTALL)
BARE_INDENT = 3.0  # points right of the labels a wrapped option line starts


def _bare_label_runs(lines: list[StreamLine], labels: list[str], option_re: re.Pattern, min_run: int) -> list[StreamLine]:
    """Bare labels (a letter in a filled circle) set only a word space before their text read as a
    word ("A tinea corporis"). Such a line is a label when it is part of a run of lines at one left
    edge that opens with the first label and goes on in label order (A, B, C…, at least `min_run`),
    with only indented wrapped lines between: a stem line that starts with the word "A" is followed
    by unindented text, not by "B …". A run may also go along a row, each label's segment right of the one
    before on its row (options in a row or a grid). The label is then set apart from its text, as printed."""
    def label_of(sl: StreamLine) -> str | None:
        match = option_re.match(sl.text) or _BARE_WORD.match(sl.text)
        return canonical_label(matched_label(match) if match.re is option_re else match.group("label"), labels) if match else None

    result = list(lines)
    for start, first in enumerate(lines):
        if label_of(first) != labels[0]:
            continue
        run, expected = [start], 1
        for index in range(start + 1, len(lines)):
            sl = lines[index]
            if sl.page != first.page:
                break
            previous = lines[run[-1]]
            # The run goes down the labels' left edge (a column), or along a row right of the label before (a row of
            # options, each in its own segment: `ア 利根川   イ 信濃川`), or both (a grid).
            placed = abs(sl.line.x0 - first.line.x0) <= 2 or (same_row(previous, sl) and sl.line.x0 > previous.line.x0 + 1)
            if expected < len(labels) and placed and label_of(sl) == labels[expected]:
                run.append(index)
                expected += 1
            elif sl.line.x0 <= first.line.x0 + BARE_INDENT:
                break
        if len(run) < min_run:
            continue
        for index in run:
            sl = lines[index]
            if option_re.match(sl.text) is None:
                bare = _BARE_WORD.match(sl.text)
                result[index] = replace(sl, line=replace(sl.line, text=f"{bare.group('label')}  {bare.group('text')}"))
        return result
    return result


def _bare_label_row(item: StreamLine, labels: list[str], min_run: int) -> StreamLine:
    """Bare labels printed along one row ("A 5 cm   B 7 cm   C 12 cm"), each read as a word: the line opens
    with the first label and has at least `min_run` labels in sequence, each word-spaced, each followed
    by text of its own. The labels are then set apart from their texts, as `_bare_label_runs` does for a
    column, so the row is split at each of them. Two label letters in a row ("A B C") are no such row."""
    words = item.text.split()
    if not words or canonical_label(words[0], labels) != labels[0]:
        return item  # the row must open with the first label: no later word is asked
    at: list[int] = []
    for index, word in enumerate(words):
        expected = labels[len(at)] if len(at) < len(labels) else None
        if expected is not None and (at or index == 0) and canonical_label(word, labels) == expected:
            if at and at[-1] == index - 1:
                return item  # a label right after a label: letters, not options
            at.append(index)
    if len(at) < min_run or at[-1] == len(words) - 1:
        return item
    text = " ".join(f"{word} " if index in at else word for index, word in enumerate(words))
    return replace(item, line=replace(item.line, text=text))


def _label_lines_after(lines: list[StreamLine], opening: list[str | None]) -> list[set[str]]:
    """For each line, the option labels that open some later line of the block on the same page (`opening`: the
    label each line opens with, or None)."""
    after: list[set[str]] = [set() for _ in lines]
    seen: dict[int, set[str]] = {}
    for index in range(len(lines) - 1, -1, -1):
        after[index] = set(seen.get(lines[index].page, set()))
        label = opening[index]
        if label is not None:
            seen.setdefault(lines[index].page, set()).add(label)
    return after


def _between_labels(options: list[Option], item: StreamLine, labels_after: set[str], labels: list[str]) -> bool:
    """`item` lies between an option's label and a later label of the sequence (the next one, or one
    after it where OCR lost the next), not left of the labels."""
    following = labels.index(options[-1].label) + 1
    if not labels_after.intersection(labels[following:]):
        return False
    left = min(o.first.line.x0 for o in options if o.first.page == item.page) if any(
        o.first.page == item.page for o in options
    ) else None
    return left is not None and item.line.x0 >= left - 2


def _right_of_on_row(last: StreamLine, item: StreamLine) -> bool:
    """`item` goes on along the row of the last option's last line, right of it: the next cell of a table
    printed as the last option ("D) Figura | 1 2 3")."""
    return item.page == last.page and same_row(last, item) and item.line.x0 > last.line.x1


def _continues_in_column(options: list[Option], item: StreamLine, pitch: Pitch | None) -> bool:
    """`item` is the next line of the option in its column (in a grid, the previous line in reading
    order may belong to the other column) and does not start left of that option's label."""
    owner = _column_owner(options, item)
    return continues(owner.lines[-1], item, pitch, left_edge=owner.first.line.x0)


def _in_last_row_cell(options: list[Option], item: StreamLine) -> bool:
    """`item` stands in the cell of an option of the labels' last row: below that row, less than the rows of labels
    above stand apart (the cells' height), in the column of an option of that row and not left of its label. A
    graph's or a figure's labels (axis letters, ticks) printed under its option's label, further down than a
    paragraph's leading (`_continues_in_column`), are its option's as those of the rows above are (`_between_labels`),
    not text after the options, where a few letters would be dropped as page furniture."""
    here = [o for o in options if o.first.page == item.page]
    rows: list[list[Option]] = []
    for option in sorted(here, key=lambda o: o.first.line.top):
        if rows and same_row(rows[-1][0].first, option.first):
            rows[-1].append(option)
        else:
            rows.append([option])
    if len(rows) < 2 or options[-1] not in rows[-1]:
        return False
    tops = [min(o.first.line.top for o in row) for row in rows]
    cell = min(b - a for a, b in zip(tops, tops[1:]))
    if not tops[-1] < item.line.top < tops[-1] + cell:
        return False
    owner = _column_owner(options, item)
    return owner in rows[-1] and item.line.x0 >= owner.first.line.x0 - 2


def _column_owner(options: list[Option], item: StreamLine) -> Option:
    same_page = [o for o in options if o.first.page == item.page] or options
    left_of = [o for o in same_page if o.first.line.x0 <= item.line.x0 + 2] or same_page
    best_x = max(o.first.line.x0 for o in left_of)
    column = [o for o in left_of if abs(o.first.line.x0 - best_x) < 2]
    return max(column, key=lambda o: (o.lines[-1].page, o.lines[-1].line.top))


def _grid_rows_in_label_order(lines: list[StreamLine], labels: list[str], option_re: re.Pattern) -> list[StreamLine]:
    """In a grid of figure options the right label can sit a little higher than the left one ("B)" a few
    points above "A)"), so reading order meets it first: a label read before the previous label of its
    own row, which stands to its left, is moved right after that label."""
    result = list(lines)
    opening_of = label_opener(labels, option_re)
    for _ in range(len(labels)):
        moved = False
        found = {}
        for sl in result:
            label = opening_of(sl.text)
            if label is not None and label not in found:
                found[label] = sl
        for label, sl in found.items():
            index = labels.index(label)
            before = found.get(labels[index - 1]) if index else None
            # The geometry first: the places in `result` (two searches comparing lines field by field) are
            # asked only of a label to the right of its row's previous one.
            if (
                before is not None
                and sl.page == before.page
                and before.line.x1 < sl.line.x0
                and min(sl.line.bottom, before.line.bottom) - max(sl.line.top, before.line.top) > 0
                and result.index(sl) < result.index(before)
            ):
                result.remove(sl)
                result.insert(result.index(before) + 1, sl)
                moved = True
        if not moved:
            break
    return result


def _pull_label_partners(lines: list[StreamLine], option_re: re.Pattern) -> list[StreamLine]:
    """A label printed alone in a table cell ('D.' centred beside two lines of text) gets the first
    line of its text cell moved right after it, whatever row order the geometry gave."""
    result = list(lines)
    for label_line in [sl for sl in lines if (m := option_re.match(sl.text)) and not m.group("text").strip()]:
        candidates = [
            sl
            for sl in result
            if sl is not label_line
            and sl.page == label_line.page
            and sl.line.x0 >= label_line.line.x1 - 1
            and sl.line.x0 - label_line.line.x1 < 60
            and min(sl.line.bottom, label_line.line.bottom) - max(sl.line.top, label_line.line.top) > 0
            and not option_re.match(sl.text)
        ]
        if not candidates:
            continue
        partner = min(candidates, key=lambda sl: sl.line.top)
        result.remove(partner)
        result.insert(result.index(label_line) + 1, partner)
    return result


def _split_inner_labels(lines: list[StreamLine], labels: list[str], option_re: re.Pattern) -> list[StreamLine]:
    """Options printed side by side on one line ('B. DHCP   C. FTP', '① 1  ② 3  ③ 5'), which the
    layout keeps as one segment when the gaps between them are narrower than `segment_gap`: split before
    each later label of the sequence, in the spec's own styles (after a space, or at an enclosed label,
    spaced or not), each piece placed where its own label stands on the line (`_advance`)."""
    result: list[StreamLine] = []
    opening_of = label_opener(labels, option_re)
    for item in lines:
        label = opening_of(item.text)
        if label is None:
            result.append(item)
            continue
        pieces = [item]
        later = labels[labels.index(label) + 1 :]
        text = item.text
        for inner in _split_points(text, later[:1], labels, option_re):
            rest = text[inner.end():]
            found = option_re.match(rest)
            rest_label = canonical_label(matched_label(found), labels) if found else None
            # A label with no text after it ends the line: a number or letter closing the text ("… de 2").
            if found is not None and rest_label in later and found.group("text").strip():
                left, right = _cut(item, inner)
                pieces = [left] + _split_inner_labels([right], labels, option_re)
                break
        result.extend(pieces)
    return result


def _cut(item: StreamLine, inner: re.Match) -> tuple[StreamLine, StreamLine]:
    """The line cut at `inner` (the space before a label inside it): `cut_line`."""
    return cut_line(item, inner.start(), inner.end())


def cut_line(item: StreamLine, start: int, end: int) -> tuple[StreamLine, StreamLine]:
    """The line cut at its text's `start:end` (the space before a label inside it, or an empty span where a label is
    glued to the word before it): the text before and the text from the label on, each placed where it stands on
    the line (`_advance`, `_label_x`)."""
    text = item.text
    rest = text[end:]
    head = text[:start].rstrip()
    width = item.line.x1 - item.line.x0
    x0 = _label_x(item, text_x(item, end))
    x1 = min(item.line.x0 + _advance(head) / max(_advance(text), 1) * width, x0)
    starts = item.line.wide_gap_starts
    left = replace(item.line, text=head, x1=x1, wide_gap_starts=[x for x in starts if x < x0])
    right = replace(item.line, text=rest, x0=x0, wide_gap_starts=[x for x in starts if x > x0])
    return replace(item, line=left), replace(item, line=right)


RUN_ON_MIN_LABELS = 3  # labels in sequence inside the block's text that make a run of options printed in a paragraph


def _split_run_on_options(lines: list[StreamLine], labels: list[str], option_re: re.Pattern) -> list[StreamLine]:
    """Options printed as running text ('… which one? A) ten B) twelve C) twenty D) none'), on one line or
    wrapped over two, a label at a line's end with its text on the next (`_run_on_start` says where such a
    paragraph begins): the paragraph is cut before each label of the sequence, line by line, so that each
    piece from a label on opens with it, as an option printed on its own line does; the start of a wrapped
    line joins the option before it, and lines that go on below the last option's line (the paragraph's own
    leading) join the last option."""
    start = _run_on_start(lines, labels, option_re) if len(labels) >= RUN_ON_MIN_LABELS else None
    if start is None:
        return lines
    result, seen = list(lines[:start]), 0
    previous: StreamLine | None = None
    for later in lines[start:]:
        if later.page != lines[start].page or (seen == len(labels) and (previous is None or not continues(previous, later, None))):
            result.append(later)
            previous = None
            continue
        opens = seen == 0 or (seen < len(labels) and opening_label(later.text, labels, option_re) == labels[seen])
        pieces, seen = _cut_at_labels(later, labels, option_re, seen)
        if not opens:  # the line goes on with the option before it, wrapped from the line above: its text joins it
            merged = join_wrapped([result[-1].text, pieces[0].text])
            result[-1] = replace(result[-1], line=replace(result[-1].line, text=merged))
            pieces = pieces[1:]
        result += pieces
        previous = later
    return result


def _run_on_start(lines: list[StreamLine], labels: list[str], option_re: re.Pattern) -> int | None:
    """The line where options printed as running text begin, or None. Either no line opens with the first label
    and it stands inside a line after a space, or a line opens with it and the paragraph from there leaves a
    label at a line's end (its text wrapped to the next line). Either way in a style with a mark ('A)', '(a)',
    'A.'; a bare letter is a word), and the text from there holds the labels in sequence (at least
    `RUN_ON_MIN_LABELS`, the evidence `_bare_label_row` asks of bare labels). Options one per line or in a
    grid's rows leave no label at a line's end: they are left to the geometry (`find_options`)."""
    opening_of = label_opener(labels, option_re)
    opening = [index for index, sl in enumerate(lines) if opening_of(sl.text) == labels[0]]
    # Where a line opens with the first label, only that line can begin the paragraph; else only a line holding the
    # first label inside it: the page's text from there on is gathered for those lines alone.
    for index in opening[:1] or range(len(lines)):
        item = lines[index]
        points = None if opening else _label_points(item.text, labels, option_re, labels[0])
        if not opening and not points:
            continue
        same_page = [sl.text for sl in lines[index:] if sl.page == item.page]
        if points is None:
            if not any(_dangling_label(text, labels, option_re) for text in same_page):
                continue
            rest = " ".join(same_page)
        else:
            rest = " ".join([item.text[points[0].end():], *same_page[1:]])
        if _labels_in_sequence(rest, labels, option_re) >= RUN_ON_MIN_LABELS:
            return index
    return None


_SPACES = re.compile(r"\s+")


def _dangling_label(text: str, labels: list[str], option_re: re.Pattern) -> bool:
    """`text` ends with a label in a marked style after a space, nothing after it."""
    spaces = list(_SPACES.finditer(text.rstrip()))
    found = option_re.match(text.rstrip()[spaces[-1].end():]) if spaces else None
    return bool(found and _marked(found) and not found.group("text").strip() and canonical_label(matched_label(found), labels))


def _cut_at_labels(item: StreamLine, labels: list[str], option_re: re.Pattern, seen: int) -> tuple[list[StreamLine], int]:
    """The line cut before each label of the sequence from `labels[seen]` on that stands inside it (`_label_points`),
    and how far the sequence has gone (a line opening with the next label counts it)."""
    pieces: list[StreamLine] = []
    rest = item
    if seen < len(labels) and opening_label(rest.text, labels, option_re) == labels[seen]:
        seen += 1
    while seen < len(labels):
        points = _label_points(rest.text, labels, option_re, labels[seen])
        if not points:
            break
        left, rest = _cut(rest, points[0])
        pieces.append(left)
        seen += 1
    return [*pieces, rest], seen


def _label_points(text: str, labels: list[str], option_re: re.Pattern, label: str) -> list[re.Match]:
    """The spaces inside `text` after which `label` stands in a marked style ('A)', not a bare 'A'), followed
    by its text or ending the line (its text on the next)."""
    points = []
    for inner in _SPACES.finditer(text):
        if inner.start() == 0:
            continue
        found = option_re.match(text[inner.end():])
        if found and _marked(found) and canonical_label(matched_label(found), labels) == label:
            points.append(inner)
    return points


def _labels_in_sequence(text: str, labels: list[str], option_re: re.Pattern, start: int = 0) -> int:
    """How far the label sequence goes in `text` from `labels[start]` on: `start` plus the labels met in order, each
    in a marked style after a space or opening the text (`_label_points`)."""
    seen, rest = start, text
    while seen < len(labels):
        points = _label_points("_ " + rest, labels, option_re, labels[seen])
        if not points:
            break
        rest = ("_ " + rest)[points[0].end() + 1:]  # past the label's first character: the next label is looked for after it
        seen += 1
    return seen


# Where a later option may start inside a line: after a space (the option regex then decides whether a
# label of the spec's style stands there: 'C.', '(c)', 'γ:', '나.', '[D]'), or at an enclosed label (①,
# Ⓑ), spaced or not.
_INNER_LABEL = re.compile(rf"\s+|(?=[{ENCLOSED_CLASS}])")


def _split_points(text: str, following: list[str], labels: list[str], option_re: re.Pattern) -> list[re.Match]:
    """Where a later option may start in `text`, in order: the `_INNER_LABEL` places, and where the very
    next label (`following`) stands glued to the text before it ('a tableB) a cat'): options set so
    close (a point or two) that the extraction put no space between them. A glued label counts only
    in a style with a mark ('B)', 'B.', '(B)'), never a bare letter, which would split any word, and
    only after a lower-case letter or a digit: after a capital or a dot it is an acronym ('HB.', 'U.S.B.')."""
    points = list(_INNER_LABEL.finditer(text, 1))
    if following:
        for variant in label_variants(following[0]):
            if variant not in text:
                continue  # the label is printed nowhere in the line: no pattern is made to look for it
            for at in re.finditer(re.escape(variant), text):
                start = at.start()
                before = text[start - 1] if start >= 2 else ""
                if not before.isalnum() or before.isupper():  # '2HB.', 'U.S.B.': an acronym's letters
                    continue
                found = option_re.match(text[start:])
                if found and canonical_label(matched_label(found), labels) == following[0] and _marked(found):
                    points.append(_GLUED.match(text, start))
    return sorted(points, key=lambda m: m.start())


_GLUED = re.compile("")  # an empty match at a glued label: the split point itself


def _marked(found: re.Match) -> bool:
    """The matched label carries a mark (bracket, dot, colon) beside its letter."""
    printed = found.group(0)[: found.start("text") - found.start()].strip()
    return printed.casefold() != matched_label(found).casefold()


def text_x(item: StreamLine, at: int) -> float:
    """Where the line's text reaches at character `at`, estimated from the text (`_advance`) over the line's width."""
    return item.line.x0 + _advance(item.text[:at]) / max(_advance(item.text), 1) * (item.line.x1 - item.line.x0)


def gap_start_near(item: StreamLine, estimate: float) -> float | None:
    """The start of a word after a wide gap that the extraction recorded (`Line.wide_gap_starts`, the glyphs' own
    positions) nearest `estimate`, where one lies within two font sizes of it."""
    reach = 2 * (item.line.font_size or item.line.bottom - item.line.top or 10.0)
    near = [x for x in item.line.wide_gap_starts if abs(x - estimate) <= reach]
    return min(near, key=lambda x: abs(x - estimate)) if near else None


def _label_x(item: StreamLine, estimate: float) -> float:
    """Where a label inside the line stands: the wide gap's word start nearest the estimate from the text
    (`gap_start_near`); else the estimate (labels set only a word space apart)."""
    near = gap_start_near(item, estimate)
    return estimate if near is None else near


def _advance(text: str) -> float:
    """How far `text` reaches along its line, in widths of a narrow character: a wide (East Asian)
    character takes two, a combining mark none. Where a line's pieces stand is estimated from it."""
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text
    )
