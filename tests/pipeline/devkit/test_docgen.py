"""The docs site's generated references come from the code itself: every command path's help, every
record field with its Parquet type, sections of other Markdown files; a marker that asks for something
that does not exist fails the build with a message naming it."""
from __future__ import annotations

import dataclasses
import os

import pytest

from pipeline.devkit.docgen import (
    DocGenError, cli_reference_markdown, command_parsers, included_markdown, ocr_modules_markdown,
    record_reference_markdown, render_markers,
)
from pipeline.records import QUESTION_SCHEMA, Question


def test_every_command_path_has_its_help_on_the_cli_page():
    paths = command_parsers()
    assert {("extract",), ("specs", "check"), ("eval", "run"), ("score-extraction",)} <= set(paths)
    page = cli_reference_markdown()
    for path, parser in paths.items():
        assert f"## `{' '.join(('examcorpus',) + path)}`" in page
        assert parser.format_usage().split()[1] in page
    # score-extraction's options are read by a parser of its own, which the page shows
    assert "--json" in page.split("## `examcorpus score-extraction`", 1)[1].split("\n## ", 1)[0]


def test_the_help_width_is_fixed_and_the_environment_left_as_it_was(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    page = cli_reference_markdown()
    assert os.environ["COLUMNS"] == "40"
    assert max(len(line) for line in page.split("## `examcorpus extract`", 1)[1].split("```")[1].splitlines()) > 40


def test_every_record_field_has_a_row_with_its_parquet_type_and_default():
    page = record_reference_markdown()
    question = page.split("## `Question`", 1)[1].split("\n## ", 1)[0]
    for f in dataclasses.fields(Question):
        row = next(line for line in question.splitlines() if line.startswith(f"| `{f.name}` |"))
        assert f"`{QUESTION_SCHEMA.field(f.name).type}`" in row
        assert ("**required**" in row) == (f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
    assert "| `type` | `str` | `string` | **required** | a QuestionType value |" in question
    assert "## `ImageRef`" in page and "## `Region`" in page


def test_the_ocr_modules_are_listed_with_their_docstrings():
    table = ocr_modules_markdown()
    assert "| `ocr.tessapi` | Tesseract in this process" in table


def test_an_included_section_sits_under_the_page_title(tmp_path, monkeypatch):
    import pipeline.devkit.docgen as docgen

    (tmp_path / "notes.md").write_text(
        "# Notes\n\nintro\n\n## Part one\n\none\n\n### Detail\n\n```\n# not a heading\n```\n\n## Part two\n\ntwo\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(docgen, "REPO_ROOT", tmp_path)
    assert included_markdown("notes.md#Part one") == "\none\n\n## Detail\n\n```\n# not a heading\n```\n"
    assert included_markdown("notes.md").startswith("intro\n\n## Part one")
    with pytest.raises(DocGenError, match="notes.md has no heading 'Part three'"):
        included_markdown("notes.md#Part three")
    with pytest.raises(DocGenError, match="no such file"):
        included_markdown("../outside.md")


def test_an_unknown_marker_fails_with_its_name():
    with pytest.raises(DocGenError, match="generated:glossary: unknown; known: cli, diagnostics, ocr-modules, ocr-parse-passes, ocr-passes, records"):
        render_markers("# Page\n\n<!-- generated:glossary -->\n")
    assert render_markers("# Page\n\nno markers\n") == "# Page\n\nno markers\n"
