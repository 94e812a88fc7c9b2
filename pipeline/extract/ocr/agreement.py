"""The two recognisers' agreement as evidence of how sure a word is.

Where the second recogniser (`secondread`) read a window of a line again, each of Tesseract's words in
the window keeps what the second reader read at its place (`Word.second`, then `ReadWord.second` in the
cached reading); a word the combine step took from the second reading (the dictionary chose it) keeps its
own text there, for it is what the second reader read. Nothing is rewritten here: the evidence is only
kept, and judged when the page is laid out (`certainty.unsure_reason`), like Tesseract's confidence:

- both engines read the word alike: it is sure, even at a low Tesseract confidence or unknown to the
  lexicon (two recognisers of different design seldom make the same error);
- they read it differently and the combine step did not settle it by the dictionary: it is unsure,
  however confident Tesseract was (`mombre` that the second reader reads `nombre`).

"Alike" compares the words' letters and digits (`word_core`) exactly after Unicode NFC: a capital for a
small letter, or a letter without its accent, is a difference a reader of the text sees (`Índice` for
`índice`), and the second reader is only run for a language whose every letter is in its alphabet
(`secondread.readiness`). Punctuation around a word is not compared: the two place commas and periods
differently at low resolution more often than either misses one, and parse cuts labels' marks off.

A word the second reader did not read (no window held it, or the language has no second reader: Greek,
Hangul, Cyrillic) has no such evidence (`second` is None) and is judged by the other rules alone.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Sequence

from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.words import Word

NOTHING_READ = ""  # `second` of a word the second reader read nothing at, in a window it read
# A space beside a mark (`b) cantó` against `b)cantó`, `84 .`) is no difference of words: parse cuts a
# label off at its mark either way. A space between two letters or digits is (`sa k` against `sak`).
_SPACE_BY_A_MARK = re.compile(r"(?<=[^\w\s])\s+|\s+(?=[^\w\s])")


def _core(token: str) -> str:
    return word_core(unicodedata.normalize("NFC", token))[1]


def alike(text: str, second: str) -> bool:
    """Whether the two readings of a word say the same (see the module's doc)."""
    return _core(text) == _core(second)


def second_readings(tesseract: Sequence[str], second: Sequence[str]) -> list[str | None]:
    """For each of Tesseract's words of a window, what the second reader read at its place, aligned word
    by word: the aligned word where the two agree on how many words stand there, the whole differing
    stretch joined by spaces where they do not (`sak` against `sa k`: the space is what differs), and
    NOTHING_READ where the second reader read no word there (None for punctuation it left out)."""
    found: list[str | None] = [None] * len(tesseract)
    matcher = difflib.SequenceMatcher(None, [_core(t) for t in tesseract], [_core(t) for t in second], autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "insert":
            continue
        if op == "delete":
            for i in range(i1, i2):
                found[i] = NOTHING_READ if _core(tesseract[i]) else None
            continue
        theirs = list(second[j1:j2])
        cores = [t for t in theirs if _core(t)]
        if _marks_spaced_alike(tesseract[i1:i2], theirs):
            found[i1:i2] = tesseract[i1:i2]
        elif i2 - i1 == j2 - j1:
            found[i1:i2] = theirs
        elif i2 - i1 == len(cores):  # only punctuation the other split off stands between them (`84 .` / `84.`)
            found[i1:i2] = cores
        else:
            found[i1:i2] = [" ".join(theirs)] * (i2 - i1)
    return found


def _marks_spaced_alike(ours: Sequence[str], theirs: Sequence[str]) -> bool:
    def unspaced(tokens: Sequence[str]) -> str:
        return _SPACE_BY_A_MARK.sub("", unicodedata.normalize("NFC", " ".join(tokens)))
    return len(ours) != len(theirs) and unspaced(ours) == unspaced(theirs)


def contradicts(text: str, second: str) -> bool:
    """Whether the second reading says the word reads otherwise: it differs (`alike`), the word is more
    than one character (a lone letter or digit, a key's answer or a label, gives the second reader too
    little to read: it drops it or reads the mark beside it), and the second reading is not merely the word
    with some of its accents lost (`zatažovatel` for `zaťažovateľ`, `pod'` for `poď`: the second reader's
    model knows those letters but reads them seldom). In those cases Tesseract's other evidence judges it.
    An accent the second reader reads where Tesseract has none, or another one, is a contradiction."""
    return len(_core(text)) > 1 and not alike(text, second) and not _accents_lost(_core(text), _core(second))


def _base(ch: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))


def _accents_lost(ours: str, theirs: str) -> bool:
    """Whether `theirs` is `ours` with the accents (combining marks) of some of its letters left off."""
    return len(ours) == len(theirs) and all(a == b or b == _base(a) for a, b in zip(ours, theirs))


def keep_second_readings(members: Sequence[Word], second: Sequence[str]) -> None:
    """Mark each of a window's Tesseract words with what the second reader read at its place (before the
    readings are combined: a word combine keeps keeps its mark; one it makes anew is marked after)."""
    for word, reading in zip(members, second_readings([w.text for w in members], second)):
        word.second = reading


def mark_settled(members: Sequence[Word], combined: Sequence[Word], known: Callable[[str], bool]) -> None:
    """After the combine step: a word it put in from the second reading (the dictionary chose it, or a
    word only the second reader saw) has the second reading's own text; a word of Tesseract's it kept
    because the language's dictionary knows it and not the other reading (`ľúbosť` against `lúbost`: the
    second reader drops a caron now and then) is settled by the dictionary, and carries no second reading,
    so the other evidence judges it. A word both readings of which the dictionary knows, or neither,
    keeps the contradiction."""
    kept = {id(w) for w in members}
    for word in combined:
        if id(word) not in kept:
            word.second = word.text
        elif word.second is not None and contradicts(word.text, word.second) and word.second.strip() and known(word.text) \
                and not all(known(t) for t in word.second.split()):
            word.second = None
