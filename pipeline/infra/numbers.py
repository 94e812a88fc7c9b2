"""Numbers read from text that someone else wrote (HTTP headers, query parameters): ASCII digits only.

`int()` and `float()` take far more than a wire format allows: other scripts' decimal digits
(`int('١٢') == 12`), underscores (`int('1_000')`), signs and surrounding whitespace, and they raise
for more than 4300 digits. `str.isdecimal()` alone is no guard either: it says yes to Arabic-Indic
digits and to a 5000-digit string. Every boundary reads its numbers here instead.
"""
from __future__ import annotations

_ASCII_DIGITS = frozenset("0123456789")


def ascii_int(text: str | None, *, max_digits: int = 18, strip: str = " \t") -> int | None:
    """`text` as a non-negative integer when it is 1 to `max_digits` ASCII digits (after removing
    `strip` characters at both ends), else None: no sign, no underscore, no other script's digits."""
    if text is None:
        return None
    text = text.strip(strip)
    if not 0 < len(text) <= max_digits or not _ASCII_DIGITS.issuperset(text):
        return None
    return int(text)


__all__ = ["ascii_int"]
