"""Prompt files and the append-only JSONL log the describe and review stages write."""
from __future__ import annotations

import pytest

from pipeline.describe import AppendLog, JsonlError, PromptError, load_prompt, read_jsonl
from pipeline.describe.prompts import available_prompt_languages


def test_every_source_language_has_a_prompt_with_both_placeholders():
    languages = available_prompt_languages("v1")
    assert {"pl", "el", "sk", "es", "en"} <= set(languages)
    for language in languages:
        template = load_prompt(language, "v1").template
        assert "$question" in template and "$options" in template, language


def test_rendering_keeps_exam_text_exactly_even_braces_and_dollars():
    prompt = load_prompt("pl").render("Zbiór {x | x > $a} i ${b}", ["1 $", "{2}"], ["A", "B"], context="Tekst do zadania")
    assert "Tekst do zadania\n\nZbiór {x | x > $a} i ${b}" in prompt
    assert "A. 1 $\nB. {2}" in prompt


def test_unknown_version_or_language_names_what_exists(tmp_path):
    with pytest.raises(PromptError, match=r"prompt version 'v9' not found .*have: v1"):
        load_prompt("pl", "v9")
    with pytest.raises(PromptError, match=r"no prompt for language 'hu'"):
        load_prompt("hu")


def test_a_torn_last_line_is_ignored_and_cut_before_the_next_append(tmp_path):
    path = tmp_path / "log.jsonl"
    log = AppendLog(path)
    log.append({"n": 1})
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"n": 2, "tor')  # what a kill during a write can leave
    assert read_jsonl(path) == [{"n": 1}]

    AppendLog(path).append([{"n": 3}, {"n": 4}])
    assert read_jsonl(path) == [{"n": 1}, {"n": 3}, {"n": 4}]
    assert path.read_text().endswith('{"n":4}\n')


def test_a_corrupt_line_in_the_middle_is_an_error_naming_the_line(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"n": 1}\nnot json\n{"n": 3}\n', encoding="utf-8")
    with pytest.raises(JsonlError, match=r"log.jsonl:2: not valid JSON"):
        read_jsonl(path)
