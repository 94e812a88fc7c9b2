"""The exports run as they are: lm-eval runs the release's task YAML on a tiny local model and picks the
same option per question as `examcorpus eval run --protocol mcq`; LLMzSzŁ JSONL has its fields."""
from __future__ import annotations

import json
import os
from dataclasses import replace

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
    records = [_as_printed(r) for r in records]
    publish_to_folder(make_split(root, records), "public", root / "v1", release_id="v1", show_progress=False)
    return root / "v1"


def _as_printed(record):
    """Greek sheets label their options in Greek (α…δ, Σωστό/Λάθος as Σ/Λ); some questions have a passage."""
    if record.language == "el":
        labels = ["Σ", "Λ"] if record.type == "true_false" else ["α", "β", "γ", "δ"][:len(record.choices)]
        record = replace(record, choice_labels=labels, answer=labels[record.answer_index])
    if record.number in ("2", "5"):
        record = replace(record, context=f"  {record.question[:40]}\n{record.id}  ")
    return record


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


# Run in a subprocess: Inspect starts its own event loop, which fails inside a test process where an
# earlier test (the review pages' browser) left one running. The stand-in model reads each prompt,
# recognises the question and answers in the question's language with the keyed label (or another).
_INSPECT_DRIVER = r"""
import json, re, sys
from pathlib import Path

import pyarrow.parquet as pq
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

release, log_dir, out = Path.cwd(), sys.argv[1], Path(sys.argv[2])
keyed = {}
for path in (release / "data").rglob("*.parquet"):
    for row in pq.read_table(path).to_pylist():
        if row["answer_index"] is not None and row["choices"]:
            keyed[row["question"].strip()] = (row["choice_labels"], row["answer_index"], row["language"])
ANSWER = {"pl": "Odpowiedź", "el": "Απάντηση"}
received = []


def standin(correct):
    def respond(messages, tools, tool_choice, config):
        prompt = messages[-1].text
        received.append(prompt)
        [(labels, index, language)] = [v for q, v in keyed.items() if q in prompt]
        label = labels[index] if correct else labels[(index + 1) % len(labels)]
        output = ModelOutput.from_content(model="standin", content=f"Reasoning first.\n\n{ANSWER[language]}: **{label}**")
        # usage given, so mockllm does not count tokens with tiktoken (which downloads its tables)
        output.usage = ModelUsage(input_tokens=len(prompt.split()), output_tokens=2, total_tokens=len(prompt.split()) + 2)
        return output
    return respond


runs = {}
for name, correct, args in (("right", True, {}), ("wrong", False, {}), ("el_only", True, {"config": "el_test"})):
    received.clear()
    [log] = inspect_eval("exports/inspect/task.py", model=get_model("mockllm/model", custom_outputs=standin(correct)),
                         task_args=args, log_dir=log_dir, display="none")
    runs[name] = {"status": log.status, "received": list(received),
                  "samples": [{"id": s.id, "input": s.input, "target": s.target, "metadata": s.metadata} for s in log.samples],
                  "metrics": {k: m.value for k, m in log.results.scores[0].metrics.items()}}
out.write_text(json.dumps(runs, ensure_ascii=False))
"""


def _tree(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_the_inspect_task_asks_eval_s_prompts_scores_by_its_rule_and_groups_by_config_and_language(
        release, tiny_model, tmp_path):
    import subprocess
    import sys

    from eval.log.runfolder import read_jsonl
    from tests.eval.conftest import run_cli

    out = tmp_path / "run"
    assert run_cli("eval", "run", "--data", release, "--model", f"hf:{tiny_model}", "--protocol", "mcq",
                   "--out", out, "--no-progress") == 0
    eval_prompts = {p["qid"]: p for p in read_jsonl(out / "prompts.jsonl")}
    before = _tree(release)
    driver = tmp_path / "driver.py"
    driver.write_text(_INSPECT_DRIVER)
    result = tmp_path / "inspect.json"
    done = subprocess.run([sys.executable, str(driver), str(tmp_path / "logs"), str(result)], cwd=release,
                          env={**os.environ, **OFFLINE}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    runs = json.loads(result.read_text())
    assert _tree(release) == before  # nothing written into the immutable release: no logs/, no __pycache__

    right = runs["right"]
    assert right["status"] == "success"
    by_id = {s["id"]: s for s in right["samples"]}
    assert set(by_id) == set(eval_prompts) and len(by_id) == 13  # the questions eval scores; the open one left out
    assert {s["metadata"]["language"] for s in by_id.values()} == {"pl", "el"}
    for qid, prompt in eval_prompts.items():
        [message] = prompt["messages"]
        assert by_id[qid]["input"] == message["content"], qid  # eval's prompt, byte for byte
        assert by_id[qid]["target"] == prompt["answer"] and by_id[qid]["metadata"]["labels"] == prompt["labels"], qid
    assert sorted(right["received"]) == sorted(p["messages"][0]["content"] for p in eval_prompts.values())  # as sent
    greek = [s for s in by_id.values() if s["metadata"]["language"] == "el"]
    assert all(set(s["metadata"]["labels"]) <= set("αβγδεΣΛ") for s in greek) and any("α" in s["metadata"]["labels"] for s in greek)

    groups = ["config:el_test", "config:pl_test", "config_mean", "language:el", "language:pl", "accuracy"]
    assert {k: right["metrics"][k] for k in groups} == {k: 1.0 for k in groups}
    assert {k: runs["wrong"]["metrics"][k] for k in groups} == {k: 0.0 for k in groups}
    el_only = runs["el_only"]
    assert {s["metadata"]["config"] for s in el_only["samples"]} == {"el_test"} and len(el_only["samples"]) == 7
    assert "config:pl_test" not in el_only["metrics"] and el_only["metrics"]["language:el"] == 1.0


def test_the_inspect_task_extracts_answers_as_examcorpus_eval_s_rule_does(release):
    import importlib.util

    from eval.scorers.answers import get_rule

    spec = importlib.util.spec_from_file_location("exported_task", release / "exports" / "inspect" / "task.py")
    exported = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(exported)
    rule = get_rule("letter-v1")
    replies = ["Odpowiedź: B", "Απάντηση: β", "Answer: (γ)", "**Odpowiedź:** C", "\\boxed{δ}", "B", "(α)", "**C**",
               "β) the option", "I think\n\nA", "Πρώτα σκέψη. Απάντηση = Γ", "Odpowiedz - d", "no idea", "",
               "Answer: E", "Odpowiedź: A\nOdpowiedź: C", "Σ", "Answer: Λ", "ABC"]
    for labels, language in ((["A", "B", "C", "D"], "pl"), (["α", "β", "γ", "δ"], "el"), (["Σ", "Λ"], "el")):
        for reply in replies:
            assert exported.extract(reply, labels, language) == rule.extract(reply, labels, language).label, (reply, labels)


def test_the_inspect_offline_check_needs_no_download_leaves_the_release_alone_and_fails_loudly(release, tmp_path):
    """`python exports/inspect/task.py` runs the task on mockllm offline (no tiktoken table to fetch) and
    exits 0 only when every sample runs and scores; a broken key makes it exit 1."""
    import shutil
    import subprocess
    import sys

    env = {**os.environ, **OFFLINE, "TIKTOKEN_CACHE_DIR": str(tmp_path / "empty-tiktoken-cache")}
    before = _tree(release)
    done = subprocess.run([sys.executable, "exports/inspect/task.py"], cwd=release, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr[-3000:]
    assert done.stdout.startswith("ok: status success, 13 of 13 samples, accuracy 1.0")
    assert _tree(release) == before

    broken = tmp_path / "inspect"
    shutil.copytree(release / "exports" / "inspect", broken)
    rows = [json.loads(line) for line in (broken / "samples.jsonl").read_text().splitlines()]
    rows[0]["metadata"]["labels"] = ["?"]  # the model's key answer no longer reads as one of the labels
    (broken / "samples.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    failed = subprocess.run([sys.executable, str(broken / "task.py")], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert failed.returncode == 1 and failed.stdout.startswith("FAILED"), failed.stdout + failed.stderr[-3000:]
