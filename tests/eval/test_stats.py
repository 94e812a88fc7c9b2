"""The paired bootstrap: same distribution as literal id resampling, deterministic under its seed."""
from __future__ import annotations

import numpy as np
import pytest

from eval.analysis import stats


def _scores(n: int, repeats: int, p: float, seed: int) -> np.ndarray:
    return (np.random.default_rng(seed).random((n, repeats)) < p).astype(float)


def test_vectorised_interval_matches_the_reference_id_resampling_loop():
    a, b = _scores(60, 3, 0.7, 1), _scores(60, 2, 0.5, 2)
    d = stats.per_question_means(a) - stats.per_question_means(b)
    fast = stats.bootstrap_means(d, resamples=40_000, seed=3)
    slow = stats.bootstrap_reference(d, resamples=40_000, seed=4)
    # same distribution: mean, spread and the 2.5/97.5 percentiles agree to Monte Carlo error
    assert fast.mean() == pytest.approx(slow.mean(), abs=0.003)
    assert fast.std() == pytest.approx(slow.std(), rel=0.03)
    assert np.quantile(fast, [0.025, 0.975]) == pytest.approx(np.quantile(slow, [0.025, 0.975]), abs=0.012)
    # and the bootstrap's known moments: mean of d, variance var(d)/n
    assert fast.std() == pytest.approx(d.std() / np.sqrt(d.size), rel=0.03)


def test_the_same_seed_gives_the_same_interval_and_another_seed_a_different_one():
    a, b = _scores(500, 2, 0.6, 5), _scores(500, 2, 0.55, 6)
    first = stats.paired_gap_interval(a, b, seed=11)
    assert stats.paired_gap_interval(a, b, seed=11) == first
    d = stats.per_question_means(a) - stats.per_question_means(b)
    same = stats.bootstrap_means(d, resamples=1000, seed=11)
    assert np.array_equal(same, stats.bootstrap_means(d, resamples=1000, seed=11))
    assert not np.array_equal(same, stats.bootstrap_means(d, resamples=1000, seed=12))
    assert stats.paired_gap_interval(a, b, seed=12).estimate_pp == first.estimate_pp


def test_the_gap_is_in_percentage_points_with_repeats_averaged_per_question():
    a = np.array([[1, 1], [1, 0], [0, 0], [1, 1]], dtype=float)  # 62.5 %
    b = np.array([[0], [1], [0], [0]], dtype=float)  # 25 %
    result = stats.paired_gap_interval(a, b, resamples=2_000, seed=0)
    assert result.estimate_pp == pytest.approx(37.5)
    assert result.n_questions == 4 and result.resamples == 2_000 and result.seed == 0
    assert result.ci_low <= 37.5 <= result.ci_high


def test_pairs_stay_together_so_identical_runs_have_a_zero_width_interval():
    a = _scores(300, 3, 0.5, 9)
    result = stats.paired_gap_interval(a, a.copy())
    assert (result.estimate_pp, result.ci_low, result.ci_high) == (0.0, 0.0, 0.0)


def test_pairing_narrows_the_interval_against_unpaired_resampling():
    rng = np.random.default_rng(0)
    ability = rng.random(400)
    a = (rng.random((400, 1)) < ability[:, None]).astype(float)
    b = (rng.random((400, 1)) < (ability[:, None] * 0.9)).astype(float)
    paired = stats.paired_gap_interval(a, b, seed=1)
    unpaired_width = 2 * 1.96 * np.sqrt(a.var() / 400 + b.var() / 400) * 100
    assert paired.ci_high - paired.ci_low < unpaired_width


def test_mismatched_rows_are_refused():
    with pytest.raises(ValueError, match="same questions"):
        stats.paired_gap_interval(np.ones((3, 1)), np.ones((4, 1)))
