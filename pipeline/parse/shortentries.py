"""How sure the OCR reading of a short-answer key entry is: which entries rest on an unsure reading.

A key's option-letter entries are checked against the question's labels (a letter that is no label is a
flag of its own); a short-answer entry (`12,5 cm`, `sonet/znelka`, `ako/– ako`) has nothing to be checked
against, so a misread letter (`soneť` for `sonet`, `lnterview` for `Interview`, `Šš` for `3`) or a dash of the
wrong kind would key the question wrongly without a word. Here such an entry is unsure, and its question gets
`ocr.uncertain` (parse's `certainty`, through `key_unsure`) and comes first in the audit queue, when:
- a line it was read from holds a word Tesseract's reading was unsure of (`Line.unsure_words`), held in the entry;
- one of its words of letters is unknown to the language's spelling dictionary, in any case (the alternatives
  of `a/b` and `a; b` are judged apart; a word of up to `UNIT_LETTERS` letters right after a number is its unit,
  `cm`, `kg`, `zł`, and not judged); or a word inside an alternative begins with a capital drawn as its small
  letter only taller (`Š`, `O`, `V`: `SAME_SHAPE_CAPITALS`) where the dictionary knows it in small letters;
- a word mixes letters and digits (`3š`, `l2`), or holds a sign no answer is written with (`|`, `©`, `_`);
- a table entry has more lines above its number's line than below it (`lines_above_number`: another row's cell),
  and then the entry of the row above it too (its cell may have lost those lines);
- its alternatives hold a number and a numeral word of the sheet's language (`Language.numerals`) that name other
  values (`9/πέντε`), a numeral word beside an alternative too short to be a word and holding no number (`Šš/tri`: the
  number unread; the flag says which number the word names, the entry is never rewritten: the curator fixes it),
  or a number beside a word no numeral that reads nearly as one of the number's words (`3/ri`): `numeral_disagreements`;
- a dash stands apart from words (`ako/– ako`): its length, which tells a dash from a hyphen, is what a blurred
  scan loses first; a capital follows a small letter inside a word (`predmetŤ`); or a slash has a space on one
  side only (`5/ päť`: printed `5 / päť` or `5/päť`, the space beside a thin stroke is what a reading gets wrong);
- an alternative opens with a mark that ends phrases, standing alone (`. 10/desať`), or ends with one that leads on
  (`hypotézu/hypotéza:`): no answer is written so, and a speck of a dusty scan beside the first or last letter is
  read so (`stray_marks`); the dictionary, which judges words without their marks, passes such an entry;
- a bracket stands without its partner (`4 [ cztery` for `4 / cztery`): answers write brackets in pairs, and a thin
  stroke (a slash, an `l`, a `1`) blurred is read as a lone one (`unpaired_brackets`).

Only entries that are no option label are judged, and only those read by OCR: an entry with the lines it was
read from (`KeyTable.sources`) by those lines; one without (a list key's entry) when every page of the keys was
read by OCR. A language without a spelling dictionary judges the signs only.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from difflib import SequenceMatcher

from pipeline.extract import ExtractedDocument, PageMethod
from pipeline.extract.ocr import spelled_for
from pipeline.languages import find_language
from pipeline.parse.keys import KeyTable
from pipeline.parse.stream import StreamLine, plain_text

UNIT_LETTERS = 3  # letters of a unit written after its number
_PARTS = re.compile(r"[\s/;()\[\]]+|,(?=\s|$)")  # what parts an entry's words: spaces, alternatives, brackets, a comma before a space
_NUMBER = re.compile(r"^[-−+]?\d+(?:[.,:]\d+)*[%‰°]?$")
# Capitals drawn as their small letter, only taller (Latin, Greek, Cyrillic): on a blurred scan the height alone
# tells them apart, and an OCR reading confuses them (`(Štýlu)` for `(štýlu)`).
SAME_SHAPE_CAPITALS = frozenset("CKOPSUVWXZΟΡΧΨСОХУКВЖЗМНПТШЩЬЪЫЮЯ")
_LOPSIDED_SLASH = re.compile(r"(?<=\S)/\s+(?=\S)|(?<=\S)\s+/(?=\S)")
_DASHES = frozenset("-‐‑‒–—―−")
# Signs an answer is written with besides letters and digits: what parts words (above), closing and decimal marks,
# quotes, apostrophes, dashes and the signs of numbers.
_ANSWER_SIGNS = frozenset("/;,()[].:!?'\"’‘“”„«»%‰°+=*×·^²³<>") | _DASHES


def _letters(word: str) -> bool:
    return bool(word) and all(unicodedata.category(ch).startswith(("L", "M")) for ch in word)


def odd_words(answer: str, spelled: Callable[[str], bool] | None) -> list[str]:
    """The words of a short-answer `answer` a reading of it is unsure of (the module's doc), each once, in order."""
    found: list[str] = []
    pieces_and_gaps = re.split(f"({_PARTS.pattern})", answer)
    tokens = [t for t in pieces_and_gaps[::2] if t]
    # Whether each word follows a word across spaces only (a unit after its number; `3/ri` is no unit).
    spaced = [i > 0 and bool(pieces_and_gaps[i - 2]) and pieces_and_gaps[i - 1].isspace()
              for i in range(0, len(pieces_and_gaps), 2) if pieces_and_gaps[i]]
    firsts = _alternative_starts(answer)
    for index, token in enumerate(tokens):
        core = token.strip(".:!?'\"’‘“”„«»")
        if not core:
            continue
        if all(ch in _DASHES for ch in core):
            found.append(core)  # a dash set apart from words: which dash it is, its length tells
            continue
        inner = core.strip("".join(_DASHES))
        if any(not ch.isalnum() and ch not in _ANSWER_SIGNS and not unicodedata.category(ch).startswith("M") for ch in inner):
            found.append(token)
            continue
        if _NUMBER.match(inner):
            continue
        pieces = [p for p in re.split(r"[-‐‑–—]", inner) if p]  # a compound's halves (`severo-západ`)
        if any(any(ch.isdigit() for ch in p) and any(ch.isalpha() for ch in p) for p in pieces):
            found.append(token)
            continue
        if any(_letters(p) and any(a.islower() and b.isupper() for a, b in zip(p, p[1:])) for p in pieces):
            found.append(token)  # a capital after a small letter inside a word (`predmetŤ`)
            continue
        if spelled is None:
            continue
        after_number = index > 0 and bool(_NUMBER.match(tokens[index - 1])) and spaced[index]
        for piece in pieces:
            if not _letters(piece) or (after_number and len(piece) <= UNIT_LETTERS):
                continue
            if not any(spelled(form) for form in dict.fromkeys((piece, piece.lower(), piece.capitalize()))):
                found.append(token)
                break
            if index not in firsts and _same_shape_capital(piece) and spelled(piece.lower()):
                found.append(token)  # `úradného (Štýlu)`: a small letter read as its capital
                break
    return list(dict.fromkeys(found))


_BRACKETED = re.compile(r"\([^)]*\)?|\[[^\]]*\]?")
_DIGITS = re.compile(r"^\d+$")
NEAR_NUMERAL = 0.6  # how alike (`SequenceMatcher.ratio`) a word beside a number is to the number's word to be a misreading of it


def numeral_disagreements(answer: str, numerals: Mapping[int, Iterable[str]] | None) -> list[str]:
    """Why a short-answer `answer` whose alternatives (`a/b`) write a number twice, in digits and as a numeral word of
    the language (`numerals`: {value: its words}), is unsure, in words; [] where they agree or it writes none. An
    alternative is judged without its brackets (`2/dva (vetné sklady)`) and in any case. Signs, in turn: a number and a
    numeral word of another value (`9/πέντε`); a numeral word beside an alternative of fewer signs than it, holding no
    digit, that is no numeral word (`Šš/tri`: the number unread, never rewritten here); a number beside a word that is
    no numeral but reads nearly as one of the number's words (`3/ri`, `NEAR_NUMERAL`); an entry of a number and a numeral
    word alone without a slash between them (`9 πέντε`, `5 pięć`: no answer is written so, the slash was lost)."""
    if not numerals:
        return []
    value_of = {word.casefold(): value for value, words in numerals.items() for word in words}
    if "/" not in answer:  # `5 pięć`: a number and a numeral word are no answer and its unit, but two alternatives
        number, _, word = " ".join(answer.split()).partition(" ")
        lost = _DIGITS.match(number) and word.casefold() in value_of
        return [f"{number} and {word!r} ({value_of[word.casefold()]}) stand without the slash between them"] if lost else []
    alternatives = [" ".join(_BRACKETED.sub(" ", part).split()).strip(".,;:!?'\"’‘“”„«»") for part in answer.split("/")]
    numbers = [int(a) for a in alternatives if _DIGITS.match(a)]
    words = [(a, value_of[a.casefold()]) for a in alternatives if a.casefold() in value_of]
    found = []
    for word, value in words:
        if numbers and value not in numbers:
            found.append(f"{'/'.join(map(str, numbers))} and {word!r} ({value}) name different numbers")
        elif not numbers:
            unread = [a for i, a in enumerate(alternatives) if (a or i < len(alternatives) - 1) and a.casefold() not in value_of
                      and len(a) < len(word) and len(a) <= len(str(value)) + 1]  # an empty last one: a wrapped line
            found += [f"{a!r} stands where {word!r} ({value}) has its number: the number unread, not rewritten" for a in unread]
    for number in numbers if not words else ():
        own = [w.casefold() for w in numerals.get(number, ())]
        near = [a for a in alternatives if a and not _DIGITS.match(a) and any(ch.isalpha() for ch in a)
                and any(SequenceMatcher(None, a.casefold(), w).ratio() >= NEAR_NUMERAL for w in own)]
        found += [f"{a!r} beside {number} is none of its words ({', '.join(own)})" for a in near]
    return found


# Marks no answer's alternative opens with, standing alone before its first word (they end a phrase), and marks none
# ends with (they lead on to more): a speck by an entry's first or last letter is read as one of them.
OPENING_STRAYS = frozenset(".,:;")
CLOSING_STRAYS = frozenset(":,;")


def stray_marks(answer: str) -> list[str]:
    """The marks at the edges of a short-answer `answer`'s alternatives (`a/b`) no answer is written with there: a word of
    `OPENING_STRAYS` alone opening one (`. 10`), or one of `CLOSING_STRAYS` ending one (`hypotéza:`), each as read."""
    found: list[str] = []
    for alternative in answer.split("/"):
        words = alternative.split()
        if not words:
            continue
        if all(ch in OPENING_STRAYS for ch in words[0]) and len(words) > 1:
            found.append(words[0])
        if words[-1][-1] in CLOSING_STRAYS and len(words[-1]) > 1:
            found.append(words[-1])
    return found


_OPENING_BRACKETS = frozenset("([{")
_CLOSING_BRACKETS = frozenset(")]}")
_ENUMERATOR = re.compile(r"(?:^|(?<=\s))\w{1,3}$")  # `a`, `2`, `iv` before a closing bracket: an enumeration's `a)`


def unpaired_brackets(answer: str) -> list[str]:
    """The brackets of a short-answer `answer` without a partner, each as the word it stands in (`4 [ cztery` → `[`;
    `(štýlu` → `(štýlu`): an opening one no closing one follows, or a closing one no opening one came before. Answers
    write brackets in pairs (of any kinds together: an interval `[a, b)`), and a closing one after a word of up to three
    letters or digits is an enumeration's (`a) … b) …`); a lone one is a thin stroke misread (a slash, a blurred `l`)."""
    open_at: list[int] = []  # indices of the opening brackets still open
    lone: list[int] = []
    for index, ch in enumerate(answer):
        if ch in _OPENING_BRACKETS:
            open_at.append(index)
        elif ch in _CLOSING_BRACKETS:
            if open_at:
                open_at.pop()
            elif not _ENUMERATOR.search(answer[:index]):
                lone.append(index)
    found = []
    for index in sorted(lone + open_at):
        start = answer.rfind(" ", 0, index) + 1
        end = answer.find(" ", index)
        found.append(answer[start:end if end >= 0 else len(answer)])
    return list(dict.fromkeys(found))


def lopsided_slashes(line: str) -> list[str]:
    """A slash with a space on one side only in one line's text (`5/ päť`): the space beside a thin stroke is what a
    reading gets wrong. A slash ending a line (a cell wrapped after it) is not judged: join lines before, never."""
    return [m.group(0).strip() for m in _LOPSIDED_SLASH.finditer(line.strip())]


def lines_above_number(lines: list[StreamLine], number: StreamLine) -> list[str]:
    """The texts of a table entry's lines that stand above its number's line where more of them do than below it.
    A cell's lines stand level with its number and below it (set from the top) or about it (centred): more above
    than below are another row's, its number lost or its cell read into this row (NÚCEM's wrapped `(prestávka/pauza)`
    read as question 39's, leaving 38's answer short)."""
    others = [sl for sl in lines if sl is not number and sl.page == number.page]
    above = [sl for sl in others if sl.line.bottom <= number.line.top]
    below = [sl for sl in others if sl.line.top >= number.line.bottom]
    return [plain_text(sl.text)[0] for sl in above] if len(above) > len(below) else []


def _row_above(number: StreamLine, number_lines: dict[str, StreamLine]) -> str | None:
    """The entry whose number's line stands nearest above `number` on its page."""
    above = [(sl.line.top, key) for key, sl in number_lines.items() if sl.page == number.page and sl.line.bottom <= number.line.top]
    return max(above)[1] if above else None


def _alternative_starts(answer: str) -> set[int]:
    """Indices (among the entry's words, as `odd_words` splits them) of the first word of each alternative."""
    starts: set[int] = set()
    index = 0
    for alternative in re.split(r"[/;]", answer):
        words = [t for t in _PARTS.split(alternative) if t]
        if words:
            starts.add(index)
        index += len(words)
    return starts


def _same_shape_capital(word: str) -> bool:
    """A word of a capital and small letters whose capital has its small letter's shape, only taller (`Š`, `O`, `V`)."""
    base = unicodedata.normalize("NFD", word[:1])[:1]
    return len(word) > 1 and word[0].isupper() and word[1:].islower() and base in SAME_SHAPE_CAPITALS


def _holds(answer: str, word: str) -> bool:
    core = word.strip(".,;:!?()[]'\"")
    return bool(core) and core in answer


def unsure_short_entries(answers: dict[str, str], sources: dict[str, list[StreamLine]], labels: Iterable[str],
                         spelled: Callable[[str], bool] | None, all_ocr: bool,
                         repaired: dict[str, list[str]] | None = None,
                         number_lines: dict[str, StreamLine] | None = None,
                         numerals: Mapping[int, Iterable[str]] | None = None) -> dict[str, list[str]]:
    """{number key: unsure words} of the short-answer entries of `answers` ({number key: entry}) read by OCR whose
    reading is unsure (the module's doc). `sources`: the lines each entry was read from, where the reader knows
    them; `labels`: the option labels (an entry that is one is judged elsewhere); `spelled`: whether the language's
    spelling dictionary knows a word (None: it has none); `all_ocr`: every key page was read by OCR (an entry
    without sources is then judged); `repaired`: the words as read of the entries a pass mended (`shortrepairs`),
    unsure all the same; `number_lines`: each table entry's number's line (`lines_above_number`); `numerals`: the
    language's numeral words ({value: words}, `numeral_disagreements`), none: not judged."""
    label_set = {label.casefold() for label in labels}
    found: dict[str, list[str]] = {}
    for number, answer in answers.items():
        text = plain_text(answer)[0].strip()
        if not text or text.casefold() in label_set:
            continue
        lines = sources.get(number)
        if lines is None and not all_ocr or lines is not None and not any(sl.ocr for sl in lines):
            continue
        words = [w for sl in lines or () if sl.ocr for w in sl.line.unsure_words if _holds(text, w)]
        words += odd_words(text, spelled) + list((repaired or {}).get(number, [])) + numeral_disagreements(text, numerals)
        words += stray_marks(text) + unpaired_brackets(text)
        words += [w for read in ([plain_text(sl.text)[0] for sl in lines] if lines else [text]) for w in lopsided_slashes(read)]
        number_line = (number_lines or {}).get(number)
        if lines and number_line is not None:
            taken = lines_above_number(lines, number_line)
            words += [repr(w) for w in taken]
            above = _row_above(number_line, number_lines or {}) if taken else None
            if above is not None and above in answers:  # the row whose cell those lines may have been
                found.setdefault(above, []).append(f"a line read into question {number}'s entry")
        if words:
            found[number] = list(dict.fromkeys([*found.get(number, []), *words]))
    return found


def spelled_in(language: str | None) -> Callable[[str], bool] | None:
    """Whether the spelling dictionaries of the sheet's language (ISO 639-1) know a word; None without any."""
    found = find_language(language) if language else None
    return spelled_for(tuple(found.codes.tesseract)) if found and found.spelling else None


def numerals_of(language: str | None) -> dict[int, list[str]]:
    """The numeral words of the sheet's language (ISO 639-1), {value: words}; {} without any."""
    found = find_language(language) if language else None
    return dict(found.numerals) if found else {}


def unsure_short_key_entries(key: KeyTable | None, documents: list[ExtractedDocument], labels: Iterable[str],
                             language: str | None) -> dict[str, list[str]]:
    """`unsure_short_entries` of a sheet's merged key, read from `documents` (the key files), in its `language`."""
    pages = [page for document in documents for page in document.pages]
    if key is None or not key.answers or not any(page.method is PageMethod.OCR for page in pages):
        return {}
    all_ocr = all(page.method is PageMethod.OCR for page in pages)
    return unsure_short_entries(key.answers, key.sources, labels, spelled_in(language), all_ocr, key.repaired, key.number_lines,
                                numerals_of(language))
