"""A stream's loops find a pattern's kept answers without hashing the pattern at every line.

Parse keeps the answers of its numbering pattern (`match_number_line`) and of a block's option labels (`opening_label`)
per pattern and text. CPython does not keep a compiled pattern's hash: each hash reads the pattern's whole program,
so a cache keyed by the pattern paid that at every line asked. A loop now takes the pattern's answers once
(`number_line_matcher`, `label_opener`) and asks them by text alone: numbering a stream or splitting a block's options
hashes each pattern a few times, however many lines there are, and every answer is the one asked line by line.
"""
from __future__ import annotations

import random
import re

from pipeline.extract import Line
from pipeline.parse.blocks import _join_split_headers, number_runs
from pipeline.parse.labels import label_opener, opening_label, option_start_regex
from pipeline.parse.options import find_options
from pipeline.parse.stream import StreamLine, match_number_line, match_text_as, number_line_matcher

HEADER = r"^(?P<number>\d{1,3})[.)]\s+(?P<text>.*)$"
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


def _stream(seed: int, count: int) -> list[StreamLine]:
    """Lines of a sheet: headers ("7. …", glued or spaced apart), option lines, OCR'd lines whose digits fold."""
    rng = random.Random(seed)
    lines, top = [], 60.0
    for number in range(1, count + 1):
        words = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 6)))
        kind = rng.random()
        text = f"{number}. {words}" if kind < 0.3 else f"{rng.choice('ABCD')}) {words}" if kind < 0.6 else words or "x"
        top += 14.0
        lines.append(StreamLine(1 + number // 40, Line(text=text, x0=56.0, top=top, x1=300.0, bottom=top + 12.0),
                                ocr=rng.random() < 0.3, fold_digits=rng.random() < 0.5))
    return lines


def test_numbering_a_stream_hashes_its_pattern_a_few_times_not_once_a_line():
    stream = _stream(seed=1, count=300)
    counted = CountedPattern(re.compile(HEADER))
    runs = number_runs(stream, counted, [])  # type: ignore[arg-type]
    assert counted.hashes <= 2, f"{counted.hashes} hashes for {len(stream)} lines"
    plain = re.compile(HEADER)
    asked_line_by_line = [(item, int(m.group("number"))) for item in stream
                          if (m := match_number_line(plain, item)) and m.group("number").strip().isdecimal()]
    assert [(id(item), n) for item, n in runs[0]] == [(id(item), n) for item, n in asked_line_by_line]


def test_joining_split_headers_hashes_the_pattern_a_few_times_not_once_a_line():
    stream = _stream(seed=2, count=200)
    counted = CountedPattern(re.compile(HEADER))
    _join_split_headers(stream, counted)  # type: ignore[arg-type]
    assert counted.hashes <= 2, f"{counted.hashes} hashes for {len(stream)} lines"


def test_a_matcher_answers_as_match_number_line_does_on_ocrd_and_folded_lines():
    pattern = re.compile(r"^(?:Zadanie\s+)?(?P<number>\d{1,3}(?:\.\d{1,2})?)\.\s+(?P<text>.*)$")
    matcher = number_line_matcher(pattern)
    stream = _stream(seed=3, count=400) + [
        StreamLine(1, Line(text="Zadanie 3.l. Oblicz", x0=0, top=0, x1=1, bottom=1), ocr=True, fold_digits=True),
        StreamLine(1, Line(text="**12.** tekst", x0=0, top=0, x1=1, bottom=1)),
        StreamLine(1, Line(text="4. (0-1) F)", x0=0, top=0, x1=1, bottom=1), ocr=True),
    ]
    for item in stream:
        found, expected = matcher(item), match_number_line(pattern, item)
        assert (found and found.group(0), found and found.span("text")) == (expected and expected.group(0), expected and expected.span("text"))
        joined = match_text_as(pattern, item.text + " dalej", item)
        alone = number_line_matcher(pattern)(StreamLine(item.page, Line(text=item.text + " dalej", x0=0, top=0, x1=1, bottom=1),
                                                        item.ocr, item.fold_digits))
        assert (joined and joined.group(0)) == (alone and alone.group(0))
    # The folded reading is the OCR'd line's own: the same text not OCR'd does not number task 3.1.
    assert matcher(stream[-3]).group("number") == "3.1"
    assert matcher(StreamLine(1, Line(text="Zadanie 3.l. Oblicz", x0=0, top=0, x1=1, bottom=1))) is None


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
