"""`examcorpus review`: serve the review page, or merge accepted descriptions into curated records."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pipeline.review.store import ReviewInputError, ReviewStore


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "review",
        help="review figure descriptions in the browser (127.0.0.1), or --merge accepted ones into curated/",
        description="Serves the review page on 127.0.0.1. Decisions are appended to annotations/reviews.jsonl. "
        "With --merge, writes accepted descriptions into the curated Parquet files and exits.",
    )
    p.add_argument("--curated", type=Path, action="append", default=[], help="curated Parquet file or folder (default curated/)")
    p.add_argument("--root", type=Path, default=Path("."), help="project root holding curated/, raw/ and annotations/")
    p.add_argument("--port", type=int, default=8765, help="port on 127.0.0.1 (default 8765; 0 picks a free one)")
    p.add_argument("--merge", action="store_true", help="merge accepted descriptions into the curated files and exit")
    p.add_argument("--double", action="store_true",
                   help="double review: each figure judged blind by two annotators (annotations/blind_reviews.jsonl); "
                   "matching judgements decide it, the others wait for an adjudicator")
    p.add_argument("--agreement", action="store_true",
                   help="print Cohen's kappa per annotator pair from the double review, write annotations/agreement.json, and exit")
    p.add_argument("--allow-host", dest="allow_hosts", action="append", default=[], type=_allowed_host, metavar="NAME[:PORT]",
                   help="also answer to this Host, e.g. localhost:9000 behind `ssh -L 9000:127.0.0.1:8765` (repeatable; "
                   "by default only 127.0.0.1, localhost and [::1] with the server's port)")
    p.set_defaults(func=run_review_command)


def _allowed_host(text: str) -> str:
    from pipeline.review.guard import parse_allowed_host

    try:
        return parse_allowed_host(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def curated_files(root: Path, paths: list[Path]) -> list[Path]:
    files: list[Path] = []
    for path in paths or [root / "curated"]:
        path = path if path.is_absolute() else root / path
        if path.is_dir():
            files += sorted(path.glob("*.parquet"))
        elif path.is_file():
            files.append(path)
        else:
            raise ReviewInputError(f"{path}: no such curated file or folder")
    if not files:
        raise ReviewInputError(f"no curated Parquet files under {root / 'curated'} (run `make extract` first)")
    return files


def run_review_command(args) -> int:
    from pipeline.review.merge import merge_curated_file
    from pipeline.review.server import serve_review

    root = args.root.resolve()
    try:
        files = curated_files(root, args.curated)
        store = ReviewStore.open(root, files)
    except (ReviewInputError, ValueError) as exc:
        print(f"examcorpus review: {exc}", file=sys.stderr)
        return 2
    if args.agreement:
        return _agreement_report(root, store)
    if args.merge:
        for path in files:
            try:
                lines = merge_curated_file(path, store)
            except (OSError, ValueError) as exc:  # pyarrow's read errors derive from these
                print(f"examcorpus review --merge: {path}: cannot merge into it: {exc}", file=sys.stderr)
                return 2
            print("\n".join(lines))
        return 0
    progress = store.progress()
    note = f" ({store.orphans} annotations skipped: their question or figure is no longer curated)" if store.orphans else ""
    double = None
    if args.double:
        from pipeline.review.double import DoubleReview

        double = DoubleReview.open(store)
    with serve_review(store, port=args.port, allowed_hosts=tuple(args.allow_hosts), double=double) as url:
        print(f"review page: {url}/  ({progress['reviewed']} / {progress['total']} reviewed){note}", flush=True)
        if double is not None:
            print(f"double review: each figure goes to two annotators, blind; disagreements: {url}/?adjudicate=1", flush=True)
        print(f"extraction audit: {url}/audit  (flagged questions first); Ctrl+C stops", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            print("stopped; every decision is in annotations/reviews.jsonl", file=sys.stderr)
    return 0


def _agreement_report(root: Path, store: ReviewStore) -> int:
    import json

    from pipeline.infra import write_text_atomic
    from pipeline.review.agreement import agreement_lines
    from pipeline.review.double import AGREEMENT_FILE, DoubleReview

    try:
        double = DoubleReview.open(store)
    except ReviewInputError as exc:
        print(f"examcorpus review --agreement: {exc}", file=sys.stderr)
        return 2
    report = double.report()
    write_text_atomic(root / AGREEMENT_FILE, json.dumps(report, ensure_ascii=False, indent=2) + "\n")
    print("\n".join(agreement_lines(double.agreement())))
    print(f"{report['judged_items']} items judged blind, {report['awaiting_second']} awaiting a second judgement, "
          f"{report['disagreements']} disagreements for an adjudicator; written to {AGREEMENT_FILE}")
    return 0
