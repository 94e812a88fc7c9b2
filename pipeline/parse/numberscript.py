"""A question number's letters in its page's script: `Α1` on a Greek page, `А1` on a Russian one, `A1` on a Latin one.

Greek, Cyrillic and Latin share capitals of one shape (`Α`/`A`, `В`/`B`), and a number printed `Α1` may be read with
the Latin twin (OCR: Tesseract's Greek model read `Al.` for `Α1.` on the embedded sample's scan; a text layer typed
with the wrong keyboard). The record's number, and so its id, is then in another script than its sheet: the same
question gets another id on a rescan. What script a page is written in is what most of its letters are; a number's
letter that has a twin of the very same shape in that script (`scripts.yaml` `lookalikes`) is written as the twin.
"""
from __future__ import annotations

import functools
import unicodedata
from collections import Counter

from pipeline.languages import in_script
from pipeline.parse.stream import StreamLine

# A page's script is the one that writes more than this share of its letters; a page of two scripts in nearly even
# parts (a bilingual sheet) has none, and its numbers stay as read.
PAGE_SCRIPT_SHARE = 0.6


@functools.cache  # a page's every character is asked: a few hundred distinct ones
def letter_script(ch: str) -> str | None:
    """The script of a letter as `scripts.yaml` names it (Latin, Greek, Cyrillic …), by its Unicode name; None for
    anything else."""
    if not ch.isalpha():
        return None
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0].title() if name else None


def page_scripts(stream: list[StreamLine]) -> dict[int, str]:
    """{page: the script most of its letters are written in}, over the lines of the stream, for each page one script
    writes more than `PAGE_SCRIPT_SHARE` of."""
    counts: dict[int, Counter] = {}
    for item in stream:  # the characters first, the script of each distinct one after
        counts.setdefault(item.page, Counter()).update(item.text)
    found = {}
    for page, characters in counts.items():
        counter: Counter = Counter()
        for ch, n in characters.items():
            if (script := letter_script(ch)) is not None:
                counter[script] += n
        if counter:
            script, count = counter.most_common(1)[0]
            if count > PAGE_SCRIPT_SHARE * sum(counter.values()):
                found[page] = script
    return found


def in_page_script(number: str, script: str | None) -> str:
    """`number` with its letters written as their twins in `script` (the number's page's), where they have one."""
    return in_script(number, script) if script else number
