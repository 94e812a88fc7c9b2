"""A spec pattern that opens with a literal is searched only in a text that holds it (`literal_gate`):
the answers are the `regex` module's own, for every pattern of every shipped spec and for the syntax
where a literal reading could go wrong (quantified last letters, alternation, case folding, fuzzy
matching, POSIX classes, multi-line anchors)."""
from __future__ import annotations

import random

import pytest
import regex

from pipeline.patterns import SpecPattern, literal_gate, pattern_fields, spec_pattern
from pipeline.specs import available_specs, load_spec


def plain(pattern: str):
    return regex.compile(pattern, regex.VERSION0)


def answers(found) -> object:
    return None if found is None else (found.span(), found.groups(), found.groupdict())


def same_answers(pattern: str, texts: list[str]) -> None:
    bounded, raw = SpecPattern(pattern), plain(pattern)
    for text in texts:
        assert answers(bounded.search(text)) == answers(raw.search(text)), (pattern, text)
        assert answers(bounded.match(text)) == answers(raw.match(text)), (pattern, text)
        assert answers(bounded.fullmatch(text)) == answers(raw.fullmatch(text)), (pattern, text)
        assert answers(bounded.search_within(text, 2.0)) == answers(raw.search(text)), (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "gate"),
    [
        (r"^Questão\s+(?P<number>\d{1,3})\s*$", (True, "Questão")),
        (r"\AZadanie\s+\d", (True, "Zadanie")),
        ("TABELA DE CORRESPOND", (False, "TABELA DE CORRESPOND")),
        ("ab+c", (False, "a")),  # a quantifier takes the letter before it out of the literal
        ("abc{2}", (False, "ab")),
        ("abc{e<=1}", (False, "ab")),  # regex's fuzzy match: the last letter may be misread
        (r"^abc|xyz", None),  # either side
        ("(?i)^preguntas", None),  # case folded
        ("(?m)^abc", None),
        (r"^(?!.*\.{4})Zadanie", None),
        ("[[:alpha:]]x", None),
        (r"\d+\. ", None),
        ("(?r)abc", None),  # searched backwards
    ],
)
def test_the_gate_is_the_literal_every_match_starts_with(pattern: str, gate) -> None:
    assert literal_gate(pattern, plain(pattern)) == gate


def test_answers_are_the_regex_modules_where_a_literal_reading_could_go_wrong() -> None:
    texts = ["", "abc", "xabc", "abd", "xxabdxx", "ABC", "xyz", "a\nabc", "x\nabc\n", "abbc", "ac", "abcc", "Zadanie 3",
             "preguntas", "PREGUNTAS de reserva", " Questão 12", "Questão 12", "Questão 12 ", "Questão\t7"]
    for pattern in ["^abc", "abc", r"\Aabc", "ab+c", "ab*c", "ab?c", "abc{2}", "abc{e<=1}", "^abc|xyz", "(?i)^abc", "(?m)^abc",
                    "^abc$", "a b", r"^Questão\s+(?P<number>\d{1,3})\s*$", "(?i)^preguntas de reserva", "[[:alpha:]]b"]:
        same_answers(pattern, texts)
    assert SpecPattern("abc{e<=1}").search("xxabdxx") is not None  # a fuzzy match is not ruled out by the gate


def _shipped_patterns() -> list[str]:
    found = {pattern for name in available_specs() for _, pattern in pattern_fields(load_spec(name))}
    return sorted(found)


def test_every_shipped_spec_pattern_answers_as_regex_does_on_texts_near_its_literal() -> None:
    """Texts made of each gated pattern's own literal, cut, shifted, and in the middle of other text,
    and lines from the other patterns' literals: wherever the gate answers None, regex does too, and
    where it lets the search run the answer is regex's."""
    patterns = _shipped_patterns()
    gated = [p for p in patterns if literal_gate(p, plain(p)) is not None]
    assert len(gated) >= 5, "the shipped specs' header and stop rules open with literals"
    rng = random.Random(31)
    prefixes = [literal_gate(p, plain(p))[1] for p in gated]  # type: ignore[index]
    for pattern in patterns:
        texts = []
        for prefix in rng.sample(prefixes, min(8, len(prefixes))):
            tail = rng.choice(["", " 12", " 3. Tekst", "\t7 ", ".", " A) b", "s 4 z 12", "\n2"])
            texts += [prefix + tail, " " + prefix + tail, prefix[:-1] + tail, "x" + prefix, prefix.upper(), prefix.lower() + tail]
        same_answers(pattern, texts)


def test_a_gated_pattern_is_the_cached_spec_pattern() -> None:
    assert spec_pattern("^Zadanie\\s+(?P<number>\\d{1,2})")._gate == (True, "Zadanie")
