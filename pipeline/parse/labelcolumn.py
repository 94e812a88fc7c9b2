"""Option labels OCR misread, restored from where they stand: on an OCR'd page a line that starts at
a column of a block's option labels (one, or one per column of an option grid) is the label the
sequence expects there, when the labels read before and after it leave exactly that one and the line
opens with
- a token that is no word ("0" for "C)", "©", "8", "1)" for "I)"), or
- a lone letter, with or without its mark ("D" for "D)", "a -2" for "A) 2 −"), and it is the only line
  at the column in that gap: an option's own lines stand at its text indent, right of the labels.
- a symbol no text opens with glued to the option's first word ("©propagując" for "②propagując", a ring
  printed without a space after it and not read as one): the symbol is the label, the word is kept whole.
A stem line at that column ("¿Qué…", "En el texto…") starts with a word and is never touched.

In an option grid read across its rows (`A. …  D. …` | `B. …  E. …` | `C. …`) the lines do not come in the
labels' order, so no sequence leaves a label between them: there a lone letter that is a label the block was read
without ("E 10", its "." lost in the highlight over it) is that label, and a token that is no word is the one label
the block lacks, where the labels read at the same column run in order through it (`_grid_label`).

A block where OCR read no label with its mark at all (a math question whose options are fractions:
"A" on its own line between a numerator and a denominator, "B", "C", "D") gets its labels from the
column they form: lines at one left edge, one after the other with only indented lines between, each
opening with a single letter, at least three, starting with the first label and reading at least two
more as printed. Their order gives each its label.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from statistics import median

from pipeline.diagnostics import Code, diagnose
from pipeline.extract import clusters
from pipeline.parse.labels import canonical_label, matched_label
from pipeline.parse.stream import StreamLine

COLUMN_TOLERANCE = 0.6  # font sizes between a line's left edge and the label column
MISREAD_MAX_CHARS = 2
LABEL_MARKS = ").:,;]-"
MIN_LONE_RUN = 3  # lines in a column of labels read without their marks
# Besides Unicode's other symbols (So: ©, ®, ○): a ring read as an at sign, and a closing bracket left of a
# label whose letter or digit OCR lost (")rotativa" for "1)rotativa"); no text opens with either.
GLUED_SYMBOLS = "@)]}"
MIN_LONE_READ = 3  # of them read as the very letters the sequence expects
MIN_PITCH = 3.0  # font sizes between two tab stops of a row of labels, at least (a label and a word)


def _is_misread_label(token: str) -> bool:
    """A short token that cannot be a word of the text: no letters, or one letter glued to a mark."""
    if len(token) > MISREAD_MAX_CHARS:
        return False
    letters = sum(ch.isalpha() for ch in token)
    return letters == 0 or (letters == 1 and len(token) == 2 and not token.isalpha())


def _glued_symbol(text: str) -> str | None:
    """`text` with a symbol opening it set apart from the word it is glued to ("©propagując marianna" →
    "© propagując marianna"), when its first token opens with one or two symbols no text opens with
    (`©`, `®`, `@`, `○`, `)`: a label's ring or bracket as OCR read it with no space after it), then a letter
    or digit; None otherwise. Quotes, brackets and inverted marks, which do open text, are no such symbol."""
    stripped = text.strip()
    at = 0
    while at < min(2, len(stripped)) and (unicodedata.category(stripped[at]) == "So" or stripped[at] in GLUED_SYMBOLS):
        at += 1
    if not at or at >= len(stripped) or not stripped[at].isalnum():
        return None
    return f"{stripped[:at]} {stripped[at:]}"


def _lone_letter(token: str) -> str | None:
    """The letter of a token that is one letter and at most its marks ("D", "D)", "(d)"), else None."""
    core = token.strip().lstrip("([").rstrip(LABEL_MARKS)
    return core if len(core) == 1 and core.isalpha() else None


def restore_label_column(
    lines: list[StreamLine], labels: list[str], option_re: re.Pattern
) -> tuple[list[StreamLine], list[str]]:
    """`lines` with misread labels at the label column given the label the sequence leaves for them,
    and a flag line per label given."""
    if not any(sl.ocr for sl in lines):
        return lines, []
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
    restored = list(lines)
    flags: list[str] = []
    if len(read) < 2:
        lone = _lone_label_run(lines, labels)
        if not lone:
            return lines, []
        relabelled = {index: _relabelled(lines[index], label, mark, option_re) for index, label in lone.items()}
        if None in relabelled.values():
            return lines, []
        read.update(lone)
        restored = [relabelled.get(index, sl) for index, sl in enumerate(lines)]
        flags.append(diagnose(Code.LABELS_FROM_COLUMN, labels=list(lone.values())))
    size = median((lines[i].line.font_size or 10) for i in read)
    # The x of each column the labels stand in: options printed in a grid have two or more.
    columns = _tab_stops([median(column) for column in clusters([lines[i].line.x0 for i in read], COLUMN_TOLERANCE * size)], size)

    def column_of(sl: StreamLine) -> float | None:
        nearest = min(columns, key=lambda c: abs(sl.line.x0 - c))
        return nearest if sl.ocr and abs(sl.line.x0 - nearest) <= COLUMN_TOLERANCE * size else None

    at_column = [column_of(sl) for sl in lines]
    for index, sl in enumerate(lines):
        column = at_column[index]
        if index in read or column is None:
            continue
        glued = _glued_symbol(sl.text)
        if glued is not None:  # "©propagując": the label read as a symbol glued to the option's first word
            sl = replace(sl, line=replace(sl.line, text=glued))
        token, _, rest = sl.text.strip().partition(" ")
        no_word = bool(rest) and _is_misread_label(token)  # a token no word can be, before the option's text
        if not no_word and _lone_letter(token) is None and not _is_misread_label(token):
            continue
        expected = _sequence_label(index, read, labels)
        if expected is not None and not no_word:
            # A lone letter (or a lone misread mark) is a label only as the one line at its column in
            # the gap it fills.
            read_before, read_after = [i for i in read if i < index], [i for i in read if i > index]
            start, end = (max(read_before) + 1 if read_before else 0), (min(read_after) if read_after else len(lines))
            if any(k != index and at_column[k] == column for k in range(start, end)):
                expected = None
        if expected is None and len(columns) > 1:
            expected = _grid_label(index, token, no_word, read, labels, at_column)
        if expected is None:
            continue
        relabelled = _relabelled(sl, expected, mark, option_re)
        if relabelled is None:
            continue
        read[index], restored[index] = expected, relabelled
        flags.append(diagnose(Code.LABEL_RESTORED, label=expected,
                              how=f"was read as {token!r} (OCR); taken as the label its column leaves there"))
    return restored, flags


def _sequence_label(index: int, read: dict[int, str], labels: list[str]) -> str | None:
    """The label the labels read before and after line `index` leave for it, in the order the lines come;
    None when they leave none (the next one is read already, or read after it)."""
    before = sorted(i for i in read if i < index)
    after = sorted(i for i in read if i > index)
    expected_at = labels.index(read[before[-1]]) + 1 if before else 0
    if expected_at >= len(labels):
        return None
    expected = labels[expected_at]
    if expected in read.values() or (after and labels.index(read[after[0]]) <= expected_at):
        return None
    return expected


def _grid_label(index: int, token: str, no_word: bool, read: dict[int, str], labels: list[str],
                columns: list[float | None]) -> str | None:
    """The label of line `index` in an option grid read across its rows (`A. … D. …` | `B. … E. …` | `C. …`),
    whose lines do not come in the labels' order: a lone letter that is a label no line of the block was read
    with is that label; a token that is no word before the option's text is the one label the block lacks. Either only
    after the block's first label (a stem's lines come before it), and only where its column's labels run in order
    through it: those read above it at its column come before it, those read below after it. `columns`: the
    label column each line stands at (None: at none)."""
    if not read or index < min(read):
        return None
    missing = [label for label in labels if label not in read.values()]
    letter = _lone_letter(token)
    own = canonical_label(letter, labels) if letter is not None else None
    if own is not None:
        candidate = own if own in missing else None
    else:
        candidate = missing[0] if no_word and len(missing) == 1 else None
    if candidate is None:
        return None
    at = labels.index(candidate)
    same = [i for i in read if columns[i] == columns[index]]
    if any(labels.index(read[i]) >= at for i in same if i < index) or any(labels.index(read[i]) <= at for i in same if i > index):
        return None
    # The one line at its column between the labels read above and below it there.
    above = max((i for i in same if i < index), default=-1)
    below = min((i for i in same if i > index), default=len(columns))
    if any(k != index and columns[k] == columns[index] for k in range(above + 1, below)):
        return None
    return candidate


def _tab_stops(columns: list[float], size: float) -> list[float]:
    """The label columns read, and where an evenly spaced row of them puts the ones no label was read at: options
    printed in a row or a grid stand at tab stops one pitch apart, so a row's last label misread ("ϐ)" for "δ)" after
    "α) β) γ)") or one inside it stands a pitch past or between the read ones. Only where the read columns are whole
    pitches apart (within `COLUMN_TOLERANCE` of a font size) and a pitch holds a label and some text
    (`MIN_PITCH`); otherwise the columns read."""
    if len(columns) < 2:
        return columns
    ordered = sorted(columns)
    pitch = min(b - a for a, b in zip(ordered, ordered[1:]))
    if pitch < MIN_PITCH * size or any(abs((b - a) / pitch - round((b - a) / pitch)) * pitch > COLUMN_TOLERANCE * size for a, b in zip(ordered, ordered[1:])):
        return columns
    stops = round((ordered[-1] - ordered[0]) / pitch)
    return sorted({*columns, *(ordered[0] + k * pitch for k in range(-1, stops + 2))})


def _relabelled(sl: StreamLine, label: str, mark: str, option_re: re.Pattern) -> StreamLine | None:
    """The line opening with `label` printed with `mark` (or any mark the spec's styles accept) in place
    of its first token; None when no printed form of the label is one the spec's styles match."""
    _, _, rest = sl.text.strip().partition(" ")
    rest = rest.lstrip()
    for printed in dict.fromkeys((f"{label}{mark}", f"{label})", f"{label}.", f"({label})", f"{label}:", label)):
        text = f"{printed} {rest}" if rest else printed
        match = option_re.match(text)
        if match and canonical_label(matched_label(match), [label]) == label and match.group("text").strip() == rest:
            return replace(sl, line=replace(sl.line, text=text))
    return None


def _lone_label_run(lines: list[StreamLine], labels: list[str]) -> dict[int, str]:
    """Indexes of a column of labels read without their marks, each with its label; {} when none."""
    starts = [i for i, sl in enumerate(lines) if sl.ocr and canonical_label(_lone_letter(sl.text) or "", labels[:1])]
    for start in starts:
        first = lines[start]
        tolerance = COLUMN_TOLERANCE * (first.line.font_size or 10)
        run = [start]
        for index in range(start + 1, len(lines)):
            sl = lines[index]
            if sl.page != first.page or len(run) == len(labels):
                break
            if sl.line.x0 > first.line.x0 + tolerance:
                continue  # the options' own lines, at their text indent
            if abs(sl.line.x0 - first.line.x0) > tolerance or _lone_letter(sl.text.strip().partition(" ")[0]) is None:
                break
            run.append(index)
        as_printed = sum(
            canonical_label(_lone_letter(lines[i].text.strip().partition(" ")[0]), [labels[k]]) == labels[k]
            for k, i in enumerate(run)
        )
        if len(run) >= MIN_LONE_RUN and as_printed >= MIN_LONE_READ:
            return {i: labels[k] for k, i in enumerate(run)}
    return {}
