"""Comparing two aligned score sets: two models on the same questions, or two languages of them.

Alignment is checked before anything is computed: the same questions on both sides (by id, or by
other prompt metadata fields such as year,session,number for parallel language versions), the same
answer key (by option position, since labels may be α/β in one language and A/B in the other) and
the same number of options. A mismatch refuses the comparison and says why.

Before that, each folder must match its manifest (eval.log.integrity), and each run must be publishable
(no truncated or missing answers) and use the same dataset id and protocol (name, version, prompt
hash, and the settings that change the numbers: shots, few-shot pool and seed, limit, temperature,
system prompt; `runset.run_setup`) as the other, unless the caller allows it explicitly (`allow_unpublishable`,
`allow_protocol_mismatch`); what was allowed, and why, is part of the result.

Public: `compare` (returns a `Comparison`, written as compare_<A>_vs_<B>.json), `align`, `Side`,
`AlignmentError`, `ComparisonRefused`.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from eval.analysis import stats
from eval.analysis.runset import run_setup, setup_text
from eval.log.integrity import require_verified
from eval.log.records import Number, Record
from eval.log.scoring import RunMatrix, load_matrix, run_blocking_reasons
from eval.models.naming import model_label


class AlignmentError(ValueError):
    pass


class ComparisonRefused(AlignmentError):
    """The runs are aligned, but comparing them would mislead unless asked for explicitly."""


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
        return f"{model_label(model)} ({model['backend']})" + (f" [{where}]" if where else "")


def _key(prompt: dict, fields: tuple[str, ...]) -> tuple:
    if fields == ("id",):
        return (prompt["qid"],)
    meta = prompt.get("meta", {})
    return tuple(meta.get(f) for f in fields)


def align(a: RunMatrix, sa: Side, b: RunMatrix, sb: Side, on: tuple[str, ...] = ("id",), *,
          allow_missing: bool = False) -> tuple[np.ndarray, np.ndarray, list[tuple]]:
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
        if missing and not allow_missing:
            raise ComparisonRefused(f"side {name} ({side.run}) has {missing} missing answers; finish the run before comparing "
                                    "(or pass --allow-unpublishable to score them as zero)")
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


class ComparedRun(Record):
    """One side of a comparison: which run (and group), its accuracy there, and what it was run on."""
    run: str
    label: str
    config: str | None = None
    language: str | None = None
    accuracy_pct: Number
    repeats: int
    dataset_id: str
    protocol: str
    protocol_version: str
    prompt_sha256: str | None = None
    publishable: bool
    unpublishable_reasons: list[str] = []


class AllowedExplicitly(Record):
    unpublishable: bool
    protocol_mismatch: bool


class Comparison(Record):
    """The gap A - B in percentage points with its paired bootstrap interval, and why it may not be
    published when the caller allowed that explicitly."""
    a: ComparedRun
    b: ComparedRun
    publishable: bool
    reasons: list[str]
    allowed: AllowedExplicitly
    aligned_on: list[str]
    gap_pp: Number
    ci_low: Number
    ci_high: Number
    confidence: Number
    n_questions: int
    seed: int
    resamples: int
    method: str


def _identity(m: RunMatrix) -> dict:
    protocol = m.plan["protocol"]
    return {"dataset_id": m.plan["plan"]["data_pin"]["dataset_id"], "protocol": protocol["name"],
            "protocol_version": protocol["version"], "prompt_sha256": protocol.get("prompt_sha256"),
            "setup": setup_text(run_setup(m.plan)) or "defaults"}


def _protocol_mismatches(a: RunMatrix, b: RunMatrix) -> list[str]:
    ia, ib = _identity(a), _identity(b)
    return [f"{key} differs (A: {ia[key]}, B: {ib[key]})" for key in ia if ia[key] != ib[key]]


def compare(
    side_a: Side,
    side_b: Side,
    *,
    on: tuple[str, ...] = ("id",),
    resamples: int = stats.DEFAULT_RESAMPLES,
    seed: int = stats.DEFAULT_SEED,
    allow_unpublishable: bool = False,
    allow_protocol_mismatch: bool = False,
) -> Comparison:
    for side in (side_a, side_b):
        require_verified(side.run, "comparison")
    a, b = load_matrix(side_a.run), load_matrix(side_b.run)
    # Alignment first: when the questions differ, that is the most specific reason to give.
    rows_a, rows_b, _ = align(a, side_a, b, side_b, on, allow_missing=allow_unpublishable)
    mismatches = _protocol_mismatches(a, b)
    if mismatches and not allow_protocol_mismatch:
        raise ComparisonRefused("runs differ in data or protocol, comparison refused (--allow-protocol-mismatch to compare anyway):\n"
                                + "\n".join(f"  - {m}" for m in mismatches))
    blocking = {"A": run_blocking_reasons(a), "B": run_blocking_reasons(b)}
    unpublishable = [f"side {name}: {reason}" for name, reasons in blocking.items() for reason in reasons]
    if unpublishable and not allow_unpublishable:
        raise ComparisonRefused("a run may not be published, comparison refused (--allow-unpublishable to compare anyway; "
                                "truncated and missing answers score zero):\n" + "\n".join(f"  - {r}" for r in unpublishable))
    ca, cb = a.correct[rows_a], b.correct[rows_b]
    gap = stats.paired_gap_interval(ca, cb, resamples=resamples, seed=seed)
    acc_a = stats.per_question_means(ca).mean() * 100
    acc_b = stats.per_question_means(cb).mean() * 100

    def side_record(side: Side, m: RunMatrix, acc: float, scores: np.ndarray, reasons: list[str]) -> dict:
        return {"run": str(side.run), "label": side.label(m), "config": side.config, "language": side.language,
                "accuracy_pct": round(float(acc), 10), "repeats": int(scores.shape[1]), **_identity(m),
                "publishable": not reasons, "unpublishable_reasons": reasons}

    return Comparison.model_validate({
        "a": side_record(side_a, a, acc_a, ca, blocking["A"]),
        "b": side_record(side_b, b, acc_b, cb, blocking["B"]),
        "publishable": not unpublishable and not mismatches,
        "reasons": unpublishable + [f"protocol mismatch: {m}" for m in mismatches],
        "allowed": {"unpublishable": allow_unpublishable, "protocol_mismatch": allow_protocol_mismatch},
        "aligned_on": list(on),
        "gap_pp": gap.estimate_pp,
        "ci_low": gap.ci_low,
        "ci_high": gap.ci_high,
        "confidence": gap.confidence,
        "n_questions": gap.n_questions,
        "seed": gap.seed,
        "resamples": gap.resamples,
        "method": "paired percentile bootstrap over unique question ids; each question's pair and repeats kept together",
    })
