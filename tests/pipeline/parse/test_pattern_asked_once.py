"""A block's option splitting finds its option pattern's kept answers without hashing the pattern at every line.

Parse keeps the label each line opens with (`opening_label`) per text, labels and option pattern. CPython does not
keep a compiled pattern's hash: each hash reads the pattern's whole program, so a cache keyed by the pattern paid that
at every line asked. A loop now takes the pattern's answers once (`label_opener`) and asks them by text alone:
splitting a block's options hashes its pattern a few times, however many lines the block has, and every answer is the
one asked line by line.
"""
from __future__ import annotations

import random
import re

from pipeline.extract import Line
from pipeline.parse.labels import label_opener, opening_label, option_start_regex
from pipeline.parse.options import find_options
from pipeline.parse.stream import StreamLine

LABELS = ["A", "B", "C", "D"]
WORDS = ["Zadanie", "tekst", "odpowiedź", "3.l", "(I pkt)", "oraz", "B)", "12.", "**mocno**", "Ola", "ΑΙ.", "—"]


class CountedPattern:
    """A compiled pattern that counts how often it is hashed; everything else is the pattern's own."""

    def __init__(self, pattern: re.Pattern) -> None:
        self.pattern_itself = pattern
        self.hashes = 0

    def __hash__(self) -> int:
        self.hashes += 1
        return hash(self.pattern_itself)

    def __eq__(self, other: object) -> bool:
        return other is self

    def __getattr__(self, name: str):
        return getattr(self.pattern_itself, name)


def test_splitting_a_blocks_options_hashes_its_option_pattern_a_few_times_not_once_a_line():
    option_re = option_start_regex(LABELS, ["A)"])
    block = [StreamLine(1, Line(text="Które zdanie jest prawdziwe?", x0=56.0, top=100.0, x1=300.0, bottom=112.0))]
    for row in range(60):  # a long block: a stem of many lines, then the options
        top = 114.0 + 14.0 * row
        block.append(StreamLine(1, Line(text=f"wiersz {row} tekstu", x0=56.0, top=top, x1=300.0, bottom=top + 12.0)))
    for at, label in enumerate(LABELS):
        top = 1000.0 + 14.0 * at
        block.append(StreamLine(1, Line(text=f"{label}) odpowiedź {label}", x0=56.0, top=top, x1=300.0, bottom=top + 12.0)))
    counted = CountedPattern(option_re)
    found = find_options(block, LABELS, counted)  # type: ignore[arg-type]
    assert counted.hashes <= 12, f"{counted.hashes} hashes for {len(block)} lines"
    assert [o.label for o in found.options] == LABELS
    assert [o.parts for o in found.options] == [[f"odpowiedź {label}"] for label in LABELS]
    assert len(found.stem) == 61


def test_an_opener_answers_as_opening_label_does():
    rng = random.Random(4)
    for styles in (["A)"], ["A."], ["(A)"], ["A)", "A."]):
        option_re = option_start_regex(LABELS, styles)
        opener = label_opener(LABELS, option_re)
        for _ in range(300):
            text = " ".join(rng.choice(WORDS + ["A)", "b.", "(C)", "D.", "Ａ）", "a)"]) for _ in range(rng.randint(1, 4)))
            assert opener(text) == opening_label(text, LABELS, option_re)
            assert opener(text) == opening_label(text, tuple(LABELS), option_re)
