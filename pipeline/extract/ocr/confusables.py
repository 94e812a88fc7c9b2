"""Variants of a read word with one confusable run of its script swapped, and the rule the uncertainty flag judges by them
(`certainty.unsure_reason`, `CertaintyPolicy.confusable_letters` and `confusable_marks`).

OCR reads a shape: where a blurred `l` looks like an `i` (`caiman` read for a printed `calman`), Tesseract and the second
recogniser read the same non-word, confidently. The runs a script's shapes make one another's are script data
(`pipeline/languages/scripts.yaml`, loaded into `Lexicon.confusable`; marks: `Lexicon.confusable_marks`), not a language's
or a sheet's words. A word the spelling dictionaries lack while exactly one of its variants is a word they know is an
unsure reading; it stays as read (a word either dictionary knows is never rewritten here). A word none of whose
variants is known (a name, a term) and one with several known variants (the shape names no one word) are not judged.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence

from pipeline.extract.ocr.lexicon import Lexicon, bare_letters, run_places

CONFUSABLE_LETTERS = "one confusable letter apart from a word"
CONFUSABLE_MARKS = "one diacritic apart from a word"


def confusable_variant(core: str, lexicon: Lexicon, spelled: Callable[[str], bool], *, letters: bool = True, marks: bool = False) -> str | None:
    """Why a word of letters read confidently may be a misread word: the spelling dictionaries (`spelled`) do not know it,
    and exactly one of its variants with one confusable run of its script swapped at one place (`Lexicon.confusable`:
    `caiman` → `calman`) is a word they know (`letters`); or, where the script's data and `marks` ask for it, exactly one
    with a diacritic lost or gained on one letter (`periodo` → `período`). None otherwise: a known word, a word none of
    whose variants is known (a name, a term), or one with several known variants (the shape names no one word)."""
    pairs = lexicon.confusable if letters else ()
    marks = marks and lexicon.confusable_marks
    if not pairs and not marks:
        return None  # no data for the script: its dictionaries are not asked (hunspell-ko knows every word)
    if spelled(core) or spelled(core.casefold()):
        return None
    if pairs and _one_known(swapped_variants(core, pairs), spelled):
        return CONFUSABLE_LETTERS
    if marks and _one_known(marked_variants(core, lexicon.marked_letters), spelled):
        return CONFUSABLE_MARKS
    return None


def _one_known(variants: Sequence[str], spelled: Callable[[str], bool]) -> bool:
    return len({v.casefold() for v in variants if spelled(v)}) == 1


CONFUSABLE_PLACES = 6  # places one confusable run is tried at in a word


def swapped_variants(core: str, pairs: Sequence[tuple[str, str]]) -> list[str]:
    """`core` with one run of `pairs` (read → other) swapped at one place (at most `CONFUSABLE_PLACES` a run), case as
    given: shapes are confused, and a pair's capitals are other shapes (`I` and `l` are a pair, `I` and `L` none, nor
    `M` and `RN`)."""
    found: list[str] = []
    for a, b in pairs:
        found += [core[:start] + b + core[start + len(a):] for start in run_places(core, a, CONFUSABLE_PLACES)]
    return list(dict.fromkeys(v for v in found if v != core))


def marked_variants(core: str, marked_letters: dict[str, tuple[str, ...]]) -> list[str]:
    """`core` with a diacritic lost or gained on one letter: each marked letter bare, each bare one with each mark the
    languages write on it (`marked_letters`: {bare letter: the marked ones}), in the letter's case."""
    found: list[str] = []
    for i, ch in enumerate(core):
        lower = ch.lower()
        bare = bare_letters(lower)
        marked = any(unicodedata.combining(c) for c in unicodedata.normalize("NFD", lower))
        others = [bare] if marked and len(bare) == 1 else []
        others += [m for m in marked_letters.get(bare, ()) if m != lower]
        for other in others:
            found.append(core[:i] + (other.upper() if ch.isupper() else other) + core[i + 1:])
    return list(dict.fromkeys(found))
