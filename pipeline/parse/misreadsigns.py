"""Signs that an OCR'd question was misread which no single word's confidence shows: its shape and its
language (issue 27, bar 2). `certainty.judge_drafts` adds what these find to the question's
`ocr.uncertain` flag, each sign in words, so the audit queue says why.

Each sign is observable on the OCR side alone, in any layout:
- two options of one question read alike (`9` and `9`: a minus sign lost; an exam's options differ);
- a question with another number of options than most of its sheet's questions (options merged or split);
- an option holding another option's label (`20-2 a) 45342,00`: two options read as one);
- an option ending in a letter or digit where all its siblings end with the same stop (`El Rey` among
  `En el pueblo español.`: its full stop lost);
- a full stop after a word, then a word of small letters (`Cámaras. o`: a comma read as a stop);
- a round bracket without its pair in a stem or an option (an enumerator's `a)` or `1)` is not one);
- a stem or an option ending in a comma, an opening bracket or a sign (`…, 10, 3,` for `…, 10, 3, _`: what
  followed it, a blank or a sign, was not read); a stem whose options go on with its sentence may end in a comma;
- a short word read twice in a row (`en cuanto a a la`: a speck beside a letter read as the letter again);
- a lone small letter the language has no one-letter word for (`el poder r judicial`: a speck read as a letter),
  between two words (not one of the sheet's labels: `el apartado b de` refers to one) or before the first (a variable beside a sign or a number is printed so), and a lone capital
  opening an option (`D Cohorte`: its label read twice);
- a word that is a one-letter word of the language and one of its commonest words run together (`Alos`, `Aun`)
  and not a word itself (`language.glued_words`): both recognisers glue a narrow space alike;
- a one-letter word of the language in capitals inside a sentence, before a word of small letters, where its
  capital has its small letter's shape (`analisou O entendimento`, `administrativa, O prazo`: told apart by size alone);
- a word the language's spelling dictionaries do not know that the same sheet reads elsewhere with a diacritic more,
  a word they know (`Sindrome` where another question reads `síndrome`): a mark lost at low resolution, where a
  sheet spells a word one way throughout. A word both spellings of which are words (`Secretaria`, `esta`) is a sign
  only where the sheet reads it so here alone (`twins-elsewhere`): a sheet that reads it so twice spells it both ways.

- a sign of arithmetic or a unit read as a letter or a mark, seen in the text alone (the second recogniser's reading
  of a sign is judged per word: `extract.ocr.certainty.sign_contradicted`):
  - a letter x between two numbers (`99 x 18`, `12x9`: `×` read as the letter) where the language has no word `x`;
  - a raised sign (`°`, `²`, `³`) read as a mark after a number or a number's unit: an asterisk (`68*`, `28*C`,
    `cm*`), a question mark or a double quote with a letter or digit right after it (`5?torbe`, `m?cuclillas`), or a
    question mark ending an option (`108?`, `12 m?`): a stem may ask about a number (`… de 1978?`), an option does not;
  - a micro unit's `µ` read as `u` after a number (`204 ug`);
  - a relation or an arrow read as two marks between numbers (`94 => 63`, `2 -> 5`).

- the case of a text's first letter, which at low resolution a recogniser may tell by size alone (`casing_signs`):
  an option opening with a small letter where every other option of its question (two or more) opens with a capital
  (`inducir` among `Reducir`, `Tratar`: a capital read small); a stem so where most of the sheet's stems open with
  a capital (`sheet_opens_capital`);
- a digit's look-alike letter O or o standing for a digit in a number with a separator (`O,5`, `1.O00`, `2,5O`), where
  the letter beside a digit alone is judged per word (`extract.ocr.certainty.mixed_characters`);
- a stem ending in a letter or a digit where most of the sheet's stems end with one mark (`usual_stem_ending`): its
  stop lost; a stem whose options go on with its sentence is not judged (`stem_ending_signs`).

The three before the one of marks need the language's `glued_words`, the last its spelling dictionaries; a language without
them is judged by the others alone.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

from pipeline.extract.ocr import word_core
from pipeline.languages import GluedWords

# The signs by name; `ENABLED` are judged (the measurement, `pipeline.devkit.ocrcertainty --signs`, turns them on one by one).
SIGNS = ("alike", "count", "label-inside", "ending", "bracket", "open-ending", "full-stop", "doubled", "lone-letter", "glued",
         "capital", "marks-elsewhere", "twins-elsewhere", "times", "raised", "micro", "two-marks", "small-opening", "zero-as-letter", "stem-ending")
ENABLED: frozenset[str] = frozenset(SIGNS)


def enable_signs(names: Iterable[str]) -> None:
    """Judge only the signs `names` (of `SIGNS`), for this process: how the measurement weighs each one."""
    global ENABLED
    chosen = frozenset(names)
    if chosen - set(SIGNS):
        raise ValueError(f"unknown signs {sorted(chosen - set(SIGNS))}; known: {', '.join(SIGNS)}")
    ENABLED = chosen

# The sheet's usual option count is the count of at least this share of its questions with options.
USUAL_SHARE = 0.6
MIN_QUESTIONS_FOR_USUAL = 4
# Options end alike: where every other option (this many or more) ends with the same stop, one ending in a letter
# or digit lost it (`El Rey` among `En el pueblo español.`).
MIN_SIBLINGS = 2
_STOPS = frozenset(".;")
# A full stop after a word of this many letters or more, then a word of small letters: a comma read as a
# stop (`Cámaras. o` for `Cámaras, o`); abbreviations (`art.`, `núm.`, `Ltda.`) are shorter.
FULL_STOP_MIN_LETTERS = 5
# A short word read twice in a row: what a speck beside it reads as (`a a la`, `Ley Ley`). A longer word twice is
# printed so as often (generated sheets' `educandos educandos`) and no recogniser doubles it.
DOUBLED_MAX_LETTERS = 3
# What a stem or an option never ends with unless something after it was not read.
_OPEN_ENDINGS = (",", "(", "[", "{", "=", "+", "×", "÷", "−")
# Letters whose capital is their small letter's shape, only bigger, in the Latin, Greek and Cyrillic scripts: at
# low resolution a recogniser tells them apart by size alone (`analisou O entendimento` for `o entendimento`).
SAME_SHAPE_LETTERS = frozenset("cosuvwxz" "οσ" "косухвгзшщэжю")
_SIGN_OR_DIGIT = re.compile(r"[\d=+×÷−<>/*^%-]")


def _reads_as(text: str) -> str:
    """An option as a reader compares it: case, spacing and closing punctuation aside; signs kept (`-9` is not `9`)."""
    return " ".join(unicodedata.normalize("NFC", text.replace("**", "")).casefold().split()).strip(" .,;:")


def _unpaired_bracket(text: str) -> bool:
    """A round bracket without its pair: one opened and never closed, or one closed that nothing opened, unless
    that one ends an enumerator (`a)`, `1)`, `ii)`: a token of up to four characters)."""
    depth = 0
    for token in text.split():
        for i, ch in enumerate(token):
            if ch == "(":
                depth += 1
            elif ch == ")" and depth:
                depth -= 1
            elif ch == ")" and not (i == len(token) - 1 or token[i + 1:] in {".", ",", ";", ":"}) or ch == ")" and len(token) > 5:
                return True
    return depth != 0


def usual_option_count(counts: Sequence[int]) -> int | None:
    """The option count most of a sheet's questions with options have (None: no count holds `USUAL_SHARE` of them)."""
    given = [c for c in counts if c > 0]
    if len(given) < MIN_QUESTIONS_FOR_USUAL:
        return None
    count, times = Counter(given).most_common(1)[0]
    return count if times >= USUAL_SHARE * len(given) else None


def option_signs(labels: Sequence[str], choices: Sequence[str], usual: int | None) -> list[str]:
    """Signs in a question's options as a whole: alike, another count than the sheet's, another label inside."""
    signs: list[str] = []
    seen: dict[str, str] = {}
    for label, choice in zip(labels, choices):
        read = _reads_as(choice)
        if "alike" in ENABLED and read and read in seen:
            signs.append(f"options {seen[read]} and {label} read alike")
        seen.setdefault(read, label)
    if "count" in ENABLED and usual is not None and choices and len(choices) != usual:
        signs.append(f"{len(choices)} options where the sheet's questions have {usual}")
    if "ending" in ENABLED and len(choices) >= MIN_SIBLINGS + 1:
        ends = [_last(choice) for choice in choices]
        for i, (label, end) in enumerate(zip(labels, ends)):
            siblings = ends[:i] + ends[i + 1:]
            if end.isalnum() and all(e in _STOPS for e in siblings) and len(set(siblings)) == 1:
                signs.append(f"option {label} ends without the {siblings[0]!r} its siblings end with")
    for label, choice in zip(labels, choices):
        others = [re.escape(other) for other in labels if other != label]
        if "label-inside" in ENABLED and others and re.search(rf"(?<=\s)\(?(?:{'|'.join(others)})\)\s", choice, re.IGNORECASE):
            signs.append(f"option {label} holds another option's label")
    return signs


def text_signs(text: str, glued: GluedWords | None, continued: bool = False, option: bool = False,
               labels: Sequence[str] = ()) -> list[str]:
    """Signs in one stem or option's text: an unpaired round bracket, an open ending, a stray letter, a glued word.
    `continued`: the text is a stem whose options go on with its sentence (they open with a small letter: `Nesse
    caso,` then `o Estado responde…`), so a comma may end it. `option`: the text is an option's, which a lone
    capital opens only where its label was read twice (`D Cohorte`); a stem's may be a party (`B comprou`).
    `labels`: the sheet's option labels; between two words one of them is a reference (`el apartado b de`)."""
    signs: list[str] = []
    plain = text.replace("**", "").strip()
    if "bracket" in ENABLED and _unpaired_bracket(plain):
        signs.append("a bracket without its pair")
    if "open-ending" in ENABLED and plain.endswith(_OPEN_ENDINGS) and not (continued and plain.endswith(",")) or (plain.endswith("-") and not plain.endswith("--")):
        signs.append(f"it ends with {plain[-1]!r}")
    tokens = plain.split()
    references = {label.casefold() for label in labels}
    if "full-stop" in ENABLED:
        signs += [f"{a!r} then {b!r}" for a, b in zip(tokens, tokens[1:])
                  if a.endswith(".") and not a.endswith("..") and len(word_core(a)[1]) >= FULL_STOP_MIN_LETTERS
                  and word_core(a)[1].isalpha() and b[:1].isalpha() and b[:1].islower()]
    if "doubled" in ENABLED:
        cores = [word_core(token) for token in tokens]
        signs += [f"{b[1]!r} twice" for a, b in zip(cores, cores[1:])
                  if b[1].isalpha() and len(b[1]) <= DOUBLED_MAX_LETTERS and a[1].casefold() == b[1].casefold()
                  and not a[2] and not b[0]]
    signs += symbol_signs(plain, option, glued.one_letter if glued is not None else ())
    if glued is None:
        return signs
    one_letter = set(glued.one_letter)
    for i, token in enumerate(tokens):
        lead, core, trail = word_core(token)
        if "lone-letter" in ENABLED and len(core) == 1 and core.isalpha() and not lead and not trail \
                and core.casefold() not in one_letter and i < len(tokens) - 1 and _is_word(tokens[i + 1]) \
                and (i > 0 and core.islower() and _is_word(tokens[i - 1]) and core not in references
                     or i == 0 and (core.islower() or option)):
            signs.append(f"a lone {core!r}")
        elif "capital" in ENABLED and len(core) == 1 and core.isupper() and core.lower() in one_letter \
                and core.lower() in SAME_SHAPE_LETTERS and not lead and not trail and 0 < i < len(tokens) - 1 \
                and (tokens[i - 1][-1:].islower() or tokens[i - 1].endswith(",")) \
                and _is_word(tokens[i + 1]) and tokens[i + 1][:1].islower():
            signs.append(f"a capital {core!r} inside a sentence")
        elif "glued" in ENABLED and _glued(core, glued):
            signs.append(f"{core!r} (a one-letter word glued to the next?)")
    return signs


def _last(text: str) -> str:
    stripped = text.replace("**", "").rstrip()
    return stripped[-1:] if stripped else ""


def _is_word(token: str) -> bool:
    core = word_core(token)[1]
    return len(core) > 1 and core.isalpha() and not _SIGN_OR_DIGIT.search(token)


def _glued(core: str, glued: GluedWords) -> bool:
    word = core.casefold()
    return len(word) >= 3 and word.isalpha() and word[0] in glued.one_letter and word[1:] in glued.followers \
        and word not in glued.words


# A word of this many letters or more is judged by the sheet's other spellings (shorter ones are too often two words
# told apart by an accent alone: `esta`, `está`, `mas`, `más`).
MARKS_MIN_LETTERS = 5
MarkedForms = dict[str, frozenset[str]]


def _bare(word: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


def _marks(word: str) -> int:
    return sum(bool(unicodedata.combining(ch)) for ch in unicodedata.normalize("NFD", word))


def marked_forms(texts: Iterable[str]) -> MarkedForms:
    """{a word's letters without diacritics, casefolded: the spellings with diacritics `texts` read it in}."""
    found: dict[str, set[str]] = {}
    for text in texts:
        for token in text.replace("**", "").split():
            core = word_core(token)[1].casefold()
            if len(core) >= MARKS_MIN_LETTERS and core.isalpha() and _marks(core):
                found.setdefault(_bare(core), set()).add(core)
    return {bare: frozenset(forms) for bare, forms in found.items()}


def repeated_spellings(texts: Iterable[str]) -> frozenset[str]:
    """The words (casefolded, `MARKS_MIN_LETTERS` letters or more) `texts` read more than once."""
    seen = Counter(word_core(token)[1].casefold() for text in texts for token in text.replace("**", "").split())
    return frozenset(word for word, times in seen.items() if times > 1 and len(word) >= MARKS_MIN_LETTERS)


def mark_signs(text: str, marked: MarkedForms, spelled: Callable[[str], bool] | None,
               repeated: frozenset[str] | None = None) -> list[str]:
    """A word of `text` the dictionaries (`spelled`) do not know, that the sheet reads elsewhere (`marked`) with a
    diacritic more in a spelling they know (`Sindrome` beside `síndrome`); where `repeated` (the words the sheet reads
    more than once) is given, a word they know too that the sheet reads here alone and elsewhere with a diacritic more
    (`periodo` once beside `período`: a sheet spells a word one way throughout; sign `twins-elsewhere`)."""
    if "marks-elsewhere" not in ENABLED or spelled is None or not marked:
        return []
    signs = []
    for token in text.replace("**", "").split():
        core = word_core(token)[1]
        folded = core.casefold()
        if len(core) < MARKS_MIN_LETTERS or not core.isalpha() or core.isupper():
            continue
        richer = [form for form in marked.get(_bare(folded), ()) if _marks(form) > _marks(folded)]
        if not richer or not any(spelled(form) for form in richer):
            continue
        if not spelled(core) and not spelled(folded):
            signs.append(f"{core!r} (read {richer[0]!r} elsewhere)")
        elif repeated is not None and "twins-elsewhere" in ENABLED and folded not in repeated:
            signs.append(f"{core!r} (read {richer[0]!r} elsewhere, and so nowhere else)")
    return signs


# A space beside a mark or a sign is none to a reader (`28 *C` is `28*C`); one between two letters or digits is.
_SPACE_BY_MARK = re.compile(r"(?<=[^\w\s]) | (?=[^\w\s])")
# `×` read as the letter x: between two numbers, spaced or glued (`99 x 18`, `12x9=8`); not a hexadecimal `0x1F`.
_TIMES_AS_X = re.compile(r"(?<![\d.,])(?!0[xX])\d+(?:[.,]\d+)? ?[xX] ?\d+")
# A raised sign read as a mark: `*` right after a number or its unit of one or two letters (`68*`, `23 cm* de`), or
# before a temperature's scale (`28 *C`), but not an asterisk multiplying, as code prints it (`2*r`, `k * 9`,
# `10 * b`: an operand after it, a digit, a bracket or a lone letter); `?` there with a letter or digit glued after it (`5?torbe`, `m?cuclillas`: a stem's question ends
# with its mark, a question after it opens apart) or a word of small letters after it (`19? infomercial`: the sentence
# after a question opens with a capital), or ending an option (`108?`, `12 m?`). A double quote so is unpaired, a sign
# of its own (`certainty`).
_UNIT = r"(?: ?[^\W\d_]{1,2})?"
_RAISED_STAR = re.compile(rf"\d{_UNIT}\*(?!\s?(?:\d|\(|[^\W\d_](?![^\W\d_])))|\d ?\*[CFK]\b")
_RAISED_QUERY = re.compile(rf"\d{_UNIT}\?(?P<space> ?)(?P<next>[^\W_])")
_RAISED_ENDING = re.compile(rf"\d{_UNIT}\?$")
# A relation or an arrow read as two marks between numbers (`94 => 63` for `94 ≥ 63`, `2 -> 5` for `2 → 5`): a typesetter
# prints the one sign.
_TWO_MARKS = re.compile(r"\d ?(?:=>|=<|>=|<=|->|<-|—>) ?-?\d")
# The micro sign read as `u` before a unit symbol of the SI (gram, litre, mole), after a number.
_MICRO_AS_U = re.compile(r"\d ?u(?:g|l|L|mol)\b")


def symbol_signs(text: str, option: bool = False, one_letter: Sequence[str] = ()) -> list[str]:
    """Signs of arithmetic or units read as a letter or a mark in one stem or option's `text` (see the module's doc);
    `option`: the text is an option's; `one_letter`: the language's one-letter words (a language with a word `x` keeps
    it between numbers)."""
    signs: list[str] = []
    joined = _SPACE_BY_MARK.sub("", text)
    if "times" in ENABLED and "x" not in one_letter and (found := _TIMES_AS_X.search(joined)):
        signs.append(f"{found.group(0)!r} (a letter x between numbers: a × misread?)")
    query = next((m for m in _RAISED_QUERY.finditer(text) if not m.group("space") or m.group("next").islower()), None)
    if "raised" in ENABLED and (found := _RAISED_STAR.search(text) or query
                                or (_RAISED_ENDING.search(text.rstrip()) if option else None)):
        signs.append(f"{found.group(0)!r} (a raised sign read as a mark?)")
    if "two-marks" in ENABLED and (found := _TWO_MARKS.search(text)):
        signs.append(f"{found.group(0)!r} (a relation or an arrow read as two marks?)")
    if "micro" in ENABLED and (found := _MICRO_AS_U.search(joined)):
        signs.append(f"{found.group(0)!r} (a µ read as u?)")
    if "zero-as-letter" in ENABLED and (found := next((m for m in _ZERO_AS_LETTER.finditer(text) if not _ORDINAL.search(m.group(0))), None)):
        signs.append(f"{found.group(0)!r} (a letter O in a number: a 0 misread?)")
    return signs


# The letter O or o (Latin, Greek, Cyrillic) in a digit's place in a number with a decimal or a thousands separator, a
# digit or the letter on each side of the separator and at least one digit (`O,5`, `1.O00`, `2,5O`): not a word's letter
# (`Oslo.5`), which letters beside it show; nor an ordinal's small o after its number's stop (`art. 2.o`).
_ZERO_LOOKALIKES = "OoΟοОо"
_NUMBER_PART = rf"[\d{_ZERO_LOOKALIKES}]+"
_ORDINAL = re.compile(r"\d\.[oοо]$")
_ZERO_AS_LETTER = re.compile(
    rf"(?<![^\W\d_])(?=[^\s]*\d)(?=[^\s]*[{_ZERO_LOOKALIKES}]){_NUMBER_PART}(?:[.,]{_NUMBER_PART})+(?![^\W\d_])")

# A sheet's stems open with a capital where at least this share of its stems that open with a letter do (and
# `MIN_QUESTIONS_FOR_USUAL` of them or more).
CAPITAL_STEMS_SHARE = 0.8


def _opening_letters(text: str) -> int:
    """How many letters in a row open `text` past opening marks (`«inducir»` 7, `x < 25` 1, `x²` 1, `12 mg` 0)."""
    rest = text.replace("**", "").lstrip()
    rest = rest[next((i for i, ch in enumerate(rest) if ch.isalnum()), len(rest)):]
    return next((i for i, ch in enumerate(rest) if not ch.isalpha()), len(rest))


def _first_letter(text: str) -> str:
    """The first character of `text` past opening marks (`¿`, `"`, `(`), if a letter; else ''."""
    for ch in text.replace("**", "").lstrip():
        if ch.isalpha():
            return ch
        if ch.isalnum() or ch.isspace():
            return ""
    return ""


def sheet_opens_capital(stems: Iterable[str]) -> bool:
    """Whether a sheet's stems open with a capital: `CAPITAL_STEMS_SHARE` of those that open with a letter."""
    firsts = [ch for ch in (_first_letter(stem) for stem in stems) if ch]
    return len(firsts) >= MIN_QUESTIONS_FOR_USUAL and sum(ch.isupper() for ch in firsts) >= CAPITAL_STEMS_SHARE * len(firsts)


# A sheet's stems end alike where at least `USUAL_SHARE` of its OCR'd stems (`MIN_QUESTIONS_FOR_USUAL` or more) end
# with the same mark.
_STEM_ENDS = frozenset(".:?;")


def usual_stem_ending(stems: Iterable[str]) -> str | None:
    """The mark (`.`, `:`, `?`, `;`) most of a sheet's stems end with, if `USUAL_SHARE` of them do; else None."""
    ends = [_last(stem) for stem in stems if _last(stem)]
    if len(ends) < MIN_QUESTIONS_FOR_USUAL:
        return None
    end, times = Counter(ends).most_common(1)[0]
    return end if end in _STEM_ENDS and times >= USUAL_SHARE * len(ends) else None


def stem_ending_signs(text: str, usual_ending: str | None, continued: bool = False) -> list[str]:
    """A stem ending in a letter or a digit where most of the sheet's stems end with one mark (`usual_stem_ending`):
    its stop lost (`… de la Constitución` among stems ending `.`). A stem whose options go on with its sentence
    (`continued`) ends where the sentence is cut, not judged."""
    if "stem-ending" not in ENABLED or usual_ending is None or continued:
        return []
    end = _last(text)
    return [f"it ends without the {usual_ending!r} the sheet's stems end with"] if end.isalnum() else []


def casing_signs(text: str, siblings: Sequence[str] = (), option: bool = False, capital_stems: bool = False) -> list[str]:
    """Signs that a letter's case was misread in one stem or option's `text` (see the module's doc). `siblings`: the
    question's other options (for an option); `capital_stems`: the sheet's stems open with a capital (for a stem)."""
    signs: list[str] = []
    first = _first_letter(text)
    if _opening_letters(text) < 2:
        return signs  # a lone letter opening a text is a variable or a symbol (`x < 25`, `x²`), not a word's capital
    if "small-opening" in ENABLED and first.islower():
        opening = [_first_letter(sibling) for sibling in siblings]
        if option and len(opening) >= MIN_SIBLINGS and all(ch.isupper() for ch in opening) \
                or not option and capital_stems:
            others = "siblings" if option else "sheet's stems"
            signs.append(f"it opens with a small {first!r} where its {others} open with capitals")
    return signs
