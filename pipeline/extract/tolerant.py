"""Spec patterns (`layout.drop_pages`, `layout.drop_lines`) matched on OCR'd text with room for
Tesseract's misreadings: a rule written against the text layer ("INSTRUCCIONES GENERALES") must still
find "INSTRUCCI0NES GENERA1ES" on a scan, or an instruction page is parsed as questions.

On OCR'd text a pattern that does not match as written is tried again allowing one edit (a
substitution, insertion or deletion) per `LETTERS_PER_ERROR` of its literal characters, with the
`regex` module's fuzzy matching (best match). Patterns with fewer literal characters than that are
only matched exactly: "Strona \\d+" with one error would match far too much. Text-layer pages are
always matched exactly.

Running heads and feet repeat on every page, and the text path drops them as lines repeated at one
place. On scans Tesseract reads such a line a little differently on each page ("Maturita 2023 |
mizrcový i2rimín", "… m2zrcový i2rimín"), so `repeated_despite_misreadings` finds them by likeness.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import lru_cache

import regex

from pipeline.extract.document import Line
from pipeline.patterns import PatternTimeout, match_timeout, spec_pattern
from pipeline.widths import fold_pattern, fold_width

# One misread character per this many literal characters of a pattern: "INSTRUCCIONES GENERALES" may
# lose two characters, while "Hoja de respuestas" still does not match "Hoja de preguntas" (six edits).
LETTERS_PER_ERROR = 8
_SYNTAX = re.compile(r"\(\?[a-zA-Z]+\)|\(\?[a-zA-Z]*[:=!<]+|\\[dDsSwWbB]|\\.|\[[^\]]*\]|\{[^}]*\}|[()?*+|^$.]")


def allowed_errors(pattern: str) -> int:
    """How many edits an OCR'd text may need to match `pattern`: its literal characters (what is left
    without classes, escapes and operators) over LETTERS_PER_ERROR."""
    literal = _SYNTAX.sub("", pattern)
    return len(literal.strip()) // LETTERS_PER_ERROR


@lru_cache(maxsize=512)
def _fuzzy(pattern: str, errors: int) -> regex.Pattern:
    """The fuzzy form of a spec pattern, its full-width characters folded as `SpecPattern` folds them: it is
    searched on folded text, as the exact one is."""
    return regex.compile(f"(?:{fold_pattern(pattern)}){{e<={errors}}}", flags=regex.MULTILINE | regex.BESTMATCH)


def search_rule(pattern: str, text: str, *, ocr: bool) -> tuple[bool, int]:
    """(whether `pattern` is found in `text`, the edits it needed: 0 when found as written)."""
    if spec_pattern(pattern, re.MULTILINE).search(text):
        return True, 0
    errors = allowed_errors(pattern) if ocr else 0
    if not errors:
        return False, 0
    seconds = match_timeout()
    try:
        found = _fuzzy(pattern, errors).search(fold_width(text), timeout=seconds)
    except TimeoutError:
        raise PatternTimeout(f"{pattern} (allowing {errors} OCR misreading(s))", text, seconds) from None
    return (True, sum(found.fuzzy_counts)) if found else (False, 0)


# A margin line with fewer letters is alike another by chance (a key's rows "41 B D", "42 B C").
FURNITURE_MIN_LETTERS = 12
# difflib's ratio, digits masked, of two readings of one running head: a bold head read at 0.87-0.97.
FURNITURE_LIKENESS = 0.8


def _likeness_text(text: str) -> str:
    return re.sub(r"\d", "#", " ".join(text.replace("*", "").split()))


def repeated_despite_misreadings(margin_lines: Sequence[Sequence[Line]], pages_needed: int) -> set[int]:
    """ids of the OCR'd lines, one list per page, that recur on at least `pages_needed` pages (their
    own counted) at about the same height (within a line's height) and read alike (FURNITURE_LIKENESS)."""
    entries = [
        (page, line, _likeness_text(line.text))
        for page, lines in enumerate(margin_lines)
        for line in lines
        if sum(ch.isalpha() for ch in line.text) >= FURNITURE_MIN_LETTERS
    ]
    found: set[int] = set()
    for page, line, text in entries:
        pages_alike = {page}
        for other_page, other, other_text in entries:
            if other_page in pages_alike:
                continue
            if abs(other.top - line.top) > max(line.bottom - line.top, other.bottom - other.top):
                continue
            match = SequenceMatcher(None, text, other_text, autojunk=False)
            if match.real_quick_ratio() >= FURNITURE_LIKENESS and match.quick_ratio() >= FURNITURE_LIKENESS and match.ratio() >= FURNITURE_LIKENESS:
                pages_alike.add(other_page)
        if len(pages_alike) >= pages_needed:
            found.add(id(line))
    return found
