"""The `examcorpus eval` analysis subcommands, one function each: read, analyse, write, return what to print.

Each returns (text for stdout, notes for stderr), so eval.cli stays a thin argument parser.
"""
from __future__ import annotations

from pathlib import Path

from eval.analysis import contamination, correlate, features, leaderboard, passing, quality, runset
from eval.analysis.models import load_model_metadata

Output = tuple[str, list[str]]


def _left_out(skipped: list[runset.Skipped]) -> list[str]:
    return [f"left out {s.path}: {s.reason}" for s in skipped]


def correlate_command(scores: list[str], *, out: str | None, human: str | None = None, mapping: str | None = None,
                      plots: bool = True) -> Output:
    if not out:
        raise ValueError("--scores needs --out DIR (where correlations.csv, report.md and plots/ go)")
    human_path = Path(human) if human else correlate.HUMAN_CSV
    points = correlate.load_scores(scores, mapping)
    people = correlate.read_human_table(human_path)
    rows = correlate.correlate_scores(points, people)
    written = correlate.write_correlation_outputs(rows, points, people, Path(out), scores_sources=list(map(str, scores)),
                                                  human_source=str(human_path), plots=plots)
    from eval.analysis.reports import correlations_text

    return correlations_text(rows, correlate.caveats(rows)), [f"wrote {len(written)} files under {out}"]


def leaderboard_command(runs: list[str], *, out: str, models: str | None = None) -> Output:
    metadata = load_model_metadata(models) if models else None
    board = leaderboard.build_leaderboard(runs)
    written = leaderboard.write_leaderboard(board, Path(out), metadata=metadata)
    return leaderboard.to_markdown(board).split("\n## ")[0], _left_out(board.skipped) + [f"wrote {', '.join(map(str, written))}"]


def passing_command(runs: list[str], *, out: str, thresholds: str | None = None, mapping: str | None = None,
                    human: str | None = None) -> Output:
    default, per_config = passing.load_thresholds(thresholds)
    rules = correlate.load_mapping(mapping) if mapping else None
    people = correlate.read_human_table(Path(human) if human else correlate.HUMAN_CSV) if rules else None
    found, skipped = runset.load_runs(runs)
    results = []
    for r in found:
        results += passing.sheet_results(r.path, default=default, per_config=per_config, human=people, rules=rules)
    passing.write_passing(results, Path(out))
    return passing.to_markdown(results), _left_out(skipped)


def key_errors_command(runs: list[str], *, out: str, low_prob: float = quality.DEFAULT_LOW_PROB,
                       min_models: int = quality.DEFAULT_MIN_MODELS, audit_url: str | None = None,
                       private_text: bool = False) -> Output:
    if not 0 < low_prob < 1 or min_models < 1:
        raise ValueError(f"--low-prob must be in (0, 1) and --min-models at least 1, got {low_prob} and {min_models}")
    found, skipped = runset.load_runs(runs)
    candidates = quality.find_candidates(found, low_prob=low_prob, min_models=min_models, audit_url=audit_url,
                                         private_text=private_text)
    models = sorted({r.model for r in found})
    quality.write_key_errors(candidates, Path(out), low_prob=low_prob, min_models=min_models, models=models)
    note = quality.privacy_note(candidates)
    return (f"{len(candidates)} possible key error(s) among the questions of {len(models)} model(s); see {out}/key_errors.md\n"
            + (f"{note}\n" if note else ""), _left_out(skipped))


def features_command(runs: list[str], *, out: str, min_count: int = 5, private_text: bool = False) -> Output:
    found, skipped = runset.load_runs(runs)
    if not found:
        raise ValueError(f"{', '.join(map(str, runs))}: no finished, publishable runs")
    questions = features.question_scores(found)
    words = features.vocabulary(questions, min_count=min_count, private_text=private_text)
    tests = features.feature_tests(questions, min_count=min_count, words=words)
    note = features.privacy_note(tests, questions, words)
    models = sorted({r.model for r in found})
    features.write_features(tests, Path(out), n_questions=len(questions), models=models, note=note)
    return features.to_markdown(tests, n_questions=len(questions), models=models, top=10, note=note), _left_out(skipped)


def contamination_command(runs: list[str], *, out: str, models: str) -> Output:
    released = contamination.load_release_dates(models)
    found, skipped = runset.load_runs(runs)
    rows = contamination.splits(found, released)
    missing = sorted({r.model for r in found} - set(released))
    contamination.write_contamination(rows, Path(out), missing)
    return contamination.to_markdown(rows, missing), _left_out(skipped)
