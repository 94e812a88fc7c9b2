"""The docs site's generated references, rendered from the code at build time, so they cannot drift:
every subcommand's `--help`, the record schema of `pipeline/records.py`, the OCR modules and sections of
other Markdown files (eval/README.md) included in place.

A page asks for one with a marker line: `<!-- generated:cli -->`, `<!-- generated:records -->`,
`<!-- generated:ocr-modules -->` or `<!-- include:PATH -->` / `<!-- include:PATH#Heading -->` (PATH from the
repository root; with a heading, only that section). `mkdocs.yml` names this module as a hook, and
mkdocs calls `on_page_markdown` for every page. `command_parsers()` is also what the docs test checks
the guides' commands against.
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib
import os
import re
import typing
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^<!-- (generated|include):(.+?) -->$", re.MULTILINE)
HELP_WIDTH = "100"  # argparse wraps help to $COLUMNS: a fixed width keeps the page the same on every machine

# Subcommands whose options a parser of their own reads (the CLI hands it every argument untouched).
DELEGATED_PARSERS: dict[str, str] = {"score-extraction": "pipeline.devkit.fidelity:build_parser"}


class DocGenError(ValueError):
    """A page asks for something that cannot be generated; the message names the marker."""


# ---------------------------------------------------------------- the CLI


@contextmanager
def _help_width() -> Iterator[None]:
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_WIDTH
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = before


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    found: dict[str, argparse.ArgumentParser] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found.update(action.choices)
    return found


def _delegated(name: str) -> argparse.ArgumentParser:
    module, function = DELEGATED_PARSERS[name].split(":")
    build: Callable[[], argparse.ArgumentParser] = getattr(importlib.import_module(module), function)
    return build()


def command_parsers() -> dict[tuple[str, ...], argparse.ArgumentParser]:
    """Every command path of `examcorpus` (`()`, `("extract",)`, `("eval", "run")`, …) with the parser
    that reads its options, in the order `--help` lists them."""
    from pipeline.cli import build_parser

    found: dict[tuple[str, ...], argparse.ArgumentParser] = {}

    def visit(path: tuple[str, ...], parser: argparse.ArgumentParser) -> None:
        found[path] = parser
        for name, sub in _subcommands(parser).items():
            visit(path + (name,), _delegated(name) if not path and name in DELEGATED_PARSERS else sub)

    with _help_width():
        visit((), build_parser())
    return found


def option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """The flags a parser accepts (`--source`, `-h`, …)."""
    return set(parser._option_string_actions)


def cli_reference_markdown() -> str:
    """One section per command path, with its `--help` as argparse prints it."""
    out: list[str] = []
    with _help_width():
        for path, parser in command_parsers().items():
            title = " ".join(("examcorpus",) + path)
            out += [f"## `{title}`", "", "```text", parser.format_help().rstrip(), "```", ""]
    return "\n".join(out)


# ---------------------------------------------------------------- the record schema


def _field_comments(cls: type) -> dict[str, str]:
    """The comment written after each field of a dataclass in its source (`name: type  # comment`)."""
    source = Path(typing.cast(str, importlib.import_module(cls.__module__).__file__)).read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == cls.__name__)
    comments: dict[str, str] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            line = lines[stmt.lineno - 1]
            if "  # " in line:
                comments[stmt.target.id] = line.split("  # ", 1)[1].strip()
    return comments


def _default_text(f: dataclasses.Field) -> str:
    if f.default is not dataclasses.MISSING:
        return f"`{f.default!r}`"
    if f.default_factory is not dataclasses.MISSING:
        return f"`{f.default_factory()!r}`"
    return "**required**"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def record_reference_markdown() -> str:
    """A table per record dataclass: field, Python type, Parquet type (for `Question`), default, and the
    comment its source gives it."""
    from pipeline.records import QUESTION_SCHEMA, ImageRef, Question, Region

    out: list[str] = []
    for cls in (Question, ImageRef, Region):
        comments = _field_comments(cls)
        doc = (cls.__doc__ or "").strip() if cls.__doc__ and not cls.__doc__.startswith(cls.__name__ + "(") else ""
        out += [f"## `{cls.__name__}`", ""]
        if doc:
            out += [doc, ""]
        with_arrow = cls is Question
        out += ["| field | Python type | " + ("Parquet type | " if with_arrow else "") + "default | note |",
                "|---|---|" + ("---|" if with_arrow else "") + "---|---|"]
        for f in dataclasses.fields(cls):
            cells = [f"`{f.name}`", f"`{_cell(str(f.type))}`"]
            if with_arrow:
                arrow = QUESTION_SCHEMA.field(f.name)
                cells.append(f"`{_cell(str(arrow.type))}`" + (" (nullable)" if arrow.nullable else ""))
            cells += [_cell(_default_text(f)), _cell(comments.get(f.name, ""))]
            out.append("| " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------- OCR modules


def ocr_modules_markdown() -> str:
    """Each module of `pipeline/extract/ocr/` with the first paragraph of its docstring."""
    folder = REPO_ROOT / "pipeline" / "extract" / "ocr"
    rows = ["| module | what it does |", "|---|---|"]
    for path in sorted(folder.glob("*.py")):
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        first = " ".join(doc.split("\n\n", 1)[0].split())
        name = "ocr" if path.stem == "__init__" else f"ocr.{path.stem}"
        rows.append(f"| `{name}` | {_cell(first)} |")
    return "\n".join(rows) + "\n"


def ocr_passes_markdown() -> str:
    """The registry of OCR page passes (`pipeline.extract.ocr.pagepasses.PAGE_PASSES`) as a table."""
    from pipeline.extract.ocr import passes_markdown

    return passes_markdown()


def ocr_parse_passes_markdown() -> str:
    """The registry of parse's OCR recovery passes (`pipeline.parse.PARSE_PASSES`) as a table, with the point of
    parsing each runs at."""
    from pipeline.extract.ocr import passes_markdown
    from pipeline.parse import PARSE_PASSES

    return passes_markdown(PARSE_PASSES)


# ---------------------------------------------------------------- diagnostics


def diagnostics_markdown() -> str:
    """The registry of diagnostic codes (`pipeline.diagnostics.Code`) as a table: the code a report line,
    a flag or the audit page's filter names, its severity and the message it renders."""
    from pipeline.diagnostics import Code

    rows = ["| code | severity | message |", "|---|---|---|"]
    for member in Code:
        template = member.template.replace("{{", "{").replace("}}", "}")
        rows.append(f"| `{member.code}` | {member.severity.value} | {_cell(template)} |")
    return "\n".join(rows) + "\n"


# ---------------------------------------------------------------- includes


def _shift_headings(text: str, by: int) -> str:
    out, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"^(#{1,6}) ", line)
        if match:
            line = "#" * min(6, max(1, len(match.group(1)) + by)) + line[len(match.group(1)):]
        out.append(line)
    return "\n".join(out)


def _heading_levels(lines: list[str]) -> dict[int, int]:
    """Line index → level of every Markdown heading outside code fences."""
    levels: dict[int, int] = {}
    fenced = False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"^(#{1,6}) ", line)
        if match:
            levels[i] = len(match.group(1))
    return levels


def included_markdown(target: str) -> str:
    """A Markdown file of the repository (or one section of it, `PATH#Heading`) to be shown under a page's
    own title: its title line is left out and its headings sit one level below the page's."""
    path_text, _, heading = target.partition("#")
    path = (REPO_ROOT / path_text).resolve()
    if REPO_ROOT not in path.parents or not path.is_file():
        raise DocGenError(f"include:{target}: no such file in the repository")
    lines = path.read_text(encoding="utf-8").splitlines()
    if heading:
        levels = _heading_levels(lines)
        starts = [i for i in levels if lines[i].lstrip("#").strip() == heading]
        if not starts:
            raise DocGenError(f"include:{target}: {path_text} has no heading {heading!r}")
        start = starts[0]
        end = next((i for i in levels if i > start and levels[i] <= levels[start]), len(lines))
        body = "\n".join(lines[start + 1:end])
        return _shift_headings(body, 2 - (levels[start] + 1)) + "\n"
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(lines).strip("\n") + "\n"


# ---------------------------------------------------------------- the hook

GENERATORS: dict[str, Callable[[], str]] = {
    "cli": cli_reference_markdown,
    "records": record_reference_markdown,
    "ocr-modules": ocr_modules_markdown,
    "ocr-passes": ocr_passes_markdown,
    "ocr-parse-passes": ocr_parse_passes_markdown,
    "diagnostics": diagnostics_markdown,
}


def render_markers(markdown: str) -> str:
    """The page with every marker line replaced by what it asks for."""

    def replace(match: re.Match[str]) -> str:
        kind, name = match.group(1), match.group(2)
        if kind == "include":
            return included_markdown(name)
        if name not in GENERATORS:
            raise DocGenError(f"generated:{name}: unknown; known: {', '.join(sorted(GENERATORS))}")
        return GENERATORS[name]()

    return MARKER.sub(replace, markdown)


def on_page_markdown(markdown: str, page: object = None, config: object = None, files: object = None, **_: object) -> str:
    """mkdocs hook (mkdocs.yml `hooks:`): expand the page's markers."""
    return render_markers(markdown)


if __name__ == "__main__":  # print one reference: python -m pipeline.devkit.docgen cli|records|ocr-modules|ocr-passes|ocr-parse-passes|diagnostics
    import sys

    print(GENERATORS[sys.argv[1] if len(sys.argv) > 1 else "cli"](), end="")
