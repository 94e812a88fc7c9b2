"""The spec-field reference of the docs site (docs/reference/spec-fields.md), generated from the spec model
itself (`pipeline.specs`), so the documentation and the fields a spec may have cannot drift apart.

`spec_reference_markdown()` walks `SourceSpec` and every model nested in it (directly, in a list, a
mapping or as an optional field) and renders one Markdown table per model: field, type (with its
choices and bounds), default, and the field's `description`; the model's docstring is its intro.
`examcorpus specs reference` prints it; `--write` puts it into that page between the marker lines.
"""
from __future__ import annotations

import inspect
import json
import types
import typing
from pathlib import Path

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from pipeline import specs
from pipeline.specs import SourceSpec

REFERENCE_PAGE = Path(__file__).resolve().parents[2] / "docs" / "reference" / "spec-fields.md"
START_MARKER = "<!-- spec-reference:start -->"
END_MARKER = "<!-- spec-reference:end -->"
REGENERATE = "examcorpus specs reference --write"


class SpecDocError(ValueError):
    """A page cannot take the generated reference; the message names the file and what is missing."""


def documented_fields(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """The fields a curator writes: those the loader sets itself (excluded from dumps) are left out."""
    return {name: info for name, info in model.model_fields.items() if not info.exclude}


def _nested_models(annotation) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for arg in typing.get_args(annotation) for m in _nested_models(arg)]


def spec_models() -> list[tuple[type[BaseModel], list[str]]]:
    """Every model of a spec, depth first in field order, with the dotted places it is used at."""
    found: dict[type[BaseModel], list[str]] = {}

    def visit(model: type[BaseModel], where: str) -> None:
        first = model not in found
        found.setdefault(model, []).append(where)
        if not first:
            return
        for name, info in documented_fields(model).items():
            for nested in _nested_models(info.annotation):
                visit(nested, f"{where}.{name}" if where else name)

    visit(SourceSpec, "")
    return list(found.items())


def undescribed_fields(models: list[type[BaseModel]] | None = None) -> list[str]:
    """'Model.field' of every field without a `description` (of every spec model by default): each
    would be a row of the reference saying nothing."""
    models = [m for m, _ in spec_models()] if models is None else models
    return [f"{m.__name__}.{name}" for m in models for name, info in documented_fields(m).items() if not info.description]


# ---------------------------------------------------------------- one cell each

_SCALARS = {str: "string", int: "integer", float: "number", bool: "true/false"}


def _type_name(annotation) -> str:
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"`{annotation.__name__}` (below)"
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Literal:
        return "one of " + ", ".join(f"`{a}`" for a in args)
    if origin is list:
        return f"list of {_type_name(args[0])}"
    if origin is dict:
        return f"mapping {_type_name(args[0])} → {_type_name(args[1])}"
    if origin in (typing.Union, types.UnionType):
        named = [_type_name(a) for a in args if a is not type(None)]
        optional = type(None) in args
        return " or ".join(named) + (", optional" if optional else "")
    return f"`{annotation}`"


_BOUNDS = (("ge", "≥"), ("gt", ">"), ("le", "≤"), ("lt", "<"))


def _constraints(info: FieldInfo) -> list[str]:
    """Bounds pydantic checks: `dpi` ≥ 72, a list of at least one entry, a name's pattern."""
    found = []
    lengths: dict[str, int] = {}
    for item in info.metadata:
        for attribute, sign in _BOUNDS:
            if getattr(item, attribute, None) is not None:
                found.append(f"{sign} {getattr(item, attribute)}")
        for attribute in ("min_length", "max_length"):
            if getattr(item, attribute, None) is not None:
                lengths[attribute] = getattr(item, attribute)
        if getattr(item, "pattern", None) is not None:
            found.append(f"matching `{item.pattern}`")
    low, high = lengths.get("min_length"), lengths.get("max_length")
    if low is not None and low == high:
        found.append(f"exactly {_count(low, info)}")
    else:
        found += [f"at least {_count(low, info)}"] if low is not None else []
        found += [f"at most {_count(high, info)}"] if high is not None else []
    return found


def _count(n: int, info: FieldInfo) -> str:
    unit = ("character", "characters") if info.annotation is str else ("entry", "entries")
    return f"{n} {unit[0] if n == 1 else unit[1]}"


def _type_cell(info: FieldInfo) -> str:
    bounds = _constraints(info)
    return _type_name(info.annotation) + (f" ({', '.join(bounds)})" if bounds else "")


def _value(value) -> str:
    if isinstance(value, BaseModel):
        return "its defaults"
    return f"`{json.dumps(value, ensure_ascii=False)}`"  # JSON is valid YAML: the default as a spec writes it


def _default_cell(info: FieldInfo) -> str:
    if info.is_required():
        return "**required**"
    if info.default_factory is not None:
        return _value(info.default_factory())
    if info.default is None:
        return "none"
    return _value(info.default) if info.default is not PydanticUndefined else ""


def _cell(text: str) -> str:
    """Table-safe: one line, pipes escaped (regexes in descriptions have alternations)."""
    return " ".join(text.split()).replace("|", "\\|")


def _model_doc(model: type[BaseModel]) -> str:
    own = model.__dict__.get("__doc__")  # not BaseModel's, which every model would inherit
    return inspect.cleandoc(own) if own else ""


def _model_section(model: type[BaseModel], places: list[str]) -> list[str]:
    where = ", ".join(f"`{p}`" for p in places) if places != [""] else "the top level of a spec file"
    lines = [f"**`{model.__name__}`**: {where}", ""]
    doc = _model_doc(model)
    if doc:
        lines += [doc, ""]
    lines += ["| field | type | default | meaning |", "|---|---|---|---|"]
    for name, info in documented_fields(model).items():
        cells = [f"`{name}`", _type_cell(info), _default_cell(info), info.description or ""]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return lines + [""]


def spec_reference_markdown() -> str:
    """Every field of every spec model, as Markdown: one table per model, the top level first."""
    intro = inspect.cleandoc(specs.__doc__ or "").split("\n\n")[0]
    lines = [
        "#### Every spec field",
        "",
        f"Generated from `pipeline/specs/model.py` by `{REGENERATE}`; do not edit by hand. {' '.join(intro.split())}",
        "",
    ]
    for model, places in spec_models():
        lines += _model_section(model, places)
    return "\n".join(lines).rstrip() + "\n"


# ---------------------------------------------------------------- the reference page

def readme_reference(text: str, path: Path | str = REFERENCE_PAGE) -> str:
    """The text between the marker lines of a page."""
    start, end = _marker_span(text, path)
    return text[start:end]


def _marker_span(text: str, path: Path | str) -> tuple[int, int]:
    start = text.find(START_MARKER + "\n")
    end = text.find(END_MARKER)
    if start < 0 or end < 0 or end < start:
        raise SpecDocError(f"{path}: no '{START_MARKER}' line followed by a '{END_MARKER}' line")
    return start + len(START_MARKER) + 1, end


def write_reference(path: Path | str = REFERENCE_PAGE) -> bool:
    """Put the generated reference between the page's markers; True when the file changed."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    start, end = _marker_span(text, path)
    updated = text[:start] + spec_reference_markdown() + text[end:]
    if updated == text:
        return False
    path.write_text(updated, encoding="utf-8")
    return True
