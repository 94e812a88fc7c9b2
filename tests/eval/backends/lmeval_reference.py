"""Runs lm-evaluation-harness on the same questions our backend scores: the reference the
log-likelihood tests and `make bench` compare against.

The questions become a local JSON task (no Hub access): the prompt is the doc's `context` field and
the options its `choices` field, used verbatim, with lm-eval's default target delimiter " ". Our
requests are built from the same docs by `choice_requests`, so both sides score identical strings.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from eval.models.base import ChoiceRequest

TASK_NAME = "examcorpus_loglik_reference"
TARGET_DELIMITER = " "


@dataclass(frozen=True)
class ReferenceDoc:
    qid: str
    context: str
    choices: tuple[str, ...]
    gold: int


@dataclass(frozen=True)
class ReferenceScore:
    qid: str
    arguments: tuple[tuple[str, str], ...]  # the (context, continuation) pairs lm-eval scored
    logprobs: tuple[float, ...]
    is_greedy: tuple[bool, ...]
    chosen: int  # lm-eval's acc prediction: argmax of logprobs
    acc: float | None = None  # lm-eval's own per-sample metrics
    acc_norm: float | None = None


def choice_requests(docs: list[ReferenceDoc]) -> list[ChoiceRequest]:
    return [
        ChoiceRequest(qid=d.qid, context=d.context, continuations=tuple(TARGET_DELIMITER + c for c in d.choices))
        for d in docs
    ]


def write_task(docs: list[ReferenceDoc], directory: Path) -> Path:
    """Writes the docs as JSON lines and a multiple_choice task YAML that reads them; returns the folder."""
    directory.mkdir(parents=True, exist_ok=True)
    data = directory / "docs.jsonl"
    with data.open("w", encoding="utf-8") as out:
        for d in docs:
            out.write(json.dumps({"qid": d.qid, "context": d.context, "choices": list(d.choices), "gold": d.gold},
                                 ensure_ascii=False) + "\n")
    # Field names (not Jinja templates) so lm-eval takes the strings verbatim, whitespace included.
    (directory / f"{TASK_NAME}.yaml").write_text(
        f"task: {TASK_NAME}\n"
        "dataset_path: json\n"
        f"dataset_kwargs:\n  data_files:\n    test: {json.dumps(str(data))}\n"
        "test_split: test\n"
        "output_type: multiple_choice\n"
        "doc_to_text: context\n"
        "doc_to_choice: choices\n"
        "doc_to_target: gold\n"
        f"target_delimiter: {json.dumps(TARGET_DELIMITER)}\n"
        "metric_list:\n  - metric: acc\n    aggregation: mean\n    higher_is_better: true\n"
        "  - metric: acc_norm\n    aggregation: mean\n    higher_is_better: true\n"
        "metadata:\n  version: 1.0\n",
        encoding="utf-8",
    )
    return directory


def run_lm_eval(
    model_dir: Path, docs: list[ReferenceDoc], workdir: Path, *, batch_size: int = 1, extra_model_args: str = ""
) -> list[ReferenceScore]:
    """lm-eval's `simple_evaluate` with its own HF backend (`model="hf"`), float32 on CPU, offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
    import lm_eval
    from lm_eval.tasks import TaskManager

    task_dir = write_task(docs, workdir)
    model_args = f"pretrained={model_dir},dtype=float32" + (f",{extra_model_args}" if extra_model_args else "")
    results = lm_eval.simple_evaluate(
        model="hf",
        model_args=model_args,
        tasks=[TASK_NAME],
        task_manager=TaskManager(include_path=str(task_dir)),
        batch_size=batch_size,
        device="cpu",
        log_samples=True,
        bootstrap_iters=0,
    )
    by_qid: dict[str, ReferenceScore] = {}
    for sample in results["samples"][TASK_NAME]:
        pairs = [tuple(r[0]) for r in sample["resps"]]  # one (loglik, is_greedy) per option
        logprobs = tuple(float(p[0]) for p in pairs)
        by_qid[sample["doc"]["qid"]] = ReferenceScore(
            qid=sample["doc"]["qid"],
            arguments=tuple(tuple(a) for a in sample["arguments"]),
            logprobs=logprobs,
            is_greedy=tuple(bool(p[1]) for p in pairs),
            chosen=max(range(len(logprobs)), key=lambda i: (logprobs[i], -i)),
            acc=sample.get("acc"),
            acc_norm=sample.get("acc_norm"),
        )
    return [by_qid[d.qid] for d in docs]


def lm_eval_generator(model_dir: Path, *, batch_size: int):
    """lm-eval's own HFLM (float32, CPU, offline), for `generate_until`."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from lm_eval.models.huggingface import HFLM

    return HFLM(pretrained=str(model_dir), dtype="float32", device="cpu", batch_size=batch_size)


def lm_eval_generate(lm, prompts: list[str], *, max_gen_toks: int) -> list[str]:
    """HFLM.generate_until, greedy, on prompt strings taken verbatim (no chat template applied here: a
    caller that wants one passes `lm.apply_chat_template(...)`'s text). `until` is empty, so the only
    stop is the one lm-eval always adds, the end-of-text token: the stop our backend uses."""
    from lm_eval.api.instance import Instance

    settings = {"until": [], "max_gen_toks": max_gen_toks, "do_sample": False}
    instances = [Instance(request_type="generate_until", doc={}, arguments=(p, dict(settings)), idx=0) for p in prompts]
    return list(lm.generate_until(instances, disable_tqdm=True))
