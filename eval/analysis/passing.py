"""Would the model pass? Per sheet: the model's points against the exam's pass threshold, beside people.

A sheet is (config, year, session, sheet code). The model's points are the key's points per question
(Question.points, read from the run's own pinned data, checked byte for byte against the pin) times
its share of correct answers over the repeats. Only the questions in the run count: a sheet whose
open tasks are not in the benchmark is judged on its closed part, and the report says how many
points that is. The threshold is a percentage of those points: 50 % unless a thresholds YAML sets
one per config (`default: 50`, `thresholds: {pl_cke_zawodowy: 50, pl_cke_matura: 30}`). The human
result for the sheet's year comes from a human-results table through the same mapping rules as
`eval correlate` (a pass rate for vocational exams, a mean score for school ones).
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import yaml

from eval.analysis.csvcells import csv_writer
from eval.models.naming import model_label
from pipeline.infra import load_yaml

DEFAULT_THRESHOLD = 50.0
DASH = "–"


@dataclass
class SheetResult:
    model: str
    run_id: str
    config: str
    year: int | None
    session: str
    sheet_code: str
    questions: int
    points: float  # the model's
    max_points: float
    threshold_pct: float
    human_metric: str = ""
    human_value: float | None = None

    @property
    def score_pct(self) -> float:
        return 100.0 * self.points / self.max_points if self.max_points else 0.0

    @property
    def passed(self) -> bool:
        return self.max_points > 0 and self.score_pct >= self.threshold_pct


def load_thresholds(path: str | Path | None) -> tuple[float, dict[str, float]]:
    if path is None:
        return DEFAULT_THRESHOLD, {}
    path = Path(path)
    try:
        doc = load_yaml(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: unreadable thresholds ({exc})") from None
    if not isinstance(doc, dict) or not set(doc) <= {"default", "thresholds"}:
        raise ValueError(f"{path}: expected 'default: 50' and 'thresholds: {{CONFIG: PERCENT, ...}}'")
    per_config = doc.get("thresholds") or {}
    values = {"default": doc.get("default", DEFAULT_THRESHOLD), **per_config}
    for key, value in values.items():
        if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value <= 100:
            raise ValueError(f"{path}: threshold for {key!r} must be a percentage in (0, 100], got {value!r}")
    return float(values["default"]), {k: float(v) for k, v in per_config.items()}


def question_points(run: Path, plan: dict) -> dict[str, float]:
    """Points per question id, from the data the run pinned (refused if it changed since)."""
    from eval.dataset.loading import DataError, check_pin, load_data

    pin = plan["plan"]["data_pin"]
    try:
        data = load_data(pin["location"])
        check_pin(data, pin)
    except DataError as exc:
        raise ValueError(f"{run}: the run's data is needed for points per question: {exc}") from None
    return {q.id: float(q.points) if q.points is not None else 1.0 for q in data.questions}


def sheet_results(run: Path, *, default: float = DEFAULT_THRESHOLD, per_config: dict[str, float] | None = None,
           human=None, rules: list[dict] | None = None) -> list[SheetResult]:
    from eval.analysis.correlate import ALL
    from eval.log.scoring import load_matrix

    m = load_matrix(run)
    points = question_points(run, m.plan)
    model = m.plan["plan"]["model"]
    share = m.correct.mean(axis=1)
    by_sheet: dict[tuple, SheetResult] = {}
    people = {(h.exam_type, h.category, h.year): h for h in human or []}
    for i, prompt in enumerate(m.prompts):
        meta = prompt.get("meta", {})
        key = (prompt["config"], meta.get("year"), meta.get("session") or "", meta.get("sheet_code") or "")
        sheet = by_sheet.get(key)
        if sheet is None:
            sheet = by_sheet[key] = SheetResult(model_label(model), run.name, *key, 0, 0.0, 0.0,
                                                (per_config or {}).get(prompt["config"], default))
            rule = next((r for r in rules or [] if all(meta.get(k) == v for k, v in r["match"].items())), None)
            if rule is not None and meta.get("year") is not None:
                # the category's own result, else the exam type's "(all)"
                h = people.get((rule["exam_type"], rule["category"], int(meta["year"]))) or people.get((rule["exam_type"], ALL, int(meta["year"])))
                if h is not None:
                    sheet.human_metric, sheet.human_value = h.metric, h.value
        if prompt["qid"] not in points:
            raise ValueError(f"{run}: question {prompt['qid']} is not in the run's data")
        sheet.questions += 1
        sheet.max_points += points[prompt["qid"]]
        sheet.points += points[prompt["qid"]] * float(share[i])
    return [by_sheet[k] for k in sorted(by_sheet, key=lambda k: tuple("" if x is None else str(x) for x in k))]


def to_csv(results: list[SheetResult]) -> str:
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(["model", "run", "config", "year", "session", "sheet_code", "questions", "points", "max_points",
                     "score_pct", "threshold_pct", "passed", "human_metric", "human_value"])
    for r in results:
        writer.writerow([r.model, r.run_id, r.config, r.year, r.session, r.sheet_code, r.questions, round(r.points, 6),
                         round(r.max_points, 6), round(r.score_pct, 6), r.threshold_pct, "yes" if r.passed else "no",
                         r.human_metric, "" if r.human_value is None else r.human_value])
    return buffer.getvalue()


def to_markdown(results: list[SheetResult]) -> str:
    lines = ["# Would the model pass?", "",
             "Points from the key's points per question, on the questions in the run (closed questions); "
             "threshold as a share of those points.", "",
             "| model | sheet | questions | points | score % | threshold % | passes | human result |",
             "|---|---|---:|---:|---:|---:|---|---|"]
    for r in results:
        human = DASH if r.human_value is None else f"{r.human_value:.2f} ({r.human_metric})"
        sheet = " ".join(str(x) for x in (r.config, r.year, r.session, r.sheet_code) if x not in (None, ""))
        lines.append(f"| {r.model} | {sheet} | {r.questions} | {r.points:.2f} / {r.max_points:.2f} | {r.score_pct:.1f} | "
                     f"{r.threshold_pct:g} | {'yes' if r.passed else 'no'} | {human} |")
    passed = sum(r.passed for r in results)
    lines += ["", f"{passed} of {len(results)} sheet results pass."]
    return "\n".join(lines) + "\n"


def write_passing(results: list[SheetResult], out: Path) -> list[Path]:
    from pipeline.infra import write_text_atomic

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "passing.csv", out / "passing.md"]
    write_text_atomic(written[0], to_csv(results))
    write_text_atomic(written[1], to_markdown(results))
    return written
