"""`examcorpus describe`: the command-line face of the describe stage."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from pipeline.infra import add_command
from pipeline.describe.gemini import BASE_URL_ENV, DEFAULT_MODEL, MissingApiKey, RetryPolicy, api_key_from_env
from pipeline.describe.prompts import DEFAULT_PROMPT_VERSION
from pipeline.describe.run import DescribeInputError, DescribeOptions, describe_curated, print_summary

MODEL_ENV = "EXAMCORPUS_GEMINI_MODEL"


def register(subparsers) -> None:
    p = add_command(
        subparsers, "describe", run_describe_command,
        help="describe every curated figure with Gemini (pending annotations for `examcorpus review`)",
        description=f"Sends each figure with its question and options to Gemini and appends the description and "
        f"transcription to annotations/descriptions.jsonl. The key comes from GEMINI_API_KEY or GOOGLE_API_KEY; "
        f"{BASE_URL_ENV} points the SDK at another endpoint (a proxy, a local stand-in).",
    )
    p.add_argument("--curated", type=Path, action="append", default=[], help="curated Parquet file or folder (default curated/)")
    p.add_argument("--annotations", type=Path, help="annotations JSONL (default annotations/descriptions.jsonl)")
    p.add_argument("--model", default=os.environ.get(MODEL_ENV, DEFAULT_MODEL), help=f"Gemini model (default {DEFAULT_MODEL}, or ${MODEL_ENV})")
    p.add_argument("--prompt-version", default=DEFAULT_PROMPT_VERSION, help="prompt folder under pipeline/describe/prompts/")
    p.add_argument("--concurrency", type=int, default=8, help="requests in flight at once (default 8)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per request before it counts as a timeout")
    p.add_argument("--max-attempts", type=int, default=5, help="attempts per figure on 429/5xx/timeouts")
    p.add_argument("--limit", type=int, help="send at most this many figures (a trial run)")
    p.add_argument("--root", type=Path, default=Path("."), help="project root holding curated/, raw/ and annotations/")
    p.add_argument("--no-progress", action="store_true")


def run_describe_command(args) -> int:
    try:
        api_key = api_key_from_env()
    except MissingApiKey as exc:
        print(f"examcorpus describe: {exc}; nothing was sent and annotations are untouched", file=sys.stderr)
        return 2
    root = args.root.resolve()
    options = DescribeOptions(
        root=root,
        curated=tuple(p if p.is_absolute() else root / p for p in args.curated),
        annotations=args.annotations.resolve() if args.annotations else None,
        model=args.model,
        prompt_version=args.prompt_version,
        concurrency=args.concurrency,
        timeout_s=args.timeout,
        retry=RetryPolicy(max_attempts=max(1, args.max_attempts)),
        base_url=os.environ.get(BASE_URL_ENV) or None,
        limit=args.limit,
        show_progress=not args.no_progress,
    )
    try:
        summary = describe_curated(options, api_key=api_key)
    except DescribeInputError as exc:
        print(f"examcorpus describe: {exc}", file=sys.stderr)
        return 2
    print_summary(summary)
    print(f"annotations: {options.annotations_path}")
    return 1 if summary.failures else 0
