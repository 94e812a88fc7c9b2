"""Spelling dictionaries (Debian's hunspell ones) asked whether a word is a word of the page's languages.

Public API:
    spelling_for(languages) -> Spelling | None   # the dictionaries the language data names for these Tesseract languages
    Spelling.knows(words) -> list[bool]          # one answer per word, in order
    Spelling.letters -> frozenset[str]           # every letter the dictionaries' `TRY` line lists (the language's alphabet)
    SpellingUnavailable                          # why there is none (no language data, package or `hunspell`)
    dictionary_identity(name) -> str             # a digest of its files, for the OCR cache key

Which dictionaries a language has lives in its language file (`spelling.dictionaries`, with the Debian
packages that ship them; `make setup` installs them). The `hunspell` program reads them: one process per
dictionary and Python process, started at first use, in list mode (`-l`, misspelt words only, no
suggestions, which cost ~0.1 s a word), started at the first question, with its output line-buffered, each word sent with a sentinel
the dictionary cannot know so that the answer's end is seen. It loads a dictionary in 0.1–1.5 s of CPU
(Polish 0.3, Greek 1.5), against 4.5–13 s for the pure-Python `spylls`, and answers in microseconds.
"""
from __future__ import annotations

import atexit
import hashlib
import re
import shutil
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from pipeline.languages import language_for_tesseract

DICTIONARY_DIR = Path("/usr/share/hunspell")
SENTINEL = "qxqzjxq"  # no language's word: every answer ends with it


class SpellingUnavailable(RuntimeError):
    """A language's spelling dictionary cannot be used (no language data, its package or `hunspell` missing)."""


@dataclass
class _Checker:
    """One running `hunspell -l` over one dictionary, shared by the threads of this process."""

    dictionary: Path  # the .dic path without its suffix
    encoding: str
    process: subprocess.Popen[bytes]
    lock: threading.Lock = field(default_factory=threading.Lock)

    def knows(self, word: str) -> bool:
        try:
            data = f"{word} {SENTINEL}\n".encode(self.encoding)
        except UnicodeEncodeError:  # a letter the dictionary's charset lacks: no word of it
            return False
        assert self.process.stdin is not None and self.process.stdout is not None
        with self.lock:
            self.process.stdin.write(data)
            self.process.stdin.flush()
            misspelt = False
            while True:
                line = self.process.stdout.readline()
                if not line:
                    raise SpellingUnavailable(f"hunspell ({self.dictionary}) stopped answering")
                answer = line.decode(self.encoding, errors="replace").strip()
                if answer == SENTINEL:
                    return not misspelt
                misspelt = misspelt or bool(answer)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()


@lru_cache(maxsize=32)
def _affix_file(name: str) -> tuple[str, str]:
    """(dictionary `name`'s character encoding, its `TRY` letters), from its .aff file; checks it is installed."""
    dictionary = DICTIONARY_DIR / name
    if not dictionary.with_suffix(".dic").is_file() or not dictionary.with_suffix(".aff").is_file():
        raise SpellingUnavailable(f"no hunspell dictionary {dictionary}.dic (install the package the language file names)")
    raw = dictionary.with_suffix(".aff").read_bytes()
    declared = re.search(rb"^SET\s+(\S+)", raw, re.M)
    encoding = declared.group(1).decode("ascii", errors="replace") if declared else "ISO8859-1"
    encoding = {"microsoft-cp1251": "cp1251"}.get(encoding.lower(), encoding)
    try:
        text = raw.decode(encoding, errors="replace")
    except LookupError:
        raise SpellingUnavailable(f"{dictionary}.aff: unknown character set {encoding!r}") from None
    tried = re.search(r"^TRY\s+(\S+)", text, re.M)
    return encoding, tried.group(1) if tried else ""


def dictionary_identity(name: str) -> str:
    """Dictionary `name`'s files as the OCR cache key knows them: the SHA-256 of its .aff and .dic (first 16
    hex digits), computed once per file version (path, size, modification time) in a process."""
    dictionary = DICTIONARY_DIR / name
    files = [dictionary.with_suffix(".aff").resolve(), dictionary.with_suffix(".dic").resolve()]
    stats = [f.stat() for f in files]
    return _file_digest(tuple((str(f), s.st_size, s.st_mtime_ns) for f, s in zip(files, stats)))


@lru_cache(maxsize=64)
def _file_digest(files: tuple[tuple[str, int, int], ...]) -> str:
    digest = hashlib.sha256()
    for path, _, _ in files:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:16]


def _programs() -> tuple[str, str]:
    program, stdbuf = shutil.which("hunspell"), shutil.which("stdbuf")
    if not program or not stdbuf:
        raise SpellingUnavailable("the `hunspell` program (Debian package hunspell) or `stdbuf` (coreutils) is not installed")
    return program, stdbuf


@lru_cache(maxsize=16)
def _checker(name: str) -> _Checker:
    """The running `hunspell` of dictionary `name`, started at its first question."""
    encoding, _ = _affix_file(name)
    program, stdbuf = _programs()
    dictionary = DICTIONARY_DIR / name
    # stdbuf: hunspell writes through stdio, which a pipe would buffer until the end.
    process = subprocess.Popen([stdbuf, "-oL", program, "-l", "-i", encoding, "-d", str(dictionary)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    checker = _Checker(dictionary, encoding, process)
    atexit.register(checker.close)
    return checker


@dataclass(frozen=True)
class Spelling:
    """The dictionaries of one or more languages: a word is known when any of them knows it."""

    names: tuple[str, ...]
    # Sequences written either way in one word, both directions (language data's `spelling.same_words`).
    same_words: tuple[tuple[str, str], ...] = ()

    @cached_property
    def _checkers(self) -> list[_Checker]:
        return [_checker(name) for name in self.names]

    @cached_property
    def letters(self) -> frozenset[str]:
        """The languages' letters, lower case, as their dictionaries' `TRY` lines list them (no process started)."""
        return frozenset(ch for name in self.names for ch in _affix_file(name)[1].lower() if ch.isalpha())

    def knows(self, words: Sequence[str]) -> list[bool]:
        """Whether each word (letters only, as printed: case matters for names) is a word of the languages."""
        answers = []
        for word in words:
            if not word or any(ch.isspace() for ch in word):
                answers.append(False)
                continue
            answers.append(any(checker.knows(form) for form in self._forms(word) for checker in self._checkers))
        return answers

    def _forms(self, word: str) -> list[str]:
        """`word`, then the word with each of its `same_words` sequences written the other way (in its case)."""
        forms = [word]
        for one, other in self.same_words:
            for a, b in ((one, other), (one.upper(), other.upper()), (one.capitalize(), other.capitalize())):
                for form in list(forms):
                    if a in form:
                        forms.append(form.replace(a, b))
        return list(dict.fromkeys(forms))


def spelling_for(languages: Sequence[str]) -> Spelling:
    """The spelling dictionaries of Tesseract's `languages` (pol, spa …), as their language files name them.

    Raises `SpellingUnavailable` naming what is missing: a language without data or dictionaries, a
    dictionary not installed, or the `hunspell` program."""
    names: list[str] = []
    same: list[tuple[str, str]] = []
    for name in languages:
        language = language_for_tesseract(name)
        if language is None or language.spelling is None:
            raise SpellingUnavailable(f"no spelling dictionary named for Tesseract language {name!r} (pipeline/languages/data)")
        names += language.spelling.dictionaries
        for one, other in language.spelling.same_words.items():
            same += [(one, other), (other, one)]
    spelling = Spelling(tuple(dict.fromkeys(names)), tuple(dict.fromkeys(same)))
    _programs()  # what is missing is said now, before any page is read; the processes start at the first question
    for name in spelling.names:
        _affix_file(name)
    return spelling
