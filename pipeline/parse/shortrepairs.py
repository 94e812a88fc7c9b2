"""Short-answer key entries read by OCR, mended where the language's dictionary decides between two readings of a
sign: the `Point.KEY_TEXT` passes (`slash-alternatives`).

A key writes alternatives with a slash (`4/štyri`, `hyperbola/balada`); on a blurred scan Tesseract reads the slash,
a tall thin stroke, as a letter of that shape (`4lštyri`, `hyperbolalbalada`). A word the dictionary does not know
that, with one such letter read as the slash, parts into words it knows (or numbers), each of at least
`MIN_PART_LETTERS` letters, and in exactly one way, is the two alternatives. A word either reading leaves unknown, or
that parts in two ways, stays as read (and is flagged, `shortentries`); a mended entry keeps its reading as read in
`KeyTable.repaired`, and its question is flagged all the same: the dictionary chose, no second reading confirmed it.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from pipeline.parse.keys import KeyTable
from pipeline.parse.recovery import Point, Recovery, recovery_pass
from pipeline.parse.stream import plain_text

SLASH_SHAPES = "lI1|!f"  # letters and signs a slash is read as: one tall thin stroke
MIN_PART_LETTERS = 3  # a word an alternative is, at least (`k`, `sa` stand glued to the next word as often)
_NUMBER = re.compile(r"^\d+(?:[.,]\d+)?$")


@dataclass(frozen=True)
class KeyTextWork:
    """A short-answer key entry's text as read, the language's dictionary (None: it has none), and the words a pass
    mended (as read)."""

    text: str
    spelled: Callable[[str], bool] | None
    mended: tuple[str, ...] = ()


def _known(word: str, spelled: Callable[[str], bool]) -> bool:
    if _NUMBER.match(word):
        return True
    return word.isalpha() and len(word) >= MIN_PART_LETTERS and any(spelled(w) for w in (word, word.lower()))


def slash_reading(token: str, spelled: Callable[[str], bool]) -> str | None:
    """`token` with the one stroke that parts it into two known words read as a slash, or None (the module's doc)."""
    if _known(token, spelled) or not any(ch.isalpha() for ch in token) or any(spelled(w) for w in (token, token.lower())):
        return None
    found = [f"{token[:i]}/{token[i + 1:]}" for i, ch in enumerate(token)
             if ch in SLASH_SHAPES and 0 < i < len(token) - 1 and _known(token[:i], spelled) and _known(token[i + 1:], spelled)]
    return found[0] if len(found) == 1 else None


def _has_dictionary(work: KeyTextWork) -> bool:
    """the sheet's language has a spelling dictionary"""
    return work.spelled is not None


@recovery_pass("slash-alternatives", "1", Point.KEY_TEXT, _has_dictionary)
def slash_alternatives(work: KeyTextWork, passes: Recovery) -> KeyTextWork:
    """A slash between two alternatives read as a letter of its shape (`4lštyri`, `hyperbolalbalada`) read as the
    slash, where the dictionary knows both halves and not the word as read, and only one stroke parts it so
    (`shortrepairs`)."""
    assert work.spelled is not None
    words, mended = [], list(work.mended)
    for token in work.text.split(" "):
        parts = token.split("/")
        fixed = [slash_reading(p, work.spelled) or p for p in parts]
        if fixed != parts:
            mended.append(token)
        words.append("/".join(fixed))
    return replace(work, text=" ".join(words), mended=tuple(mended)) if mended != list(work.mended) else work


def mend_short_entries(table: KeyTable, labels: Iterable[str], spelled: Callable[[str], bool] | None, all_ocr: bool,
                       recovery: Recovery | None = None) -> None:
    """Each short-answer entry of `table` read by OCR (an entry that is no option label, read from OCR'd lines, or
    any entry where `all_ocr`) after the `Point.KEY_TEXT` passes; what they mend is kept in `table.repaired`."""
    label_set = {label.casefold() for label in labels}
    for number, answer in list(table.answers.items()):
        lines = table.sources.get(number)
        if plain_text(answer)[0].strip().casefold() in label_set:
            continue
        if lines is None and not all_ocr or lines is not None and not any(sl.ocr for sl in lines):
            continue
        done = (recovery or Recovery.every()).run(Point.KEY_TEXT, KeyTextWork(answer, spelled))
        if done.mended:
            table.answers[number] = done.text
            table.repaired[number] = list(done.mended)
