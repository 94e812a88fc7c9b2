"""`examcorpus ocr passes`: the page passes OCR runs, in order, from the registry (`pagepasses`), then the
OCR passes of later stages that register them (parse's recovery passes)."""
from __future__ import annotations

import sys

from pipeline.extract.ocr.pagepasses import PAGE_PASSES
from pipeline.extract.ocr.passes import PagePass


def register(subparsers, sections: tuple[tuple[str, tuple], ...] = ()) -> None:
    """`examcorpus ocr passes`. `sections`: (title, passes) of other stages' OCR passes listed after the page
    passes (parse's recovery passes: `pipeline.parse.register_ocr`), each pass with the same fields."""
    p = subparsers.add_parser("ocr", help="how scanned pages are read: the OCR page passes")
    sub = p.add_subparsers(dest="ocr_command", required=True)
    passes = sub.add_parser(
        "passes",
        help="list the OCR passes in the order they run: page passes, then parse's recovery passes",
        description="Every registered OCR page pass, then parse's OCR recovery passes. A spec disables one of "
        "either kind with `ocr: passes: {disable: [NAME]}`; required passes cannot be disabled.",
    )
    passes.add_argument("--spec", help="source spec name or YAML path: mark the passes it disables")
    passes.add_argument("--markdown", action="store_true", help="print the table the docs show (docs/reference/ocr-passes.md)")
    passes.set_defaults(func=_cmd_passes, sections=sections)


def _cmd_passes(args) -> int:
    disabled: set[str] = set()
    if args.spec:
        from pipeline.specs import SpecError, load_spec

        try:
            disabled = set(load_spec(args.spec).ocr.passes.disable)
        except SpecError as exc:
            print(str(exc), file=sys.stderr)
            return 2
    sections = (("page passes (extract: each scanned page, in this order)", PAGE_PASSES), *getattr(args, "sections", ()))
    if args.markdown:
        print("\n".join(passes_markdown(registry) for _, registry in sections), end="")
        return 0
    for title, registry in sections:
        print(f"{title}:")
        for number, page_pass in enumerate(registry, 1):
            state = "disabled" if page_pass.name in disabled else ("required" if page_pass.required else "enabled")
            print(f"{number:2}. {page_pass.name} v{page_pass.version} [{page_pass.cost.value}; {state}]")
            point = getattr(page_pass, "point", None)  # a parse pass runs at a point of parsing
            if point is not None:
                print(f"    at:   {point.value}")
            print(f"    when: {page_pass.condition}")
            print(f"    does: {page_pass.summary}")
    return 0


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def passes_markdown(passes: tuple[PagePass, ...] = PAGE_PASSES) -> str:
    """A registry as a Markdown table: order, name, version, cost, condition, what it does, required; for
    passes that run at a point of parsing (parse's recovery passes), that point too."""
    at = any(getattr(p, "point", None) is not None for p in passes)
    rows = ["| # | pass | version | cost | " + ("runs at | " if at else "") + "applies when | what it does | can be disabled |",
            "|---|---|---|---|" + ("---|" if at else "") + "---|---|---|"]
    for number, page_pass in enumerate(passes, 1):
        point = f"{_cell(page_pass.point.value)} | " if at else ""  # type: ignore[attr-defined]
        rows.append(
            f"| {number} | `{page_pass.name}` | {page_pass.version} | {page_pass.cost.value} | {point}{_cell(page_pass.condition)} | "
            f"{_cell(page_pass.summary)} | {'no' if page_pass.required else 'yes'} |"
        )
    return "\n".join(rows) + "\n"
