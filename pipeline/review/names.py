"""A signature on a decision or a correction: the name an annotator types, as the logs keep it and the pages show it.

A name is who took a decision, read later by people comparing names: two names that look the same must be the
same name. So a name is taken in NFC (`Zo\u0301fia` and `Zófia` are one person), and a name holding a character
that shows nothing or reorders what follows is refused rather than stored: a right-to-left override (U+202E)
makes `Ala\u202e` print the rest of its line backwards wherever it is shown, a zero-width space (U+200B), a soft
hyphen or a word joiner makes `Ala\u200b` a second `Ala`, a line break or another control character splits a
log line or a report. The zero-width joiner and non-joiner (U+200D, U+200C) stay: Persian, Indic names and emoji
are written with them.
"""
from __future__ import annotations

import unicodedata

MAX_NAME = 80
_KEPT_FORMAT = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner: letters' shapes, not hidden text
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def name_problem(name: str) -> str | None:
    """Why `name` (already stripped and in NFC) cannot sign a decision, or None."""
    if not name or len(name) > MAX_NAME:
        return f"is required (1-{MAX_NAME} characters)"
    for at, char in enumerate(name):
        if char not in _KEPT_FORMAT and unicodedata.category(char) in _REFUSED_CATEGORIES:
            what = unicodedata.name(char, "a control or unassigned character").lower()
            return (f"holds U+{ord(char):04X} ({what}) at character {at + 1}: a character that shows nothing or "
                    "reorders the text after it cannot be part of a signature")
    return None


def signed_name(name: str | None) -> tuple[str, str | None]:
    """(the name as it is stored: stripped, NFC; why it cannot sign, or None)."""
    text = unicodedata.normalize("NFC", (name or "").strip())
    return text, name_problem(text)
