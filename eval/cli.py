"""`examcorpus eval ...`: run, rescore, verify, compare, correlate; analyses (eval.analysis): leaderboard,
passing, key-errors, features, contamination; judge (open answers, eval.scorers.judge).

The lead's CLI calls `register(subparsers)`; `python -m eval.cli ...` works on its own too.
Exit codes: 0 done and publishable; 2 answers missing (run again to resume); 3 finished but not
publishable (truncated answers); 1 an error, with a message naming the file and the problem.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval.models.registry import BACKENDS, split_model
from pipeline.infra import add_command
from eval.prompts.protocols import PROTOCOLS


def register(subparsers) -> argparse.ArgumentParser:
    parser = add_command(subparsers, "eval", dispatch, help="evaluate models on curated or published data")
    commands = parser.add_subparsers(dest="eval_command", required=True)

    run = add_command(commands, "run", _run, dest="eval_handler",
                      help="run a plan (or resume one: `eval run --out DIR`)")
    run.add_argument("--plan", help="YAML/JSON plan file (flags below override nothing; use one or the other)")
    run.add_argument("--data", help="curated Parquet file/folder, release folder, or hf://OWNER/NAME@TAG")
    run.add_argument("--model", help=f"BACKEND:MODEL, backends: {', '.join(sorted(BACKENDS))}")
    run.add_argument("--name", help="what tables and reports call the model (default: its own name: GGUF general.name with "
                     "the quantisation, the Hub repository id, or the API's model id; never a path)")
    run.add_argument("--base-url", help="endpoint for openai: (e.g. http://127.0.0.1:8000/v1) or gemini:")
    run.add_argument("--api-key-env", help="name of the environment variable with the API key")
    run.add_argument("--protocol", help=f"one of: {', '.join(sorted(PROTOCOLS))} (NAME or NAME@VERSION)")
    run.add_argument("--shots", type=int, default=0, help="examples among the scored questions themselves (see --fewshot)")
    run.add_argument("--fewshot", type=int, default=0, help="K solved examples from --fewshot-pool before each question, "
                     "never a scored one")
    run.add_argument("--fewshot-pool", help="public-split (build/split, the default), a split folder, or a Parquet/JSONL file")
    run.add_argument("--fewshot-seed", type=int, default=0, help="which pool examples are drawn (default 0)")
    run.add_argument("--system-prompt", help="hf-generate: system message (chat template) or text before the question")
    run.add_argument("--repeats", type=int, default=1)
    run.add_argument("--configs", help="comma-separated configs to include (default: all)")
    run.add_argument("--languages", help="comma-separated language codes to include (default: all)")
    run.add_argument("--limit", type=int, help="first N scorable questions (smoke runs)")
    run.add_argument("--temperature", type=float, default=0.0)
    run.add_argument("--max-tokens", type=int, default=1024)
    run.add_argument("--reasoning-effort")
    run.add_argument("--seed", type=int)
    run.add_argument("--max-tokens-field", choices=["max_tokens", "max_completion_tokens"], default="max_tokens",
                     help="openai: the request field for the token limit (OpenAI's own reasoning models need max_completion_tokens)")
    run.add_argument("--scoring", choices=["generative", "loglikelihood"],
                     help="default: the backend's own; openai: + loglikelihood scores the options through /completions "
                          "(echo + logprobs, as vLLM and SGLang serve it)")
    # Operational settings: default None so that, on resume, only those given change the run's own.
    run.add_argument("--concurrency", type=int, help="requests in flight at once (default 4)")
    run.add_argument("--timeout", type=float, help="seconds per request (default 120)")
    run.add_argument("--max-attempts", type=int, help="tries per answer for technical failures (default 6)")
    run.add_argument("--retry-base-delay", type=float, help="seconds before the first retry (default 1)")
    run.add_argument("--max-retry-after", type=float, help="longest wait a server's Retry-After may impose, in seconds "
                     "(default 300); a longer one is cut and the attempt says so")
    run.add_argument("--figure-descriptions", help="reviewed figure descriptions JSONL (mcq-figure-text)")
    run.add_argument("--images-root", help="folder figure paths are relative to (mcq-vision; default: .)")
    run.add_argument("--batch-size", type=int, help="hf, hf-generate: batch size (default 8)")
    run.add_argument("--device", help="hf: torch device (default cpu)")
    run.add_argument("--dtype", help="hf: torch dtype")
    run.add_argument("--out", required=True, help="run folder (new, or an unfinished run to resume)")
    run.add_argument("--no-progress", action="store_true",
                     help="no loading lines and no progress (default: a bar on a terminal, else a plain line every 30 s, "
                          "EXAMCORPUS_PROGRESS_EVERY_S)")

    rescore = add_command(commands, "rescore", _rescore, dest="eval_handler",
                          help="recompute every score and interval from a run folder alone")
    rescore.add_argument("run_dir")
    rescore.add_argument("--out", help="also write the recomputed scores JSON here")
    rescore.add_argument("--plot", help="write an accuracy-with-intervals PNG here")

    view = add_command(commands, "view", _view, dest="eval_handler",
                       help="write a run's browsable HTML page (every question's prompt, response, answer, status; filters, search)")
    view.add_argument("run_dir")
    view.add_argument("--out", help="write a fresh page to this file (without it: the run's own report.html, written by every "
                      "session; a run made before there were reports needs --out, since its folder is a checked record)")

    verify = add_command(commands, "verify", _verify, dest="eval_handler",
                         help="check a run folder against its manifest of SHA-256s")
    verify.add_argument("run_dir")

    compare = add_command(commands, "compare", _compare, dest="eval_handler",
                          help="paired bootstrap gap between two aligned runs")
    compare.add_argument("run_a")
    compare.add_argument("run_b")
    compare.add_argument("--a-group", help="CONFIG/LANG (or CONFIG, or /LANG) on side A")
    compare.add_argument("--b-group", help="CONFIG/LANG (or CONFIG, or /LANG) on side B")
    compare.add_argument("--align-on", default="id", help="id (default) or metadata fields, e.g. year,session,number")
    compare.add_argument("--seed", type=int)
    compare.add_argument("--resamples", type=int)
    compare.add_argument("--json", "--out", dest="json_out",
                         help="where to write the JSON (default: comparisons/<A>_vs_<B>.json beside the folder that holds run A, "
                              "never inside it: that folder is what leaderboard scans)")
    compare.add_argument("--allow-unpublishable", action="store_true",
                         help="compare runs with truncated or missing answers (scored as zero; recorded in the JSON)")
    compare.add_argument("--allow-protocol-mismatch", action="store_true",
                         help="compare runs over different dataset ids or protocol versions (recorded in the JSON)")

    correlate = add_command(commands, "correlate", _correlate, dest="eval_handler",
                            help="model accuracy vs human exam results (CKE), per exam and year")
    correlate.add_argument("--scores", action="append", metavar="FILE|RUN", required=True,
                           help="a table of model accuracy by exam type, category and year, or a run folder (needs --mapping); "
                                "repeat for several. Writes per-exam-type correlations to --out")
    correlate.add_argument("--human", help="human results CSV (default: the shipped CKE results 2015-2023)")
    correlate.add_argument("--out", help="folder for correlations.csv, report.md and plots/")
    correlate.add_argument("--no-plots", action="store_true", help="skip the PNG/SVG plots")
    correlate.add_argument("--mapping", help="YAML mapping the run's exam/subject to CKE exam_type/category")
    # The pooled correlation these flags asked for mixed exam types of different difficulty; it is gone,
    # and a caller still using them is told what replaced it rather than getting argparse's bare refusal.
    for removed in ("--run", "--llmzszl", "--category", "--json", "--plot"):
        correlate.add_argument(removed, dest=f"removed_{removed[2:]}", help=argparse.SUPPRESS)

    board = add_command(commands, "leaderboard", _leaderboard, dest="eval_handler",
                        help="models x languages, each dataset one vote, newest run per slot")
    board.add_argument("runs", nargs="+", help="run folders, or folders searched for run folders")
    board.add_argument("--out", required=True, help="folder for leaderboard.md, leaderboard.csv, leaderboard.html")
    board.add_argument("--models", help="model metadata YAML (released, params_b): adds accuracy-vs-size/release plots")

    passing = add_command(commands, "passing", _passing, dest="eval_handler",
                          help="would the model pass: points per sheet vs the pass threshold")
    passing.add_argument("runs", nargs="+", help="run folders, or folders searched for run folders")
    passing.add_argument("--out", required=True, help="folder for passing.csv and passing.md")
    passing.add_argument("--thresholds", help="YAML: 'default: 50' and 'thresholds: {CONFIG: PERCENT}'")
    passing.add_argument("--mapping", help="YAML mapping exams to CKE exam types (for the human result beside each sheet)")
    passing.add_argument("--human", help="human results CSV (default: the shipped CKE results; used with --mapping)")

    keys = add_command(commands, "key-errors", _key_errors, dest="eval_handler",
                       help="questions where several models doubt the answer key, ranked")
    keys.add_argument("runs", nargs="+", help="run folders (one model each; the newest run per model counts)")
    keys.add_argument("--out", required=True, help="folder for key_errors.csv and key_errors.md")
    keys.add_argument("--low-prob", type=float, default=0.05, help="log-likelihood runs: a key below this probability is doubted")
    keys.add_argument("--min-models", type=int, default=2, help="how many models must doubt the key (default 2)")
    keys.add_argument("--audit-url", help="link template for each question, with {qid}, e.g. http://127.0.0.1:5000/audit#{qid}")
    keys.add_argument("--private-text", action="store_true",
                      help="write the text of questions scored on the private split too (left out by default; the report "
                           "then says it is not public)")

    feats = add_command(commands, "features", _features, dest="eval_handler",
                        help="Mann-Whitney U tests of per-question scores against question features")
    feats.add_argument("runs", nargs="+", help="run folders, or folders searched for run folders")
    feats.add_argument("--out", required=True, help="folder for features.csv and features.md")
    feats.add_argument("--min-count", type=int, default=5, help="a word is a feature when this many questions have it")
    feats.add_argument("--private-text", action="store_true",
                       help="count the words of questions scored on the private split too (left out by default; the "
                            "report then says it is not public)")

    contam = add_command(commands, "contamination", _contamination, dest="eval_handler",
                         help="accuracy on exams before vs after each model's release date")
    contam.add_argument("runs", nargs="+", help="run folders, or folders searched for run folders")
    contam.add_argument("--models", required=True, help="YAML: 'models: {BACKEND:NAME: {released: YYYY-MM-DD}}'")
    contam.add_argument("--out", required=True, help="folder for contamination.csv and contamination.md")

    judge = add_command(commands, "judge", _judge, dest="eval_handler",
                        help="grade open answers with an LLM judge (eval.scorers.judge), with agreement and similarity")
    judge.add_argument("--answers", required=True, help="JSONL: qid, language, subject, question, reference, answer (, group)")
    judge.add_argument("--model", required=True, action="append",
                       help="judge as BACKEND:MODEL (generative); give it twice for agreement between two judges")
    judge.add_argument("--base-url", help="endpoint for openai: / gemini: judges")
    judge.add_argument("--api-key-env", help="name of the environment variable with the API key")
    judge.add_argument("--repeats", type=int, default=1, help="grade each answer this many times (2: agreement between repeats)")
    judge.add_argument("--seed", type=int, help="request seed; repeat r sends seed + r")
    judge.add_argument("--max-tokens", type=int, default=512)
    judge.add_argument("--timeout", type=float, default=120.0, help="seconds per request")
    judge.add_argument("--concurrency", type=int, default=4)
    judge.add_argument("--retry-base-delay", type=float, default=0.5)
    judge.add_argument("--similarity-model", help="local Hugging Face model folder: BERTScore F1 of answer vs reference beside "
                       "the grades (needs the models extra: torch, transformers)")
    judge.add_argument("--similarity-layer", type=int, help="hidden layer the BERTScore embeddings come from (default: the last)")
    judge.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples for the mean grades' intervals")
    judge.add_argument("--out", required=True, help="folder for judgements.jsonl, scores.json, scores.md, judge_summary.json, "
                       "judge_report.md")
    return parser


def _csv(text: str | None) -> list[str] | None:
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def _operational(args) -> dict:
    """The operational flags actually given, as plan fields: {"model": {...}, "retry": {...}}."""
    model = {"concurrency": args.concurrency, "timeout_s": args.timeout, "batch_size": args.batch_size, "device": args.device}
    retry = {"max_attempts": args.max_attempts, "base_delay_s": args.retry_base_delay, "max_retry_after_s": args.max_retry_after}
    return {"model": {k: v for k, v in model.items() if v is not None}, "retry": {k: v for k, v in retry.items() if v is not None}}


def _plan_from_args(args):
    from eval.run.plan import RunPlan, load_plan

    flags_given = any(getattr(args, n) for n in ("data", "model", "protocol"))
    if args.plan:
        if flags_given:
            raise ValueError("give either --plan or --data/--model/--protocol, not both")
        return load_plan(args.plan)
    if not flags_given:
        return None  # resume from the run folder's own plan
    missing = [f"--{n}" for n in ("data", "model", "protocol") if not getattr(args, n)]
    if missing:
        raise ValueError(f"missing {', '.join(missing)}")
    backend, name = split_model(args.model)
    return RunPlan(
        data=args.data, protocol=args.protocol.split("@")[0],
        protocol_version=args.protocol.split("@")[1] if "@" in args.protocol else None,
        shots=args.shots, fewshot=args.fewshot, fewshot_pool=args.fewshot_pool, fewshot_seed=args.fewshot_seed,
        repeats=args.repeats, configs=_csv(args.configs), languages=_csv(args.languages),
        limit=args.limit, figure_descriptions=args.figure_descriptions, images_root=args.images_root,
        model={
            "backend": backend, "name": name, "display_name": args.name, "base_url": args.base_url, "api_key_env": args.api_key_env,
            "temperature": args.temperature, "max_tokens": args.max_tokens, "reasoning_effort": args.reasoning_effort,
            "seed": args.seed, "dtype": args.dtype, "max_tokens_field": args.max_tokens_field, "scoring": args.scoring,
            "system_prompt": args.system_prompt,
            # hf-generate batches the requests in flight: unless told, keep a whole batch in flight.
            **({"concurrency": args.batch_size or 8} if backend == "hf-generate" and args.concurrency is None else {}),
            **_operational(args)["model"],
        },
        retry=_operational(args)["retry"],
    )


def _run(args) -> int:
    from eval.analysis import reports
    from eval.run import runner as runs

    plan = _plan_from_args(args)
    outcome = runs.run(plan, args.out, progress=False if args.no_progress else None, operational=_operational(args))
    scores = runs.scoring.score_folder(outcome.path)
    reports.print_scores(scores.to_json())
    if outcome.state == "complete" and outcome.publishable:
        print(f"run complete: {outcome.path}", file=sys.stderr)
    else:
        what = "run finished but may not be published" if outcome.state == "complete" else "run incomplete"
        print(f"{what}: {outcome.path}", file=sys.stderr)
        for reason in outcome.reasons:
            print(f"  - {reason}", file=sys.stderr)
    return outcome.exit_code


def _rescore(args) -> int:
    from eval.analysis import reports
    from eval.log.rescore import audit

    run = Path(args.run_dir)
    result = audit(run)
    reports.print_scores(result.scores.to_json())
    if not result.verification.ok:
        # A folder that is not what its manifest says is reported on, never certified or exported.
        print(f"{run}: fails verification; rescore refused (nothing written):", file=sys.stderr)
    elif args.out or args.plot:
        if args.out:
            from pipeline.infra import write_text_atomic

            write_text_atomic(Path(args.out), result.scores_text)
        if args.plot:
            reports.plot_accuracy(result.scores.to_json(), Path(args.plot))
    for problem in result.problems:
        print(problem, file=sys.stderr)
    if not result.finished:
        print(f"{run}: no stored scores.json (the run is not finished); recomputed scores shown above", file=sys.stderr)
    elif not result.problems:
        print(f"{run / 'scores.json'}: reproduced byte for byte; every status agrees with its evidence", file=sys.stderr)
    return result.exit_code


def _view(args) -> int:
    from eval.log.browse import REPORT, not_public_note, write_report
    from eval.log.runfolder import PLAN

    run = Path(args.run_dir)
    if not (run / PLAN).is_file():
        raise ValueError(f"{run}: not a run folder (no {PLAN})")
    if not args.out and (run / REPORT).exists():
        print(f"{run / REPORT}: the run's page (open it in a browser; --out FILE writes a fresh one)", file=sys.stderr)
        return 0
    if not args.out:
        # The folder is a record checked against its manifest: a file added to it would fail `eval verify`.
        raise ValueError(f"{run}: this run has no {REPORT} (made before runs had one); write one elsewhere with --out FILE")
    written = write_report(run, args.out)
    note = not_public_note(run)
    print(f"wrote {written}" + (f"\n{note}" if note else ""), file=sys.stderr)
    return 0


def _verify(args) -> int:
    from eval.log.integrity import manifest_sha256, verify

    result = verify(Path(args.run_dir))
    if result.ok:
        print(f"{result.folder}: every file matches its manifest", file=sys.stderr)
        print(f"manifest sha256 {manifest_sha256(result.folder)} (cite it to pin this run)")
        return 0
    for reason in result.reasons():
        print(reason, file=sys.stderr)
    return 1


def _compare(args) -> int:
    from eval.analysis import reports
    from eval.analysis import stats
    from eval.analysis.compare import AlignmentError, Side, compare
    from eval.log.runfolder import dumps
    from pipeline.infra import write_text_atomic

    try:
        result = compare(
            Side.parse(args.run_a, args.a_group), Side.parse(args.run_b, args.b_group),
            on=tuple(_csv(args.align_on) or ["id"]),
            resamples=args.resamples or stats.DEFAULT_RESAMPLES,
            seed=stats.DEFAULT_SEED if args.seed is None else args.seed,
            allow_unpublishable=args.allow_unpublishable, allow_protocol_mismatch=args.allow_protocol_mismatch,
        )
    except AlignmentError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    reports.print_compare(result)
    out = Path(args.json_out) if args.json_out else comparison_path(args.run_a, args.run_b)
    write_text_atomic(out, dumps(result))
    print(f"wrote {out}", file=sys.stderr)
    return 0


def comparison_path(run_a: str | Path, run_b: str | Path) -> Path:
    """comparisons/<A>_vs_<B>.json beside the folder holding run A (runs/a -> comparisons/a_vs_b.json).

    Not inside that folder: it is the one `leaderboard` and the other analyses are pointed at, and it
    should hold runs only. Not the current folder either: a command run from inside a release or a
    run folder would write into something immutable."""
    a, b = Path(run_a).resolve(), Path(run_b).resolve()
    holder = a.parent
    base = holder.parent if holder.parent != holder else holder  # a run folder straight under / keeps its own parent
    return base / "comparisons" / f"{a.name}_vs_{b.name}.json"


def _correlate(args) -> int:
    from eval import analysis

    removed = [f"--{name.removeprefix('removed_')}" for name, value in vars(args).items()
               if name.startswith("removed_") and value is not None]
    if removed:
        raise ValueError(f"{', '.join(removed)}: the pooled correlation was removed; use "
                         "`eval correlate --scores RUN|TABLE [--mapping MAP] --out DIR` (per exam type and category; "
                         "the shipped LLMzSzŁ table is eval/data/llmzszl_model_accuracy_by_year.csv)")
    return _print(analysis.correlate_command(args.scores, out=args.out, human=args.human, mapping=args.mapping,
                                             plots=not args.no_plots))


def _print(output: tuple[str, list[str]]) -> int:
    text, notes = output
    print(text, end="")
    for note in notes:
        print(note, file=sys.stderr)
    return 0


def _leaderboard(args) -> int:
    from eval import analysis

    return _print(analysis.leaderboard_command(args.runs, out=args.out, models=args.models))


def _passing(args) -> int:
    from eval import analysis

    return _print(analysis.passing_command(args.runs, out=args.out, thresholds=args.thresholds, mapping=args.mapping,
                                           human=args.human))


def _key_errors(args) -> int:
    from eval import analysis

    return _print(analysis.key_errors_command(args.runs, out=args.out, low_prob=args.low_prob, min_models=args.min_models,
                                              audit_url=args.audit_url, private_text=args.private_text))


def _features(args) -> int:
    from eval import analysis

    return _print(analysis.features_command(args.runs, out=args.out, min_count=args.min_count,
                                              private_text=args.private_text))


def _contamination(args) -> int:
    from eval import analysis

    return _print(analysis.contamination_command(args.runs, out=args.out, models=args.models))


def _judge(args) -> int:
    from eval.scorers import judge

    backends = [judge.make_backend(m, base_url=args.base_url, api_key_env=args.api_key_env, timeout_s=args.timeout) for m in args.model]
    code, report = judge.judge_command(Path(args.answers), backends, out=Path(args.out), repeats=args.repeats,
                                       concurrency=args.concurrency, max_tokens=args.max_tokens, seed=args.seed,
                                       retry_delay_s=args.retry_base_delay, resamples=args.resamples,
                                       similarity_model=Path(args.similarity_model) if args.similarity_model else None,
                                       similarity_layer=args.similarity_layer)
    print(report, end="")
    if code:
        print(f"some answers got no grade (listed in {Path(args.out) / 'judge_report.md'}); none is counted as 0", file=sys.stderr)
    return code


def _error_text(exc: Exception) -> str:
    """The message of an error; a validation error as one line per field, without the input it got."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        return "invalid run settings:\n" + "\n".join(f"  - {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
    return str(exc)


def dispatch(args) -> int:
    from eval.models.errors import ConfigurationFailure
    from eval.dataset.loading import DataError
    from eval.log.runfolder import RunFolderError
    from eval.run.runner import RunError

    from eval.models.redaction import redact_text, secret_values

    try:
        return args.eval_handler(args)
    except (ValueError, RunError, DataError, RunFolderError, ConfigurationFailure, FileNotFoundError) as exc:
        # Credentials a flag or the environment carried stay out of the message (pydantic would echo
        # `--base-url http://user:secret@…` as its input_value).
        print(f"error: {redact_text(_error_text(exc), secret_values([getattr(args, 'api_key_env', None)]))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: every finished attempt is kept; run the same command again to resume", file=sys.stderr)
        return 130


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="examcorpus")
    subparsers = parser.add_subparsers(dest="command", required=True)
    register(subparsers)
    args = parser.parse_args(argv)
    return dispatch(args)


if __name__ == "__main__":
    sys.exit(main())
