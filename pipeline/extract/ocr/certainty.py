"""How sure an OCR'd word is: the evidence that a word may not read as printed, judged when a page's
words are laid out into lines (`page.lay_out_page`), so a line carries the words it rests on unsurely.

Cheap evidence only, none of it tied to a language's words or a sheet:
- Tesseract's own word confidence (0–100) under `CertaintyPolicy.unsure_below`, for a word the lexicon
  does not vouch for (a known word of `known_sure_from` letters or more is read as printed);
- a word of letters Tesseract's word list for the page's languages does not know (`lexicon`), read
  with a confidence under `unknown_below` (names and inflections the list lacks read confidently);
- letters and digits mixed inside one word where a digit stands between letters or a look-alike letter
  (I, l, O, o, S, Z, B and their Greek and Cyrillic twins) touches a digit (`el7`, `l0`, `5ome`), or
  digits are glued to a word of three letters or more (`εισδοχής2`); an identifier of capitals and digits
  (`FAT32`, `MP3`, `COVID19`, `IPv6`, `H2O`, `ΦΕΚ12`) is printed so, in any script, and is not judged by them,
  nor is a web or mail address or a unit whose micro prefix reads as the Greek mu (`000/μL`) that the second
  recogniser read alike (`printed_mixed`: classes told by their layout, printed with such characters);
- letters of two scripts inside one word (a Latin `o` inside a Greek or Cyrillic word);
- symbols inside a word of letters (`©`, `@`, `|`, `¢`: what a circled label or a speck reads as), and a
  square or curly bracket without its pair (`194]` for `1941`);
- a quantity a scan misread is unsure by its shape (`Sp02`, `Ul/kg`, `000/mm>3`: `quantitywords`), as is a unit's
  letter read as a digit right after a number (`2.8 9/24 h` for `2.8 g/24 h`: two numbers in a row where no mixed
  number stands); a well-formed one (`39°C`, `T°`, `/μL`, `SatO2`) is still judged by the rules above, unless
  `CertaintyPolicy.spare_quantities` asks (off: spared, questions caught only through such words were lost);
- a word the lexicon lacks that it knows with a capital I and a small l swapped (`Iśniącej`), or as a
  one-letter word and a known word run together (`keufemizmom`);
- a word neither the spelling dictionaries nor the lexicon know that the dictionaries know once letters blur
  joins into one are put back (`Ministeno`: `ri` read `n`; language data `text_quality.misread_letters`), and,
  where `CertaintyPolicy.lost_marks` asks for it (off: sheets print words without their accents), one they know
  with a diacritic more (`Geografia`);
- a number of one or two digits alone, shorter than three quarters of its line's median word (`small_digits`):
  a superscript, a subscript or a speck read as a digit, judged from the words' boxes when the line is laid out;
- a number of three digits or more whose box does not fit its read digits in the digit width of the page's other
  numbers of its height (`digit_count`): a digit read twice or a mark read as a digit (`19787?` for `1978?`), or one lost;
- two words of a line whose boxes touch and to which Tesseract gave one confidence (`split_words`): one word it put
  a space inside (`Зап зах` for `Запзах`), unless both are known words and joined they are none;
- ink in a word's line, beside it, of a glyph's or a mark's size that no word read covers (`loose_ink`, `looseink`):
  a stop, a raised mark or a short word Tesseract left out (`pani.` read `pani`), judged when the line is laid out;
- where `CertaintyPolicy.unknown_to_all_from` asks for it (off: terms no dictionary lists flag right questions),
  a word of small letters that neither the lexicon nor the language's spelling dictionaries know;
- the second recogniser's reading of the word (`agreement`), where it read it: read alike, Tesseract's
  confidence no longer counts (the rules of a word's shape still hold: both engines glue `el7` and read a
  capital I for a small l alike); read otherwise, and not settled by the dictionary, it is unsure however
  confident Tesseract was; and where it read a sign of arithmetic, a relation or a unit (`×`, `≤`, `°`, `²`,
  `µ`: `SIGN_GLYPHS`) that Tesseract did not, or not one it did (`<` for `≤`, `101*` for `101°`, `m?` for `m²`),
  the word is unsure, even one of punctuation alone (`signs_agree`). Where no second recogniser serves the
  script (Greek, Hangul, Cyrillic), the rules above stand alone.

The thresholds were calibrated by measurement (`python -m pipeline.devkit.ocrcertainty`, which reads
generated sheets rasterised at several resolutions, blurs and JPEG qualities and counts, over OCR'd
questions, the share of wrong ones flagged and the share of all flagged); docs/concepts/ocr.md gives
the numbers. Changing them changes no cached OCR reading: it is judged again at every layout.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pipeline.extract.ocr.agreement import alike, contradicts, held_in_stretch, known_words, settled_space
from pipeline.extract.ocr.confusions import group_candidates
from pipeline.extract.ocr.confusables import confusable_variant
from pipeline.extract.ocr.hunspell import SpellingUnavailable, spelling_for
from pipeline.extract.ocr.lexicon import Lexicon, bare_letters, word_core
from pipeline.extract.ocr.printedmixed import printed_mixed
from pipeline.extract.ocr.quantitywords import misread_quantity, unit_read_as_digits, well_formed_quantity


@dataclass(frozen=True)
class CertaintyPolicy:
    """When a word counts as unsure. `enabled=False` judges no word unsure (confidences are still kept)."""

    unsure_below: float = 40.0  # Tesseract confidence under which a word of letters or digits is unsure
    # ... unless the lexicon knows it and it has this many letters (0: never): Tesseract's Greek model
    # gives correctly read words confidences near 0, and a misread rarely lands on another known word.
    known_sure_from: int = 2
    # Confidence under which a word the lexicon does not know is unsure (0: off). Off: on a rasterised
    # corpus sheet it flagged names and terms ("Spotify", "Plóter") and caught no misreading more.
    unknown_below: float = 0.0
    unknown_min_letters: int = 3  # shorter words are too often abbreviations or symbols to judge by the lexicon
    mixed_characters: bool = True  # digits among letters, two scripts, symbols inside a word
    # A word of small letters (names and terms are capitalised) of this many letters or more that neither the
    # lexicon nor the language's spelling dictionaries know is unsure however confident Tesseract was, even read
    # alike by the second recogniser (`supenores`, `difendas` at 150 dpi: `ri` read `n` by both). Off (0): on the
    # calibration corpus sheets it caught 2 misread questions more and flagged 2 right ones more (`lesividad`,
    # `archivístico`); on the checking sheets it flagged 70-83 % of a medical exam's right questions (`tiroiditis`,
    # `rinorrea`: terms no dictionary lists). `python -m pipeline.devkit.ocrcertainty --signs all,dictionary` measures it.
    unknown_to_all_from: int = 0
    # A word of `misread_min_letters` or more that the spelling dictionaries (else the lexicon) do not know, and that
    # is known with letters blur joins put back (`misread_letters`: `Ministeno`, `supenores`, `difendas`: `ri` read
    # `n`; language data `text_quality.misread_letters`). On the calibration corpus sheets it caught 3 misread
    # questions more and flagged no right one.
    misread_letters: bool = True
    # ... or known with a diacritic more (`lost_marks`: `Geografia`, `fisica`: an accent lost at low resolution; never
    # a word in capitals). Off: on the calibration corpus sheets it caught 2 misread questions more and flagged 4 right
    # ones more, words the sheet itself prints without their accents (`Constitucion`, `Administracion`).
    lost_marks: bool = False
    misread_min_letters: int = 4
    # A word of capitals the lexicon knows with an I and an l swapped (`IANA`: `lana`) is unsure too. Off for the flag:
    # on the calibration corpus sheets it flagged an acronym and caught nothing; the second recogniser still reads such
    # words again (`pagepasses`' `second-reader` judges with it on, so the cached readings stay as they were).
    swap_in_capitals: bool = False
    # The second recogniser's reading as evidence (`agreement`): alike, sure; otherwise, unsure.
    agreement: bool = True
    # ... but not where its reading only lacks marks of a letter it cannot write (`agreement.unwritable_marks_lost`:
    # `sùng` for `sừng`; its alphabet has `ư` and `ù`, not `ừ`). Off as shipped: on the `scripts` set it took 4 right
    # Vietnamese questions off the flag and turned 2 caught misread ones into misses (caught 9 of 9 -> 7 of 9), for those
    # two were caught by a right word's lost mark, and no sign of a tone or mark misread was found to catch them
    # (docs/results.md, "Letters the second reader cannot write"). `ocrcertainty --signs all,unwritable` measures it.
    unwritable_marks: bool = False
    # ... and a word it read inside a longer stretch (a row Tesseract cut into segments read as one window: `b)tetera`
    # in `b) tetera c) 56 salvadores d) 78`), word by word and in order, is read alike (`agreement.held_in_stretch`).
    stretches: bool = True
    # ... and where it read two of Tesseract's words as one, a space between two letters lost, both words known to the
    # language (its one-letter words, its spelling dictionaries) and run together no word, the space is settled by the
    # dictionaries and the words read alike (`A los` read `Alos`); a join that is a word (`de lante`: `delante`) is not.
    settled_spaces: bool = True
    # ... and the signs it read (`SIGN_GLYPHS`: `×`, `≤`, `°`, `²`) against Tesseract's, even in a word of punctuation
    # alone (`<` where it read `≤`): a sign read otherwise makes the word unsure.
    signs_agree: bool = True
    # A number of one or two digits standing alone whose box is shorter than this share of the median height of its
    # line's other words without diacritics (three or more of them) is unsure: a superscript, a subscript or a speck read as a digit
    # (`conforme a 1 la`: a speck 0.68 of the line's median word, under its x-height). A digit stands as tall as a
    # capital or an ascender, which most words of a line hold or reach below with a descender. 0: off.
    small_digits: float = 0.75
    # Ink in a word's line beside it, of a glyph's or a mark's size, that no word read covers (`looseink`: a stop, a
    # raised mark, a short word Tesseract left out) makes the word unsure. Judged from the ink the `loose-ink` pass
    # kept with the page's reading (a reading cached before it holds none).
    loose_ink: bool = True
    # A number of `DIGIT_COUNT_MIN` digits or more (marks beside it allowed) whose box is wider or narrower than its read
    # characters fill, in the page's digit width, by more than this many digit widths is unsure: a digit read twice or a
    # mark read as a digit (`1978?` read `19787?`: 5 glyphs of ink read as 6), or a digit lost. Lining figures are
    # one width in a font; the digit width is measured on the page's other numbers of the same height. 0: off.
    digit_count: float = 0.6
    # Two words of one line whose boxes touch (the gap between them at most this share of the line's ink size; a word
    # space is a fifth of it or more) and to which Tesseract gave one confidence are one word it split (`Зап зах` for
    # `Запзах`, `q ue` for `que`): both unsure, unless both are known words and joined they are none (`split_words`). 0: off.
    split_gap: float = 0.02
    # A word of `confusable_min_letters` or more that the spelling dictionaries lack while exactly one of its variants
    # with one confusable run of its script swapped (`pipeline/languages/scripts.yaml`: `caiman` for `calman`, `i` and
    # `l`) is a word they know is unsure, however confident Tesseract was and even read alike by the second recogniser:
    # both read a shape, and the shape is one of two words' (`confusable_variant`). The word stays as read.
    confusable_letters: bool = True
    # ... and so is one where exactly one variant with a diacritic lost or gained on one letter is a known word
    # (`Εὐκρατη`, `поймет`), where the script's data asks for marks. Off: on the checking corpus sheets it caught no
    # misread question more and flagged 6 right ones (`cardiaco`, `Julia`, `Lepiš`: spellings and names the
    # dictionaries write otherwise), and on the `scripts` set 18 (words of Tesseract's lists printed without their
    # accents). `ocrcertainty --signs all,confusable-marks` measures it.
    confusable_marks: bool = False
    confusable_min_letters: int = 3
    # A quantity printed as one word and well formed (`39°C`, `T°`, `/μL`, `SatO2`: `quantitywords`) is not judged by
    # the rules of a word's shape. Off as shipped: on the `clinical` sheets (tuning) it took 8 right questions off the
    # flag and lost no catch, but on `clinical-held-out` and the checking corpus it lost 4 misread questions caught only
    # through such right words, beside misreads no rule sees (`7,48` for `7.48`, `NaHCO 3`, `Otoscopia`; results.md).
    # `ocrcertainty --signs all,quantities` measures it.
    spare_quantities: bool = False
    # Not built on (v16, measured and dropped): sparing a well-formed quantity the second recogniser read alike, signs and
    # all (`T°` read `T°`). On the tuning sheets it kept every catch, but on the checking ones it lost three misread
    # questions caught only through such right words (`Te` for `T°`, `Otoscopia`, `19/24 h`; results.md).
    enabled: bool = True
    # Bump when the judgement changes: the policy is part of the extract stage's cache key, so extracted
    # documents of before are judged again (the OCR readings under them are not read again).
    version: str = "18"  # 18: an address or a micro prefix read as the Greek mu in a well-formed unit, read alike by the second recogniser, is not judged by its shape (`printed_mixed`); 17: a degree sign's scale read as a digit (`41,9°6`) or its ring as a mark (`39*C`), a micro sign read as `u` (`ug/kg/min`), a unit's letter read as the digit of its shape (`mg/d1`, `5 m1`, `9/12 h` at a line's start) are unsure (`quantitywords`); a second reading's stretch of more than `agreement.STRETCH_MAX_WORDS` words is a difference, unsearched, and each place of a run in one searched once; 16: a word read alike inside a longer stretch of the second reading (`held_in_stretch`) or with a space lost that the dictionaries settle (`settled_spaces`), a ring read before `℃` is its own; 15: a unit's letter read as a digit after a number (`2.8 9/24 h`) is unsure, a well-formed quantity spared the shape rules where `spare_quantities` asks (off); 14: a well-formed quantity judged by a word's shape again (13 spared it); 13: a misread quantity (`Sp02`, `Ul/kg`) is unsure (`quantitywords`), a second reading `℃` is `°C`; 12: a word no dictionary knows whose one confusable variant is a word (`confusable_letters`); 11: a word split where no space shows (`split_gap`); 10: a number whose box does not fit its read digit count (`digit_count`); 9: ink beside a word that no word covers (`loose_ink`); 8: a second reading that is a stretch of the line's words with spaces lost where print sets them is read alike (`spaces_lost`); 7: a sign the second recogniser read otherwise (`signs_agree`), a digit smaller than its line's (`small_digits`); 6: no I/l swap inside a word of capitals, a glued one-letter word's rest known to the dictionaries, unclear marks kept apart (`Line.unclear_marks`); 5: letters blur joins and diacritics lost (`misread_letters`, `lost_marks`); 4: a word of small letters no dictionary knows (off by default); 3: 2: agreement of the two recognisers; 3: identifiers of capitals and digits (`FAT32`, `H2O`) are not judged by their digits


DEFAULT_POLICY = CertaintyPolicy()

# Letters that Tesseract confuses with a digit (and back) in the Latin, Greek and Cyrillic alphabets
# (I l | 1, O o 0, S 5, Z 2, B 8, З 3). Not g or q: a unit after a number ("10g") is common and right.
DIGIT_LOOKALIKES = frozenset("IlOoSZB" "ΙΟο" "ІОоЗ")
# A word of this many letters with digits glued to it ("εισδοχής2": a "?" the Greek model read as 2);
# fewer are units, ordinals and formulas ("10km", "2do", "H2O").
GLUED_MIN_LETTERS = 3
_GLUED_DIGITS = re.compile(rf"[^\W\d_]{{{GLUED_MIN_LETTERS},}}\d|\d[^\W\d_]{{{GLUED_MIN_LETTERS},}}")  # not "TDF/379/2024"
_DIGIT_BETWEEN_LETTERS = re.compile(r"[^\W\d_]\d+[^\W\d_]")
# An identifier (an acronym with a number, a formula): its letters capitals, at least this many of them,
# at most one small letter (`IPv6`), at most `IDENTIFIER_MAX_LETTERS` letters before or after its digits (a
# longer run of capitals is a word set in capitals, where a glued digit is a misread or a lost space), and
# digits between letters only between element symbols of one or two letters (`C6H12O6`; `PR0BLEM` is a misread).
IDENTIFIER_MIN_CAPITALS = 2
IDENTIFIER_MAX_LETTERS = 5
_RUNS = re.compile(r"\d+|[^\W\d_]+")
_WORD_SYMBOLS = frozenset("©®@|¢£¥§¤¦¬¨°™")
# A square or curly bracket closing what nothing in the word opened, or opening what nothing closes.
_UNPAIRED_BRACKET = re.compile(r"^[^\[]*\]|^[^{]*}|\[[^\]]*$|{[^}]*$")


def script_of(ch: str) -> str | None:
    """The script of a letter by its Unicode name ("LATIN", "GREEK", "CYRILLIC", "HANGUL", …); None otherwise."""
    if not ch.isalpha() or ch == "\u00b5":  # the micro sign is a unit's prefix in every script's texts (`µg`), no Greek
        return None
    # A compatibility form names its letter's script: the ordinal indicators º and ª (`nº`, `1ª`) are o and a.
    ch = unicodedata.normalize("NFKC", ch)[:1] or ch
    name = unicodedata.name(ch, "")
    return name.split(" ", 1)[0] if name else None


def mixed_characters(token: str, spare_quantities: bool = False, read_alike: bool = False) -> str | None:
    """Why a word's characters read as a confusion ("digits among letters", …), or None; with `spare_quantities`, not a
    well-formed quantity's (`CertaintyPolicy.spare_quantities`); with `read_alike` (the second recogniser read the word
    alike), not an address's nor a micro prefix's (`printed_mixed`)."""
    if read_alike and printed_mixed(token):
        return None
    if _UNPAIRED_BRACKET.search(token) and any(ch.isalnum() for ch in token):
        return "a bracket without its pair"  # "194]" for "1941"; a label's "b)" is set apart by parse
    misread = misread_quantity(token)  # `Sp02`, `Ul/kg`, `41,9°6`: a quantity a scan misread
    if misread:
        return misread
    core = word_core(token)[1]
    letters = [ch for ch in core if ch.isalpha()]
    if not letters:
        return None
    if spare_quantities and well_formed_quantity(token) and not all(ch in DIGIT_LOOKALIKES for ch in letters):
        return None  # `39°C`, `/μL`, `SatO2`: signs and counts where quantities print them (`SO2`, `l2`: a number misread)
    if any(ch in _WORD_SYMBOLS for ch in token):
        return "a symbol inside a word"
    if len({script_of(ch) for ch in letters} - {None}) > 1:
        return "two scripts in one word"
    digits = [i for i, ch in enumerate(core) if ch.isdigit()]
    if digits and not is_identifier(core):
        if _DIGIT_BETWEEN_LETTERS.search(core):
            return "a digit between letters"
        if _GLUED_DIGITS.search(core):
            return "digits glued to a word"
        near = {j for i in digits for j in (i - 1, i + 1) if 0 <= j < len(core)}
        if any(core[j] in DIGIT_LOOKALIKES for j in near):
            return "a digit beside a look-alike letter"
    return None


def is_identifier(core: str) -> bool:
    """Whether `core` (letters and digits) reads as an identifier printed so (`FAT32`, `MP3`, `COVID19`, `IPv6`,
    `H2O`, `ΦΕΚ12`, `ISO9001`): capitals in any script with digits before, after or between them. Not two
    capitals that both look like digits (`ZO19`, `SO2`: `2019`, `502` misread), nor a word of small letters
    (`el7`, `εισδοχής2`), nor a long word in capitals with a digit in it or glued to it (`PR0BLEM`)."""
    runs = _RUNS.findall(core)
    if "".join(runs) != core or not any(r[0].isdigit() for r in runs):
        return False
    letters = [ch for r in runs if not r[0].isdigit() for ch in r]
    capitals = [ch for ch in letters if ch.isupper()]
    small = [ch for ch in letters if not ch.isupper()]
    if len(capitals) < IDENTIFIER_MIN_CAPITALS or len(small) > 1 or any(ch in DIGIT_LOOKALIKES or not ch.islower() for ch in small):
        return False
    if len(capitals) == IDENTIFIER_MIN_CAPITALS and all(ch in DIGIT_LOOKALIKES for ch in capitals):
        return False  # two capitals that both look like digits beside digits: a number misread (`ZO19`, `SO2`)
    if any(len(run) > IDENTIFIER_MAX_LETTERS for run in runs if not run[0].isdigit()):
        return False
    # Digits between letters: a formula's element symbols on both sides (`H2O`), never a word's letters (`PR0BLEM`).
    return all(len(runs[i - 1]) <= 2 and len(runs[i + 1]) <= 2
               for i in range(1, len(runs) - 1) if runs[i][0].isdigit())


SECOND_READER_DIFFERS = "the second recogniser read it otherwise"
SECOND_READER_SIGN = "the second recogniser read a sign otherwise"
# Signs of arithmetic, relations and units that a recogniser reads as a letter, a digit or another mark (`×` as `x`,
# `≤` as `<`, `°` as `*` or `?`, `²` as `?`, `µ` as `u`): small or raised glyphs of few strokes, in every script's
# texts. The micro sign and the Greek mu are one glyph to a reader, and so are the ordinal indicator and the degree sign.
SIGN_GLYPHS = frozenset("×÷≤≥≠±°²³¹μ→←↔√∞≈‰")
_MICRO = str.maketrans({"\u00b5": "\u03bc", "\u00ba": "\u00b0"})  # and the ordinal indicator º, a degree sign's twin
# A unit the second recogniser reads as one glyph, Unicode's compatibility form of a degree sign and a scale (`36℃` for
# `36°C`): the same print, read alike, not a sign read otherwise.
_ONE_GLYPH_UNITS = str.maketrans({ch: unicodedata.normalize("NFKC", ch) for ch in "\u2103\u2109"})
# ... a ring read before such a glyph is the glyph's own ring read twice (`°℃` for a printed `°C`): no print sets it.
_RING_BEFORE_ONE_GLYPH = re.compile("[\u00b0\u00ba](?=[\u2103\u2109])")


def _signs(text: str) -> list[str]:
    return sorted(ch for ch in unicodedata.normalize("NFC", text).translate(_MICRO) if ch in SIGN_GLYPHS)


def sign_contradicted(text: str, second: str | None) -> bool:
    """Whether the second recogniser read other signs (`SIGN_GLYPHS`) at a word's place than Tesseract did (`<` where
    it read `≤`, `101*` where it read `101°`, `m?` where it read `m²`): a sign is one glyph, and punctuation, which
    `agreement` leaves out, is what a sign is misread as. A word the second reader read nothing at is not judged."""
    return second is not None and second != "" and _signs(text) != _signs(second)


def unsure_reason(text: str, conf: float | None, lexicon: Lexicon | None, policy: CertaintyPolicy = DEFAULT_POLICY,
                  second: str | None = None, spelled: Callable[[str], bool] | None = None) -> str | None:
    """Why the word `text`, read with Tesseract confidence `conf` (None or negative: none given), may not
    read as printed; None when nothing says so. `second`: what the second recogniser read at its place
    (None: it did not read it); `spelled`: whether the language's spelling dictionaries know a word (None:
    the language has none). Punctuation alone is never judged: it carries no text."""
    if not policy.enabled:
        return None
    second = _RING_BEFORE_ONE_GLYPH.sub("", second).translate(_ONE_GLYPH_UNITS) if second else second
    if policy.agreement and policy.signs_agree and sign_contradicted(text, second):
        return SECOND_READER_SIGN
    core = word_core(text)[1]
    if not any(ch.isalnum() for ch in core):
        return None
    # Read alike by both engines, the word is sure by its reading; not by its shape (below): a capital I
    # and a small l, or a narrow space, look alike to any recogniser; but an address's or a micro prefix's mixed
    # characters are the class's own print (`printed_mixed`).
    read_alike = policy.agreement and second is not None and alike(text, second)
    if policy.mixed_characters:
        mixed = mixed_characters(text, policy.spare_quantities, read_alike)
        if mixed:
            return mixed
    if policy.agreement and second is not None and contradicts(text, second, unwritable=policy.unwritable_marks):
        return SECOND_READER_DIFFERS
    measured = conf if conf is not None and conf >= 0 and not read_alike else None
    if measured is not None and measured < policy.unsure_below and not _vouched(core, lexicon, policy.known_sure_from):
        return "low confidence"
    if lexicon is not None and core.isalpha() and len(core) >= policy.unknown_min_letters and core not in lexicon:
        if measured is not None and measured < policy.unknown_below:
            return "unknown word"
        if policy.mixed_characters and _known_with_swap(core, lexicon, policy.swap_in_capitals):
            return "I and l confused"
        if _glued_one_letter_word(core, lexicon, spelled):
            return "a one-letter word glued to the next"
        if spelled is not None and policy.unknown_to_all_from and len(core) >= policy.unknown_to_all_from and core.islower() \
                and not spelled(core):
            return "no dictionary knows it"
    if lexicon is not None and core.isalpha() and len(core) >= policy.misread_min_letters:
        misread = _misread_known_word(core, lexicon, spelled, policy)
        if misread:
            return misread
    if lexicon is not None and spelled is not None and core.isalpha() and len(core) >= policy.confusable_min_letters:
        return confusable_variant(core, lexicon, spelled, letters=policy.confusable_letters, marks=policy.confusable_marks)
    return None


def _misread_known_word(core: str, lexicon: Lexicon, spelled: Callable[[str], bool] | None, policy: CertaintyPolicy) -> str | None:
    """Why a word nothing knows reads as a misread known word: with letters blur joins put back (`Ministeno`: `ri`
    read `n`) or, where the policy asks, with a diacritic more (`Geografia`); None otherwise. The word as read and
    the word it would be are judged by the spelling dictionaries where the language has them (Tesseract's word lists
    hold odd spellings: `geografia`), else by the lexicon; a word with letters blur joins is not one the lexicon knows
    either (`donk` is no misread `clonk`)."""
    def known(word: str) -> bool:
        return spelled(word) if spelled is not None else word in lexicon
    joined = policy.misread_letters and bool(lexicon.misread_letters) and core not in lexicon
    if not (joined or policy.lost_marks) or (spelled(core) if spelled is not None else core in lexicon):
        return None  # no rule for the language (no dictionary is asked), or a known word
    folded = core.casefold()
    if joined and any(known(candidate) for candidate in group_candidates(folded, lexicon.misread_letters)):
        return "known with letters blur joins apart"
    if policy.lost_marks and not core.isupper() and any(
            known(other) for other in lexicon.by_bare_letters.get(bare_letters(folded), ()) if _marks(other) > _marks(folded)):
        return "known with a diacritic more"
    return None


def _marks(word: str) -> int:
    return sum(bool(unicodedata.combining(ch)) for ch in unicodedata.normalize("NFD", word))


def _vouched(core: str, lexicon: Lexicon | None, known_sure_from: int) -> bool:
    """Whether the lexicon vouches for a word read unsurely: it is a known word of `known_sure_from`
    letters or more, or such a word with a label glued before it (`b)prada`: the label's glue is what
    Tesseract was unsure of, and parse cuts the label off)."""
    if not known_sure_from or lexicon is None:
        return False
    pieces = [p for p in re.split(r"[^\w]+", core) if p]
    words = [p for p in pieces if len(p) > 1]
    return bool(words) and len(words) == 1 and words[0].isalpha() and len(words[0]) >= known_sure_from and words[0] in lexicon


# Letters Tesseract reads for each other in any script's Latin-looking words (a capital I and a small l,
# the I/l/1 confusion of the issue): a word the lexicon lacks that it knows with one of them swapped.
_SWAPS = {"I": "l", "l": "I"}
MAX_SWAP_TRIES = 4


def _glued_one_letter_word(core: str, lexicon: Lexicon, spelled: Callable[[str], bool] | None = None) -> bool:
    """An unknown word that is one of the language's one-letter words and a known word run together
    (`keufemizmom`: `k eufemizmom`): Tesseract lost the space after a lone letter. Where the language's spelling
    dictionaries are asked (`_asks_dictionary`), the word after the letter must be one they know: Tesseract's
    word lists hold abbreviations and fragments (`ccb`) that make any code or name read as glued (`accb`)."""
    rest = core[1:]
    if not (core[0].casefold() in lexicon.one_letter_words and len(rest) >= 2 and rest in lexicon):
        return False
    return spelled is None or not _asks_dictionary(lexicon) or spelled(rest) or spelled(rest.casefold())


def _asks_dictionary(lexicon: Lexicon) -> bool:
    """Whether the rules ask the language's spelling dictionaries: only where its data names the letters blur joins
    (`misread_letters`); hunspell-ko knows every word, the checker's sentinel too, so asking it never ends."""
    return bool(lexicon.misread_letters)


def _known_with_swap(core: str, lexicon: Lexicon, capitals: bool = False) -> bool:
    """A word the lexicon knows with a capital I and a small l swapped. A word of capitals (`IANA`, `OIT`) only where
    `capitals` asks: there a capital I is what it reads as, and a small l among capitals is no word's spelling."""
    if not capitals and not any(ch.islower() for ch in core if ch not in _SWAPS):
        return False
    places = [i for i, ch in enumerate(core) if ch in _SWAPS][:MAX_SWAP_TRIES]
    return any(core[:i] + _SWAPS[core[i]] + core[i + 1:] in lexicon for i in places)


def unsure_words(words: Sequence[tuple[str, float | None] | tuple[str, float | None, str | None]], lexicon: Lexicon | None,
                 policy: CertaintyPolicy = DEFAULT_POLICY, spelled: Callable[[str], bool] | None = None) -> list[str]:
    """The texts of the (text, confidence[, second reading]) words judged unsure, in order; `spelled` as `unsure_reason`.
    `words` are one line's, in order: a second reading that is a stretch of them glued where print sets a space
    (`spaces_lost`; between two letters, where the dictionaries know both words and not the two run together), or a longer stretch that holds them word by word (`agreement.held_in_stretch`), counts as read alike."""
    texts = [word[0] for word in words]
    seconds = [word[2] if len(word) > 2 else None for word in words]
    if policy.agreement:
        given = seconds
        known = known_words(lexicon, spelled) if policy.settled_spaces and lexicon is not None else None
        seconds = [text if second and (spaces_lost(texts, i, second, known) or policy.stretches and held_in_stretch(texts, given, i))
                   else second for i, (text, second) in enumerate(zip(texts, given))]
    return [word[0] for i, (word, second) in enumerate(zip(words, seconds))
            if unsure_reason(word[0], word[1], lexicon, policy, second, spelled)
            or (policy.enabled and policy.mixed_characters and unit_read_as_digits(texts[i - 1] if i else None, word[0], texts[i + 1] if i + 1 < len(texts) else None))]


def _apart(before: str, after: str) -> bool:
    """Whether print sets a space between `before` and `after` that a recogniser may lose without misreading a letter:
    between letters and a number (`Outlook 365`, `mostra 1921`, `12 cm`) or beside a mark (`derecha. Estanterías`,
    `informático "Python"`); not between two letters (`sa k`: a word split or glued), two digits, or around a number's
    mark (`15. 000`: a number split)."""
    a, b = before[-1:], after[:1]
    if not a or not b:
        return False
    if a.isdigit() and b in ".," and after[1:2].isdigit() or a in ".," and before[-2:-1].isdigit() and b.isdigit():
        return False
    return a.isalpha() and b.isdigit() or a.isdigit() and b.isalpha() or not a.isalnum() or not b.isalnum()


SPACES_LOST_MAX_WORDS = 4


# What a stretch and its second reading must read alike, spaces aside: letters, digits, signs (`SIGN_GLYPHS`) and the
# marks signs are misread as (`8 *C` against `8°C` is a sign read otherwise, not a space lost).
_SIGN_MARKS = frozenset("*?<>=+^%")


def _letters(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFC", text).translate(_MICRO)
                   if ch.isalnum() or ch in SIGN_GLYPHS or ch in _SIGN_MARKS)


def spaces_lost(texts: Sequence[str], i: int, second: str, known: Callable[[str], bool] | None = None) -> bool:
    """Whether the second reading of the line's word `texts[i]` is a stretch of the line's words (`i` among them, at most
    `SPACES_LOST_MAX_WORDS`) read with the spaces between them lost, each at a place print sets one (`_apart`):
    `Outlook365.` for Tesseract's `Outlook` and `365.` (the second reader joins a stretch it reads as fewer words, and
    each word of it gets the whole stretch: `agreement.second_readings`). Its letters are the word's, read alike; a
    stretch the second reader read with more letters, or with a space lost between two letters, is none, unless `known`
    (the page's words, `CertaintyPolicy.settled_spaces`) settles that space (`agreement.settled_space`)."""
    want = _letters(second)
    if not want or want == _letters(texts[i]):
        return False
    for start in range(max(0, i - SPACES_LOST_MAX_WORDS + 1), i + 1):
        for end in range(i + 1, min(len(texts), start + SPACES_LOST_MAX_WORDS) + 1):
            stretch = texts[start:end]
            if len(stretch) > 1 and "".join(_letters(t) for t in stretch) == want \
                    and all(_apart(a, b) or known is not None and settled_space(a, b, known) for a, b in zip(stretch, stretch[1:])):
                return True
    return False


@lru_cache(maxsize=8)
def spelled_for(languages: tuple[str, ...]) -> Callable[[str], bool] | None:
    """Whether the spelling dictionaries of Tesseract's `languages` know a word, a word at a time; None where a
    language has none (Greek without its package, Korean): the words are then not judged by them."""
    try:
        spelling = spelling_for(languages)
    except SpellingUnavailable:
        return None
    known: dict[str, bool] = {}

    def spelled(word: str) -> bool:
        if word not in known:
            known[word] = spelling.knows([word])[0]
        return known[word]
    return spelled


_LONE_NUMBER = re.compile(r"^\d{1,2}$")
SMALL_DIGIT_REFERENCES = 3  # a line's other words needed to judge a digit's height


def small_digits(words: Sequence[tuple[str, float]], share: float) -> list[bool]:
    """For each (text, box height) of one line's words, whether it is a number of one or two digits alone shorter than
    `share` of the median height of the line's other words of letters or digits without diacritics
    (`CertaintyPolicy.small_digits`).
    Heights in any unit; a line with fewer than `SMALL_DIGIT_REFERENCES` such words is not judged."""
    found = [False] * len(words)
    if not share:
        return found
    # A diacritic raises a word's box above its capitals (`súmerný` 43 px beside `44` at 31): such words are no measure.
    tall = [i for i, (text, _) in enumerate(words) if any(ch.isalnum() for ch in text) and not _marks(text)]
    for i, (text, height) in enumerate(words):
        if not _LONE_NUMBER.match(text):
            continue
        others = sorted(words[j][1] for j in tall if j != i)
        if len(others) >= SMALL_DIGIT_REFERENCES:
            found[i] = height < share * others[len(others) // 2]
    return found


SAME_CONFIDENCE = 0.05  # two confidences this close are one Tesseract gave a word it split


def split_words(words: Sequence[tuple[str, float, float, float, float | None]], share: float, lexicon: Lexicon | None = None,
                spelled: Callable[[str], bool] | None = None) -> list[bool]:
    """For each (text, left, right, size, confidence) of one line's words in order, whether it is a piece of one word
    Tesseract split (`CertaintyPolicy.split_gap`): a word of letters whose box touches its neighbour's (the gap at most
    `share` of the line's ink size; a word space is a fifth of it or more) and to which Tesseract gave the same
    confidence as to that neighbour: it gives each word it read its own, and the pieces of one word it put a space
    inside share that word's (`Зап зах` 92.3 and 92.3 for `Запзах`). Not judged: two words the spelling dictionaries
    (`spelled`; else the lexicon) know that joined are no word they know (`cuanto a`, a short word set close), and
    pieces of wide glyphs (Hangul, Han, kana), whose spaces `wide-glyph-gaps` judged by the glyphs' pitch."""
    found = [False] * len(words)
    if not share:
        return found

    def known(word: str) -> bool:
        if spelled is not None:
            return bool(word) and (spelled(word) or spelled(word.casefold()))
        return bool(word) and lexicon is not None and word in lexicon
    for i, (a, b) in enumerate(zip(words, words[1:])):
        (text_a, _, right_a, size_a, conf_a), (text_b, left_b, _, size_b, conf_b) = a, b
        if not any(ch.isalpha() for ch in text_a) or not any(ch.isalpha() for ch in text_b):
            continue
        if conf_a is None or conf_b is None or abs(conf_a - conf_b) > SAME_CONFIDENCE:
            continue
        if left_b - right_a > share * max(size_a, size_b) or _wide(text_a) or _wide(text_b):
            continue
        core_a, core_b = word_core(text_a)[1], word_core(text_b)[1]
        if known(core_a) and known(core_b) and not known(core_a + core_b):
            continue
        found[i] = found[i + 1] = True
    return found


def _wide(text: str) -> bool:
    return any(unicodedata.east_asian_width(ch) in "WF" for ch in text)


def lowest_confidence(confidences: Sequence[float | None]) -> float | None:
    """The lowest of the confidences Tesseract gave (None when it gave none)."""
    given = [c for c in confidences if c is not None and c >= 0]
    return round(min(given), 1) if given else None



# A number judged by its width: this many digits or more (fewer: a digit's own width varies too much against a mark's).
DIGIT_COUNT_MIN = 3
DIGIT_COUNT_REFERENCES = 3  # the page's other numbers needed to measure its digits' width to height
# A number's box taller than this many times the page's median word box holds more than its digits (ink of the line
# above or below, a tilted line's): lining figures stand no taller than a word's ascenders and descenders.
TALLER_THAN_WORDS = 1.3
SAME_HEIGHT = 0.15  # ... each within this share of the number's height: a title's, a footnote's or a tilted line's are no measure
# What a mark beside a number takes in digit widths: a stop or a colon about a third of a digit's advance in text faces;
# a per cent or per mille sign about one and a half; other marks (`?`, `!`, `°`) about three quarters of it. Marks that
# reach under or over a digit (`,`, `;`, brackets, `/`) make the box no digit's height: such a number is not judged.
_NARROW_MARKS = frozenset(".:")
_WIDE_MARKS = frozenset("%‰")
_NUMBER = re.compile(r"^([.:?!%‰°]{0,2})(\d+)([.:?!%‰°]{0,2})$")


def _digit_units(text: str) -> tuple[int, float] | None:
    """A number's digits and its width in digit widths (marks beside it counted by `_NARROW_MARKS`); None for no number."""
    found = _NUMBER.match(text)
    if not found:
        return None
    marks = found.group(1) + found.group(3)
    return len(found.group(2)), len(found.group(2)) + sum(0.35 if ch in _NARROW_MARKS else 1.5 if ch in _WIDE_MARKS else 0.75
                                                          for ch in marks)


def digit_count_misfits(words: Sequence[tuple[str, float, float]], tolerance: float) -> list[bool]:
    """For each (text, box width, box height) of one page's words, whether it is a number of `DIGIT_COUNT_MIN` digits or
    more whose box width differs from its read width in digit widths by more than `tolerance` digit widths
    (`CertaintyPolicy.digit_count`). Lining figures stand as tall as a face's capitals and are one width in it, so a
    digit's width is a share of the number's height the same at every size of the face: the median, over the page's
    other numbers of two digits or more and of about its height (`SAME_HEIGHT`), of their width per digit width and
    height; a number with fewer than
    `DIGIT_COUNT_REFERENCES` such numbers beside it, or a box taller than the page's words (`TALLER_THAN_WORDS`), is not
    judged. Widths and heights in any one unit."""
    found = [False] * len(words)
    if not tolerance:
        return found
    heights = sorted(height for text, _, height in words if any(ch.isalnum() for ch in text))
    if not heights:
        return found
    tallest = TALLER_THAN_WORDS * heights[len(heights) // 2]
    numbers = [(i, units) for i, (text, _, height) in enumerate(words) for units in (_digit_units(text),)
               if units and units[0] >= 2 and 0 < height <= tallest]
    for i, (digits, units) in numbers:
        if digits < DIGIT_COUNT_MIN:
            continue
        _, width, height = words[i]
        shares = sorted(words[j][1] / (other * words[j][2]) for j, (_, other) in numbers
                        if j != i and abs(words[j][2] - height) <= SAME_HEIGHT * height)
        if len(shares) >= DIGIT_COUNT_REFERENCES:
            found[i] = abs(width / (shares[len(shares) // 2] * height) - units) > tolerance
    return found
