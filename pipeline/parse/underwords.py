"""Options printed as labels under words of a sentence (`layout.options.under_words`).

Some items print no option texts: the options are parts of the stem's own sentence, underlined, each
with its label set on a row of its own right under it ("Find the part that is wrong: The boys *has*
*went* to *the* school *yesterday*", with A, B, C, D under the four underlined parts). Underlines are
drawn rules, not text, so the labels' own positions say which words are the options: each label's
centre stands under its part. A row of the block that holds only labels, in the spec's order, at least
`min_count` of them (one a scan lost leaves a gap, flagged as a skipped label; a sentence wrapped over
two lines has a row under each, its labels going on in order), is such a label row; the row just above it is the sentence; each option is the
word of that row whose place holds the label's centre (where the centre falls between two words, the
two, since a part of several words is labelled at its middle). A word's place is measured along its
line from the characters' usual widths in a sans face (a narrow `i`, a wide `m`, a CJK character); the label row
leaves the stem, the sentence stays in it whole.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pipeline.parse.labels import canonical_label
from pipeline.parse.options import Option, OptionBlock
from pipeline.parse.stream import StreamLine, same_row

# Label marks a label row may print beside its letters: 'A', '(A)', 'A.', '[A]'.
_MARKS = "()[]{}.:)"
# Advance widths (thousandths of an em) of a common sans face (Helvetica's metrics, which most sans
# faces are close to): where a word stands along its line is estimated from them. Accented letters take
# their base letter's width; other scripts' letters the usual width of their case; CJK a full em.
_LATIN_WIDTHS = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,;:'-()!?\"/",
    [556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500,
     722, 500, 500, 500, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722,
     667, 611, 722, 667, 944, 667, 667, 611, *[556] * 10, 278, 278, 278, 278, 191, 333, 333, 333, 278, 556, 355,
     278],
))
SPACE_WIDTH = 278
LOWER_WIDTH, UPPER_WIDTH, WIDE_WIDTH = 560, 700, 1000
NEAR_ROW = 2.5  # line heights between the sentence's row and the label row under it, at most


@dataclass(frozen=True)
class _Label:
    label: str
    centre: float
    line: StreamLine


def under_word_options(lines: list[StreamLine], labels: list[str], min_count: int,
                       header: StreamLine | None = None) -> OptionBlock | None:
    """The block's options read from a label row under its sentence, or None when it has no such row.
    `header`: the question's header line as printed (number included), when `lines` opens with its text
    after the number; the words are measured on it, where they stand."""
    printed = {id(lines[0]): header} if header is not None and lines else {}
    options: list[Option] = []
    taken: set[int] = set()
    for row in _rows(lines):
        found = _label_row(row, labels)
        sentence = _row_above(lines, row) if found else []
        if not sentence or (options and labels.index(found[0].label) <= labels.index(options[-1].label)):
            continue
        # A sentence wrapped over two lines has a label row under each: their labels go on in order.
        for item in found:
            words = _words_at(sentence, item.centre, printed)
            options.append(Option(item.label, item.line, [" ".join(words)], [item.line]))
        taken.update(id(sl) for sl in row)
    if len(options) < min_count:
        return None
    return OptionBlock([sl for sl in lines if id(sl) not in taken], options, [])


def _rows(lines: list[StreamLine]) -> list[list[StreamLine]]:
    rows: list[list[StreamLine]] = []
    for item in lines:
        for row in rows:
            if same_row(row[0], item):
                row.append(item)
                break
        else:
            rows.append([item])
    return [sorted(row, key=lambda sl: sl.line.x0) for row in rows]


def _label_row(row: list[StreamLine], labels: list[str]) -> list[_Label] | None:
    """The labels of a row that holds nothing else, each at its centre, in the spec's order (a label a scan
    lost leaves a gap, which the parser flags as a skipped label)."""
    found: list[_Label] = []
    for item in row:
        tokens = item.text.split()
        if not tokens:
            return None
        for token, (left, right) in zip(tokens, _spans(item)):
            label = canonical_label(token.strip(_MARKS), labels) if token.strip(_MARKS) else None
            if label is None:
                return None
            found.append(_Label(label, (left + right) / 2, item))
    places = [labels.index(f.label) for f in found]
    if any(later <= earlier for earlier, later in zip(places, places[1:])):
        return None  # out of order: letters of a text, not a label row
    return found


def _row_above(lines: list[StreamLine], row: list[StreamLine]) -> list[StreamLine]:
    """The lines of the nearest row above `row` (on its page, within `NEAR_ROW` line heights)."""
    top = min(sl.line.top for sl in row)
    height = max(sl.line.bottom - sl.line.top for sl in row)
    above = [sl for sl in lines if sl.page == row[0].page and sl.line.bottom <= top + 0.5 * height
             and top - sl.line.bottom <= NEAR_ROW * max(height, 1.0)]
    if not above:
        return []
    nearest = max(above, key=lambda sl: sl.line.bottom)
    return [sl for sl in above if same_row(sl, nearest)]


def _width(ch: str) -> float:
    if unicodedata.combining(ch):
        return 0.0
    if ch.isspace():
        return SPACE_WIDTH
    if unicodedata.east_asian_width(ch) in "WF":
        return WIDE_WIDTH
    base = unicodedata.normalize("NFD", ch)[0]
    if base in _LATIN_WIDTHS:
        return _LATIN_WIDTHS[base]
    return UPPER_WIDTH if ch.isupper() else LOWER_WIDTH


def _spans(item: StreamLine) -> list[tuple[float, float]]:
    """Where each whitespace-separated word of the line stands (x from, x to), estimated from the
    characters' widths between the line's two ends."""
    text = item.text
    scale = (item.line.x1 - item.line.x0) / (sum(_width(ch) for ch in text) or 1.0)
    spans = []
    for match in re.finditer(r"\S+", text):
        start = item.line.x0 + sum(_width(ch) for ch in text[: match.start()]) * scale
        spans.append((start, start + sum(_width(ch) for ch in match.group()) * scale))
    return spans


# A part of two words is taken over the one word nearest the label only when its middle is this many
# times nearer the label's centre: a one-word part is the usual case.
TWO_WORDS_ADVANTAGE = 2.0


def _words_at(sentence: list[StreamLine], centre: float, printed: dict[int, StreamLine]) -> list[str]:
    """The part of the sentence row a label centred at `centre` stands under: the word whose middle is
    nearest, or two neighbouring words whose joint middle is much nearer (a part labelled at its middle).
    A line found in `printed` is measured on its printed form, whose last words are its own."""
    words: list[tuple[str, float, float]] = []
    for item in sentence:
        own = item.text.split()
        spans = _spans(printed[id(item)])[-len(own):] if id(item) in printed and own else _spans(item)
        words += [(word, left, right) for word, (left, right) in zip(own, spans)]
    if not words:
        return []
    one = min(words, key=lambda w: abs((w[1] + w[2]) / 2 - centre))
    best, off = [one[0]], abs((one[1] + one[2]) / 2 - centre)
    for first, second in zip(words, words[1:]):
        if first[1] <= centre <= second[2]:
            pair_off = abs((first[1] + second[2]) / 2 - centre)
            if TWO_WORDS_ADVANTAGE * pair_off < off:
                best, off = [first[0], second[0]], pair_off
    return best
