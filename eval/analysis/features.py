"""Which question features go with low scores? Mann-Whitney U tests, ranked by p-value (LLMzSzŁ Table 3).

Each question's score is its share of correct answers, averaged over the given runs (every model and
repeat). For each binary feature the questions with it are compared against those without by a
two-sided Mann-Whitney U test. Features: words that occur in at least `min_count` questions (text and
options, lower-cased), number shapes (any number, a decimal, a percentage, a fraction, a year-like
four-digit number), the domain (exam and subject, one against the rest) and the keyed option's
position (A, B, ... one against the rest). Many features are tested at once, so small p-values are
leads to read, not findings: the report gives the count of tests beside the ranking.

The report is handed on like the key-errors report, and its words are the questions' own: words are counted over the
questions whose text may be shown, so a question scored on the private split gives none (its score still counts
in every test) unless `private_text`; a report listing words of questions not of the public split says so in its
first lines, in each word's `text_split` and on the terminal (`privacy_note`).
"""
from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from eval.analysis.csvcells import csv_writer
from eval.analysis.quality import PRIVATE_SPLIT, PUBLIC_SPLIT, privacy_rank
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
    text_split: str = ""  # a word's: the most private split of the questions it was counted from


@dataclass
class QuestionScore:
    qid: str
    text: str
    domain: str
    key_position: str
    score: float
    split: str = "unknown"  # the most private split of the runs that scored it (eval.data)


@dataclass
class Vocabulary:
    """The words tested, each with the most private split of the questions it was counted from, and the questions
    of the private split whose words were left out."""

    words: dict[str, str]
    withheld: int


def question_scores(runs: list[RunSummary]) -> list[QuestionScore]:
    from eval.log.scoring import load_matrix

    sums: dict[str, list[float]] = {}
    info: dict[str, tuple[str, str, str]] = {}
    splits: dict[str, str] = {}
    for r in runs:
        m = load_matrix(r.path)
        texts = question_texts(r.path)
        for i, p in enumerate(m.prompts):
            sums.setdefault(p["qid"], []).append(float(m.correct[i].mean()))
            question, options = texts.get(p["qid"], ("", []))
            meta = p.get("meta", {})
            info[p["qid"]] = (" ".join([question, *options]), f"{meta.get('exam')}/{meta.get('subject')}", p["answer"])
            splits[p["qid"]] = max(splits.get(p["qid"], PUBLIC_SPLIT), r.split, key=privacy_rank)
    return [QuestionScore(q, *info[q], float(np.mean(v)), splits[q]) for q, v in sorted(sums.items())]


def vocabulary(questions: list[QuestionScore], *, min_count: int = 5, private_text: bool = False) -> Vocabulary:
    """The words found in `min_count` questions or more, counted over the questions whose text may be shown."""
    counts: dict[str, int] = {}
    split_of: dict[str, str] = {}
    withheld = 0
    for q in questions:
        if q.split == PRIVATE_SPLIT and not private_text:
            withheld += 1
            continue
        for w in set(WORD.findall(q.text.lower())):
            counts[w] = counts.get(w, 0) + 1
            split_of[w] = max(split_of.get(w, PUBLIC_SPLIT), q.split, key=privacy_rank)
    return Vocabulary({w: split_of[w] for w, c in counts.items() if c >= min_count}, withheld)


def _features(q: QuestionScore, words: set[str]) -> set[tuple[str, str]]:
    found = {("word", w) for w in set(WORD.findall(q.text.lower())) if w in words}
    found |= {("number", name) for name, pattern in NUMBER_SHAPES.items() if pattern.search(q.text)}
    return found | {("domain", q.domain), ("key position", q.key_position)}


def feature_tests(questions: list[QuestionScore], *, min_count: int = 5,
                  words: Vocabulary | None = None) -> list[FeatureTest]:
    """`words`: the vocabulary tested (`vocabulary`); by default every question's words."""
    try:
        from scipy.stats import mannwhitneyu
    except ImportError:
        raise ValueError("the feature analysis needs scipy: pip install 'examcorpus[analysis]'") from None
    tested = words if words is not None else vocabulary(questions, min_count=min_count, private_text=True)
    having = [_features(q, set(tested.words)) for q in questions]
    scores = np.array([q.score for q in questions])
    tests = []
    for kind, name in sorted(set().union(*having)) if having else []:
        mask = np.array([(kind, name) in h for h in having])
        if mask.all() or not mask.any():
            continue  # a feature every question has (or none) separates nothing
        u, p = mannwhitneyu(scores[mask], scores[~mask], alternative="two-sided")
        tests.append(FeatureTest(name, kind, int(mask.sum()), int((~mask).sum()), float(scores[mask].mean()),
                                 float(scores[~mask].mean()), float(u), float(p),
                                 tested.words.get(name, "") if kind == "word" else ""))
    tests.sort(key=lambda t: (t.p, t.kind, t.feature))
    return tests


def to_csv(tests: list[FeatureTest]) -> str:
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(["rank", "feature", "kind", "n_with", "n_without", "mean_with_pct", "mean_without_pct", "u", "p",
                     "text_split"])
    for rank, t in enumerate(tests, 1):
        writer.writerow([rank, t.feature, t.kind, t.n_with, t.n_without, round(100 * t.mean_with, 6),
                         round(100 * t.mean_without, 6), t.u, repr(t.p), t.text_split])
    return buffer.getvalue()


def privacy_note(tests: list[FeatureTest], questions: list[QuestionScore], words: Vocabulary) -> str:
    """What of the report is not public, in words; empty where every word listed is of public questions only."""
    shown = {t.text_split for t in tests if t.kind == "word"} - {PUBLIC_SPLIT}
    notes = []
    if shown:
        counted = sum(q.split != PUBLIC_SPLIT for q in questions) - words.withheld  # the words of these were counted
        notes.append(f"NOT PUBLIC: this report lists words of {counted} question(s) not of the public split "
                     f"(split {', '.join(sorted(shown))}): keep it with the private data, do not publish it.")
    if words.withheld:
        notes.append(f"The words of {words.withheld} question(s) of the private split are left out (their scores count "
                     f"in every test; `--private-text` lists their words, and the report then says so).")
    return " ".join(notes)


def to_markdown(tests: list[FeatureTest], *, n_questions: int, models: list[str], top: int = 30, note: str = "") -> str:
    lines = ["# Question features and scores (Mann-Whitney U)", "",
             *([f"**{note}**", ""] if note else []),
             f"{n_questions} questions, scored by {', '.join(models)}; {len(tests)} features tested, "
             f"so about {0.05 * len(tests):.1f} would reach p < 0.05 by chance alone.", "",
             "| rank | feature | kind | with | without | mean % with | mean % without | U | p |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|"]
    lines += [f"| {i} | {t.feature} | {t.kind} | {t.n_with} | {t.n_without} | {100 * t.mean_with:.1f} | "
              f"{100 * t.mean_without:.1f} | {t.u:g} | {t.p:.3g} |" for i, t in enumerate(tests[:top], 1)]
    return "\n".join(lines) + "\n"


def write_features(tests: list[FeatureTest], out: Path, *, n_questions: int, models: list[str],
                   note: str = "") -> list[Path]:
    from pipeline.infra import write_text_atomic

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "features.csv", out / "features.md"]
    write_text_atomic(written[0], to_csv(tests))
    write_text_atomic(written[1], to_markdown(tests, n_questions=n_questions, models=models, note=note))
    return written
