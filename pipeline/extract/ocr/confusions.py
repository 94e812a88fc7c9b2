"""Letters a scan's blur confuses, chosen between by the spelling dictionaries: the `confused-letters` pass.

At 150–300 dpi, blurred, Tesseract reads two letters printed close together as the one they look like joined
(`supraestemal` for `supraesternal`: `rn` read `m`; `sénco` for `sérico`: `ri` read `n`; `dáusula` for `cláusula`:
`cl` read `d`), and the second reader (`secondread`) may read the word right without its reading being taken (it
was not sure enough, or its window was read for another word). The certainty rules already mark such a word unsure
(`certainty._misread_known_word`); here the word is mended where the evidence names one word:

- the word is one of letters, of `MIN_LETTERS` or more, that neither the spelling dictionaries nor Tesseract's
  word list know (a word either knows is never rewritten, whatever the other engine read: `caiman` stays);
- its candidates are the word with one of its language's confused groups put back at one place (language data
  `text_quality.misread_letters`, printed → read: `{ri: n, rn: m, cl: d, li: h}`, at most `MAX_PLACES` places a
  group), and the second reader's reading of its box (`Word.second`) where that is one word of letters spelling
  mostly the same characters (`secondread.SIMILAR_FROM`);
- exactly one candidate is a word of the spelling dictionaries (two or more, `Ministeno` → `Ministerio` or a second
  reading the dictionaries know too: the word stays as read and the flag says it is unsure);
- the ink agrees: the box's width per character, counted as the candidate spells it, lies within the range the
  page's other words of letters show (`INK_SLACK` beyond their `WIDTH_QUANTILES`), in the line's font size. Blur
  joins two letters into one that is narrower than the two (`m` against `rn`), so a candidate that spells more
  letters than the box holds room for is refused; at a long word's length this is a check of fit, not a choice
  between readings, which the dictionaries make.

What the second reader read stays on the word (`Word.second`): where it read the word otherwise, the word, mended,
is still judged unsure by the agreement rule. Every change is said in the page's notes."""
from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from pipeline.extract.ocr.lexicon import Lexicon, run_places, word_core
from pipeline.extract.ocr.words import Word, line_sizes

MIN_LETTERS = 5  # shorter words have too many known neighbours one confusion away
MAX_PLACES = 4  # places a confused group is tried at in one word
SIMILAR_FROM = 0.6  # share of characters a second reading shares with the word to count as a reading of it
WIDTH_QUANTILES = (0.02, 0.98)  # of the page's words' width per character (in font sizes): the range a word may fall in
INK_SLACK = 0.12  # share beyond that range still taken as fitting
REFERENCE_MIN = 6  # words of letters a page needs for its range; fewer: no word is mended
REFERENCE_LETTERS = 4  # letters a word needs to count towards the range


@dataclass(frozen=True)
class Mending:
    words: list[Word]
    changes: list[tuple[str, str]]  # (as read, as mended)


def _same_case(printed: str, like: str, word: str) -> str:
    """`printed` (lower case) in the case of the letters `like` it replaces in `word`: a word of capitals's in capitals."""
    if word.isupper():
        return printed.upper()
    if like[:1].isupper():
        return printed[:1].upper() + printed[1:]
    return printed


def group_candidates(core: str, misread_letters: Sequence[tuple[str, str]]) -> list[str]:
    """`core` with one confused group put back where blur may have joined it (printed, read): `supraestemal` →
    `supraesternal` (`rn` read `m`), at most `MAX_PLACES` places a group, the case of the letters kept."""
    folded = core.lower()
    if len(folded) != len(core):
        return []
    found: list[str] = []
    for printed, read in misread_letters:
        found += [core[:start] + _same_case(printed, core[start:start + len(read)], core) + core[start + len(read):]
                  for start in run_places(folded, read, MAX_PLACES)]
    return list(dict.fromkeys(found))


def _second_candidate(core: str, second: str | None) -> str | None:
    """The second reader's reading of the word where it is one word of letters like it (`SIMILAR_FROM`)."""
    if not second or any(ch.isspace() for ch in second.strip()):
        return None
    theirs = word_core(second)[1]
    if not theirs.isalpha() or theirs == core:
        return None
    similar = difflib.SequenceMatcher(None, core.casefold(), theirs.casefold(), autojunk=False).ratio()
    return theirs if similar >= SIMILAR_FROM else None


def known_candidate(core: str, lexicon: Lexicon, spelled: Callable[[str], bool], second: str | None = None) -> str | None:
    """The one candidate of a word (its letters, `core`) that the spelling dictionaries know, where the word is one the
    module's doc mends; None otherwise. `second`: what the second reader read at its place. The ink is not asked."""
    if len(core) < MIN_LETTERS or not core.isalpha() or core in lexicon or spelled(core):
        return None
    candidates = group_candidates(core, lexicon.misread_letters)
    theirs = _second_candidate(core, second)
    if theirs is not None:
        candidates.append(theirs)
    known = {c.casefold(): c for c in candidates if spelled(c)}
    return next(iter(known.values())) if len(known) == 1 else None


def width_range(words: Sequence[Word], sizes: dict[tuple[int, int, int], float]) -> tuple[float, float] | None:
    """(low, high) width per character, in font sizes, the page's words of letters show (`WIDTH_QUANTILES`, widened
    by `INK_SLACK`); None where the page has fewer than `REFERENCE_MIN` of them."""
    per_character = [
        (w.right - w.left) / len(w.text) / sizes[w.line]
        for w in words
        if sizes.get(w.line) and len(word_core(w.text)[1]) >= REFERENCE_LETTERS and word_core(w.text)[1].isalpha()
    ]
    if len(per_character) < REFERENCE_MIN:
        return None
    low, high = np.quantile(per_character, WIDTH_QUANTILES)
    return float(low) * (1 - INK_SLACK), float(high) * (1 + INK_SLACK)


def mend_confused_letters(words: list[Word], lexicon: Lexicon, spelled: Callable[[str], bool]) -> Mending:
    """`words` with each word the module's doc describes mended to its one known candidate."""
    sizes = line_sizes(words) if words else {}
    fits = width_range(words, sizes)
    if fits is None:
        return Mending(words, [])
    mended: dict[int, Word] = {}
    changes: list[tuple[str, str]] = []
    for word in words:
        lead, core, trail = word_core(word.text)
        chosen = known_candidate(core, lexicon, spelled, word.second)
        if chosen is None:
            continue
        size = sizes.get(word.line)
        text = lead + chosen + trail
        if not size or not fits[0] <= (word.right - word.left) / len(text) / size <= fits[1]:
            continue
        mended[id(word)] = replace(word, text=text)
        changes.append((word.text, text))
    if not mended:
        return Mending(words, [])
    return Mending([mended.get(id(w), w) for w in words], changes)
