"""Latin units and formulas on a page of another script: what a unit expression is, and a page word's Latin reading.

Greek and Russian exams print SI and clinical units and chemical formulas in Latin letters (`120 mg/dL`, `60 km/h`,
`pH 7,4`, `CO₂`); the page's own model reads them as its script's look-alikes (`рН`, `ΝΟ2`, `Кт/В`, `тод/Т`), words
no dictionary knows. Which symbols, prefixes and elements a unit or a formula is written with is script data
(`pipeline/languages/scripts.yaml`: `unit_symbols`, `unit_prefixes`, `element_symbols`), as are the letters of a
script printed in the very shape of a Latin one (`lookalikes`); this module only puts them together:

- one capital and digits (`Α1`, `В2`) is a question's or a cell's number, never a unit expression;
- a unit expression is terms joined by `/` or `·`, each term a symbol, a prefix and a symbol (`mg`, `kPa`) or a
  formula of elements (`CO2`, `H2O`), with an exponent after it (`m2`, `s-2`, `L-1`); a formula holds a count (`PH`,
  `OOH` are capitals of words as often);
- a page word's Latin look-alike spelling (`latin_lookalike`): each letter of the page's script mapped to the Latin
  letter of its shape, where every letter has one (`рН` → `pH`, `СО2` → `CO2`); a word with a letter of no such shape
  (`м`, `т`: shaped as no Latin letter) has none, and the companion model's reading decides (`companionwords`).
"""
from __future__ import annotations

import re
from functools import lru_cache

from pipeline.languages import script_data

_TERM = re.compile(r"(?P<body>[^\W\d_]+(?:\d+[^\W\d_]+)*\d*?)(?P<exponent>-?\d+)?")
_JOINS = re.compile(r"[/·]")
EDGE_MARKS = ".,;:!?()[]«»\"'|"  # what may stand around a unit in a line; `|` and `!` are a crop edge read as a stroke


@lru_cache(maxsize=8)
def _vocabulary(script: str) -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    data = script_data(script)
    elements = tuple(sorted(data.element_symbols, key=len, reverse=True))
    return frozenset(data.unit_symbols), frozenset(data.unit_prefixes), elements


def _symbol(body: str, symbols: frozenset[str], prefixes: frozenset[str]) -> bool:
    return body in symbols or (len(body) > 1 and body[0] in prefixes and body[1:] in symbols)


def _formula(text: str, elements: tuple[str, ...]) -> bool:
    """`text` written as chemical elements each with an optional count, holding a count (`CO2`; `PH`, `OOH` are
    capitals of words as often as formulas)."""
    at, found = 0, 0
    while at < len(text):
        element = next((e for e in elements if text.startswith(e, at)), None)
        if element is None:
            return False
        at += len(element)
        found += 1
        while at < len(text) and text[at].isdigit():
            at += 1
    return found >= 1 and any(ch.isdigit() for ch in text)


def is_formula(text: str, script: str = "Latin") -> bool:
    """Whether `text` is a chemical formula of `script`'s elements holding a count (`O2`, `CO2`, `NaHCO3`)."""
    return _formula(text, _vocabulary(script)[2])


def is_unit_expression(text: str, script: str = "Latin") -> bool:
    """Whether `text` (no marks around it) is a unit or a formula written in `script` (module docstring)."""
    symbols, prefixes, elements = _vocabulary(script)
    if not text or not symbols or is_numbered_capital(text):
        return False
    for term in _JOINS.split(text):
        if _formula(term, elements):
            continue
        match = _TERM.fullmatch(term)
        if match is None or not _symbol(match["body"], symbols, prefixes):
            return False
    return True


def is_numbered_capital(text: str) -> bool:
    """One capital and digits (`A1`, `Β12`, `С2`): how exams number questions, parts and cells (Greek `Α1`, Russian
    `А1`, `В5`, `С1`), never how they write a unit (no unit takes the power 1, and a capital unit with a power is
    `A2` as often as a cell's name); a formula of one element (`O2`, `H2`) is lost to this as well, and stays as read."""
    return len(text) > 1 and text[0].isupper() and text[1:].isdigit()


def latin_lookalike(text: str, script: str) -> str | None:
    """`text` with each letter of `script` written as the Latin letter of its shape (`рН` → `pH`); None where a letter of
    it has no Latin look-alike or the text holds no letter of `script`."""
    shapes = script_data(script).lookalikes
    out, mapped = [], False
    for ch in text:
        if ch in shapes:
            out.append(shapes[ch])
            mapped = True
        elif ch.isalpha() and not ch.isascii():
            return None
        else:
            out.append(ch)
    return "".join(out) if mapped else None


def unit_core(text: str) -> tuple[str, str, str]:
    """`text` split into the marks before its unit, the unit, and the marks after (`(mg/dL),` → `(`, `mg/dL`, `),`); a
    raised mark the page's model read for a superscript (`cm?`) stays with the marks after."""
    start, end = 0, len(text)
    while start < end and text[start] in EDGE_MARKS:
        start += 1
    while end > start and (text[end - 1] in EDGE_MARKS or text[end - 1] in "*°"):
        end -= 1
    return text[:start], text[start:end], text[end:]
