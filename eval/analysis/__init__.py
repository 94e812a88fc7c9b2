"""Analyses over evaluation results: model vs human results, the leaderboard, pass/fail per sheet, key-error signals.

Input: finished run folders (eval.log), human results and model metadata tables.
Output: tables (CSV, Markdown, HTML), plots, and the printed summaries of the `eval` analysis commands.

The CLI's entry points (eval.analysis.commands): `correlate_command`, `leaderboard_command`, `passing_command`,
`key_errors_command`, `features_command`, `contamination_command`; each returns (stdout text, stderr notes).

Modules and their public functions (re-exported here; other packages import only these):
- correlate (`eval correlate --scores ... --out DIR`): `load_scores`, `read_scores_table`, `read_human_table`,
  `load_mapping`, `run_scores`, `rankdata`, `correlate_scores`, `correlations_csv`, `caveats`, `write_correlation_outputs` — Pearson and
  Spearman (with p-values, Holm and BH adjusted) per model × exam type and per model × exam type × category, year by year.
- leaderboard (`eval leaderboard`): `build_leaderboard`, `write_leaderboard` — each dataset one vote, newest run per
  (dataset, model, API, effort, language), Markdown, CSV and a sortable HTML page; with model metadata, plots.
- passing (`eval passing`): `sheet_results`, `load_thresholds`, `write_passing` — the key's points per sheet against
  the pass threshold, beside the human result.
- quality (`eval key-errors`): `find_candidates`, `write_key_errors` — questions where several models doubt the key.
- features (`eval features`): `question_scores`, `feature_tests`, `write_features` — Mann-Whitney U tests of
  per-question scores against words, number shapes, domain and keyed position, ranked by p-value.
- contamination (`eval contamination`): `load_release_dates`, `contamination_splits`, `write_contamination` —
  accuracy on exams published before vs after each model's release date.
- models: `load_model_metadata` — release date and size per model, from a small YAML.
- runset: `find_runs`, `load_runs` — run folders and what the analyses read from them.
- plots: `correlation_plots`, `leaderboard_plots` — PNG + SVG figures (matplotlib, Agg).
- stats (imported as a module; used by scoring and the judge): `accuracy_interval`, `paired_gap_interval`,
  `bootstrap_means` — paired bootstrap over question ids.
- compare (`eval compare`): `compare`, `Side`, `AlignmentError` — the gap between two aligned runs.
- reports: `print_scores`, `print_compare`, `correlations_text`, `plot_accuracy` — terminal tables and PNGs.
- pvalues (imported as a module): `holm`, `benjamini_hochberg`, `critical_r` — many p-values read together.
"""
from eval.analysis.correlate import (
    HUMAN_CSV,
    LLMZSZL_CSV,
    Correlation,
    HumanPoint,
    ScorePoint,
    correlate_scores,
    caveats,
    correlations_csv,
    load_mapping,
    load_scores,
    rankdata,
    read_human_table,
    read_scores_table,
    run_scores,
    write_correlation_outputs,
)
from eval.analysis.commands import (
    contamination_command,
    correlate_command,
    features_command,
    key_errors_command,
    leaderboard_command,
    passing_command,
)
from eval.analysis.contamination import load_release_dates, write_contamination
from eval.analysis.contamination import splits as contamination_splits
from eval.analysis.features import feature_tests, question_scores, write_features
from eval.analysis.leaderboard import build_leaderboard, write_leaderboard
from eval.analysis.models import ModelMeta, load_model_metadata
from eval.analysis.passing import load_thresholds, write_passing
from eval.analysis.passing import sheet_results
from eval.analysis.plots import correlation_plots, leaderboard_plots
from eval.analysis.quality import find_candidates, write_key_errors
from eval.analysis.runset import find_runs, load_runs

__all__ = [
    "HUMAN_CSV", "LLMZSZL_CSV", "Correlation", "HumanPoint", "ScorePoint", "caveats", "correlate_scores", "correlations_csv",
    "load_mapping", "load_scores", "read_human_table", "read_scores_table", "write_correlation_outputs",
    "build_leaderboard", "write_leaderboard", "sheet_results", "load_thresholds", "write_passing",
    "correlation_plots", "find_candidates", "write_key_errors", "find_runs", "load_runs",
    "feature_tests", "question_scores", "write_features",
    "load_release_dates", "contamination_splits", "write_contamination",
    "ModelMeta", "load_model_metadata", "leaderboard_plots", "rankdata", "run_scores",
    "correlate_command", "leaderboard_command", "passing_command", "key_errors_command", "features_command",
    "contamination_command",
]
