"""Marks lost at low resolution, put back where the page's ink and the dictionaries agree (`ink-accents`, issue 27).

At 150–175 dpi with blur an acute, a dot above, an ogonek is a few light pixels; Tesseract reads the bare letter
(`pedían` → `pedian`, `abusó` → `abuso`, `żydowskiemu` → `zydowskiemu`). `accent-lines` reads the lines of words the
dictionaries do not know again from the page not whitened, and Tesseract reads some of them bare again; `seen-marks`
needs the second recogniser to have read the mark. The ink over the letter is a third witness, asked only for a word
the dictionaries do not know as read (v1 asked it of known words too, `cerca` → `cercá`, and put marks the print lacks
on real sheets: a descender of the line above, a speck). On the page prepared but not whitened (where a light mark is
still ink; `accentlines`' page):

- each word's line has an x-height band: the longest run of rows its letters' ink fills at `BAND_FILL` of the fullest
  row, measured over the words near it (`line_band`);
- each letter's place along the word's box is estimated from common advance widths (`letter_places`), and the ink
  over its middle columns above the band (`mark_above`) or under the baseline (`mark_below`) is profiled row by row:
  the darkest row, and whether lighter rows part it from what lies beyond (ink that runs on to the next line is that
  line's descender or ascender, not a mark);
- the page's own `i` dots are the yardstick (`page_yardstick`): ink over a letter is a mark when it is as dark as
  `MARK_OF_DOT` of the median dot (an acute over an `i` when `ACUTE_OF_DOT` darker than a dot), and when it lies
  nearest that letter and no neighbour whose reading has ink there (a dot, an ascender, a descender) is about as near
  (`_owner`);
- a word of `MIN_LETTERS`+ letters, not in capitals, that the dictionaries do not know as read and the second
  recogniser did not read the same, read with such a letter bare, takes the one spelling that gives that letter a
  mark of that place (marks of the dictionaries' own alphabet; above or below by the mark's Unicode combining class)
  where the dictionaries know it. Two such spellings (`e` → `é` or `ê`), or none: the word is left
  as read. No mark is ever taken off or changed.

Which marks stand above a letter and which below is Unicode's, and which letters carry them each language's dictionary
alphabet: no per-language rule lives here. A letter with an ascender (`l`, `d`, `t`) is never given a mark from the
ink above it, nor a letter with a descender one from the ink below.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from pipeline.extract.ocr.hunspell import Spelling
from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.words import Word, words_by_line

INK_BELOW = 215  # grey under this on the page not whitened is ink, for the line's band (a mark at 150 dpi is light)
MIN_X_HEIGHT = 6  # pixels: a band lower than this is too small to look for marks in
MIN_LETTERS = 3  # as `accent-lines`: `e` / `é`, `a` / `à` are judged by their place in a sentence, not by ink
MIN_DOTS = 6  # the page's i-dots the yardstick needs
MARK_OF_DOT = 1.0  # a mark's darkest pixel is this share of the page's median i-dot's at least
ACUTE_OF_DOT = 1.4  # over an `i`, ink this much darker than the page's median dot is an acute (`í`), not a dot
BELOW_OF_DOT = 1.1  # under a letter, as `MARK_OF_DOT`
GAP_SHARE = 0.6  # a mark stands clear: rows this much lighter than its peak part it from the next line's ink
OWNER_MARGIN = 0.5  # letter widths: how much nearer a mark's ink must lie to its letter than to one with ink there
CORE_SHARE = 0.6  # the share of a letter's estimated width, about its middle, looked at
ABOVE_ROWS = (0.12, 0.9)  # x-heights over the band where a mark's darkest row lies
ABOVE_REACH = 1.3  # x-heights over the band looked at (the light rows above a mark)
BELOW_ROWS = (0.12, 0.5)  # x-heights under the baseline where a mark below has its darkest row
BAND_FILL = 0.45  # a row of the line's x-height band holds ink in this share of its fullest row at least
BELOW_REACH = 0.9  # x-heights under the baseline looked at (the light rows under a mark below)
LINE_REACH = 4.0  # word heights left and right of a word whose ink measures its line's band
ASCENDERS = set("bdfhklt")  # letters whose own ink stands above the band: a mark over them is not read from ink
DESCENDERS = set("gjpqyç")  # letters whose own ink reaches under the baseline
DOTTED = set("ij")
ABOVE_CLASSES = {230, 232, 233, 234}  # Unicode combining classes of marks above
BELOW_CLASSES = {202, 220}  # attached below (cedilla, ogonek) and below (dot below)


def bare(text: str) -> str:
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)))


def mark_places(letter: str) -> frozenset[str]:
    """Where `letter`'s combining marks stand: {'above'}, {'below'}, both, or none (a bare letter; `ł`, `ø`)."""
    places = set()
    for mark in unicodedata.normalize("NFD", letter)[1:]:
        cls = unicodedata.combining(mark)
        if cls in ABOVE_CLASSES:
            places.add("above")
        elif cls in BELOW_CLASSES:
            places.add("below")
        elif cls:
            places.add("other")
    return frozenset(places)


@lru_cache(maxsize=64)
def marked_forms(letters: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Each bare letter of an alphabet with its letters that carry one or more marks above or below it, nothing else
    (a horn, a stroke: not read from ink here)."""
    forms: dict[str, list[str]] = {}
    for letter in sorted(letters):
        base = bare(letter)
        places = mark_places(letter)
        if base != letter and len(base) == 1 and places and places <= {"above", "below"}:
            forms.setdefault(base, []).append(letter)
    return {base: tuple(marked) for base, marked in forms.items()}


class PageInk:
    """The page not whitened as darkness (255 less its grey): how much ink each pixel holds."""

    def __init__(self, page: np.ndarray) -> None:
        self.page = page
        self.dark = 255 - page.astype(np.int16)


@dataclass(frozen=True)
class Band:
    """A line's x-height band at a word: the top row of its small letters and its baseline (page rows)."""

    top: int
    baseline: int

    @property
    def height(self) -> int:
        return max(1, self.baseline - self.top)


def line_band(ink: PageInk, word: Word, line: Sequence[Word]) -> Band | None:
    """The x-height band of `word`'s line near it (`LINE_REACH` word heights each side): the rows that the ink of
    the line's letters fills at `BAND_FILL` of its fullest row at least."""
    height = max(1, word.bottom - word.top)
    near = [w for w in line if w.right >= word.left - LINE_REACH * height and w.left <= word.right + LINE_REACH * height]
    top, bottom = min(w.top for w in near), max(w.bottom for w in near)
    fill = np.zeros(bottom - top, dtype=np.int64)
    for w in near:
        fill += (ink.page[top:bottom, w.left:w.right] < INK_BELOW).sum(axis=1)
    if not fill.size or fill.max() <= 0:
        return None
    rows = np.flatnonzero(fill >= BAND_FILL * fill.max())
    # the longest run of such rows: the band (a line's capitals or accents make shorter runs above it)
    runs = np.split(rows, np.flatnonzero(np.diff(rows) > 1) + 1)
    run = max(runs, key=len)
    return Band(top + int(run[0]), top + int(run[-1]) + 1)


# Advance widths (thousandths of an em) of the Latin letters, the mean of a common sans and serif face's (Helvetica's
# and Times's metrics): where along a word's box each of its letters stands. A marked letter takes its base's.
_LOWER = dict(zip("abcdefghijklmnopqrstuvwxyz", (500, 528, 472, 528, 500, 306, 528, 528, 250, 250, 500, 250, 806, 528, 528,
                                                 528, 528, 333, 444, 278, 528, 500, 722, 500, 500, 472)))
_UPPER = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", (694, 667, 694, 722, 639, 583, 750, 722, 306, 444, 694, 583, 861, 722, 750,
                                                 611, 750, 694, 611, 611, 722, 694, 944, 694, 694, 611)))
_OTHER = {".": 264, ",": 264, ":": 278, ";": 278, "!": 306, "?": 500, "(": 333, ")": 333, "-": 333, "'": 222, "’": 250,
          "\"": 400, "“": 444, "”": 444, "„": 444, "«": 528, "»": 528, "ł": 250, "Ł": 583, "ı": 250, "đ": 528, "Đ": 722}
_DEFAULT_WIDTH = 528  # a digit, a letter of another script


def letter_width(ch: str) -> int:
    if ch in _OTHER:
        return _OTHER[ch]
    base = bare(ch)
    return _LOWER.get(base, _UPPER.get(base, _DEFAULT_WIDTH))


def letter_places(core: str, left: int, right: int) -> list[tuple[float, float]]:
    """Each character's (middle, width) along the word's box, by its advance width in common faces."""
    weights = [letter_width(ch) for ch in core]
    scale = (right - left) / max(sum(weights), 1)
    places, at = [], float(left)
    for weight in weights:
        places.append((at + weight * scale / 2, weight * scale))
        at += weight * scale
    return places


@dataclass(frozen=True)
class Letter:
    """A letter of a word's core: its index, itself, and its estimated middle column and width."""

    at: int
    ch: str
    middle: float
    width: float


@dataclass(frozen=True)
class MarkInk:
    """The ink over (or under) one letter's columns: its darkest row's darkness, how much lighter the rows are between
    it and the letter (`near_gap`) and on its far side (`far_gap`), as shares of it, how many rows it spans at half its
    darkness, and the rows its darkest row lies in the middle of (for `ink_middle`)."""

    peak: float
    near_gap: float
    far_gap: float
    rows: int
    at: tuple[int, int] = (0, 0)


def _profile(ink: PageInk, rows: tuple[int, int], middle: float, width: float) -> np.ndarray:
    """Each row's darkest pixel over the letter's central columns (`CORE_SHARE` of its width)."""
    half = max(1.0, CORE_SHARE * width / 2)
    left, right = max(0, int(round(middle - half))), max(1, int(round(middle + half)) + 1)
    top, bottom = max(0, rows[0]), max(0, rows[1])
    if bottom <= top or right <= left:
        return np.zeros(0)
    return ink.dark[top:bottom, left:right].max(axis=1).astype(float)


def mark_above(ink: PageInk, band: Band, middle: float, width: float) -> MarkInk:
    """The ink above the band over a letter: its peak within `ABOVE_ROWS` x-heights over the band, and the light
    rows between it and the band and above it (up to `ABOVE_REACH` x-heights)."""
    x = band.height
    top = band.top - round(ABOVE_REACH * x)
    profile = _profile(ink, (top, band.top), middle, width)
    if not profile.size:
        return MarkInk(0.0, 0.0, 0.0, 0)
    lo, hi = len(profile) - round(ABOVE_ROWS[1] * x), len(profile) - round(ABOVE_ROWS[0] * x)
    lo, hi = max(0, lo), max(lo + 1, hi)
    at = lo + int(np.argmax(profile[lo:hi]))
    peak = float(profile[at])
    if peak <= 0:
        return MarkInk(0.0, 0.0, 0.0, 0)
    near = 1 - float(profile[at:].min()) / peak
    far = 1 - float(profile[:at + 1].min()) / peak
    row = top + at
    return MarkInk(peak, near, far, int((profile >= peak / 2).sum()), (row - round(0.1 * x), row + round(0.1 * x) + 1))


def mark_below(ink: PageInk, band: Band, middle: float, width: float) -> MarkInk:
    """The ink under the baseline below a letter: its peak within `BELOW_ROWS` x-heights under the baseline, the
    light rows between it and the letter (`near_gap`: an attached mark has none) and under it down to `BELOW_REACH`."""
    x = band.height
    profile = _profile(ink, (band.baseline - round(0.1 * x), band.baseline + round(BELOW_REACH * x)), middle, width)
    if not profile.size:
        return MarkInk(0.0, 0.0, 0.0, 0)
    start = round(0.1 * x)
    lo, hi = start + round(BELOW_ROWS[0] * x), start + round(BELOW_ROWS[1] * x)
    hi = min(len(profile), max(lo + 1, hi))
    if lo >= hi:
        return MarkInk(0.0, 0.0, 0.0, 0)
    at = lo + int(np.argmax(profile[lo:hi]))
    peak = float(profile[at])
    if peak <= 0:
        return MarkInk(0.0, 0.0, 0.0, 0)
    near = 1 - float(profile[:at + 1].min()) / peak
    far = 1 - float(profile[at:].min()) / peak
    row = band.baseline - round(0.1 * x) + at
    return MarkInk(peak, near, far, int((profile[start:] >= peak / 2).sum()), (row - round(0.1 * x), row + round(0.1 * x) + 1))


def ink_middle(ink: PageInk, seen: MarkInk, letter: Letter) -> float:
    """The middle column of the ink at least half as dark as `seen`'s peak, in its rows, from a letter's width before
    `letter`'s middle to a letter's width after: whose letter the ink stands over."""
    left = max(0, int(round(letter.middle - letter.width)))
    window = ink.dark[max(0, seen.at[0]):max(0, seen.at[1]), left:int(round(letter.middle + letter.width)) + 1]
    rows, columns = np.nonzero(window >= seen.peak / 2)
    return left + float(columns.mean()) if columns.size else letter.middle


def _core_box(word: Word, lead: str, core: str, trail: str) -> tuple[int, int]:
    """The columns of the word's core, its leading and trailing marks' share taken off by the same widths."""
    whole = letter_places(lead + core + trail, word.left, word.right)
    if not core:
        return word.left, word.right
    first, last = whole[len(lead)], whole[len(lead) + len(core) - 1]
    return round(first[0] - first[1] / 2), round(last[0] + last[1] / 2)


@dataclass(frozen=True)
class Yardstick:
    """The page's own `i` dots: the median darkness of their peak and the rows they span."""

    peak: float
    rows: float


def is_mark(seen: MarkInk, yardstick: Yardstick, share: float = 0.0) -> bool:
    """Whether ink over or under a letter is a mark: at least `share` (default `MARK_OF_DOT`) as dark as the page's
    dots, with light rows on its far side (ink reaching on to the next line is that line's letter, not a mark)."""
    return seen.peak >= (share or MARK_OF_DOT) * yardstick.peak and seen.far_gap >= GAP_SHARE


def word_letters(word: Word) -> tuple[str, str, str, list[Letter]]:
    lead, core, trail = word_core(word.text)
    left, right = _core_box(word, lead, core, trail)
    return lead, core, trail, [Letter(i, ch, m, w) for i, (ch, (m, w)) in enumerate(zip(core, letter_places(core, left, right)))]


def page_yardstick(ink: PageInk, words: list[Word], bands: dict[int, Band]) -> Yardstick | None:
    """The page's `i` dots (module doc), from words read with an `i` among small letters; None: too few."""
    peaks, rows = [], []
    for word in words:
        band = bands.get(id(word))
        if band is None or "i" not in word.text:
            continue
        for letter in word_letters(word)[3]:
            if letter.ch == "i":
                seen = mark_above(ink, band, letter.middle, letter.width)
                if seen.peak > 0 and seen.far_gap >= GAP_SHARE:
                    peaks.append(seen.peak)
                    rows.append(seen.rows)
    if len(peaks) < MIN_DOTS:
        return None
    return Yardstick(float(np.median(peaks)), float(np.median(rows)))


@dataclass(frozen=True)
class InkMended:
    words: list[Word]
    changes: list[tuple[str, str]]


def spellings_for_ink(core: str, letters: list[Letter], ink: PageInk, band: Band, yardstick: Yardstick,
                      forms: dict[str, tuple[str, ...]]) -> list[str]:
    """`core` with one letter given a mark where the ink shows one the reading lacks (module doc)."""
    out = []
    for letter in letters:
        low = letter.ch.lower()
        if letter.ch.isupper() or low not in forms:
            continue
        wanted: set[str] = set()
        if low not in ASCENDERS:
            seen = mark_above(ink, band, letter.middle, letter.width)
            if is_mark(seen, yardstick, ACUTE_OF_DOT if low in DOTTED else MARK_OF_DOT) \
                    and _owner(letters, ink_middle(ink, seen, letter), letter, _inks_above):
                wanted.add("above")
        if low not in DESCENDERS:
            seen = mark_below(ink, band, letter.middle, letter.width)
            if is_mark(seen, yardstick, BELOW_OF_DOT) and _owner(letters, ink_middle(ink, seen, letter), letter, _inks_below):
                wanted.add("below")
        if not wanted:
            continue
        for marked in forms[low]:
            if mark_places(marked) == frozenset(wanted) and len(unicodedata.normalize("NFD", marked)) == 2:
                out.append(core[:letter.at] + marked + core[letter.at + 1:])
    return out


def _inks_above(ch: str) -> bool:
    """Whether a letter as read has ink of its own over the x-height band (a dot, an ascender, a capital, a mark)."""
    return ch.lower() in DOTTED or ch.lower() in ASCENDERS or not ch.islower() or "above" in mark_places(ch) or ch in "łđ"


def _inks_below(ch: str) -> bool:
    """Whether a letter as read has ink of its own under the baseline (a descender, a mark below)."""
    return ch.lower() in DESCENDERS or "below" in mark_places(ch)


def _owner(letters: list[Letter], column: float, letter: Letter, inks: Callable[[str], bool]) -> bool:
    """Whether ink centred on `column` is `letter`'s mark: `letter` is the nearest, and no letter whose reading has
    ink there (`inks`) lies within `OWNER_MARGIN` of `letter`'s width farther (estimated places err by that much)."""
    distance = abs(letter.middle - column)
    if min(letters, key=lambda other: abs(other.middle - column)) is not letter:
        return False
    return not any(other is not letter and inks(other.ch) and abs(other.middle - column) <= distance + OWNER_MARGIN * letter.width
                   for other in letters)


def mend_by_ink(words: list[Word], page: np.ndarray, spelling: Spelling) -> InkMended:
    """`words` with the marks the ink shows and one dictionary spelling agrees with put back (module doc)."""
    forms = marked_forms(spelling.letters)
    if not forms or not words:
        return InkMended(words, [])
    ink = PageInk(page)
    bands: dict[int, Band] = {}
    for members in words_by_line(words).values():
        for word in members:
            if word.bottom > word.top and word.right > word.left:
                band = line_band(ink, word, members)
                if band is not None and band.height >= MIN_X_HEIGHT:
                    bands[id(word)] = band
    yardstick = page_yardstick(ink, words, bands)
    if yardstick is None:
        return InkMended(words, [])
    mended: dict[int, Word] = {}
    changes = []
    for word in words:
        band = bands.get(id(word))
        lead, core, trail, letters = word_letters(word)
        if band is None or len(core) < MIN_LETTERS or not core.isalpha() or core.isupper():
            continue
        # A word the dictionaries know as read is never given a mark: where both spellings are words (`cerca` /
        # `cercá`, `visita` / `visitá`), the ink over a letter on a real sheet is as often the line above's descender
        # or a speck as a lost mark (v1 put marks the print lacks on such words). Nor a word the second recogniser
        # read letter for letter the same: two readings agree on it.
        if word.second == word.text or spelling.knows([core])[0]:
            continue
        spellings = spellings_for_ink(core, letters, ink, band, yardstick, forms)
        known = [s for s in spellings if spelling.knows([s])[0]]
        if len(known) == 1:
            mended[id(word)] = replace(word, text=lead + known[0] + trail)
            changes.append((word.text, mended[id(word)].text))
    return InkMended([mended.get(id(w), w) for w in words], changes)
