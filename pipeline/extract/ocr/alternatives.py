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
  rewritten, nor an empty one (a slash ending a wrapped line), nor one the dictionary knows (`ťa` stays against the second reader's `ta`: its model drops a caron now
  and then). None where nothing changes.
"""
from __future__ import annotations

from collections.abc import Callable

from pipeline.extract.ocr.lexicon import word_core

SLASH = "/"


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


def alternatives_reading(ours: str, theirs: str, known_word: Callable[[str], bool]) -> str | None:
    """`ours` with each of its alternatives that the dictionary does not know, and `theirs` (the second reading) knows
    at the same place, taken from `theirs` (the module's doc); None where the two do not part into as many
    alternatives, or nothing is taken."""
    lead, core, trail = word_core(ours)
    their_core = word_core(theirs)[1]
    if alternatives(core) is None or alternatives(their_core) is None:
        return None
    mine, others = core.split(SLASH), their_core.split(SLASH)
    if len(mine) != len(others):
        return None
    taken = []
    for part, other in zip(mine, others):
        bare, their_bare = word_core(part)[1], word_core(other)[1]
        if bare and their_bare and bare != their_bare and not known_word(bare) and known_word(their_bare):
            part = other
        taken.append(part)
    reading = lead + SLASH.join(taken) + trail
    return reading if reading != ours else None
