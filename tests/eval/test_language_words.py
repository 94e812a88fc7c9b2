"""Eval reads every language's words from its language file: a language with prompt words is asked,
answered and scored in its own words; adding one changes no published prompt."""
from __future__ import annotations

import dataclasses
import json

import pytest

from eval import protocols
from eval.answers import Status, classify_generation, get_rule
from eval.protocols import LANGUAGES, PROTOCOLS, PromptBuilder, check_frozen, get_protocol, is_scorable, prompt_sha256
from eval.structured import match_answer, spec_for
from pipeline.languages import all_languages
from tests.eval.conftest import make_question, run_standin

WITH_PROMPTS = sorted(code for code, lang in all_languages().items() if lang.prompt is not None)


def test_every_language_file_with_prompt_words_is_an_eval_language_and_portuguese_is_one():
    assert sorted(LANGUAGES) == WITH_PROMPTS
    assert {"pl", "el", "sk", "es", "pt", "en", "ko", "vi", "tr"} <= set(WITH_PROMPTS)


@pytest.mark.parametrize("language", WITH_PROMPTS)
def test_each_language_is_asked_in_its_words_and_its_own_answer_line_is_read_back(language):
    words = all_languages()[language].prompt
    q = make_question(3, language=language)
    assert is_scorable(q) is None
    prompt = PromptBuilder(get_protocol("mcq")).build(q, "cfg", [])
    assert prompt.context.startswith(words.instruction) and prompt.context.endswith(f"\n\n{words.answer}:")
    assert prompt.messages[0]["content"].endswith(words.finish_with)
    # A model that follows the prompt's closing line is scored, never an extraction failure.
    reply = f"…\n{words.answer}: {q.answer}"
    status, extraction = classify_generation(text=reply, finish_reason="stop", labels=q.choice_labels, answer=q.answer,
                                             language=language, rule=get_rule("letter-v1"))
    assert (status, extraction.method) == (Status.CORRECT, "answer_word")


@pytest.mark.parametrize("language, reply", [
    ("vi", "Tôi không thể trả lời câu hỏi này."), ("tr", "Üzgünüm, bu soruya cevap veremem."),
    ("ko", "죄송하지만 이 질문에는 답변할 수 없습니다."), ("pt", "Não posso responder a isso."),
])
def test_a_refusal_in_the_questions_language_is_a_refusal(language, reply):
    q = make_question(1, language=language)
    status, _ = classify_generation(text=reply, finish_reason="stop", labels=q.choice_labels, answer=q.answer,
                                    language=language, rule=get_rule("letter-v1"))
    assert status is Status.REFUSAL


@pytest.mark.parametrize("language, key, reply", [
    ("ko", "O X O", "1. O 2. X 3. O"), ("vi", "Đúng Sai Đúng", "đúng, sai, đúng"), ("tr", "D Y D", "Doğru Yanlış Doğru"),
])
def test_true_false_blocks_are_read_in_the_languages_words(language, key, reply):
    spec = spec_for("true_false", key, language)
    assert match_answer(reply, key, spec).score == 1.0


def test_adding_languages_changes_no_published_prompt_hash():
    for protocol in PROTOCOLS.values():
        assert prompt_sha256(protocol) == protocols.FROZEN_PROMPT_SHA256[protocol.key]
        assert set(protocols.FROZEN_LANGUAGE_PROMPT_SHA256[protocol.key]) == set(LANGUAGES) - set(protocols.PUBLISHED_LANGUAGES[protocol.key])
        check_frozen(protocol)


def test_a_changed_word_of_a_language_added_later_is_refused(monkeypatch):
    monkeypatch.setitem(protocols.LANGUAGES, "pt", dataclasses.replace(protocols.LANGUAGES["pt"], question="Pergunta"))
    with pytest.raises(ValueError, match="its pt prompt text changed since it was frozen.*new version"):
        check_frozen(PROTOCOLS["mcq"])


def test_a_language_given_prompt_words_without_a_frozen_hash_is_refused_with_the_hash_to_freeze(monkeypatch):
    monkeypatch.setitem(protocols.LANGUAGES, "xx", protocols.LANGUAGES["en"])
    digest = prompt_sha256(PROTOCOLS["mcq"], ["xx"])
    with pytest.raises(ValueError, match=f"language xx has prompt words but no frozen prompt hash; add {digest}"):
        check_frozen(PROTOCOLS["mcq"])


@pytest.fixture
def questions():
    return [make_question(i, language="pt", source="br_test") for i in range(1, 9)]


def test_portuguese_questions_are_evaluated_end_to_end_and_the_run_records_their_frozen_prompt(tmp_path, curated, openai_server, standin_key):
    out = tmp_path / "run"
    assert run_standin(curated, openai_server, out) == 0
    assert all("“Resposta: X”" in r["body"]["messages"][0]["content"] for r in openai_server.requests)
    plan = json.loads((out / "plan.json").read_text())
    assert plan["questions"] == 8 and not plan["skipped"]
    assert plan["protocol"]["prompt_sha256"] == protocols.FROZEN_PROMPT_SHA256["mcq@1"]
    assert plan["protocol"]["language_prompt_sha256"] == {"pt": protocols.FROZEN_LANGUAGE_PROMPT_SHA256["mcq@1"]["pt"]}
    groups = json.loads((out / "scores.json").read_text())["groups"]
    assert [(g["language"], g["n_questions"], g["counts"]["correct"]) for g in groups] == [("pt", 8, 8)]
