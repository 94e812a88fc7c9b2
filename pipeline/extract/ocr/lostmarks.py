"""Diacritics a soft scan lost, put back where exactly one word of the language has them (`clinico` → `clínico`).

On soft scans (150–200 dpi, blur 0.8) an acute, a tilde or a circumflex over a small letter is a few pixels of
faint ink, and Tesseract reads the letter without it: on the corpus sheets rasterised by
`python -m pipeline.devkit.misreads` a lost mark was the largest class of word errors that a dictionary
can mend (Spanish `fisica`, Portuguese `clinico`, `sindrome`, `macrocitica`). The mark's loss is a feature of
the script (small marks above letters), not of one language's words, so the rule is the same everywhere:
- the word as read is no word of the language: its spelling dictionary (`hunspell`) does not know it, or,
  for a language without one, Tesseract's word list (`Lexicon`) does not (that list holds web spellings
  without marks, `fisica`, so the dictionary judges where there is one): a word of the language is never
  rewritten (Spanish `articulo` and `periodo`, Portuguese `clinico` are words, and stay as read);
- it is a word of small letters (a word in capitals is often printed without its marks) of at least
  MIN_LETTERS letters;
- exactly one known word has the same letters with more marks, keeping every mark the reading has, and
  only on small letters (a capital's accent outside the word's box is `capital-accents`' to judge); the
  spelling dictionary knows it too where the language has one;
- the second reader did not read the word alike: a word both engines read alike is never rewritten. INAP
  2024 prints `Constitucion`, `publicos`, `Administracion` without their accents, and both engines read
  them so; the dictionary alone would have "mended" five such words for one it mended right.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import replace

from pipeline.extract.ocr.hunspell import SpellingUnavailable, dictionary_identity, spelling_for
from pipeline.extract.ocr.lexicon import Lexicon, bare_letters, word_core
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.words import Word

MIN_LETTERS = 4  # shorter words have too many marked neighbours (Spanish `si`/`sí`, `mas`/`más`)


def _marks(word: str) -> int:
    return sum(unicodedata.combining(ch) > 0 for ch in unicodedata.normalize("NFD", word))


def _keeps_reading(read: str, known: str) -> bool:
    """`known` is `read` with marks added on small letters, none taken away or changed."""
    if len(read) != len(known):
        return False
    for mine, theirs in zip(read, known):
        if mine == theirs.casefold() or mine == theirs:
            continue
        if _marks(mine) or not mine.islower() or bare_letters(theirs) != mine:
            return False
    return True


def marks_put_back(words: list[Word], lexicon: Lexicon, spelled: Callable[[str], bool] | None) -> list[Word]:
    """Each word that lost its marks, as the module's docstring says, with them back; the others as they are."""
    mended: dict[int, Word] = {}
    for word in words:
        lead, core, trail = word_core(word.text)
        if len(core) < MIN_LETTERS or not core.isalpha() or not core[1:].islower():
            continue
        if spelled(core) if spelled is not None else core in lexicon:
            continue
        if word.second is not None and word_core(word.second)[1] in ("", core):
            continue  # both engines read it alike (or the second read nothing there): as printed, however spelled
        folded = core.casefold()
        found = [known for known in lexicon.by_bare_letters.get(bare_letters(folded), ())
                 if _marks(known) > _marks(folded) and _keeps_reading(folded, known) and (known[0] == folded[0] or core[0].islower())]
        if spelled is not None:
            found = [known for known in found if spelled(known)]
        if len(found) != 1:
            continue
        text = found[0][0].upper() + found[0][1:] if core[0].isupper() else found[0]
        mended[id(word)] = replace(word, text=lead + text + trail)
    return [mended.get(id(w), w) for w in words]


def spelling_inputs(settings: OcrSettings) -> str:
    """What the pass reads on this machine, for the OCR cache key: each spelling dictionary of the page's languages
    (its files' digest), or why there are none (a reading made without a dictionary is read again once it is installed)."""
    try:
        spelling = spelling_for(tuple(settings.languages))
    except SpellingUnavailable as exc:
        return f"no spelling: {exc}"
    return ", ".join(f"{name}:{dictionary_identity(name)}" for name in spelling.names)
