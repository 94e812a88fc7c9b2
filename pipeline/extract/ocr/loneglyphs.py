"""Option cells of lone glyphs read by the glyphs the page itself read surely: a cell's glyphs matched, by their ink,
against the glyphs the same page read alone and sure elsewhere.

Korean exams list statements `ㄱ. ㄴ. ㄷ.` in a box and print options naming them (`① ㄱ  ② ㄴ  ③ ㄱ, ㄷ …`).
Tesseract reads such a glyph well at a line's start before its full stop (confidence 80–90), and badly standing
alone after a ring with a comma beside it: even a clean crop of `③ ㄱ, ㄴ` came back `ㅋㄱ, 느`, `ㄷㄷ`, and read as
part of the page `7 ㄴ` (`ㄱ` as `7`, the comma lost) or `ㄴ ㄷ,` (a comma moved). What tells them apart is the ink,
the same glyph printed in the same type on the same page:

- templates (`templates`): each word the page read as one letter (a full stop or colon after it allowed), at
  confidence `SURE_FROM` or more, whose ink in its box is one piece; its piece is the glyph's template;
- a cell: the ink right of an option label (one of the spec's labels read as a word) up to the next label
  on its line or the line's end, cut into pieces; a piece as tall as a glyph (`GLYPH_FROM` of the templates' height)
  is a glyph, a smaller piece low beside it (`COMMA_FROM` of it tall or more, its top under the glyphs' middle) a comma,
  smaller ones specks;
- a cell is read again only where every glyph matches one template's ink (`MATCH_FROM`, overlap over union after
  scaling to the template's box, and better than any other letter's template by `MARGIN`) and the cell holds at
  most `MAX_GLYPHS` glyphs: its words become the glyphs, a comma after each glyph a comma piece follows, glyphs
  closer than a word space one word (`II`, never `I I`).

Nothing in it knows a script: a page with no glyph read alone and sure, or whose cells hold other ink (a syllable's
second piece, a word), reads as before.
"""
from __future__ import annotations

from dataclasses import replace
from statistics import median

import numpy as np

from pipeline.extract.ocr.words import Word

SURE_FROM = 80.0  # a template's word confidence at least
GLYPH_FROM = 0.75  # a piece this share of the templates' median height or taller is a glyph
SIZE_WITHIN = 0.25  # a glyph and a template differ in height and width by at most this share
MATCH_FROM = 0.6  # overlap over union of a glyph's ink and a template's, both scaled to the template's box
MARGIN = 0.08  # the best letter's match over the next letter's, at least
MAX_GLYPHS = 4  # glyphs in a cell read so
MIN_PIXELS = 6  # pieces of fewer ink pixels are specks
WORD_GAP = 0.4  # glyphs closer than this share of the glyph height are one word: side bearings (`II`: 0.3), not a word space (0.5 and more)
COMMA_FROM = 0.35  # a smaller piece under a glyph's height is a comma when at least this share of it tall; less, a speck
_TRAILING = ".:"


def _letter(word: Word) -> str | None:
    text = word.text.rstrip(_TRAILING)
    return text if len(text) == 1 and text.isalpha() else None


def _pieces(ink: np.ndarray, box: tuple[int, int, int, int]) -> list[tuple[int, int, int, int, np.ndarray]]:
    """The ink pieces in `box` (left, top, right, bottom in page pixels): (left, top, right, bottom, mask) each."""
    from scipy import ndimage  # here, not at the top: only scanned pages need it, and it costs a process's start

    left, top, right, bottom = (max(box[0], 0), max(box[1], 0), min(box[2], ink.shape[1]), min(box[3], ink.shape[0]))
    if right <= left or bottom <= top:
        return []
    labels, _ = ndimage.label(ink[top:bottom, left:right])
    found = []
    for index, where in enumerate(ndimage.find_objects(labels), start=1):
        if where is None:
            continue
        mask = labels[where] == index
        if mask.sum() >= MIN_PIXELS:
            found.append((left + where[1].start, top + where[0].start, left + where[1].stop, top + where[0].stop, mask))
    return found


def templates(words: list[Word], ink: np.ndarray, labels: tuple[str, ...]) -> dict[str, list[np.ndarray]]:
    """Letter → the ink masks of the page's words read as that one letter, sure, in one piece (module docstring)."""
    found: dict[str, list[np.ndarray]] = {}
    for word in words:
        letter = _letter(word)
        if letter is None or letter in labels or word.conf < SURE_FROM:
            continue
        pieces = [p for p in _pieces(ink, (word.left, word.top, word.right, word.bottom)) if p[4].sum() >= MIN_PIXELS]
        glyphs = sorted(pieces, key=lambda p: -int(p[4].sum()))
        # One piece, a full stop's or colon's dots beside it allowed: those are small.
        if glyphs and all(p[4].sum() < 0.25 * glyphs[0][4].sum() for p in glyphs[1:]):
            found.setdefault(letter, []).append(glyphs[0][4])
    return found


def _scaled(mask: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    rows = (np.arange(shape[0]) * mask.shape[0] // shape[0]).clip(0, mask.shape[0] - 1)
    cols = (np.arange(shape[1]) * mask.shape[1] // shape[1]).clip(0, mask.shape[1] - 1)
    return mask[np.ix_(rows, cols)]


def match(mask: np.ndarray, known: dict[str, list[np.ndarray]]) -> str | None:
    """The letter whose template `mask` matches (module docstring), or None."""
    scores: dict[str, float] = {}
    for letter, masks in known.items():
        for template in masks:
            th, tw = template.shape
            if abs(mask.shape[0] - th) > SIZE_WITHIN * th or abs(mask.shape[1] - tw) > SIZE_WITHIN * tw:
                continue
            scaled = _scaled(mask, template.shape)
            union = np.logical_or(scaled, template).sum()
            score = float(np.logical_and(scaled, template).sum() / union) if union else 0.0
            scores[letter] = max(scores.get(letter, 0.0), score)
    ranked = sorted(scores.values(), reverse=True)
    if not ranked or ranked[0] < MATCH_FROM or (len(ranked) > 1 and ranked[0] - ranked[1] < MARGIN):
        return None
    return max(scores, key=lambda k: scores[k])


def read_lone_glyphs(words: list[Word], ink: np.ndarray, labels: tuple[str, ...]) -> tuple[list[Word], list[str]]:
    """`words` with each option cell of lone glyphs read by the page's templates (module docstring); the notes."""
    known = templates(words, ink, labels)
    if not known:
        return words, []
    height = median(m.shape[0] for masks in known.values() for m in masks)
    replaced: set[int] = set()
    added: list[Word] = []
    notes: list[str] = []
    marks = [w for w in words if w.text in labels]
    for mark in marks:
        middle = (mark.top + mark.bottom) / 2
        row = [w for w in words if w.top < mark.bottom and w.bottom > mark.top and w is not mark]  # the words beside the label
        after = [w.left for w in marks if w is not mark and w.top <= middle <= w.bottom and w.left > mark.left]
        end = min(after) if after else max([w.right for w in row] + [mark.right]) + 1
        inside = [w for w in row if w not in marks and w.left >= mark.right - 2 and (w.left + w.right) / 2 < end]
        if not inside:
            continue
        top, bottom = min(w.top for w in inside + [mark]), max(w.bottom for w in inside + [mark])
        cell = _read_cell(_pieces(ink, (mark.right + 1, top, end - 1, bottom)), known, height)
        if cell is None or " ".join(w.text for w in sorted(inside, key=lambda w: w.left)) == " ".join(t for t, _ in cell):
            continue
        replaced |= {id(w) for w in inside}
        first = min(inside, key=lambda w: w.left)
        added += [replace(first, text=text, conf=SURE_FROM, left=box[0], top=box[1], right=box[2], bottom=box[3]) for text, box in cell]
        notes.append(f"lone glyphs: {' '.join(w.text for w in sorted(inside, key=lambda w: w.left))!r} after {mark.text} read "
                     f"{' '.join(t for t, _ in cell)!r} by the page's own glyphs")
    if not replaced:
        return words, []
    return [w for w in words if id(w) not in replaced] + added, notes


def _read_cell(pieces: list[tuple[int, int, int, int, np.ndarray]], known: dict[str, list[np.ndarray]],
               height: float) -> list[tuple[str, tuple[int, int, int, int]]] | None:
    """A cell's words (text, box) when each of its glyph pieces matches a template, commas after them as their pieces
    stand; None otherwise."""
    glyphs = [p for p in pieces if p[3] - p[1] >= GLYPH_FROM * height]
    if not glyphs or len(glyphs) > MAX_GLYPHS:
        return None
    middle = median((p[1] + p[3]) / 2 for p in glyphs)
    read: list[tuple[str, tuple[int, int, int, int]]] = []
    for piece in sorted(glyphs, key=lambda p: p[0]):
        letter = match(piece[4], known)
        if letter is None:
            return None
        read.append((letter, piece[:4]))
    small = [p for p in pieces if COMMA_FROM * height <= p[3] - p[1] < GLYPH_FROM * height]
    for piece in small:
        if piece[1] < middle:  # a piece high on the line is no comma: the cell holds ink no template reads
            return None
        before = [k for k, (_, box) in enumerate(read) if box[2] <= piece[0] + 1]
        if not before:
            return None
        k = before[-1]
        text, box = read[k]
        read[k] = (text + ",", (box[0], min(box[1], piece[1]), max(box[2], piece[2]), max(box[3], piece[3])))
    return _words(read, height)


def _words(read: list[tuple[str, tuple[int, int, int, int]]], height: float) -> list[tuple[str, tuple[int, int, int, int]]]:
    """Glyphs set closer than a word space (`WORD_GAP` of the glyph height) are one word (`II`, `ao`): the cell's words
    as printed, never glyphs spaced apart that were one word. A glyph a comma follows ends its word."""
    words = read[:1]
    for text, box in read[1:]:
        last, last_box = words[-1]
        if not last.endswith(",") and box[0] - last_box[2] < WORD_GAP * height:
            words[-1] = (last + text, (last_box[0], min(last_box[1], box[1]), box[2], max(last_box[3], box[3])))
        else:
            words.append((text, box))
    return words
