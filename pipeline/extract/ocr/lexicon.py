"""Lexicon-guided repair of OCR words, with the word lists inside Tesseract's own language data.

Public API:
    load_lexicon(languages) -> Lexicon | None      # None (and a warning) when the lists cannot be read
    Lexicon.repair(word) -> str                     # the word, or its one unambiguous repair

Tesseract's fast models lose letters inside ligature pairs of tight type ("Infuenza", "Atrofa",
"Faringiis" on a condensed CONAREME sheet) and read a capital I as l ("latrogénica"). A word the
language's word list does not know gets the candidates those two confusions produce; when exactly one
candidate is a known word, it replaces the word. Known words are never touched, and neither are words
with two or more possible repairs, digits, or fewer than MIN_LETTERS letters: a name or a drug the list
lacks stays as Tesseract read it. On the text layers of ../shared/corpus (16,476 correct words in
Spanish, Slovak and Polish) the repairs change nothing.

The word lists come from each language's `.traineddata` (`combine_tessdata -u`, then `dawg2wordlist`,
both shipped with Debian's tesseract-ocr) and are cached as text under $XDG_CACHE_HOME/examcorpus.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import unicodedata
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from pipeline.extract.ocr.engine import OcrUnavailable, tesseract_command
from pipeline.infra import write_bytes_atomic
from pipeline.languages import language_for_tesseract, script_data

MIN_LETTERS = 4  # shorter words have too many neighbours to repair safely
# The confusions repaired. Each wider rule tried (any thin letter anywhere, accents restored, letters
# dropped, glued one-letter words split) changed more correct words the lists lack (inflections, names,
# a source's own spelling) than it mended, on the text layers and OCR of ../shared/corpus.
DROPPED = "ilft"  # a letter lost inside a ligature pair: "Infuenza", "Atrofa", "Faringiis", "políicas"
LIGATURES = {"ff", "fi", "fl", "fj", "ft", "ti", "tt", "tf"}
SWAPPED = {"l": "i"}  # a capital I read as l: "latrogénica"
_CORE = re.compile(r"^(?P<lead>\W*)(?P<core>.*?)(?P<trail>\W*)$", re.DOTALL)


def word_core(token: str) -> tuple[str, str, str]:
    """(leading punctuation, the word, trailing punctuation) of a token: '„Vdruhom.' → ('„', 'Vdruhom', '.')."""
    match = _CORE.match(token)
    return match.group("lead"), match.group("core"), match.group("trail")


class LexiconUnavailable(RuntimeError):
    """The word list of a language could not be read from its Tesseract data."""


@dataclass
class Lexicon:
    """Known words of one or more languages, casefolded, with their usual spelling."""

    words: dict[str, str]  # casefolded → the lowercase spelling as listed
    # The languages' `text_quality.misread_letters` (language data): printed letters → what blur reads them as.
    misread_letters: tuple[tuple[str, str], ...] = ()
    # What OCR confuses in the words of the languages' scripts (`pipeline/languages/scripts.yaml`): runs read for each
    # other, both ways, and whether a diacritic lost or gained on one letter is a confusion too.
    confusable: tuple[tuple[str, str], ...] = ()
    confusable_marks: bool = False

    def __contains__(self, word: str) -> bool:
        return word.casefold() in self.words

    @cached_property
    def one_letter_words(self) -> frozenset[str]:
        return frozenset(w for w in self.words if len(w) == 1 and w.isalpha())

    @cached_property
    def by_bare_letters(self) -> dict[str, tuple[str, ...]]:
        """{a known word without its diacritics: the known words (casefolded) that are spelled so}."""
        found: dict[str, list[str]] = {}
        for word in self.words:
            found.setdefault(bare_letters(word), []).append(word)
        return {bare: tuple(words) for bare, words in found.items()}

    @cached_property
    def marked_letters(self) -> dict[str, tuple[str, ...]]:
        """{a bare letter: the letters with diacritics on it that the known words write}, lower case."""
        found: dict[str, set[str]] = {}
        for ch in {ch for word in self.words for ch in word}:
            bare = bare_letters(ch)
            if ch.isalpha() and len(bare) == 1 and _has_marks(ch):
                found.setdefault(bare, set()).add(ch)
        return {bare: tuple(sorted(chars)) for bare, chars in found.items()}

    @cached_property
    def initials(self) -> frozenset[str]:
        """Every letter a known word starts with (casefolded)."""
        return frozenset(w[0] for w in self.words)

    def _edits(self, word: str) -> Iterator[str]:
        # A letter lost inside a ligature pair, never at either end of the word (there a missing letter
        # is as often an inflection the list lacks as a misread).
        for i in range(1, len(word)):
            for ch in DROPPED:
                if word[i - 1] + ch in LIGATURES or ch + word[i] in LIGATURES:
                    yield word[:i] + ch + word[i:]
        for i, ch in enumerate(word):
            for other in SWAPPED.get(ch, ""):
                yield word[:i] + other + word[i + 1 :]

    def knows(self, token: str) -> bool:
        """Whether the word of `token`, leading and trailing punctuation aside, is a known word."""
        core = word_core(token)[1]
        return bool(core) and core in self

    def candidates(self, word: str) -> set[str]:
        """Known words one confusion away from `word` (casefolded); two lost letters when one is not enough."""
        folded = word.casefold()
        found = {c for c in self._edits(folded) if c in self.words}
        if not found:
            found = {twice for once in self._edits(folded) for twice in self._edits(once) if twice in self.words}
        return {self.words[c] for c in found}

    def repair(self, token: str) -> str:
        """`token` with its word repaired when the lexicon does not know it and exactly one repair is known.
        Leading and trailing punctuation stay as they are."""
        lead, core, trail = word_core(token)
        if len(core) < MIN_LETTERS or not core.isalpha() or core in self:
            return token
        fixes = self.candidates(core)
        if len(fixes) != 1:
            return token
        fixed = _same_case(fixes.pop(), core)
        if core[0] == "l" and fixed[0] == "i":
            fixed = "I" + fixed[1:]  # the swap was a capital I read as l
        return lead + fixed + trail


def run_places(text: str, run: str, most: int) -> Iterator[int]:
    """Where `run` starts in `text`, left to right (overlapping places included), at most `most` of them: the places
    a confused run of letters is tried at, bounded so a long word of repeated letters stays cheap."""
    start = text.find(run)
    for _ in range(most):
        if start < 0:
            return
        yield start
        start = text.find(run, start + 1)


def bare_letters(word: str) -> str:
    """`word` casefolded and without its diacritics (combining marks after NFD): `Geografía` → `geografia`."""
    return "".join(ch for ch in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(ch))


def _has_marks(ch: str) -> bool:
    return any(unicodedata.combining(c) for c in unicodedata.normalize("NFD", ch))


def _same_case(word: str, like: str) -> str:
    if like.isupper():
        return word.upper()
    if like[0].isupper():
        return word[0].upper() + word[1:]
    return word


# --------------------------------------------------------------------------- reading Tesseract's lists


def _tessdata_dir() -> Path:
    prefix = os.environ.get("TESSDATA_PREFIX")
    if prefix:
        return Path(prefix)
    try:
        command = tesseract_command()
    except OcrUnavailable as exc:
        raise LexiconUnavailable(str(exc)) from exc
    result = subprocess.run([command, "--list-langs"], capture_output=True, text=True, timeout=30, check=False)
    header = (result.stdout + result.stderr).splitlines()[0] if (result.stdout + result.stderr).strip() else ""
    found = re.search(r'"([^"]+)"', header)
    if not found:
        raise LexiconUnavailable(f"cannot tell where Tesseract keeps its language data (it said {header!r})")
    return Path(found.group(1))


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "examcorpus" / "lexicons"


def word_list(language: str) -> list[str]:
    """The words of `language`'s Tesseract word dictionary, extracted once and cached by the data's hash."""
    data = _tessdata_dir() / f"{language}.traineddata"
    if not data.is_file():
        raise LexiconUnavailable(f"{data}: no such file")
    digest = hashlib.sha256(data.read_bytes()).hexdigest()[:16]
    cached = _cache_dir() / f"{language}-{digest}.txt"
    if cached.is_file():
        return cached.read_text(encoding="utf-8").split("\n")
    tools = {name: shutil.which(name) for name in ("combine_tessdata", "dawg2wordlist")}
    missing = [name for name, path in tools.items() if not path]
    if missing:
        raise LexiconUnavailable(f"{', '.join(missing)} not found (Debian's tesseract-ocr package ships them)")
    with tempfile.TemporaryDirectory(prefix="examcorpus-lexicon-") as folder:
        stem = Path(folder) / language
        unpacked = subprocess.run([tools["combine_tessdata"], "-u", str(data), f"{stem}."], capture_output=True, timeout=60, check=False)
        unicharset, dawg = Path(f"{stem}.lstm-unicharset"), Path(f"{stem}.lstm-word-dawg")
        if unpacked.returncode != 0 or not (unicharset.is_file() and dawg.is_file()):
            raise LexiconUnavailable(f"{data}: holds no LSTM word dictionary")
        out = Path(f"{stem}.words")
        listed = subprocess.run([tools["dawg2wordlist"], str(unicharset), str(dawg), str(out)], capture_output=True, timeout=120, check=False)
        if listed.returncode != 0 or not out.is_file():
            raise LexiconUnavailable(f"{data}: dawg2wordlist failed: {listed.stderr.decode(errors='replace').strip()}")
        words = [unicodedata.normalize("NFC", w) for w in out.read_text(encoding="utf-8").split("\n") if w]
    try:
        write_bytes_atomic(cached, "\n".join(words).encode("utf-8"), durable=False)
    except OSError as exc:  # a read-only home costs the next process 0.4 s, nothing else
        warnings.warn(f"cannot cache the {language} word list at {cached}: {exc}", stacklevel=2)
    return words


@lru_cache(maxsize=8)
def _load(languages: tuple[str, ...]) -> Lexicon | None:
    words: dict[str, str] = {}
    misread: dict[str, str] = {}
    confusable: list[tuple[str, str]] = []
    marks = False
    for language in languages:
        found = language_for_tesseract(language)
        if found is not None:
            misread.update(found.text_quality.misread_letters)
            script = script_data(found.script)
            confusable += [pair for a, b in script.confusable for pair in ((a, b), (b, a))]
            marks = marks or script.marks
        try:
            listed = word_list(language)
        except (LexiconUnavailable, OSError, subprocess.SubprocessError) as exc:
            warnings.warn(f"OCR word repairs off for {language}: {exc}", stacklevel=3)
            continue
        for word in listed:
            words.setdefault(word.casefold(), word.lower())
    return Lexicon(words, tuple(misread.items()), tuple(dict.fromkeys(confusable)), marks) if words else None


def load_lexicon(languages: Sequence[str]) -> Lexicon | None:
    """The union of the word lists of `languages`; None when none can be read (repairs are then skipped)."""
    return _load(tuple(languages))
