"""The docs' spec-field reference (docs/reference/spec-fields.md) is generated from the spec model, so the
two cannot drift: a field added to `pipeline/specs/model.py` without regenerating the page, or without a
description, fails here."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from pydantic import Field

from pipeline.devkit import spec_reference_markdown, write_spec_reference
from pipeline.devkit.specdoc import (
    END_MARKER, REFERENCE_PAGE, REGENERATE, START_MARKER, SpecDocError, documented_fields, readme_reference, spec_models,
    undescribed_fields,
)
from pipeline.specs import KeySpec, LayoutSpec, OptionsSpec, SectionRule, SourceSpec, _Strict

ROOT = Path(__file__).resolve().parents[3]
EXAMCORPUS = ROOT / ".venv" / "bin" / "examcorpus"


def _table_rows(markdown: str, model_name: str) -> dict[str, list[str]]:
    """field -> cells of the table under the model's heading."""
    section = markdown.split(f"**`{model_name}`**", 1)[1].split("\n**`", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 4 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = cells
    return rows


def test_the_docs_hold_the_reference_generated_from_the_current_model():
    current = readme_reference(REFERENCE_PAGE.read_text(encoding="utf-8"))
    assert current == spec_reference_markdown(), (
        f"{REFERENCE_PAGE.name}'s spec reference is out of date with pipeline/specs/model.py: run `{REGENERATE}`"
    )


def test_every_field_of_every_model_has_a_row_and_a_description():
    markdown = spec_reference_markdown()
    models = [model for model, _ in spec_models()]
    assert {SourceSpec, LayoutSpec, OptionsSpec, KeySpec, SectionRule} <= set(models)
    for model in models:
        rows = _table_rows(markdown, model.__name__)
        assert set(rows) == set(documented_fields(model)), f"{model.__name__}: fields and table rows differ"
    missing = undescribed_fields()
    assert missing == [], f"give these fields a Field(description=...) in pipeline/specs/model.py: {missing}"
    assert "path" not in _table_rows(markdown, "SourceSpec"), "set by the loader, not written by a curator"


def test_types_defaults_choices_and_places_are_rendered():
    markdown = spec_reference_markdown()
    layout = _table_rows(markdown, "LayoutSpec")
    assert layout["question_start"][2] == "**required**"
    assert layout["segment_gap"][1:3] == ["number (> 0)", "`1.6`"]
    assert layout["unlabelled_type"][1] == "one of `open`, `short_answer`, `fill_in`"
    assert layout["sections"][1] == "list of `SectionRule` (below)"
    assert layout["true_false"][1:3] == ["`TrueFalseSpec` (below), optional", "none"]
    assert _table_rows(markdown, "OptionsSpec")["labels"][2] == '`["A", "B", "C", "D"]`'
    assert _table_rows(markdown, "OcrSpec")["dpi"][1] == "integer (≥ 72, ≤ 600)"
    # a model used in two places says so once, and its docstring introduces it
    assert "**`SectionRule`**: `layout.sections`, `key.sections`" in markdown
    assert "whose question numbering restarts" in markdown.split("**`SectionRule`**", 1)[1].split("| field", 1)[0]
    # a regex alternation in a description does not split the table row
    assert _table_rows(markdown, "KeySpec")["answer_marker"][3].endswith("'^(Poprawna odpowiedź\\|Rozwiązanie)'")


def test_a_field_without_description_is_caught():
    class Undocumented(_Strict):
        """A model a curator would meet."""

        documented: int = Field(default=1, description="says what it does")
        silent: str = "x"

    assert undescribed_fields([Undocumented]) == ["Undocumented.silent"]


def test_write_updates_only_the_text_between_the_markers(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# title\n\nbefore\n\n{START_MARKER}\nstale text\n{END_MARKER}\n\nafter\n", encoding="utf-8")
    assert write_spec_reference(readme) is True
    text = readme.read_text(encoding="utf-8")
    assert text.startswith("# title\n\nbefore\n\n" + START_MARKER + "\n")
    assert text.endswith(END_MARKER + "\n\nafter\n")
    assert readme_reference(text, readme) == spec_reference_markdown()
    assert write_spec_reference(readme) is False  # already current: the file is left alone

    no_markers = tmp_path / "OTHER.md"
    no_markers.write_text("# nothing here\n", encoding="utf-8")
    with pytest.raises(SpecDocError, match="OTHER.md: no '<!-- spec-reference:start -->' line"):
        write_spec_reference(no_markers)


@pytest.mark.skipif(not EXAMCORPUS.exists(), reason="needs the project virtualenv's examcorpus command")
def test_the_command_prints_the_reference():
    shown = subprocess.run([str(EXAMCORPUS), "specs", "reference"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == spec_reference_markdown()
