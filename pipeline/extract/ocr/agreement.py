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

The second reader cannot disagree about a letter it cannot write. Its alphabet (the recognition model's character
dictionary, `recognisers.Recogniser.alphabet`) holds `ư`, `ơ`, `ù`, `ó`, `ê` but not Vietnamese `ừ`, `ớ`, `ề`, which
stack two marks on one base: where Tesseract's letter is outside that alphabet, the second reader's letter of the
same base with some of its marks (`ù` for `ừ`, `ó` for `ớ`, `ê` for `ề`), or no letter at all there (`nhiu` for
`nhiều`: its model has no character for it), says the letter reads alike as far as it can tell
(`unwritable_marks_lost`). A mark it reads that the letter lacks (`ú` for `ừ`: another tone) is still a
difference; so is any mark lost on a letter it can write (`pornosi` for `pornosı`: it writes `ı`). Off as shipped
(`CertaintyPolicy.unwritable_marks`): the misread Vietnamese questions of the `scripts` set were caught only by such
a right word (`dừng` read `dùng`), and no sign of the misread tone itself was found (docs/results.md).
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache

from pipeline.extract.ocr.lexicon import Lexicon, word_core
from pipeline.extract.ocr.words import Word

SECOND_RECOGNISER = "rapidocr"  # the recogniser that reads unsure words again (`secondread`)
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


# The most words a second reading's stretch may hold to be searched for a run of the line's words (`held_in_stretch`): a
# row of options read as one window holds a few segments' words; a longer stretch (a whole line the two readers cut
# apart otherwise) is judged what it is, a reading that differs, unsearched.
STRETCH_MAX_WORDS = 24


def held_in_stretch(texts: Sequence[str], seconds: Sequence[str | None], i: int) -> bool:
    """Whether the line's word `texts[i]` is read alike inside its second reading, a stretch of more words than the
    line's words that share it (`second_readings` gives each word of a differing stretch the whole stretch): the run of
    the line's words `i` stands in that were given the same stretch reads, word by word and in order, as consecutive
    words of it (`alike`, a space beside a mark aside: `b)tetera` is `b) tetera`), and the stretch's words left over stand only
    before the first or after the last of them. A row of options Tesseract cut into segments and the second reader read
    as one window: `b)tetera`, `c)56`, `salvadores` against `b) tetera c) 56 salvadores d) 78`, whose `d) 78` is the
    next segment's. A word read otherwise, or a word of the stretch between two of the run's (one Tesseract lost),
    leaves the stretch what it was, a reading that differs; so does a stretch of more than `STRETCH_MAX_WORDS` words.
    Each place of the run in the stretch is searched once, so a stretch of marks (`x - x - x`) costs no more than its
    words' count squared times the run's."""
    second = seconds[i]
    if not second or not _core(texts[i]):
        return False
    theirs = second.split()
    if len(theirs) > STRETCH_MAX_WORDS:
        return False
    start = i
    while start > 0 and seconds[start - 1] == second:
        start -= 1
    end = i + 1
    while end < len(texts) and seconds[end] == second:
        end += 1
    ours = [_core(t) for t in texts[start:end] if _core(t)]
    if len(theirs) <= len(ours):
        return False
    joined: dict[tuple[int, int], str] = {}
    searched: dict[tuple[int, int], bool] = {}

    def core_of(begin: int, stop: int) -> str:
        """The core of their words `begin` to `stop` (past the last), a space beside a mark aside; each joined once."""
        if (begin, stop) not in joined:
            joined[begin, stop] = _core(_SPACE_BY_A_MARK.sub("", unicodedata.normalize("NFC", " ".join(theirs[begin:stop]))))
        return joined[begin, stop]

    def runs_from(word: int, at: int) -> bool:
        """Whether `ours[word:]` read word by word as their words from `at` on (each place searched once)."""
        if word == len(ours):
            return True
        if (word, at) not in searched:
            searched[word, at] = any(core_of(at, stop) == ours[word] and runs_from(word + 1, stop)
                                     for stop in range(at + 1, len(theirs) + 1))
        return searched[word, at]
    return any(runs_from(0, begin) for begin in range(len(theirs)))


def known_words(lexicon: Lexicon, spelled: Callable[[str], bool] | None) -> Callable[[str], bool]:
    """Whether the page's language knows a word's core: a one-letter word by the lexicon's (`one_letter_words`), a longer one
    by the spelling dictionaries where it has them, else by the lexicon; in its own case or in small letters."""
    def known(core: str) -> bool:
        if len(core) == 1:
            return core.casefold() in lexicon.one_letter_words
        if not core.isalpha():
            return False
        if spelled is not None:
            return spelled(core) or spelled(core.casefold())
        return core in lexicon or core.casefold() in lexicon
    return known


def settled_space(before: str, after: str, known: Callable[[str], bool]) -> bool:
    """Whether the space between two words of letters is settled by the dictionaries: both are words (`known`) and run
    together they are none (`A los` read `Alos`: the second reader lost the space, `A un` read `Aun` is Tesseract's)."""
    a, b = word_core(before)[1], word_core(after)[1]
    return bool(a) and bool(b) and known(a) and known(b) and not known(a + b)


def _marks_spaced_alike(ours: Sequence[str], theirs: Sequence[str]) -> bool:
    def unspaced(tokens: Sequence[str]) -> str:
        return _SPACE_BY_A_MARK.sub("", unicodedata.normalize("NFC", " ".join(tokens)))
    return len(ours) != len(theirs) and unspaced(ours) == unspaced(theirs)


def contradicts(text: str, second: str, alphabet: Collection[str] | None = None, *, unwritable: bool = False) -> bool:
    """Whether the second reading says the word reads otherwise: it differs (`alike`), the word is more
    than one character (a lone letter or digit, a key's answer or a label, gives the second reader too
    little to read: it drops it or reads the mark beside it), and the second reading is not merely the word
    with some of its accents lost (`zatažovatel` for `zaťažovateľ`, `pod'` for `poď`: the second reader's
    model knows those letters but reads them seldom). In those cases Tesseract's other evidence judges it.
    An accent the second reader reads where Tesseract has none, or another one, is a contradiction. Nor is a
    second reading that only lacks marks of letters outside the second reader's `alphabet` (None: its own,
    `second_alphabet`; see the module's doc) where `unwritable` is on (`CertaintyPolicy.unwritable_marks`, off as
    shipped)."""
    if len(_core(text)) <= 1 or alike(text, second):
        return False
    ours, theirs = _core(text), _core(second)
    if _accents_lost(ours, theirs):
        return False
    return not (unwritable and bool(theirs) and unwritable_marks_lost(ours, theirs, alphabet))


def unwritable_marks_lost(ours: str, theirs: str, alphabet: Collection[str] | None = None) -> bool:
    """Whether `theirs` is `ours` but for letters the second reader cannot write (outside `alphabet`; None: its
    own), each read as its base letter with fewer of its marks (`sùng` for `sừng`, `nhiêu` for `nhiều`) or not read
    at all (`nhiu`: its model has no character for it, and writes none). A letter it can write must read as it is,
    and a mark the letter lacks is a difference."""
    if ours == theirs or len(theirs) > len(ours):
        return False
    asked: list[Collection[str]] = []  # the alphabet, asked for once a letter needs it (empty: none known)

    def lacks(letter: str) -> bool:
        if not asked:
            asked.append((second_alphabet() if alphabet is None else alphabet) or frozenset())
        return bool(asked[0]) and letter not in asked[0]  # no alphabet known: no letter is taken for unwritable

    @lru_cache(maxsize=None)
    def rest_agrees(i: int, j: int) -> bool:
        if i == len(ours):
            return j == len(theirs)
        if j < len(theirs) and ours[i] == theirs[j] and rest_agrees(i + 1, j + 1):
            return True
        if not unicodedata.combining(ours[i]) and ours[i].isalpha() and lacks(ours[i]):
            if j < len(theirs) and _fewer_marks(ours[i], theirs[j]) and rest_agrees(i + 1, j + 1):
                return True
            return rest_agrees(i + 1, j)
        return False

    return rest_agrees(0, 0)


def _fewer_marks(letter: str, read: str) -> bool:
    """Whether `read` is `letter`'s base letter with a part of its combining marks, in order (`ù` of `ừ`)."""
    ours, theirs = unicodedata.normalize("NFD", letter), unicodedata.normalize("NFD", read)
    if not ours or not theirs or ours[0] != theirs[0] or len(theirs) >= len(ours):
        return False
    marks = iter(ours[1:])
    return all(mark in marks for mark in theirs[1:])


@lru_cache(maxsize=1)
def second_alphabet() -> frozenset[str] | None:
    """The characters the second recogniser can write (its recognition model's character dictionary); None where it
    is not installed or does not say. Asked only when a reading lacks a mark, so a page read from the cache
    starts no model otherwise."""
    from pipeline.extract.ocr.recognisers import RECOGNISERS

    recogniser = RECOGNISERS[SECOND_RECOGNISER]
    return None if recogniser.unavailable() else recogniser.alphabet()


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
