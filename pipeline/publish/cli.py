"""`examcorpus publish`: a split → an immutable release in a local folder (`--to DIR`) or on the Hub (`--repo`)."""
from __future__ import annotations

import sys
from pathlib import Path

from pipeline.infra import add_command


def register(subparsers) -> None:
    p = add_command(
        subparsers, "publish", _cmd_publish,
        help="publish one split as an immutable release: a local folder (--to) or a Hub dataset repo (--repo)",
        description="Writes Parquet per config and split, a dataset card (README.md), manifest.json (every file's "
        "SHA-256, the source PDFs, the split rule, errata since the previous release) and exports (lm-eval "
        "task YAML, an Inspect AI task, LLMzSzŁ JSONL). A release id is never overwritten. The public split goes only to public "
        "targets and the private split only to private ones.",
    )
    p.add_argument("--split-dir", type=Path, default=Path("build/split"), help="split folder (default build/split/)")
    p.add_argument("--split", choices=("public", "private"), default="public", help="which split to publish (default public)")
    p.add_argument("--release", help="release id, e.g. v2026.1 (default: v<UTC date>)")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--to", type=Path, help="local release folder (must not hold a release already)")
    target.add_argument("--repo", help="Hub dataset repo ORG/NAME (token from HF_TOKEN or the HF cache)")
    p.add_argument("--previous", type=Path, help="previous release folder, for the errata (default: the newest "
                   "release beside --to, or the release main holds on --repo)")
    p.add_argument("--name", default="examcorpus", help="dataset name in the card and manifest")
    p.add_argument("--license", default="other", help="Hub license id for the card (default: other; exam texts "
                   "belong to their publishers)")
    p.add_argument("--private-target", action="store_true",
                   help="with --to: the folder is a private (access-controlled) target; required for --split private")
    p.add_argument("--no-progress", action="store_true")


def _cmd_publish(args) -> int:
    from pipeline.publish import PublishError, default_release_id, publish_to_folder, publish_to_hub

    release = args.release or default_release_id()
    try:
        if args.to is not None:
            result = publish_to_folder(args.split_dir, args.split, args.to, release_id=release, name=args.name,
                                       previous=args.previous, private_target=args.private_target,
                                       license_id=args.license, show_progress=not args.no_progress)
        else:
            result = publish_to_hub(args.split_dir, args.split, args.repo, release_id=release, name=args.name,
                                    previous=args.previous, license_id=args.license,
                                    show_progress=not args.no_progress)
    except PublishError as exc:
        print(f"examcorpus publish: {exc}", file=sys.stderr)
        return 1
    print(result.summary())
    return 0
