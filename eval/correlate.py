"""Legacy pooled correlation (`eval correlate --llmzszl` / `--run`): one coefficient per human metric.

Pooling exam types mixes difficulty levels, so the paper's per-exam results cannot come out of it; use
`eval correlate --scores ... --out DIR` (eval.analysis.correlate), which correlates per exam type and category.

Human results (eval/data/cke_human_results_2015_2023.csv) are CKE's published mean scores (school
exams) and pass rates (vocational exams) per exam type, category and year; the LLMzSzŁ paper's model
accuracies on the same grid ship alongside (eval/data/llmzszl_model_accuracy_by_year.csv). A run is
placed on that grid by a small YAML mapping from its questions' exam/subject to CKE's exam type and
category. Each human metric is correlated on its own (mean scores and pass rates are different
scales), and "(all)" rows are left out unless asked for, since they repeat their categories.
"""
from __future__ import annotations

import csv
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from eval.analysis import rankdata  # noqa: F401  (re-exported for old callers)

DATA = Path(__file__).parent / "data"
HUMAN_CSV = DATA / "cke_human_results_2015_2023.csv"
LLMZSZL_CSV = DATA / "llmzszl_model_accuracy_by_year.csv"
ALL = "(all)"


@dataclass
class Correlation:
    model: str
    human_metric: str
    n_points: int
    pearson: float | None
    spearman: float | None
    points: list[dict] = field(default_factory=list)
    note: str = ""

    def to_dict(self) -> dict:
        return asdict(self)


def _read_csv(path: Path) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def human_results(path: Path = HUMAN_CSV) -> dict[tuple[int, str, str], tuple[str, float]]:
    out = {}
    for row in _read_csv(path):
        out[(int(row["year"]), row["exam_type"], row["category"])] = (row["human_metric"], float(row["value"]))
    return out


def pearson(x: np.ndarray, y: np.ndarray) -> float | None:
    if len(x) < 3 or np.std(x) == 0 or np.std(y) == 0:
        return None
    return float(np.corrcoef(x, y)[0, 1])


def spearman(x: np.ndarray, y: np.ndarray) -> float | None:
    return pearson(rankdata(np.asarray(x)), rankdata(np.asarray(y))) if len(x) >= 3 else None


def correlate_points(model: str, accuracy: dict[tuple[int, str, str], float], *, category: str | None,
                     human: dict | None = None) -> list[Correlation]:
    human = human if human is not None else human_results()
    by_metric: dict[str, list[dict]] = {}
    for key, acc in sorted(accuracy.items()):
        year, exam_type, cat = key
        if (category is None and cat == ALL) or (category is not None and cat != category):
            continue
        if key not in human:
            continue
        metric, value = human[key]
        by_metric.setdefault(metric, []).append(
            {"year": year, "exam_type": exam_type, "category": cat, "human_value": value, "model_accuracy_pct": acc})
    results = []
    for metric, points in sorted(by_metric.items()):
        x = np.array([p["human_value"] for p in points])
        y = np.array([p["model_accuracy_pct"] for p in points])
        r, rho = pearson(x, y), spearman(x, y)
        note = "" if r is not None else "fewer than 3 points, or no variation: no correlation"
        results.append(Correlation(model, metric, len(points), r, rho, points, note))
    if not results:
        results.append(Correlation(model, "-", 0, None, None, [], "no exam-year matches the human results"))
    return results


def correlate_llmzszl(model: str, *, category: str | None = None, path: Path = LLMZSZL_CSV) -> list[Correlation]:
    rows = _read_csv(path)
    models = sorted({r["model"] for r in rows})
    wanted = models if model == "all" else [model]
    unknown = [m for m in wanted if m not in models]
    if unknown:
        raise ValueError(f"{path}: no model {unknown[0]!r}; known: {', '.join(models)}")
    results = []
    for name in wanted:
        accuracy = {(int(r["year"]), r["exam_type"], r["category"]): float(r["accuracy_pct"]) for r in rows if r["model"] == name}
        results += correlate_points(name, accuracy, category=category)
    return results


def run_accuracy_by_exam_year(run: Path, mapping: Path) -> tuple[str, dict[tuple[int, str, str], float]]:
    """Accuracy (%) of a run per (year, CKE exam type, CKE category), via the mapping's rules."""
    from eval.analysis import load_mapping, run_scores

    points = run_scores(run, load_mapping(mapping))
    model = points[0].model if points else "-"
    return model, {(p.year, p.exam_type, p.category): p.accuracy_pct for p in points}


def correlate_run(run: Path, mapping: Path, *, category: str | None = None) -> Correlation:
    model, accuracy = run_accuracy_by_exam_year(run, mapping)
    results = correlate_points(model, accuracy, category=category)
    return max(results, key=lambda r: r.n_points)
