"""Words written as alternatives, `a/b` (`sonet/znelka`, `3/tri`, `interview/Interview/interviu`), weighed alternative
by alternative: what the second recogniser (`secondread`) asks of such a token.

A short answer's key, a form's `áno/nie`, a prose `veľkých/malých` join words with a slash and no space; Tesseract reads
such a token as one word. Asked of the whole token, a spelling dictionary knows none of them (it lists words, not
pairs), so every such token counted as unsure, was read again at the cost of the page's budget, and a second reading of
it, right or wrong, could never be taken (`_better` takes only a reading the dictionary knows). Here:

- `known_alternatives`: a token whose slash parts are each a known word, a number or punctuation (an empty part: a
  slash ending a wrapped line, `predmet/`) is known, as each of its words would be alone;
- `alternatives_reading`: of two readings of a token with as many alternatives, each alternative that differs is taken
  from the second reading where the dictionary knows the second's and not Tesseract's (`soneť` → `sonet`, `lnterview` →
  `Interview`, `Šš` → `3`), and kept as Tesseract read it otherwise: an alternative both read alike is never
  rewritten, nor an empty one (a slash ending a wrapped line), nor one the dictionary knows (`začať` stays against
  the second reader's `začat`: its model drops a caron now and then), nor one of two letters or fewer, which no
  dictionary judges (`ťa` and `ta` are both listed), unless Tesseract was unsure and the second reads a number there.
  None where nothing changes;
- `same_alternatives`: a second reading that lost or added a slash (`ti/ta/ty` against `tťťa/ty`) is not taken whole
  (`secondread._better`): its alternatives cannot be weighed one by one.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.extract.ocr.lexicon import word_core

SLASH = "/"
SHORT_LETTERS = 2  # an alternative of this many letters or fewer: no dictionary decides it (`alternatives_reading`)
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")


def alternatives(core: str) -> list[str] | None:
    """The alternatives of a token's core (`word_core`), each cut to its own core; None for a token without a slash
    between signs (a lone `/`, `(/)`: punctuation)."""
    if SLASH not in core or not core.strip(SLASH):
        return None
    return [word_core(part)[1] for part in core.split(SLASH)]


def known_alternatives(core: str, known_word: Callable[[str], bool]) -> bool | None:
    """Whether every alternative of `core` is known (`known_word`: a word or number without a slash; an empty part,
    punctuation only, is); None for a core without alternatives."""
    parts = alternatives(core)
    if parts is None:
        return None
    return all(not part or known_word(part) for part in parts)


def same_alternatives(ours: str, theirs: str) -> bool:
    """Whether two readings hold as many slashes: one that lost or added an alternative (`tťťa/ty` against `ti/ta/ty`)
    cannot be weighed alternative by alternative, and is not taken whole either."""
    return ours.count(SLASH) == theirs.count(SLASH)


def alternatives_reading(ours: str, theirs: str, known_word: Callable[[str], bool], unsure: bool = False) -> str | None:
    """`ours` with each of its alternatives that the dictionary does not know, and `theirs` (the second reading) knows
    at the same place, taken from `theirs` (the module's doc); None where the two do not part into as many
    alternatives, or nothing is taken. An alternative of up to `SHORT_LETTERS` letters is judged by no dictionary
    (they list single letters and pairs: `š`, `ta` beside `ťa`): it is taken only where `theirs` reads a number there and
    Tesseract was `unsure` of the word (`Šš/tri` read at confidence 0, `3/tri` printed)."""
    lead, core, trail = word_core(ours)
    their_core = word_core(theirs)[1]
    if alternatives(core) is None or alternatives(their_core) is None:
        return None
    mine, others = core.split(SLASH), their_core.split(SLASH)
    if len(mine) != len(others):
        return None

    def weighs(word: str) -> bool:
        """the dictionary knows the alternative, and it is long enough for that to say something (or a number)"""
        if word.isalpha() and len(word) <= SHORT_LETTERS:
            return False
        return known_word(word)

    taken = []
    for part, other in zip(mine, others):
        bare, their_bare = word_core(part)[1], word_core(other)[1]
        if bare and their_bare and bare != their_bare and not weighs(bare) and weighs(their_bare):
            short = bare.isalpha() and len(bare) <= SHORT_LETTERS
            if not short or unsure and _NUMBER.match(their_bare):
                part = other
        taken.append(part)
    reading = lead + SLASH.join(taken) + trail
    return reading if reading != ours else None
