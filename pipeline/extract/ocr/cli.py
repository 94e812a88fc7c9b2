"""`examcorpus ocr passes`: the page passes OCR runs, in order, from the registry (`pagepasses`)."""
from __future__ import annotations

import sys

from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.passes import PagePass


def register(subparsers) -> None:
    p = subparsers.add_parser("ocr", help="how scanned pages are read: the OCR page passes")
    sub = p.add_subparsers(dest="ocr_command", required=True)
    passes = sub.add_parser(
        "passes",
        help="list the page passes in the order a page goes through them: name, version, cost, condition",
        description="Every registered OCR page pass. A spec disables one with `ocr: passes: {disable: [NAME]}`; "
        "required passes cannot be disabled.",
    )
    passes.add_argument("--spec", help="source spec name or YAML path: mark the passes it disables")
    passes.add_argument("--markdown", action="store_true", help="print the table the docs show (docs/reference/ocr-passes.md)")
    passes.set_defaults(func=_cmd_passes)


def _cmd_passes(args) -> int:
    disabled: set[str] = set()
    if args.spec:
        from pipeline.specs import SpecError, load_spec

        try:
            disabled = set(load_spec(args.spec).ocr.passes.disable)
        except SpecError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    if args.markdown:
        print(passes_markdown(), end="")
        return 0
    for number, page_pass in enumerate(PAGE_PASSES, 1):
        state = "disabled" if page_pass.name in disabled else ("required" if page_pass.required else "enabled")
        print(f"{number:2}. {page_pass.name} v{page_pass.version} [{page_pass.cost.value}; {state}]")
        print(f"    when: {page_pass.condition}")
        print(f"    does: {page_pass.summary}")
    return 0


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def passes_markdown(passes: tuple[PagePass, ...] = PAGE_PASSES) -> str:
    """The registry as a Markdown table: order, name, version, cost, condition, what it does, required."""
    rows = ["| # | pass | version | cost | applies when | what it does | can be disabled |", "|---|---|---|---|---|---|---|"]
    for number, page_pass in enumerate(passes, 1):
        rows.append(
            f"| {number} | `{page_pass.name}` | {page_pass.version} | {page_pass.cost.value} | {_cell(page_pass.condition)} | "
            f"{_cell(page_pass.summary)} | {'no' if page_pass.required else 'yes'} |"
        )
    return "\n".join(rows) + "\n"
