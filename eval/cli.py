"""`examcorpus eval ...`: run, rescore, compare, correlate.

The lead's CLI calls `register(subparsers)`; `python -m eval.cli ...` works on its own too.
Exit codes: 0 done and publishable; 2 answers missing (run again to resume); 3 finished but not
publishable (truncated answers); 1 an error, with a message naming the file and the problem.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from eval.backends.registry import BACKENDS, split_model
from eval.protocols import PROTOCOLS


def register(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("eval", help="evaluate models on curated or published data")
    parser.set_defaults(func=dispatch)  # the lead's CLI calls args.func(args)
    commands = parser.add_subparsers(dest="eval_command", required=True)

    run = commands.add_parser("run", help="run a plan (or resume one: `eval run --out DIR`)")
    run.add_argument("--plan", help="YAML/JSON plan file (flags below override nothing; use one or the other)")
    run.add_argument("--data", help="curated Parquet file/folder, release folder, or hf://OWNER/NAME@TAG")
    run.add_argument("--model", help=f"BACKEND:MODEL, backends: {', '.join(sorted(BACKENDS))}")
    run.add_argument("--base-url", help="endpoint for openai: (e.g. http://127.0.0.1:8000/v1) or gemini:")
    run.add_argument("--api-key-env", help="name of the environment variable with the API key")
    run.add_argument("--protocol", help=f"one of: {', '.join(sorted(PROTOCOLS))} (NAME or NAME@VERSION)")
    run.add_argument("--shots", type=int, default=0)
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
    # Operational settings: default None so that, on resume, only those given change the run's own.
    run.add_argument("--concurrency", type=int, help="requests in flight at once (default 4)")
    run.add_argument("--timeout", type=float, help="seconds per request (default 120)")
    run.add_argument("--max-attempts", type=int, help="tries per answer for technical failures (default 6)")
    run.add_argument("--retry-base-delay", type=float, help="seconds before the first retry (default 1)")
    run.add_argument("--figure-descriptions", help="reviewed figure descriptions JSONL (mcq-figure-text)")
    run.add_argument("--images-root", help="folder figure paths are relative to (mcq-vision; default: .)")
    run.add_argument("--batch-size", type=int, help="hf: batch size (default 8)")
    run.add_argument("--device", help="hf: torch device (default cpu)")
    run.add_argument("--dtype", help="hf: torch dtype")
    run.add_argument("--out", required=True, help="run folder (new, or an unfinished run to resume)")
    run.add_argument("--no-progress", action="store_true")
    run.set_defaults(eval_handler=_run)

    rescore = commands.add_parser("rescore", help="recompute every score and interval from a run folder alone")
    rescore.add_argument("run_dir")
    rescore.add_argument("--out", help="also write the recomputed scores JSON here")
    rescore.add_argument("--plot", help="write an accuracy-with-intervals PNG here")
    rescore.set_defaults(eval_handler=_rescore)

    compare = commands.add_parser("compare", help="paired bootstrap gap between two aligned runs")
    compare.add_argument("run_a")
    compare.add_argument("run_b")
    compare.add_argument("--a-group", help="CONFIG/LANG (or CONFIG, or /LANG) on side A")
    compare.add_argument("--b-group", help="CONFIG/LANG (or CONFIG, or /LANG) on side B")
    compare.add_argument("--align-on", default="id", help="id (default) or metadata fields, e.g. year,session,number")
    compare.add_argument("--seed", type=int)
    compare.add_argument("--resamples", type=int)
    compare.add_argument("--json", dest="json_out", help="where to write the JSON (default: compare.json)")
    compare.set_defaults(eval_handler=_compare)

    correlate = commands.add_parser("correlate", help="model accuracy vs human exam results (CKE), per exam and year")
    source = correlate.add_mutually_exclusive_group(required=True)
    source.add_argument("--run", help="a finished run folder; needs --mapping")
    source.add_argument("--llmzszl", metavar="MODEL", help="a model from the shipped LLMzSzŁ table ('all' for each)")
    correlate.add_argument("--mapping", help="YAML mapping the run's exam/subject to CKE exam_type/category")
    correlate.add_argument("--category", default=None, help="only this CKE category (default: every row)")
    correlate.add_argument("--json", dest="json_out")
    correlate.add_argument("--plot", help="scatter PNG")
    correlate.set_defaults(eval_handler=_correlate)
    return parser


def _csv(text: str | None) -> list[str] | None:
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def _operational(args) -> dict:
    """The operational flags actually given, as plan fields: {"model": {...}, "retry": {...}}."""
    model = {"concurrency": args.concurrency, "timeout_s": args.timeout, "batch_size": args.batch_size, "device": args.device}
    retry = {"max_attempts": args.max_attempts, "base_delay_s": args.retry_base_delay}
    return {"model": {k: v for k, v in model.items() if v is not None}, "retry": {k: v for k, v in retry.items() if v is not None}}


def _plan_from_args(args):
    from eval.plan import RunPlan, load_plan

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
        shots=args.shots, repeats=args.repeats, configs=_csv(args.configs), languages=_csv(args.languages),
        limit=args.limit, figure_descriptions=args.figure_descriptions, images_root=args.images_root,
        model={
            "backend": backend, "name": name, "base_url": args.base_url, "api_key_env": args.api_key_env,
            "temperature": args.temperature, "max_tokens": args.max_tokens, "reasoning_effort": args.reasoning_effort,
            "seed": args.seed, "dtype": args.dtype, "max_tokens_field": args.max_tokens_field,
            **_operational(args)["model"],
        },
        retry=_operational(args)["retry"],
    )


def _run(args) -> int:
    from eval import reports, runs

    plan = _plan_from_args(args)
    outcome = runs.run(plan, args.out, progress=False if args.no_progress else None, operational=_operational(args))
    scores = runs.scoring.score_folder(outcome.path)
    reports.print_scores(scores)
    if outcome.state == "complete" and outcome.publishable:
        print(f"run complete: {outcome.path}", file=sys.stderr)
    else:
        what = "run finished but may not be published" if outcome.state == "complete" else "run incomplete"
        print(f"{what}: {outcome.path}", file=sys.stderr)
        for reason in outcome.reasons:
            print(f"  - {reason}", file=sys.stderr)
    return outcome.exit_code


def _rescore(args) -> int:
    from eval import reports, scoring
    from eval.runfolder import SCORES, dumps

    run = Path(args.run_dir)
    scores = scoring.score_folder(run)
    text = dumps(scores)
    reports.print_scores(scores)
    if args.out:
        from pipeline.infra import write_text_atomic

        write_text_atomic(Path(args.out), text)
    if args.plot:
        reports.plot_accuracy(scores, Path(args.plot))
    stored = run / SCORES
    if not stored.exists():
        print(f"{run}: no stored {SCORES} (the run is not finished); recomputed scores shown above", file=sys.stderr)
        return 2
    if stored.read_text(encoding="utf-8") != text:
        print(f"{stored}: differs from the recomputed scores", file=sys.stderr)
        return 1
    print(f"{stored}: reproduced byte for byte", file=sys.stderr)
    return 0


def _compare(args) -> int:
    from eval import reports, stats
    from eval.compare import AlignmentError, Side, compare
    from eval.runfolder import dumps
    from pipeline.infra import write_text_atomic

    try:
        result = compare(
            Side.parse(args.run_a, args.a_group), Side.parse(args.run_b, args.b_group),
            on=tuple(_csv(args.align_on) or ["id"]),
            resamples=args.resamples or stats.DEFAULT_RESAMPLES,
            seed=stats.DEFAULT_SEED if args.seed is None else args.seed,
        )
    except AlignmentError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    reports.print_compare(result)
    out = Path(args.json_out or "compare.json")
    write_text_atomic(out, dumps(result))
    print(f"wrote {out}", file=sys.stderr)
    return 0


def _correlate(args) -> int:
    from eval import correlate, reports
    from eval.runfolder import dumps
    from pipeline.infra import write_text_atomic

    if args.run:
        if not args.mapping:
            raise ValueError("--run needs --mapping (how the run's exams map to CKE exam types and categories)")
        results = [correlate.correlate_run(Path(args.run), Path(args.mapping), category=args.category)]
    else:
        results = correlate.correlate_llmzszl(args.llmzszl, category=args.category)
    reports.print_correlations(results)
    if args.json_out:
        write_text_atomic(Path(args.json_out), dumps([r.to_dict() for r in results]))
    if args.plot:
        reports.plot_correlation(results, Path(args.plot))
    return 0


def dispatch(args) -> int:
    from eval.backends.errors import ConfigurationFailure
    from eval.data import DataError
    from eval.runfolder import RunFolderError
    from eval.runs import RunError

    try:
        return args.eval_handler(args)
    except (ValueError, RunError, DataError, RunFolderError, ConfigurationFailure, FileNotFoundError) as exc:
        print(f"error: {exc}", file=sys.stderr)
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
