"""Dots beside numbers that the page's whitening took, put back from the page as scanned: the `faint-dots` pass.

At 150–170 dpi with a blur of 0.75–1.15, small type (7–8 pt) prints a period as a grey blob a few pixels across whose
darkest pixel stays just over `engine.WHITE_FROM` (172 against 170 in a date's dot at 156/0.9/73, Liberation Sans
7.5 pt), while the digits beside it, wider strokes, stay dark. `prepare_for_tesseract` makes that blob paper, so
Tesseract reads `26 12 2028` for `26.12.2028` and `art 5` for `art. 5`; read raw, the same scan gives the dots.

The pass judges the white between two words of a line of which one is a number (the dot's baseline is a digit's
foot: no descender moves it; the digits' rows are their ink's, `_digit_band`), in the page before whitening (`PageWork.unwhitened_page`). A dot is there where:
- one blob of ink, darker than the paper by DOT_CONTRAST of the number's own ink contrast, lies in that white;
- it sits on the baseline (its foot within DOT_BASELINE of the number's height) and nothing in that white stands
  higher than DOT_MAX_SIZE of the number's height (a letter, a hyphen, a quote's ink does);
- it is a dot's size (DOT_MIN_SIZE to DOT_MAX_SIZE of the number's height across and up), and no fainter ink hangs
  below the baseline beside it (a comma's tail: left as read, since a dot would be the wrong mark).

The dot goes to the word before it. Where both words are numbers and the white after the dot is narrower than
a word space (JOIN_MAX_WHITE of the number's height: a date's, a thousands' dot), the two become one number
(`26.12.2028`, `1.500`); otherwise the dot ends the first word (`art.`, `2019.`). A word that already ends in a mark
is left as read. Each change is a page note.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from pipeline.extract.ocr.engine import WHITE_FROM
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.words import Word, glued_pair, words_by_line

DOT_CONTRAST = 0.3  # of the number's ink contrast (paper minus its darkest pixel): a grain's dip is under 0.1
DOT_MIN_SIZE = 0.12  # of the number's height: a speck of one scan pixel at 150 dpi is narrower
DOT_MAX_SIZE = 0.4
DOT_BASELINE = 0.15  # of the number's height, above or below its foot
TAIL_CONTRAST = 0.15  # fainter ink below the baseline than a dot's: a comma's tail
TAIL_DEPTH = 0.12  # of the number's height below the baseline where a comma's tail shows and a dot has none
JOIN_MAX_WHITE = 0.33  # of the number's height after the dot: a word space at 7.5 pt is about 0.4 of a digit's height, plus bearings


def band_height(page: np.ndarray, number: Word) -> int:
    band = _digit_band(page, number)
    return band[1] - band[0] if band is not None else number.bottom - number.top


def _is_number(text: str) -> bool:
    return bool(text) and text.isdigit()


def _ends_bare(text: str) -> bool:
    return bool(text) and text[-1].isalnum()


DIGIT_INK = WHITE_FROM  # a digit's ink on the page before whitening, as Tesseract sees it after


def _digit_band(page: np.ndarray, number: Word) -> tuple[int, int] | None:
    """The rows from the top of `number`'s digits to their foot (the baseline): the longest run of rows holding its ink.
    Tesseract boxes a number now and then down to a speck or a descender below it (39 px against the line's 24 on a
    160 dpi scan), parted from the digits by white rows."""
    box = page[number.top:number.bottom, number.left:number.right]
    rows = np.flatnonzero((box < DIGIT_INK).any(axis=1))
    if rows.size == 0:
        return None
    runs = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
    longest = max(runs, key=len)
    return number.top + int(longest[0]), number.top + int(longest[-1]) + 1


def _dot_in_gap(page: np.ndarray, left: Word, right: Word, number: Word) -> tuple[int, int] | None:
    """The columns (page coordinates) of a faint dot in the white between `left` and `right`, or None (module doc)."""
    band = _digit_band(page, number)
    if band is None or right.left - left.right < 2:
        return None
    baseline, height = band[1], band[1] - band[0]
    if height < 8:
        return None
    top = max(0, baseline - height)
    bottom = min(page.shape[0], baseline + int(round(0.35 * height)))
    gap = page[top:bottom, left.right:right.left].astype(np.int16)
    glyphs = page[number.top:number.bottom, number.left:number.right]
    if gap.size == 0 or glyphs.size == 0:
        return None
    paper = int(np.median(gap))
    contrast = paper - int(glyphs.min())
    if contrast < 60:
        return None
    from scipy import ndimage  # here, not at import: scipy costs every process a third of a CPU second, OCR or not
    labels, count = ndimage.label(gap < paper - DOT_CONTRAST * contrast)
    # The words' boxes end where Tesseract's ink ends (its page whitened): their glyphs' grey edges reach into the white
    # and are no piece of their own.
    edges = set(labels[:, 0].tolist()) | set(labels[:, -1].tolist())
    pieces = [k for k in range(1, count + 1) if k not in edges]
    if len(pieces) != 1:
        return None  # nothing, or more than one piece: not a lone dot
    ink = labels == pieces[0]
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    across, up = columns[-1] - columns[0] + 1, rows[-1] - rows[0] + 1
    foot = top + rows[-1]
    if not (DOT_MIN_SIZE * height <= across <= DOT_MAX_SIZE * height and DOT_MIN_SIZE * height <= up <= DOT_MAX_SIZE * height):
        return None
    if abs(foot - baseline) > DOT_BASELINE * height:
        return None
    below = gap[baseline - top + int(round(TAIL_DEPTH * height)):, columns[0]:columns[-1] + 1]
    if below.size and (below < paper - TAIL_CONTRAST * contrast).any():
        return None  # a comma's tail, or ink reaching down: not a dot
    return left.right + int(columns[0]), left.right + int(columns[-1]) + 1


def faint_dots(words: list[Word], page: np.ndarray) -> tuple[list[Word], list[str]]:
    """`words` with the faint dots between a number and its neighbour put back (module doc), and each change as
    `before → after`."""
    head: dict[int, int] = {}  # a word's id → the id of the first word of what it was joined into
    final: dict[int, Word] = {}  # that first word's id → the word it became
    changes: list[str] = []
    for members in words_by_line(words).values():
        ordered = sorted(members, key=lambda w: w.left)
        current = ordered[0]
        current_id = id(current)
        for right in ordered[1:]:
            dot = None
            numbers = [w for w in (current, right) if _is_number(w.text.replace(".", ""))]
            number = numbers[-1] if numbers else None
            if number is not None and _ends_bare(current.text) and right.text[:1].isalnum():
                dot = _dot_in_gap(page, current, right, number)
            if dot is None:
                current, current_id = right, id(right)
                continue
            height = band_height(page, number)
            dotted = replace(current, text=current.text + ".", right=dot[1])
            if _is_number(current.text.replace(".", "")) and _is_number(right.text) and right.left - dot[1] <= JOIN_MAX_WHITE * height:
                joined = glued_pair(dotted, right)
                changes.append(f"{current.text} {right.text} → {joined.text}")
                final[current_id] = joined
                head[id(right)] = current_id
                current = joined  # a date's next dot joins this number
            else:
                changes.append(f"{current.text} → {dotted.text}")
                final[current_id] = dotted
                current, current_id = right, id(right)
    result: list[Word] = []
    for word in words:
        if id(word) in head:
            continue
        result.append(final.get(id(word), word))
    return result, changes


def _has_numbers(work: PageWork) -> bool:
    """the page has a word of digits only"""
    return any(_is_number(w.text) for w in work.words)


@page_pass("faint-dots", "1", Cost.CHEAP, when=_has_numbers)
def _faint_dots(work: PageWork) -> PageWork:
    """A dot beside a number that the page's whitening made paper (`26 12 2028`, `art 5` on a soft 150 dpi scan of small
    type) put back where the page before whitening shows a dot's blob on the number's baseline: two numbers with no
    space after it joined (`26.12.2028`), else the dot ends the word before it (`faintdots`)."""
    page = work.unwhitened_page()
    if page is None:
        return work
    words, changes = faint_dots(work.words, page)
    if not changes:
        return work
    shown = ", ".join(changes[:12]) + (" …" if len(changes) > 12 else "")
    return replace(work, words=words, notes=work.notes + (f"faint dots: {len(changes)} dot(s) the whitening took put back ({shown})",))
