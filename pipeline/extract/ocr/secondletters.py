"""Letters the second reader saw where Tesseract dropped, added or confused a thin one: the `second-letters` pass.

At 150 dpi with blur Tesseract loses a thin letter into its neighbour (`Permetrna`, `tisomia` printed `Permetrina`,
`trisomía`), reads one stroke as two (`Ilvermectina`), or one thin letter as another (`Nersseria`) or a blur-joined pair
as one (`supraestemal`: `rn` read `m`). The second reader (`secondread`), reading the word's window again from the scan,
often reads it right, but its combine step takes a reading only where the spelling dictionary knows it, and a
specialist's word (a drug, a bacterium, a syndrome) is known to neither dictionary: both readings stay unknown, the
word stays as Tesseract read it, and only the flag says it is unsure. Here the two readings and the ink decide,
without the dictionary (`second_letters`):

- Tesseract's word is one of letters (`MIN_LETTERS` or more), read under `UNSURE_BELOW`, that neither the spelling
  dictionaries nor Tesseract's word list know; a known word is never rewritten, nor a word both engines read alike.
- The second reader read its box as one word of letters that differs from it only by blur's edits, at most
  `MAX_EDITS` letters and one in `EDIT_SHARE` of the word, each either a thin letter put in or taken out inside the
  word (at its ends the second reader's window reads a neighbour glued on: `Permetryna i` read `Permetrynai`; a second
  reading holding a letter beside itself marked, `Sifilíitica`, read a mark twice, and is not taken), or read
  as another thin one (thin: its width on this page under `THIN_SHARE` of the page's median letter width, so an `m` or a
  `w` is never one), or one of the language's blur-joined groups (`text_quality.misread_letters`: `rn` read `m`);
  marks over letters are not counted (either reader loses or invents an acute at 150 dpi: `Nerssería`), but a reading
  that differs by marks alone is `seen-marks`' to judge, not this pass's.
- The ink agrees: the box's width is predicted from the page's own letters' widths (each letter's width fitted, by
  least squares, to the boxes of the page's sure words, their punctuation's too, in their lines' font sizes, with a
  word's sides as one constant, each letter drawn towards the page's mean letter by `PRIOR_WEIGHT`), and the second
  reading fits the box at least as well as Tesseract's (within `WIDTH_SLACK`): a word whose box holds room for one more
  thin letter takes it, one with no room does not.

A word so mended reads as the second reader read it. Where the dictionaries know the mended word it is sure; where
they do not (the usual case, the reason nothing took it before) it stays unsure (`unsure_mark`): mended for the
reader, still flagged for the checker. Each change is said in a page note.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol, TypeVar

import numpy as np

from pipeline.extract.ocr.lexicon import Lexicon, word_core



class _Word(Protocol):
    @property
    def text(self) -> str: ...

    @property
    def unsure_mark(self) -> Any: ...


WordT = TypeVar("WordT", bound=_Word)

MIN_LETTERS = 4
UNSURE_BELOW = 80.0  # Tesseract's confidence from which its reading stands (the second reader's own `UNSURE_BELOW`)
MAX_EDITS = 2  # letters put in, taken out or swapped
EDIT_SHARE = 4  # at most one edit per this many letters of the word
THIN_SHARE = 0.8  # of the page's median small letter's width: a letter no wider is thin (i, l, r, t, f, j, I)
MIN_SURE = 90.0  # Tesseract's confidence of the words the letters' widths are fitted on
MIN_REFERENCES = 30  # such words a page needs; fewer: no word is mended
MIN_SEEN = 2  # times a letter must occur in those words for its width to count as known
PRIOR_WEIGHT = 1.0  # how many words' worth each letter's width is drawn towards the page's mean letter
WIDTH_SLACK = 0.1  # of the median small letter: how much worse than Tesseract's the second reading may fit its box


@dataclass(frozen=True)
class Box:
    """What the pass reads of one word: its text, Tesseract's confidence, its box's width and its line's font size
    (pixels), and what the second reader read at its place."""

    text: str
    conf: float | None
    width: float
    size: float | None
    second: str | None


@dataclass(frozen=True)
class Widths:
    """Each letter's width on the page, in font sizes, the words' sides, and the median small letter's."""

    letters: dict[str, float]
    sides: float
    median: float

    def predict(self, word: str) -> float:
        """`word`'s box width, in font sizes; a letter too rare on the page to be fitted counts as its median letter
        (the two readings compared share such letters: only the letters they differ by, each fitted, tell them apart)."""
        return self.sides + sum(self.letters.get(_base(ch), self.median) for ch in word)

    def thin(self, letter: str) -> bool:
        width = self.letters.get(_base(letter))
        return width is not None and width <= THIN_SHARE * self.median


def _base(ch: str) -> str:
    """A letter without its marks (`í` → `i`): marked letters share their base's width."""
    return unicodedata.normalize("NFD", ch)[0]


def fit_widths(boxes: Sequence[Box]) -> Widths | None:
    """The page's letters' widths fitted to its sure words of letters (see the module's doc); None where the page has
    fewer than `MIN_REFERENCES` such words."""
    samples = []
    for box in boxes:
        if box.size and box.conf is not None and box.conf >= MIN_SURE and any(ch.isalpha() for ch in box.text) \
                and not any(ch.isspace() for ch in box.text):
            samples.append((box.text, box.width / box.size))
    if len(samples) < MIN_REFERENCES:
        return None
    counts: dict[str, int] = {}
    for core, _ in samples:
        for ch in core:
            counts[_base(ch)] = counts.get(_base(ch), 0) + 1
    letters = sorted(ch for ch, n in counts.items() if n >= MIN_SEEN)
    column = {ch: i for i, ch in enumerate(letters)}
    rows = [(core, width) for core, width in samples if all(_base(ch) in column for ch in core)]
    if len(rows) < MIN_REFERENCES:
        return None
    design = np.zeros((len(rows) + len(letters), len(letters) + 1))
    target = np.zeros(len(rows) + len(letters))
    for r, (core, width) in enumerate(rows):
        for ch in core:
            design[r, column[_base(ch)]] += 1
        design[r, -1] = 1.0
        target[r] = width
    # Each letter's width drawn towards the page's mean letter (`PRIOR_WEIGHT` words' worth): a letter seen in a few
    # words only is not fitted to their noise.
    mean = sum(width for _, width in rows) / sum(len(core) for core, _ in rows)
    for c in range(len(letters)):
        design[len(rows) + c, c] = PRIOR_WEIGHT
        target[len(rows) + c] = PRIOR_WEIGHT * mean
    # The normal equations (letters × letters, well posed by the prior's rows): a page fits in well under a millisecond.
    solution = np.linalg.solve(design.T @ design, design.T @ target)
    widths = {ch: float(solution[column[ch]]) for ch in letters}
    usual = sorted(widths[ch] for ch in letters if ch.islower()) or sorted(widths.values())
    return Widths(widths, float(solution[-1]), usual[len(usual) // 2])


def _adds_marks(ours: str, theirs: str) -> bool:
    mine, other = unicodedata.normalize("NFD", ours), unicodedata.normalize("NFD", theirs)
    return other.startswith(mine) and all(unicodedata.combining(ch) for ch in other[len(mine):])


def _read_twice(word: str, at: int) -> bool:
    """Whether the letter at `at` stands beside its own base letter, one of the two marked and the other not: a
    marked vowel read again bare (`Sifilíitica`, as `accents-read-twice` finds in Tesseract's readings), no letter
    the ink holds."""
    return any(0 <= k < len(word) and _base(word[k]) == _base(word[at]) and (word[k] == _base(word[k])) != (word[at] == _base(word[at]))
               for k in (at - 1, at + 1))


def blur_edits(ours: str, theirs: str, widths: Widths, groups: Sequence[tuple[str, str]]) -> int | None:
    """The fewest of blur's edits (see the module's doc) that make `theirs` of `ours`, marks over letters free; None
    where more than `MAX_EDITS` would be needed or no such edits make it."""
    if any(_read_twice(theirs, j) for j in range(len(theirs))) and not any(_read_twice(ours, i) for i in range(len(ours))):
        return None
    bare_ours = [_base(ch) for ch in ours]
    bare_theirs = [_base(ch) for ch in theirs]
    folded_ours, folded_theirs = ours.lower(), theirs.lower()
    n, m = len(ours), len(theirs)
    worst = MAX_EDITS + 1
    cost = [[worst] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here >= worst:
                continue
            steps: list[tuple[int, int, int]] = []
            if i < n and j < m:
                if bare_ours[i] == bare_theirs[j]:
                    steps.append((1, 1, 0))
                elif widths.thin(ours[i]) and widths.thin(theirs[j]):
                    steps.append((1, 1, 1))
            # A thin letter put in or taken out inside the word only: at its ends the second reader's window reads the
            # neighbour word glued on (`Permetryna i` read `Permetrynai`), and a letter lost there lies outside the box.
            if 0 < i < n and j < m and widths.thin(theirs[j]):
                steps.append((0, 1, 1))
            if 0 < i < n - 1 and widths.thin(ours[i]):
                steps.append((1, 0, 1))
            for printed, read in groups:
                if folded_theirs.startswith(printed, j) and folded_ours.startswith(read, i):
                    steps.append((len(read), len(printed), 1))
            for di, dj, add in steps:
                if here + add < cost[i + di][j + dj]:
                    cost[i + di][j + dj] = here + add
    return cost[n][m] if cost[n][m] < worst else None


def _candidate(box: Box) -> bool:
    """Whether `box` is a word the rules judge at all: read unsurely, of letters, read otherwise by the second reader as
    one word of letters (the dictionaries and the ink are asked later)."""
    if not box.second or box.conf is None or box.conf >= UNSURE_BELOW or not box.size or any(ch.isspace() for ch in box.second.strip()):
        return False
    core = word_core(box.text)[1]
    theirs = unicodedata.normalize("NFC", word_core(box.second.strip())[1])
    return len(core) >= MIN_LETTERS and core.isalpha() and theirs.isalpha() and theirs != core


def second_letters(box: Box, widths: Widths, known: Callable[[str], bool], groups: Sequence[tuple[str, str]]) -> str | None:
    """`box`'s text as the second reader read it, where the module's doc says so; None otherwise."""
    if not _candidate(box):
        return None
    lead, core, trail = word_core(box.text)
    assert box.second is not None and box.size
    theirs = unicodedata.normalize("NFC", word_core(box.second.strip())[1])
    if known(core):
        return None
    edits = blur_edits(core, theirs, widths, groups)
    if edits is None or edits == 0 or edits > MAX_EDITS or edits * EDIT_SHARE > len(core):
        return None
    ours_width, theirs_width = widths.predict(lead + core + trail), widths.predict(lead + theirs + trail)
    seen = box.width / box.size
    if abs(seen - theirs_width) > abs(seen - ours_width) + WIDTH_SLACK * widths.median:
        return None  # the box holds Tesseract's letters better: a letter more only where it holds one more
    return lead + theirs + trail


@dataclass(frozen=True)
class Mended:
    index: int
    text: str
    known: bool


def take_second_letters(boxes: Sequence[Box], lexicon: Lexicon | None, spelled: Callable[[str], bool]) -> list[Mended]:
    """Each word of `boxes` (a page's, in order) the module's doc mends, by its index."""
    def known(word: str) -> bool:
        return spelled(word) or (lexicon is not None and word in lexicon)
    # The words the rules may mend, found before the page's widths are fitted: most pages have none.
    candidates = [i for i, box in enumerate(boxes) if _candidate(box)]
    if not candidates:
        return []
    widths = fit_widths(boxes)
    if widths is None:
        return []
    groups = tuple((printed.lower(), read.lower()) for printed, read in (lexicon.misread_letters if lexicon is not None else ()))
    found = []
    for i in candidates:
        box = boxes[i]
        text = second_letters(box, widths, known, groups)
        if text is not None:
            found.append(Mended(i, text, known(word_core(text)[1])))
    return found


def mend_words(words: Sequence[WordT], found: Sequence[Mended]) -> tuple[list[WordT], str]:
    """`words` (a page's, in order: any dataclass with `text` and `unsure_mark`) with each of `found` read as the second
    reader read it, unsure unless a dictionary knows it, and the page note that says so."""
    mended = list(words)
    for one in found:
        word = mended[one.index]
        mended[one.index] = replace(word, text=one.text, unsure_mark=word.unsure_mark or not one.known)  # type: ignore[type-var]  # any dataclass word; the Protocol cannot say "dataclass"
    changes = [(words[one.index].text, one.text) for one in found]
    shown = ", ".join(f"{before} → {after}" for before, after in changes[:12]) + (" …" if len(changes) > 12 else "")
    return mended, f"second letters: {len(changes)} word(s) no dictionary knows took the thin letters the second reader saw ({shown})"
