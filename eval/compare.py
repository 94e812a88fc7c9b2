"""Comparing two aligned score sets: two models on the same questions, or two languages of them.

Alignment is checked before anything is computed: the same questions on both sides (by id, or by
other prompt metadata fields such as year,session,number for parallel language versions), the same
answer key (by option position, since labels may be α/β in one language and A/B in the other) and
the same number of options. A mismatch refuses the comparison and says why.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from eval import stats
from eval.scoring import RunMatrix, load_matrix


class AlignmentError(ValueError):
    pass


@dataclass(frozen=True)
class Side:
    run: Path
    config: str | None = None
    language: str | None = None

    @classmethod
    def parse(cls, run: str | Path, group: str | None) -> Side:
        """group is CONFIG/LANG, CONFIG, or /LANG."""
        if not group:
            return cls(Path(run))
        config, _, language = group.partition("/")
        return cls(Path(run), config or None, language or None)

    def label(self, matrix: RunMatrix) -> str:
        model = matrix.plan["plan"]["model"]
        where = "/".join(x for x in (self.config, self.language) if x)
        return f"{model['backend']}:{model['name']}" + (f" [{where}]" if where else "")


def _key(prompt: dict, fields: tuple[str, ...]) -> tuple:
    if fields == ("id",):
        return (prompt["qid"],)
    meta = prompt.get("meta", {})
    return tuple(meta.get(f) for f in fields)


def align(a: RunMatrix, sa: Side, b: RunMatrix, sb: Side, on: tuple[str, ...] = ("id",)) -> tuple[np.ndarray, np.ndarray, list[tuple]]:
    """Row indices into a and b, paired, after checking the two sides hold the same questions."""
    problems: list[str] = []
    sides = []
    for name, m, side in (("A", a, sa), ("B", b, sb)):
        rows = m.rows(side.config, side.language)
        if rows.size == 0:
            raise AlignmentError(f"side {name} ({side.run}) has no questions for config={side.config} language={side.language}")
        keyed: dict[tuple, int] = {}
        for i in rows:
            k = _key(m.prompts[i], on)
            if k in keyed:
                raise AlignmentError(f"side {name}: key {on}={k} is not unique ({m.prompts[keyed[k]]['qid']} and {m.prompts[i]['qid']})")
            keyed[k] = int(i)
        missing = int((m.statuses[rows] == "missing").sum() + (m.statuses[rows] == "missing_after_technical_failure").sum())
        if missing:
            raise AlignmentError(f"side {name} ({side.run}) has {missing} missing answers; finish the run before comparing")
        sides.append(keyed)
    ka, kb = sides
    only_a, only_b = sorted(set(ka) - set(kb)), sorted(set(kb) - set(ka))
    if only_a or only_b:
        problems.append(
            f"different questions: {len(only_a)} only in A (e.g. {only_a[:3]}), {len(only_b)} only in B (e.g. {only_b[:3]})"
        )
    keys = sorted(set(ka) & set(kb))
    for k in keys:
        pa, pb = a.prompts[ka[k]], b.prompts[kb[k]]
        if len(pa["labels"]) != len(pb["labels"]):
            problems.append(f"{k}: {len(pa['labels'])} options in A, {len(pb['labels'])} in B")
        elif pa["labels"].index(pa["answer"]) != pb["labels"].index(pb["answer"]):
            problems.append(f"{k}: answer key differs (A: {pa['answer']}, B: {pb['answer']})")
    if problems:
        shown = problems[:10] + ([f"... and {len(problems) - 10} more"] if len(problems) > 10 else [])
        raise AlignmentError("runs are not aligned, comparison refused:\n" + "\n".join(f"  - {p}" for p in shown))
    return np.array([ka[k] for k in keys]), np.array([kb[k] for k in keys]), keys


def compare(
    side_a: Side,
    side_b: Side,
    *,
    on: tuple[str, ...] = ("id",),
    resamples: int = stats.DEFAULT_RESAMPLES,
    seed: int = stats.DEFAULT_SEED,
) -> dict:
    a, b = load_matrix(side_a.run), load_matrix(side_b.run)
    rows_a, rows_b, _ = align(a, side_a, b, side_b, on)
    ca, cb = a.correct[rows_a], b.correct[rows_b]
    gap = stats.paired_gap_interval(ca, cb, resamples=resamples, seed=seed)
    acc_a = stats.per_question_means(ca).mean() * 100
    acc_b = stats.per_question_means(cb).mean() * 100
    return {
        "a": {"run": str(side_a.run), "label": side_a.label(a), "config": side_a.config, "language": side_a.language,
              "accuracy_pct": round(float(acc_a), 10), "repeats": int(ca.shape[1])},
        "b": {"run": str(side_b.run), "label": side_b.label(b), "config": side_b.config, "language": side_b.language,
              "accuracy_pct": round(float(acc_b), 10), "repeats": int(cb.shape[1])},
        "aligned_on": list(on),
        "gap_pp": gap.estimate_pp,
        "ci_low": gap.ci_low,
        "ci_high": gap.ci_high,
        "confidence": gap.confidence,
        "n_questions": gap.n_questions,
        "seed": gap.seed,
        "resamples": gap.resamples,
        "method": "paired percentile bootstrap over unique question ids; each question's pair and repeats kept together",
    }
