"""A second recogniser where Tesseract is unsure: the unsure words of a page re-read, and the readings combined.

Tesseract's errors on scans are local: a one-letter word glued to the next (`keufemizmom`, `el7`), a
letter confused (`mo tenga`, I/l/1, q/g). RapidOCR (`recognisers`) reads Latin pages with fewer such
errors but costs 4–6× Tesseract's CPU a page, so it never reads a whole page: it reads windows of a
line around the words Tesseract is unsure of (`unsure_windows`):
- a word read with confidence under UNSURE_BELOW, or
- a word of letters that the language's spelling dictionary does not know, or a token mixing letters
  and digits (`el7`),
each with its neighbours on the line (the second reader needs the context, and a glued word's space
lies between it and its neighbour). The windows are cut from the page as scanned, not from the page as
prepared for Tesseract: the preparation smooths grain and whitens light greys, which is what makes Tesseract
read `ri` as `n` and a comma's faint tail as a period, and the second reader, given the same smoothed
pixels, made the same errors (`supenores`, `Ministeno`, `13.33`) and then agreed with Tesseract; on the
scan it read `superiores`, `Ministerio`, `13,33` (`python -m pipeline.devkit.secondreads`). Only a window
whose paper is dark on the scan (a heading panel the preparation inverted) is cut from the prepared page. Windows are taken least confident first, up to a share of the
page's text (BUDGET_SHARE of its words' width in text-line heights), which keeps the page's CPU within
1.5× of Tesseract's alone (`tests/bench/bench_secondread.py`).

The two readings of a window are aligned word by word (`combine`). Where they agree, Tesseract's words
stay: a word both engines read alike is never rewritten, whatever the dictionary says. Where they
differ, the second reading replaces Tesseract's words only when every one of its words is a word of the
language (or a number, or punctuation) and Tesseract's are not, it is confident (SURE_FROM), and it
spells mostly the same characters (SIMILAR_FROM: a window misplaced on another line reads otherwise).
So `keufemizmom` becomes `k eufemizmom`, `el7` `el 7`, `mo` `no`; a Slovak `ľúbosť` that the second
reader reads `lúbost` stays (the dictionary knows only Tesseract's reading). A token of alternatives,
`sonet/znelka`, is a word of the language where each alternative is, and two readings of it differing
in some alternatives take each from the second reading only where the dictionary knows the second's and
not Tesseract's (`alternatives`: `lnterview/interviu` becomes `Interview/interviu`).

A language the second reader cannot read (its letters, from the spelling dictionary's `TRY` line, not
all in the recogniser's alphabet: Greek's accented vowels, Hangul), or one without a spelling
dictionary, skips it; so does a machine without rapidocr. The page's reading says which and why
(`PageReading.second_reading`).
"""
from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from PIL import Image

from pipeline.extract.ocr.agreement import SECOND_RECOGNISER, keep_second_readings, mark_settled
from pipeline.extract.ocr.alternatives import alternatives, alternatives_reading, known_alternatives, same_alternatives
from pipeline.extract.ocr.hunspell import Spelling, SpellingUnavailable, dictionary_identity, spelling_for
from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.recognisers import RECOGNISERS, CropReading, Recogniser
from pipeline.extract.ocr.words import Word, overlap_share, words_by_line

UNSURE_BELOW = 80.0  # Tesseract word confidence under which a word is read again
BUDGET_SHARE = 0.06  # of the page's text width (in text-line heights) the second reader may read
BUDGET_FLOOR = 12.0  # text-line heights it may read on any page (a short page's one unsure line)
# More of the page's text width for windows whose reading decides how sure a word is (`Window.decides`):
# a word the certainty rules judge unsure, which the two readings alike make sure, or a word the spelling
# dictionary rejects, which a differing reading repairs or flags (`agreement`).
DECIDING_SHARE = 0.12
SURE_FROM = 0.80  # the second reading's mean character confidence over the words it would put in
SIMILAR_FROM = 0.6  # share of the characters two readings of a differing span have in common (one may always differ)
PAD = 0.3  # text-line heights of white around a window
MAX_MERGED_CHOICES = 3  # differing stretches of two unknown readings tried in every combination
MISSED_ROOM = 0.25  # text-line heights of free width per character a word Tesseract missed needs
# Median grey from which a window's paper counts as light on the page as scanned (paper ~240, a tint ~200, a
# dark panel under ~100): there the second reader reads the scan itself, elsewhere the prepared page.
LIGHT_PAPER_FROM = 160
_NUMBER = re.compile(r"^[-−+]?\d+(?:[.,:/]\d+)*[%‰]?$")


@dataclass(frozen=True)
class Window:
    """Words `start`…`end` (exclusive) of one Tesseract line, to be read again; `conf`: its least sure word's."""

    line: tuple[int, int, int]
    start: int
    end: int
    conf: float
    decides: bool = False  # it holds a word whose certainty its reading decides (read first, on DECIDING_SHARE too)


@dataclass(frozen=True)
class SecondReading:
    words: list[Word]
    note: str  # what was done, or why nothing was


@lru_cache(maxsize=16)
def readiness(languages: tuple[str, ...], recogniser_name: str = SECOND_RECOGNISER) -> tuple[Spelling | None, str | None]:
    """(the languages' spelling, None) when the second reader can serve them; (None, why not) otherwise."""
    recogniser = RECOGNISERS[recogniser_name]
    missing = recogniser.unavailable()
    if missing:
        return None, f"{recogniser_name} skipped: {missing}"
    try:
        spelling = spelling_for(languages)
        letters = spelling.letters
    except SpellingUnavailable as exc:
        return None, f"{recogniser_name} skipped: {exc}"
    alphabet = recogniser.alphabet()
    if alphabet is not None:
        lacking = sorted(ch for ch in letters if ch not in alphabet and ch.upper() not in alphabet)
        if lacking:
            return None, (f"{recogniser_name} skipped: it has no model for {'+'.join(languages)} "
                          f"(its alphabet lacks {''.join(lacking[:12])}{'…' if len(lacking) > 12 else ''})")
    return spelling, None


class _Known:
    """Which tokens are words of the language, numbers or punctuation; the dictionary asked once per word."""

    def __init__(self, spelling: Spelling):
        self.spelling = spelling
        self.answers: dict[str, bool] = {}

    def ask(self, tokens: Sequence[str]) -> None:
        cores = {word_core(t)[1] for t in tokens}
        cores |= {part for core in cores for part in alternatives(core) or ()}  # `a/b`: each alternative apart
        new = sorted(c for c in cores if c and c.isalpha() and c not in self.answers)
        self.answers.update(zip(new, self.spelling.knows(new)))

    def __call__(self, token: str) -> bool:
        core = word_core(token)[1]
        if not core:
            return True  # punctuation only
        if core.isalpha():
            if core not in self.answers:
                self.ask([core])
            return self.answers[core]
        if _NUMBER.match(core):
            return True
        return bool(known_alternatives(core, self))  # `sonet/znelka`: known where each alternative is (`alternatives`)


def unsure_windows(words: list[Word], known: _Known, skip: Sequence[Word] = (),
                   judged_unsure: Callable[[Word], bool] | None = None) -> list[Window]:
    """The windows of each line around its unsure words (see the module's doc): those that decide a word's
    certainty first (`Window.decides`: a word `judged_unsure` says is, or one the dictionary rejects), each
    group least confident first."""
    skipped = {id(w) for w in skip}
    known.ask([w.text for w in words])
    windows: list[Window] = []
    for line, members in words_by_line(words).items():
        unsure = [i for i, w in enumerate(members) if id(w) not in skipped and _unsure(w, known)]
        for i in unsure:
            start, end = max(0, i - 1), min(len(members), i + 2)
            decides = _decides(members[i], known, judged_unsure)
            if windows and windows[-1].line == line and windows[-1].end > start:
                last = windows.pop()
                start, conf, decides = last.start, min(last.conf, members[i].conf), decides or last.decides
            else:
                conf = members[i].conf
            windows.append(Window(line, start, end, conf, decides))
    return sorted(windows, key=lambda w: (not w.decides, w.conf))


def would_read_again(words: Sequence[tuple[str, float]], spelling: Spelling) -> list[bool]:
    """For each (text, Tesseract confidence), whether the pass counts the word unsure and reads its window
    again, budget permitting (`unsure_windows`): what the measuring tools ask of a line."""
    known = _Known(spelling)
    known.ask([text for text, _ in words])
    return [_unsure(Word(text, conf, 0, 0, 1, 1, (0, 0, 0)), known) for text, conf in words]


def _decides(word: Word, known: _Known, judged_unsure: Callable[[Word], bool] | None) -> bool:
    """Whether a second reading of the word decides how sure it is: the certainty rules judge it unsure, or
    it is a word of letters the dictionary rejects (a confident misreading the word list accepts: `mombre`)."""
    core = word_core(word.text)[1]
    return bool(judged_unsure and judged_unsure(word)) or (core.isalpha() and not known(word.text))


def _unsure(word: Word, known: _Known) -> bool:
    core = word_core(word.text)[1]
    if not core:
        return False  # punctuation alone: nothing a dictionary could weigh
    if 0 <= word.conf < UNSURE_BELOW:
        return True
    # A confident word in capitals is an acronym or a code as often as a word: no dictionary lists it.
    return not (core.isupper() and len(core) > 1) and not known(word.text)


def _crop(grey: np.ndarray, members: Sequence[Word], scanned: np.ndarray | None = None) -> tuple[np.ndarray, int]:
    """The window's pixels with PAD line heights of white round them, and the crop's left edge on the page:
    from the page as scanned where the window lies on light paper there, else from the prepared page (a
    panel Tesseract's preparation turned dark-on-light; see the module's doc)."""
    top, bottom = min(w.top for w in members), max(w.bottom for w in members)
    pad = max(2, int(PAD * (bottom - top)))
    left, right = max(0, min(w.left for w in members) - pad), min(grey.shape[1], max(w.right for w in members) + pad)
    rows = slice(max(0, top - pad), min(grey.shape[0], bottom + pad))
    if scanned is not None and scanned.shape == grey.shape:
        as_scanned = scanned[rows, left:right]
        if as_scanned.size and np.median(as_scanned) >= LIGHT_PAPER_FROM:
            return as_scanned, left
    return grey[rows, left:right], left


def _second_words(reading: CropReading) -> list[tuple[str, float]]:
    """(text, confidence) of each word the second reader read in a window."""
    return [(text, conf) for text, conf, *_ in reading.words] or [(t, reading.confidence) for t in reading.text.split()]


def combine(tesseract: list[Word], reading: CropReading, known: _Known, others: Sequence[Word] = ()) -> tuple[list[Word], int]:
    """The window's words after weighing the second reading against Tesseract's (see the module's doc),
    and how many words changed. `others`: the page's other words, which a word Tesseract missed must not
    overlap (Tesseract may have read it into another line)."""
    second = _second_words(reading)
    ours, theirs = [w.text for w in tesseract], [t for t, _ in second]
    known.ask(theirs)
    result: list[Word] = []
    changed = 0
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ours, theirs, autojunk=False).get_opcodes():
        span = tesseract[i1:i2]
        if op == "insert" and 0 < i1 < len(tesseract):
            missed = _missed_words(tesseract[i1 - 1], tesseract[i1], second[j1:j2], known, others)
            result += missed
            changed += len(missed)
            continue
        if op != "replace":
            result += span
            continue
        if _better(span, second[j1:j2], known) and same_alternatives(" ".join(w.text for w in span), " ".join(t for t, _ in second[j1:j2])):
            result += _placed(span, second[j1:j2])
            changed += len(span)
        elif len(span) == 1 and j2 - j1 == 1 and second[j1][1] >= SURE_FROM and \
                (taken := alternatives_reading(span[0].text, second[j1][0], known, 0 <= span[0].conf < UNSURE_BELOW)):
            result.append(replace(span[0], text=taken))  # `lnterview/interviu`: alternative by alternative
            changed += 1
        elif len(span) == 1 and j2 - j1 == 1 and (merged := _merged_reading(span[0].text, second[j1][0], known)):
            result.append(replace(span[0], text=merged))
            changed += 1
        else:
            result += span
    return result, changed


def _merged_reading(ours: str, theirs: str, known: _Known) -> str | None:
    """The one known word that taking each differing stretch of the two readings from either makes, where
    neither reading is known itself (`Żródtem` and `Zródłem` could give `Żródłem`); None otherwise."""
    if known(ours) or known(theirs):
        return None
    pieces: list[tuple[str, ...]] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, ours, theirs, autojunk=False).get_opcodes():
        pieces.append((ours[i1:i2],) if op == "equal" else (ours[i1:i2], theirs[j1:j2]))
    if sum(len(p) == 2 for p in pieces) > MAX_MERGED_CHOICES:
        return None
    candidates = {"".join(choice) for choice in itertools.product(*pieces)} - {ours, theirs}
    found = [c for c in sorted(candidates) if word_core(c)[1].isalpha() and known(c)]
    return found[0] if len(found) == 1 else None


def _missed_words(before: Word, after: Word, second: list[tuple[str, float]], known: _Known, others: Sequence[Word]) -> list[Word]:
    """Words the second reader read between two of Tesseract's that Tesseract has nowhere there: each a
    known word, read confidently, where the image leaves room for them and no other word of the page stands."""
    if not all(known(t) and word_core(t)[1] for t, _ in second) or min(c for _, c in second) < SURE_FROM:
        return []
    height = max(before.bottom, after.bottom) - min(before.top, after.top)
    room = after.left - before.right
    letters = sum(len(t) for t, _ in second)
    if room < MISSED_ROOM * height * (letters + len(second)):
        return []
    gap = Word("", 0, before.right + 1, min(before.top, after.top), after.left - 1, max(before.bottom, after.bottom), before.line)
    if any(overlap_share(gap, w) > 0.3 for w in others):
        return []
    return _placed([gap], second)
def _better(span: list[Word], second: list[tuple[str, float]], known: _Known) -> bool:
    """Whether the second reading of a differing span wins: it is confident, all its words are known and
    Tesseract's are not; or, where the two spell the same characters and only the spaces differ (a word
    glued to the next may glue into a known word: Slovak `sak` for `sa k`), Tesseract was unsure of it."""
    if not all(known(t) for t, _ in second) or sum(c for _, c in second) / len(second) < SURE_FROM:
        return False
    ours, theirs = "".join(w.text for w in span), "".join(t for t, _ in second)
    if ours == theirs:
        return min(w.conf for w in span) < UNSURE_BELOW or not all(known(w.text) for w in span)
    if all(known(w.text) for w in span):
        return False
    matched = sum(block.size for block in difflib.SequenceMatcher(None, ours, theirs, autojunk=False).get_matching_blocks())
    differing = max(len(ours), len(theirs)) - matched
    return differing <= max(1.0, (1 - SIMILAR_FROM) * max(len(ours), len(theirs)))


def _placed(span: list[Word], second: list[tuple[str, float]]) -> list[Word]:
    """The second reading's words in the span's box, each as wide as its share of the characters."""
    left, right = span[0].left, max(span[-1].right, span[0].left + 1)
    top, bottom = min(w.top for w in span), max(w.bottom for w in span)
    total = sum(len(t) for t, _ in second) + len(second) - 1
    placed, at = [], 0
    for text, conf in second:
        start = left + (right - left) * at // max(total, 1)
        at += len(text)
        end = left + (right - left) * at // max(total, 1)
        at += 1
        placed.append(Word(text, round(100 * conf, 2), start, top, max(end, start + 1), bottom, span[0].line))
    return placed


def read_again(grey: Image.Image, words: list[Word], languages: Sequence[str], *, skip: Sequence[Word] = (),
               recogniser_name: str = SECOND_RECOGNISER, judged_unsure: Callable[[Word], bool] | None = None,
               scanned: Image.Image | None = None) -> SecondReading:
    """`words` with the unsure windows read again by the second recogniser and combined (the module's doc);
    `judged_unsure`: the certainty rules' verdict on a word, whose windows are read first (`unsure_windows`);
    `scanned`: the page as scanned, in `grey`'s geometry, which the windows on light paper are read from.

    The second reading is an addition: where it fails (its dictionary process gone, the recogniser
    raising), the page keeps Tesseract's words and the note says what failed."""
    spelling, why_not = readiness(tuple(languages), recogniser_name)
    if spelling is None:
        return SecondReading(words, why_not or "")
    try:
        return _read_again(grey, words, languages, skip, recogniser_name, spelling, judged_unsure, scanned)
    except (SpellingUnavailable, OSError, RuntimeError, ValueError) as exc:
        return SecondReading(words, f"{recogniser_name} failed, Tesseract's reading kept: {type(exc).__name__}: {exc}")


def _read_again(grey: Image.Image, words: list[Word], languages: Sequence[str], skip: Sequence[Word], recogniser_name: str,
                spelling: Spelling, judged_unsure: Callable[[Word], bool] | None = None,
                scanned: Image.Image | None = None) -> SecondReading:
    recogniser: Recogniser = RECOGNISERS[recogniser_name]
    known = _Known(spelling)
    lines = words_by_line(words)
    heights = [w.bottom - w.top for w in words if w.bottom > w.top]
    line_height = float(np.median(heights)) if heights else 0.0
    width = sum(w.right - w.left for w in words) / line_height if line_height else 0.0
    budget = max(BUDGET_FLOOR, BUDGET_SHARE * width) if line_height else 0.0
    deciding_budget = budget + DECIDING_SHARE * width
    pixels = np.asarray(grey.convert("L"))
    scanned_pixels = np.asarray(scanned.convert("L")) if scanned is not None else None
    chosen: list[Window] = []
    crops: list[np.ndarray] = []
    lefts: list[int] = []
    spent = 0.0
    over_budget = 0
    for window in unsure_windows(words, known, skip, judged_unsure):
        members = lines[window.line][window.start : window.end]
        crop, left = _crop(pixels, members, scanned_pixels)
        cost = crop.shape[1] / max(crop.shape[0], 1)
        if crop.size == 0 or spent + cost > (deciding_budget if window.decides else budget):
            over_budget += crop.size > 0
            continue
        spent += cost
        chosen.append(window)
        crops.append(crop)
        lefts.append(left)
    if not chosen:
        return SecondReading(words, f"{recogniser_name}: no unsure word within the budget")
    readings = recogniser.read(crops, languages)
    replacement: dict[int, list[Word]] = {}
    dropped: set[int] = set()
    replaced = 0
    for window, reading in zip(chosen, readings):
        members = lines[window.line][window.start : window.end]
        keep_second_readings(members, [t for t, _ in _second_words(reading)])  # evidence for `certainty`, rewriting nothing
        combined, count = combine(members, reading, known, [w for w in words if w.line != window.line])
        mark_settled(members, combined, known)
        if count:
            replaced += count
            replacement[id(members[0])] = combined
            dropped |= {id(w) for w in members}
    result: list[Word] = []
    for word in words:
        if id(word) in replacement:
            result += replacement[id(word)]
        elif id(word) not in dropped:
            result.append(word)
    left_out = f", {over_budget} left out over the budget" if over_budget else ""
    return SecondReading(result, f"{recogniser_name}: {len(chosen)} window(s) read again, {replaced} word(s) changed{left_out}")


def second_reader_inputs(languages: tuple[str, ...], recogniser_name: str = SECOND_RECOGNISER) -> str:
    """What the pass reads on this machine for `languages`, for the OCR cache key: the recogniser's packages
    and each spelling dictionary's files (`hunspell.dictionary_identity`), or why it skips (a package, a
    dictionary or `hunspell` missing). Cheap: it starts neither the recogniser nor `hunspell`, so a page
    read from the cache costs no model load. A reading made without a dictionary is read again once it is
    installed, and the other way round."""
    packages = _package_versions(getattr(RECOGNISERS[recogniser_name], "package", None))
    if packages is None:
        return f"{recogniser_name} skipped: not installed"
    try:
        spelling = spelling_for(languages)
    except SpellingUnavailable as exc:
        return f"{recogniser_name} skipped: {exc}"
    same = f"; same words {len(spelling.same_words)}" if spelling.same_words else ""
    return f"{packages}; " + ", ".join(f"{name}:{dictionary_identity(name)}" for name in spelling.names) + same


# Once a process: packages are not installed under a running extract, and reading their metadata for every
# scanned page's cache key is a scan of site-packages each time.
@lru_cache(maxsize=8)
def _package_versions(package: str | None) -> str | None:
    """"rapidocr-3.4.2+onnxruntime-1.22.0" (the recogniser's package and the runtime it needs), or None when
    one is not installed; "" for a recogniser with no package (Tesseract: in the key on its own)."""
    if package is None:
        return ""
    from importlib import metadata

    try:
        return f"{package}-{metadata.version(package)}+onnxruntime-{metadata.version('onnxruntime')}"
    except metadata.PackageNotFoundError:
        return None


def second_reader_version() -> str:
    """What the pass's output depends on beyond its code: the second recogniser's package version."""
    from importlib import metadata

    try:
        return f"{SECOND_RECOGNISER}-{metadata.version('rapidocr')}"
    except metadata.PackageNotFoundError:
        return f"no-{SECOND_RECOGNISER}"

