"""Spec patterns (`layout.drop_pages`, `layout.drop_lines`) matched on OCR'd text with room for
Tesseract's misreadings: a rule written against the text layer ("INSTRUCCIONES GENERALES") must still
find "INSTRUCCI0NES GENERA1ES" on a scan, or an instruction page is parsed as questions.

On OCR'd text a pattern that does not match as written is tried again allowing one edit (a
substitution, insertion or deletion) per `LETTERS_PER_ERROR` of its literal characters, with the
`regex` module's fuzzy matching (best match). Patterns with fewer literal characters than that are
only matched exactly: "Strona \\d+" with one error would match far too much. Text-layer pages are
always matched exactly.
"""
from __future__ import annotations

import re
from functools import lru_cache

import regex

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
    return regex.compile(f"(?:{pattern}){{e<={errors}}}", flags=regex.MULTILINE | regex.BESTMATCH)


def search_rule(pattern: str, text: str, *, ocr: bool) -> tuple[bool, int]:
    """(whether `pattern` is found in `text`, the edits it needed: 0 when found as written)."""
    if re.search(pattern, text, flags=re.MULTILINE):
        return True, 0
    errors = allowed_errors(pattern) if ocr else 0
    if not errors:
        return False, 0
    found = _fuzzy(pattern, errors).search(text)
    return (True, sum(found.fuzzy_counts)) if found else (False, 0)
