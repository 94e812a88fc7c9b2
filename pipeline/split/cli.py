"""`examcorpus split`: curated/*.parquet → build/split/{public,private}.parquet + split.json."""
from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "split",
        help="split curated records into public and private (held-out) parts, with a leakage guard",
        description="Reads curated Parquet, holds back the years the split config names (by default the newest "
        "year of each exam family), withholds flagged records, and fails naming the pairs when a private "
        "question reaches the public side (same id, same text, near-duplicate text, or same figure).",
    )
    p.add_argument("--curated", type=Path, default=Path("curated"), help="curated Parquet folder or file (default curated/)")
    p.add_argument("--out", type=Path, default=Path("build/split"), help="split folder (default build/split/)")
    p.add_argument("--config", type=Path, help="split config YAML (default: pipeline/split/default_split.yaml)")
    p.set_defaults(func=_cmd_split)


def _cmd_split(args) -> int:
    from pipeline.split import LeakageError, SplitConfigError, SplitDataError, SplitInputError, load_split_config, run_split

    try:
        config = load_split_config(args.config)
        result = run_split(args.curated, args.out, config)
    except (SplitConfigError, SplitDataError, SplitInputError) as exc:
        print(f"examcorpus split: {exc}", file=sys.stderr)
        return 2
    except LeakageError as exc:
        print(f"examcorpus split: {exc}", file=sys.stderr)
        print(f"examcorpus split: report: {args.out / 'leakage.md'}; nothing was split", file=sys.stderr)
        return 1
    print(f"rule: {result.rule.description} (config sha256 {result.rule.config_sha256[:12]})")
    for source, years in result.rule.private_years.items():
        print(f"  {source}: private years {', '.join(map(str, years)) or 'none'}")
    for line in result.unmatched:
        print(f"  rule matches no record: {line}")
    print(f"public {len(result.public)}, private {len(result.private)}, withheld {len(result.withheld)}")
    for w in result.withheld:
        print(f"  withheld {w.id}: {w.reason}")
    print(f"split: {args.out}")
    return 0
