"""An option whose label OCR lost altogether: cut back out of the option before it, or, for the first
option, taken from the stem by its indent.

When a label leaves no token at all (not even a misread one, which `labelcolumn` restores), its
option's lines run on in the option before: "a) … de borrado en la búsqueda. / Copiar los archivos …
/ c) …". Only the layout can tell: the labels read skip exactly one, and the option before the gap
holds exactly one paragraph break, a line that ends a sentence well short of the option's right edge
followed by a line that starts with a capital or a digit. That line starts the lost option. Anything
less certain (no break, or two) is left as read and stays flagged as a skipped label.

The first option has no option before it: its lines end the stem ("…167.1? / Mayoría de dos tercios…
/ b) Mayoría de tres quintos…"), and with no first label no option starts at all, so the question read
as open. Its lines are told apart by the indent: they start at the options' text column, right of the
label column where the next label stands, while the stem line before them starts at or left of it.
"""
from __future__ import annotations

import re
from dataclasses import replace
from statistics import median

from pipeline.diagnostics import Code, diagnose
from pipeline.extract import clusters

from pipeline.parse.labels import label_opener, matched_label
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
            flags.append(diagnose(Code.LABEL_RESTORED, label=missing,
                                  how=f"was not read (OCR); taken from the paragraph break in option {option.label}"))
    return _restore_by_grid(restored, labels, flags)


# A lost label's row: its line's middle within this many label-line heights of where the grid puts it.
GRID_ROW_TOLERANCE = 1.0
GRID_COLUMN_TOLERANCE = 0.6  # label-line heights between a label's left edge and its column's
GRID_PITCH_SPREAD = 0.15  # how far the row pitches between the read labels may differ


def _restore_by_grid(options: list[Option], labels: list[str], flags: list[str]) -> tuple[list[Option], list[str]]:
    """`options` with each label still skipped between the read ones put where the labels' grid puts
    it: one column of labels at an even pitch, or a grid filled row by row or column by column. The
    lost option starts with the top line at that place (at the label's column, or its text indent) and
    takes the lines of the option that held it from there down in that column: a table or a graph
    whose label OCR lost ("Figura 1 2 3 / Cantidad…" between "B) Figura" and "D) Figura")."""
    at = {o.label: labels.index(o.label) for o in options if o.label in labels}
    if len(at) != len(options) or len(options) < 3:
        return options, flags
    missing = [labels[i] for i in range(min(at.values()), max(at.values()) + 1) if labels[i] not in at]
    firsts = [o.first for o in options]
    if not missing or not all(sl.ocr and sl.page == firsts[0].page for sl in firsts):
        return options, flags
    height = median(max(sl.line.bottom - sl.line.top, 1.0) for sl in firsts)
    columns = sorted(median(c) for c in clusters([sl.line.x0 for sl in firsts], GRID_COLUMN_TOLERANCE * height))
    place = _grid_places(options, labels, columns)
    if place is None:
        return options, flags
    rows: dict[int, list[float]] = {}
    for o in options:
        rows.setdefault(place(labels.index(o.label))[0], []).append(_middle(o.first))
    options = list(options)
    for label in missing:
        row, column = place(labels.index(label))
        y = _row_middle(rows, row)
        right = columns[column + 1] if column + 1 < len(columns) else float("inf")
        cut = _cut_at(options, y, columns[column], right, height, firsts[0].page) if y is not None else None
        if cut is None:
            continue
        owner, start = cut
        moved = [k for k in range(start, len(owner.lines))
                 if owner.lines[k].line.top >= owner.lines[start].line.top - 0.5 * height
                 and owner.lines[k].line.x0 < right - GRID_COLUMN_TOLERANCE * height]
        kept = [k for k in range(len(owner.lines)) if k not in moved]
        options[options.index(owner)] = Option(owner.label, owner.first, [owner.parts[k] for k in kept], [owner.lines[k] for k in kept])
        options.append(Option(label, owner.lines[start], [owner.parts[k] for k in moved], [owner.lines[k] for k in moved]))
        flags = [*flags, diagnose(Code.LABEL_RESTORED, label=label,
                                  how=f"was not read (OCR); taken from where the labels' grid puts it, in option {owner.label}")]
    options.sort(key=lambda o: labels.index(o.label))
    return options, flags


def _cut_at(options: list[Option], y: float, x: float, right: float, height: float, page: int) -> tuple[Option, int] | None:
    """The option holding the top line at row middle `y` that starts at column `x` or its text indent
    (short of the next column at `right`), and that line's index in it; None when no line stands there
    or its option's text is not one part per line."""
    found = [
        (sl.line.top, n, k) for n, o in enumerate(options) for k, sl in enumerate(o.lines)
        if k > 0 and sl.ocr and sl.page == page and abs(_middle(sl) - y) <= GRID_ROW_TOLERANCE * height
        and x - GRID_COLUMN_TOLERANCE * height <= sl.line.x0 <= min(x + INDENT_MAX * height, right - GRID_COLUMN_TOLERANCE * height)
    ]
    if not found:
        return None
    _, n, k = min(found)
    owner = options[n]
    return (owner, k) if len(owner.parts) == len(owner.lines) else None


def _middle(sl: StreamLine) -> float:
    return (sl.line.top + sl.line.bottom) / 2


def _grid_places(options: list[Option], labels: list[str], columns: list[float]):
    """(row, column) of each label index, filled row by row or column by column, whichever the read
    labels' columns fit; None when neither does."""
    def column_of(o: Option) -> int:
        return min(range(len(columns)), key=lambda c: abs(o.first.line.x0 - columns[c]))

    width, depth = len(columns), -(-len(labels) // len(columns))
    for place in (lambda i: (i // width, i % width), lambda i: (i % depth, i // depth)):
        if all(place(labels.index(o.label))[1] == column_of(o) for o in options):
            return place
    return None


def _row_middle(rows: dict[int, list[float]], row: int) -> float | None:
    """Where a row of labels stands: its read labels' middle, or between the nearest rows above and
    below at their even pitch."""
    if row in rows:
        return median(rows[row])
    above, below = [r for r in rows if r < row], [r for r in rows if r > row]
    known = sorted(rows)
    pitches = [(median(rows[b]) - median(rows[a])) / (b - a) for a, b in zip(known, known[1:])]
    # Two pitches at least, and even: options of uneven length leave no row to interpolate.
    if not above or not below or len(pitches) < 2 or max(pitches) > (1 + GRID_PITCH_SPREAD) * min(pitches):
        return None
    a, b = max(above), min(below)
    ya, yb = median(rows[a]), median(rows[b])
    return ya + (yb - ya) * (row - a) / (b - a)


MIN_SENTENCE_WORDS = 3
_PROSE_WORD = re.compile(r"[^\W\d_]{2,}")


def restore_trailing_labels(options: list[Option], labels: list[str], min_count: int) -> tuple[list[Option], list[str]]:
    """`options` with the options after the last one read cut out of it, when OCR lost the labels of the
    last ones. Only for a question that would otherwise not be one (fewer options read than the spec's
    `min_count`), whose labels read run from the first in order, and whose last option's lines break
    into sentences (a line that ends one, then one that opens with a capital or a digit) so that the
    options come to between `min_count` and all the labels. DEMRE 51: "A) Descifrar… cúpula. /
    Demostrar… arquitectura. / Reposicionar… escala. / Reconstruir… del / planeta." Every option read
    has text and every sentence is prose (three words or more): a math question's options that are
    figures read as junk ("YA", "X X") stay unread. Anything else is left as read; a flag line per
    restored option."""
    if not options or len(options) >= min_count or [o.label for o in options] != labels[: len(options)]:
        return options, []
    last = options[-1]
    lines = last.lines
    if len(last.parts) != len(lines) or not all(sl.ocr for sl in lines):
        return options, []
    breaks = [
        k for k in range(1, len(lines))
        if lines[k - 1].text.rstrip().endswith(SENTENCE_END) and _starts_paragraph(lines[k]) and lines[k].page == lines[k - 1].page
    ]
    if not min_count <= len(options) + len(breaks) <= len(labels) or not all(o.text for o in options):
        return options, []
    bounds = [0, *breaks, len(lines)]
    # Each sentence is prose: words, not the labels and numbers of a figure read as text ("YA", "X X").
    if any(len(_PROSE_WORD.findall(" ".join(last.parts[start:end]))) < MIN_SENTENCE_WORDS for start, end in zip(bounds, bounds[1:])):
        return options, []
    cut = [
        Option(labels[len(options) - 1 + i], lines[start], last.parts[start:end], lines[start:end])
        for i, (start, end) in enumerate(zip(bounds, bounds[1:]))
    ]
    cut[0].first = last.first
    flags = [diagnose(Code.LABEL_RESTORED, label=o.label,
                      how=f"was not read (OCR); taken from the sentence breaks in option {last.label}") for o in cut[1:]]
    return [*options[:-1], *cut], flags


def _paragraph_split(option: Option, missing: str) -> list[Option] | None:
    lines = option.lines
    # Each part must be one line's text, so that cutting the lines cuts the text with them.
    if len(lines) < 2 or len(option.parts) != len(lines) or not all(sl.ocr for sl in lines):
        return None
    left = min(sl.line.x0 for sl in lines)
    right = max(sl.line.x1 for sl in lines)
    short_of = SHORT_LINE_SHARE * max(right - left, 1.0)
    # The text before a break is the option's (a lone label "B)" ends no sentence: its text is beside it).
    breaks = [
        k for k in range(1, len(lines))
        if _ends_paragraph(lines[k - 1], option.parts[k - 1], right, short_of) and _starts_paragraph(lines[k])
        and lines[k].page == lines[k - 1].page
    ]
    if len(breaks) != 1:
        return None
    k = breaks[0]
    return [
        Option(option.label, option.first, option.parts[:k], lines[:k]),
        Option(missing, lines[k], option.parts[k:], lines[k:]),
    ]


def _ends_paragraph(line: StreamLine, text: str, right: float, short_of: float) -> bool:
    return text.rstrip().endswith(SENTENCE_END) and line.line.x1 <= right - short_of


def _starts_paragraph(line: StreamLine) -> bool:
    first = line.text.lstrip()[:1]
    return first.isupper() or first.isdigit()


# The lost first option's lines start at least this many line heights right of the next label (the
# label's own width and its tab), and at most this many (farther is a second column or a table cell).
INDENT_MIN, INDENT_MAX = 0.8, 8.0
MAX_OPTION_LINES = 4


def restore_lost_first_label(
    lines: list[StreamLine], labels: list[str], option_re: re.Pattern
) -> tuple[list[StreamLine], str | None]:
    """`lines` with the first option's lost label printed back (in the style of the second label), and a
    flag saying so; `lines` unchanged and None when the layout does not show it beyond doubt: the first
    label read nowhere, the second and third read in order, the lines just before the second indented
    to the text column (all OCR'd, at most four), and a stem line before them that is not indented and,
    if it is the question's number line, ends a sentence. A line at the label column before those
    indented lines that opens with the label's letter and a look-alike of its mark ("al Realizar…") is
    the first option itself, its label misread as a word, where the question's number stands left of
    the label column: the label is put back there."""
    if len(labels) < 3:
        return lines, None
    opening_of = label_opener(labels, option_re)
    opening = [opening_of(sl.text) for sl in lines]
    if labels[0] in opening or labels[1] not in opening:
        return lines, None
    second = opening.index(labels[1])
    if labels[2] not in opening[second + 1:]:
        return lines, None
    anchor = lines[second]
    height = max(anchor.line.bottom - anchor.line.top, 1.0)
    start = second
    while (
        start > 0 and lines[start - 1].ocr and lines[start - 1].page == anchor.page
        and INDENT_MIN * height <= lines[start - 1].line.x0 - anchor.line.x0 <= INDENT_MAX * height
    ):
        start -= 1
    misread = _misread_first_label(lines, start - 1, anchor, labels[0], option_re) if second - start < MAX_OPTION_LINES else None
    if misread is not None:
        return misread
    if start == second or second - start > MAX_OPTION_LINES or start == 0:
        return lines, None
    stem_end, first = lines[start - 1], lines[start]
    if stem_end.page != first.page or stem_end.line.x0 - anchor.line.x0 >= INDENT_MIN * height:
        return lines, None
    if first.line.top < stem_end.line.bottom - 0.5 * height:  # on the stem line's row: its text cell
        return lines, None
    if start - 1 == 0 and not stem_end.text.rstrip().endswith(SENTENCE_END):
        return lines, None
    restored = replace(first, line=replace(first.line, text=_label_like(anchor.text, labels[0], option_re) + first.text.lstrip()))
    flag = diagnose(Code.LABEL_RESTORED, label=labels[0],
                    how="was not read (OCR); its lines taken from the end of the stem by their indent")
    return [*lines[:start], restored, *lines[start + 1:]], flag


def _misread_first_label(
    lines: list[StreamLine], at: int, anchor: StreamLine, label: str, option_re: re.Pattern
) -> tuple[list[StreamLine], str] | None:
    """The first option's line at `at`, standing at the label column with its label misread as a word
    ("al Realizar…" for "a) Realizar…"), with the label put back; None where that is not shown. Only
    where the question's number stands left of the label column: where stem and labels share an
    edge, a stem line may open with the word ("al buscar…") just as well."""
    if at <= 0 or not lines[at].ocr or lines[at].page != anchor.page:
        return None
    height = max(anchor.line.bottom - anchor.line.top, 1.0)
    garbled = _garbled_label(lines[at], label)
    stem_left = lines[0].line.x0 <= anchor.line.x0 - INDENT_MIN * height
    if not garbled or not stem_left or abs(lines[at].line.x0 - anchor.line.x0) >= INDENT_MIN * height:
        return None
    text = _label_like(anchor.text, label, option_re) + lines[at].text.lstrip()[len(garbled):].lstrip()
    flag = diagnose(Code.LABEL_RESTORED, label=label, how=f"was read as {garbled!r} (OCR); taken as the label at the label column")
    return [*lines[:at], replace(lines[at], line=replace(lines[at].line, text=text)), *lines[at + 1:]], flag


# What OCR makes of a label's closing mark: "a)" read as "al", "a1", "a|".
MARK_LOOKALIKES = set("lI1|!]}")


def _garbled_label(sl: StreamLine, label: str) -> str | None:
    """The line's first token, when it is `label` with its mark misread ("al" for "a)"); else None."""
    token = sl.text.split(maxsplit=1)[0] if sl.text.strip() else ""
    if 2 <= len(token) <= 3 and token[0].casefold() == label.casefold() and set(token[1:]) <= MARK_LOOKALIKES:
        return token
    return None


def _label_like(text: str, label: str, option_re: re.Pattern) -> str:
    """The opening of `text` ("b) ", "(B) ") with its label replaced by `label` in the same case."""
    match = option_re.match(text)
    printed = matched_label(match)
    name = next(n for n, v in match.groupdict().items() if n.startswith("label") and v == printed)
    begin, end = match.span(name)
    new = label.lower() if printed.islower() else label.upper() if printed.isupper() else label
    prefix = text[: match.start("text")]
    # A lone label ("b)") leaves no space before its text: the text put after it needs one.
    return prefix[:begin] + new + (prefix[end:] if prefix[end:].endswith((" ", "\t")) else prefix[end:] + "  ")
