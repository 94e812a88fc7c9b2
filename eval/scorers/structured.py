"""Structured answers (a word, a number, matching pairs, fill-in-the-gaps, true/false blocks) matched
against their key after normalisation, each decision named.

The free text goes through one normalisation (`answer_span`, then `normalise`): markdown removed
(`**`, `__`, backticks, `#` headings, `\\boxed{}`), the last "<answer word>: X" kept when there is one
(eval.scorers.answers.ANSWER_WORDS), a trailing explanation cut ("4, because …"), newlines collapsed,
surrounding punctuation stripped, case folded, and accents folded only when the spec says so (in
Slovak or Polish an accent is spelling, so by default it counts). Then one format's rule decides.

The key may list alternatives separated by `;` or `/` (never a `/` between digits: "1/2" is a
fraction), carry "accept also" notes ("Uznať aj …", "Akceptować także …") and optional words in
parentheses ("výkladový (slovník)" accepts both "výkladový" and "výkladový slovník"; a parenthesis
after the last alternative of a key with no other parenthesis is shared by all: "2/dve (vety)").

An answer the rule cannot read is its own outcome, `unparseable`, with score None: never a silent 0.
A key the rule cannot read is an error (`KeyFormatError`), since every answer to it would be scored
wrong. Public: `MatchSpec`, `spec_for`, `match_answer`, `answer_span`, `normalise`, `parse_number`,
`StructuredResult`, `Outcome`, `KeyFormatError`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from eval.scorers.answers import ANSWER_WORDS

from pipeline.languages import all_languages, caseless


class KeyFormatError(ValueError):
    """The key itself cannot be read by the rule its question type names."""


class Outcome(str, Enum):
    MATCHED = "matched"
    PARTIAL = "partial"  # some pairs / blanks / statements right, not all
    MISMATCH = "mismatch"
    UNPARSEABLE = "unparseable"  # the answer could not be read by the rule: neither right nor wrong


# Per language (pipeline/languages data): the decimal mark numbers are written with, and the
# true/false words of its exams.
DECIMAL_MARK = {code: lang.decimal_mark for code, lang in all_languages().items()}
TRUE_FALSE_WORDS: dict[str, dict[bool, tuple[str, ...]]] = {
    code: {True: tuple(lang.true_false.true_words), False: tuple(lang.true_false.false_words)}
    for code, lang in all_languages().items()
}
# Words that start a trailing explanation after the answer itself. Only unambiguous ones: "as" or
# "which" would cut real answers ("as soon as possible").
EXPLANATION_WORDS = {code: tuple(lang.explanation_words) for code, lang in all_languages().items()}
# Headings of an explanation, in any language (replies mix them): every language file's.
EXPLANATION_HEADINGS = tuple(sorted({h for lang in all_languages().values() for h in lang.explanation_headings}))
# "Accept also …" notes in keys, in any language file's words: what follows is one more accepted
# answer. Longest first, so that no note is cut by a shorter one inside it.
ACCEPT_ALSO = tuple(sorted({n for lang in all_languages().values() for n in lang.accept_also}, key=lambda n: (-len(n), n)))


@dataclass(frozen=True)
class MatchSpec:
    kind: str = "text"  # text | word | number | matching | fill_in | true_false
    language: str = "en"
    fold_accents: bool = False  # only where the exam ignores accents
    fold_case: bool = True
    fractions: bool = False  # "1/2" equals "0.5" only when asked
    decimal_mark: str | None = None  # default: the language's (DECIMAL_MARK)
    tolerance: float = 0.0  # absolute, for numbers

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"unknown structured-answer kind {self.kind!r}; known: {', '.join(KINDS)}")

    @property
    def decimal(self) -> str:
        return self.decimal_mark or DECIMAL_MARK.get(self.language, ".")


KINDS = ("text", "word", "number", "matching", "fill_in", "true_false")


@dataclass(frozen=True)
class Part:
    """One scored unit of a structured answer: a pair, a blank, a statement."""

    name: str
    expected: str
    given: str | None  # None: the answer has nothing for it
    correct: bool


@dataclass(frozen=True)
class StructuredResult:
    outcome: Outcome
    score: float | None  # 0..1; None when unparseable
    normalised: str  # the answer as the rule read it
    rule: str  # which rule decided (and which alternative, pair count, ...)
    parts: tuple[Part, ...] = ()
    reason: str | None = None  # why unparseable

    @property
    def matched(self) -> bool:
        return self.outcome is Outcome.MATCHED


def _unparseable(normalised: str, rule: str, reason: str) -> StructuredResult:
    return StructuredResult(Outcome.UNPARSEABLE, None, normalised, rule, (), reason)


def _scored(normalised: str, rule: str, parts: list[Part]) -> StructuredResult:
    right = sum(p.correct for p in parts)
    score = right / len(parts)
    outcome = Outcome.MATCHED if right == len(parts) else Outcome.MISMATCH if right == 0 else Outcome.PARTIAL
    return StructuredResult(outcome, score, normalised, rule, tuple(parts))


# --------------------------------------------------------------------------- normalisation

_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_HEADING = re.compile(r"(?m)^\s{0,3}#{1,6}\s+")
_MARKUP = re.compile(r"\*\*|__|`+|~~|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w)")
_EDGE_PUNCT = " \t\"'„“”«»‚‘’()[]{}.,;:!?¡¿·…-–—"


def strip_markdown(text: str) -> str:
    text = _BOXED.sub(r"\1", text)
    text = re.sub(r"\\text\{([^{}]*)\}", r"\1", text)
    text = _HEADING.sub("", text)
    return _MARKUP.sub("", text)


def answer_span(text: str, language: str, *, multiline: bool = False) -> str:
    """The part of a reply that is the answer: after the last answer word if one is stated, without
    markdown and without a trailing explanation. `multiline` keeps line breaks (a block of pairs or
    statements may be written one per line)."""
    text = unicodedata.normalize("NFC", strip_markdown(text or ""))
    words = sorted(set(ANSWER_WORDS.get(language, ()) + ANSWER_WORDS["en"]), key=len, reverse=True)
    # "Answer: X", or the answer word as a heading line of its own with X below it.
    stated = list(re.finditer(rf"(?:{'|'.join(map(re.escape, words))})(?:\s*[:：=]|[ \t]*\n)\s*", text, re.IGNORECASE))
    if stated:
        text = text[stated[-1].end():]
        # The stated answer runs to the end of its line, unless the block continues on the next lines.
        if not multiline:
            text = text.strip().split("\n", 1)[0]
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not multiline and len(lines) > 1 and _starts_explanation(lines[1], language):
        lines = lines[:1]  # "4\n\nBecause 2 + 2 = 4."
    text = ("\n" if multiline else " ").join(lines)
    return _cut_explanation(text, language, keep_commas=multiline)


def _starts_explanation(line: str, language: str) -> bool:
    words = EXPLANATION_WORDS.get(language, ()) + EXPLANATION_WORDS["en"]
    head = line.lstrip(_EDGE_PUNCT).casefold()
    return any(re.match(rf"{re.escape(w)}\b", head) for w in words) or head.startswith(EXPLANATION_HEADINGS)


def _cut_explanation(text: str, language: str, *, keep_commas: bool) -> str:
    words = EXPLANATION_WORDS.get(language, ()) + EXPLANATION_WORDS["en"]
    joined = "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))
    # ", because …" / " – because …" / " (because …)". A bare dash ends the answer only in
    # single-value formats: in a block of pairs it joins a pair ("A - 1").
    cut = re.search(rf"\s*(?:[,;:–—(-]\s*|\s)(?:{joined})\b", text, re.IGNORECASE)
    if cut and cut.start() > 0:
        text = text[: cut.start()]
    if not keep_commas:
        text = re.split(r"\s+[–—]\s+|\s+-\s+(?=[^\W\d_]{3})", text, maxsplit=1)[0]
    return text


def fold_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if not unicodedata.combining(c))).replace("ł", "l").replace("Ł", "L")


def normalise(text: str, spec: MatchSpec) -> str:
    """Whitespace collapsed, surrounding punctuation stripped, case and (when asked) accents folded."""
    text = re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).strip().rstrip(_EDGE_PUNCT)
    signed = re.match(r"[^\w\-−+]*([\-−+]\d.*)", text)  # a sign is part of "-3", not punctuation
    text = signed.group(1) if signed else text.lstrip(_EDGE_PUNCT)
    if spec.fold_case:
        text = text.casefold()
    if spec.fold_accents:
        text = fold_accents(text)
    return text


# --------------------------------------------------------------------------- the key's alternatives


def key_alternatives(key: str, spec: MatchSpec) -> list[str]:
    """Every accepted answer a key lists, normalised like answers are.

    Groups are separated by `;` or by "/ " (a slash then a space); alternatives in a group by `/`
    (never between digits). A parenthesis on the group's last alternative, when no other one has
    its own, is an optional tail of every alternative in the group: "2/dve (vety)",
    "dramatickú/logickú (prestávku/pauzu)". Slashes inside a parenthesis are alternatives of it."""
    if not key or not re.search(r"\w", key):
        raise KeyFormatError(f"key {key!r} holds no answer")
    text = key
    for note in ACCEPT_ALSO:
        text = re.sub(rf"\(?\s*{re.escape(note)}\s*:?\s*", ";", text, flags=re.IGNORECASE)
    accepted: list[str] = []
    for group in _split_outside_parentheses(text, r";|/\s+"):
        alternatives = [a.strip() for a in _split_outside_parentheses(group, r"(?<!\d)/|/(?!\d)") if a.strip()]
        tails: list[str] = []
        tail = re.search(r"\s\(([^()]+)\)\s*$", alternatives[-1]) if alternatives else None
        if tail and len(alternatives) > 1 and sum("(" in a for a in alternatives) == 1:
            tails = [t.strip() for t in tail.group(1).split("/") if t.strip()]
            alternatives[-1] = alternatives[-1][: tail.start()]
        for alternative in alternatives:
            for variant in _optional_words(alternative):
                for candidate in [variant] + [f"{variant} {t}" for t in tails]:
                    candidate = normalise(candidate, spec)
                    if candidate and candidate not in accepted:
                        accepted.append(candidate)
    if not accepted:
        raise KeyFormatError(f"key {key!r} lists no accepted answer")
    return accepted


def _split_outside_parentheses(text: str, separator: str) -> list[str]:
    pieces, depth, start = [], 0, 0
    pattern = re.compile(separator)
    at = 0
    while at < len(text):
        char = text[at]
        depth += (char == "(") - (char == ")" and depth > 0)
        found = pattern.match(text, at) if depth == 0 else None
        if found and found.end() > at:
            pieces.append(text[start:at])
            start = at = found.end()
            continue
        at += 1
    pieces.append(text[start:])
    return pieces


def _optional_words(piece: str) -> list[str]:
    """"výkladový (slovník)" -> ["výkladový", "výkladový slovník"]; "(v) škole" -> ["škole", "v škole"];
    "10 (ľudí/osôb)" -> ["10", "10 ľudí", "10 osôb"]."""
    match = re.search(r"\(([^()]*)\)", piece)
    if not match:
        return [piece.strip()] if piece.strip() else []
    variants: list[str] = []
    for option in [""] + [o.strip() for o in match.group(1).split("/")]:
        filled = re.sub(r"\s+", " ", piece[: match.start()] + (f" {option} " if option else " ") + piece[match.end():]).strip()
        variants.extend(_optional_words(filled))
    return [v for v in dict.fromkeys(variants) if v]


# --------------------------------------------------------------------------- numbers

_NUMBER = re.compile(r"[-−+]?\d[\d\s\u00a0\u202f.,'’]*(?:/\d+)?")


def parse_number(text: str, spec: MatchSpec) -> Fraction | None:
    """A number as written in the language: its decimal mark is decimal; the other mark (and spaces,
    apostrophes) groups thousands when every group after it has three digits; otherwise it is a
    decimal mark too, as models often write "3.5" in a Polish answer. "1/2" only with `fractions`."""
    text = text.strip().replace("−", "-").replace("\u00a0", " ").replace("\u202f", " ")
    if "/" in text:
        if not spec.fractions:
            return None
        top, _, bottom = text.partition("/")
        a, b = parse_number(top, spec), parse_number(bottom, spec)
        return a / b if a is not None and b not in (None, 0) else None
    sign = -1 if text.startswith("-") else 1
    text = text.lstrip("+-").strip()
    other = "." if spec.decimal == "," else ","
    grouping = rf"\d{{1,3}}(?:[ '’{re.escape(other)}]\d{{3}})+"
    if re.fullmatch(rf"{grouping}(?:{re.escape(spec.decimal)}\d+)?", text):
        whole, _, fraction = text.partition(spec.decimal)
        digits = re.sub(r"\D", "", whole) + ("." + fraction if fraction else "")
    elif re.fullmatch(r"\d+(?:[.,]\d+)?", text):
        digits = text.replace(",", ".")
    else:
        return None
    return sign * Fraction(digits)


def _match_number(answer: str, alternatives: list[str], spec: MatchSpec) -> StructuredResult:
    same = normalise(answer, spec)
    if same in alternatives:  # "1/2" for key "1/2" needs no arithmetic, asked or not
        return StructuredResult(Outcome.MATCHED, 1.0, same, f"number:alternative {alternatives.index(same) + 1} as written")
    found = [m.group(0).strip().rstrip(".,'’ ") for m in _NUMBER.finditer(answer)]
    values = [v for v in (parse_number(f, spec) for f in found) if v is not None]
    if len(values) != len(found) or not values:
        return _unparseable(answer, "number", f"no readable number in {answer!r}")
    if len(set(values)) > 1:
        return _unparseable(answer, "number", f"several different numbers in {answer!r}")
    given = values[0]
    keys = [parse_number(a, spec) for a in alternatives]
    for index, key in enumerate(keys):
        if key is not None and abs(float(given - key)) <= spec.tolerance:
            return StructuredResult(Outcome.MATCHED, 1.0, str(_show(given)), f"number:alternative {index + 1}")
    return StructuredResult(Outcome.MISMATCH, 0.0, str(_show(given)), "number")


def _show(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


# --------------------------------------------------------------------------- words and text


def _match_text(answer: str, alternatives: list[str], spec: MatchSpec) -> StructuredResult:
    normalised = normalise(answer, spec)
    if not normalised:
        return _unparseable(normalised, spec.kind, "empty answer")
    if spec.kind == "word" and len(normalised.split()) != 1:
        return _unparseable(normalised, "word", f"{len(normalised.split())} words where one was asked")
    if normalised in alternatives:
        return StructuredResult(Outcome.MATCHED, 1.0, normalised, f"{spec.kind}:alternative {alternatives.index(normalised) + 1}")
    return StructuredResult(Outcome.MISMATCH, 0.0, normalised, spec.kind)


# --------------------------------------------------------------------------- matching pairs

_ARROW = r"\s*(?:->|=>|→|⇒|⟶|[-–—:=)]|\.)\s*"
_TOKEN = r"[^\W_]{1,4}"


def parse_pairs(text: str) -> list[tuple[str, str]] | None:
    """Pairs in a key: "A-1, B-3", "A → 1; B → 3", "1-C 2-A", "A1 B3" (a letter-digit boundary)."""
    chunks = [c.strip() for c in re.split(r"[,;\n]+|\s{2,}", text) if c.strip()]
    if len(chunks) == 1:
        chunks = _space_chunks(chunks[0])
    pairs = []
    for chunk in chunks:
        found = re.fullmatch(rf"({_TOKEN}){_ARROW}({_TOKEN})", chunk) or re.fullmatch(
            r"([^\W\d_]{1,3})\s*(\d{1,3})|(\d{1,3})\s*([^\W\d_]{1,3})", chunk) or re.fullmatch(rf"({_TOKEN})\s+({_TOKEN})", chunk)
        if not found:
            return None
        left, right = [g for g in found.groups() if g]
        pairs.append((left.casefold(), right.casefold()))
    return pairs or None


def _space_chunks(text: str) -> list[str]:
    """"A1 B3" or "A 1 B 3" (no commas): chunks of one pair each."""
    tokens = text.split()
    if all(re.fullmatch(r"[^\W\d_]{1,3}\d{1,3}|\d{1,3}[^\W\d_]{1,3}", t) for t in tokens):
        return tokens
    if len(tokens) % 2 == 0 and not any(re.search(_ARROW.strip(r"\s*"), t) for t in tokens):
        return [f"{tokens[i]} {tokens[i + 1]}" for i in range(0, len(tokens), 2)]
    return [text]


_GREEK_TO_LATIN = str.maketrans("αβγδεζηθΑΒΓΔΕΖΗΘ", "abcdefghABCDEFGH")
_TEXT_ARROW = re.compile(r"\s+[-–—]\s+|\s*(?:->|=>|→|⇒|⟶|\t)\s*")


def parse_text_pairs(text: str) -> list[tuple[str, str]] | None:
    """Pairs of named items, one per line or `;`: "Przeglądanie stron www – HTTP; Transfer plików → FTP"."""
    pairs = []
    for chunk in (c.strip() for c in re.split(r"[;\n]+", text)):
        if not chunk:
            continue
        sides = _TEXT_ARROW.split(chunk)
        if len(sides) != 2 or not all(s.strip() for s in sides):
            return None
        pairs.append((sides[0].strip().casefold(), sides[1].strip().casefold()))
    return pairs if len(pairs) > 1 else None


def _match_text_pairs(answer: str, expected: list[tuple[str, str]], spec: MatchSpec) -> StructuredResult:
    """Each key item is looked for in the answer; the right-hand item written after it, before the
    next key item, is its answer."""
    text = normalise(answer, replace(spec, fold_accents=False))
    lefts = sorted({normalise(l, spec) for l, _ in expected}, key=len, reverse=True)
    rights = sorted({normalise(r, spec) for _, r in expected}, key=len, reverse=True)
    starts = sorted((m.start(), m.end(), left) for left in lefts for m in re.finditer(re.escape(left), text))
    if not starts:
        return _unparseable(text, "matching", f"none of the items {lefts} is named in {text!r}")
    given: dict[str, set[str]] = {}
    for index, (_, end, left) in enumerate(starts):
        stop = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        found = [r for r in rights if re.search(rf"(?<![^\W_]){re.escape(r)}(?![^\W_])", text[end:stop])]
        given.setdefault(left, set()).update(found[:1])
    parts = [Part(l, r, "|".join(sorted(given[normalise(l, spec)])) or None if normalise(l, spec) in given else None,
                  given.get(normalise(l, spec)) == {normalise(r, spec)}) for l, r in expected]
    read = "; ".join(f"{l} → {'|'.join(sorted(r)) or '?'}" for l, r in given.items())
    return _scored(read, f"matching:{len(expected)} named pairs", parts)


def _match_pairs(answer: str, key: str, spec: MatchSpec) -> StructuredResult:
    expected = parse_pairs(key.translate(_GREEK_TO_LATIN))
    if not expected:
        named = parse_text_pairs(key)
        if named:
            return _match_text_pairs(answer, named, spec)
        raise KeyFormatError(f"matching key {key!r}: no pairs like 'A-1, B-3' or 'item – item' lines")
    lefts, rights = {l for l, _ in expected}, {r for _, r in expected}
    # Greek option letters stand for the Latin ones in the same position (α-a, β-b), as models mix them.
    text = normalise(answer, replace(spec, fold_accents=False)).translate(_GREEK_TO_LATIN)
    alt = lambda labels: "|".join(re.escape(x) for x in sorted(labels, key=len, reverse=True))  # noqa: E731
    # A right label the key does not use is still read (and scored wrong): "A-2" for key "A-1".
    shape = r"|\d{1,3}" if all(r.isdigit() for r in rights) else r"|[^\W\d_]" if all(len(r) == 1 for r in rights) else ""
    right_re = alt(rights) + shape
    forward = re.compile(rf"(?<![^\W_])({alt(lefts)})(?:{_ARROW}|\s*)({right_re})(?![^\W_])")
    given: dict[str, set[str]] = {}
    for m in forward.finditer(text):
        given.setdefault(m.group(1), set()).add(m.group(2))
    if not given and not lefts & rights:  # written the other way round: "1-A, 3-B"
        backward = re.compile(rf"(?<![^\W_])({alt(rights)})(?:{_ARROW}|\s*)({alt(lefts)})(?![^\W_])")
        for m in backward.finditer(text):
            given.setdefault(m.group(2), set()).add(m.group(1))
    if not given:
        return _unparseable(text, "matching", f"no pairs of {sorted(lefts)} with {sorted(rights)} in {text!r}")
    parts = []
    for left, right in sorted(expected):
        chosen = given.get(left)
        # A label paired twice is no answer for that pair: it scores wrong, never right by luck.
        shown = None if not chosen else "|".join(sorted(chosen))
        parts.append(Part(left, right, shown, chosen == {right}))
    read = ", ".join(f"{l}-{'|'.join(sorted(r))}" for l, r in sorted(given.items()))
    return _scored(read, f"matching:{len(expected)} pairs", parts)


# --------------------------------------------------------------------------- fill-in-the-gaps

_BLANK_NUMBER = re.compile(r"(?:^|(?<=[\s,;]))(?:\((\d{1,2})\)|\[(\d{1,2})\]|(\d{1,2})[.)](?=\s|$))\s*")


def _numbered(text: str) -> dict[int, str] | None:
    marks = list(_BLANK_NUMBER.finditer(text))
    if not marks or marks[0].start() > 0:
        return None
    blanks = {}
    for mark, following in zip(marks, marks[1:] + [None]):
        number = int(next(g for g in mark.groups() if g))
        blanks[number] = text[mark.end(): following.start() if following else len(text)].strip(" ,;\n")
    return blanks


def _blanks(text: str, *, is_key: bool, count: int | None = None) -> list[str] | dict[int, str] | None:
    numbered = _numbered(text)
    if numbered:
        return numbered
    for separator in (r"\n", ";", r"\|") + (() if is_key else (",",)):
        pieces = [p.strip() for p in re.split(separator, text) if p.strip()]
        if len(pieces) > 1 and (count is None or len(pieces) == count):
            return pieces
    return [text.strip()] if count in (None, 1) else None


def _match_fill_in(answer: str, key: str, spec: MatchSpec) -> StructuredResult:
    key_blanks = _blanks(key, is_key=True)
    if isinstance(key_blanks, list):
        key_blanks = dict(enumerate(key_blanks, 1))
    text = answer.strip()
    given = _blanks(text, is_key=False, count=len(key_blanks))
    if given is None:
        return _unparseable(normalise(text, spec), "fill_in", f"{len(key_blanks)} blanks expected; cannot split {text!r} into them")
    if isinstance(given, list):
        given = dict(enumerate(given, 1))
    parts = []
    for number, expected in sorted(key_blanks.items()):
        alternatives = [a for a in key_alternatives(expected, spec)]
        value = given.get(number)
        shown = normalise(value, spec) if value is not None else None
        parts.append(Part(str(number), " / ".join(alternatives), shown, shown in alternatives))
    read = "; ".join(f"{p.name}. {p.given}" for p in parts if p.given is not None)
    return _scored(read, f"fill_in:{len(parts)} blanks", parts)


# --------------------------------------------------------------------------- true/false blocks


def _truth_values(text: str, language: str) -> tuple[list[bool] | dict[int, bool] | None, str]:
    """Statement values in order ("P F P F", "PFPF", "Prawda, Fałsz") or by number ("1. P 2. F")."""
    words = TRUE_FALSE_WORDS.get(language, TRUE_FALSE_WORDS["en"])
    # Folded like the text (Greek final sigma: "λάθος" folds to "λάθοσ"; Turkish "YANLIŞ" is "yanlış": `caseless`).
    value_of = {caseless(w): v for v, ws in words.items() for w in ws}
    if language != "en":  # English words are common in any language's replies ("True")
        value_of.update({w: v for v, ws in TRUE_FALSE_WORDS["en"].items() for w in ws if w not in value_of})
    text = caseless(text)
    word_re = "|".join(re.escape(w) for w in sorted(value_of, key=len, reverse=True))
    numbered = list(re.finditer(rf"(?<!\w)(\d{{1,2}})\s*[.):\-–]?\s*({word_re})(?!\w)", text))
    if numbered:
        values = {int(m.group(1)): value_of[m.group(2)] for m in numbered}
        return values, " ".join(f"{n}.{'T' if v else 'F'}" for n, v in sorted(values.items()))
    tokens = [t for t in re.split(r"[\s,;/|\-–]+", text) if t]
    singles = {w for w in value_of if len(w) == 1}
    if len(tokens) == 1 and len(tokens[0]) > 1 and set(tokens[0]) <= singles:
        tokens = list(tokens[0])  # "PFPF"
    if tokens and all(t in value_of for t in tokens):
        values = [value_of[t] for t in tokens]
        return values, " ".join("T" if v else "F" for v in values)
    return None, text


def _match_true_false(answer: str, key: str, spec: MatchSpec) -> StructuredResult:
    expected, _ = _truth_values(normalise(key, spec), spec.language)
    if expected is None:
        raise KeyFormatError(f"true/false key {key!r}: not a sequence of {spec.language} true/false words")
    if isinstance(expected, list):
        expected = dict(enumerate(expected, 1))
    given, read = _truth_values(normalise(answer, replace(spec, fold_accents=False)), spec.language)
    if given is None:
        return _unparseable(read, "true_false", f"not a sequence of true/false words: {read!r}")
    if isinstance(given, list):
        if len(given) != len(expected):
            return _unparseable(read, "true_false", f"{len(given)} values for {len(expected)} statements")
        given = dict(enumerate(given, 1))
    if not set(given) <= set(expected):
        return _unparseable(read, "true_false", f"statement numbers {sorted(set(given) - set(expected))} are not in the key")
    parts = [Part(str(n), "T" if v else "F", None if n not in given else ("T" if given[n] else "F"), given.get(n) == v)
             for n, v in sorted(expected.items())]
    return _scored(read, f"true_false:{len(parts)} statements", parts)


# --------------------------------------------------------------------------- entry points

_TYPE_KINDS = {"short_answer": "text", "fill_in": "fill_in", "matching": "matching", "true_false": "true_false"}


def spec_for(question_type: str, key: str, language: str, **settings) -> MatchSpec:
    """The spec a question type implies; a short answer whose every alternative is a number is
    matched as a number. `settings` (fold_accents, fractions, tolerance, ...) come from the exam's spec."""
    kind = settings.pop("kind", None) or _TYPE_KINDS.get(question_type)
    if kind is None:
        raise ValueError(f"question type {question_type!r} has no structured-answer rule (open answers go to eval.scorers.judge)")
    spec = MatchSpec(kind=kind, language=language, **settings)
    if kind == "text":
        alternatives = key_alternatives(key, spec)
        if all(parse_number(a, replace(spec, fractions=True)) is not None for a in alternatives):
            spec = replace(spec, kind="number")
    return spec


def match_answer(answer: str | None, key: str, spec: MatchSpec) -> StructuredResult:
    """Read `answer` (a model's raw reply) by `spec`'s rule and score it against `key`."""
    multiline = spec.kind in ("matching", "fill_in", "true_false")
    span = answer_span(answer or "", spec.language, multiline=multiline)
    if not span.strip():
        return _unparseable("", spec.kind, "empty answer")
    if spec.kind == "matching":
        return _match_pairs(span, key, spec)
    if spec.kind == "fill_in":
        return _match_fill_in(span, key, spec)
    if spec.kind == "true_false":
        return _match_true_false(span, key, spec)
    alternatives = key_alternatives(key, spec)
    if spec.kind == "number":
        return _match_number(span, alternatives, spec)
    return _match_text(span, alternatives, spec)


__all__ = ["KeyFormatError", "MatchSpec", "Outcome", "Part", "StructuredResult", "answer_span", "key_alternatives",
           "match_answer", "normalise", "parse_number", "parse_pairs", "spec_for", "strip_markdown"]
