"""The exports run as they are: lm-eval runs the release's task YAML on a tiny local model and picks the
same option per question as `examcorpus eval run --protocol mcq`; LLMzSzŁ JSONL has its fields."""
from __future__ import annotations

import json

import pytest

from pipeline.publish import publish_to_folder
from tests.pipeline.publish.conftest import make_split
from tests.pipeline.split.conftest import make_record

pytest.importorskip("torch")
pytest.importorskip("transformers")
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


@pytest.fixture(scope="module")
def release(tmp_path_factory):
    root = tmp_path_factory.mktemp("exports")
    records = [make_record(i, source=s, year=2022, language=lang) for s, lang in (("pl_test", "pl"), ("el_test", "el"))
               for i in range(1, 7)]
    records.append(make_record(7, source="el_test", year=2022, language="el", qtype="true_false", choices=["Σωστό", "Λάθος"]))
    records.append(make_record(8, source="pl_test", year=2022, qtype="open", choices=[]))  # not scorable: left out by both
    records += [make_record(1, source=s, year=2023, language=lang) for s, lang in (("pl_test", "pl"), ("el_test", "el"))]
    publish_to_folder(make_split(root, records), "public", root / "v1", release_id="v1", show_progress=False)
    return root / "v1"


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory):
    from tests.eval.backends.tiny_model import build_tiny_llama

    return build_tiny_llama(tmp_path_factory.mktemp("tiny") / "model")


def run_lm_eval(release, model, monkeypatch) -> dict:
    for key, value in OFFLINE.items():
        monkeypatch.setenv(key, value)
    monkeypatch.chdir(release)  # the task YAML names the data relative to the release folder
    import lm_eval
    from lm_eval.tasks import TaskManager

    return lm_eval.simple_evaluate(model="hf", model_args=f"pretrained={model},dtype=float32",
                                   tasks=["examcorpus_public"], task_manager=TaskManager(include_path="exports/lm_eval"),
                                   batch_size=4, device="cpu", log_samples=True, bootstrap_iters=0)


def test_lm_eval_runs_the_export_and_chooses_what_examcorpus_eval_chooses(release, tiny_model, tmp_path, monkeypatch):
    from eval.log.runfolder import read_jsonl
    from tests.eval.conftest import run_cli

    results = run_lm_eval(release, tiny_model, monkeypatch)
    theirs = {}
    for task, samples in results["samples"].items():
        for s in samples:
            logprobs = [float(r[0][0]) for r in s["resps"]]
            chosen = max(range(len(logprobs)), key=lambda i: (logprobs[i], -i))
            theirs[s["doc"]["id"]] = (s["arguments"][0][0], s["doc"]["choice_labels"][chosen], task)
    out = tmp_path / "run"
    assert run_cli("eval", "run", "--data", release, "--model", f"hf:{tiny_model}", "--protocol", "mcq",
                   "--out", out, "--no-progress") == 0
    prompts = {p["qid"]: p for p in read_jsonl(out / "prompts.jsonl")}
    ours = {a["qid"]: a["response"] for a in read_jsonl(out / "attempts.jsonl")}
    assert set(theirs) == set(ours) == set(prompts) and len(ours) == 13  # 6 + 6 + true/false; the open one left out
    for qid, (context, choice, _) in theirs.items():
        assert context == prompts[qid]["context"], qid  # the same prompt string, byte for byte
        assert choice == ours[qid], qid
    assert len({choice for _, choice, _ in theirs.values()}) > 1  # the model does not pick one letter everywhere
    # the group weighs each config equally, whatever its size
    per_config = [results["results"][t]["acc,none"] for t in ("examcorpus_public_el_test", "examcorpus_public_pl_test")]
    assert results["results"]["examcorpus_public"]["acc,none"] == pytest.approx(sum(per_config) / 2)


def test_llmzszl_rows_have_its_fields_and_only_polish_closed_questions(release):
    assert sorted(p.name for p in (release / "exports" / "llmzszl").iterdir()) == ["pl_test.jsonl"]
    rows = [json.loads(line) for line in (release / "exports" / "llmzszl" / "pl_test.jsonl").read_text().splitlines()]
    assert len(rows) == 6
    for row in rows:
        assert list(row) == ["question", "answers", "correct_answer_index", "year", "type", "name"]
        assert 0 <= row["correct_answer_index"] < len(row["answers"]) == 4
        assert (row["year"], row["type"], row["name"]) == (2022, "egzamin_zawodowy", "S-1")


def _standin(release, *, correct: bool):
    """A model for Inspect's mockllm provider that reads the prompt, recognises the question and names
    the letter Inspect gave its keyed option (or another one)."""
    import re

    import pyarrow.parquet as pq
    from inspect_ai.model import ModelOutput, ModelUsage

    keyed = {}
    for path in (release / "data").rglob("*.parquet"):
        for row in pq.read_table(path).to_pylist():
            if row["answer_index"] is not None and row["choices"]:
                keyed[row["question"].strip()] = row["choices"][row["answer_index"]].strip()

    def respond(messages, tools, tool_choice, config):
        prompt = messages[-1].text
        [right] = [answer for question, answer in keyed.items() if question in prompt]
        options = dict(re.findall(r"^([A-Z])\) (.*)$", prompt, re.M))
        letter = next(l for l, text in options.items() if (text.strip() == right) == correct)
        output = ModelOutput.from_content(model="standin", content=f"ANSWER: {letter}")
        # usage given, so mockllm does not count tokens with tiktoken (which would download its tables)
        output.usage = ModelUsage(input_tokens=len(prompt.split()), output_tokens=2, total_tokens=len(prompt.split()) + 2)
        return output

    return respond


def test_the_inspect_task_runs_and_scores_the_keyed_option_as_correct(release, tmp_path, monkeypatch):
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    monkeypatch.chdir(release)  # as `inspect eval exports/inspect/task.py` is run
    task = "exports/inspect/task.py"
    scores = {}
    for correct in (True, False):
        model = get_model("mockllm/model", custom_outputs=_standin(release, correct=correct))
        [log] = inspect_eval(task, model=model, log_dir=str(tmp_path / "logs"), display="none")
        assert log.status == "success" and len(log.samples) == 13  # the open question is left out
        scores[correct] = log.results.scores[0].metrics["accuracy"].value
    assert scores == {True: 1.0, False: 0.0}
    [one] = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=_standin(release, correct=True)),
                         task_args={"config": "el_test"}, log_dir=str(tmp_path / "logs"), display="none")
    assert {s.metadata["config"] for s in one.samples} == {"el_test"} and len(one.samples) == 7
