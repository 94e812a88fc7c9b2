"""Structured answers are read by one rule per format and scored against their key; every rule is
named in the result, and an answer no rule can read is `unparseable` (score None), never a silent 0."""
from __future__ import annotations

import pytest

from eval.scorers.structured import (KeyFormatError, MatchSpec, Outcome, answer_span, key_alternatives, match_answer, normalise,
                             parse_number, spec_for)
from tests.fixtures.corpus import CORPUS as CORPUS_ROOT


def score_reply(answer: str, key: str, question_type: str = "short_answer", language: str = "en", **settings):
    return match_answer(answer, key, spec_for(question_type, key, language, **settings))


# --------------------------------------------------------------------------- normalisation


@pytest.mark.parametrize("reply, span", [
    ("**sonet**", "sonet"),
    ("`sonet`", "sonet"),
    ("## Odpowiedź\n\nsonet", "sonet"),
    ("# Sonet", "Sonet"),
    ("Answer: 4.", "4."),
    ("Odpowiedź: **4**\nbo 2 + 2 = 4", "4"),
    ("4, because 2 + 2 = 4", "4"),
    ("4 (because 2 + 2 = 4)", "4"),
    ("4\n\nBecause 2 + 2 = 4.", "4"),
    ("sonet – pretože má štrnásť veršov", "sonet"),
    ("\\boxed{12}", "12"),
    ("First I count.\nThe stanzas are four.\nOdpowiedź: 14", "14"),
])
def test_the_answer_span_drops_markdown_answer_words_and_trailing_explanations(reply, span):
    language = "sk" if "pretože" in reply else "pl"
    assert answer_span(reply, language) == span


def test_normalisation_folds_case_and_edge_punctuation_and_accents_only_when_asked():
    keep = MatchSpec(language="sk")
    fold = MatchSpec(language="sk", fold_accents=True)
    assert normalise("  „Začať.“  ", keep) == "začať"
    assert normalise("  „Začať.“  ", fold) == "zacat"
    assert normalise("Łódź\n  Kaliska", MatchSpec(language="pl", fold_accents=True)) == "lodz kaliska"
    assert normalise("-3.", keep) == "-3"


# --------------------------------------------------------------------------- keys with alternatives


@pytest.mark.parametrize("key, accepted", [
    ("sonet/znelka", ["sonet", "znelka"]),
    ("sonet; znelka", ["sonet", "znelka"]),
    ("interview (Uznať aj: interviu)", ["interview", "interviu"]),
    ("výkladové/k výkladovým (slovníkom)/výkladový (slovník)",
     ["výkladové", "k výkladovým", "k výkladovým slovníkom", "výkladový", "výkladový slovník"]),
    ("2/dve/3/tri (vety)", ["2", "2 vety", "dve", "dve vety", "3", "3 vety", "tri", "tri vety"]),
    ("1/2", ["1/2"]),  # a fraction, not two alternatives
    ("10/desať (ľudí/osôb)", ["10", "10 ľudí", "10 osôb", "desať", "desať ľudí", "desať osôb"]),
    ("(v) materskej škole/materská škola", ["materskej škole", "v materskej škole", "materská škola"]),
    ("dramatickú/logickú (prestávku/pauzu)/ dramatická/logická (prestávka/pauza)",
     ["dramatickú", "dramatickú prestávku", "dramatickú pauzu", "logickú", "logickú prestávku", "logickú pauzu",
      "dramatická", "dramatická prestávka", "dramatická pauza", "logická", "logická prestávka", "logická pauza"]),
])
def test_a_key_lists_every_accepted_answer(key, accepted):
    assert key_alternatives(key, MatchSpec(language="sk")) == accepted


@pytest.mark.parametrize("key", ["", "  ", "—", "*"])
def test_a_key_with_no_answer_is_an_error_not_a_zero(key):
    with pytest.raises(KeyFormatError, match="no answer"):
        key_alternatives(key, MatchSpec())


# --------------------------------------------------------------------------- single words and text


@pytest.mark.parametrize("answer, outcome, rule", [
    ("valasy", Outcome.MATCHED, "text:alternative 2"),
    ("Valasi.", Outcome.MATCHED, "text:alternative 1"),
    ("valasý", Outcome.MISMATCH, "text"),  # the accent is spelling in Slovak: it counts
    ("", Outcome.UNPARSEABLE, "text"),
])
def test_a_short_answer_matches_one_of_the_keyed_alternatives(answer, outcome, rule):
    result = score_reply(answer, "valasi/valasy", language="sk")
    assert (result.outcome, result.rule) == (outcome, rule)
    assert result.score == {Outcome.MATCHED: 1.0, Outcome.MISMATCH: 0.0, Outcome.UNPARSEABLE: None}[outcome]


def test_only_unambiguous_words_start_a_trailing_explanation():
    assert answer_span("as soon as possible", "en") == "as soon as possible"
    assert answer_span("dlatego że", "pl") == "dlatego że"
    assert answer_span("sonet, bo ma 14 wersów", "pl") == "sonet"


def test_accents_are_folded_only_where_the_spec_says_so():
    key = "začať/začal/si začal/začal si"
    assert score_reply("zacat", key, language="sk").outcome is Outcome.MISMATCH
    folded = score_reply("zacat", key, language="sk", fold_accents=True)
    assert (folded.outcome, folded.normalised, folded.rule) == (Outcome.MATCHED, "zacat", "text:alternative 1")


def test_a_word_answer_with_several_words_is_unparseable_not_wrong():
    result = score_reply("sonet alebo znelka", "sonet/znelka", language="sk", kind="word")
    assert result.outcome is Outcome.UNPARSEABLE and result.score is None
    assert result.reason == "3 words where one was asked"
    assert score_reply("**Sonet**", "sonet/znelka", language="sk", kind="word").matched


def test_the_slovak_keys_optional_words_are_accepted_with_and_without():
    key = "výkladové/k výkladovým (slovníkom)/výkladový (slovník)"
    assert score_reply("Výkladový slovník.", key, language="sk").matched
    assert score_reply("k výkladovým", key, language="sk").matched
    assert not score_reply("terminologický slovník", key, language="sk").matched
    assert score_reply("Odpoveď: tri vety", "2/dve/3/tri (vety)", language="sk").matched


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("text, language, value", [
    ("3,5", "pl", "7/2"), ("3.5", "pl", "7/2"), ("1 234,5", "pl", "2469/2"), ("1.234,5", "pl", "2469/2"),
    ("1.500", "pl", "1500"), ("1,500", "en", "1500"), ("1,5", "en", "3/2"), ("1,234.5", "en", "2469/2"),
    ("−3", "en", "-3"), ("12", "el", "12"), ("1/2", "en", None), ("abc", "en", None),
])
def test_numbers_are_read_with_the_languages_decimal_mark(text, language, value):
    parsed = parse_number(text, MatchSpec(kind="number", language=language))
    assert (None if parsed is None else str(parsed)) == value


def test_a_short_answer_keyed_with_numbers_is_matched_as_a_number():
    assert spec_for("short_answer", "3,5", "pl").kind == "number"
    assert spec_for("short_answer", "2/dve", "sk").kind == "text"
    for reply in ("3.5", "Odpowiedź: 3,5 cm", "**3,50**", "3,5, ponieważ 7 : 2 = 3,5"):
        result = score_reply(reply, "3,5", language="pl")
        assert result.matched, (reply, result)
        assert result.normalised in ("3.5", "3,5")


def test_fractions_equal_decimals_only_when_asked():
    assert score_reply("0.5", "1/2").outcome is Outcome.MISMATCH
    assert score_reply("1/2", "0.5").outcome is Outcome.UNPARSEABLE
    assert score_reply("1/2", "1/2").rule == "number:alternative 1 as written"
    assert score_reply("0.5", "1/2", fractions=True).matched
    assert score_reply("1/2", "0,5", language="pl", fractions=True).matched


def test_several_numbers_or_none_are_unparseable():
    assert score_reply("3 or 4", "4").reason == "several different numbers in '3 or 4'"
    assert score_reply("about four", "4").outcome is Outcome.UNPARSEABLE
    assert score_reply("4 and again 4", "4").matched  # the same number twice is one answer
    assert score_reply("4.2", "4", tolerance=0.25).matched
    assert not score_reply("4.3", "4", tolerance=0.25).matched


# --------------------------------------------------------------------------- matching pairs


@pytest.mark.parametrize("reply", ["A-1, B-3, C-2", "A1 B3 C2", "A → 1; B → 3; C → 2", "**C-2**\nA-1\nB-3",
                                   "Answer: a 1, b 3, c 2", "1-A, 3-B, 2-C"])
def test_matching_pairs_are_read_in_any_common_notation_and_order(reply):
    result = score_reply(reply, "A-1, B-3, C-2", "matching")
    assert result.matched and result.score == 1.0, result
    assert result.normalised == "a-1, b-3, c-2"
    assert result.rule == "matching:3 pairs"


def test_each_pair_is_scored_and_the_whole():
    result = score_reply("A-2, B-3", "A-1; B-3; C-2", "matching")
    assert result.outcome is Outcome.PARTIAL
    assert result.score == pytest.approx(1 / 3)
    assert [(p.name, p.expected, p.given, p.correct) for p in result.parts] == [
        ("a", "1", "2", False), ("b", "3", "3", True), ("c", "2", None, False)]


def test_a_label_paired_twice_scores_wrong_for_that_pair():
    result = score_reply("A-1, A-3, B-3", "A-1, B-3", "matching")
    assert [(p.given, p.correct) for p in result.parts] == [("1|3", False), ("3", True)]


def test_matching_without_any_pair_is_unparseable_and_a_bad_key_is_an_error():
    result = score_reply("I am not sure.", "A-1, B-3", "matching")
    assert result.outcome is Outcome.UNPARSEABLE and result.score is None
    with pytest.raises(KeyFormatError, match="no pairs"):
        score_reply("A-1", "see the table in the marking scheme", "matching")


def test_greek_labels_stand_for_latin_ones_in_the_same_position():
    key = "1-β, 2-α, 3-γ"
    assert score_reply("Απάντηση: 1β 2α 3γ", key, "matching", "el").matched
    assert score_reply("1-b, 2-a, 3-c", key, "matching", "el").matched
    result = score_reply("1 → β, 2 → α, 3 → δ", key, "matching", "el")
    assert [(p.given, p.correct) for p in result.parts] == [("b", True), ("a", True), ("d", False)]


def test_named_items_are_paired_line_by_line():
    key = "Przeglądanie stron www – HTTP\nOdbiór poczty elektronicznej – POP3\nTransfer plików – FTP"
    table = ("| Usługa | Protokół |\n|---|---|\n| Przeglądanie stron www | HTTP |\n| Odbiór poczty elektronicznej | SMTP |\n"
             "| Transfer plików | FTP |")
    result = score_reply(table, key, "matching", "pl")
    assert result.rule == "matching:3 named pairs"
    assert [(p.name, p.given, p.correct) for p in result.parts] == [
        ("przeglądanie stron www", "http", True), ("odbiór poczty elektronicznej", None, False), ("transfer plików", "ftp", True)]
    assert score_reply("Transfer plików: FTP; Odbiór poczty elektronicznej: POP3; Przeglądanie stron www: HTTP", key, "matching", "pl").matched
    assert score_reply("Nie wiem.", key, "matching", "pl").outcome is Outcome.UNPARSEABLE


# --------------------------------------------------------------------------- fill-in-the-gaps


def test_numbered_blanks_are_scored_each_and_whole():
    key = "1. mitochondrium/mitochondria 2. ATP 3. glukoza"
    result = score_reply("1. mitochondria\n2. ATP\n3. fruktoza", key, "fill_in", "pl")
    assert result.outcome is Outcome.PARTIAL and result.score == pytest.approx(2 / 3)
    assert [(p.name, p.given, p.correct) for p in result.parts] == [("1", "mitochondria", True), ("2", "atp", True),
                                                                   ("3", "fruktoza", False)]
    assert result.rule == "fill_in:3 blanks"


@pytest.mark.parametrize("reply, score", [("mitochondria; ATP", 1.0), ("mitochondria, ATP", 1.0), ("mitochondria\nglucose", 0.5),
                                          ("(2) ATP (1) mitochondria", 1.0)])
def test_unnumbered_blanks_follow_the_keys_order(reply, score):
    assert score_reply(reply, "mitochondria; ATP", "fill_in").score == score


def test_a_reply_that_cannot_be_split_into_the_blanks_is_unparseable():
    result = score_reply("mitochondria", "mitochondria; ATP", "fill_in")
    assert result.outcome is Outcome.UNPARSEABLE
    assert result.reason == "2 blanks expected; cannot split 'mitochondria' into them"


# --------------------------------------------------------------------------- true/false blocks


@pytest.mark.parametrize("reply, language, key, parts", [
    ("F P P F", "pl", "F P P F", [True, True, True, True]),
    ("PFPF", "pl", "F P P F", [False, False, True, True]),
    ("Prawda, Fałsz, Fałsz, Fałsz", "pl", "P F P F", [True, True, False, True]),
    ("1. P\n2. F\n3. P\n4. F", "pl", "PFPF", [True, True, True, True]),
    ("ΣΛΣ", "el", "Σ Λ Λ", [True, True, False]),
    ("Σωστό, Λάθος", "el", "Σ Λ", [True, True]),
    ("True, False", "pl", "P F", [True, True]),  # English words in a Polish reply
    ("1. T 3. F", "en", "T F F", [True, False, True]),  # a numbered statement left out scores wrong
])
def test_true_false_blocks_are_scored_per_statement(reply, language, key, parts):
    result = score_reply(reply, key, "true_false", language)
    assert [p.correct for p in result.parts] == parts
    assert result.score == pytest.approx(sum(parts) / len(parts))
    assert result.rule == f"true_false:{len(parts)} statements"


def test_true_false_replies_that_do_not_fit_the_block_are_unparseable():
    assert score_reply("True False", "P F P F", "true_false", "pl").reason == "2 values for 4 statements"
    assert score_reply("It depends", "P F", "true_false", "pl").outcome is Outcome.UNPARSEABLE
    assert score_reply("5. P", "P F", "true_false", "pl").reason == "statement numbers [5] are not in the key"
    with pytest.raises(KeyFormatError, match="true/false key"):
        score_reply("P", "maybe", "true_false", "pl")


def test_open_questions_have_no_structured_rule():
    with pytest.raises(ValueError, match="eval.scorers.judge"):
        spec_for("open", "any", "pl")
    with pytest.raises(ValueError, match="unknown structured-answer kind"):
        MatchSpec(kind="essay")


# --------------------------------------------------------------------------- real keys


CORPUS = CORPUS_ROOT / "sk_nucem_maturita_sjl"


@pytest.mark.corpus
@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"real exam corpus not found at {CORPUS}")
def test_every_real_slovak_short_answer_key_accepts_its_own_alternatives(tmp_path):
    """The 2023 NÚCEM key, read by the real pipeline: each alternative it prints, written as a model
    would (bold, with a reason), is accepted, and another question's answer is not."""
    from pipeline.season import RunOptions, run_source
    from pipeline.specs import load_spec

    folder = tmp_path / "sk"
    folder.mkdir()
    for name in ("test_2023.pdf", "kluc_2023.pdf"):
        (folder / name).write_bytes((CORPUS / name).read_bytes())
    result = run_source(load_spec("sk_maturita_sjl"), RunOptions(root=tmp_path, from_dir=folder, executor="inline", show_progress=False))
    keyed = [q for q in result.questions if q.type == "short_answer" and q.answer]
    assert len(keyed) >= 20
    for question in keyed:
        spec = spec_for(question.type, question.answer, question.language)
        alternatives = key_alternatives(question.answer, spec)
        for alternative in alternatives:
            reply = f"**{alternative}**, pretože to vyplýva z ukážky."
            assert match_answer(reply, question.answer, spec).matched, (question.number, question.answer, reply)
    by_number = {q.number: q for q in keyed}
    sonet, literatura = by_number["14"], by_number["07"]
    assert not match_answer("literatúra", sonet.answer, spec_for("short_answer", sonet.answer, "sk")).matched
    assert match_answer("Odpoveď: Znelka", sonet.answer, spec_for("short_answer", sonet.answer, "sk")).matched
    assert match_answer("literatúra", literatura.answer, spec_for("short_answer", literatura.answer, "sk")).matched
