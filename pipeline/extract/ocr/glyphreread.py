"""Words no dictionary knows, one glyph away from a word it knows, read again from their own crop.

Tesseract's commonest misreadings on soft scans are of one glyph: an accent lost on a small letter (`Sindrome`,
`fisica`, `dias` for `Síndrome`, `física`, `días`: at 150 dpi an acute over an `i` is a blur of the size of its
dot), or a letter read for one of its shape (`caiman` for `calman`, `sénco` for `sérico`). Read on the whole page,
the glyph is one of thousands and the line's context decides; read alone, enlarged, from the page as scanned
(not as smoothed for Tesseract, which whitens the light grey of a thin accent), Tesseract reads it as printed
(`Estanterias` → `Estanterías`, `Fisica` → `Física` on the INAP booklet at 150 dpi), and a word printed without its
accent stays so (`Constitucion` on the same booklet's cover).

`glyph_candidates`: a word of letters (MIN_LETTERS or more, not all capitals) that the language's spelling
dictionaries do not know, and for which they know a word one glyph away: one letter with a mark, or another mark,
over the same base letter (any letter of the dictionaries' alphabet: `i`/`í`, `a`/`ä`, `o`/`ô`, `e`/`ě`), or one of the
glyph shapes any recogniser confuses (`CONFUSIONS`, defined once for every script that writes those letters).
`reread_one_glyph_words` reads each such word's crop again, alone (`--psm 8`), enlarged READ_SCALE times:

- the second reading is one of the candidates: the word takes it (its punctuation kept);
- it is the word as read: nothing changes;
- it is anything else: the word stays, and the second reading is kept at its place (`Word.second`) as any second
  reading is, so that the flag (`certainty`) counts the word as read two ways.

A word both engines read alike (`agreement.alike`: the second recogniser read it the same) is never given another
glyph shape; it may get a mark back, for RapidOCR reads the marks of its alphabet seldom (`agreement.contradicts`
makes a mark it lost no contradiction either), so its bare letter is no evidence. A word the dictionaries know is
never read again, even where a marked spelling is a word too (`periodo` / `período`): both are words, and reading
every such word again would cost a page's second reading. At most MAX_WORDS words a page are read.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import replace

from PIL import Image

from pipeline.extract.ocr.agreement import alike
from pipeline.extract.ocr.engine import parse_tsv, run_tesseract
from pipeline.extract.ocr.hunspell import Spelling, SpellingUnavailable, dictionary_identity, spelling_for
from pipeline.extract.ocr.lexicon import word_core
from pipeline.extract.ocr.passes import Cost, PageWork, page_pass
from pipeline.extract.ocr.settings import OcrSettings
from pipeline.extract.ocr.words import Word

MIN_LETTERS = 4  # shorter words have too many neighbours one glyph away
MAX_WORDS = 40  # words a page reads again (a page of a language without its accents printed stays cheap)
READ_SCALE = 2  # the crop enlarged so many times before it is read
SINGLE_WORD_PSM = 8
PAD_ABOVE = 0.5  # word heights of the scan kept above the word's box (an accent Tesseract left out of it)
PAD_BESIDE = 0.2  # word heights kept left and right, and below
MARGIN = 0.5  # word heights of white around the crop
# Glyph shapes a recogniser reads for one another, (read, printed): letters blur joins (`ri` read `n`), a stem
# read for its neighbour of the same shape (`l`/`i`/`I`), a closed or open bowl (`c`/`e`, `q`/`g`). Defined once:
# they are shapes of the Latin letters, in whichever language writes them.
CONFUSIONS = (
    ("n", "ri"), ("m", "rn"), ("d", "cl"), ("h", "li"), ("m", "in"),
    ("i", "l"), ("l", "i"), ("I", "l"), ("l", "I"), ("i", "t"), ("t", "i"),
    ("c", "e"), ("e", "c"), ("g", "q"), ("q", "g"), ("u", "n"), ("n", "u"),
)


def _base(letter: str) -> str:
    return unicodedata.normalize("NFD", letter)[0]


def _marked_letters(spelling: Spelling) -> dict[str, tuple[str, ...]]:
    """{a letter: the marked letters of the dictionaries' alphabet on the same base, itself left out}, both cases.
    Only marked ones: a mark Tesseract read that the print lacks is not this pass's (on Revalida 2023 at 200 dpi a
    crop read `exsanguineo`, a spelling the dictionary knows too, for the printed `exsanguíneo`)."""
    by_base: dict[str, list[str]] = {}
    for letter in spelling.letters:
        by_base.setdefault(_base(letter), []).append(letter)
    found: dict[str, tuple[str, ...]] = {}
    for base, members in by_base.items():
        marked = [m for m in members if m != base]
        for letter in members:
            others = tuple(m for m in marked if m != letter)
            if others:
                found[letter] = others
                found[letter.upper()] = tuple(m.upper() for m in others)
    return found


def glyph_candidates(core: str, marked: dict[str, tuple[str, ...]]) -> list[str]:
    """`core` with one glyph changed: a letter for another on its base (`marked`), or a `CONFUSIONS` pair."""
    found = []
    for at, letter in enumerate(core):
        found += [core[:at] + other + core[at + 1:] for other in marked.get(letter, ())]
    for read, printed in CONFUSIONS:
        start = core.find(read)
        while start >= 0:
            found.append(core[:start] + printed + core[start + len(read):])
            start = core.find(read, start + 1)
    return [c for c in dict.fromkeys(found) if c != core]


def may_be_one_glyph_off(word: Word) -> bool:
    """A word worth asking the dictionary about: letters only, MIN_LETTERS or more, not all capitals."""
    core = word_core(word.text)[1]
    return len(core) >= MIN_LETTERS and core.isalpha() and not core.isupper() and word.bottom > word.top


def _marks_only(core: str, candidate: str) -> bool:
    """Whether `candidate` differs from `core` by the mark over one letter (the same letters on the same bases)."""
    return len(core) == len(candidate) and all(_base(a) == _base(b) for a, b in zip(core, candidate))


def open_to(word: Word, core: str, candidate: str) -> bool:
    """Whether the evidence of the second recogniser leaves `candidate` open: a word both engines read alike is not
    read otherwise, except for a mark (RapidOCR reads the marks its alphabet has seldom, `agreement.contradicts`:
    its bare letter is no evidence that the print has none)."""
    return word.second is None or not alike(word.text, word.second) or _marks_only(core, candidate)


def reread_one_glyph_words(words: Sequence[Word], scanned: Image.Image, languages: Sequence[str], dpi: int,
                           omp_thread_limit: int | None, spelling: Spelling,
                           read: Callable[[Image.Image], str] | None = None) -> list[Word]:
    """`words` with each word one glyph away from a known word read again from its crop (see the module's doc).
    `read`: what reads a crop (default: Tesseract, one word, at READ_SCALE times `dpi`)."""
    if read is None:
        def read(crop: Image.Image) -> str:
            tsv = run_tesseract(crop, languages, dpi * READ_SCALE, omp_thread_limit=omp_thread_limit, psm=SINGLE_WORD_PSM)
            return " ".join(w.text for w in parse_tsv(tsv))
    marked = _marked_letters(spelling)
    asked = [w for w in words if may_be_one_glyph_off(w)]
    cores = sorted({word_core(w.text)[1] for w in asked})
    known = dict(zip(cores, spelling.knows(cores)))
    chances: dict[str, list[str]] = {}
    for core in (c for c in cores if not known[c]):
        candidates = glyph_candidates(core, marked)
        chances[core] = [c for c, yes in zip(candidates, spelling.knows(candidates)) if yes]

    def open_candidates(word: Word) -> list[str]:
        core = word_core(word.text)[1]
        return [c for c in chances.get(core, ()) if open_to(word, core, c)]

    grey = scanned.convert("L")
    mended: dict[int, Word] = {}
    for word in [w for w in asked if open_candidates(w)][:MAX_WORDS]:
        lead, core, trail = word_core(word.text)
        again = read(_crop(grey, word))
        again_core = word_core(again)[1]
        if again_core in open_candidates(word):
            mended[id(word)] = replace(word, text=lead + again_core + trail)
        elif word.second is None and not alike(core, again):
            mended[id(word)] = replace(word, second=again)
    return [mended.get(id(w), w) for w in words]


def _crop(grey: Image.Image, word: Word) -> Image.Image:
    """The word on the scan, a little of the paper around it, on white, enlarged READ_SCALE times."""
    height = word.bottom - word.top
    box = (max(0, word.left - round(PAD_BESIDE * height)), max(0, word.top - round(PAD_ABOVE * height)),
           min(grey.width, word.right + round(PAD_BESIDE * height)), min(grey.height, word.bottom + round(PAD_BESIDE * height)))
    margin = round(MARGIN * height)
    piece = grey.crop(box)
    canvas = Image.new("L", (piece.width + 2 * margin, piece.height + 2 * margin), 255)
    canvas.paste(piece, (margin, margin))
    return canvas.resize((canvas.width * READ_SCALE, canvas.height * READ_SCALE), Image.Resampling.LANCZOS)


def spelling_of(languages: Sequence[str]) -> Spelling | None:
    """The languages' spelling dictionaries where their alphabet (the dictionaries' `TRY` letters) writes marks over
    letters (`í`, `ä`, `ě`, `ά`); None where a language has no dictionary or no such letter (English; Korean, whose
    dictionary lists jamo and knows every Latin word, the checker's sentinel too): the pass then does not apply."""
    try:
        spelling = spelling_for(languages)
    except SpellingUnavailable:
        return None
    return spelling if any(_base(letter) != letter for letter in spelling.letters) else None


def reread_inputs(languages: Sequence[str]) -> str:
    """The dictionaries' files the pass asks (their digests, for the OCR cache key), or why it does not apply."""
    try:
        spelling = spelling_for(languages)
    except SpellingUnavailable as exc:
        return f"skipped: {exc}"
    return ", ".join(f"{name}:{dictionary_identity(name)}" for name in spelling.names)


def _spelled_language(work: PageWork) -> bool:
    """the page's languages have spelling dictionaries and letters with marks"""
    return spelling_of(work.settings.languages) is not None


def _reread_inputs(settings: OcrSettings) -> str:
    return reread_inputs(settings.languages)


@page_pass("glyph-reread", "2",  # 2: a mark is only added or changed, never taken off
            Cost.REGIONS, when=_spelled_language, inputs=_reread_inputs)
def _glyph_reread(work: PageWork) -> PageWork:
    """A word the spelling dictionaries do not know, one glyph (a mark over a letter, a confused shape) from a word
    they know, read again alone from its crop of the scan, enlarged; it takes the second reading when that is the
    known word, and keeps any other second reading for the flag (`glyphreread`)."""
    spelling = spelling_of(work.settings.languages)
    assert spelling is not None
    words = reread_one_glyph_words(work.words, work.image, work.settings.languages, work.settings.dpi,
                                   work.omp_thread_limit, spelling)
    return replace(work, words=words)
