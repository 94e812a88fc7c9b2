"""Model accuracy against human exam results, year by year, per exam type and per category.

Scores are points (model, exam type, category, year, accuracy %), read from a table like
eval/data/llmzszl_model_accuracy_by_year.csv or from run folders placed on the CKE grid by a YAML
mapping. Human results are (exam type, category, year, metric, value) like
eval/data/cke_human_results_2015_2023.csv: mean scores for school exams, pass rates for vocational
ones. Each (model, exam type) is correlated over the years of its "(all)" rows, and each
(model, exam type, category) over that category's years: exam types are never pooled, because a
mean score and a pass rate are different scales and the exams differ in difficulty level.
"""
from __future__ import annotations

import csv
import math
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import yaml

from eval.analysis.csvcells import csv_writer
from eval.analysis import pvalues
from pipeline.infra import load_yaml

DATA = Path(__file__).resolve().parent.parent / "data"
HUMAN_CSV = DATA / "cke_human_results_2015_2023.csv"
LLMZSZL_CSV = DATA / "llmzszl_model_accuracy_by_year.csv"
ALL = "(all)"
MIN_POINTS = 3
# Below this many years a coefficient is read as description, not evidence (the report says how large
# r must be at each n to reach p < 0.05).
SMALL_N = 10
CSV_COLUMNS = ["model", "exam_type", "category", "n", "pearson_r", "pearson_p", "spearman_rho", "spearman_p",
               "pearson_p_holm", "pearson_q_bh", "spearman_p_holm", "spearman_q_bh"]
SCORE_COLUMNS = ("year", "exam_type", "category", "model", "accuracy_pct")
HUMAN_COLUMNS = ("year", "exam_type", "category", "human_metric", "value")


@dataclass(frozen=True)
class ScorePoint:
    model: str
    exam_type: str
    category: str
    year: int
    accuracy_pct: float


@dataclass(frozen=True)
class HumanPoint:
    exam_type: str
    category: str
    year: int
    metric: str
    value: float


@dataclass
class Correlation:
    """One row of correlations.csv, with what the report needs to explain it."""

    model: str
    exam_type: str
    category: str  # "" for the whole exam type (its "(all)" rows)
    n: int
    pearson_r: float | None
    pearson_p: float | None
    spearman_rho: float | None
    spearman_p: float | None
    human_metric: str = ""
    years: list[int] = field(default_factory=list)
    model_only_years: list[int] = field(default_factory=list)  # dropped: no human result that year
    human_only_years: list[int] = field(default_factory=list)  # dropped: no model score that year
    reason: str = ""  # why there is no coefficient
    # Adjusted over every coefficient of its kind in the same table (eval.analysis.pvalues).
    pearson_p_holm: float | None = None
    pearson_q_bh: float | None = None
    spearman_p_holm: float | None = None
    spearman_q_bh: float | None = None

    @property
    def small_n(self) -> bool:
        return self.pearson_r is not None and self.n < SMALL_N

    @property
    def dropped(self) -> int:
        return len(self.model_only_years) + len(self.human_only_years)

    def to_dict(self) -> dict:
        return asdict(self)


def _read_table(path: Path, columns: tuple[str, ...]) -> list[tuple[int, dict]]:
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in columns if c not in (reader.fieldnames or [])]
            if missing:
                raise ValueError(f"{path}: missing column(s) {', '.join(missing)}; expected {', '.join(columns)}")
            return [(number, row) for number, row in enumerate(reader, 2)]
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"{path}: unreadable ({exc})") from None


def _number(path: Path, line: int, row: dict, column: str, kind=float):
    try:
        value = kind(row[column])
    except (TypeError, ValueError):
        raise ValueError(f"{path}:{line}: {column} {row[column]!r} is not a number") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"{path}:{line}: {column} {row[column]!r} is not a finite number")
    return value


def read_scores_table(path: str | Path) -> list[ScorePoint]:
    path = Path(path)
    points = []
    for line, row in _read_table(path, SCORE_COLUMNS):
        points.append(ScorePoint(row["model"], row["exam_type"], row["category"], _number(path, line, row, "year", int),
                                 _number(path, line, row, "accuracy_pct")))
    _no_duplicates(path, [(p.model, p.exam_type, p.category, p.year) for p in points])
    return points


def read_human_table(path: str | Path = HUMAN_CSV) -> list[HumanPoint]:
    path = Path(path)
    points = []
    for line, row in _read_table(path, HUMAN_COLUMNS):
        points.append(HumanPoint(row["exam_type"], row["category"], _number(path, line, row, "year", int),
                                 row["human_metric"], _number(path, line, row, "value")))
    _no_duplicates(path, [(p.exam_type, p.category, p.year) for p in points])
    return points


def _no_duplicates(path: Path, keys: list[tuple]) -> None:
    seen = set()
    for key in keys:
        if key in seen:
            raise ValueError(f"{path}: {' / '.join(map(str, key))} appears twice")
        seen.add(key)


def load_mapping(path: str | Path) -> list[dict]:
    """Rules `{match: {exam: ..., subject: ...}, exam_type: ..., category: ...}`: the first that matches wins."""
    path = Path(path)
    try:
        rules = (load_yaml(path.read_text(encoding="utf-8")) or {}).get("rules")
    except (OSError, yaml.YAMLError, AttributeError) as exc:
        raise ValueError(f"{path}: unreadable mapping ({exc})") from None
    if not isinstance(rules, list) or not rules:
        raise ValueError(f"{path}: expected 'rules: [{{match: {{exam: ..., subject: ...}}, exam_type: ..., category: ...}}]'")
    for i, rule in enumerate(rules):
        if not isinstance(rule, dict) or not {"match", "exam_type", "category"} <= set(rule) or not isinstance(rule["match"], dict):
            raise ValueError(f"{path}: rule {i + 1} needs match (a mapping), exam_type and category")
    return rules


def run_scores(run: str | Path, rules: list[dict]) -> list[ScorePoint]:
    """A run's accuracy (%) per (year, exam type, category), and per (year, exam type, "(all)")."""
    from eval.log.scoring import load_matrix

    m = load_matrix(run)
    per_question = m.correct.mean(axis=1)
    cells: dict[tuple[int, str, str], list[float]] = {}
    for i, prompt in enumerate(m.prompts):
        meta = prompt.get("meta", {})
        rule = next((r for r in rules if all(meta.get(k) == v for k, v in r["match"].items())), None)
        if rule is None or meta.get("year") is None:
            continue
        for category in {rule["category"], ALL}:
            cells.setdefault((int(meta["year"]), rule["exam_type"], category), []).append(per_question[i])
    model = m.plan["plan"]["model"]
    name = f"{model['backend']}:{model['name']}"
    return [ScorePoint(name, exam_type, category, year, float(np.mean(v) * 100))
            for (year, exam_type, category), v in sorted(cells.items())]


def load_scores(sources: list[str | Path], mapping: str | Path | None = None) -> list[ScorePoint]:
    """Score points from tables (CSV) and run folders (a folder with plan.json; needs a mapping)."""
    points: list[ScorePoint] = []
    rules = None
    for source in map(Path, sources):
        if source.is_dir():
            if mapping is None:
                raise ValueError(f"{source}: a run folder needs --mapping (its exams to CKE exam types and categories)")
            if not (source / "plan.json").exists():
                raise ValueError(f"{source}: not a run folder (no plan.json)")
            rules = rules or load_mapping(mapping)
            points += run_scores(source, rules)
        elif source.is_file():
            points += read_scores_table(source)
        else:
            raise ValueError(f"{source}: no such file or run folder")
    _no_duplicates(Path(", ".join(map(str, sources))), [(p.model, p.exam_type, p.category, p.year) for p in points])
    return points


def rankdata(x: np.ndarray) -> np.ndarray:
    """Ranks 1..n with ties given their average rank (as Spearman's rho needs)."""
    order = np.argsort(x, kind="mergesort")
    ranks = np.empty(len(x), dtype=np.float64)
    ranks[order] = np.arange(1, len(x) + 1)
    _, inverse = np.unique(x, return_inverse=True)
    return (np.bincount(inverse, weights=ranks) / np.bincount(inverse))[inverse]


def _r_and_p(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Product-moment r and its two-sided p under H0: rho = 0 (t with n - 2 degrees of freedom)."""
    try:
        from scipy.special import stdtr  # Student's t CDF
    except ImportError:
        raise ValueError("p-values need scipy: pip install 'examcorpus[analysis]'") from None
    r = float(np.clip(np.corrcoef(x, y)[0, 1], -1.0, 1.0))
    df = len(x) - 2
    if abs(r) > 1.0 - 1e-12:  # a perfect (rank) order, up to float rounding
        return math.copysign(1.0, r), 0.0
    t = r * math.sqrt(df / (1.0 - r * r))
    return r, float(2 * stdtr(df, -abs(t)))


def correlate_series(model: str, exam_type: str, category: str, scores: dict[int, float],
                     human: dict[int, HumanPoint]) -> Correlation:
    years = sorted(set(scores) & set(human))
    metrics = sorted({human[y].metric for y in years})
    row = Correlation(model, exam_type, "" if category == ALL else category, len(years), None, None, None, None,
                      human_metric="/".join(metrics), years=years,
                      model_only_years=sorted(set(scores) - set(human)), human_only_years=sorted(set(human) - set(scores)))
    if len(metrics) > 1:
        row.reason = f"human results mix metrics ({', '.join(metrics)}): not one scale"
        return row
    if len(years) < MIN_POINTS:
        row.reason = f"only {len(years)} year(s) with both a model score and a human result; need {MIN_POINTS}"
        return row
    x = np.array([human[y].value for y in years])
    y = np.array([scores[y] for y in years])
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        row.reason = "no variation on one side: a correlation is undefined"
        return row
    row.pearson_r, row.pearson_p = _r_and_p(x, y)
    row.spearman_rho, row.spearman_p = _r_and_p(rankdata(x), rankdata(y))
    return row


def correlate_scores(scores: list[ScorePoint], human: list[HumanPoint]) -> list[Correlation]:
    """One row per model × exam type (its "(all)" rows), then one per model × exam type × category."""
    human_by: dict[tuple[str, str], dict[int, HumanPoint]] = {}
    for h in human:
        human_by.setdefault((h.exam_type, h.category), {})[h.year] = h
    score_by: dict[tuple[str, str, str], dict[int, float]] = {}
    for s in scores:
        score_by.setdefault((s.model, s.exam_type, s.category), {})[s.year] = s.accuracy_pct
    rows = []
    for model in sorted({s.model for s in scores}):
        exam_types = sorted({e for (m, e, _) in score_by if m == model})
        for exam_type in exam_types:
            categories = sorted({c for (m, e, c) in score_by if m == model and e == exam_type} - {ALL})
            for category in [ALL, *categories]:
                rows.append(correlate_series(model, exam_type, category, score_by.get((model, exam_type, category), {}),
                                             human_by.get((exam_type, category), {})))
    adjust_for_multiple_comparisons(rows)
    return rows


def adjust_for_multiple_comparisons(rows: list[Correlation]) -> None:
    """Holm and Benjamini-Hochberg over every Pearson p-value of the table, and apart over every
    Spearman one: the family is all that is reported together."""
    for kind in ("pearson", "spearman"):
        tested = [r for r in rows if getattr(r, f"{kind}_p") is not None]
        p = [getattr(r, f"{kind}_p") for r in tested]
        for row, holm_p, bh_q in zip(tested, pvalues.holm(p), pvalues.benjamini_hochberg(p)):
            setattr(row, f"{kind}_p_holm", holm_p)
            setattr(row, f"{kind}_q_bh", bh_q)


def _cell(value: float | None) -> str:
    # ten significant digits: enough for any check, and small p-values keep their size
    return "" if value is None else format(value, ".10g")


def correlations_csv(rows: list[Correlation]) -> str:
    import io

    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(CSV_COLUMNS)
    for r in rows:
        writer.writerow([r.model, r.exam_type, r.category, r.n, _cell(r.pearson_r), _cell(r.pearson_p),
                         _cell(r.spearman_rho), _cell(r.spearman_p), _cell(r.pearson_p_holm), _cell(r.pearson_q_bh),
                         _cell(r.spearman_p_holm), _cell(r.spearman_q_bh)])
    return buffer.getvalue()


def _fmt(value: float | None, spec: str = "+.3f") -> str:
    return "–" if value is None else format(value, spec)


def caveats(rows: list[Correlation], alpha: float = 0.05) -> list[str]:
    """How to read the p-values: how many tests, how many survive the adjustment, and which rest on few years."""
    tested = [r for r in rows if r.pearson_p is not None]
    if not tested:
        return []
    m = len(tested)
    raw = sum(r.pearson_p < alpha for r in tested)
    holm = sum(r.pearson_p_holm is not None and r.pearson_p_holm < alpha for r in tested)
    bh = sum(r.pearson_q_bh is not None and r.pearson_q_bh < alpha for r in tested)
    lines = [f"{m} correlations with a coefficient: each p-value is adjusted for the {m} tests of this table "
             "(Holm: family-wise error; Benjamini-Hochberg q: false discovery rate; Spearman's apart).",
             f"Pearson p < {alpha:g}: {raw} unadjusted, {holm} after Holm, {bh} with BH q < {alpha:g} "
             f"(with no real correlation at all, about {alpha * m:.1f} would pass unadjusted by chance)."]
    small = sorted(r.n for r in tested if r.small_n)
    if small:
        low, high = small[0], small[-1]
        at = f"{pvalues.critical_r(low):.2f} at n = {low}" + (f", {pvalues.critical_r(high):.2f} at n = {high}" if high != low else "")
        lines.append(f"warning: {len(small)} of {m} rest on fewer than {SMALL_N} years (n = {low}" + (f"–{high}" if high != low else "")
                     + f"); |r| must exceed {at} for p < {alpha:g} before any adjustment: read them as descriptive.")
    return lines


def report_markdown(rows: list[Correlation], *, scores_sources: list[str], human_source: str, plots: list[Path]) -> str:
    lines = ["# Model accuracy vs human results", "",
             f"Scores: {', '.join(scores_sources)}  ", f"Human results: {human_source}", "",
             "Each exam type is correlated over the years of its \"(all)\" rows; each category over its own years. "
             f"Years with a result on only one side are dropped and counted; fewer than {MIN_POINTS} years give no coefficient.", "",
             "| model | exam type | category | human metric | n | Pearson r | p | p Holm | q BH | Spearman ρ | p | p Holm | q BH | "
             "dropped years | note |",
             "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for r in rows:
        dropped = []
        if r.model_only_years:
            dropped.append(f"no human result: {', '.join(map(str, r.model_only_years))}")
        if r.human_only_years:
            dropped.append(f"no model score: {', '.join(map(str, r.human_only_years))}")
        lines.append(f"| {r.model} | {r.exam_type} | {r.category or '(all)'} | {r.human_metric or '–'} | {r.n} | "
                     f"{_fmt(r.pearson_r)} | {_fmt(r.pearson_p, '.3g')} | {_fmt(r.pearson_p_holm, '.3g')} | {_fmt(r.pearson_q_bh, '.3g')} | "
                     f"{_fmt(r.spearman_rho)} | {_fmt(r.spearman_p, '.3g')} | {_fmt(r.spearman_p_holm, '.3g')} | "
                     f"{_fmt(r.spearman_q_bh, '.3g')} | {r.dropped}{' (' + '; '.join(dropped) + ')' if dropped else ''} | "
                     f"{r.reason or ('few years' if r.small_n else '')} |")
    total = sum(r.dropped for r in rows)
    lines += ["", f"{len(rows)} correlations, {sum(r.pearson_r is not None for r in rows)} with a coefficient; "
                  f"{total} year(s) dropped in all for a missing side."]
    lines += [""] + [f"{line}  " for line in caveats(rows)]
    if plots:
        lines += ["", "## Plots", ""] + [f"- [{p.name}](plots/{p.name})" for p in plots]
    return "\n".join(lines) + "\n"


def write_correlation_outputs(rows: list[Correlation], scores: list[ScorePoint], human: list[HumanPoint], out: Path, *,
                              scores_sources: list[str], human_source: str, plots: bool = True) -> list[Path]:
    """DIR/correlations.csv, DIR/report.md, DIR/plots/*.png|svg; returns every file written."""
    from pipeline.infra import write_text_atomic

    from eval.analysis import plots as plotting

    out.mkdir(parents=True, exist_ok=True)
    drawn = plotting.correlation_plots(scores, human, out / "plots") if plots else []
    written = [out / "correlations.csv", out / "report.md"]
    write_text_atomic(written[0], correlations_csv(rows))
    write_text_atomic(written[1], report_markdown(rows, scores_sources=scores_sources, human_source=human_source, plots=drawn))
    return written + drawn
