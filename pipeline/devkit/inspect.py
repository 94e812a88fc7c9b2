"""`examcorpus inspect SHEET.pdf --source SPEC`: the line stream a spec's patterns run on, and which rule
took each line, so a curator can write or repair a spec without reading the parser.

The sheet is extracted as the season run extracts it (`ExtractOptions.from_spec`), and again with the
spec's clean-up rules switched off one at a time, so every line the clean-up removed is shown with the
rule that removed it (`drop_pages`, `drop_lines`, `remove_repeated_lines`, `drop_margin_notes`). The kept
lines go through the parser's own stream and numbering (`pipeline.parse`: `line_stream`, `split_blocks`,
`option_start_regex`), so the rule column is what the parser does, not a re-implementation of it.
OCR readings are cached per page, keyed by the file's content: a sheet a season run has read uses that
run's readings (`run_ocr_cache`: the project root's `raw/cache`, from `--root`, the current folder, or
the run folder the sheet's own copy lies in), else `--ocr-cache` or the user's cache folder; trying a
new rule on a scanned sheet re-runs the layout, never Tesseract.
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from pipeline.extract import ExtractedDocument, ExtractError, ExtractOptions, Line, Page, PageMethod, StageUnavailable, extract_document
from pipeline.parse import (
    Numbering,
    Recovery,
    bare_label_run,
    canonical_label,
    column_edges,
    find_options,
    indent,
    line_stream,
    matched_label,
    option_start_regex,
    plain_text,
    recovery_for,
    split_blocks,
    split_booklet,
    under_word_options,
)
from pipeline.devkit.inspectkey import key_rules
from pipeline.infra import add_command, printable
from pipeline.patterns import spec_pattern
from pipeline.specs import SourceSpec, SpecError, load_spec


class InspectError(ValueError):
    """The sheet or the spec cannot be inspected; the message names the file and the problem."""


@dataclass(frozen=True)
class InspectedLine:
    page: int
    top: float
    x0: float
    font_size: float | None
    bold: bool
    indent: float  # x0 minus its column's left edge (`parse.geometry.indent`), as layout.question_max_indent reads it
    method: str  # text | ocr | empty; ocr also for a text page's line OCR read in place (drawn text, unmapped glyphs)
    rule: str  # which rule took the line
    text: str  # as the patterns see it (the parser's plain text) for kept lines, raw for dropped ones


@dataclass
class Inspection:
    sheet: str
    spec: str
    page_count: int
    lines: list[InspectedLine]
    warnings: list[str]

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False, indent=1)


def default_ocr_cache() -> Path:
    """Where OCR readings are kept between inspections: $XDG_CACHE_HOME/examcorpus/ocr."""
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "examcorpus" / "ocr"


RUN_CACHE = Path("raw") / "cache"  # a season run's stage caches (its OCR readings among them), under its root


def run_ocr_cache(sheet: Path, root: Path | None = None) -> Path | None:
    """The OCR cache of the season run a sheet belongs to, or None. Readings are keyed by the file's
    SHA-256, so any copy of the sheet finds them: the run of `root` (default the current folder, as
    `extract --root` defaults to it), else the run whose content-addressed copy (`ROOT/raw/<sha256>.pdf`)
    the sheet is."""
    candidates = [Path(root) if root is not None else Path(".")]
    resolved = Path(sheet).resolve()
    if resolved.parent.name == "raw":
        candidates.append(resolved.parent.parent)
    for candidate in candidates:
        if (candidate / RUN_CACHE).is_dir():
            return (candidate / RUN_CACHE).resolve()
    return None


def ocr_cache_for(sheet: Path, *, ocr_cache: Path | None = None, root: Path | None = None) -> Path:
    """Where a tool reading one sheet keeps its OCR readings: the one given, a run's, or the user's."""
    if ocr_cache is not None:
        return Path(ocr_cache)
    return run_ocr_cache(sheet, root) or default_ocr_cache()


def _line_key(page: int, line: Line) -> tuple:
    """A line's identity across extractions of one file: the runs differ only in what they drop."""
    return page, round(line.x0, 1), round(line.top, 1), round(line.x1, 1)


def _extract(path: Path, sha256: str, options: ExtractOptions) -> ExtractedDocument:
    try:
        return extract_document(path, sha256, options)
    except (ExtractError, StageUnavailable) as exc:
        raise InspectError(str(exc)) from None


def _kept_keys(document: ExtractedDocument) -> set[tuple]:
    return {_line_key(p.number, line) for p in document.pages for line in p.lines}


def _cleanup_reasons(path: Path, sha256: str, spec: SourceSpec, options: ExtractOptions) -> tuple[ExtractedDocument, dict]:
    """Extract with every clean-up rule off (the raw lines), and once per enabled rule with only that
    rule on: a raw line missing from a one-rule run was removed by that rule. The rules filter lines
    independently (each is decided on the uncleaned page), so the attribution is exact."""
    bare = replace(options, drop_lines=(), drop_pages=(), remove_repeated_lines=False, drop_margin_notes=False)
    raw = _extract(path, sha256, bare)
    reasons: dict[tuple, str] = {}
    single_rules = [
        ("remove_repeated_lines", replace(bare, remove_repeated_lines=True), options.remove_repeated_lines),
        ("drop_margin_notes", replace(bare, drop_margin_notes=True), options.drop_margin_notes),
    ]
    for name, rule_options, enabled in single_rules:
        if not enabled:
            continue
        kept = _kept_keys(_extract(path, sha256, rule_options))
        for page in raw.pages:
            for line in page.lines:
                key = _line_key(page.number, line)
                if key not in kept:
                    reasons.setdefault(key, f"dropped line ({name})")
    rules = [(pattern, spec_pattern(pattern)) for pattern in spec.layout.drop_lines]
    for page in raw.pages:
        for line in page.lines:
            hit = next((pattern for pattern, rule in rules if rule.search(line.text)), None)
            if hit is not None:
                reasons.setdefault(_line_key(page.number, line), f"dropped line (drop_lines {hit!r})")
    return raw, reasons


def _dropped_page_rule(page: Page, spec: SourceSpec) -> str:
    for pattern in spec.layout.drop_pages:
        if spec_pattern(pattern, re.MULTILINE).search(page.text):
            return f"dropped page (drop_pages {pattern!r})"
    return f"dropped page ({page.dropped_reason})"


def _stop_rule(spec: SourceSpec, texts: list[str]) -> tuple[str, str]:
    """(rule of the line that ends the parsed stream, rule of the lines after it)."""
    for pattern in spec.layout.stop_at:
        if any(spec_pattern(pattern).search(t) for t in texts):
            return f"stop_at {pattern!r}", "after stop_at (not parsed)"
    return f"key.in_sheet {spec.key.in_sheet!r} (answer key starts)", "answer key in the booklet (key.in_sheet)"


def _stream_rules(document: ExtractedDocument, spec: SourceSpec) -> tuple[dict[tuple, tuple[str, str]], dict[int, list[float]]]:
    """Rule and plain text of every line of the parser's stream, by line key; the lines from the stop
    line on (stop_at, key.in_sheet), which the parser never reads, included. And each page's column
    edges, measured on the lines the parser reads, as it measures them (`layout.question_max_indent`)."""
    layout = spec.layout
    labels = layout.options.labels
    recovery = recovery_for(spec.ocr.passes.disable)  # the OCR recovery passes the spec leaves, as parse runs them
    every = line_stream(document, labels=labels, reader=recovery.line_reader(labels))
    # The parser's own split: a key printed in the booklet starts at its heading's column.
    parsed, key_document = split_booklet(document, layout.stop_at, spec.key.in_sheet, labels, recovery)
    result: dict[tuple, tuple[str, str]] = {}
    read = {_line_key(item.page, item.line) for item in parsed}
    unread = [item for item in every if _line_key(item.page, item.line) not in read]
    if unread:
        first_rule, later_rule = _stop_rule(spec, [unread[0].text, plain_text(unread[0].text)[0]])
        for index, item in enumerate(unread):
            key = _line_key(item.page, item.line)
            result[key] = (first_rule if index == 0 else later_rule, plain_text(item.text)[0])
    if key_document is not None:  # the key's lines: the part and entries each went to
        heading = _line_key(unread[0].page, unread[0].line)
        result.update({k: (f"{rule} [key.in_sheet]", text) for k, (rule, text) in key_rules(key_document, spec).items()
                       if k in result and k != heading})
    numbering = Numbering(sections=list(layout.sections), max_indent=layout.question_max_indent)
    blocks = split_blocks(parsed, layout.question_start, layout.context_start, numbering, recovery)
    edges = {page: column_edges([item for item in parsed if item.page == page]) for page in {item.page for item in parsed}}
    edges.update({page: column_edges([item for item in every if item.page == page])
                  for page in {item.page for item in every} - edges.keys()})
    taken: dict[int, str] = {}  # id(stream line) -> rule
    matchers = _Matchers(
        option_start_regex(labels, layout.options.styles), spec_pattern(layout.question_start),
        spec_pattern(layout.points) if layout.points else None, labels,
        bare_label_run(layout.options.styles, layout.options.min_count), layout.options.under_words,
        layout.options.min_count, recovery,
    )
    restarts = {id(item) for item in numbering.restarts}
    indented = {id(item) for item in numbering.indented}
    by_id = {id(item): item for item in parsed}
    for block in blocks:
        _take_start(block, parsed, by_id, taken)
        _take_block_lines(block, matchers, restarts | indented, taken, indented)
    seen_block = False
    for item in parsed:
        rule = taken.get(id(item))
        seen_block = seen_block or rule is not None
        if rule is None:
            text = plain_text(item.text)[0]
            section = next((s for s in layout.sections if s.start and spec_pattern(s.start).search(text)), None)
            if section is not None:
                rule = f"section {section.prefix!r} (start {section.start!r})"
            else:
                rule = "text (outside any question)" if seen_block else "text (before the first question)"
            if id(item) in indented:
                rule += f"; {_INDENTED}"
        result[_line_key(item.page, item.line)] = (rule, plain_text(item.text)[0])
    return result, edges


_INDENTED = "question_start, indented past layout.question_max_indent"


@dataclass(frozen=True)
class _Matchers:
    option: re.Pattern
    question_start: re.Pattern
    points: re.Pattern | None
    labels: list[str]
    bare_min_run: int | None  # bare labels ('A' style) in a run of this many are labels
    under_words: bool = False  # layout.options.under_words: a row of labels under the sentence's words
    min_count: int = 3
    recovery: Recovery | None = None  # the spec's OCR recovery passes (every one when not given)


def _option_labels_on(item, options) -> list[str]:
    """The labels of the options the parser opened on `item`'s line: one, or several where options are
    printed side by side and the parser split the line at each label."""
    return [
        o.label for o in options
        if o.first.page == item.page and abs(o.first.line.top - item.line.top) < 0.01
        and item.line.x0 - 0.5 <= o.first.line.x0 <= item.line.x1
    ]


def _take_block_lines(block, matchers: _Matchers, restarts: set[int], taken: dict[int, str],
                      indented: frozenset[int] | set[int] = frozenset()) -> None:
    """Rules of the lines inside a question or passage block, as the option and points matchers see them."""
    owner = "passage" if block.kind == "context" else block.number
    bare_label: tuple[object, str] | None = None  # a label printed alone ("a)"), its text beside it
    found = (find_options(block.lines, matchers.labels, matchers.option, matchers.bare_min_run, matchers.recovery).options
             if block.kind == "question" else [])
    under = _under_word_options(block, matchers) if block.kind == "question" and matchers.under_words else []
    for option in under:
        taken[id(option.first)] = f"option label {option.label} (under the word(s) {option.text!r})"
    label_row = {id(option.first) for option in under}
    for item in block.lines:
        if id(item) in label_row:
            continue
        text = plain_text(item.text)[0]
        opened = _option_labels_on(item, found)
        if len(opened) > 1 or (opened and not matchers.option.match(text)):
            # options side by side on one line, or a bare label the parser took from its run
            taken[id(item)] = f"option labels {', '.join(opened)} (side by side)" if len(opened) > 1 else f"option label {opened[0]}"
            bare_label = None
            continue
        option = matchers.option.match(text)
        points = matchers.points.search(text) if matchers.points else None
        header = matchers.question_start.match(text)
        if option and block.kind == "question":
            label = canonical_label(matched_label(option), matchers.labels) or matched_label(option)
            taken[id(item)] = f"option label {label}"
            bare_label = (item, label) if not option.group("text").strip() else None
            continue
        if bare_label is not None and _beside(bare_label[0], item):
            # the parser pulls the text printed right of a lone label into that option
            taken[id(item)] = f"option label {bare_label[1]} (text beside)"
        elif points:
            taken[id(item)] = f"points {points.groupdict().get('points') or ''}".rstrip()
        elif id(item) in indented:
            taken[id(item)] = f"text (continuation of {owner}; {_INDENTED})"
        elif id(item) in restarts:
            taken[id(item)] = f"text (continuation of {owner}; numbering restarts here: declare layout.sections)"
        elif header:
            number = header.group("number").strip()
            taken[id(item)] = f"text (continuation of {owner}; question_start {number} does not increase)"
        else:
            taken[id(item)] = f"text (continuation of {owner})"
        bare_label = None


def _under_word_options(block, matchers: _Matchers) -> list:
    """The options the parser reads from a label row under the block's sentence (as `parse.build` calls it)."""
    header = block.start if block.header_rest else None
    lines = ([replace(block.start, line=replace(block.start.line, text=block.header_rest))] if header else []) + block.lines
    found = under_word_options(lines, matchers.labels, matchers.min_count, header)
    return found.options if found is not None else []


def _take_start(block, parsed: list, by_id: dict, taken: dict[int, str]) -> None:
    """The header line of a block; a number printed apart from its text ('1.' | 'Zgodnie…' across a tab)
    was joined by the parser into a new line, so both pieces are given the header's rule."""
    if block.kind == "context":
        rule = "context_start"
    else:
        points = f", points {block.points:g}" if block.points is not None else ""
        section = ", reserve" if block.reserve else ""
        rule = f"question_start → number {block.number}{points}{section}"
    start = block.start
    if id(start) in by_id:
        taken[id(start)] = rule
        return
    for first, second in zip(parsed, parsed[1:]):
        if first.page == start.page and first.line.x0 == start.line.x0 and second.line.x1 == start.line.x1:
            taken[id(first)] = rule
            taken[id(second)] = rule + " (text beside)"
            return


def _beside(label_line, item) -> bool:
    """`item` sits on the label's row, right of it."""
    a, b = label_line.line, item.line
    overlap = min(a.bottom, b.bottom) - max(a.top, b.top)
    return label_line.page == item.page and b.x0 > a.x1 and overlap > 0.5 * min(a.bottom - a.top, b.bottom - b.top)


def inspect_sheet(pdf_path: Path | str, spec: SourceSpec, *, ocr_cache_dir: Path | str | None = None,
                  key: bool = False) -> Inspection:
    """Every line of every page of the sheet (with `key`: of the answer key) with the rule of `spec` that took it."""
    path = Path(pdf_path)
    if not path.is_file():
        raise InspectError(f"{path}: file not found")
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    cache = ocr_cache_for(path, ocr_cache=ocr_cache_dir)
    options = ExtractOptions.from_spec(spec, ocr_cache_dir=str(cache))
    document = _extract(path, sha256, options)
    raw, dropped = _cleanup_reasons(path, sha256, spec, options)
    kept_rules, edges = (key_rules(document, spec), {}) if key else _stream_rules(document, spec)
    kept = _kept_keys(document)
    lines: list[InspectedLine] = []
    for page, raw_page in zip(document.pages, raw.pages):
        if page.dropped_reason:
            page_rule = _dropped_page_rule(page, spec)
            rows = [(line, page_rule, line.text) for line in page.lines]
        else:
            rows = []
            for line in raw_page.lines:
                key = _line_key(page.number, line)
                if key in kept_rules:
                    rule, text = kept_rules[key]
                elif key in dropped:
                    rule, text = dropped[key], line.text
                elif key in kept:  # in the document, not in the stream: line_stream skips blanks
                    rule, text = "blank (answer line or leader: skipped)", line.text
                else:
                    rule, text = "dropped line (page furniture)", line.text
                rows.append((line, rule, text))
        page_edges = edges.get(page.number) or column_edges([line for line, _, _ in rows])
        for line, rule, text in rows:
            lines.append(InspectedLine(
                page=page.number, top=round(line.top, 1), x0=round(line.x0, 1),
                font_size=round(line.font_size, 1) if line.font_size else None, bold=line.bold,
                indent=round(indent(line.x0, page_edges), 1), method=PageMethod.OCR.value if line.ocr else page.method.value, rule=rule, text=text,
            ))
    return Inspection(str(path), spec.name, document.page_count, lines, list(document.warnings))


# ---------------------------------------------------------------- output

RULE_WIDTH = 44
TEXT_WIDTH = 64


def _cut(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def format_table(inspection: Inspection) -> str:
    header = f"{'page':>4} {'top':>6} {'x0':>6} {'size':>5} {'bold':>4} {'indent':>6} {'method':6} {'rule':{RULE_WIDTH}} text"
    rows = [header, "-" * len(header)]
    for item in inspection.lines:
        size = f"{item.font_size:.1f}" if item.font_size else "-"
        rows.append(
            f"{item.page:>4} {item.top:>6.1f} {item.x0:>6.1f} {size:>5} {'yes' if item.bold else '':>4} "
            f"{item.indent:>+6.1f} {item.method:6} {_cut(item.rule, RULE_WIDTH):{RULE_WIDTH}} {_cut(printable(item.text, newlines=False), TEXT_WIDTH)}"
        )
    rows += [f"warning: {printable(w)}" for w in inspection.warnings]
    return "\n".join(rows)


def register(subparsers) -> None:
    p = add_command(
        subparsers, "inspect", _cmd_inspect,
        help="show the line stream a spec's patterns run on, and which rule took each line",
        description="Extracts SHEET as the season run does and prints every line (page, position, font size, "
        "bold, indentation from the page's usual left edge, text or OCR) with the spec rule that took it.",
    )
    p.add_argument("sheet", type=Path, help="the sheet PDF")
    p.add_argument("--source", required=True, help="source spec name or YAML path")
    p.add_argument("--page", type=int, help="show only this page (1-based)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--key", action="store_true", help="SHEET is an answer key: show the part and entries each line went to")
    add_ocr_cache_arguments(p)


def add_ocr_cache_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--root", type=Path,
        help="project root of the season run that read the sheet: its OCR readings (raw/cache) are reused "
        "(default: the current folder when it holds a run, or the run folder the sheet's raw/ copy lies in)",
    )
    parser.add_argument("--ocr-cache", type=Path,
                        help=f"OCR readings cache, when the sheet belongs to no run (default {default_ocr_cache()})")


def _cmd_inspect(args: argparse.Namespace) -> int:
    try:
        spec = load_spec(args.source)
        cache = ocr_cache_for(args.sheet, ocr_cache=args.ocr_cache, root=args.root)
        inspection = inspect_sheet(args.sheet, spec, ocr_cache_dir=cache, key=args.key)
        if args.page is not None:
            if not 1 <= args.page <= inspection.page_count:
                raise InspectError(f"{args.sheet}: no page {args.page} (the sheet has {inspection.page_count})")
            inspection.lines = [line for line in inspection.lines if line.page == args.page]
    except SpecError as exc:
        print(f"examcorpus inspect: {exc.path}: invalid source spec: {'; '.join(exc.problems)}", file=sys.stderr)
        return 2
    except InspectError as exc:
        print(f"examcorpus inspect: {exc}", file=sys.stderr)
        return 2
    print(inspection.to_json() if args.json else format_table(inspection))
    return 0
