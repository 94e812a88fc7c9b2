"""Cloze items (`layout.cloze_marker`): a passage whose numbered blanks or marked spans are the items,
each item printing only its options ("21. A) went  B) goes  C) gone  D) going" under the passage).

Such an item has no stem of its own: its question is the place the passage marks with its number
("… he (21) ____ to school …"). The item's stem becomes the passage's sentence that holds its marker,
so the record says which blank it asks about; the passage stays its context. An item whose marker the
passage does not hold keeps its empty stem, and is flagged: a stem that points nowhere is not guessed.
"""
from __future__ import annotations

import re

from pipeline.diagnostics import Code, diagnose
from pipeline.parse.draft import Draft
from pipeline.parse.labels import number_key
from pipeline.patterns import spec_pattern

# Where a sentence ends: its closing mark (any script's full stop, question or exclamation mark) and
# the space after it, or a paragraph break (a line break alone is a wrapped line).
_SENTENCE_END = re.compile(r"(?<=[.!?;。！？…])\s+|\n\s*\n")


def point_at_cloze_items(drafts: list[Draft], marker: str | None) -> None:
    """Each draft without a stem of its own gets the sentence of its passage that holds its marker."""
    if marker is None:
        return
    pattern = spec_pattern(marker)
    for draft in drafts:
        if draft.text.strip() or not draft.context:
            continue
        sentence = _marked_sentence(draft.context, draft.number, pattern)
        if sentence is None:
            draft.flags.append(diagnose(Code.CLOZE_MARKER_NOT_FOUND, number=draft.number))
        else:
            draft.text = sentence


def _marked_sentence(passage: str, number: str, pattern) -> str | None:
    for found in pattern.finditer(passage):
        if number_key(found.group("number")) != number_key(number.rsplit(".", 1)[-1]):
            continue
        starts = [0] + [m.end() for m in _SENTENCE_END.finditer(passage) if m.end() <= found.start()]
        ends = [m.start() for m in _SENTENCE_END.finditer(passage) if m.start() >= found.end()] + [len(passage)]
        return " ".join(passage[starts[-1]: ends[0]].split())
    return None
