"""Words of the companion script read again with its model (`companions`): a page of one script that prints another
beside it (Latin units and codes on a Greek page: `78,19 cm`, `m/s`, `Test 26 4127`).

Read with both models at once (`ell+eng`), Tesseract took Latin for many Greek glyphs of the page itself: a lone option
label `Α.` came back `A.`, `γ` came back `y`, `δ` `6`, and a Greek sheet's options and key were lost (options exact 100
→ 20 %, answers 100 → 0 % on the generated `el-column`). So the page is read with its own model, and only the words it
was unsure of are read again with the companion alone, each crop on a line of its own:
- a candidate is a word read under `CANDIDATE_BELOW`, of at least two letters or digits (a lone glyph with its marks is
  a label or an answer cell, which their own passes read: `β)` after an option ending in `1994` came back `B)`, and
  the question lost its options), holding a letter, and unknown to the language's spelling dictionary
  where it has one (a known word of the page's language stays), unless it is a word of at most `UNIT_MAX` letters
  right after a number, where a unit stands (`cm` read `έπη`, a Greek word);
- at a unit's place, a word the page's dictionary does not know is a candidate however sure its reading: the page's
  model reads a unit's look-alikes surely at times (`kg` read `κο` at 88 on a generated Greek key at 200 dpi, blur
  0.8, whose reading went either way with nothing but the state Tesseract had learnt from the page's heading);
- the companion's reading replaces it where it is one word, at least `ACCEPT_FROM` sure and `MARGIN` surer than the
  page's own reading (at a unit's place, where the page's reading is no word of its dictionary: surer at all), holds a letter of the companion's script and no letter of another, and is not capitals alone
  (`ΚΑΙ` and `KAI` share their shapes letter for letter: a word of capitals stays as the page's model read it); at a
  unit's place a reading of signs alone is taken too (`%` read `9ο`); away from a unit's place the reading must be a
  word of the companion (letters alone, known to its spelling dictionary where it has one: an unknown Greek word
  `Υδρπαρ` read `Y6pnap` by the Latin model stays as the page read it, unsure).

A unit or formula of the companion's script (`unitwords`: `mg/dL`, `kJ/mol`, `pH`, `CO2`) is read so however sure the
page's model was of its look-alikes (`рН`, `ΝΟ2` at 90 and more; `тод/Т`, `Кт/В` lower): a word unknown to the
page's dictionary holding a letter of the page's script, at a unit's place (a number before or after it, across a
line's end within a paragraph too: `pH 7,4`) or unit-shaped itself (a digit after its letters, a `/` inside, a raised
mark after its letters: `ст?`; such a token is not put to the dictionary, which knows `ст2` as it knows `ст`), is read
again with the companion, and
- where its letters are each printed in the very shape of a Latin one and so spelt they are a unit expression
  (`рН` → `pH`, `Η2Ο` → `H2O`), that is what was printed: both models see the same shapes;
- else the companion's reading is taken where it is a unit expression (two characters at least) read at least
  `UNIT_ACCEPT_FROM` sure: the vocabulary vouches for it where the crop's edge lowers Tesseract's confidence
  (`mg/L` at 26 for `πιφ/Ι`);
- a word that is a unit of the page's own script (script data's `unit_symbols` for Cyrillic: `см`, `м/с2`, `кПа`) is
  what was printed, and stays as read, whatever the companion or the look-alike shapes say;
- a companion reading that is a unit expression read less surely leaves the word as the page read it, at the lower
  of the two confidences: unsure, for the flag, rather than a guess either way.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace

from PIL import Image

from pipeline.extract.ocr.companions import reading_languages
from pipeline.extract.ocr.certainty import spelled_for
from pipeline.extract.ocr.engine import installed_languages, parse_tsv, run_tesseract, stacked
from pipeline.extract.ocr.unitwords import is_unit_expression, latin_lookalike, unit_core
from pipeline.extract.ocr.words import Word
from pipeline.languages import language_for_tesseract

CANDIDATE_BELOW = 85.0  # a word the page's own model read less surely than this is read again with the companion
ACCEPT_FROM = 80.0  # the companion's reading is taken only this sure
MARGIN = 10.0  # and this much surer than the page's own reading
UNIT_MAX = 3  # letters: a word this short after a number may be a unit, read again even where the dictionary knows it
PAD = 0.25  # of a word's height: white around its crop
STACK_PSM = 6  # the crops one under another, read as a block of lines
UNIT_ACCEPT_FROM = 50.0  # the companion's reading of a unit expression is taken this sure
CROP_EDGE_MARKS = "|!"  # a crop's edge read as a stroke after or before a unit (`pH!`, `NO2|`)


def companions_of(languages: Sequence[str]) -> tuple[str, ...]:
    """The companion scripts' Tesseract data for `languages` installed here (none: the pass does not apply)."""
    return reading_languages(languages, installed_languages())[len(tuple(languages)):]


def _script(companion: str) -> str:
    found = language_for_tesseract(companion)
    return found.script.upper() if found is not None else "LATIN"


def _candidate(word: Word, spelled: Callable[[str], bool] | None, after_number: bool = False) -> bool:
    core = word.text.strip(".,;:!?()[]«»\"'")
    unit = after_number and len(core) <= UNIT_MAX  # a unit's look-alikes may spell a word (`cm` read `έπη`, "epics")
    return ((0 <= word.conf < CANDIDATE_BELOW or _unknown_unit(word, spelled, after_number))
            and sum(ch.isalnum() for ch in word.text) >= 2 and any(ch.isalpha() for ch in word.text)
            and (unit or not (spelled is not None and core and spelled(core))))


def _unknown_unit(word: Word, spelled: Callable[[str], bool] | None, after_number: bool) -> bool:
    """Whether `word` stands at a unit's place and the page's dictionary (where it has one) does not know it: read again
    however sure the page's model was, and the companion's reading taken where it is surer at all."""
    core = word.text.strip(".,;:!?()[]«»\"'")
    return after_number and 0 < len(core) <= UNIT_MAX and spelled is not None and not spelled(core)


def _after_numbers(words: Sequence[Word]) -> list[bool]:
    """For each word, whether the word before it on its line is a number (`78,19` of `78,19 cm`)."""
    found = [False] * len(words)
    by_line: dict[tuple[int, int, int], list[int]] = {}
    for i, w in enumerate(words):
        by_line.setdefault(w.line, []).append(i)
    for indices in by_line.values():
        indices.sort(key=lambda i: words[i].left)
        for before, i in zip(indices, indices[1:]):
            text = words[before].text
            found[i] = any(ch.isdigit() for ch in text) and not any(ch.isalpha() for ch in text)
    return found


def _is_number(text: str) -> bool:
    text = text.strip(".,;:()")
    return any(ch.isdigit() for ch in text) and not any(ch.isalpha() for ch in text)


def _beside_numbers(words: Sequence[Word]) -> list[bool]:
    """For each word, whether the word before or after it in reading order is a number (`78,19 cm`, `pH 7,4`), across a
    line's end within its paragraph too (`pH` ending a line, `7,4` opening the next)."""
    by_line: dict[tuple[int, int, int], list[int]] = {}
    for i, w in enumerate(words):
        by_line.setdefault(w.line, []).append(i)
    order: list[int | None] = []
    for line in sorted(by_line):
        if order and order[-1] is not None and words[order[-1]].line[:2] != line[:2]:
            order.append(None)  # a new paragraph: no neighbour across
        order += sorted(by_line[line], key=lambda i: words[i].left)
    found = [False] * len(words)
    for a, b in zip(order, order[1:]):
        if a is not None and b is not None:
            found[a] = found[a] or _is_number(words[b].text)
            found[b] = found[b] or _is_number(words[a].text)
    return found


def _unit_candidate(word: Word, spelled: Callable[[str], bool] | None, beside_number: bool) -> bool:
    """Whether `word` may be a companion-script unit read as the page script's look-alikes (module docstring): a letter
    of another script than Latin, unknown to the page's dictionary, at a unit's place or unit-shaped."""
    _, core, marks = unit_core(word.text)
    # a superscript read as a raised mark (`ст?`, `Кт*`) or a digit after letters (`ст2`) makes a unit's shape; the
    # dictionary judges words, and knows `ст2`, `Ο2`, `Πιο/Ι` as it knows their letters, so such a token is not put to it
    raised = bool(core) and core[-1].isalpha() and marks[:1] in tuple("?*°\"'")
    shaped = raised or "/" in core.strip("/") or any(ch.isdigit() for ch in core) and core[:1].isalpha()
    if not any(ch.isalpha() and not ch.isascii() for ch in core) or (spelled is not None and core.isalpha() and not raised and spelled(core)):
        return False
    return beside_number or shaped


def unit_reading(word: Word, reading: Word | None, page_script: str, companion_script: str) -> Word | None:
    """`word` as the unit it is (module docstring: its look-alike spelling, else the companion's `reading`), or at the
    lower confidence where the companion read a unit less surely; None where neither says it is a unit."""
    before, core, after = unit_core(word.text)
    if is_unit_expression(core, page_script):
        return None  # a unit of the page's own script (`см`, `м/с2`): as printed, whatever shapes the companion sees
    lookalike = latin_lookalike(core, page_script)
    # two letters or a count at least: a lone capital (`Α`, an option's label) is a letter of its page
    if (lookalike is not None and (sum(ch.isalpha() for ch in lookalike) >= 2 or any(ch.isdigit() for ch in lookalike))
            and is_unit_expression(lookalike, companion_script)):
        return replace(word, text=before + lookalike + after)
    if reading is None:
        return None
    read_before, read_core, read_after = unit_core(reading.text)
    if len(read_core) < 2 or not is_unit_expression(read_core, companion_script):
        return None
    if reading.conf < UNIT_ACCEPT_FROM:
        return replace(word, conf=min(word.conf, reading.conf)) if reading.conf < word.conf else None
    read_after = "".join(ch for ch in read_after if ch not in CROP_EDGE_MARKS).replace(";", ",")
    return replace(word, text=before + read_core + read_after, conf=reading.conf)


def lookalike_units(words: list[Word], languages: Sequence[str], spelled: Callable[[str], bool] | None = None,
                    skip: Sequence[Word] = ()) -> tuple[list[Word], list[tuple[str, str]]]:
    """`words` with each unit candidate whose letters are all look-alikes of the companion's, and so spelt a unit
    expression, written so (`ΝΟ2` → `NO2`: the raised and lowered digits a later pass read by their shape make a
    formula of what the companion pass saw as `ΝΟ;`), and each change (read, now)."""
    companions = companions_of(languages)
    if not companions:
        return words, []
    page_script, script = _script(languages[0]).title(), _script(companions[0]).title()
    held = {id(w) for w in skip}
    beside = _beside_numbers(words)
    out, changes = list(words), []
    for i, word in enumerate(words):
        if id(word) in held or not _unit_candidate(word, spelled, beside[i]):
            continue
        as_unit = unit_reading(word, None, page_script, script)
        if as_unit is not None and as_unit.text != word.text:
            out[i] = as_unit
            changes.append((word.text, as_unit.text))
    return out, changes


def _in_script(text: str, script: str) -> bool:
    letters = [ch for ch in text if ch.isalpha()]
    return bool(letters) and all(unicodedata.name(ch, "").startswith(script + " ") for ch in letters) and not (
        len(letters) >= 2 and all(ch.isupper() for ch in letters))


def _a_word(text: str, known: Callable[[str], bool] | None) -> bool:
    """Whether a companion reading away from a unit's place is a word of the companion: letters alone (a digit among
    letters is a misreading, `Υδρπαρ` read `Y6pnap`), and known to the companion's dictionary where it has one."""
    core = text.strip(".,;:!?()[]«»\"'")
    return bool(core) and not any(ch.isdigit() for ch in core) and (known is None or known(core))


def read_companion_words(grey: Image.Image, words: list[Word], languages: Sequence[str], dpi: int, omp_thread_limit: int | None,
                         spelled: Callable[[str], bool] | None = None, skip: Sequence[Word] = ()) -> tuple[list[Word], int]:
    """`words` with each unsure word that the companion script reads surely as its own replaced (see the module's
    docstring), and how many were; `skip`: words other passes read cell by cell, left alone."""
    companions = companions_of(languages)
    held = {id(w) for w in skip}
    after, beside = _after_numbers(words), _beside_numbers(words)
    if not companions:
        return words, 0
    script = _script(companions[0])
    page_script = _script(languages[0]).title()
    units = {i for i, w in enumerate(words) if id(w) not in held and _unit_candidate(w, spelled, beside[i])}
    candidates = [i for i, w in enumerate(words) if id(w) not in held and (i in units or _candidate(w, spelled, after[i]))]
    unknown_units = {i for i in candidates if _unknown_unit(words[i], spelled, after[i])}
    if not candidates:
        return words, 0
    known = spelled_for(companions)
    crops, gap = [], 0
    for i in candidates:
        w = words[i]
        pad = max(2, round(PAD * (w.bottom - w.top)))
        gap = max(gap, 2 * pad)
        box = (max(0, w.left - pad), max(0, w.top - pad), min(grey.width, w.right + pad), min(grey.height, w.bottom + pad))
        crops.append(grey.crop(box))
    stack, tops = stacked(crops, gap)
    read = parse_tsv(run_tesseract(stack, companions, dpi, omp_thread_limit=omp_thread_limit, psm=STACK_PSM))
    result, changed = list(words), 0
    for i, crop, top in zip(candidates, crops, tops):
        inside = [r for r in read if top - gap / 2 <= (r.top + r.bottom) / 2 < top + crop.height + gap / 2]
        if i in units:
            as_unit = unit_reading(words[i], inside[0] if len(inside) == 1 else None, page_script, script.title())
            if as_unit is not None:
                result[i] = as_unit
                changed += as_unit.text != words[i].text
                continue
        if len(inside) != 1:
            continue
        reading, word = inside[0], words[i]
        sign = after[i] and not any(ch.isalnum() for ch in reading.text)  # `%` read `9ο` after its number
        margin = 0.0 if i in unknown_units else MARGIN
        if reading.conf >= ACCEPT_FROM and reading.conf > word.conf + margin and (sign or _in_script(reading.text, script)
                                                                                  and (after[i] or _a_word(reading.text, known))):
            result[i] = Word(reading.text, reading.conf, word.left, word.top, word.right, word.bottom, word.line)
            changed += 1
    return result, changed
