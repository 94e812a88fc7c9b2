"""Scores from a run folder alone: no model, no network, no data outside the folder.

Accuracy is computed within each (config, language): each question weighted equally, the share of
correct answers averaged over the planned repeats. Refusals, extraction failures and truncations
score zero and are reported apart; a (question, repeat) whose last attempt is a technical failure,
or that has no attempt, is missing. Intervals: percentile bootstrap over question ids (eval.analysis.stats).

Every status is recomputed from the attempt's own evidence (eval.log.recompute); the stored status is
kept only to report where it disagrees. Besides the (config, language) groups, scores.json holds
the overall accuracy and breakdowns by exam, subject, year and question type within each group,
each with its interval.

Public: `load_matrix`, `score_matrix`, `score_folder`, `blocking_reasons`, `run_blocking_reasons`, `left_out`, `left_out_lines`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from eval.analysis import stats
from eval.scorers.answers import Status, get_rule, norm_argmax, token_norm_argmax
from eval.log.records import Scores, StatusCounts
from eval.log.recompute import StatusMismatch, mismatch, recompute
from eval.log.runfolder import ATTEMPTS, PLAN, PROMPTS, read_json, read_jsonl

SCORES_VERSION = 2
STATUS_ORDER = [s.value for s in Status] + ["missing"]
BREAKDOWNS = ("exam", "subject", "year", "type")  # prompt metadata fields, one breakdown each


@dataclass
class RunMatrix:
    """Per question (rows, in prompt order) and repeat (columns): the final status and the score."""

    run: Path
    plan: dict
    prompts: list[dict]
    statuses: np.ndarray  # object array of recomputed status strings, (questions, repeats)
    stored_statuses: np.ndarray | None = None  # the same cells as attempts.jsonl states them
    mismatches: list[StatusMismatch] = field(default_factory=list)
    correct_norm: np.ndarray | None = None  # cloze only: lm-eval's acc_norm per cell (0/1), from the log-probs
    correct_norm_tokens: np.ndarray | None = None  # cloze only: the same by log-likelihood per token (NaN: unknown)

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

    def with_statuses(self, statuses: np.ndarray) -> RunMatrix:
        return RunMatrix(self.run, self.plan, self.prompts, statuses, self.stored_statuses, self.mismatches, self.correct_norm,
                         self.correct_norm_tokens)


def load_matrix(run: str | Path) -> RunMatrix:
    run = Path(run)
    plan = read_json(run / PLAN)
    prompts = read_jsonl(run / PROMPTS)
    # A killed run may leave a partial last line; it is not an attempt, so it is not counted.
    attempts = read_jsonl(run / ATTEMPTS, allow_partial_tail=True)
    repeats = plan["plan"]["repeats"]
    rule = get_rule(plan["protocol"]["extraction_rule"])
    kind = plan.get("backend_kind", "generative")
    row_of = {p["qid"]: i for i, p in enumerate(prompts)}
    statuses = np.full((len(prompts), repeats), "missing", dtype=object)
    stored = np.full((len(prompts), repeats), "missing", dtype=object)
    latest = np.zeros((len(prompts), repeats), dtype=np.int64)
    cloze = kind == "loglikelihood" and plan["protocol"].get("formulation") == "cloze"
    norm = np.zeros((len(prompts), repeats), dtype=np.float64) if cloze else None
    norm_tokens = np.full((len(prompts), repeats), np.nan) if cloze else None
    mismatches = []
    # Runs append whole JSON lines only, never blank ones, so an attempt's position is its line number.
    for line, a in enumerate(attempts, 1):
        i, r = row_of.get(a.get("qid")), a.get("repeat")
        if i is None or not isinstance(r, int) or not 0 <= r < repeats:
            raise ValueError(f"{run / ATTEMPTS}:{line}: attempt for {a.get('qid')} repeat {r} is not in the plan")
        result = recompute(a, prompts[i], rule, kind)
        found = mismatch(line, a, result)
        if found is not None:
            mismatches.append(found)
        if a["attempt"] > latest[i, r]:
            latest[i, r] = a["attempt"]
            statuses[i, r] = result.status
            stored[i, r] = a.get("status")
            if norm is not None:
                logprobs = a.get("logprobs")
                usable = "error" not in a and isinstance(logprobs, list) and len(logprobs) == len(prompts[i]["continuations"])
                norm[i, r] = float(usable and prompts[i]["labels"][norm_argmax(logprobs, prompts[i]["continuations"])]
                                   == prompts[i]["answer"])
                counts = a.get("continuation_tokens")
                if usable and isinstance(counts, list) and len(counts) == len(logprobs):
                    norm_tokens[i, r] = float(prompts[i]["labels"][token_norm_argmax(logprobs, counts)] == prompts[i]["answer"])
    for cells in (statuses, stored):
        cells[cells == Status.TECHNICAL_FAILURE.value] = "missing_after_technical_failure"
    return RunMatrix(run, plan, prompts, statuses, stored, mismatches, norm, norm_tokens)


def _counts(statuses: np.ndarray) -> dict[str, int]:
    counts = {s: int((statuses == s).sum()) for s in STATUS_ORDER if s != "missing"}
    counts["technical_failure"] = int((statuses == "missing_after_technical_failure").sum())
    counts["missing"] = int(((statuses == "missing") | (statuses == "missing_after_technical_failure")).sum())
    return counts


def _cell(m: RunMatrix, rows: np.ndarray, *, resamples: int, seed: int) -> dict:
    """Accuracy, its interval and the status counts over some rows of the matrix."""
    block = m.correct[rows]
    counts = _counts(m.statuses[rows])
    cells = block.size
    interval = stats.accuracy_interval(block, resamples=resamples, seed=seed)
    cell = {
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
    }
    if m.correct_norm is not None:
        # Cloze: accuracy_pct is lm-eval's acc; this is its acc_norm (log-likelihood per character).
        norm = stats.accuracy_interval(m.correct_norm[rows], resamples=resamples, seed=seed)
        cell.update(accuracy_norm_pct=norm.estimate_pp, norm_ci_low=norm.ci_low, norm_ci_high=norm.ci_high)
    tokens = m.correct_norm_tokens[rows] if m.correct_norm_tokens is not None else None
    if tokens is not None and tokens.size and not np.isnan(tokens).any():
        # Per token: only when every attempt recorded its continuations' token counts.
        by_tokens = stats.accuracy_interval(tokens, resamples=resamples, seed=seed)
        cell.update(accuracy_norm_tokens_pct=by_tokens.estimate_pp, norm_tokens_ci_low=by_tokens.ci_low,
                    norm_tokens_ci_high=by_tokens.ci_high)
    return cell


def _breakdown(m: RunMatrix, field_name: str, *, resamples: int, seed: int) -> list[dict]:
    """Accuracy per value of one metadata field, within each (config, language)."""
    out = []
    for config, language in m.groups():
        by_value: dict = {}
        for i in m.rows(config, language):
            value = m.prompts[i].get("meta", {}).get(field_name)
            by_value.setdefault(value, []).append(int(i))
        for value in sorted(by_value, key=lambda v: (v is None, str(v))):
            rows = np.array(by_value[value], dtype=np.int64)
            block = m.correct[rows]
            interval = stats.accuracy_interval(block, resamples=resamples, seed=seed)
            out.append({"config": config, "language": language, "value": value, "n_questions": int(rows.size),
                        "accuracy_pct": interval.estimate_pp, "ci_low": interval.ci_low, "ci_high": interval.ci_high})
    return out


def score_matrix(m: RunMatrix, *, resamples: int = stats.DEFAULT_RESAMPLES, seed: int = stats.DEFAULT_SEED) -> Scores:
    groups = [
        {"config": config, "language": language, **_cell(m, m.rows(config, language), resamples=resamples, seed=seed)}
        for config, language in m.groups()
    ]
    run_plan = m.plan["plan"]
    return Scores.model_validate({
        "scores_version": SCORES_VERSION,
        "dataset_id": run_plan["data_pin"]["dataset_id"],
        # Which questions were scored (eval.data): "public", "private", or "all" (private included).
        # Runs from before the split was recorded have none, and their scores.json stays as it was.
        **({"split": run_plan["data_pin"]["split"]} if "split" in run_plan["data_pin"] else {}),
        "protocol": m.plan["protocol"],
        # The display name where the run has one (runs from before it keep their scores.json as it was).
        "model": {"backend": run_plan["model"]["backend"], "name": run_plan["model"]["name"],
                  **({"display_name": run_plan["model"]["display_name"]} if run_plan["model"].get("display_name") else {})},
        "repeats": run_plan["repeats"],
        "bootstrap": {"resamples": resamples, "seed": seed, "confidence": stats.DEFAULT_CONFIDENCE, "unit": "question id"},
        # Every question of every group weighted equally: comparable only across runs of the same selection.
        "overall": _cell(m, np.arange(len(m.prompts), dtype=np.int64), resamples=resamples, seed=seed),
        "groups": groups,
        "breakdowns": {name: _breakdown(m, name, resamples=resamples, seed=seed) for name in BREAKDOWNS},
        "totals": _counts(m.statuses),
        # The questions of the selection that were never asked (no key, not closed, ...), by why; runs from before their
        # ids were recorded have none, and their scores.json stays as it was.
        **({"left_out": left_out(m.plan)} if "skipped_ids" in m.plan else {}),
    })


def left_out(plan: dict) -> dict[str, dict]:
    """{why: {"count", "ids"}} for the questions the run's selection held and could not score, as its plan recorded
    them: outside every group's denominator, so named beside the scores rather than left out unsaid."""
    return {reason: {"count": len(ids), "ids": sorted(ids)} for reason, ids in sorted(plan["skipped_ids"].items())}


def left_out_lines(scores: dict, shown: int = 10) -> list[str]:
    """A line per reason the run left questions of its selection unasked (in no denominator), naming them."""
    lines = []
    for reason, found in scores.get("left_out", {}).items():
        ids = found["ids"]
        more = f" and {len(ids) - shown} more (scores.json)" if len(ids) > shown else ""
        lines.append(f"left out, not asked: {found['count']} question(s), {reason}: {', '.join(ids[:shown])}{more}")
    return lines


def score_folder(run: str | Path) -> Scores:
    return score_matrix(load_matrix(run))


def blocking_reasons(scores: Scores) -> list[str]:
    """Why this run may not be published; empty when it may."""
    return _blocking(scores.totals)


def _blocking(totals: StatusCounts) -> list[str]:
    reasons = []
    if totals.missing:
        reasons.append(f"{totals.missing} answers missing ({totals.technical_failure} after technical failures); "
                       "run the same command again to resume")
    if totals.truncated:
        reasons.append(f"{totals.truncated} answers truncated by the token limit (max_tokens); "
                       "re-run with a larger max_tokens into a new --out")
    return reasons


def run_blocking_reasons(m: RunMatrix) -> list[str]:
    """Why the whole run may not be published, from its recomputed statuses; empty when it may."""
    return _blocking(StatusCounts.model_validate(_counts(m.statuses)))
