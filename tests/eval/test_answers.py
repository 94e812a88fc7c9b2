"""letter-v1: the answer-extraction rule, aware of each language's answer word."""
from __future__ import annotations

import pytest

from eval.scorers.answers import Status, classify_generation, get_rule

RULE = get_rule("letter-v1")
LATIN = ["A", "B", "C", "D"]
GREEK = ["α", "β", "γ", "δ"]


@pytest.mark.parametrize("text, language, expected", [
    ("Rozważmy opcje.\nOdpowiedź: C", "pl", "C"),
    ("**Odpowiedź:** (b)", "pl", "B"),
    ("Η σωστή είναι η δεύτερη.\nΑπάντηση: Β", "el", "B"),
    ("Odpoveď: D", "sk", "D"),
    ("Respuesta: a) El corazón", "es", "A"),
    ("Answer: A. Wait, no. Answer: D", "en", "D"),
    ("Odpowiedź: A", "en", None),  # another language's word is not this language's rule
    ("Final answer: \\boxed{C}", "en", "C"),
    ("B", "pl", "B"),
    ("(c)", "pl", "C"),
    ("B) opcja druga", "pl", "B"),
    ("Myślę, że to druga.\n**B**", "pl", "B"),
    ("A is wrong and C is wrong", "en", None),
    ("Zadanie A albo B", "pl", None),
    ("", "pl", None),
    ("選択肢を検討します。\n正解: C", "ja", "C"),
    ("正解は B です。", "ja", "B"),
    ("答案：D", "zh", "D"),
    ("所以答案是 A。", "zh", "A"),
])
def test_letter_rule_finds_the_stated_label(text, language, expected):
    assert RULE.extract(text, LATIN, language).label == expected


def test_greek_labels_accept_the_latin_letter_in_the_same_position_and_back():
    assert RULE.extract("Απάντηση: γ", GREEK, "el").label == "γ"
    assert RULE.extract("Answer: C", GREEK, "el").label == "γ"
    assert RULE.extract("Απάντηση: β", LATIN, "el").label == "B"


@pytest.mark.parametrize("text, finish, status", [
    ("Odpowiedź: B", "stop", Status.CORRECT),
    ("Odpowiedź: C", "stop", Status.WRONG),
    ("Odpowiedź: B", "length", Status.TRUNCATED),  # the model never finished, whatever it wrote so far
    (None, "refusal", Status.REFUSAL),
    ("", "content_filter", Status.REFUSAL),
    ("Nie mogę pomóc w tym zadaniu.", "stop", Status.REFUSAL),
    ("Trudno powiedzieć.", "stop", Status.EXTRACTION_FAILURE),
    (None, "stop", Status.EXTRACTION_FAILURE),
])
def test_each_response_gets_exactly_one_status(text, finish, status):
    got, _ = classify_generation(text=text, finish_reason=finish, labels=LATIN, answer="B", language="pl", rule=RULE)
    assert got is status


def test_unknown_rule_is_an_error_naming_the_known_ones():
    with pytest.raises(ValueError, match="letter-v1"):
        get_rule("letter-v9")
