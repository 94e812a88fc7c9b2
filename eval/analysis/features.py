"""Which question features go with low scores? Mann-Whitney U tests, ranked by p-value (LLMzSzŁ Table 3).

Each question's score is its share of correct answers, averaged over the given runs (every model and
repeat). For each binary feature the questions with it are compared against those without by a
two-sided Mann-Whitney U test. Features: words that occur in at least `min_count` questions (text and
options, lower-cased), number shapes (any number, a decimal, a percentage, a fraction, a year-like
four-digit number), the domain (exam and subject, one against the rest) and the keyed option's
position (A, B, ... one against the rest). Many features are tested at once, so small p-values are
leads to read, not findings: the report gives the count of tests beside the ranking.
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from eval.analysis.csvcells import csv_writer
from eval.analysis.runset import RunSummary, question_texts

WORD = re.compile(r"[^\W\d_]{3,}")
NUMBER_SHAPES = {
    "a number": re.compile(r"\d"),
    "a decimal number": re.compile(r"\d[.,]\d"),
    "a percentage": re.compile(r"\d\s?%"),
    "a fraction": re.compile(r"\d\s?/\s?\d"),
    "a four-digit number": re.compile(r"(?<!\d)\d{4}(?!\d)"),
}


@dataclass
class FeatureTest:
    feature: str
    kind: str  # word | number | domain | key position
    n_with: int
    n_without: int
    mean_with: float
    mean_without: float
    u: float
    p: float


@dataclass
class QuestionScore:
    qid: str
    text: str
    domain: str
    key_position: str
    score: float


def question_scores(runs: list[RunSummary]) -> list[QuestionScore]:
    from eval.log.scoring import load_matrix

    sums: dict[str, list[float]] = {}
    info: dict[str, tuple[str, str, str]] = {}
    for r in runs:
        m = load_matrix(r.path)
        texts = question_texts(r.path)
        for i, p in enumerate(m.prompts):
            sums.setdefault(p["qid"], []).append(float(m.correct[i].mean()))
            question, options = texts.get(p["qid"], ("", []))
            meta = p.get("meta", {})
            info[p["qid"]] = (" ".join([question, *options]), f"{meta.get('exam')}/{meta.get('subject')}", p["answer"])
    return [QuestionScore(q, *info[q], float(np.mean(v))) for q, v in sorted(sums.items())]


def _features(q: QuestionScore, words: set[str]) -> set[tuple[str, str]]:
    found = {("word", w) for w in set(WORD.findall(q.text.lower())) if w in words}
    found |= {("number", name) for name, pattern in NUMBER_SHAPES.items() if pattern.search(q.text)}
    return found | {("domain", q.domain), ("key position", q.key_position)}


def feature_tests(questions: list[QuestionScore], *, min_count: int = 5) -> list[FeatureTest]:
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        raise ValueError("the feature analysis needs scipy: pip install 'examcorpus[analysis]'") from None
    counts: dict[str, int] = {}
    for q in questions:
        for w in set(WORD.findall(q.text.lower())):
            counts[w] = counts.get(w, 0) + 1
    words = {w for w, c in counts.items() if c >= min_count}
    having = [_features(q, words) for q in questions]
    scores = np.array([q.score for q in questions])
    tests = []
    for kind, name in sorted(set().union(*having)) if having else []:
        mask = np.array([(kind, name) in h for h in having])
        if mask.all() or not mask.any():
            continue  # a feature every question has (or none) separates nothing
        u, p = mannwhitneyu(scores[mask], scores[~mask], alternative="two-sided")
        tests.append(FeatureTest(name, kind, int(mask.sum()), int((~mask).sum()), float(scores[mask].mean()),
                                 float(scores[~mask].mean()), float(u), float(p)))
    tests.sort(key=lambda t: (t.p, t.kind, t.feature))
    return tests


def to_csv(tests: list[FeatureTest]) -> str:
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(["rank", "feature", "kind", "n_with", "n_without", "mean_with_pct", "mean_without_pct", "u", "p"])
    for rank, t in enumerate(tests, 1):
        writer.writerow([rank, t.feature, t.kind, t.n_with, t.n_without, round(100 * t.mean_with, 6),
                         round(100 * t.mean_without, 6), t.u, repr(t.p)])
    return buffer.getvalue()


def to_markdown(tests: list[FeatureTest], *, n_questions: int, models: list[str], top: int = 30) -> str:
    lines = ["# Question features and scores (Mann-Whitney U)", "",
             f"{n_questions} questions, scored by {', '.join(models)}; {len(tests)} features tested, "
             f"so about {0.05 * len(tests):.1f} would reach p < 0.05 by chance alone.", "",
             "| rank | feature | kind | with | without | mean % with | mean % without | U | p |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {i} | {t.feature} | {t.kind} | {t.n_with} | {t.n_without} | {100 * t.mean_with:.1f} | "
              f"{100 * t.mean_without:.1f} | {t.u:g} | {t.p:.3g} |" for i, t in enumerate(tests[:top], 1)]
    return "\n".join(lines) + "\n"


def write_features(tests: list[FeatureTest], out: Path, *, n_questions: int, models: list[str]) -> list[Path]:
    from pipeline.infra import write_text_atomic

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "features.csv", out / "features.md"]
    write_text_atomic(written[0], to_csv(tests))
    write_text_atomic(written[1], to_markdown(tests, n_questions=n_questions, models=models))
    return written
