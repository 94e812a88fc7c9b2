"""A row of options whose labels a scan misread: read by its label sequence and the row's gaps.

Options printed side by side on one row (`α) … β) … γ) … δ) …`, `(A) … (B) …`) are split at each label
of the sequence (`options._split_inner_labels`), which asks for the very next label, spelled as the spec
prints it, after a space. On a scan a label comes out as a look-alike of another script (`β)` as `B)`, `γ)`
as `y)`, `δ)` as `ϐ)` or `ὃ)`), with a speck before it (`}γ)`, `δϐ)`), or glued to the word before it
(`1969(C)1917`): from there on the row is no longer split, its options run on in one, and the question
loses them all.

The row is recognised by what stays of it. Its first label reads right and sets the labels' printed form
(the marks around the letter, `α)`, `(A)`, `A.`); every later token of that form whose letter part is one
or two letters or digits (`(Γ)` read as `(5)`) is a place where a label may stand. Walking the places left to right, with the sequence
from the first label on:

- a place that reads as the next label (or as it with one stray letter or mark beside it, or with its mark read
  doubled: `β))`, `β),`) is that label;
- a place that reads as the next label's look-alike, as the languages' data names them (`label_shapes`: `6)` for
  `б)`, `B)` for `в)` or `β)`, `ϐ)` for `δ)`), is that label, flagged as mended below: which letters a label alphabet's
  letters are read as is the script's, not this module's;
- a place that reads as a later label of the sequence, where the row's gaps put a label, is that label: the
  labels between were not read, and the question says so (`parse.label_skipped`, or `parse.lost_labels` where
  too few options are left), never a shift;
- a label glued to the word before it (`1969(C)1917`, `oO(D)34`) is a label only as the very next one, after a
  small letter, a digit or a speck (after a capital it ends an acronym);
- a place that reads as no label of the sequence is mended to the next label only where the row's gaps
  put a label: the start of a word after a wide gap (`Line.wide_gap_starts`), or a line of its own on the
  row; it gets `parse.label_restored` on the question, and the sheet's notes count it (`parse.labels_restored`);
- anything else is the option's text.

A first label whose mark is read doubled (`α)) …`) opens the row with the mark more cut away. The row is taken only
when the labels that read right are at least as many as those mended (a look-alike among them); it is then cut
at each place, each piece opening with its label as printed, and `find_options` reads them as options
printed one per line. A row whose labels all read right and stand after a space is left to the splitting
it always had.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.diagnostics import Code, diagnose
from pipeline.languages import label_lookalikes
from pipeline.parse.labels import canonical_label, matched_label
from pipeline.parse.options import cut_line, gap_start_near, text_x
from pipeline.parse.stream import StreamLine, same_row


@dataclass(frozen=True)
class _Place:
    line: int  # index into the row's lines
    start: int  # where the place's token starts in that line's text
    end: int  # where it ends (after the label's closing mark)
    printed: str  # the token as read
    label: str  # the label it is taken as
    mended: bool  # read as no label of the sequence, or as a look-alike of one the languages' data names: flagged
    guessed: bool = False  # read as no label at all: only its place gave it


def restore_row_labels(lines: list[StreamLine], labels: list[str], option_re: re.Pattern) -> tuple[list[StreamLine], list[str]]:
    """`lines` with each row of options whose labels a scan misread cut at its labels' places; a flag per label mended."""
    result: list[StreamLine] = []
    flags: list[str] = []
    index = 0
    while index < len(lines):
        item = lines[index]
        row = _row_from(lines, index)
        cut = _read_row(row, lines[index + len(row):], labels, option_re) if item.ocr else None
        if cut is None:
            result.append(item)
            index += 1
            continue
        pieces, row_flags = cut
        result += pieces
        flags += row_flags
        index += len(row)
    return result, flags


def _row_from(lines: list[StreamLine], index: int) -> list[StreamLine]:
    """The line at `index` and the lines after it on its row, each right of the one before."""
    row = [lines[index]]
    for later in lines[index + 1:]:
        if not same_row(row[0], later) or later.line.x0 < row[-1].line.x1 - 1:
            break
        row.append(later)
    return row


def _printed_form(text: str, labels: list[str], option_re: re.Pattern) -> tuple[str, str, str] | None:
    """(the label a line opens with, the mark before its letter, the mark after it), where it opens with a marked label."""
    found = option_re.match(text)
    if found is None:
        return None
    label = canonical_label(matched_label(found), labels)
    printed = text[found.start(): found.start("text")].strip()
    letter = matched_label(found)
    at = printed.find(letter)
    before, after = printed[:at].strip(), printed[at + len(letter):].strip()
    if label is None or at < 0 or not after:
        return None
    return label, before, after


def _next_opening(following: list[StreamLine], labels: list[str], option_re: re.Pattern, first: str) -> int:
    """The index of the label the next line opening with a later label than `first` carries (a later row of the same
    options), or past the last label (none, or the sequence starting again: another question's options)."""
    for item in following:
        found = option_re.match(item.text)
        label = canonical_label(matched_label(found), labels) if found else None
        if label is not None:
            return labels.index(label) if labels.index(label) > labels.index(first) else len(labels)
    return len(labels)


def _label_of(ch: str, labels: list[str]) -> str | None:
    """The label the character `ch` reads as: one of `labels` in any script's look-alike form (`B` for Greek `Β`), or the
    letter the languages' data says OCR reads it for where a label stands (`6` for `б`, `ϐ` for `δ`: `label_lookalikes`)."""
    return canonical_label(ch, labels) or label_lookalikes(tuple(labels)).get(ch)


def _reads_as(letters: str, labels: list[str], expected: str, lookalikes: bool = True) -> str | None:
    """The label `letters` read as: the one letter, or of two letters beside a stray one (`δϐ`, `Λβ`, `oC`) the expected
    label where one reads as it, else the one that reads as a label; `lookalikes`: the languages' look-alikes count."""
    read = [(_label_of if lookalikes else canonical_label)(ch, labels) for ch in letters]
    if len(letters) == 2 and expected in read:
        return expected
    known = [label for label in read if label is not None]
    return known[0] if len(known) == 1 else None


def _at_gap(item: StreamLine, start: int) -> bool:
    """The token at `start` stands where the line's own gaps put a cell: the line's start, or the start of a word after a
    wide gap (`Line.wide_gap_starts`), estimated from the text as `options.cut_line` places a piece."""
    return not item.text[:start].strip() or gap_start_near(item, text_x(item, start)) is not None


def _places(row: list[StreamLine], opening: int, first: str, before: str, after: str, labels: list[str], limit: int,
            unusual: bool = False) -> list[_Place] | None:
    """The places of the row's labels after its first (`first`, whose text starts at `opening` of the first line), as the
    module's docstring walks them; None when the row shows no misread label to mend, no speck or glue to cut away, and no
    label skipped (the usual split reads it)."""
    # A label's mark may be read doubled or with a speck after it (`β))`, `β),`): a mark more, then a space, is cut with it.
    token = re.compile(rf"(?P<speck>[^\w\s]?){re.escape(before)}(?P<letters>[^\W_]{{1,2}}){re.escape(after)}"
                       rf"(?:(?P<stray>[^\w\s])(?=\s|$)|(?=\s|[^\W_]|$))")
    position = labels.index(first)
    places: list[_Place] = []
    for at, item in enumerate(row):
        skip = opening if at == 0 else 0
        for found in token.finditer(item.text, skip):
            if position + 1 >= limit:
                break
            expected = labels[position + 1]
            letters = found.group("letters")
            start = found.start()
            glued = start > 0 and not item.text[start - 1].isspace()
            if glued:
                # Glued to the word before it: only its last letter, read as the very next label, after a small letter, a
                # digit or a speck (after a capital it is an acronym's: `HB.`), is a label.
                label_at = found.start("letters") + len(letters) - 1
                before_letter = item.text[label_at - 1]
                if canonical_label(letters[-1], labels) != expected or before_letter.isupper():
                    continue
                label, mended = expected, False
                start = label_at - len(before) - (len(found.group("speck")) if len(letters) == 1 else 0)
            elif (read := _reads_as(letters, labels, expected)) == expected or (
                    read is not None and position < labels.index(read) < limit and _at_gap(item, start)):
                # the next label, or a later one where the row's gaps put a label; mended where read as its look-alike
                label, mended = read, _reads_as(letters, labels, expected, lookalikes=False) != read
            elif len(letters) == 1 and _at_gap(item, start):
                label, mended = expected, True
            else:
                continue
            guessed = mended and _reads_as(letters, labels, expected) is None
            clean = not glued and not found.group("speck") and not found.group("stray") and len(letters) == 1
            unusual |= mended or not clean or label != expected
            places.append(_Place(at, start, found.end(), item.text[start:found.end()], label, mended, guessed))
            position = labels.index(label)
    return places if unusual else None


def _read_row(row: list[StreamLine], following: list[StreamLine], labels: list[str], option_re: re.Pattern
              ) -> tuple[list[StreamLine], list[str]] | None:
    """The row cut at its labels' places, and a flag per label mended; None where it is no row to mend."""
    opening_line = _without_stray_mark(row[0], option_re)
    stray = opening_line is not row[0]  # the first label's mark read doubled: the row is cut so its text loses the mark
    row = [opening_line, *row[1:]]
    form = _printed_form(row[0].text, labels, option_re)
    if form is None:
        return None
    first, before, after = form
    opening = option_re.match(row[0].text)
    assert opening is not None
    places = _places(row, opening.start("text"), first, before, after, labels, _next_opening(following, labels, option_re, first),
                     unusual=stray)
    if not places:
        return (row, []) if stray else None  # a label alone on its row: only its mark more cut away
    mended = [p for p in places if p.mended]
    if len(places) - len(mended) + 1 < len(mended):
        return None  # fewer labels read right than mended: no row of options to go by
    pieces: list[StreamLine] = []
    flags: list[str] = [diagnose(Code.LABEL_RESTORED, label=p.label, how=f"was read as {p.printed.strip()!r} (OCR); taken as the label the "
                                 + ("row's sequence and gaps put there" if p.guessed else "row's sequence puts there, whose look-alike it is"))
                        for p in mended]
    for at, item in enumerate(row):
        item = _labels_read_sure(item, [p.printed.strip() for p in places if p.line == at and not p.mended])
        rest = item
        offset = 0
        for place in [p for p in places if p.line == at]:
            start, end = place.start - offset, place.end - offset
            text = f"{before}{place.label}{after} {rest.text[end:].lstrip()}"
            if rest.text[:start].strip():
                left, right = cut_line(rest, start, start)
                pieces.append(left)
            else:
                right = rest
            rest = replace(right, line=replace(right.line, text=text))
            offset = len(item.text) - len(rest.text)
        pieces.append(rest)
    return pieces, flags


# A line opening with a label whose mark is read doubled or with a speck after it (`α))`, `(A)),`, `α),`): the mark
# more stands between the label and a space, where `option_re` asks for the space at once.
_STRAY_AFTER_MARK = re.compile(r"^(?P<label>\s*[^\w\s]?\s*[^\W_]{1,2}\s*[^\w\s])(?P<stray>[^\w\s])(?=\s)")


def _without_stray_mark(item: StreamLine, option_re: re.Pattern) -> StreamLine:
    """`item` without the stray mark after its opening label's (`α)) text` → `α) text`), where only that keeps it from
    opening with a label; else `item` itself."""
    found = None if option_re.match(item.text) else _STRAY_AFTER_MARK.match(item.text)
    if found is None:
        return item
    text = found.group("label") + item.text[found.end():]
    if not option_re.match(text):
        return item
    return replace(item, line=replace(item.line, text=text))


def _labels_read_sure(item: StreamLine, read: list[str]) -> StreamLine:
    """`item` with the labels its row's sequence read at their places (`read`, as printed there: `}γ)`, `(C)`) taken out
    of the words OCR was unsure of: a label the sequence vouches for is no text, and what an unsure word held past it
    (`}γ)νυχια`, `(C)1917`) stays unsure as the option's text. A mended label's token stays (`parse.label_restored`
    names it)."""
    words = []
    for word in item.line.unsure_words:
        for token in read:
            if token and token in word:
                word = word.replace(token, " ", 1).strip()
        if any(ch.isalnum() for ch in word):
            words.append(word)
    if words == item.line.unsure_words:
        return item
    return replace(item, line=replace(item.line, unsure_words=words))
