"""Arithmetic, relations and units in generated questions: the glyphs a recogniser reads as letters or digits.

`pipeline.devkit.ocrcertainty`'s `symbols` and `symbols-held-out` families print, among their language's words,
what science and mathematics exams print: a product (`3 × 4`), a quotient (`12 ÷ 4`), a relation (`x ≤ 7`,
`9 ≥ 2`), a temperature or an angle (`25 °C`, `45°`), an area or a volume (`12 m²`, `3 cm³`), a power (`5²`), a
micro unit (`40 µg`), an arrow between states (`2 → 5`), a negative number (`−8`) and a share (`15 %`). Each is
typed as a careful typesetter would (the signs themselves, never a letter `x` for `×` or `o` for `°`), so every
letter or digit a scan reads in their place is a misreading the flag should name.

Half the questions (`SHARE`) are of this kind, the others words alone, so a flag on every question is no catch.
Such a question's stem carries one or two expressions among its words; options are such an expression (often), words with one, or
words alone, so an option that is a number and a unit (`25 °C`, `12 m²`) is read as its own short line.
"""
from __future__ import annotations

import random
from collections.abc import Callable

SHARE = 0.5  # of a family's questions, those that print expressions

# Each: the printed expression from a random source. Numbers of one to three digits, as exams print them.
_Expression = Callable[[random.Random], str]
Kinds = tuple[tuple[str, _Expression], ...]  # (name, what prints one)


def _n(rng: random.Random, low: int = 2, high: int = 99) -> int:
    return rng.randint(low, high)


EXPRESSIONS: Kinds = (
    ("product", lambda r: f"{_n(r)} × {_n(r)}"),
    ("product =", lambda r: f"{_n(r, 2, 12)} × {_n(r, 2, 12)} = {_n(r, 4, 144)}"),
    ("quotient", lambda r: f"{_n(r, 10, 999)} ÷ {_n(r, 2, 12)}"),
    ("at most", lambda r: f"x ≤ {_n(r)}"),
    ("at least", lambda r: f"{_n(r)} ≥ {_n(r)}"),
    ("temperature", lambda r: f"{_n(r, 5, 120)} °C"),
    ("angle", lambda r: f"{_n(r, 10, 180)}°"),
    ("area", lambda r: f"{_n(r)} m²"),
    ("volume", lambda r: f"{_n(r)} cm³"),
    ("power", lambda r: f"{_n(r, 2, 20)}²"),
    ("micro", lambda r: f"{_n(r, 1, 500)} µg"),
    ("arrow", lambda r: f"{_n(r)} → {_n(r)}"),
    ("negative", lambda r: f"−{_n(r)}"),
    ("share", lambda r: f"{_n(r)} %"),
)


def expression(rng: random.Random, kinds: Kinds | None = None) -> str:
    """One printed expression, of any kind of `kinds` (`EXPRESSIONS` unless given: `clinicalsheets` gives its own)."""
    return rng.choice(kinds or EXPRESSIONS)[1](rng)


def with_expressions(rng: random.Random, words: str, count: int, kinds: Kinds | None = None) -> str:
    """`words` with `count` expressions (of `kinds`) put between its words."""
    tokens = words.split()
    for _ in range(count):
        tokens.insert(rng.randrange(len(tokens) + 1), expression(rng, kinds))
    return " ".join(tokens)


def stem(rng: random.Random, words: str) -> str:
    """A stem's words with one or two expressions among them."""
    return with_expressions(rng, words, rng.randint(1, 2))


def option(rng: random.Random, words: str, kinds: Kinds | None = None) -> str:
    """An option: an expression alone (half the time), `words` with one (a quarter), or `words` alone."""
    draw = rng.random()
    if draw < 0.5:
        return expression(rng, kinds)
    return with_expressions(rng, words, 1, kinds) if draw < 0.75 else words
