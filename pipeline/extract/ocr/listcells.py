"""Unruled list keys on scans read entry by entry from their white space: "1. B  2. D …" down columns,
"1 – C", "12) a", in one column or several, with no rule to say where a cell is.

Tesseract's page reading loses whole columns of such a key (a column of one-digit entries "1. D" came
back as `O`, `w P`, `2 O` on a 150 dpi scan) or glues an entry to its neighbour. Here the key's
geometry says where each entry is, and each part of it is read with its own alphabet:
1. rows: the page's ink cut into rows by its horizontal projection; a row a text line tall is cut into
   pieces at white gaps wider than `PIECE_GAP` of its height (a word space parts "16." from "B"; the
   digits of "16" stand closer);
2. entries: pieces of a row closer than `ENTRY_GAP` row heights are one group; a group whose last piece is
   about one glyph and whose other pieces (less a dash just before it) are no wider than a number with
   its mark is a number and its answer. Entries whose number pieces (or
   answers) share a left or right edge down the rows are one column of the key;
3. numbers: every number piece is read against the digits (the crops stacked, as `cellreads` reads
   them); a column whose numbers count up by one down its rows (most of them: `numbering.counting_run`,
   rows placed by the column's pitch, so a row lost leaves a hole, never a shift) is a key column,
   and each entry takes the number its place gives;
4. answers: the answer pieces of the key columns are read against the option labels (enclosed digits by
   the ring found by its shape on the page before its light greys were whitened, its inside read as option labels
   are, then by the digit in their ring: `cellreads.read_answers`, as `table-cells` reads them); a column whose answers are mostly (`ANSWER_MIN_SHARE`) no label is left as
   Tesseract read it (a question's numbered list of digits); in a key column, an answer that stays
   unread is `UNREAD_CELL` at its place, which the key reader reports for its question. Where the page
   reading holds one label read surely (`PAGE_LABEL_SURE`) at an answer's place, that label is kept:
   in its line's context Tesseract tells a small `e` from a `c` better than a cell read alone.
The words written for an entry replace every word Tesseract read over it (and any word read down the column
across entries) and stand on lines the later table passes leave alone (`tablecells.held_apart`).

Keys set with a tab or a leader ("1.      a", "7. ........ в") and keys in parts are read from the same geometry:
- a band of ink is cut into lines where a piece stands off its neighbour's height (`LINE_SLACK`): two columns
  half a row apart are one band but two lines;
- a number alone followed by one glyph alone (or by a dotted leader and one glyph: low pieces on the baseline,
  `BASELINE_FROM`) is an entry set with a tab; its answers must share the column's tab stop, where an entry whose
  "answer" stands left of the stop is the number's last digit ("3" "1." of "31.") and takes the glyph at the stop;
- a column's pitch is fitted to all its rows (rows 42 and 44 px apart in turn are 43 apart), and a column is cut
  into blocks where white or a heading taller than `BLOCK_GAP` pitches parts two rows: a part's reserve questions
  numbered 1–5 again are counted on their own;
- the numbers' mark is the page key's, read with at least `MARK_MIN_SHARE` of them (a blurred dot is lost more
  often than read);
- an unsure cell reading (under `CELL_SURE`) that the page reading contradicts at its place (another label, at
  least `PAGE_LABEL_SEEN`) is left unread and reported for its question;
- an answer read less surely than `CONFIRM_BELOW` (a lone small letter read against the labels, often at 0) whose
  ink reaches above or below its number unlike the key's other answers read as that label, and like another
  label's, is left unread and reported (`_like_their_label`: "β" read "α" reaches past the α's x-height).
"""
from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.extract.document import UNREAD_CELL
from pipeline.extract.ocr.cellreads import GLYPH_PX, enlarged, read_answers, read_digits
from pipeline.extract.ocr.engine import LABEL_STRIP_PSM
from pipeline.extract.ocr.numbering import anchored_mends, counting_run
from pipeline.extract.ocr.tablecells import LINE_BASE
from pipeline.extract.ocr.words import INK_BELOW, Word, ink_runs

ROW_INCHES = (0.06, 0.4)  # the ink height of a list key's row (a digit's or capital's height, up to a large print)
PIECE_GAP = 0.3  # of a row's height: white this wide parts two pieces of a row (a word space; not a digit's neighbour)
NUMBER_MAX_WIDTH = 3.2  # of a row's height: the widest number piece ("120." at most)
ANSWER_MAX_WIDTH = 1.3  # of a row's height: an answer piece's ink is about one glyph ("M" is the widest)
ANSWER_MIN_HEIGHT = 0.45  # of a row's height: an answer is a glyph's height (a dot or a dash is not)
DASH_MAX_HEIGHT = 0.35  # of a row's height: a separating dash is low, and wider than tall
BASELINE_FROM = 0.6  # of a row's height from its top: a leader's dots start below this (a dash stands higher)
DASH_MIN_WIDTH = 0.3  # of a row's height: the narrowest dash (a hyphen is ~0.35 of a digit's height)
LEAD_GAP = 0.45  # of a row's height: a word space at least, between a word leading an entry and its number
ENTRY_GAP = 1.5  # row heights: white at least this wide parts two entries of a row (columns stand further apart)
EDGE_SLACK = 0.5  # row heights: two entries whose pieces' edges lie this close share a column
MIN_ENTRIES = 3  # entries a column needs before it is read as a key's
ANSWER_MIN_SHARE = 0.6  # of a column's answers that must read as labels before it is a key's
PAGE_LABEL_SURE = 80.0  # a label the page reading read this surely at an answer's place is kept
PAGE_LABEL_SEEN = 50.0  # a label the page reading read this surely at an answer's place contradicts an unsure cell reading
CELL_SURE = 90.0  # a cell reading this sure stands whatever the page reading holds at its place
SHAPE_SLACK = 0.25  # of a number's height: how far an unsure answer's ink may reach off its label's in the key (`_extent`)
SHAPE_MIN = 3  # answers read as one label before their reach is that label's
CONFIRM_BELOW = 10.0  # a cell reading less sure than this (a lone letter read against the labels, often at 0) must look like its label
PITCH_SLACK = 0.3  # of the column's pitch: how far a row may stand from the place its pitch gives
LINE_SLACK = 0.33  # of a line's height: how far past it a piece on the line may reach (a descender reaches ~0.27)
BLOCK_GAP = 3.5  # row pitches: white (or a heading) this tall down a column parts two blocks of entries, each counted alone
MARK_MIN_SHARE = 0.3  # of a column's number readings that must carry a mark before the column's numbers are written with it
NUMBER_MARKS = ".):"  # what a list key's numbers end with, read with their digits and taken off
LINE_OFFSET = 900_000  # lines of this pass within `tablecells`' held-apart range (its tables use the lower ones)
_NUMBER_MARK = re.compile(r"^\d+(?P<mark>[^\w\s]{0,2})$")
_GLUED_ANSWER = re.compile(r"^\d+[^\w\s]{0,2}(?P<label>[^\W\d_])$")

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class Entry:
    """One candidate entry of a row: its number piece, an optional dash between, and its answer piece."""

    number: Box
    answer: Box
    dash: Box | None
    height: int  # the row's ink height
    row: int  # the row's top: entries of one row, in any column, share it
    lead: Box | None = None  # words printed before the number ("Question" of "Question 12: D"), read by the page reading
    tab: bool = False  # the answer stands apart from its number at a tab stop, a group of its own
    after: Box | None = None  # a glyph alone further right, when the whole entry fits a number ("3" "1." then "a")


def _pieces(ink: np.ndarray, top: int, bottom: int) -> list[Box]:
    """The pieces of one row: ink parted by white wider than `PIECE_GAP` of the row's height, each with its own ink rows."""
    height = bottom - top
    band = ink[top:bottom]
    pieces = []
    for left, right in ink_runs(np.asarray(band.any(axis=0)), max(1, round(PIECE_GAP * height))):
        rows = np.flatnonzero(band[:, left:right].any(axis=1))
        pieces.append((left, top + int(rows[0]), right, top + int(rows[-1]) + 1))
    return pieces


def _entries(pieces: list[Box], height: int, row: int) -> list[Entry]:
    """The row's entries, left to right: pieces parted by white under `ENTRY_GAP` row heights make one
    group; a group whose last piece is about one glyph, the rest (less a dash or a dotted leader before it) no
    wider than a number with its mark, is an entry (the digits of "10" or a dot set apart are pieces of its
    number). A group that is a number alone followed by a group that is one glyph alone is an entry set with a
    tab ("1.      a"): whether the glyphs stand at one tab stop down the column `_columns` decides."""
    found: list[Entry] = []
    groups: list[list[Box]] = []
    for piece in pieces:
        if groups and piece[0] - groups[-1][-1][2] < ENTRY_GAP * height:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    groups = [_without_specks(group, height) for group in groups]
    waiting: Box | None = None  # a number alone, its answer perhaps the next group at a tab stop
    for index, group in enumerate(groups):
        led = len(group) > 2 and all(_on_baseline(p, height, row) for p in group[:-1])  # a glyph after a dotted leader of its own
        if waiting is not None and (len(group) == 1 or led) and _is_answer(group[-1], height):
            found.append(Entry(waiting, group[-1], None, height, row, tab=True))
            waiting = None
            continue
        waiting = None
        if found and found[-1].after is not None and found[-1].after == group[0]:
            continue  # the glyph at a tab stop the entry before may own: no number of an entry after it
        if len(group) < 2 or not _is_answer(group[-1], height):
            number = _span(_without_leader(group, height, row))
            waiting = number if _is_number(number, height) else None
            continue
        rest, dash = group[:-1], None
        if len(rest) > 1 and _is_dash(rest[-1], height) and not _on_baseline(rest[-1], height, row):
            rest, dash = rest[:-1], rest[-1]
        else:
            rest = _without_leader(rest, height, row)  # "7. ........ c": the dots lead the eye, they are no part of the number
        tail = _number_tail(rest, height)
        lead = _span(rest[:len(rest) - len(tail)]) if len(tail) < len(rest) else None
        number = _span(tail)
        if _is_number(number, height):
            beyond = groups[index + 1] if index + 1 < len(groups) else []
            after = beyond[0] if len(beyond) == 1 and _is_answer(beyond[0], height) and _is_number(_span(group), height) else None
            found.append(Entry(number, group[-1], dash, height, row, lead, after=after))
    return found


def _is_number(number: Box, height: int) -> bool:
    return number[2] - number[0] <= NUMBER_MAX_WIDTH * height and number[3] - number[1] >= ANSWER_MIN_HEIGHT * height


def _without_specks(group: list[Box], height: int) -> list[Box]:
    """A group less the specks after its last glyph (a dot of JPEG noise after the answer is no part of the entry)."""
    while len(group) > 2 and _is_speck(group[-1], height):
        group = group[:-1]
    return group


def _without_leader(pieces: list[Box], height: int, top: int) -> list[Box]:
    """`pieces` less the dotted leader at their end: two or more low pieces on the baseline (dots, alone or run
    together by the blur), or one such piece at least a row's height wide (a sharp scan's dots run into one rule);
    of two or more, the first stays when it stands closer to the digits before it than to the next dot (the
    number's own mark, "7." of "7. ........")."""
    end = start = len(pieces)
    while start > 0 and _on_baseline(pieces[start - 1], height, top):
        start -= 1
    if start == 0 or start == end:
        return pieces
    if end - start == 1:
        return pieces[:start] if pieces[start][2] - pieces[start][0] >= height else pieces
    if pieces[start][0] - pieces[start - 1][2] < pieces[start + 1][0] - pieces[start][2]:
        start += 1
    return pieces[:start]


def _on_baseline(piece: Box, height: int, top: int) -> bool:
    """A low piece in the lower part of its line (a dot, dots run together), not a dash at mid-height."""
    return piece[3] - piece[1] <= DASH_MAX_HEIGHT * height and piece[1] - top >= BASELINE_FROM * height


def _span(pieces: list[Box]) -> Box:
    return min(p[0] for p in pieces), min(p[1] for p in pieces), max(p[2] for p in pieces), max(p[3] for p in pieces)


def _number_tail(rest: list[Box], height: int) -> list[Box]:
    """The pieces of `rest` that can be the entry's number: all of them when they fit a number's width, else the
    longest run at its end that does, parted from what stands before it by a word space or more
    (`LEAD_GAP`): a word printed before each number ("Question 12: D", "Ερώτηση 7: Δ") leads the entry and
    stays as the page reading read it. The word space is measured in the tail's own height (the digits'),
    not the line's: a word reaching above and below its digits (`Στεφάνη`: an accent over `ά`, `φ` and `η`
    below the baseline) makes the line a third taller than its number, and a word space of 20 px beside
    digits 35 px tall was taken for a gap inside the number on half the rows of a Greek key. Whether the tail
    is a number the digit reading and the column's count decide, as for any entry."""
    for start in range(len(rest)):
        tail = rest[start:]
        fits = tail[-1][2] - tail[0][0] <= NUMBER_MAX_WIDTH * height
        own = max(p[3] for p in tail) - min(p[1] for p in tail)
        measure = own if ANSWER_MIN_HEIGHT * height <= own < height else height  # a dot alone is no number's height
        if fits and (start == 0 or tail[0][0] - rest[start - 1][2] >= LEAD_GAP * measure):
            return tail
    return rest


def _is_dash(piece: Box, height: int) -> bool:
    """A bar: low, at least twice as wide as tall and `DASH_MIN_WIDTH` of the row wide (a speck of JPEG
    noise between "51." and "C" is neither, and was once written as a dash the key's entry pattern refused)."""
    width, tall = piece[2] - piece[0], piece[3] - piece[1]
    return tall <= DASH_MAX_HEIGHT * height and width >= 2 * tall and width >= DASH_MIN_WIDTH * height


def _is_speck(piece: Box, height: int) -> bool:
    return piece[2] - piece[0] < DASH_MIN_WIDTH * height and piece[3] - piece[1] < DASH_MAX_HEIGHT * height


def _is_answer(piece: Box, height: int) -> bool:
    width, tall = piece[2] - piece[0], piece[3] - piece[1]
    return tall >= ANSWER_MIN_HEIGHT * height and width <= ANSWER_MAX_WIDTH * height


def _columns(entries: list[Entry]) -> list[list[Entry]]:
    """Entries grouped into key columns: two entries of different rows are one column when their number
    pieces share a left or right edge (numbers set flush left or flush right) or their answers a left edge."""
    parent = list(range(len(entries)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, a in enumerate(entries):
        for j in range(i + 1, len(entries)):
            b = entries[j]
            slack = EDGE_SLACK * max(a.height, b.height)
            if abs(a.number[1] - b.number[1]) < min(a.height, b.height):
                continue  # the same row
            if (abs(a.number[0] - b.number[0]) <= slack or abs(a.number[2] - b.number[2]) <= slack
                    or abs(a.answer[0] - b.answer[0]) <= slack):
                parent[root(j)] = root(i)
    groups: dict[int, list[Entry]] = {}
    for i, entry in enumerate(entries):
        groups.setdefault(root(i), []).append(entry)
    columns = [_at_tab_stop(sorted(group, key=lambda e: e.number[1])) for group in groups.values()]
    return [column for column in columns if len(column) >= MIN_ENTRIES]


def _at_tab_stop(column: list[Entry]) -> list[Entry]:
    """The column with its entries set to the tab stop its tab-set answers share (their median left edge), where
    there is one: an entry whose own "answer" stands left of the stop is the number's last digit ("31." parted
    as "3" and "1.", its answer at the stop further right), and with a glyph alone at the stop it becomes that
    glyph's number; without one it is no entry (a hole its place keeps, reported). A tab-set answer off the stop
    is something else (the next column's "6." where this row's answer was lost): that entry is dropped too."""
    lefts = [e.answer[0] for e in column if e.tab] + [e.after[0] for e in column if e.after is not None]
    if len(lefts) < MIN_ENTRIES:
        return column
    stop = float(np.median(lefts))
    kept = []
    for e in column:
        slack = EDGE_SLACK * e.height
        if abs(e.answer[0] - stop) <= slack:
            kept.append(e)
        elif e.after is not None and abs(e.after[0] - stop) <= slack and e.answer[0] < stop:
            kept.append(replace(e, number=_span([e.number, e.answer]), answer=e.after, dash=None, tab=True, after=None))
        elif not e.tab and e.answer[0] > stop:
            kept.append(e)  # an answer right of the stop: a list set otherwise, left as found
    return kept


def _blocks(column: list[Entry]) -> list[list[Entry]]:
    """A column cut where more than `BLOCK_GAP` of its row pitch parts two rows: a heading between ("Reserve
    questions") opens a block whose numbers may start again, counted on its own; a row or two lost stay holes."""
    tops = [e.number[1] for e in column]
    steps = [b - a for a, b in zip(tops, tops[1:])]
    if not steps:
        return [column]
    pitch = float(np.median(steps))
    blocks = [[column[0]]]
    for entry, step in zip(column[1:], steps):
        if step > BLOCK_GAP * pitch:
            blocks.append([])
        blocks[-1].append(entry)
    return blocks


def _places(column: list[Entry]) -> list[int] | None:
    """Each entry's row place in its column by the column's pitch (a row lost leaves a hole), or None where
    the rows keep no pitch (entries of a page's prose that happen to line up). Each step down counts the pitches
    it spans; the pitch is then fitted to every row (rows set 42 and 44 px apart in turn are 43 apart, where
    the median step, 44, drifts a row off over 50 rows), and every row must stand near its place."""
    tops = [e.number[1] for e in column]
    steps = [b - a for a, b in zip(tops, tops[1:])]
    pitch = float(np.median(steps))
    if pitch <= 0:
        return None
    places = [0]
    for step in steps:
        if round(step / pitch) < 1:
            return None
        places.append(places[-1] + round(step / pitch))
    if len(places) > 1:
        pitch, start = np.polyfit(places, tops, 1)
    else:
        start = tops[0]
    if pitch <= 0 or any(abs(top - start - place * pitch) > PITCH_SLACK * pitch for top, place in zip(tops, places)):
        return None
    return places


def _mark(marks: list[str], words: list[Word], column: list[Entry]) -> str:
    """The mark the key's numbers are printed with ("." of "12."): the one most often read with them,
    by the digit reading (`marks`) and by Tesseract's page reading; a mark read with at least `MARK_MIN_SHARE` of
    them wins over none (a blurred dot, pale beside its digit, is dropped more often than it is read)."""
    marks = list(marks)
    for entry in column:
        for w in words:
            if _centre_in(w, entry.number) and (m := _NUMBER_MARK.match(w.text)):
                marks.append(m.group("mark"))
    printed = Counter(mark for mark in marks if mark)
    if printed and printed.most_common(1)[0][1] >= MARK_MIN_SHARE * len(marks):
        return printed.most_common(1)[0][0]  # a faint dot lost to the threshold in most crops is still the column's mark
    return Counter(marks).most_common(1)[0][0] if marks else ""


def _extent(entry: Entry) -> tuple[float, float]:
    """Where the answer's ink starts and ends against its number's, in the number's heights: a letter with an
    ascender reaches higher than one of the x-height, one with a descender lower."""
    size = max(1, entry.number[3] - entry.number[1])
    return (entry.answer[1] - entry.number[1]) / size, (entry.answer[3] - entry.number[3]) / size


def _like_their_label(entries: list[Entry], readings: list[tuple[str, float] | None],
                      settled: list[bool]) -> list[tuple[str, float] | None]:
    """`readings` with each one under `CONFIRM_BELOW` (not `settled` by the page reading) left unread where its
    ink's reach (`_extent`) is off its label's by more than `SHAPE_SLACK` and nearer another label's: each
    label's reach is the median of the key's answers read as it (at least `SHAPE_MIN` of them). A lone small
    "β" read "α" at confidence 0 reaches above and below the α's of its key."""
    reach: dict[str, list[tuple[float, float]]] = {}
    for entry, reading in zip(entries, readings):
        if reading is not None:
            reach.setdefault(reading[0], []).append(_extent(entry))
    typical = {label: (float(np.median([r[0] for r in seen])), float(np.median([r[1] for r in seen])))
               for label, seen in reach.items() if len(seen) >= SHAPE_MIN}

    def off(extent: tuple[float, float], label: str) -> float:
        return max(abs(extent[0] - typical[label][0]), abs(extent[1] - typical[label][1]))

    result = list(readings)
    for i, (entry, reading) in enumerate(zip(entries, readings)):
        if reading is None or reading[1] >= CONFIRM_BELOW or settled[i] or reading[0] not in typical:
            continue
        extent = _extent(entry)
        own = off(extent, reading[0])
        if own > SHAPE_SLACK and any(off(extent, other) < own for other in typical if other != reading[0]):
            result[i] = None
    return result


def _unless_contradicted(reading: tuple[str, float] | None, words: Sequence[Word], answer: Box,
                         labels: Sequence[str]) -> tuple[str, float] | None:
    """The cell's reading, or None where it is unsure (under `CELL_SURE`) and the page reading holds another label
    at its place read at least `PAGE_LABEL_SEEN` sure: two readings that differ leave the answer reported, not
    guessed (a blurred small "b" read alone as "D" at 80, read "b" in its line at 70)."""
    if reading is None or reading[1] >= CELL_SURE:
        return reading
    page = _page_label(words, answer, labels, sure=PAGE_LABEL_SEEN)
    return None if page is not None and page[0] != reading[0] else reading


def _page_label(words: Sequence[Word], answer: Box, labels: Sequence[str], sure: float = PAGE_LABEL_SURE) -> tuple[str, float] | None:
    """The label the page reading read surely at an answer's place, alone there, or None. In its line's
    context Tesseract tells a small `e` from a `c` that the cell, read alone against the labels, confuses
    (a held-out key in 9.5 pt: 4 answers of 50 wrong read alone, none in the page reading)."""
    by_fold = {label.casefold(): label for label in labels}
    middle = (answer[1] + answer[3]) / 2
    there = [w for w in words if w.left < answer[2] and w.right > answer[0] and w.top <= middle <= w.bottom]
    if len(there) != 1 or there[0].conf < sure:
        return None
    # The label alone, or glued to its number ("5)e"): what the word ends with, past the number and its mark.
    read = _GLUED_ANSWER.match(there[0].text)
    text = read.group("label") if read else there[0].text
    return (by_fold[text.casefold()], there[0].conf) if text.casefold() in by_fold else None


def _covers(word: Word, box: Box) -> bool:
    """Whether the word's box holds the middle of `box` and reaches past its top or bottom."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return word.left <= x <= word.right and word.top <= y <= word.bottom and (word.top < box[1] or word.bottom > box[3])


def _centre_in(word: Word, box: Box) -> bool:
    x, y = (word.left + word.right) / 2, (word.top + word.bottom) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _padded(box: Box, height: int, size: tuple[int, int]) -> Box:
    across, down = max(2, round(0.3 * height)), max(2, round(0.2 * height))
    return max(0, box[0] - across), max(0, box[1] - down), min(size[0], box[2] + across), min(size[1], box[3] + down)


def _lines(pieces: list[Box]) -> list[list[Box]]:
    """A band's pieces, left to right, cut into lines: a piece joins the line before it when one of the two
    stands within the other's height, give or take `LINE_SLACK` of the line's height (a small letter inside a
    digit's height, a descender just below it); two columns whose rows stand half a row apart (a block set lower
    than its neighbour) make one band of the page's ink, but each keeps its own line."""
    lines: list[list[Box]] = []
    for piece in pieces:
        if lines:
            top, bottom = min(p[1] for p in lines[-1]), max(p[3] for p in lines[-1])
            slack = LINE_SLACK * (bottom - top)
            if (piece[1] >= top - slack and piece[3] <= bottom + slack) or (top >= piece[1] - slack and bottom <= piece[3] + slack):
                lines[-1].append(piece)
                continue
        lines.append([piece])
    return lines


def list_entries(grey: Image.Image, words: Sequence[Word], dpi: int) -> list[list[Entry]]:
    """The candidate key columns of a page: entries (number, answer) found from its white space, grouped
    by column, each column's entries top to bottom. `words`: ink they cover is not looked at (a ruled
    table already read cell by cell)."""
    ink = np.asarray(grey) < INK_BELOW
    for w in words:
        ink[w.top:w.bottom, w.left:w.right] = False
    low, high = (round(v * dpi) for v in ROW_INCHES)
    entries: list[Entry] = []
    for top, bottom in ink_runs(ink.sum(axis=1) > 1, 0):
        if low <= bottom - top <= high:
            for line in _lines(_pieces(ink, top, bottom)):
                line_top, line_bottom = min(p[1] for p in line), max(p[3] for p in line)
                if low <= line_bottom - line_top:
                    entries += _entries(line, line_bottom - line_top, line_top)
    blocks = [block for column in _columns(entries) for block in _blocks(column)]
    return [block for block in blocks if len(block) >= MIN_ENTRIES and _places(block) is not None]


def read_list_cells(
    grey: Image.Image,
    words: list[Word],
    held: list[Word],
    labels: Sequence[str],
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
    folder: Path,
    scanned: np.ndarray | None = None,
) -> list[Word]:
    """`words` with each unruled list key's entries replaced by a number word and an answer word per entry
    (see the module's docstring); a page without such a key comes back as it is. `held`: words a ruled
    table pass wrote, whose ink is not looked at again. `scanned`: the page before its light greys were whitened,
    in `grey`'s pixels, where ringed answers are looked for by their shape (a thin ring at 150 dpi is grey, and
    preparing the page whitens it); None: `grey`."""
    columns = list_entries(grey, held, dpi)
    if not columns:
        return words
    height = int(np.median([e.height for column in columns for e in column]))
    gap = max(8, height)
    numbers = [e.number for column in columns for e in column]
    canvas, boxes = enlarged(grey, [_padded(box, height, grey.size) for box in numbers])
    read = read_digits(canvas, boxes, GLYPH_PX, languages, dpi, omp_thread_limit, folder / "list-numbers.pgm", marks=NUMBER_MARKS)
    texts = iter(read)
    numbered: list[tuple[list[Entry], list[int], list[str], list[bool]]] = []
    marks: list[str] = []
    for column in columns:
        places = _places(column)
        assert places is not None
        values: list[int | None] = [None] * (places[-1] + 1)
        column_marks: list[str] = []
        column_digits: list[str] = []
        read_at: list[str | None] = [None] * len(values)
        for place in places:
            text = next(texts) or ""
            digits = text.rstrip(NUMBER_MARKS)
            values[place] = int(digits) if digits else None
            column_marks += [text[len(digits):]] if digits else []
            column_digits.append(digits)
            read_at[place] = digits
        run = counting_run(values)
        if run is not None:
            anchors = anchored_mends(read_at, run)  # mends between entries read as the count says (`numbering`)
            numbered.append((column, [run[place] for place in places], column_digits, [place in anchors for place in places]))
            marks += column_marks
    # One mark for the page's key: a block of five under a heading reads too few dots of its own.
    mark = _mark(marks, words, [e for column, _, _, _ in numbered for e in column])
    keyed = [(column, run, mark, digits, anchored) for column, run, digits, anchored in numbered]
    if not keyed:
        return words
    answers = [e.answer for column, _, _, _, _ in keyed for e in column]
    labels_read = iter(read_answers(grey, [_padded(box, height, grey.size) for box in answers], labels, gap, languages, dpi,
                                     omp_thread_limit, folder / "list-answers.pgm", psm=LABEL_STRIP_PSM,
                                     scanned=scanned if scanned is not None and scanned.shape == (grey.height, grey.width) else None))
    added: list[Word] = []
    spans: list[Box] = []
    parts: list[Box] = []  # each entry's number and answer
    leads: dict[tuple[int, int, int], Box] = {}
    entries = [e for column, _, _, _, _ in keyed for e in column]
    settled = [_page_label(words, e.answer, labels) is not None for e in entries]
    first = list(labels_read)
    raw, confirmed = iter(first), iter(_like_their_label(entries, first, settled))
    for column, numbers_run, mark, column_reads, column_anchored in keyed:
        readings = [next(confirmed) for _ in column]
        if sum(next(raw) is not None for _ in column) < ANSWER_MIN_SHARE * len(column):
            continue  # numbered lines of one glyph that are mostly no label: a question's own list, not a key
        for entry, number, reading, read_as, anchored in zip(column, numbers_run, readings, column_reads, column_anchored):
            reading = _page_label(words, entry.answer, labels) or _unless_contradicted(reading, words, entry.answer, labels)
            top = min(entry.number[1], entry.answer[1])
            bottom = max(entry.number[3], entry.answer[3])
            line = (LINE_LIST + entry.row, 0, 0)
            # A number its run gave in place of what was read ("23" between 22 and 24, nothing) is inferred, not read.
            inferred = None if read_as and int(read_as) == number else read_as
            added.append(Word(f"{number}{mark}", 95.0, entry.number[0], entry.number[1], entry.number[2], entry.number[3], line,
                              inferred_from=inferred, inferred_anchored=inferred is not None and anchored))
            if entry.dash is not None:
                dash = next((w.text for w in words if _centre_in(w, entry.dash) and not any(ch.isalnum() for ch in w.text)), "-")
                added.append(Word(dash, 90.0, *entry.dash, line))
            text, conf = reading if reading else (UNREAD_CELL, -1.0)
            added.append(Word(text, conf, entry.answer[0], entry.answer[1], entry.answer[2], entry.answer[3], line))
            spans.append((entry.number[0], top, entry.answer[2], bottom))
            parts += [entry.number, entry.answer]
            if entry.lead is not None:  # the leading words join the entry's line, in front of its number
                leads[line] = entry.lead
    # A word over an entry goes, and so does one read down the column across entries ("DOYCOONOCOONQ", the
    # answers of eight rows read as one word), which would join those rows' entries into one line.
    kept = [w for w in words if not any(_centre_in(w, span) for span in spans) and not any(_covers(w, part) for part in parts)]
    kept = [next((replace(w, line=line) for line, lead in leads.items() if _centre_in(w, lead)), w) for w in kept]
    return kept + added


LINE_LIST = LINE_BASE + LINE_OFFSET
