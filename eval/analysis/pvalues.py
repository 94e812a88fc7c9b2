"""Many p-values at once: adjusted for multiple comparisons, and how large a correlation must be to count.

`correlate` reports one test per model, exam type and category (52 for the shipped LLMzSzŁ table);
at a 5 % level about one in twenty of them is "significant" by chance alone. Each p-value is
therefore shown beside its Holm adjustment (family-wise error: the chance of any false positive
among them stays under the level, without assuming the tests are independent) and its
Benjamini-Hochberg q-value (false discovery rate: the expected share of false positives among those
called significant).

Public: `holm(p)`, `benjamini_hochberg(p)`, `critical_r(n, alpha=0.05)`.
"""
from __future__ import annotations

import math

import numpy as np


def holm(p_values: list[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values, in the order given: the k-th smallest of m is multiplied by
    m - k + 1, made non-decreasing along that order, and capped at 1."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    if m == 0:
        return []
    order = np.argsort(p, kind="mergesort")
    scaled = np.maximum.accumulate(p[order] * (m - np.arange(m)))
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(scaled, 1.0)
    return adjusted.tolist()


def benjamini_hochberg(p_values: list[float]) -> list[float]:
    """Benjamini-Hochberg q-values, in the order given: the k-th smallest of m times m / k, made
    non-increasing from the largest down, and capped at 1."""
    p = np.asarray(p_values, dtype=np.float64)
    m = p.size
    if m == 0:
        return []
    order = np.argsort(p, kind="mergesort")
    scaled = p[order] * m / np.arange(1, m + 1)
    monotone = np.minimum.accumulate(scaled[::-1])[::-1]
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(monotone, 1.0)
    return adjusted.tolist()


def critical_r(n: int, alpha: float = 0.05) -> float | None:
    """The smallest |r| over n points with a two-sided p below alpha (t with n - 2 degrees of
    freedom); None when n < 3."""
    if n < 3:
        return None
    from scipy.special import stdtrit  # Student's t quantile

    df = n - 2
    t = float(stdtrit(df, 1.0 - alpha / 2.0))
    return t / math.sqrt(df + t * t)
