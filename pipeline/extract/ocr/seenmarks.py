"""Marks the second reader saw where Tesseract read a word no dictionary knows (`seen-marks`, issue 27).

At 150 dpi with blur Tesseract loses an acute now and then (`adenopatias`, `orofaringea`, `Densitometria` printed
`adenopatías`, `orofaríngea`, `Densitometría`) while the second reader (`secondread`), reading the same box again with a
recogniser of another design, writes it. Two kinds of evidence say the mark is there: the dictionary (Tesseract's
word is no word the page's spelling dictionaries know) and the ink as another reader saw it (its reading is Tesseract's
letter for letter, only with marks over letters Tesseract read bare). Where both hold, the word takes the second
reader's marks, Tesseract's own characters and punctuation otherwise kept (`seen_marks`):

- Tesseract's word is unknown to the spelling dictionaries (hunspell). A known word is never rewritten: `si` / `sí`,
  `periodo` / `período`, `seria` / `sería` are both words, and the second reader's mark over one of them stays a
  disagreement the certainty flag weighs (`agreement`), never a rewrite.
- The second reading has exactly Tesseract's letters once marks are set aside, as many, in the same order and case,
  and at each letter either the same letter or Tesseract's bare letter with marks added (`dias` → `días`). A mark
  taken off, one mark for another (`ô` for `õ`), a letter more or less (`Sifilíitica`) is no such reading: nothing.
- Every marked letter it adds is a letter of the page's languages (one their Tesseract word lists spell with):
  a mark the language does not write is the second reader's noise.
- The word so marked is known to the spelling dictionaries or Tesseract's word list, or (`UNKNOWN_TOO`) neither knows
  it nor the word as read and the language's words put such marks there: the marked word from its first added mark on
  is the ending of a word Tesseract's word list knows (`tendíneo` ends as `sanguíneo`, `adenopatías` as `simpatías`),
  so a medical term the dictionaries lack is taken, while a mark the second reader added where the language writes
  none (`vesículoampollosas`, printed bare) is not.

Nothing else is looked at: a word the second reader did not read keeps Tesseract's reading and the other rules judge it.
A word so mended reads as the second reader read it. Where the dictionaries know the marked word, they settled it (as
the second reader's combine step settles a word one reading of which they know: `agreement.mark_settled`) and the
word is sure. Where neither knows it, only its ending vouches for the mark and the word stays unsure (`unsure_mark`):
mended for the reader, still flagged for the checker (at 150 dpi a sheet that lost one acute has often lost others on
words both forms of which are known, `Artroscopia` for `Artroscopía`, which nothing here can tell). Each change is a
page note.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from pipeline.extract.ocr.lexicon import Lexicon, load_lexicon, word_core
from pipeline.extract.ocr.words import Word

# A word neither dictionary knows, read so by Tesseract as well, takes the marks the second reader saw.
UNKNOWN_TOO = True
MIN_LETTERS = 2


def _nfd(ch: str) -> str:
    return unicodedata.normalize("NFD", ch)


def _adds_marks(ours: str, theirs: str) -> bool:
    """Whether letter `theirs` is letter `ours` with combining marks added (none of `ours`' taken off or changed)."""
    mine, other = _nfd(ours), _nfd(theirs)
    return len(other) > len(mine) and other.startswith(mine) and all(unicodedata.combining(ch) for ch in other[len(mine):])


def marked_reading(core: str, second: str) -> str | None:
    """`second`'s word where it is `core` with marks added over some of its letters and nothing else (see the module's
    doc); None otherwise."""
    theirs = word_core(unicodedata.normalize("NFC", second))[1]
    ours = unicodedata.normalize("NFC", core)
    if len(theirs) != len(ours) or theirs == ours:
        return None
    if not all(a == b or (a.isalpha() and _adds_marks(a, b)) for a, b in zip(ours, theirs)):
        return None
    return theirs


@lru_cache(maxsize=8)
def _alphabet(languages: tuple[str, ...]) -> frozenset[str]:
    """Every letter the languages' Tesseract word lists spell with, in both cases."""
    lexicon = load_lexicon(languages)
    if lexicon is None:
        return frozenset()
    letters = {ch for word in lexicon.words.values() for ch in word}
    return frozenset(letters | {ch.upper() for ch in letters})


@lru_cache(maxsize=8)
def _marked_endings(languages: tuple[str, ...]) -> frozenset[str]:
    """Every ending of a word of the languages' Tesseract word lists that starts at a marked letter (`íneo`, `ías`)."""
    lexicon = load_lexicon(languages)
    if lexicon is None:
        return frozenset()
    return frozenset(word[i:] for word in lexicon.words for i, ch in enumerate(word) if len(_nfd(ch)) > 1)


@dataclass(frozen=True)
class Evidence:
    """What decides a word: the spelling dictionaries, Tesseract's word list and the letters the languages write."""

    spelled: Callable[[str], bool]
    lexicon: Lexicon | None
    alphabet: Collection[str]
    endings: Collection[str] = frozenset()

    def known(self, word: str) -> bool:
        return self.spelled(word) or (self.lexicon is not None and word in self.lexicon)


def evidence_for(languages: Sequence[str], spelled: Callable[[str], bool] | None) -> Evidence | None:
    """The page's evidence, or None where its languages have no spelling dictionaries (nothing is then decided)."""
    if spelled is None:
        return None
    return Evidence(spelled, load_lexicon(tuple(languages)), _alphabet(tuple(languages)), _marked_endings(tuple(languages)))


@dataclass(frozen=True)
class Mended:
    """A word with the marks the second reader saw: its text, and whether the dictionaries know it (else it stays unsure)."""

    text: str
    known: bool


def seen_marks(text: str, second: str | None, evidence: Evidence) -> Mended | None:
    """`text` with the marks the second reader saw over its letters, where the module's doc says so; None otherwise."""
    if not second:
        return None
    lead, core, trail = word_core(text)
    if len(core) < MIN_LETTERS or not core.isalpha():
        return None
    marked = marked_reading(core, second)
    if marked is None or any(b not in evidence.alphabet for a, b in zip(core, marked) if a != b) or evidence.spelled(core):
        return None
    known = evidence.known(marked)
    if not known and not (UNKNOWN_TOO and core not in (evidence.lexicon or ()) and _ending_known(core, marked, evidence)):
        return None
    return Mended(lead + marked + trail, known)


def _ending_known(core: str, marked: str, evidence: Evidence) -> bool:
    first = next(i for i, (a, b) in enumerate(zip(core, marked)) if a != b)
    return marked[first:].casefold() in evidence.endings


def take_seen_marks(words: list[Word], evidence: Evidence) -> tuple[list[Word], list[tuple[str, str]]]:
    """`words` with each word mended by `seen_marks`, and each change (as read, as mended)."""
    changes: list[tuple[str, str]] = []
    out = []
    for word in words:
        mended = seen_marks(word.text, word.second, evidence)
        if mended is None:
            out.append(word)
            continue
        changes.append((word.text, mended.text))
        out.append(replace(word, text=mended.text, unsure_mark=word.unsure_mark or not mended.known))
    return out, changes


def seen_marks_note(changes: Sequence[tuple[str, str]]) -> str:
    shown = ", ".join(f"{before} → {after}" for before, after in changes[:12]) + (" …" if len(changes) > 12 else "")
    return f"seen marks: {len(changes)} word(s) no dictionary knows took the marks the second reader saw ({shown})"
