"""The `examcorpus` command."""
from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from pipeline.infra import add_command, own_process, register_commands
from pipeline.specs import SpecError, available_specs, environment_problems, load_spec, load_spec_file

SAMPLE_PREFIX = "sample"


def _add_extract(subparsers) -> None:
    p = add_command(
        subparsers, "extract", _cmd_extract,
        help="download → extract → parse one source into curated Parquet (the embedded sample by default)",
        description="Runs the season job. With no --source it runs the embedded sample source, served by a "
        "local HTTP server on 127.0.0.1, so the real download path runs offline.",
    )
    p.add_argument("--source", action="append", default=[],
                   help=f"source spec name or YAML path; one of {available_specs()}. Repeatable: the specs of a season run one "
                   "after another in this one process (the program started once), each with its own curated output, "
                   "report and outcome, as if run alone")
    p.add_argument("--year", type=int, action="append", default=[], help="only these years (repeatable)")
    p.add_argument("--from", dest="from_dir", type=Path, help="take files from this folder instead of the web")
    p.add_argument("--out", type=Path, help="curated Parquet file (default curated/<source>.parquet; one --source only)")
    p.add_argument("--strict", action="store_true", help="fail the run on any error-severity diagnostic (a problem); curated data untouched")
    p.add_argument("--workers", type=int, help="parallel files (default: CPU count)")
    p.add_argument("--executor", choices=("inline", "process", "ray"), default="process")
    p.add_argument("--base-url", help="override the spec's host (a mirror or a local server)")
    p.add_argument("--root", type=Path, default=Path("."), help="project root holding raw/ and curated/")
    p.add_argument("--no-progress", action="store_true")


def _run_options(args, **overrides):
    from pipeline.season import RunOptions

    values = dict(
        root=args.root.resolve(),
        years=tuple(args.year),
        base_url=args.base_url,
        from_dir=args.from_dir.resolve() if args.from_dir else None,
        out=args.out.resolve() if args.out else None,
        strict=args.strict,
        workers=args.workers,
        executor=args.executor,
        show_progress=not args.no_progress,
    )
    values.update(overrides)
    return RunOptions(**values)


def _cmd_extract(args) -> int:
    from pipeline.season import StrictModeFailure, run_source
    from pipeline.seasoncurated import CuratedOutputRefused

    if args.from_dir is not None and not args.from_dir.is_dir():
        print(f"examcorpus: --from {args.from_dir}: not a folder", file=sys.stderr)
        return 2
    if args.out is not None and len(args.source) > 1:
        print("examcorpus: --out names one curated file: give it with one --source", file=sys.stderr)
        return 2
    try:
        if args.source:
            # every spec loaded (and checked) before any is run: a mistyped name costs no run
            runs = [(load_spec(source), _run_options(args)) for source in args.source]
            return _run_all(runs, run_source, (StrictModeFailure, CuratedOutputRefused))
        return _run_sample(args, run_source, (StrictModeFailure, CuratedOutputRefused))
    except (SpecError, CuratedOutputRefused) as exc:
        print(f"examcorpus: {exc}", file=sys.stderr)
        return 2


def _run_sample(args, run_source, strict_failure) -> int:
    from pipeline.devkit import ensure_sample_site

    site_dir = args.root.resolve() / "build" / "sample_site"
    ensure_sample_site(site_dir)
    specs = [load_spec(name) for name in available_specs() if name.startswith(SAMPLE_PREFIX)]
    with _serve_sample(site_dir, specs) as base_url:
        print(f"serving the embedded sample source at {base_url}", file=sys.stderr)
        runs = [(spec, _run_options(args, base_url=args.base_url or base_url)) for spec in specs]
        return _run_all(runs, run_source, strict_failure)


@contextmanager
def _serve_sample(site_dir: Path, specs):
    """Serves on the port the sample specs name when it is free, so a re-run sees the same URLs and
    its conditional requests apply; on any free port otherwise."""
    from pipeline.devkit import serve_directory

    port = urlsplit(specs[0].download.base_url).port or 0
    with ExitStack() as stack:
        try:
            base_url = stack.enter_context(serve_directory(site_dir, port=port))
        except OSError:  # the port is taken: URLs change, downloads are still correct
            base_url = stack.enter_context(serve_directory(site_dir))
        yield base_url


def _run_all(runs, run_source, failures) -> int:
    """Each spec's run in turn in this process: one that fails (`failures`: strict mode's, a curated output
    refused) is said and the next spec still runs; the exit status is 1 when any failed."""
    status = 0
    for spec, options in runs:
        try:
            result = run_source(spec, options)
        except failures as exc:
            print(f"examcorpus: {exc}", file=sys.stderr)
            status = 1
            continue
        result.report.print_summary()
        print(f"report: {options.curated_dir / 'reports' / (spec.name + '.md')}")
    return status


def _add_specs(subparsers) -> None:
    p = subparsers.add_parser("specs", help="list source specs, or check spec files for errors")
    sub = p.add_subparsers(dest="specs_command", required=True)
    add_command(sub, "list", _cmd_specs_list, help="the specs shipped in pipeline/sources/")
    check = add_command(sub, "check", _cmd_specs_check, help="validate spec YAML files and explain every problem")
    check.add_argument("paths", nargs="+", type=Path)
    check.add_argument(
        "--skip-ocr-check", action="store_true", help="do not check that the OCR languages are installed on this machine"
    )
    check.add_argument("--try", dest="try_sheet", type=Path, metavar="SHEET.pdf",
                       help="also run each spec on this sheet and print what it found: questions, keyed, types, "
                       "flags, problems (exit 1 when the sheet has problems)")
    check.add_argument("--key", dest="try_keys", type=Path, action="append", default=[], metavar="KEY.pdf",
                       help="with --try: the sheet's answer key file (repeatable)")
    check.add_argument("--root", type=Path, help="with --try: project root of a season run that read the sheet, whose "
                       "OCR readings are reused (default: the current folder when it holds a run)")
    check.add_argument("--ocr-cache", type=Path, help="with --try: OCR readings cache, when the sheet belongs to no run")
    reference = add_command(sub, "reference", _cmd_specs_reference, help="every spec field as Markdown, generated from the spec model")
    reference.add_argument("--write", action="store_true", help="put it into docs/reference/spec-fields.md between its spec-reference markers")


def _cmd_specs_list(args) -> int:
    for name in available_specs():
        spec = load_spec(name)
        print(f"{name:32} {spec.metadata.country} {spec.metadata.language}  {spec.description}")
    return 0


def _cmd_specs_check(args) -> int:
    from pipeline.devkit.speccheck import spec_findings

    failed = 0
    for path in args.paths:
        try:
            spec = load_spec_file(path)
            problems = [] if args.skip_ocr_check else environment_problems(spec)
            findings = spec_findings(spec)
            if problems or findings.problems:
                raise SpecError(path, problems + findings.problems)
        except SpecError as exc:
            print(str(exc), file=sys.stderr)
            failed += 1
            continue
        warnings = findings.warnings
        for warning in warnings:
            print(f"{path}: warning: {warning}", file=sys.stderr)
        print(f"{path}: ok ({spec.name})" + (f", {len(warnings)} warning(s)" if warnings else ""))
        if args.try_sheet is not None:
            failed += _try_spec(spec, args)
    return 1 if failed else 0


def _try_spec(spec, args) -> int:
    """`specs check --try`: the spec on one sheet; 1 when the sheet cannot be read or has problems."""
    from pipeline.devkit.inspect import InspectError
    from pipeline.devkit.trial import try_spec
    from pipeline.patterns import PatternTimeout

    try:
        trial = try_spec(spec, args.try_sheet, args.try_keys, ocr_cache=args.ocr_cache, root=args.root)
    except (InspectError, PatternTimeout) as exc:
        print(f"examcorpus specs check --try: {exc}", file=sys.stderr)
        return 1
    print(trial.format())
    return 1 if trial.problems else 0


def _cmd_specs_reference(args) -> int:
    from pipeline.devkit import spec_reference_markdown, write_spec_reference

    if not args.write:
        print(spec_reference_markdown(), end="")
        return 0
    try:
        changed = write_spec_reference()
    except ValueError as exc:  # a page without the marker lines
        print(f"examcorpus: {exc}", file=sys.stderr)
        return 2
    print(f"docs/reference/spec-fields.md: spec reference {'updated' if changed else 'already current'}")
    return 0


def _add_score_extraction(subparsers) -> None:
    p = add_command(subparsers, "score-extraction", _cmd_score_extraction,
                    help="compare curated records with a ground-truth file", add_help=False)
    p.add_argument("rest", nargs=argparse.REMAINDER)


def _cmd_score_extraction(args) -> int:
    from pipeline.devkit import score_extraction

    return score_extraction(args.rest)


# Every subcommand, in the order `--help` lists them: a function, or "module:function" imported when the parser is built.
COMMANDS = (
    _add_extract, _add_specs, _add_score_extraction, "pipeline.parse:register_ocr",
    "pipeline.devkit:register_inspect", "pipeline.split:register", "pipeline.publish:register",
    "pipeline.describe:register", "pipeline.review:register", "eval.cli:register",
)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Every subcommand, or (`command`) those registered up to that one: a run imports no other stage."""
    parser = argparse.ArgumentParser(prog="examcorpus", description=__doc__)
    register_commands(parser.add_subparsers(dest="command", required=True), COMMANDS, wanted=command)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The `examcorpus` program: with no `argv` it is run from a shell (the installed script, `python -m
    pipeline.cli`) and owns its process (`infra.heap`); a caller passing `argv` (a test) keeps its own."""
    if argv is None:
        own_process()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["score-extraction"]:
        # Its own parser reads every argument ("--help", "--json" first included), which an
        # argparse REMAINDER after the subcommand would refuse.
        from pipeline.devkit import score_extraction

        return score_extraction(argv[1:])
    command = argv[0] if argv and not argv[0].startswith("-") else None
    args = build_parser(command).parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
