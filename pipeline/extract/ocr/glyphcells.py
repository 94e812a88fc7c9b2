"""Words of a script that sets every glyph on one square cell (Hangul, Han, kana): word spaces measured from
the white on the line, and glyphs Tesseract dropped, found by the cells their ink fills.

A script's language data says its glyphs stand on square cells (`glyph_cells`: Korean); nothing here names a
script or a word. On such a line a word of n glyphs is n cells wide less the glyphs' side bearings, whatever
the glyphs, so the page's words give the cell's width `pitch` and the bearings `offset` (a fit of box width
against glyph count over the page's words of wide glyphs; Unicode East Asian width W or F). Then:

- **word spaces** (`split_by_spaces`): a word whose box holds white at least `word_space` cells wide between
  two ink runs, and that is wider than its glyphs' cells by some of that white (`SPACE_EXCESS`), was read
  with a word space lost (`여인숙덮친` for `여인숙 덮친`): it is cut at that white, at the cell boundary the
  white stands on, where the cells of the ink between the whites hold exactly the word's glyphs; and two
  neighbouring words of wide glyphs on a row with less white between their ink than `word_space` cells are
  one word read in two (`시 세이도` for `시세이도`). Tesseract's spaces are not trusted: the white is measured
  on the page, in the band one cell high that holds the word's ink (a box that took in another line's ink
  measures its own glyphs). A word whose ink holds a word space (its white, and the pitch of the glyphs either
  side of it, `widegaps.WORD_PITCH`) between glyphs but that is not cut
  (its box no wider than its glyphs' cells: a box that clipped its last glyph's ink, `바꾸어야맺으` for
  `바꾸어야 맺으`; or cells that do not hold its text) is kept as read and marked unsure (confidence 0): the
  question rests on two words read glued.
- **dropped glyphs** (`dropped_glyphs`, `mend_dropped`): ink beside a word on its row that no word's box
  covers, at least `glyph_from` cells wide and most of a glyph high (`자연석` read `연석`, the `자` left out
  of every box), or a box wider than its text by `glyph_from` cells or more (`세기말` read `기말` in a box
  that holds all three). Each such word is cut out with the ink beside it, the crops are stacked and read in
  one Tesseract call; a reading is kept when it holds the word as read and adds as many glyphs as the
  uncovered cells hold (a glyph's worth or more on each side; the whole word for a wide box). A reading
  that does not (as many cells as the uncovered ink fills, a digit or a Latin letter half a cell) is not kept, and the word is marked unsure (its confidence 0, what the second reading
  said as its `second`): the question rests on a reading that lost a glyph, and carries `ocr.uncertain`.
- **glyphs read twice** (in `dropped_glyphs` too): a box narrower than its text by `glyph_from` cells or
  more holds fewer glyphs than the reading (`골골든듀` for `골든듀`, `꼼꼼히ㅇ` for `꼼꼼히`): it is read again
  the same way, and the reading kept where it is the text less that many glyphs; otherwise the word is
  marked unsure.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import parse_tsv, run_tesseract, stacked
from pipeline.extract.ocr.widegaps import WORD_PITCH
from pipeline.extract.ocr.words import Word, ink_runs, joined_chains, same_row

MIN_FIT_WORDS = 6  # wide-glyph words of two glyphs or more the page needs for its cells to be measured
SPACE_EXCESS = 0.12  # cells a word's box must exceed its glyphs' cells by for a white inside it to be a word space
GLYPH_HEIGHT_SHARE = 0.5  # uncovered ink at least this share of the word's height is a glyph, not a mark
NEAR = 0.6  # cells: uncovered ink starts within this of the word's edge to be a glyph of it
MARGIN = 0.35  # cells of white round a crop read again, and between stacked crops
MIN_CONFIDENCE = 60.0  # the added glyphs' reading at least this sure
STACK_PSM = 6
BAND = 1.15  # cells: the height of the band of a box a word's glyphs are measured in


@dataclass(frozen=True)
class CellFacts:
    """What a script's language data says of its square cells (`glyph_cells`), in cell widths."""

    word_space: float  # white between two glyphs from which it is a word space
    glyph_from: float  # uncovered ink, or a box's excess over its text, from which a glyph was dropped


@dataclass(frozen=True)
class Cells:
    """The page's measured cell: glyph pitch and the bearings a word's box leaves out, in pixels."""

    pitch: float
    offset: float  # box width = glyphs × pitch + offset (negative: the side bearings)

    def excess(self, word: Word) -> float:
        """How much wider than its glyphs' cells `word`'s box is, in cells."""
        return (word.right - word.left - len(word.text) * self.pitch - self.offset) / self.pitch


@dataclass(frozen=True)
class Dropped:
    """A word with ink beside it (or inside its box) no reading accounts for."""

    word: Word
    left: int  # the crop read again, in page pixels
    right: int
    side: str  # "left", "right" or "inside": where the dropped glyphs stand; "twice": the text has glyphs too many
    glyphs: int  # how many cells the uncovered ink fills


def wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in "WF"


def cell_word(word: Word) -> bool:
    """A word written in wide glyphs only."""
    return bool(word.text) and all(wide(ch) for ch in word.text)


def measure_cells(words: Sequence[Word]) -> Cells | None:
    """The page's cell: its pitch the median height of the words of wide glyphs (a square cell is as wide as it is
    high), the bearings the median of what their boxes leave out of their cells; None with too few such words."""
    sample = [w for w in words if cell_word(w) and len(w.text) >= 2]
    if len(sample) < MIN_FIT_WORDS:
        return None
    pitch = float(np.median([w.bottom - w.top for w in sample]))
    if pitch <= 0:
        return None
    return Cells(pitch, float(np.median([w.right - w.left - len(w.text) * pitch for w in sample])))


# ------------------------------------------------------------------------------------------------ word spaces


def split_by_spaces(words: list[Word], ink: np.ndarray, cells: Cells, facts: CellFacts) -> tuple[list[Word], int, int]:
    """`words` with each word of wide glyphs that holds a word space's white cut there, and neighbouring words of
    wide glyphs on a row with less white between their ink than a word space joined (see the module); how many
    spaces were put back or taken out; and how many words holding such white were not cut but marked unsure."""
    result: list[Word] = []
    count = marked = 0
    for word in words:
        pieces = _pieces(word, ink, cells, facts) if cell_word(word) and len(word.text) >= 2 else [word]
        if pieces == [word] and cell_word(word) and len(word.text) >= 2 and _holds_word_space(word, words, ink, cells, facts):
            pieces = [replace(word, conf=0.0)]
            marked += 1
        count += len(pieces) - 1
        result += pieces
    joined, taken = _joined(result, ink, cells, facts)
    return joined, count + taken, marked


def _joined(words: list[Word], ink: np.ndarray, cells: Cells, facts: CellFacts) -> tuple[list[Word], int]:
    """`words` with each word of wide glyphs joined to the next one right of it on its row where the white between
    their ink is narrower than a word space; the joined word keeps the left one's place and line."""
    pieces = [w for w in words if cell_word(w)]
    follows: dict[int, Word] = {}
    for left in pieces:
        beside = [w for w in pieces if w is not left and same_row(left, w) and left.right <= w.left < left.right + cells.pitch]
        if not beside:
            continue
        right = min(beside, key=lambda w: w.left)
        ends, starts = _ink_columns(ink, left, cells.pitch), _ink_columns(ink, right, cells.pitch)
        if ends and starts and (right.left + starts[0][0]) - (left.left + ends[-1][1]) < facts.word_space * cells.pitch:
            follows[id(left)] = right
    return joined_chains(words, follows)


def glyph_rows(ink: np.ndarray, word: Word, pitch: float) -> tuple[int, int]:
    """The rows of `word`'s box its glyphs stand in: the band one cell high (and a little) holding the most of
    its ink. A box taller than that took in ink of the line above or below (its white would not be measured)."""
    height = round(BAND * pitch)
    if word.bottom - word.top <= height:
        return word.top, word.bottom
    rows = np.asarray(ink[max(0, word.top):word.bottom, max(0, word.left):word.right]).sum(axis=1)
    sums = np.convolve(rows, np.ones(height, dtype=int), mode="valid")
    start = max(0, word.top) + int(np.argmax(sums))
    return start, start + height


def _ink_columns(ink: np.ndarray, word: Word, pitch: float) -> list[tuple[int, int]]:
    top, bottom = glyph_rows(ink, word, pitch)
    band = np.asarray(ink[top:bottom, max(0, word.left):word.right])
    return ink_runs(np.asarray(band.any(axis=0)), 0) if band.size else []


def _word_spans(runs: list[tuple[int, int]], cells: Cells, facts: CellFacts) -> list[tuple[int, int]]:
    """The stretches of ink between whites of a word space or wider, less a run narrower than `glyph_from` cells at
    either end (a speck, a mark's tail the box took in: no glyph)."""
    groups: list[list[tuple[int, int]]] = [[runs[0]]] if runs else []
    for run in runs[1:]:
        if run[0] - groups[-1][-1][1] >= facts.word_space * cells.pitch:
            groups.append([run])
        else:
            groups[-1].append(run)
    spans = [(g[0][0], g[-1][1]) for g in groups]
    while len(spans) > 1 and spans[0][1] - spans[0][0] < facts.glyph_from * cells.pitch:
        spans.pop(0)
    while len(spans) > 1 and spans[-1][1] - spans[-1][0] < facts.glyph_from * cells.pitch:
        spans.pop()
    return spans


def _holds_word_space(word: Word, words: Sequence[Word], ink: np.ndarray, cells: Cells, facts: CellFacts) -> bool:
    """Whether `word`'s ink holds a word space between two stretches of a glyph's width or more: white of a word
    space, and the middles of the glyphs either side of it as far apart as across a word space (`widegaps.WORD_PITCH`;
    each stretch's width shared by the glyphs its cells hold): at low resolution and blur a thin stroke fades and
    the white between two syllables of one word grows to a word space's (`신월` at 150 dpi), their pitch does not.
    Ink right of the white that another word's box covers is that word's (a box that ran over its neighbour)."""
    spans = _word_spans(_ink_columns(ink, word, cells.pitch), cells, facts)
    others = [w for w in words if w is not word and same_row(word, w)]
    for (start, end), (after, last) in zip(spans, spans[1:]):
        if any(w.left < word.left + last and w.right > word.left + after for w in others):
            continue
        before_glyphs = max(1, round((end - start - cells.offset) / cells.pitch))
        after_glyphs = max(1, round((last - after - cells.offset) / cells.pitch))
        pitch = (after + (last - after) / after_glyphs / 2) - (end - (end - start) / before_glyphs / 2)
        if pitch >= WORD_PITCH * cells.pitch:
            return True
    return False


def _pieces(word: Word, ink: np.ndarray, cells: Cells, facts: CellFacts) -> list[Word]:
    """`word` cut at each white of a word space in it, where the cells of the ink between those whites hold
    exactly its glyphs; else `word` as it is. A run of ink narrower than `glyph_from` cells at either end of the box
    (a speck, a mark's tail the box took in) holds no glyph."""
    if cells.excess(word) < SPACE_EXCESS:
        return [word]
    spans = _word_spans(_ink_columns(ink, word, cells.pitch), cells, facts)
    if len(spans) < 2:
        return [word]
    counts = [round((end - start - cells.offset) / cells.pitch) for start, end in spans]
    if min(counts) < 1 or sum(counts) != len(word.text):
        return [word]  # the whites stand where no cell boundary of the text is: leave the word as read
    pieces, first = [], 0
    for (start, end), count in zip(spans, counts):
        pieces.append(replace(word, text=word.text[first:first + count], left=word.left + start, right=word.left + end))
        first += count
    return pieces


# ------------------------------------------------------------------------------------------------ dropped glyphs


def _uncovered(ink: np.ndarray, words: Sequence[Word], word: Word, left: int, right: int) -> np.ndarray:
    """Per column of [left, right) on `word`'s row: how many rows of ink no word's box covers."""
    left, right = max(0, left), min(ink.shape[1], right)
    if right <= left:
        return np.zeros(0, dtype=int)
    band = np.array(ink[max(0, word.top):word.bottom, left:right], dtype=bool)
    for other in words:
        if other.top < word.bottom and word.top < other.bottom and other.left < right and left < other.right:
            band[:, max(0, other.left - left):max(0, other.right - left)] = False
    return np.asarray(band.sum(axis=0))


def dropped_glyphs(words: Sequence[Word], ink: np.ndarray, cells: Cells, facts: CellFacts) -> list[Dropped]:
    """Each word of wide glyphs with uncovered ink of a glyph's width beside it on its row, or a box wider
    or narrower than its text by a glyph's width (see the module)."""
    found = []
    reach = round((NEAR + 1.5) * cells.pitch)
    for word in words:
        if not cell_word(word):
            continue
        height = word.bottom - word.top
        tall = GLYPH_HEIGHT_SHARE * height
        excess = cells.excess(word)
        if excess >= facts.glyph_from:
            found.append(Dropped(word, word.left, word.right, "inside", round(excess)))
            continue
        if excess <= -facts.glyph_from and len(word.text) >= 2:
            found.append(Dropped(word, word.left, word.right, "twice", round(-excess)))
            continue
        for side in ("left", "right"):
            start, end = (word.left - reach, word.left) if side == "left" else (word.right, word.right + reach)
            columns = _uncovered(ink, words, word, start, end)
            runs = ink_runs(columns > 0, round(0.3 * cells.pitch))
            if not runs:
                continue
            run = runs[-1] if side == "left" else runs[0]
            near = (len(columns) - run[1]) if side == "left" else run[0]
            width = run[1] - run[0]
            if near > NEAR * cells.pitch or width < facts.glyph_from * cells.pitch or columns[run[0]:run[1]].max() < tall:
                continue
            glyphs = max(1, round((width - cells.offset) / cells.pitch))
            if side == "left":
                found.append(Dropped(word, max(0, start) + run[0], word.right, side, glyphs))
            else:
                found.append(Dropped(word, word.left, max(0, start) + run[1], side, glyphs))
    return found


def read_dropped(grey: Image.Image, found: Sequence[Dropped], cells: Cells, languages: Sequence[str], dpi: int,
                 omp_thread_limit: int | None) -> list[list[Word]]:
    """Each crop's words as read alone, left to right: one Tesseract call for all of them."""
    margin = round(MARGIN * cells.pitch)
    crops = [grey.crop((max(0, d.left - margin), max(0, d.word.top - margin), min(grey.width, d.right + margin),
                        min(grey.height, d.word.bottom + margin))) for d in found]
    stack, tops = stacked(crops, margin)
    read = parse_tsv(run_tesseract(stack, languages, dpi, omp_thread_limit=omp_thread_limit, psm=STACK_PSM))
    return [sorted((w for w in read if top <= (w.top + w.bottom) / 2 < top + crop.height and w.text.strip()), key=lambda w: w.left)
            for crop, top in zip(crops, tops)]


def cells_of(text: str) -> float:
    """How many cells `text` fills: a wide glyph one, any other character half of one (digits, Latin letters)."""
    return sum(1.0 if wide(ch) else 0.5 for ch in text if not ch.isspace())


def _is_subsequence(short: str, long: str) -> bool:
    letters = iter(long)
    return all(ch in letters for ch in short)


def mend_dropped(words: list[Word], found: Sequence[Dropped], readings: Sequence[Sequence[Word]], cells: Cells) -> tuple[list[Word], int, int]:
    """`words` with each dropped glyph put back where its reading holds the word and adds the glyphs its
    cells hold, and every other such word marked unsure (confidence 0, the reading as `second`); how many
    were mended and how many marked."""
    by_id = {id(d.word): (d, read) for d, read in zip(found, readings)}
    result: list[Word] = []
    mended = marked = 0
    margin = round(MARGIN * cells.pitch)
    for word in words:
        if id(word) not in by_id:
            result.append(word)
            continue
        d, read = by_id[id(word)]
        better = _mended(d, read, margin)
        if better is None:
            said = " ".join(w.text for w in read)
            result.append(replace(word, conf=0.0, second=said if said != word.text else ""))
            marked += 1
        else:
            result += better
            mended += 1
    return result, mended, marked


def _mended(d: Dropped, read: Sequence[Word], margin: int) -> list[Word] | None:
    """The words that replace `d.word` from its crop's reading, or None when the reading does not bear them out."""
    if not read or min(w.conf for w in read) < MIN_CONFIDENCE:
        return None
    known = d.word.text
    joined = "".join(w.text for w in read)
    page_left = max(0, d.left - margin)
    if d.side == "inside":
        if len(read) != 1 or len(joined) != len(known) + d.glyphs or not _is_subsequence(known, joined) or not all(map(wide, joined)):
            return None
        return [replace(d.word, text=joined, conf=min(d.word.conf, read[0].conf))]
    if d.side == "twice":
        if len(read) != 1 or len(joined) != len(known) - d.glyphs or not _is_subsequence(joined, known) or not all(map(wide, joined)):
            return None
        return [replace(d.word, text=joined, conf=min(d.word.conf, read[0].conf))]
    if d.side == "left":
        added = joined[:len(joined) - len(known)]
        if not joined.endswith(known) or abs(cells_of(added) - d.glyphs) > 0.5:
            return None
        if not any(ch.isalnum() for ch in added):
            return None
        if read[-1].text == known and len(read) >= 2:  # read apart: a word of its own before it
            before = read[:-1]
            return [Word(" ".join(w.text for w in before), min(w.conf for w in before), page_left + before[0].left - margin,
                         d.word.top, d.word.left - 1, d.word.bottom, d.word.line), d.word]
        return [replace(d.word, text=added + known, left=d.left, conf=min(d.word.conf, *(w.conf for w in read)))]
    added = joined[len(known):]
    if not joined.startswith(known) or abs(cells_of(added) - d.glyphs) > 0.5:
        return None
    if not any(ch.isalnum() for ch in added):
        return None
    if read[0].text == known and len(read) >= 2:
        after = read[1:]
        return [d.word, Word(" ".join(w.text for w in after), min(w.conf for w in after), d.word.right + 1, d.word.top,
                             d.right, d.word.bottom, d.word.line)]
    return [replace(d.word, text=known + added, right=d.right, conf=min(d.word.conf, *(w.conf for w in read)))]


__all__ = ["CellFacts", "Cells", "Dropped", "cell_word", "dropped_glyphs", "measure_cells", "mend_dropped", "read_dropped",
           "split_by_spaces"]
