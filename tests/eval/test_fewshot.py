"""Few-shot examples from a declared pool (`--fewshot K --fewshot-pool POOL`): never a scored question,
other years of the same family, a seeded choice recorded in the plan, rendered with their answers before
the question in the protocol's own words. Runs go to the OpenAI-compatible stand-in (conftest)."""
from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest

from eval.prompts.protocols import FROZEN_PROMPT_SHA256, LANGUAGES
from eval.log.runfolder import read_json, read_jsonl
from pipeline.split import load_split_config, run_split
from tests.eval.conftest import make_question, run_standin, write_parquet

SUBJECTS = ["stolica Francji", "liczba pi", "wzór wody", "autor Pana Tadeusza", "najdłuższa rzeka", "rok chrztu Polski"]


def past_year(i: int, *, year: int = 2019, answer_index: int = 1):
    """A solved question of an earlier year, worded unlike the scored ones (the split's leakage guard
    would stop near-duplicates)."""
    q = make_question(100 + i, year=year, answer_index=answer_index)
    return dataclasses.replace(q, question=f"Jak brzmi {SUBJECTS[i % len(SUBJECTS)]}? Egzamin z roku {year}, numer {i}.",
                               choices=[f"{c}{i} odpowiedź {year}" for c in ("pierwsza ", "druga ", "trzecia ", "czwarta ")])


@pytest.fixture
def pool(tmp_path, questions):
    scored_twin = questions[0]  # the pool also holds a question that is scored
    same_year = dataclasses.replace(past_year(9, year=2020), number="99", id="pl_test:2020:maj:T_1:99")
    unkeyed = dataclasses.replace(past_year(8), answer=None, answer_index=None)
    return write_parquet(tmp_path / "pool.parquet", [past_year(i) for i in range(1, 6)] + [scored_twin, same_year, unkeyed])


def _lowest(seed: int, ids: list[str], k: int) -> list[str]:
    return sorted(ids, key=lambda qid: hashlib.sha256(f"{seed}:{qid}".encode()).hexdigest())[:k]


def test_a_scored_question_in_the_pool_is_never_shown_and_the_plan_says_so(tmp_path, curated, pool, questions, openai_server,
                                                                            standin_key):
    assert run_standin(curated, openai_server, tmp_path / "run", "--fewshot", "2", "--fewshot-pool", pool) == 0
    record = read_json(tmp_path / "run" / "plan.json")
    fewshot = record["fewshot"]
    scored = {q.id for q in questions}
    assert fewshot["excluded"]["scored question id"] == [questions[0].id]
    assert fewshot["excluded"]["same year as scored questions of its source"] == ["pl_test:2020:maj:T_1:99"]
    assert list(fewshot["excluded"]) == ["not usable as an example: no answer key", "same year as scored questions of its source",
                                         "scored question id"]
    usable = [past_year(i).id for i in range(1, 6)]
    assert fewshot["shot_ids"] == {"pl_test/pl": _lowest(0, usable, 2)}
    assert fewshot["pool"]["sha256"] == hashlib.sha256(pool.read_bytes()).hexdigest()
    assert record["plan"]["fewshot"] == 2 and record["plan"]["fewshot_pool"] == str(pool)
    for prompt in read_jsonl(tmp_path / "run" / "prompts.jsonl"):
        assert prompt["shot_ids"] == fewshot["shot_ids"]["pl_test/pl"] and not scored & set(prompt["shot_ids"])


def test_the_k_examples_are_rendered_with_their_answers_before_the_question(tmp_path, curated, pool, openai_server, standin_key):
    assert run_standin(curated, openai_server, tmp_path / "run", "--fewshot", "3", "--fewshot-pool", pool) == 0
    words = LANGUAGES["pl"]
    examples = {q.id: q for q in (past_year(i) for i in range(1, 6))}
    for prompt in read_jsonl(tmp_path / "run" / "prompts.jsonl"):
        text = prompt["messages"][0]["content"]
        shots = [examples[qid] for qid in prompt["shot_ids"]]
        assert len(shots) == 3
        at = 0
        for shot in shots:  # each example, then its answer, in order, all before the scored question
            options = "\n".join(f"{label}. {choice}" for label, choice in zip(shot.choice_labels, shot.choices))
            block = f"{words.question}:\n{shot.question}\n\n{options}\n\n{words.answer}: {shot.answer}"
            found = text.index(block, at)
            at = found + len(block)
        question_at = text.index(f"{words.question}:\n[Q")
        assert question_at > at and text.startswith(words.instruction) and text.endswith(words.finish_with)
        assert prompt["context"].endswith(f"{words.answer}:") and prompt["context"].count(f"\n\n{words.answer}: ") == 3


def test_the_choice_is_fixed_by_the_seed(tmp_path, curated, pool, openai_server, standin_key):
    for name, seed in (("a", "5"), ("b", "5"), ("c", "6")):
        assert run_standin(curated, openai_server, tmp_path / name, "--fewshot", "2", "--fewshot-pool", pool,
                           "--fewshot-seed", seed) == 0
    assert (tmp_path / "a" / "prompts.jsonl").read_bytes() == (tmp_path / "b" / "prompts.jsonl").read_bytes()
    usable = [past_year(i).id for i in range(1, 6)]
    for name, seed in (("a", 5), ("c", 6)):
        assert read_json(tmp_path / name / "plan.json")["fewshot"]["shot_ids"]["pl_test/pl"] == _lowest(seed, usable, 2)
    assert _lowest(5, usable, 2) != _lowest(6, usable, 2)  # so the check above tells the seeds apart


def test_zero_shot_prompts_are_byte_identical_with_or_without_the_fewshot_flags(tmp_path, curated, openai_server, standin_key):
    assert run_standin(curated, openai_server, tmp_path / "plain") == 0
    assert run_standin(curated, openai_server, tmp_path / "k0", "--fewshot", "0") == 0
    assert (tmp_path / "plain" / "prompts.jsonl").read_bytes() == (tmp_path / "k0" / "prompts.jsonl").read_bytes()
    record = read_json(tmp_path / "k0" / "plan.json")
    assert "fewshot" not in record and record["protocol"]["prompt_sha256"] == FROZEN_PROMPT_SHA256["mcq@1"]


def test_the_default_pool_is_the_public_split_of_other_years(tmp_path, questions, openai_server, standin_key, monkeypatch):
    curated = tmp_path / "curated"
    write_parquet(curated / "pl_test.parquet", questions + [past_year(i) for i in range(1, 4)])
    run_split(curated, tmp_path / "build" / "split", load_split_config())  # 2020 private, 2019 public
    monkeypatch.chdir(tmp_path)
    private = tmp_path / "build" / "split" / "private.parquet"
    assert run_standin(private, openai_server, tmp_path / "run", "--fewshot", "1") == 0
    fewshot = read_json(tmp_path / "run" / "plan.json")["fewshot"]
    split = json.loads((tmp_path / "build" / "split" / "split.json").read_text())
    assert fewshot["pool"]["location"] == "public-split"
    assert fewshot["pool"]["sha256"] == split["files"]["public.parquet"]["sha256"]
    assert fewshot["shot_ids"]["pl_test/pl"] == _lowest(0, [past_year(i).id for i in range(1, 4)], 1)


def test_a_jsonl_pool_is_read_and_a_bad_line_is_named(tmp_path, curated, openai_server, standin_key, capsys):
    good = tmp_path / "pool.jsonl"
    good.write_text("".join(json.dumps(past_year(i).to_row(), ensure_ascii=False) + "\n" for i in range(1, 3)), encoding="utf-8")
    assert run_standin(curated, openai_server, tmp_path / "run", "--fewshot", "2", "--fewshot-pool", good) == 0
    assert sorted(read_json(tmp_path / "run" / "plan.json")["fewshot"]["shot_ids"]["pl_test/pl"]) == \
        sorted(past_year(i).id for i in range(1, 3))
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(past_year(1).to_row()) + "\n{\"id\": \"x\"}\n", encoding="utf-8")
    assert run_standin(curated, openai_server, tmp_path / "bad-run", "--fewshot", "1", "--fewshot-pool", bad) == 1
    assert f"{bad}:2: not a question record" in capsys.readouterr().err


def test_a_pool_too_small_for_k_is_refused_naming_the_pool(tmp_path, curated, pool, openai_server, standin_key, capsys):
    assert run_standin(curated, openai_server, tmp_path / "run", "--fewshot", "6", "--fewshot-pool", pool) == 1
    err = capsys.readouterr().err
    assert str(pool) in err and "6-shot needs 6" in err and "the pool has 5" in err
    assert not (tmp_path / "run").exists()


def test_shots_among_the_scored_questions_and_a_pool_are_not_mixed(tmp_path, curated, pool, openai_server, standin_key, capsys):
    assert run_standin(curated, openai_server, tmp_path / "run", "--shots", "1", "--fewshot", "1", "--fewshot-pool", pool) == 1
    assert "not both" in capsys.readouterr().err


def test_a_missing_pool_is_named(tmp_path, curated, openai_server, standin_key, capsys):
    assert run_standin(curated, openai_server, tmp_path / "run", "--fewshot", "1", "--fewshot-pool", tmp_path / "nope.parquet") == 1
    assert "nope.parquet: few-shot pool not found" in capsys.readouterr().err
