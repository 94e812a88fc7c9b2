"""The scripts a language's pages print beside their own.

A Greek page prints Latin too: units after a number (`78,19 cm`, `kg`, `m/s`), a test's code in a key's header
(`Test 26 4127`), and Arabic digits in every table. Tesseract's Greek model alone reads the Latin as Greek
look-alikes (`cm` as `επῃ`, `kg` as `κο`), loses the header (so no table is found under it) and reads a table's
digits worse than the Latin model does (a clear `6` read `0` at 72, where `eng` reads it at 97). Which script a
language's pages mix in is language data (`codes.companions`), not a rule here. The page is still read by its own
model alone: given `ell+eng` for the whole page, Tesseract took Latin for Greek glyphs (`Α.` read `A.`, `γ` `y`);
number cells are read with both (`cellreads.read_digits`), and the words the page's model was unsure of are read
again with the companion alone (`companionwords`, pass `companion-words`).
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from pipeline.languages import language_for_tesseract


@lru_cache(maxsize=64)
def _reading(languages: tuple[str, ...], installed: frozenset[str] | None) -> tuple[str, ...]:
    found = list(languages)
    for name in languages:
        language = language_for_tesseract(name)
        for companion in language.codes.companions if language is not None else ():
            if companion not in found and (installed is None or companion in installed):
                found.append(companion)
    return tuple(found)


def reading_languages(languages: Iterable[str], installed: frozenset[str] | None = None) -> tuple[str, ...]:
    """What Tesseract is given for `languages`: each of them, then the companion scripts their language data lists
    (`codes.companions`) that are not among them, in order; with `installed`, only companions installed there (a
    machine without `eng` reads as before rather than failing)."""
    return _reading(tuple(languages), installed)
