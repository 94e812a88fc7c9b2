"""The judge's grades as a score table, like a run's scores.json: per judge, the mean grade overall
and by group (who answered), config, subject and language, each with a percentile bootstrap interval
(eval.analysis.stats), and beside it how far the similarity scores spread over the same answers.

The unit is the answer, one (qid, group): its grade is the mean of its graded repeats. An answer
that no repeat could grade (unparseable replies, technical failures) is left out of the mean and
counted apart, never scored as 0; every judgement's status is counted too. Nothing here depends on
the time or the order of the replies, so the same judgements give byte-identical files.

Public: `score_judges`, `scores_markdown`, `spread_report`, `report_markdown`.
"""
from __future__ import annotations

import math
from collections import Counter

import numpy as np

from eval.analysis import stats

SCORES_VERSION = 1
STATUSES = ("graded", "unparseable", "technical_failure")  # eval.scorers.judge.JudgeStatus values
BREAKDOWNS = ("group", "config", "subject", "language")  # OpenItem fields, one breakdown each
SIMILARITIES = ("token_f1", "chrf", "bertscore_f1")
LABELS = {"token_f1": "token F1", "chrf": "chrF", "bertscore_f1": "BERTScore F1"}
GRADE_RULE = ("mean of the judge's grades (scale 0, 0.25, 0.5, 0.75, 1) in percent of full marks; an answer's grade is the "
              "mean of its graded repeats; answers no repeat could grade are counted apart, never as 0")


def _similarities(judgements: list) -> tuple[str, ...]:
    """The similarity scores every judgement carries (BERTScore only when a model was given)."""
    return tuple(m for m in SIMILARITIES if judgements and all(getattr(j, m, None) is not None for j in judgements))


def _cell(keys: list[tuple[str, str]], by_answer: dict[tuple[str, str], list], metrics: tuple[str, ...], *, resamples: int,
          seed: int) -> dict:
    statuses = Counter(j.status for key in keys for j in by_answer[key])
    graded = [key for key in keys if any(j.grade is not None for j in by_answer[key])]
    cell = {"answers": len(keys), "graded_answers": len(graded), "ungraded_answers": len(keys) - len(graded),
            "judgements": {s: statuses.get(s, 0) for s in STATUSES}}
    if graded:
        grades = np.array([np.mean([j.grade for j in by_answer[key] if j.grade is not None]) for key in graded])
        interval = stats.accuracy_interval(grades, resamples=resamples, seed=seed)
        cell.update(mean_grade_pct=interval.estimate_pp, ci_low=interval.ci_low, ci_high=interval.ci_high)
    else:
        cell.update(mean_grade_pct=None, ci_low=None, ci_high=None)
    # Over the same graded answers as the grade, so the two spreads compare like with like.
    cell["similarity"] = {m: (round(float(np.mean([getattr(by_answer[key][0], m) for key in graded])), 6) if graded else None)
                          for m in metrics}
    return cell


def _score_judge(judgements: list, items: list, *, resamples: int, seed: int) -> dict:
    by_answer: dict[tuple[str, str], list] = {(i.qid, i.group): [] for i in items}
    for j in sorted(judgements, key=lambda j: j.repeat):
        by_answer[(j.qid, j.group)].append(j)
    keys = [key for key in by_answer if by_answer[key]]
    item_of = {(i.qid, i.group): i for i in items}
    metrics = _similarities(judgements)
    breakdowns = {}
    for field in BREAKDOWNS:
        values = sorted({getattr(item_of[key], field) for key in keys})
        breakdowns[field] = [{"value": v, **_cell([k for k in keys if getattr(item_of[k], field) == v], by_answer, metrics,
                                                  resamples=resamples, seed=seed)} for v in values]
    rubrics = sorted({(j.rubric, j.rubric_sha256) for j in judgements})
    return {"rubrics": [{"name": name, "sha256": digest} for name, digest in rubrics],
            "repeats": 1 + max((j.repeat for j in judgements), default=0),
            "overall": _cell(keys, by_answer, metrics, resamples=resamples, seed=seed), "breakdowns": breakdowns}


def score_judges(by_judge: dict[str, list], items: list, *, judges: dict[str, dict], settings: dict,
                 resamples: int = stats.DEFAULT_RESAMPLES, seed: int = stats.DEFAULT_SEED) -> dict:
    """scores.json for every judge: `judges` describes each (backend, model, request settings),
    `settings` what applies to all (answers file and its SHA-256, repeats, similarity model)."""
    return {
        "scores_version": SCORES_VERSION,
        "kind": "open answers graded by an LLM judge",
        "grade": GRADE_RULE,
        **settings,
        "bootstrap": {"resamples": resamples, "seed": seed, "confidence": stats.DEFAULT_CONFIDENCE, "unit": "answer (qid, group)"},
        "judges": [{"judge": name, **judges[name], **_score_judge(got, items, resamples=resamples, seed=seed)}
                   for name, got in by_judge.items()],
    }


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.2f}"


def _row(by: str, value: str, cell: dict, metrics: tuple[str, ...]) -> str:
    interval = "–" if cell["ci_low"] is None else f"[{cell['ci_low']:.2f}, {cell['ci_high']:.2f}]"
    similarity = [("–" if cell["similarity"][m] is None else f"{cell['similarity'][m]:.4f}") for m in metrics]
    counts = cell["judgements"]
    return "| " + " | ".join([by, value or "(none)", str(cell["answers"]), str(cell["graded_answers"]), _pct(cell["mean_grade_pct"]),
                              interval, str(counts["unparseable"]), str(counts["technical_failure"]), *similarity]) + " |"


def scores_markdown(scores: dict) -> str:
    boot = scores["bootstrap"]
    lines = ["# Open answers: judge scores", "",
             f"Mean grade in % of full marks with its {int(boot['confidence'] * 100)} % bootstrap interval over answers "
             f"({boot['resamples']} resamples, seed {boot['seed']}). Answers no repeat could grade are counted apart, never "
             "as 0; the unparseable and technical-failure columns count judgements. Similarity: means over the graded answers.",
             "", f"Answers: `{scores['answers']['file']}` (sha256 {scores['answers']['sha256']})."]
    if scores.get("similarity_model"):
        model = scores["similarity_model"]
        lines.append(f"BERTScore model: `{model['model']}` layer {model['layer']} (weights sha256 {model['weights_sha256']}).")
    for judge in scores["judges"]:
        metrics = tuple(judge["overall"]["similarity"])
        rubrics = ", ".join(f"{r['name']} (sha256 {r['sha256']})" for r in judge["rubrics"])
        lines += ["", f"## {judge['judge']}", "",
                  f"Rubric(s): {rubrics}. {judge['repeats']} repeat(s), seed {judge['seed']}, temperature {judge['temperature']}, "
                  f"max_tokens {judge['max_tokens']}.", "",
                  "| " + " | ".join(["by", "value", "answers", "graded", "mean grade %", "95% CI", "unparseable",
                                     "technical failure", *(LABELS[m] for m in metrics)]) + " |",
                  "|" + "---|" * (8 + len(metrics)), _row("all", "all", judge["overall"], metrics)]
        for field, cells in judge["breakdowns"].items():
            if all(c["value"] == "" for c in cells):
                continue  # the answers file does not give this field
            lines += [_row(field, c["value"], c, metrics) for c in cells]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- spread and the report


def _stats(values: list[float]) -> dict:
    n = len(values)
    mean = sum(values) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    return {"mean": round(mean, 4), "std": round(std, 4), "min": round(min(values), 4), "max": round(max(values), 4)}


def spread_report(judgements: list) -> dict:
    """How the judge's grades and the similarity scores spread over the same graded answers, and
    over each group's mean: `compression` is similarity std / judge std (below 1: the similarity
    squeezes answers the judge tells apart)."""
    graded = [j for j in judgements if j.grade is not None]
    if not graded:
        return {"n": 0}
    similarities = _similarities(graded)
    metrics = {"judge": [j.grade for j in graded], **{m: [getattr(j, m) for j in graded] for m in similarities}}
    report = {"n": len(graded), "per_answer": {m: _stats(v) for m, v in metrics.items()}}
    judge_std = report["per_answer"]["judge"]["std"]
    report["compression"] = {m: (round(report["per_answer"][m]["std"] / judge_std, 4) if judge_std else None) for m in similarities}
    groups = sorted({j.group for j in graded})
    if len(groups) > 1:
        means = {g: {m: round(sum(getattr(j, "grade" if m == "judge" else m) for j in graded if j.group == g)
                               / sum(1 for j in graded if j.group == g), 4) for m in metrics} for g in groups}
        ranges = {m: round(max(v[m] for v in means.values()) - min(v[m] for v in means.values()), 4) for m in metrics}
        report["groups"] = {"means": means, "range": ranges}
    return report


def report_markdown(summary: dict) -> str:
    lines = ["# Open answers: judge report", "", f"{summary['answers']} answers, {summary['judgements']} judgements: "
             + ", ".join(f"{n} {s}" for s, n in summary["status"].items()), "",
             "Scores with intervals: `scores.json` and `scores.md`.", ""]
    if summary["ungraded"]:
        lines += ["## Not graded (never counted as 0)", ""] + [f"- {u}" for u in summary["ungraded"]] + [""]
    if summary["agreement"]:
        lines += ["## Agreement (quadratic-weighted Cohen's kappa)", "", "| first | second | pairs | kappa | exact % | left out |",
                  "|---|---|---|---|---|---|"]
        for a in summary["agreement"]:
            kappa = "undefined" if a["kappa"] is None else f"{a['kappa']:.3f}"
            exact = "–" if a["exact_pct"] is None else f"{a['exact_pct']:.1f}"
            lines.append(f"| {a['first']} | {a['second']} | {a['n']} | {kappa} | {exact} | {len(a['left_out'])} |")
        lines.append("")
    lines += ["## Judge grade vs similarity", "", "| judge | metric | mean | std | min | max | std / judge std |", "|---|---|---|---|---|---|---|"]
    for name, spread in summary["spread"].items():
        for metric, s in spread.get("per_answer", {}).items():
            ratio = spread["compression"].get(metric) if metric != "judge" else 1.0
            lines.append(f"| {name} | {metric} | {s['mean']} | {s['std']} | {s['min']} | {s['max']} | {'–' if ratio is None else ratio} |")
    spreads = {name: spread["groups"] for name, spread in summary["spread"].items() if "groups" in spread}
    if spreads:
        lines += ["", "## Spread of the group means (max − min over groups)", "", "| judge | metric | range | range / judge range |",
                  "|---|---|---|---|"]
        for name, groups in spreads.items():
            judge_range = groups["range"]["judge"]
            for metric, value in groups["range"].items():
                ratio = round(value / judge_range, 4) if judge_range else None
                lines.append(f"| {name} | {metric} | {value} | {'–' if ratio is None else ratio} |")
    return "\n".join(lines) + "\n"


__all__ = ["BREAKDOWNS", "SCORES_VERSION", "report_markdown", "score_judges", "scores_markdown", "spread_report"]
