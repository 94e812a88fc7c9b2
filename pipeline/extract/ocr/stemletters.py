"""One-letter words that are a lone stem (`i`), read as a stem glyph or dropped: the `one-letter-stems` pass.

Polish, Czech and Slovak print `i` as a word of its own (`i zákonnou`, `i gazy`). On a soft scan of small type
Tesseract reads that lone stem as a glyph no language writes alone (`1`, `|`, `!`, `l`, `]`), or leaves it out:
on the generated one-letter pages of round six 45 of 85 printed `i` words were missed on the tuning languages and
59 of 60 on Slovak, where the word and its neighbours were otherwise read. A word cannot tell them apart; the ink
can: `i` is a stem as tall as the line's lower-case letters (its x-height) standing on the baseline, with a dot
above it parted by white, where `1`, `l`, `|`, `I` are one stroke reaching above the x-height and `!` has its dot
below. What is judged (`stem_letter`), on the page before its light greys were whitened (a blurred `i`'s dot is
grey, `faintdots`):

- the line's baseline and x-height, from the ink rows of its words of letters (`line_band`: the rows holding at
  least `BAND_SHARE` of the busiest row's ink are the lower-case band; descenders and ascenders hold less);
- the ink pieces in a place standing apart from the words either side (white of `SPACE_MIN` x-heights or more each
  side), from `ABOVE` x-heights over the baseline to `BELOW` under it: exactly one stem (no wider than `STEM_WIDTH`,
  its foot within `FOOT` of the baseline, its top within `TOP` of the x-height) and, over it and parted from it by
  white, at most one dot (no larger than `DOT_SIZE` each way, over the stem's column); specks (`SPECK` of an
  x-height or less each way) are left out. Anything else there (a taller stroke, a dot below, a second letter) is no
  lone stem and the place reads as it did.

The shape names the letter: a dotted stem `i`, a bare one `ı`. It is written only where it is one of the page's
languages' one-letter words (language data `glued_words.one_letter`) and

- a word read there as one character that is not that letter (`1`, `|`, `!`, `l`, `I` …) and that the second
  recogniser did not read alike (two readings agree: never rewritten) becomes the letter;
- a place between two words with no word read there, whose ink is such a stem, takes the letter as a word of its
  own (Tesseract dropped it).

Nothing here knows a word or a sheet: a page whose languages have no one-letter stem, or whose lines show no such
shape, reads as before. Each change is a page note.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.words import Word, words_by_line
from pipeline.languages import language_for_tesseract

BAND_SHARE = 0.4  # of the busiest ink row among the line's letters: the rows of the lower-case band
SPACE_MIN = 0.3  # x-heights of white between the stem and each neighbour's box: a word space, not a letter gap
ABOVE, BELOW = 1.9, 0.5  # x-heights over and under the baseline searched for the stem's pieces
STEM_WIDTH = 0.45  # x-heights
FOOT = 0.22  # x-heights between the stem's foot and the baseline
TOP = 0.25  # x-heights between the stem's top and the x-height line
DOT_SIZE = 0.5  # x-heights, each way
SPECK = 0.12  # x-heights, each way: a grain's pixel or two, not a piece of the letter
INK_CONTRAST = 0.4  # of the letters' contrast (paper minus their darkest ink) under the paper: a blurred dot's grey
MIN_XHEIGHT = 6  # pixels: a band any smaller is no line of text to measure
DOT_REACH, DOT_CLEAR = 0.9, 0.2  # x-heights over the stem's top where a grey dot is looked for
DOT_FAINT = 0.2  # of the letters' contrast under the paper: a grey dot's darkest pixel (a bare stem's blur fades to paper)
NEARBY = 2  # words each side whose ink gives the line's band at a place
DOTTED, BARE = "i", "ı"  # the Latin letters a lone stem of x-height is, with and without its dot


def stem_words(languages: tuple[str, ...]) -> frozenset[str]:
    """The stem letters (`DOTTED`, `BARE`) that the page's languages write as a word of their own (language data)."""
    found = [language_for_tesseract(name) for name in languages]
    one_letter = {w for lang in found if lang is not None and lang.glued_words is not None for w in lang.glued_words.one_letter}
    return frozenset(one_letter & {DOTTED, BARE})


def _is_letters(text: str) -> bool:
    return len(text) >= 3 and text.isalpha()


def line_band(page: np.ndarray, words: list[Word]) -> tuple[int, int, int, int] | None:
    """The line's (x-height top, baseline, paper, ink threshold) from its words of letters, or None where it has none."""
    letters = [w for w in words if _is_letters(w.text)]
    if not letters:
        return None
    top, bottom = min(w.top for w in letters), max(w.bottom for w in letters)
    boxes = [page[top:bottom, w.left:w.right] for w in letters]
    if any(b.size == 0 for b in boxes):
        return None
    strip = np.concatenate(boxes, axis=1).astype(np.int16)
    paper = int(np.percentile(strip, 90))
    contrast = paper - int(strip.min())
    if contrast < 60:
        return None
    threshold = paper - INK_CONTRAST * contrast
    rows = (strip < threshold).sum(axis=1)
    busy = np.flatnonzero(rows >= BAND_SHARE * rows.max())
    if busy.size == 0 or busy[-1] - busy[0] + 1 < MIN_XHEIGHT:
        return None
    return top + int(busy[0]), top + int(busy[-1]) + 1, paper, int(threshold)


def stem_letter(page: np.ndarray, band: tuple[int, int, int, int], left: int, right: int) -> str | None:
    """`DOTTED` or `BARE` where the ink between columns `left` and `right` (the white between two words, or a word's
    box with that white) is one lone stem on the line's band (module doc), else None."""
    x_top, baseline, _, threshold = band
    xh = baseline - x_top
    top = max(0, int(baseline - ABOVE * xh))
    bottom = min(page.shape[0], int(baseline + BELOW * xh))
    if right - left < 2 or bottom <= top:
        return None
    from scipy import ndimage  # here, not at import: scipy costs every process a third of a CPU second, OCR or not
    crop = page[top:bottom, left:right] < threshold
    labels, count = ndimage.label(crop, structure=np.ones((3, 3)))
    pieces = []
    for box in ndimage.find_objects(labels):
        if box is None:
            continue
        up, across = box[0].stop - box[0].start, box[1].stop - box[1].start
        if up <= SPECK * xh and across <= SPECK * xh:
            continue
        if box[1].start == 0 or box[1].stop == right - left:
            continue  # a neighbour's blurred edge reaching past its box (its ink whitened there), no piece of its own
        pieces.append((top + box[0].start, top + box[0].stop, left + box[1].start, left + box[1].stop))
    if not pieces or len(pieces) > 2:
        return None
    stems = [p for p in pieces if abs(p[1] - baseline) <= FOOT * xh]
    if len(stems) != 1:
        return None
    stem = stems[0]
    if stem[3] - stem[2] > STEM_WIDTH * xh or abs(stem[0] - x_top) > TOP * xh:
        return None
    if stem[2] - left < SPACE_MIN * xh or right - stem[3] < SPACE_MIN * xh:
        return None  # no word space beside it: a letter of a word, or a neighbour's edge
    dots = [p for p in pieces if p is not stem]
    if dots:
        dot = dots[0]
        if not (dot[1] <= stem[0] and dot[1] - dot[0] <= DOT_SIZE * xh and dot[3] - dot[2] <= DOT_SIZE * xh):
            return None
        if dot[3] <= stem[2] - 1 or dot[2] >= stem[3] + 1:
            return None  # not over the stem's column
        return DOTTED
    # A blurred dot is grey, lighter than the ink threshold: what shows over the stem, parted from its top by
    # `DOT_CLEAR` (the stem's own blurred edge fades within it), darker than `DOT_FAINT` of the contrast.
    paper = band[2]
    above = page[max(0, int(stem[0] - DOT_REACH * xh)):int(stem[0] - DOT_CLEAR * xh), max(0, stem[2] - 1):stem[3] + 1]
    if above.size and int(above.min()) < paper - DOT_FAINT * (paper - threshold) / INK_CONTRAST:
        return DOTTED
    return BARE


def one_letter_stems(words: list[Word], page: np.ndarray, letters: frozenset[str]) -> tuple[list[Word], list[str]]:
    """`words` with lone stems read as a glyph made the letter, and dropped ones put back (module doc); each change
    as `before → after`."""
    changed: dict[int, Word] = {}
    added: dict[int, Word] = {}  # a word's id → the letter put back after it
    changes: list[str] = []
    for members in words_by_line(words).values():
        ordered = sorted(members, key=lambda w: w.left)
        for at, word in enumerate(ordered):
            before = ordered[at - 1] if at > 0 else None
            after = ordered[at + 1] if at + 1 < len(ordered) else None
            # the band of the words nearby: a scan's tilt moves a long line's baseline by more than a stem's foot
            band = line_band(page, ordered[max(0, at - NEARBY):at + NEARBY + 2])
            if band is None:
                continue
            if len(word.text) == 1 and word.text not in letters:
                if word.second is not None and word.second == word.text:
                    continue  # both recognisers read it so
                if before is None or after is None:
                    continue
                letter = stem_letter(page, band, before.right + 1, after.left)
                if letter in letters:
                    changed[id(word)] = replace(word, text=letter)
                    changes.append(f"{before.text} {word.text} {after.text} → {letter}")
            elif after is not None and len(word.text) > 1 and len(after.text) > 1:
                letter = stem_letter(page, band, word.right + 1, after.left)
                if letter in letters:
                    x_top, baseline = band[0], band[1]
                    added[id(word)] = Word(letter, min(word.conf, after.conf), word.right + 1, x_top, after.left - 1, baseline, word.line)
                    changes.append(f"{word.text} {after.text} → {word.text} {letter} {after.text}")
    result: list[Word] = []
    for word in words:
        result.append(changed.get(id(word), word))
        if id(word) in added:
            result.append(added[id(word)])
    return result, changes


def _has_stem_words(work: PageWork) -> bool:
    """the page's languages write a lone stem letter (`i`) as a word"""
    return bool(work.words) and bool(stem_words(tuple(work.settings.languages)))


@page_pass("one-letter-stems", "1", Cost.CHEAP, when=_has_stem_words)
def _one_letter_stems(work: PageWork) -> PageWork:
    """A one-letter word that is a lone stem (`i`) read as a stem glyph (`1`, `|`, `!`, `l`) or dropped, written as the
    letter where the page before whitening shows a stem of the line's x-height on its baseline with its dot above,
    standing apart, and the page's languages write that letter as a word (`stemletters`)."""
    page = work.unwhitened_page()
    if page is None:
        return work
    words, changes = one_letter_stems(work.words, page, stem_words(tuple(work.settings.languages)))
    if not changes:
        return work
    shown = ", ".join(changes[:12]) + (" …" if len(changes) > 12 else "")
    return replace(work, words=words, notes=work.notes + (f"one-letter stems: {len(changes)} lone stem(s) read as their letter ({shown})",))
