"""Full-width forms, folded where text is compared and never where it is stored.

Japanese, Chinese and Korean sheets print digits, Latin letters and marks in full-width forms as often as in
ASCII (`問１`, `１．`, `（２）`, `Ａ．`, `＝`), and the ideographic space between them. A spec's pattern, an option
label and a question number compare through `fold_width`: every character of the Halfwidth and Fullwidth Forms
block (and U+3000) whose compatibility form (NFKC) is one character, as that character (`１` → `1`, `．` → `.`,
`Ａ` → `A`, `　` → space, half-width `ｱ` → `ア`). One character for one, so a position in the folded text is the
same position in the printed one: a match found on the folded text is sliced from the printed text, which is what
records keep. Other compatibility forms (circled digits `①`, ligatures, superscripts) are left alone: they are
labels or text in their own right.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache


def _width_table() -> dict[int, str]:
    table = {}
    for code in (0x3000, *range(0xFF01, 0xFFEF)):
        plain = unicodedata.normalize("NFKC", chr(code))
        if len(plain) == 1 and plain != chr(code):
            table[code] = plain
    return table


WIDTH_TABLE = _width_table()
_WIDE = re.compile("[\u3000\uff01-\uffee]")


def has_wide(text: str) -> bool:
    """Whether `text` holds a character `fold_width` changes (one C scan; ASCII text at once)."""
    return not text.isascii() and _WIDE.search(text) is not None


def fold_width(text: str) -> str:
    """`text` with its full-width forms as their plain characters, one for one; `text` itself (the same object)
    when it holds none, so a caller can tell with `is` that nothing changed. Every spec pattern asks it of every
    line it is matched on: ASCII text is answered at once, a line's worth of other text kept (a scan of a Polish
    line for wide forms costs several times the lookup)."""
    if text.isascii():
        return text
    if len(text) > KEPT_TO:
        return text.translate(WIDTH_TABLE) if _WIDE.search(text) else text
    return _fold_line(text)


KEPT_TO = 1024  # characters: longer texts (a page's, a document's) are asked once and never kept


@lru_cache(maxsize=32768)
def _fold_line(text: str) -> str:
    return text.translate(WIDTH_TABLE) if _WIDE.search(text) else text


# Each ASCII character's full-width form (`A` → `Ａ`, `.` → `．`), for rules built from a spec's plain characters.
WIDE_FORMS = {plain: chr(code) for code, plain in WIDTH_TABLE.items() if plain.isascii() and plain != " "}


def wide_form(text: str) -> str:
    """`text` with each ASCII character that has a full-width form in it (`A.` → `Ａ．`)."""
    return "".join(WIDE_FORMS.get(ch, ch) for ch in text)


def either_width(text: str) -> str:
    """A regular expression matching `text` printed with any of its characters plain or full-width (`A.` finds
    `A.`, `Ａ．` and `A．`)."""
    return "".join(f"[{re.escape(ch)}{WIDE_FORMS[ch]}]" if ch in WIDE_FORMS else re.escape(ch) for ch in text)


def plain_number(number: str) -> str:
    """A printed question number as records hold it: its compatibility forms as their plain characters (NFKC: the
    full-width `１`, the superscript `¹` and the circled `①` are `1`) and every decimal digit of any script as its
    ASCII digit (`١` is `1`). A number is an identity, not text: sheet and key, ids and truth files compare it, and
    a record's id reads its number in this same form (`records.question_id`), so two numbers one id would merge are
    one number to the numbering (a repeat, flagged), never two questions that overwrite each other."""
    if number.isascii():
        return number
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() else ch for ch in unicodedata.normalize("NFKC", number))


_SPECIAL = frozenset("\\.^$*+?{}[]()|-#&~ \t\n\r\v\f")


def fold_pattern(pattern: str) -> str:
    """A regular expression matching on folded text what `pattern` matches on printed text: each full-width
    character of the pattern (always a literal: no syntax is full-width) as its plain form, escaped where that
    form is syntax (`（` → `\\(`, `．` → `\\.`, `＋` → `\\+`), so `^第１問` and `^第1問` read alike."""
    if not has_wide(pattern):
        return pattern
    out = []
    escaped = False  # the character before was an escaping backslash: `\．` is already a literal
    for ch in pattern:
        plain = WIDTH_TABLE.get(ord(ch))
        if plain is None:
            out.append(ch)
            escaped = ch == "\\" and not escaped
            continue
        if escaped and plain.isalnum():  # `\Ａ` is the letter, `\A` would be an anchor
            out.pop()
        out.append("\\" + plain if plain in _SPECIAL and not escaped else plain)
        escaped = False
    return "".join(out)


__all__ = ["WIDE_FORMS", "WIDTH_TABLE", "either_width", "fold_pattern", "fold_width", "has_wide", "plain_number", "wide_form"]
