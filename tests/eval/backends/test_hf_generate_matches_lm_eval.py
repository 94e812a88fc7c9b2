"""Our generative Hugging Face backend (`hf-generate:`) writes, per question, the text lm-evaluation-harness's
HFLM `generate_until` writes: same tiny model, same prompt strings, greedy, the same token limit and the
same stop (the end-of-text token), and each attempt's status is what the protocol's extraction rule gives
for that text.

The tiny model has random weights, so its text is gibberish; that makes the comparison stricter, not
weaker: each of the 24 tokens per answer is an argmax among near-uniform choices, which any difference
in the tokens fed (BOS, padding, the mask, positions) would change.
"""
from __future__ import annotations


import pytest

from eval.scorers.answers import classify_generation, get_rule
from eval.models.base import GenerationRequest
from eval.models.hf_generate import HFGenerateBackend
from eval.prompts.protocols import PROTOCOLS
from eval.log.runfolder import read_jsonl
from tests.eval.backends.lmeval_reference import lm_eval_generate, lm_eval_generator
from tests.eval.backends.tiny_model import with_chat_template
from tests.eval.conftest import questions_of_varied_lengths, run_cli, write_parquet

MAX_TOKENS = 24
BATCH_SIZE = 4
# ChatML led by the tokenizer's BOS, as Llama-style templates write it. lm-eval adds the tokenizer's
# special tokens unless the text starts with BOS, we never add them on top of a template; with the
# BOS in the template both sides feed the same ids (see eval/README.md).
BOS_CHATML = ("{{ bos_token }}{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}"
              "<|im_end|>\n{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}")


@pytest.fixture(scope="module")
def lm(tiny_model_dir):
    return lm_eval_generator(tiny_model_dir, batch_size=BATCH_SIZE)


@pytest.fixture(scope="module")
def chat_model_dir(tiny_model_dir, tmp_path_factory):
    return with_chat_template(tiny_model_dir, tmp_path_factory.mktemp("tiny-bos-chat") / "model", BOS_CHATML)


def test_a_run_writes_lm_eval_s_greedy_text_per_question_and_the_status_the_rule_gives_for_it(tmp_path, tiny_model_dir, lm):
    data = write_parquet(tmp_path / "d.parquet", questions_of_varied_lengths(8, " Uzasadnij odpowiedź."))
    out = tmp_path / "run"
    code = run_cli("eval", "run", "--data", data, "--model", f"hf-generate:{tiny_model_dir}", "--protocol", "mcq",
                   "--max-tokens", str(MAX_TOKENS), "--batch-size", str(BATCH_SIZE), "--out", out, "--no-progress")
    assert code in (0, 3)  # 3: some answers were cut by the token limit, as a random model's are
    prompts = {p["qid"]: p for p in read_jsonl(out / "prompts.jsonl")}
    attempts = read_jsonl(out / "attempts.jsonl")
    ours = HFGenerateBackend(tiny_model_dir)
    try:
        # Like with like: no chat template on either side, the plain prompt text is what both continue.
        assert not ours.has_chat_template and not getattr(lm.tokenizer, "chat_template", None)
        fed = [ours.model_input(prompts[a["qid"]]["messages"]) for a in attempts]
    finally:
        ours.close()
    assert len({len(text) for text in fed}) > 1
    reference = lm_eval_generate(lm, fed, max_gen_toks=MAX_TOKENS)

    rule = get_rule(PROTOCOLS["mcq"].extraction_rule)
    for attempt, expected in zip(attempts, reference, strict=True):
        assert expected != ""  # a meaningful comparison: the model did write something
        assert attempt["response"] == expected, attempt["qid"]
        prompt = prompts[attempt["qid"]]
        status, extraction = classify_generation(text=expected, finish_reason=attempt["finish_reason"],
                                                 labels=prompt["labels"], answer=prompt["answer"],
                                                 language=prompt["language"], rule=rule)
        assert (attempt["status"], attempt["extracted"]) == (status.value, extraction.label), attempt["qid"]
        # "length" when the limit cut the answer, "stop" when the end token came within it (counted).
        used = attempt["usage"]["completion_tokens"]
        assert used == MAX_TOKENS if attempt["finish_reason"] == "length" else used <= MAX_TOKENS
    assert {a["finish_reason"] for a in attempts} == {"stop", "length"}  # both endings are compared


def test_with_a_chat_template_and_a_system_prompt_both_feed_and_write_the_same(chat_model_dir, tmp_path):
    system = "Odpowiadaj jedną literą."
    users = [q.question + "\nA. 8\nB. 16\nC. 4\nD. 2" for q in questions_of_varied_lengths(4, " Uzasadnij odpowiedź.")]
    ours = HFGenerateBackend(chat_model_dir, system_prompt=system, batch_size=BATCH_SIZE)
    try:
        requests = [GenerationRequest(qid=f"q{i}", messages=({"role": "user", "content": u},), max_tokens=MAX_TOKENS)
                    for i, u in enumerate(users)]
        responses = ours.generate_batch(requests)
        fed = [ours.model_input(r.messages) for r in requests]
        ids = [ours.encode(r.messages) for r in requests]
    finally:
        ours.close()
    lm = lm_eval_generator(chat_model_dir, batch_size=BATCH_SIZE)
    # lm-eval's own chat formatting of the same conversation gives our text, and its tokens our ids.
    assert fed == [lm.apply_chat_template([{"role": "system", "content": system}, {"role": "user", "content": u}])
                   for u in users]
    assert ids == [lm.tok_batch_encode([text])[0][0].tolist() for text in fed]
    assert all(i[0] == lm.tokenizer.bos_token_id and i.count(lm.tokenizer.bos_token_id) == 1 for i in ids)
    reference = lm_eval_generate(lm, fed, max_gen_toks=MAX_TOKENS)
    assert all(reference)
    assert [r.text for r in responses] == reference
