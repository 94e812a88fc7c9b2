"""Scores from a run folder alone: no model, no network, no data outside the folder.

Accuracy is computed within each (config, language): each question weighted equally, the share of
correct answers averaged over the planned repeats. Refusals, extraction failures and truncations
score zero and are reported apart; a (question, repeat) whose last attempt is a technical failure,
or that has no attempt, is missing. Intervals: percentile bootstrap over question ids (eval.stats).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from eval import stats
from eval.answers import Status
from eval.runfolder import ATTEMPTS, PLAN, PROMPTS, read_json, read_jsonl

STATUS_ORDER = [s.value for s in Status] + ["missing"]


@dataclass
class RunMatrix:
    """Per question (rows, in prompt order) and repeat (columns): the final status and the score."""

    run: Path
    plan: dict
    prompts: list[dict]
    statuses: np.ndarray  # object array of status strings, (questions, repeats)

    @property
    def correct(self) -> np.ndarray:
        return (self.statuses == Status.CORRECT.value).astype(np.float64)

    def rows(self, config: str | None = None, language: str | None = None) -> np.ndarray:
        return np.array(
            [i for i, p in enumerate(self.prompts) if (config is None or p["config"] == config) and (language is None or p["language"] == language)],
            dtype=np.int64,
        )

    def groups(self) -> list[tuple[str, str]]:
        return sorted({(p["config"], p["language"]) for p in self.prompts})


def load_matrix(run: str | Path) -> RunMatrix:
    run = Path(run)
    plan = read_json(run / PLAN)
    prompts = read_jsonl(run / PROMPTS)
    # A killed run may leave a partial last line; it is not an attempt, so it is not counted.
    attempts = read_jsonl(run / ATTEMPTS, allow_partial_tail=True)
    repeats = plan["plan"]["repeats"]
    row_of = {p["qid"]: i for i, p in enumerate(prompts)}
    statuses = np.full((len(prompts), repeats), "missing", dtype=object)
    latest = np.zeros((len(prompts), repeats), dtype=np.int64)
    for a in attempts:
        i, r = row_of.get(a["qid"]), a["repeat"]
        if i is None or not 0 <= r < repeats:
            raise ValueError(f"{run / ATTEMPTS}: attempt for {a['qid']} repeat {r} is not in the plan")
        if a["attempt"] > latest[i, r]:
            latest[i, r] = a["attempt"]
            statuses[i, r] = a["status"]
    statuses[statuses == Status.TECHNICAL_FAILURE.value] = "missing_after_technical_failure"
    return RunMatrix(run, plan, prompts, statuses)


def _counts(statuses: np.ndarray) -> dict[str, int]:
    counts = {s: int((statuses == s).sum()) for s in STATUS_ORDER if s != "missing"}
    counts["technical_failure"] = int((statuses == "missing_after_technical_failure").sum())
    counts["missing"] = int(((statuses == "missing") | (statuses == "missing_after_technical_failure")).sum())
    return counts


def score_matrix(m: RunMatrix, *, resamples: int = stats.DEFAULT_RESAMPLES, seed: int = stats.DEFAULT_SEED) -> dict:
    groups = []
    correct = m.correct
    for config, language in m.groups():
        rows = m.rows(config, language)
        block = correct[rows]
        status_block = m.statuses[rows]
        counts = _counts(status_block)
        cells = block.size
        interval = stats.accuracy_interval(block, resamples=resamples, seed=seed)
        groups.append({
            "config": config,
            "language": language,
            "n_questions": int(rows.size),
            "repeats": int(block.shape[1]),
            "accuracy_pct": interval.estimate_pp,
            "ci_low": interval.ci_low,
            "ci_high": interval.ci_high,
            "per_repeat_accuracy_pct": [round(float(x) * 100, 10) for x in block.mean(axis=0)],
            "counts": counts,
            "refusal_pct": round(100 * counts["refusal"] / cells, 10),
            "extraction_failure_pct": round(100 * counts["extraction_failure"] / cells, 10),
            "truncated_pct": round(100 * counts["truncated"] / cells, 10),
        })
    totals = _counts(m.statuses)
    run_plan = m.plan["plan"]
    return {
        "scores_version": 1,
        "dataset_id": run_plan["data_pin"]["dataset_id"],
        "protocol": m.plan["protocol"],
        "model": {"backend": run_plan["model"]["backend"], "name": run_plan["model"]["name"]},
        "repeats": run_plan["repeats"],
        "bootstrap": {"resamples": resamples, "seed": seed, "confidence": stats.DEFAULT_CONFIDENCE, "unit": "question id"},
        "groups": groups,
        "totals": totals,
    }


def score_folder(run: str | Path) -> dict:
    return score_matrix(load_matrix(run))


def blocking_reasons(scores: dict) -> list[str]:
    """Why this run may not be published; empty when it may."""
    totals = scores["totals"]
    reasons = []
    if totals["missing"]:
        reasons.append(f"{totals['missing']} answers missing ({totals['technical_failure']} after technical failures); "
                       "run the same command again to resume")
    if totals["truncated"]:
        reasons.append(f"{totals['truncated']} answers truncated by the token limit (max_tokens); "
                       "re-run with a larger max_tokens into a new --out")
    return reasons
