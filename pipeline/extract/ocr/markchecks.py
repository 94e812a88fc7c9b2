"""Misreads both spellings of which are words: a mark print may leave off read wrong, a mark the language never writes,
a letter read twice. The `mark-checks` pass (issue 27, bar 2) marks such words unsure (`Word.unsure_mark`, which the
flag reads); it rewrites none.

The dictionary rules of the flag (`certainty`) see a misread only where it makes a word no dictionary knows. Three kinds
slip past them, each judged here with the evidence the word's own ink or box gives:

- **a mark print may leave off** (language data `text_quality.optional_marks`, Russian `{ё: е}`): the dictionary knows
  `весёлые` and `веселые` alike, so Tesseract's `веселые` for a printed `весёлые` reads as a word. Where a word read
  with the bare letter has a twin with the marked one that the dictionaries (else Tesseract's word list) know, or the
  other way round, the ink over that letter decides (`marks_over_letters`): the pieces of ink standing wholly above the
  word's small letters (its x-height, measured on the word's own letters) but within a capital's mark's reach of them (a
  descender of the line above is none), no taller than a mark, clustered by column into one mark a letter, each put over
  the letter whose column it falls in (the box shared out by the page's fitted letter widths). A mark over a letter read
  bare, or none over a letter read marked, makes the word unsure. A word read right (`все` with no dots over its `е`) stays sure:
  the rule never flags a spelling for being one of two.
- **a mark the language never writes** (language data `text_quality.marked_letters`, the marked letters its script
  prints: monotonic Greek's `άέήίόύώϊϋΐΰ`): a letter of the language's script carrying marks but not among them (`ὐ`, a
  breathing read for a tonos: `Εὐκρατη` for `Εύκρατη`) makes its word unsure, unless Tesseract's word list knows the
  word so (`μὲ`, `αἱ`: a quotation in polytonic Greek) or the page holds `PRINTED_FROM` such words it knows (the page
  prints those marks). Languages that give no list are not judged.
- **a letter read twice** (any language with spelling dictionaries): a word neither the dictionaries nor Tesseract's word
  list know, not in capitals (an acronym doubles a letter as printed: `TTPA`), one of whose doubled letters (`μμ` of
  `Αιχμμαλώτισαν`) taken out once makes a word the dictionaries know, is unsure where its box fits that word better than
  the word as read by at least `TWICE_MARGIN` of the letter's width, each letter's width fitted on the page's words the
  dictionaries know (`secondletters.fit_widths`). Never asked of a dictionary that knows every word (Korean's).
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from pipeline.extract.ocr.certainty import script_of, spelled_for
from pipeline.extract.ocr.lexicon import Lexicon, word_core
from pipeline.extract.ocr.secondletters import Box, Widths, fit_widths
from pipeline.extract.ocr.words import Word, line_sizes
from pipeline.languages import language_for_tesseract

ABOVE_SHARE = 0.8  # word box heights searched over the box for a mark (Tesseract's box may leave a mark out)
MARK_MAX_HEIGHT = 0.7  # x-heights: a piece no taller is a mark (a dot, a tonos, a breve); a taller one is a letter's
MARK_MIN_AREA = 0.012  # x-heights squared: a smaller piece is a speck of the scan's noise
ABOVE_BODY = 0.1  # x-heights: a mark's lowest ink stands above the small letters' tops by more than this less
MARK_REACH = 1.1  # x-heights over the small letters' tops: a mark's highest ink (a capital's mark too) stands lower
CLUSTER_GAP = 0.5  # x-heights: pieces of ink this close in their columns are one letter's mark (the two dots of `ё`)
MARK_WIDTH = 0.35  # letter widths: what a punctuation mark beside a word takes of its box, where the page's letters are not fitted
LETTER_REACH = 0.75  # letter widths: a mark whose middle lies further from a letter's estimated middle is over none
INK_SHARE = 0.45  # of the way from the paper's grey to the word's darkest: ink (a blurred dot is a light grey)
MIN_LETTERS = 3  # shorter words (`её`) leave the letters' columns too few to place a mark by
PRINTED_FROM = 2  # words of a page that the word list knows with marks its language never writes: the page prints them
TWICE_MARGIN = 0.3  # of the doubled letter's fitted width: how much better the box must fit the word with it once


@dataclass(frozen=True)
class MarkFacts:
    """What the page's languages say of their marks (`text_quality`): {marked letter: the bare letter print may write
    for it}, and the marked letters of each script a language prints (None: its marks are not judged)."""

    optional: dict[str, str]
    written: dict[str, frozenset[str]]  # script (`script_of`'s name) → the marked letters its language writes

    def __bool__(self) -> bool:
        return bool(self.optional or self.written)


@lru_cache(maxsize=16)
def mark_facts(languages: tuple[str, ...]) -> MarkFacts:
    """The marks `languages` (Tesseract names) print, from their language files."""
    optional: dict[str, str] = {}
    written: dict[str, set[str]] = {}
    for name in languages:
        language = language_for_tesseract(name)
        if language is None or language.text_quality is None:
            continue
        optional.update(language.text_quality.optional_marks)
        if language.text_quality.marked_letters:
            written.setdefault(language.script.upper(), set()).update(language.text_quality.marked_letters)
    return MarkFacts(optional, {script: frozenset(letters) for script, letters in written.items()})


def dictionaries_to_ask(languages: tuple[str, ...]) -> Callable[[str], bool] | None:
    """The spelling dictionaries of `languages`, a word at a time (`certainty.spelled_for`); None where they have none, or
    where a language sets its glyphs on square cells (language data `glyph_cells`: Korean), whose dictionary knows every
    word, the checker's sentinel too, so that asking it never ends."""
    if any(language is not None and language.glyph_cells is not None for language in map(language_for_tesseract, languages)):
        return None
    return spelled_for(languages)


def _has_marks(ch: str) -> bool:
    return any(unicodedata.combining(part) for part in unicodedata.normalize("NFD", ch))


def _mark_above(ch: str) -> bool:
    """Whether a letter carries ink over its body: a combining mark above (class 230) or an `i`'s or `j`'s dot."""
    return ch in "ij" or any(unicodedata.combining(part) == 230 for part in unicodedata.normalize("NFD", ch))


def unwritten_marks(core: str, facts: MarkFacts) -> str | None:
    """The first letter of `core` whose marks its script's language never writes (`MarkFacts.written`), or None. A lone
    letter is not judged: it is a label or a mark (`ὃ` for a label `δ`), which the label passes read by its shape."""
    if len(core) < 2:
        return None
    for ch in core:
        letters = facts.written.get(script_of(ch) or "")
        if letters is not None and _has_marks(ch) and ch.lower() not in letters:
            return ch
    return None


def optional_twins(core: str, facts: MarkFacts) -> list[tuple[int, str]]:
    """(place, twin) of each way `core` reads with one letter's optional mark put on or taken off (`всё` ↔ `все`)."""
    bare_of = {**facts.optional, **{m.upper(): b.upper() for m, b in facts.optional.items()}}
    marked_of = {b: m for m, b in bare_of.items()}
    found = []
    for at, ch in enumerate(core):
        other = bare_of.get(ch) or marked_of.get(ch)
        if other is not None:
            found.append((at, core[:at] + other + core[at + 1:]))
    return found


@dataclass(frozen=True)
class Mark:
    """A piece of ink over a word's letters (page pixels): its columns and its lowest row."""

    left: int
    right: int
    bottom: int


def marks_over_letters(grey: np.ndarray, word: Word) -> tuple[list[int], float] | None:
    """The middle column (page pixels) of each mark standing over `word`'s small letters, left to right, and the word's
    x-height; None where its letters give no x-height to measure by (module doc)."""
    from scipy import ndimage  # here, not at import: scipy costs every process a second

    height = word.bottom - word.top
    top = max(0, int(word.top - ABOVE_SHARE * height))
    crop = grey[top:word.bottom + 1, max(0, word.left):word.right + 1].astype(float)
    if crop.size == 0 or height < 4:
        return None
    paper = float(np.percentile(crop, 90))
    darkest = float(crop.min())
    if paper - darkest < 40:
        return None
    ink = crop < paper - INK_SHARE * (paper - darkest)
    pieces, count = ndimage.label(ink, structure=np.ones((3, 3), dtype=bool))
    boxes = ndimage.find_objects(pieces)
    areas = ndimage.sum(ink, pieces, index=np.arange(1, count + 1)) if count else []
    # The word's letters: pieces reaching into its box's lower half (a mark over it never does).
    box_middle = (word.top + word.bottom) / 2 - top
    letters = [b for b in boxes if b is not None and b[0].stop > box_middle and b[0].stop - b[0].start >= 0.3 * height]
    if len(letters) < 2:
        return None
    baseline = float(np.median([b[0].stop for b in letters]))
    x_top = float(np.median([b[0].start for b in letters]))
    x_height = baseline - x_top
    if x_height < 4:
        return None
    marks = [Mark(b[1].start, b[1].stop, b[0].stop) for b, area in zip(boxes, areas)
             if b is not None and b[0].start > 0  # a piece cut by the crop's top is the line above's
             and b[0].stop <= x_top + ABOVE_BODY * x_height and b[0].start >= x_top - MARK_REACH * x_height
             and b[0].stop - b[0].start <= MARK_MAX_HEIGHT * x_height
             and area >= MARK_MIN_AREA * x_height ** 2]
    columns: list[list[int]] = []
    for mark in sorted(marks, key=lambda m: m.left):
        if columns and mark.left - columns[-1][1] <= CLUSTER_GAP * x_height:
            columns[-1][1] = max(columns[-1][1], mark.right)
        else:
            columns.append([mark.left, mark.right])
    offset = max(0, word.left)
    return [offset + (a + b) / 2 for a, b in columns], x_height


def letters_marked(text: str, word: Word, middles: Sequence[float], widths: Widths | None = None) -> list[bool] | None:
    """For each character of `text` (the word's whole token), whether a mark of `middles` stands over it: each mark put
    over the character whose column, the box shared out between the characters by their widths (`widths`, the page's
    fitted letters; without them a letter counts one, a mark `MARK_WIDTH`), holds it, where the mark's middle lies within
    `LETTER_REACH` of that character's width from its middle; None where a mark stands over none (ink the rule cannot
    place)."""
    if not text:
        return None
    unfitted = 1.0 if widths is None else widths.median
    shares = [(widths.letters.get(unicodedata.normalize("NFD", ch)[0]) if widths is not None else None)
              or (unfitted if ch.isalnum() else MARK_WIDTH * unfitted) for ch in text]
    scale = (word.right - word.left) / sum(shares)
    edges = np.cumsum([0.0, *shares]) * scale + word.left
    found = [False] * len(text)
    for middle in middles:
        at = min(len(text) - 1, max(0, int(np.searchsorted(edges, middle, side="right")) - 1))
        width = edges[at + 1] - edges[at]
        if abs((edges[at] + edges[at + 1]) / 2 - middle) > LETTER_REACH * width:
            return None
        found[at] = True
    return found


def optional_mark_misread(word: Word, grey: np.ndarray, facts: MarkFacts, known: Callable[[str], bool],
                          widths: Widths | None = None) -> str | None:
    """Why the ink says `word` was read with an optional mark put on or left off (module doc), or None."""
    lead, core, _ = word_core(word.text)
    if len(core) < MIN_LETTERS or not core.isalpha():
        return None
    twins = [(at, twin) for at, twin in optional_twins(core, facts) if known(twin)]
    if not twins:
        return None
    seen = marks_over_letters(grey, word)
    if seen is None:
        return None
    over = letters_marked(word.text, word, seen[0], widths)
    if over is None:
        return None
    for at, twin in twins:
        place = len(lead) + at
        read_marked = _mark_above(core[at])
        neighbours_marked = any(_mark_above(ch) for ch in word.text[max(0, place - 1):place + 2] if ch != core[at])
        if over[place] and not read_marked and not neighbours_marked:
            return f"a mark over `{core[at]}` read bare ({twin} is a word too)"
        if read_marked and not over[place] and not any(over[max(0, place - 1):place + 2]):
            return f"no mark over `{core[at]}` ({twin} is a word too)"
    return None


def letter_read_twice(word: Word, widths: Widths | None, size: float | None, known: Callable[[str], bool],
                      lexicon: Lexicon | None) -> str | None:
    """The word `word` would be with one of its doubled letters once, where the module doc says it was read twice; None."""
    lead, core, trail = word_core(word.text)
    if widths is None or not size or len(core) < MIN_LETTERS + 1 or not core.isalpha() or core.isupper() or known(core) \
            or (lexicon is not None and core in lexicon):
        return None
    seen = (word.right - word.left) / size
    as_read = abs(seen - widths.predict(word.text))
    for at in range(1, len(core)):
        if core[at].lower() != core[at - 1].lower():
            continue
        once = core[:at] + core[at + 1:]
        if not known(once):
            continue
        letter = widths.predict(core[at]) - widths.sides
        if abs(seen - widths.predict(lead + once + trail)) + TWICE_MARGIN * letter < as_read:
            return once
    return None


def page_widths(words: Sequence[Word], known: Callable[[str], bool]) -> Widths | None:
    """Each letter's width on the page, fitted on its words of letters the dictionaries know (Tesseract's confidence is
    no measure: its Greek model gives right words confidences near 0)."""
    sizes = line_sizes(list(words))
    boxes = [Box(w.text, 100.0 if core.isalpha() and known(core) else None, w.right - w.left, sizes.get(w.line), None)
             for w in words for core in (word_core(w.text)[1],)]
    return fit_widths(boxes)


def check_marks(words: list[Word], grey: np.ndarray, facts: MarkFacts, known: Callable[[str], bool] | None,
                lexicon: Lexicon | None) -> tuple[list[Word], list[tuple[str, str]]]:
    """`words` (a page's) with each word the module doc judges misread marked unsure, and (word, why) for each.
    `grey` is the page as scanned (straightened, specks out), in the words' pixels; `known` asks the spelling
    dictionaries (None: the page's languages have none; the letter-twice rule then judges nothing)."""
    found: list[tuple[str, str]] = []
    out = list(words)

    def known_anywhere(word: str) -> bool:
        return (known is not None and known(word)) or (lexicon is not None and word in lexicon)

    widths = page_widths(words, known) if known is not None else None
    sizes = line_sizes(words) if widths is not None else {}
    unwritten = [unwritten_marks(word_core(w.text)[1], facts) if facts.written else None for w in words]
    # Words the word list knows with such marks (`μὲ`, `αἱ`): the page prints them (a text in polytonic Greek) where it
    # holds `PRINTED_FROM` of them, and marks it prints are no misread anywhere on it.
    vouched = [letter is not None and lexicon is not None and word_core(w.text)[1] in lexicon for w, letter in zip(words, unwritten)]
    printed = sum(vouched) >= PRINTED_FROM
    for i, word in enumerate(words):
        if word.unsure_mark:
            continue
        why = None
        if unwritten[i] is not None and not vouched[i] and not printed:
            why = f"`{unwritten[i]}`: a mark its language never writes"
        if why is None and facts.optional:
            why = optional_mark_misread(word, grey, facts, known_anywhere, widths)
        if why is None and known is not None:
            once = letter_read_twice(word, widths, sizes.get(word.line), known, lexicon)
            why = f"a letter read twice ({once} fits its box)" if once is not None else None
        if why is not None:
            out[i] = replace(word, unsure_mark=True)
            found.append((word.text, why))
    return out, found


def checked_marks_note(found: Sequence[tuple[str, str]]) -> str:
    shown = ", ".join(f"{text} ({why})" for text, why in found[:12]) + (" …" if len(found) > 12 else "")
    return f"mark checks: {len(found)} word(s) read unsurely by their marks or their box ({shown})"
