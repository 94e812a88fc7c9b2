"""Accents the page preparation whitened away, read back from the lines that hold them (`accent-lines`, issue 27).

At 150 dpi and blur 0.8 an acute is a light grey. `prepare_for_tesseract` turns every grey above `WHITE_FROM` into
paper (fills, tints, NÚCEM's number boxes), and with it most of such an accent: Tesseract then reads `fisica`,
`Sindrome`, `dias`. The page before that last step keeps the grey (`accentink --prepared 300`: INAP 2024 at 150 dpi,
22 of 427 marks lost on the prepared page, 2 on the same page not whitened). Whitening the whole page less broke
other families (branches `h-whiten*`, docs/results.md), so the preparation stays as it is, and only the lines that
hold a word whose mark may be lost are read again from the page not whitened:

- a candidate is a word of `MIN_LETTERS` letters or more whose reading has a twin in the languages' spelling
  dictionaries that differs from it by marks alone, one bare letter carrying a mark over the same base letter (the
  marks of the dictionaries' own alphabet, their `TRY` letters): `fisica` → `física`, `Sindrome` → `Síndrome`;
- the lines holding a candidate no dictionary knows (`fisica`; a known one, `esta` / `está`, is mended too when its
  line is read), at most `MAX_LINES` a page, are cut from `CONTEXT` words before their first candidate to as many
  after the last, from the page prepared as Tesseract's (same scale, paper, panels, rules, smoothing) but not
  whitened, stacked, and read in one Tesseract call as a block of text;
- a candidate takes the word read again at its place only where the two differ by marks alone, the second reading
  adds marks and takes none off, and the dictionaries know it; each change is noted on the page.

No mark is added that the ink does not show: the word is read in its line, with its neighbours (a word read alone leans
to the dictionary's spelling, `glyph-reread` in docs/results.md), from a page that differs from the first only
where light grey was made paper; a word printed without its mark reads without it again.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from PIL import Image

from pipeline.extract.ocr.engine import parse_tsv, run_tesseract, stacked
from pipeline.extract.ocr.hunspell import Spelling, SpellingUnavailable, dictionary_identity, spelling_for
from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.words import Word, words_by_line

MIN_LETTERS = 3  # shorter words (`e` / `é`, `a` / `à`) are read alike either way far too often to judge by a line
MAX_LINES = 16  # lines read again a page, at most: a page of Portuguese prose has a twin in nearly every line
LINE_PSM = 6  # the stacked lines read as one block of text
ABOVE = 0.5  # word heights of margin above a line's boxes (a capital's accent stands above Tesseract's box)
BELOW = 0.2  # word heights below
SIDE = 0.6  # word heights left and right
CONTEXT = 2  # words read with the candidates on each side: the line's own context, at a third of its cost or less
GAP = 0.6  # word heights of white between stacked lines
SAME_PLACE = 0.5  # share of the narrower box two words' columns must share to be the same word


def bare(text: str) -> str:
    """`text` without its combining marks (`física` → `fisica`; `ł`, `ø`, which do not decompose, stay)."""
    return unicodedata.normalize("NFC", "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch)))


def marked_forms(letters: frozenset[str]) -> dict[str, tuple[str, ...]]:
    """Each bare letter of an alphabet with the letters of the alphabet that carry a mark over it: {`i`: (`í`, …)}."""
    forms: dict[str, list[str]] = {}
    for letter in sorted(letters):
        base = bare(letter)
        if base != letter and len(base) == 1:
            forms.setdefault(base, []).append(letter)
    return {base: tuple(marked) for base, marked in forms.items()}


def twins(core: str, forms: dict[str, tuple[str, ...]]) -> list[str]:
    """`core` with one bare letter given a mark over it, each way the alphabet has (the case kept)."""
    out = []
    for at, ch in enumerate(core):
        for marked in forms.get(ch.lower(), ()):
            out.append(core[:at] + (marked.upper() if ch.isupper() else marked) + core[at + 1:])
    return out


def only_marks_added(first: str, second: str) -> bool:
    """Whether `second` is `first` with marks put on some of its bare letters, and nothing else changed."""
    if first == second or len(first) != len(second):
        return False
    return all(a == b or (a == bare(a) and bare(b) == a) for a, b in zip(first, second))


@lru_cache(maxsize=1 << 16)
def _known(spelling: Spelling, word: str) -> bool:
    return spelling.knows([word])[0]


@dataclass(frozen=True)
class Candidate:
    word: Word
    unknown: bool  # the dictionaries do not know the reading itself: its twin is the likelier word


def candidates(words: Sequence[Word], spelling: Spelling) -> list[Candidate]:
    """The words whose reading has a twin the dictionaries know (`twins`), in the page's order."""
    forms = marked_forms(spelling.letters)
    found = []
    for word in words:
        core = word_core(word.text)[1]
        if len(core) < MIN_LETTERS or not core.isalpha() or core.isupper():
            continue  # a word of capitals: an accent over a capital is `capital-accents`' work
        known_twins = [t for t in twins(core, forms) if _known(spelling, t)]
        if known_twins:
            found.append(Candidate(word, not _known(spelling, core)))
    return found


def lines_to_read(words: Sequence[Word], found: Sequence[Candidate], max_lines: int = MAX_LINES) -> list[tuple[int, int, int]]:
    """The lines read again: those holding a word no dictionary knows (whose twin it knows), most such words first,
    at most `max_lines`, in the page's order. A line whose candidates are all known words (`esta`, `que`) is not
    read for them: on Spanish and Portuguese prose that is nearly every line, a second reading of the page."""
    per_line: dict[tuple[int, int, int], list[int]] = {}
    for candidate in found:
        counts = per_line.setdefault(candidate.word.line, [0, 0])
        counts[0 if candidate.unknown else 1] += 1
    ranked = sorted((line for line in per_line if per_line[line][0]),
                    key=lambda line: (-per_line[line][0], -per_line[line][1]))[:max_lines]
    order = list(words_by_line(list(words)))
    return sorted(ranked, key=order.index)


@dataclass(frozen=True)
class Mended:
    words: list[Word]
    changes: list[tuple[str, str]]  # (first reading, second) of each word changed
    lines_read: int


def mend_lost_marks(
    words: list[Word], page: Image.Image, spelling: Spelling, read: Callable[[Image.Image], list[Word]],
    max_lines: int = MAX_LINES,
) -> Mended:
    """`words` with marks read again from `page` (the page not whitened) put on candidates (module docstring).
    `read`: Tesseract on the stacked lines (an image in, its words out)."""
    found = candidates(words, spelling)
    chosen = lines_to_read(words, found, max_lines)
    if not chosen:
        return Mended(words, [], 0)
    per_line = words_by_line(words)
    wanted = {id(c.word) for c in found}
    boxes = [_line_box(_window(per_line[line], wanted), page.size) for line in chosen]
    height = int(np.median([w.bottom - w.top for w in words])) or 1
    gap = max(4, round(GAP * height))
    stack, tops = stacked([page.crop(box) for box in boxes], gap)
    again = read(stack)
    by_crop: list[list[Word]] = [[] for _ in boxes]
    for word in again:
        middle = (word.top + word.bottom) / 2
        for at, (box, top) in enumerate(zip(boxes, tops)):
            if top <= middle < top + box[3] - box[1]:
                shift_x, shift_y = box[0] - gap, box[1] - top
                by_crop[at].append(replace(word, left=word.left + shift_x, right=word.right + shift_x,
                                           top=word.top + shift_y, bottom=word.bottom + shift_y))
                break
    mended: dict[int, Word] = {}
    changes = []
    for line, read_again in zip(chosen, by_crop):
        for word in per_line[line]:
            if id(word) not in wanted:
                continue
            twin = _at_place(word, read_again)
            if twin is None:
                continue
            lead, core, trail = word_core(word.text)
            other = word_core(twin.text)[1]
            if only_marks_added(core, other) and _known(spelling, other):
                mended[id(word)] = replace(word, text=lead + other + trail)
                changes.append((word.text, mended[id(word)].text))
    return Mended([mended.get(id(w), w) for w in words], changes, len(chosen))


def _window(members: list[Word], wanted: set[int]) -> list[Word]:
    """The words of a line from `CONTEXT` words before its first candidate to `CONTEXT` after its last."""
    at = [i for i, word in enumerate(members) if id(word) in wanted]
    return members[max(0, at[0] - CONTEXT):at[-1] + CONTEXT + 1]


def _line_box(members: list[Word], size: tuple[int, int]) -> tuple[int, int, int, int]:
    height = int(np.median([w.bottom - w.top for w in members])) or 1
    left = max(0, min(w.left for w in members) - round(SIDE * height))
    right = min(size[0], max(w.right for w in members) + round(SIDE * height))
    top = max(0, min(w.top for w in members) - round(ABOVE * height))
    bottom = min(size[1], max(w.bottom for w in members) + round(BELOW * height))
    return left, top, right, bottom


def _at_place(word: Word, read_again: list[Word]) -> Word | None:
    """The word read again whose columns are `word`'s (`SAME_PLACE`) and whose middle lies in its rows, or None."""
    best, best_share = None, SAME_PLACE
    for other in read_again:
        shared = min(word.right, other.right) - max(word.left, other.left)
        narrower = max(1, min(word.right - word.left, other.right - other.left))
        middle = (other.top + other.bottom) / 2
        if shared / narrower >= best_share and word.top <= middle <= word.bottom:
            best, best_share = other, shared / narrower
    return best


def tesseract_reader(languages: Sequence[str], dpi: int, omp_thread_limit: int | None) -> Callable[[Image.Image], list[Word]]:
    """Tesseract reading stacked lines as one block (`LINE_PSM`)."""
    def read(image: Image.Image) -> list[Word]:
        return parse_tsv(run_tesseract(image, languages, dpi, omp_thread_limit=omp_thread_limit, psm=LINE_PSM))
    return read


def page_spelling(languages: Sequence[str]) -> Spelling | None:
    """The languages' dictionaries when their alphabet has marked letters; None when there are none to ask."""
    try:
        spelling = spelling_for(languages)
    except SpellingUnavailable:
        return None
    return spelling if marked_forms(spelling.letters) else None


def accent_inputs(languages: tuple[str, ...]) -> str:
    """The dictionaries' files the pass asks (for the OCR cache key), or why it skips."""
    try:
        spelling = spelling_for(languages)
    except SpellingUnavailable as exc:
        return f"skipped: {exc}"
    return ", ".join(f"{name}:{dictionary_identity(name)}" for name in spelling.names)
