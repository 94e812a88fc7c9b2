"""Eval reads every language's words from its language file: a language with prompt words is asked,
answered and scored in its own words; adding one changes no published prompt."""
from __future__ import annotations

import dataclasses
import json

import pytest

from eval.prompts import protocols
from eval.scorers.answers import Status, classify_generation, get_rule
from eval.prompts.protocols import LANGUAGES, PROTOCOLS, PromptBuilder, check_frozen, get_protocol, is_scorable, prompt_sha256
from eval.scorers.structured import MatchSpec, key_alternatives, match_answer, spec_for
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


# Frozen here, apart from the code: editing a language's prompt words and its hash in eval/prompts/protocols.py
# together still fails this test. Add a line for a newly frozen language; never edit one.
SHIPPED_ADDED_LANGUAGES = {
    "mcq@1": {"pt": "6cc4cb05c3a14112e269fd46810285f519ffd4727af37e89063aa4ed77c30bcf",
              "cs": "b5c25a2495d2c34f8e5b90cd8451aa9ec653bb1489275c2a490ff2f5bc05d180",
              "ko": "0b53f08abb5b49e7c1e1f7e027d0d3fd7d156c2364a2611ccba7d6fabc8a8b9c",
              "tr": "59426bef2cfb341e6ea9d4a3c8d0d0d2e3d5005b00d4ed77ed2c87cfacb5b308",
              "vi": "7ff923df01659588a8e46bc7f21783cdb4550f35983e60fe3d817e703d25b10c",
              "ja": "ad24a762925f044685a977449e88b134b794df89c70278945d9e33a1f21323eb",
              "zh": "1fa9fca46b127312b261224419848cfc52a95921506e007c5c4dd470b4595a0f"},
    "mcq-figure-text@1": {"pt": "5ba4b673c13f2a1e692feac85c0c75c9956cd5af9564b430b053b5b2f26b3b0b",
                          "cs": "e520a9025635a86718390d94a50c508fa897f9c16d7894861cb9518a8628c141",
                          "ko": "dc810107a559116e597a89606bbab7b4fb1c19d3b2e6fb6f12edf9e263f53e63",
                          "tr": "94175600eb9944c13fde082ddf003e6ab8439d3280aeb295fe1222a16212c350",
                          "vi": "6b64baee8bab129ed67706c17d66902d509aec2f6cbe4a46d948653c9b06855d",
                          "ja": "8e9a8fda1a3cff817dba4cafcf14271aa157274d2033b5b956ea834f786a51a2",
                          "zh": "e06c55e3fa87a9eb335472787ea3f78560b4916eb82c7f271f0c1f40a5b3d2a8"},
    "mcq-vision@1": {"pt": "959e0bb77d50ffa321e83e6cd20a511c9a7f890345405d3352d73414828d6782",
                     "cs": "4554bfba867fd81e09a48ad4422dacebfe9abcedb590a8ddf6bc4ff20f36a8a0",
                     "ko": "2d9c25a5073fb39c8b21562e6d86fa939a128146badb35381d4bee6fab272ad3",
                     "tr": "ab3e7f9e801ef52736e755def92200dc367541ad08ca0928e17e32adb6f985c7",
                     "vi": "b3b4c5dbafee2e5fcd8bb123b5e4f58e458868f270f3fb5c50141527347034f4",
                     "ja": "06f647ddfcad1499b37ce638611efc041c23ede4f0a9f114a1ecabcd09caa0d2",
                     "zh": "20aef032d47b65853e15b8374cd3ba3dbb31247eefb1b3586a5d6c9e00282140"},
    "mcq-cloze@1": {"pt": "de788847913821bb6b942290005a57e8e2827d7fa8be5ecb17a06eb4e7a98096",
                    "cs": "849cc62592c498422d7bd0e190473abf489a55fdf2c275390a2515ce6375f23d",
                    "ko": "0cd1f165688abccc350453d363fad78c0dc2c8956392c5ca77143db1e1c364e1",
                    "tr": "8a9e35648dcea64707df61832e445e7f43c30eaf1b08871da17ea556009fef93",
                    "vi": "849e15163f81714308a86e946b3b106adc4bb55d65a8207d0f6079c61eebcfac",
                    "ja": "96d67f4559e64dc0ca8aa1eae1c29dcf4a76081e270fa4dde779fcb31d06841f",
                    "zh": "4878ae00d9baf007a6573ca3e7b3074000dab958ca79be9cad1dc879af9414d0"},
}


@pytest.mark.parametrize("key", sorted(SHIPPED_ADDED_LANGUAGES))
def test_each_language_added_after_publication_has_its_own_frozen_prompt_hash(key):
    protocol = PROTOCOLS[key.split("@")[0]]
    assert protocols.language_prompt_sha256(protocol) == SHIPPED_ADDED_LANGUAGES[key] == protocols.FROZEN_LANGUAGE_PROMPT_SHA256[key]


def test_an_accept_also_note_in_any_language_files_words_adds_an_answer():
    assert key_alternatives("Praha (uznat také: hlavní město)", MatchSpec(language="cs")) == ["praha", "hlavní město"]


def test_adding_languages_changes_no_published_prompt_hash():
    for protocol in PROTOCOLS.values():
        assert prompt_sha256(protocol) == protocols.FROZEN_PROMPT_SHA256[protocol.key]
        assert set(protocols.FROZEN_LANGUAGE_PROMPT_SHA256[protocol.key]) == set(LANGUAGES) - set(protocols.PUBLISHED_LANGUAGES[protocol.key])
        assert protocols.PUBLISHED_LANGUAGES[protocol.key] == ("el", "en", "es", "pl", "sk")
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


def test_a_published_language_without_prompt_words_is_named(monkeypatch):
    monkeypatch.delitem(protocols.LANGUAGES, "el")
    with pytest.raises(ValueError, match=r"protocol mcq@1 covers language el, whose file \(pipeline/languages/data/el.yaml\) has no prompt words"):
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
