"""Paired bootstrap over question ids, vectorised.

A resample draws n question ids with replacement and keeps each question whole: both sides of its
pair and all of its repeats. Each question contributes one number, d_q = (mean over A's repeats) -
(mean over B's repeats), and the resampled gap is the mean of the drawn d_q. That mean depends only
on how many draws land on each distinct value of d_q, and those counts follow a multinomial with
probabilities (questions with that value) / n. Drawing the counts directly is the same distribution
as drawing ids, at a cost of O(resamples x distinct values) instead of O(resamples x n): with a few
repeats there are only a handful of distinct values, so 10,000 resamples over 20,000 questions take
milliseconds. `bootstrap_reference` is the literal id-resampling loop, kept for tests and benches.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

DEFAULT_RESAMPLES = 10_000
DEFAULT_SEED = 20_240_601
DEFAULT_CONFIDENCE = 0.95


@dataclass(frozen=True)
class Interval:
    estimate_pp: float
    ci_low: float
    ci_high: float
    n_questions: int
    seed: int
    resamples: int
    confidence: float

    def to_dict(self) -> dict:
        return asdict(self)


def per_question_means(scores: np.ndarray) -> np.ndarray:
    """(n_questions, n_repeats) of 0/1 (or partial credit) -> one mean per question."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.ndim == 1:
        return scores
    if scores.ndim != 2 or scores.shape[1] == 0:
        raise ValueError(f"expected a (questions, repeats) matrix, got shape {scores.shape}")
    return scores.mean(axis=1)


def bootstrap_means(values: np.ndarray, *, resamples: int, seed: int) -> np.ndarray:
    """Means of `resamples` bootstrap resamples of `values` (one value per question)."""
    values = np.asarray(values, dtype=np.float64)
    n = values.size
    if n == 0:
        raise ValueError("cannot bootstrap zero questions")
    distinct, counts = np.unique(values, return_counts=True)
    rng = np.random.default_rng(seed)
    drawn = rng.multinomial(n, counts / n, size=resamples)  # (resamples, distinct values)
    return drawn @ distinct / n


def bootstrap_reference(values: np.ndarray, *, resamples: int, seed: int) -> np.ndarray:
    """The textbook loop: draw n ids with replacement, average. Slow; for tests and benches only."""
    values = np.asarray(values, dtype=np.float64)
    rng = np.random.default_rng(seed)
    n = values.size
    out = np.empty(resamples)
    for r in range(resamples):
        out[r] = values[rng.integers(0, n, size=n)].mean()
    return out


def _interval(values: np.ndarray, *, resamples: int, seed: int, confidence: float) -> Interval:
    means = bootstrap_means(values, resamples=resamples, seed=seed)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(means, [tail, 1.0 - tail])
    return Interval(
        estimate_pp=round(float(values.mean()) * 100.0, 10),
        ci_low=round(float(low) * 100.0, 10),
        ci_high=round(float(high) * 100.0, 10),
        n_questions=int(values.size),
        seed=seed,
        resamples=resamples,
        confidence=confidence,
    )


def accuracy_interval(
    scores: np.ndarray,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval:
    """Accuracy in percent (questions weighted equally, repeats averaged) and its percentile interval."""
    return _interval(per_question_means(scores), resamples=resamples, seed=seed, confidence=confidence)


def paired_gap_interval(
    scores_a: np.ndarray,
    scores_b: np.ndarray,
    *,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
    confidence: float = DEFAULT_CONFIDENCE,
) -> Interval:
    """Gap A - B in percentage points over the same questions (rows aligned), with its interval.

    A and B may have different numbers of repeats; each question's repeats stay together.
    """
    a = per_question_means(scores_a)
    b = per_question_means(scores_b)
    if a.shape != b.shape:
        raise ValueError(f"paired runs must score the same questions: {a.size} vs {b.size} rows")
    return _interval(a - b, resamples=resamples, seed=seed, confidence=confidence)
