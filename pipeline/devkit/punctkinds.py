"""Punctuation read otherwise than printed, by class: what `misreads` and `punctscans` tabulate.

A printed stretch and the same stretch as read are aligned character by character; each differing piece that
holds a punctuation mark on either side counts once, in the first class that fits:
- `comma→period`, `period→comma`: a comma read as a full stop, or the other way;
- `colon↔semicolon`: one read as the other; `colon/semicolon halved`: either read as a comma or a full stop
  (one dot of the pair lost or its tail taken for the other mark);
- `period lost`, `period added`, `comma lost`, `comma added`: a mark with no mark in its place;
- `quote style`: a quotation mark or apostrophe read as another (`”` as `"`: one mark to a reader, `misreadkinds.as_read`);
  `quote`: one lost or added; `quote↔comma`: a low quotation mark read as a comma or full stop, or back;
- `dash style`: a dash read as another (`–` as `-`: one mark to a reader); `dash`: one lost or added;
- `bracket`: round, square and curly brackets;
- `?/7`: a question mark read as `7` (or back); `!/l/1`: an exclamation mark read as `l`, `1`, `I`, `|` or `i`;
- `spacing`: the same marks, with a space put in or taken out beside one (a mark glued to the next word or
  split off its own: `Civil,tendo`, `hory ,`);
- `other`: any other difference that holds a mark (`;` read `i`, a mark read as letters, marks added in a word).
Differences of letters and digits alone are not punctuation and are not counted here.
"""
from __future__ import annotations

import difflib
import unicodedata
from collections import Counter

CLASSES = ("comma→period", "period→comma", "colon↔semicolon", "colon/semicolon halved", "period lost", "period added",
           "comma lost", "comma added", "quote style", "quote", "quote↔comma", "dash style", "dash", "bracket", "?/7", "!/l/1", "spacing", "other")
QUOTES = frozenset("\"'„“”«»‘’‚‹›´`")
DASHES = frozenset("-‐‑‒–—―−")
BRACKETS = frozenset("()[]{}")
_BANG_LOOKALIKES = frozenset("l1I|i")


def is_mark(ch: str) -> bool:
    """Whether `ch` is a punctuation mark (Unicode category P*)."""
    return unicodedata.category(ch).startswith("P")


def classify_piece(printed: str, read: str) -> str | None:
    """The class (`CLASSES`) of one differing piece: `printed` replaced by `read` (either may be empty); None when
    neither side holds a mark."""
    if not any(is_mark(ch) for ch in printed + read):
        return None
    a, b = printed.replace(" ", ""), read.replace(" ", "")
    if a == b:
        return "spacing"
    pair = (a, b)
    if pair == (",", "."):
        return "comma→period"
    if pair == (".", ","):
        return "period→comma"
    if pair in ((":", ";"), (";", ":")):
        return "colon↔semicolon"
    if a in (":", ";") and b in (",", ".", ""):
        return "colon/semicolon halved" if b else "other"
    if pair == (".", ""):
        return "period lost"
    if pair == ("", "."):
        return "period added"
    if pair == (",", ""):
        return "comma lost"
    if pair == ("", ","):
        return "comma added"
    if a and b and all(ch in QUOTES for ch in a + b):
        return "quote style"
    if (a or b) and all(ch in QUOTES for ch in a + b):
        return "quote"
    if {a, b} & {",", "."} and {a, b} & QUOTES:
        return "quote↔comma"
    if a and b and all(ch in DASHES for ch in a + b):
        return "dash style"
    if (a or b) and all(ch in DASHES for ch in a + b):
        return "dash"
    if (a or b) and all(ch in BRACKETS for ch in a + b):
        return "bracket"
    if pair in (("?", "7"), ("7", "?")):
        return "?/7"
    if (a == "!" and b in _BANG_LOOKALIKES) or (b == "!" and a in _BANG_LOOKALIKES):
        return "!/l/1"
    return "other"


def classify(printed: str, read: str) -> Counter[str]:
    """The punctuation differences between `printed` and `read` (stretches of text), by class."""
    found: Counter[str] = Counter()
    matcher = difflib.SequenceMatcher(None, printed, read, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        a, b = printed[i1:i2], read[j1:j2]
        if not (a + b).strip():  # a space put in or taken out: punctuation's when a mark stands beside it
            beside = printed[max(i1 - 1, 0):i2 + 1] + read[max(j1 - 1, 0):j2 + 1]
            kind: str | None = "spacing" if any(is_mark(ch) for ch in beside) else None
        else:
            kind = classify_piece(a, b)
        if kind is not None:
            found[kind] += 1
    return found


def classify_words(printed: list[str], read: list[str]) -> Counter[str]:
    """`classify` over word lists: aligned word by word first, each differing run then character by character, so
    that a long page aligns quickly and a difference is counted where it is."""
    found: Counter[str] = Counter()
    matcher = difflib.SequenceMatcher(None, printed, read, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "equal":
            found.update(classify(" ".join(printed[i1:i2]), " ".join(read[j1:j2])))
    return found


def table_row(found: Counter[str]) -> str:
    """The classes that occur, `name n` each, most first; `–` for none."""
    return ", ".join(f"{name} {count}" for name, count in found.most_common()) or "–"
