"""Human-readable output: rich tables on the terminal, matplotlib PNGs for papers and READMEs."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from eval.analysis.plots import pyplot
from eval.log.scoring import left_out_lines
from eval.models.naming import model_label

if TYPE_CHECKING:
    from eval.analysis.compare import Comparison
    from eval.analysis.correlate import Correlation


def _console() -> Console:
    return Console(file=sys.stdout, width=140)


SPLIT_NOTES = {"all": "every question, private ones included: not a public result", "unknown": "the release does not say"}


def split_text(scores: dict) -> str:
    """Which questions a run scored, as its header says it."""
    split = scores.get("split")
    if split is None:
        return "split not recorded (run made before splits were recorded)"
    note = SPLIT_NOTES.get(split)
    return f"split {split}" + (f" ({note})" if note else "")


def print_scores(scores: dict) -> None:
    table = Table(title=f"{model_label(scores['model'])} ({scores['model']['backend']}) on {scores['dataset_id']} "
                        f"({scores['protocol']['name']}@{scores['protocol']['version']}, {scores['repeats']} repeat(s))")
    norm = bool(scores["groups"]) and "accuracy_norm_pct" in scores["groups"][0]  # cloze: lm-eval's acc_norm too
    columns = ["config", "lang", "n", "accuracy %", "95% CI"] + (["acc_norm %", "acc_norm 95% CI"] if norm else [])
    for name in columns + ["refusal %", "extract fail %", "truncated", "missing"]:
        table.add_column(name, justify="left" if name in ("config", "lang") else "right")
    rows = [(g["config"], g["language"], g) for g in scores["groups"]]
    if "overall" in scores and len(scores["groups"]) > 1:
        rows.append(("all", "all", scores["overall"]))
    for config, language, g in rows:
        c = g["counts"]
        extra = [f"{g['accuracy_norm_pct']:.2f}", f"[{g['norm_ci_low']:.2f}, {g['norm_ci_high']:.2f}]"] if norm else []
        table.add_row(config, language, str(g["n_questions"]), f"{g['accuracy_pct']:.2f}",
                      f"[{g['ci_low']:.2f}, {g['ci_high']:.2f}]", *extra, f"{g['refusal_pct']:.2f}",
                      f"{g['extraction_failure_pct']:.2f}", str(c["truncated"]), str(c["missing"]))
    console = _console()
    # Above the numbers, unwrapped: which data and which of its questions they are about.
    console.print(f"data: {scores['dataset_id']}, {split_text(scores)}", markup=False, soft_wrap=True, highlight=False)
    console.print(table)
    for line in left_out_lines(scores):
        console.print(line, markup=False, soft_wrap=True, highlight=False)
    for config, language, g in rows:
        if "accuracy_norm_tokens_pct" in g:  # per token, when every attempt recorded its token counts
            console.print(f"acc_norm per token, {config}/{language}: {g['accuracy_norm_tokens_pct']:.2f} % "
                          f"[{g['norm_tokens_ci_low']:.2f}, {g['norm_tokens_ci_high']:.2f}]")
    for dimension, cells in scores.get("breakdowns", {}).items():
        if len(cells) <= len(scores["groups"]):
            continue  # one value per group: the table above already says it
        breakdown = Table(title=f"by {dimension}")
        for name in ("config", "lang", dimension, "n", "accuracy %", "95% CI"):
            breakdown.add_column(name, justify="right" if name in ("n", "accuracy %", "95% CI") else "left")
        for cell in cells:
            breakdown.add_row(cell["config"], cell["language"], str(cell["value"]), str(cell["n_questions"]),
                              f"{cell['accuracy_pct']:.2f}", f"[{cell['ci_low']:.2f}, {cell['ci_high']:.2f}]")
        console.print(breakdown)


def print_compare(result: Comparison) -> None:
    a, b = result.a, result.b
    console = _console()
    console.print(f"A: {a.label}  accuracy {a.accuracy_pct:.2f}%  ({a.run})")
    console.print(f"B: {b.label}  accuracy {b.accuracy_pct:.2f}%  ({b.run})")
    console.print(
        f"gap A-B: {result.gap_pp:+.2f} pp, {int(result.confidence * 100)}% CI [{result.ci_low:+.2f}, {result.ci_high:+.2f}] "
        f"over {result.n_questions} questions ({result.resamples} paired resamples, seed {result.seed})"
    )
    for reason in result.reasons:
        console.print(f"[bold]warning[/bold] (allowed explicitly, recorded in the JSON): {reason}")


def plot_accuracy(scores: dict, out: Path) -> None:
    plt = pyplot()
    groups = scores["groups"]
    names = [f"{g['config']}/{g['language']}" for g in groups]
    acc = [g["accuracy_pct"] for g in groups]
    err = [[g["accuracy_pct"] - g["ci_low"] for g in groups], [g["ci_high"] - g["accuracy_pct"] for g in groups]]
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(groups)), 3.5))
    ax.bar(names, acc, yerr=err, capsize=4, color="#4C72B0")
    ax.set_ylabel("accuracy (%)")
    ax.set_ylim(0, 100)
    ax.set_title(f"{model_label(scores['model'])} — 95% bootstrap CI", fontsize=9)
    plt.setp(ax.get_xticklabels(), rotation=30, ha="right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)
    plt.close(fig)


def _p(value: float | None) -> str:
    return "–" if value is None else format(value, ".3g")


def correlations_text(rows: list[Correlation], notes: list[str]) -> str:
    """The correlations as a table to read (the CSV is in the output folder), then how to read them."""
    import io

    table = Table(title="model accuracy vs human results, per exam type and category")
    for name in ("model", "exam type", "category", "n", "Pearson r", "p", "p Holm", "Spearman ρ", "p", "p Holm", "note"):
        table.add_column(name, justify="right" if name in ("n", "Pearson r", "Spearman ρ", "p", "p Holm") else "left")
    for r in rows:
        r_text = "–" if r.pearson_r is None else f"{r.pearson_r:+.3f}"
        rho_text = "–" if r.spearman_rho is None else f"{r.spearman_rho:+.3f}"
        table.add_row(r.model, r.exam_type, r.category or "(all)", str(r.n), r_text, _p(r.pearson_p), _p(r.pearson_p_holm),
                      rho_text, _p(r.spearman_p), _p(r.spearman_p_holm), r.reason or ("few years" if r.small_n else ""))
    buffer = io.StringIO()
    console = Console(file=buffer, width=160, color_system=None)
    console.print(table)
    for note in notes:
        console.print(note, markup=False, highlight=False, soft_wrap=True)
    return buffer.getvalue()
