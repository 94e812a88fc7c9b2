"""Option labels printed light on a dark disc or square (a white "B" in a black circle) read as the
labels they are. Tesseract reads such a disc as a look-alike ("O", "TA)", "©"), reads only its letter,
or skips it, so the question's options were not found: on the scanned Revalida booklet every option
label is one, and recall was 0.

Found by shape at the start of each Tesseract line, never by what Tesseract made of it: in the line's
first word (when short) or just left of it, the solid block of dark rows and columns is about a text
line tall and about as wide; its outline, fill and letter, takes most of its box (`DISC_MIN_AREA`), with a
letter enclosed in the fill lighter than ink (`DISC_MIN_LIGHT`–`DISC_MAX_LIGHT`: a bullet has none inside);
a heavy letter's one counter is told from a disc's letter by its width or by the dark above and below it
(`STROKE_WIDTH`, `MIDDLE_FILL`); and it stands in a column with another such disc (labels are a column).
Every measure is in the page's text heights or the disc's own height, so a 150 dpi scan's discs, blurred
grey, are taken as a 300 dpi scan's are. Each disc is inverted (fill white,
letter dark), enlarged, and all of a page's are read in one strip against the label alphabet
(`keycells.read_label_cells`); a run of discs still unread in its column takes the labels the read
ones either side leave it, where they pin them down (`_by_column_sequence`). A disc read as a label
opens its line as that label, in place of whatever was read inside it (a word read across it keeps
its part past it); any other disc is left as read.
"""
from __future__ import annotations

import re

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from pathlib import Path

import numpy as np
from PIL import Image

from pipeline.diagnostics import Code, diagnose
from pipeline.extract.ocr.keycells import read_label_cells
from pipeline.extract.ocr.panels import enclosed
from pipeline.extract.ocr.ringneighbours import Stretch, read_stretches
from pipeline.extract.ocr.segment import Region
from pipeline.extract.ocr.words import INK_BELOW, Word, box_mean, ink_runs, line_openers

# Of a disc's box that its outline holds, fill and letter together (a disc π/4 of its box, a square all of
# it): 0.80–0.90 measured on discs 0.7–1.2 em wide at 150–300 dpi; a bold "10", ink and counter, less. The
# fill alone is no measure: a bold "B" takes half of a small disc (0.54 of its box dark at 150 dpi).
DISC_MIN_AREA = 0.75
DISC_MIN_FILL = 0.45  # and of it, dark at least this much
# Enclosure is measured against pixels darker than this: at 150 dpi a small disc's rim beside its letter's
# foot is one blurred pixel, lighter than ink, through which the letter's light reaches the paper.
RIM_BELOW = 160
# A heavy letter is a ring of ink round one light counter, as a disc is round its letter; a disc's letter is
# strokes (its widest light at most `STROKE_WIDTH` of the disc's height: 0.15–0.19 measured on squares at
# 200 dpi; a bold "0" 0.32, "D" 0.42, "O" 0.47), or, where blur has run a small letter's strokes into one
# light patch (up to 0.43 at 150 dpi), the disc stands dark over at least `MIDDLE_FILL` of its height in
# every middle column (0.59–1.0 measured there; a bold "O" 0.42, "D" 0.44, "0" 0.50: two strokes round
# a counter).
STROKE_WIDTH = 0.25
MIDDLE_FILL = 0.55
# Of its box that is lighter than ink and enclosed by the fill, its letter: 0.16–0.37 measured on discs and
# squares 0.7–1.2 em wide scanned at 150–300 dpi (the most where a bold letter fills 0.6 of a small disc, its
# blurred edge lighter than ink); a bold "0" or "O", whose counter is most of it, more. Any pixel lighter
# than ink counts, not only white ones: at 150 dpi with blur a small disc's letter is a stroke one or two
# scan pixels wide, blurred to grey (Revalida's "C": 2 % of its box above 200, 18 % above ink).
DISC_MIN_LIGHT = 0.05
DISC_MAX_LIGHT = 0.42
DISC_HEIGHTS = (0.7, 2.2)  # a disc's height in the page's text heights
DISC_ASPECT = (0.6, 1.6)  # its width over its height
MAX_TEXT = 3  # characters of a line's first word that may be a misread disc
SEARCH_HEIGHTS = 0.5  # text heights around a line's first word searched for its disc
GLUED_HEIGHTS = 1.5  # and of a long first word, its first this many text heights (a disc is about one wide)
LEFT_HEIGHTS = 2.5  # and text heights left of it (a disc Tesseract skipped)
# A column of a search area with this much dark (text heights, once closed) may belong to a disc in it: a disc
# 0.7 text heights tall whose letter takes 0.6 of it leaves 0.28 above and below the letter (a share of the
# search area's height, 0.3 of it, lost such discs: the pass found 7 of 40 on a 150 dpi scan).
EDGE_HEIGHTS = 0.25
EDGE_FILL = 0.3  # a row of a disc's columns this dark (once closed) belongs to it
CLOSING_HEIGHTS = 0.1  # gaps this wide (text heights) are closed: a disc's letter strokes, not word spaces
COLUMN_HEIGHTS = 0.5  # discs whose left edges are this close (in text heights) stand in one column
LETTER_HEIGHTS = 2.0  # a disc is enlarged to this many text heights before its letter is read
LETTER_RAMP = 48  # grey levels above ink over which a disc's letter goes from its edge to full


@dataclass(frozen=True)
class Disc(Region):
    """A label disc found at the start of a Tesseract line (`line`), in page pixels."""

    line: tuple[int, int, int] = (0, 0, 0)


def label_discs(grey: np.ndarray, words: list[Word], text_height: float) -> list[Disc]:
    """The label discs that open lines of `words` on `grey` (a prepared page image)."""
    found: list[Disc] = []
    pad = round(SEARCH_HEIGHTS * text_height)
    for opener in line_openers(words):
        areas = [(opener.left - round(LEFT_HEIGHTS * text_height), opener.top - pad, opener.left - 1, opener.bottom + pad)]
        # A long first word is searched over its first `GLUED_HEIGHTS` too: Tesseract read a disc and the option's
        # first word as one word whose box starts on the disc (Revalida at 175 dpi: "orientar" from the disc's
        # left edge), and neither area above held the disc, so its question lost every option.
        reach = opener.right if len(opener.text) <= MAX_TEXT else min(opener.right, opener.left + round(GLUED_HEIGHTS * text_height))
        areas.insert(0, (opener.left - pad, opener.top - pad, reach + pad, opener.bottom + pad))
        # Both areas are searched and the leftmost disc opens the line: a short first word is found disc-like
        # now and then (a "g" with its counter, 0.78 of its box outline and counter), while its label's
        # square stood just left of it.
        candidates = [d for d in (_disc_in(grey, area, text_height, opener.line) for area in areas) if d is not None]
        disc = min(candidates, key=lambda d: d.left, default=None)
        # Tesseract may split a row into two lines, the disc's letter and the option's text, each finding
        # the same disc.
        if disc is not None and not any(_overlap(disc, other) for other in found):
            found.append(disc)
    # Labels stand in a column: a disc with no other at its left edge is a lone mark (a bold "10").
    return [d for d in found if sum(abs(o.left - d.left) <= COLUMN_HEIGHTS * text_height for o in found) >= 2]


def _disc_in(grey: np.ndarray, area: tuple[int, int, int, int], text_height: float, line: tuple[int, int, int]) -> Disc | None:
    """The disc in `area` of the page: its longest runs of dark rows and of dark columns, if they make one."""
    left, top = max(0, area[0]), max(0, area[1])
    right, bottom = min(grey.shape[1], area[2]), min(grey.shape[0], area[3])
    if right - left < 2 or bottom - top < 2:
        return None
    fill = grey[top:bottom, left:right] < INK_BELOW
    if not fill.any():  # closed, it is no ink either: no column reaches its edge share (the margin left of a line)
        return None
    # Closed (dilated, then eroded) so the disc's light letter does not cut it into pieces.
    radius = max(1, round(CLOSING_HEIGHTS * text_height))
    closed = box_mean(box_mean(fill, radius) > 0, radius) > 0.999
    columns = ink_runs(closed.sum(axis=0) >= EDGE_HEIGHTS * text_height, radius)  # a "C" opens its disc to one side
    if not columns:
        return None
    first, last = max(columns, key=lambda run: run[1] - run[0])
    rows = ink_runs(closed[:, first:last].mean(axis=1) >= EDGE_FILL, 0)
    if not rows:
        return None
    upper, lower = max(rows, key=lambda run: run[1] - run[0])
    height, width = lower - upper, last - first
    if not DISC_HEIGHTS[0] * text_height <= height <= DISC_HEIGHTS[1] * text_height or not DISC_ASPECT[0] <= width / height <= DISC_ASPECT[1]:
        return None
    box = grey[top + upper : top + lower, left + first : left + last]
    solid = box < INK_BELOW
    letter = _letter(box)
    light = letter.mean()
    if solid.mean() < DISC_MIN_FILL or solid.mean() + light < DISC_MIN_AREA or not DISC_MIN_LIGHT <= light <= DISC_MAX_LIGHT:
        return None
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    widest = 2 * float(ndimage.distance_transform_edt(letter).max()) / height
    middle = closed[upper:lower, first + width // 4 : last - width // 4].mean(axis=0)
    if widest > STROKE_WIDTH and (middle.size == 0 or middle.min() < MIDDLE_FILL):
        return None
    return Disc(left + first, top + upper, left + last, top + lower, line)


def _letter(box: np.ndarray) -> np.ndarray:
    """The pixels of a disc's box lighter than ink that its fill encloses: its letter. Enclosed by the ink, or
    by what is darker than `RIM_BELOW` where the letter reaches the paper through the disc's blurred rim."""
    return enclosed(box < INK_BELOW) | enclosed(box < RIM_BELOW)


def read_label_discs(
    grey: Image.Image,
    words: list[Word],
    labels: Sequence[str],
    text_height: float,
    languages: Sequence[str],
    dpi: int,
    omp_thread_limit: int | None,
) -> tuple[list[Word], list[str]]:
    """`words` with each label disc read as its label, opening its line in place of what was read in it
    (one Tesseract call for the page's discs, none for a page without), and a note on the labels
    that were not read but taken from their column's sequence."""
    if not text_height:
        return words, []
    pixels = np.asarray(grey)
    # A box that the page pass read as a number of two or more digits is a key's number cell (NÚCEM 2024's
    # bold "49"), however dark: read against the labels it would come back as one ("B"). So is a disc found on the
    # first glyph of such a number (OAB 2016's white "41" on its grid's dark number row: its "4" read as "A").
    numbers = [w for w in words if _NUMBER.match(w.text)]
    discs = [d for d in label_discs(pixels, words, text_height) if not any(d.holds(w) or _starts_in(w, d) for w in numbers)]
    if not discs:
        return words, []
    # Each disc inverted (its letter dark on white) and enlarged to a text line's height: a disc's
    # letter is smaller than the text's, and Tesseract dropped some at their printed size.
    scale = max(1.0, LETTER_HEIGHTS * text_height / max(d.bottom - d.top for d in discs))
    canvas = Image.new("L", (sum(round((d.right - d.left) * scale) for d in discs), round(max(d.bottom - d.top for d in discs) * scale)), 255)
    crops, x = [], 0
    for disc in discs:
        box = pixels[disc.top : disc.bottom, disc.left : disc.right].astype(np.float32)
        # The letter is what is lighter than ink inside the fill (the disc's blurred rim is not), taken
        # whole however grey: a small disc's letter, blurred, is white only where its strokes are widest
        # (a "C"'s back) and a little lighter than ink along the rest.
        solid = box < INK_BELOW
        lit = _letter(box)
        letter = np.clip((box - INK_BELOW) * (255.0 / LETTER_RAMP), 0, 255)
        inverted = Image.fromarray(np.where(solid | lit, 255 - letter, 255).astype(np.uint8))
        width, height = round(inverted.width * scale), round(inverted.height * scale)
        canvas.paste(inverted.resize((width, height), Image.Resampling.LANCZOS), (x, 0))
        crops.append((x, 0, x + width, height))
        x += width
    with tempfile.TemporaryDirectory(prefix="examcorpus-ocr-") as folder:
        strip = Path(folder) / "label-discs.pgm"
        gap = round(text_height * scale)
        readings = read_label_cells(canvas, crops, labels, gap, languages, dpi, omp_thread_limit, strip)
    filled = _by_column_sequence(discs, readings, labels, text_height)
    inferred = [filled[i][0] for i in sorted(filled) if filled[i][0] and not readings.get(i, ("", 0.0))[0]]
    notes = [diagnose(Code.OCR_INFERRED, count=len(inferred), labels=", ".join(inferred))] if inferred else []
    readings = filled
    read = {disc.line: (disc, readings[i]) for i, disc in enumerate(discs) if readings.get(i, ("", 0.0))[0]}
    # A word read across a disc is re-read past the disc's outline; one inside it (the disc read as "O") goes.
    clearance = round(PAST_CLEARANCE * text_height)
    ghosts = {id(w) for w in _column_ghosts(words, [disc for disc, _ in read.values()], text_height)}
    glued = [(w, disc) for w in words for disc, _ in read.values()
             if id(w) not in ghosts and _starts_in(w, disc) and w.right > disc.right + clearance]
    across = {id(w) for w, _ in glued}
    inside = {id(w) for w in words if id(w) not in across and any(disc.holds(w) for disc, _ in read.values())}
    pasts, joined = _read_past_discs(grey, glued, words, text_height, languages, dpi, omp_thread_limit)
    dropped = [w for w in words if id(w) not in ghosts and (id(w) in inside or (id(w) in pasts and pasts[id(w)] is None))]
    inside |= ghosts
    pasts.update(_displaced_past_discs(grey, dropped, [disc for disc, _ in read.values()], words, joined, text_height, languages, dpi,
                                       omp_thread_limit))
    inside -= {i for i, word in pasts.items() if word is not None}
    result, opened = [], set()
    for word in words:
        if word.line in read and word.line not in opened:
            disc, (label, conf) = read[word.line]
            result.append(Word(label, conf, disc.left, disc.top, disc.right, disc.bottom, word.line))
            opened.add(word.line)
        if id(word) not in inside and id(word) not in joined:
            rest = pasts.get(id(word), word)
            if rest is not None:
                result.append(rest)
    return result, notes


_NUMBER = re.compile(r"^\d{2,}[.)]?$")


def _starts_in(word: Word, disc: Disc) -> bool:
    """The word begins on the disc (its box may reach a little left of the disc's) and goes on past it."""
    slack = (disc.right - disc.left) // 2
    return disc.left - slack <= word.left < disc.right < word.right and word.top < disc.bottom and disc.top < word.bottom


def _read_past_discs(
    grey: Image.Image, glued: list[tuple[Word, Disc]], words: list[Word], text_height: float, languages: Sequence[str], dpi: int,
    omp_thread_limit: int | None,
) -> tuple[dict[int, Word | None], set[int]]:
    """({id(word): what of it lies past its disc, or None}, the ids of words that reading took in) for each
    word read across a disc and past it. Tesseract read a square and an option's first letters as one word,
    whose box starts on the square: its characters shared out by width, the square took the letters
    (Vietnamese `ghé` kept as `hé`, `vị` dropped with its square, `thưởng` read `th` on the square and `ưng`
    past it). The word's ink right of where the disc's outline ends (`PAST_CLEARANCE` further), through the
    word after it where the two touch (`PAST_TOUCHING`: one word Tesseract cut in two), is read again, a
    page's stretches stacked in one Tesseract call (`ringneighbours.read_stretches`, the page's languages).
    The reading is kept where it is one word with a letter or digit, at least `PAST_MIN_CONF` sure, and at
    most `PAST_PREFIX_MAX` characters longer than the words it replaces (a disc's look-alike adds no more).
    Else the word's characters are shared out by width (`_past_disc`), or, centred on the disc, it goes."""
    if not glued:
        return {}, set()
    clearance = round(PAST_CLEARANCE * text_height)
    found: list[Stretch] = []
    nexts: list[Word | None] = []
    for word, disc in glued:
        touching = [w for w in words if w.line == word.line and w is not word and 0 <= w.left - word.right <= PAST_TOUCHING * text_height]
        nexts.append(min(touching, key=lambda w: w.left, default=None))
        end = nexts[-1] or word
        found.append(Stretch(Word("", 0.0, disc.left, disc.top, disc.right, disc.bottom, word.line),
                             replace(word, right=end.right, top=min(word.top, end.top), bottom=max(word.bottom, end.bottom)),
                             disc.right + clearance))
    readings = read_stretches(grey, found, text_height, languages, dpi, omp_thread_limit)
    pasts: dict[int, Word | None] = {}
    joined: set[int] = set()
    for (word, disc), stretch, after, reading in zip(glued, found, nexts, readings):
        text = reading[0].text if len(reading) == 1 and reading[0].conf >= PAST_MIN_CONF else ""
        replaced = word.text + (after.text if after is not None else "")
        if any(ch.isalnum() for ch in text) and len(text) <= len(replaced) + PAST_PREFIX_MAX:
            pasts[id(word)] = replace(stretch.after, text=text, left=stretch.left, conf=min(word.conf, reading[0].conf))
            if after is not None:
                joined.add(id(after))
        else:  # a word centred on the disc goes with it, as one inside it
            pasts[id(word)] = None if disc.holds(word) else _past_disc(word, disc)
    return pasts, joined


def _column_ghosts(words: list[Word], discs: list[Disc], text_height: float) -> list[Word]:
    """Short words taller than any disc (`DISC_HEIGHTS`) beside read discs: Tesseract's reading of a column of discs,
    or of their blurred edges, as one glyph ("oo" over a Revalida question's discs A and B at 175 dpi, 4 text
    heights tall). Left in, such a word joined the lines of its options into one and the question lost them."""
    pad = SEARCH_HEIGHTS * text_height
    return [w for w in words if len(w.text) <= MAX_TEXT and w.bottom - w.top > DISC_HEIGHTS[1] * text_height
            and any(w.left < d.right + pad and d.left - pad < w.right and w.top < d.bottom and d.top < w.bottom for d in discs)]


def _displaced_past_discs(
    grey: Image.Image, dropped: list[Word], discs: list[Disc], words: list[Word], joined: set[int], text_height: float,
    languages: Sequence[str], dpi: int, omp_thread_limit: int | None,
) -> dict[int, Word]:
    """{id(word): the word placed past its disc} for each word on a disc, about to go as the disc's misreading, that is
    the line's own first word. Tesseract reads a blurred disc as nothing and hands its line's first characters boxes
    on the disc ("A" of "A distribuição", "Na" of "Na tricomoníase" at 175 dpi), so a box on the disc does not tell
    a look-alike ("O") from the option's first word. The ink past the disc through the next word is read again
    (one Tesseract call for the page's, `ringneighbours.read_stretches`): the word stays where that reading is two
    words, the first exactly it and the second the next word as the page read it, but for an accent or a letter
    (`NEXT_WORD_LIKENESS`: "tricomoniase," read again for "tricomoníase,"). A look-alike reads as nothing there."""
    clearance = round(PAST_CLEARANCE * text_height)
    dropped_ids = {id(w) for w in dropped}
    cases: list[tuple[Word, Word]] = []
    found: list[Stretch] = []
    for word in dropped:
        disc = next((d for d in discs if d.holds(word) or _starts_in(word, d)), None)
        if disc is None or not any(ch.isalpha() for ch in word.text):
            continue
        after = [w for w in words if w.line == word.line and id(w) not in dropped_ids and id(w) not in joined and w.left >= disc.right]
        if not after:
            continue
        nxt = min(after, key=lambda w: w.left)
        cases.append((word, nxt))
        found.append(Stretch(Word("", 0.0, disc.left, disc.top, disc.right, disc.bottom, word.line),
                             replace(nxt, top=min(word.top, nxt.top), bottom=max(word.bottom, nxt.bottom)), disc.right + clearance))
    if not found:
        return {}
    readings = read_stretches(grey, found, text_height, languages, dpi, omp_thread_limit)
    kept = {}
    for (word, nxt), stretch, reading in zip(cases, found, readings):
        texts = [w.text for w in reading]
        if len(texts) == 2 and texts[0] == word.text and SequenceMatcher(None, texts[1], nxt.text).ratio() >= NEXT_WORD_LIKENESS:
            kept[id(word)] = replace(word, left=stretch.left, right=max(stretch.left + 1, nxt.left - clearance))
    return kept


NEXT_WORD_LIKENESS = 0.8  # difflib's ratio between the next word read again and as the page read it
PAST_CLEARANCE = 0.1  # text heights past a disc's outline left out of its word's stretch read again (its blurred edge)
PAST_TOUCHING = 0.1  # text heights between a word read across a disc and the next: closer, the two are one word
PAST_MIN_CONF = 60.0  # the stretch's reading at least this sure
PAST_PREFIX_MAX = 3  # characters the reading may have more than the words it replaces


def _past_disc(word: Word, disc: Disc) -> Word | None:
    """What of a word read across a disc and past it lies past it, its characters shared out by width."""
    width = max(1, word.right - word.left)
    cut = max(1, round(len(word.text) * (disc.right - word.left) / width))
    if cut >= len(word.text):
        return None
    left = word.left + round(width * cut / len(word.text))
    return replace(word, text=word.text[cut:], left=left)


def _overlap(a: Disc, b: Disc) -> bool:
    return a.left < b.right and b.left < a.right and a.top < b.bottom and b.top < a.bottom


def _by_column_sequence(
    discs: list[Disc], readings: dict[int, tuple[str, float]], labels: Sequence[str], text_height: float
) -> dict[int, tuple[str, float]]:
    """`readings` with each run of unread discs in a column given the labels the column's sequence leaves
    it: after a read "B", two unread discs at the column's end (or before the next question's "A") are
    "C" and "D"; before a read "C", two unread discs that open the column, or follow the labels' last
    ("D"), are "A" and "B"; between "B" and "D", one is "C". A run the read labels either side do not pin down exactly stays unread, and so does
    one at a column's end or start unless the column reads two labels in sequence somewhere. Tesseract
    skips clear letters of a long strip of discs (the last two of sixteen on a Revalida page)."""
    def label_of(i: int) -> str:
        return readings.get(i, ("", 0.0))[0]

    filled = dict(readings)
    order = sorted(range(len(discs)), key=lambda i: (discs[i].top, discs[i].left))
    columns: list[list[int]] = []
    for i in order:
        column = next((c for c in columns if abs(discs[c[0]].left - discs[i].left) <= COLUMN_HEIGHTS * text_height), None)
        if column is None:
            columns.append([i])
        else:
            column.append(i)
    for column in columns:
        read = [label_of(i) for i in column]
        # A column that reads a label and the next one somewhere is a label column; only then may a run at
        # its end, at its start or before the next question's first label be filled (a key table's
        # shaded number cells, read now and then as "B", are no labels to count on).
        counts = any(a in labels and b in labels and labels.index(b) == labels.index(a) + 1 for a, b in zip(read, read[1:]))
        at = 0
        while at < len(column):
            if label_of(column[at]) in labels:
                at += 1
                continue
            end = at
            while end < len(column) and label_of(column[end]) not in labels:
                end += 1
            run = column[at:end]
            before = labels.index(label_of(column[at - 1])) if at > 0 else None
            after = labels.index(label_of(column[end])) if end < len(column) else None
            first = None
            if before is not None and after is not None and after == before + len(run) + 1:
                first = before + 1  # pinned on both sides
            elif counts and before is not None and (after is None or after == 0):
                first = before + 1
            elif counts and (before is None or before == len(labels) - 1) and after is not None and after == len(run):
                first = 0  # opening the column, or the next question's first labels after one's last
            if first is not None and first + len(run) <= len(labels):
                filled.update({i: (labels[first + k], 0.0) for k, i in enumerate(run)})
            at = end
    return filled
