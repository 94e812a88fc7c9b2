"""A word's marks chosen between Tesseract's own per-letter readings by the spelling dictionary (issue 27, bar 1).

Measured and not run on pages: no page pass calls `choose_marks` (docs/results.md, "Tone marks and dotless ı chosen
between the engine's own readings"). Run as a pass (the page read again with `symbolchoices.read_choices`) it changed
no question on the Vietnamese checking sheets at five untuned settings, turned right Turkish options wrong on the
tuning sheet (it wrote `ediyorum`, a dictionary word, where the sheet printed `edıyorum`, which Tesseract had read as
printed), and cost 40 % more CPU a Vietnamese page. Kept, tested, for whoever brings the evidence it lacks: the ink.

At 9 points on a blurred scan a Vietnamese tone mark reads as its neighbour (`tằm` read `tàm`, `mồi` read `mối`) and a
Turkish dotless ı as i. The LSTM decoder weighed the printed letter too: it is among the symbol's alternatives
(`symbolchoices`). Which letters are read for one another is language data (`text_quality.confused_letters`: each
vowel with all its marks, `ıi`). For each word read with its alternatives:

- a word the dictionary does not know, read under `SURE_FROM`, where exactly one word made by taking the engine's
  alternatives within the confused letters' groups (at most `MAX_CHANGED` places, each weighed at least `WEIGHED_FROM`
  of the letter read) is known, takes that word (`vãy` → `vẫy`);
- where two or more such words are known, the word is kept as read and marked unsure (`Word.unsure_mark`, which the
  flag reads): the dictionary cannot tell which was printed;
- a known word is never touched, nor flagged. `mồi` read for `mối` are both words, and measured on `vi-serif9-lower`
  (latinscans, 175 and 160 dpi) the engine weighed the printed tone as much for the right words it read as for the
  wrong ones (a rival tone at 0.8-1.0 of the letter read for `mối` read for `mồi`, and for the right `thăng`, `lỗ`,
  `sổ`, `quyến`, `vắng`), so a rival-tone flag would flag right questions as often as wrong ones.
"""
from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.symbolchoices import ChoiceWord
from pipeline.extract.ocr.words import Word

MAX_CHANGED = 2  # letters of one word taken from the alternatives at once
ALTERNATIVE_FROM = 5.0  # an alternative's confidence (0-100) from which it counts as weighed at all
# An alternative counts where the engine weighed it at least this share of the letter it read: at 9 points it offers a
# neighbouring tone at a tenth to a third of the letter read for most marked letters, right or wrong.
WEIGHED_FROM = 0.5
# Word confidence from which an unknown word stays as read: words no dictionary lists (`chip`, `hinh` printed without
# marks) were read at 91-97 with a marked known twin weighed at 0.1-0.6 of the letter read.
SURE_FROM = 90.0


@dataclass(frozen=True)
class Choices:
    """What `choose_marks` did to a page's words."""

    words: list[Word]
    taken: list[tuple[str, str]]  # (read, taken)
    unsure: list[tuple[str, str]]  # (read, the rival known word)


def letter_groups(groups: Sequence[str]) -> dict[str, str]:
    """{letter: its group} for lower-case groups and their capitals."""
    found: dict[str, str] = {}
    for group in groups:
        for letter in group:
            found[letter] = group
            if len(letter.upper()) == 1:
                found[letter.upper()] = group.upper()
    return found


def _alternatives(letters: ChoiceWord, groups: dict[str, str]) -> list[list[tuple[str, float]]] | None:
    """Per symbol, the alternatives (letter, confidence) of the letter read that lie in its group; None where the
    symbols do not spell the word letter by letter (a symbol of two characters)."""
    found = []
    for symbol, choices in letters.letters:
        if len(symbol) != 1:
            return None
        group = groups.get(symbol, "")
        found.append([(c, conf) for c, conf in choices if c != symbol and len(c) == 1 and c in group and conf >= ALTERNATIVE_FROM])
    return found


def _variants(text: str, alternatives: list[list[tuple[str, float]]], read_conf: list[float]) -> list[tuple[str, float]]:
    """Words made by taking up to MAX_CHANGED alternatives, with the least share (alternative / letter read) taken."""
    places = [i for i, alts in enumerate(alternatives) if alts]
    made: dict[str, float] = {}
    for count in range(1, MAX_CHANGED + 1):
        for chosen in itertools.combinations(places, count):
            for picks in itertools.product(*(alternatives[i] for i in chosen)):
                letters = list(text)
                share = 1.0
                for at, (letter, conf) in zip(chosen, picks):
                    letters[at] = letter
                    share = min(share, conf / max(read_conf[at], 1e-6))
                word = "".join(letters)
                made[word] = max(made.get(word, 0.0), share)
    return sorted(made.items())


def choice_candidates(words: Sequence[Word], groups: dict[str, str], known: Callable[[Sequence[str]], list[bool]]) -> list[Word]:
    """The words the pass weighs: letters only, one of them in a group, read under SURE_FROM, no dictionary word."""
    found = [w for w in words if 0 <= w.conf < SURE_FROM and (core := word_core(w.text)[1]).isalpha() and any(ch in groups for ch in core)]
    answers = known([word_core(w.text)[1] for w in found]) if found else []
    return [w for w, ok in zip(found, answers) if not ok]


def choose_marks(words: list[Word], read: Sequence[ChoiceWord], groups: dict[str, str],
                 known: Callable[[Sequence[str]], list[bool]]) -> Choices:
    """The page's words with their marks chosen (the module's doc). `read`: the page read again with alternatives
    (a word is weighed only where that reading has it at the same box with the same text); `known`: the spelling
    dictionary's answer for each word."""
    by_box = {(c.box, c.text): c for c in read}
    result, taken, unsure = [], [], []
    for word in words:
        lead, core, trail = word_core(word.text)
        found = by_box.get(((word.left, word.top, word.right, word.bottom), word.text))
        if found is None or not core.isalpha() or len(core) != len(found.letters) - len(lead) - len(trail):
            result.append(word)
            continue
        letters = found.letters[len(lead):len(found.letters) - len(trail)]
        alternatives = _alternatives(ChoiceWord(core, found.conf, found.box, letters), groups)
        if alternatives is None or "".join(s for s, _ in letters) != core:
            result.append(word)
            continue
        read_conf = [next((conf for c, conf in choices if c == s), 100.0) for s, choices in letters]
        variants = _variants(core, alternatives, read_conf)
        if not variants:
            result.append(word)
            continue
        answers = known([core] + [v for v, _ in variants])
        if answers[0] or not 0 <= word.conf < SURE_FROM:
            result.append(word)  # a known word, or an unknown one read confidently (`chip`, `hinh`): as read
            continue
        rivals = [v for (v, share), ok in zip(variants, answers[1:]) if ok and share >= WEIGHED_FROM]
        if len(rivals) == 1:
            result.append(replace(word, text=lead + rivals[0] + trail))
            taken.append((word.text, lead + rivals[0] + trail))
        elif rivals:
            result.append(replace(word, unsure_mark=True))
            unsure.append((word.text, " or ".join(rivals)))
        else:
            result.append(word)
    return Choices(result, taken, unsure)
