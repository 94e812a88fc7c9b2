"""Reading spec files: YAML (alias bombs and duplicate keys refused) into `SourceSpec`, every
problem an error naming the file and the field; the shipped specs by name; what this machine lacks."""
from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

import yaml
from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from pipeline.infra import YamlDuplicateKeyError, load_yaml
from pipeline.specs.model import (
    SOURCES_DIR,
    FileRule,
    SourceSpec,
    SpecError,
    tesseract_package,
)


def _model_at(loc: tuple) -> type[BaseModel] | None:
    """The model whose field `loc` names (list indexes and dict keys skipped), for listing valid fields."""
    model: type[BaseModel] | None = SourceSpec
    for part in loc:
        if model is None:
            return None
        if not isinstance(part, str) or part not in model.model_fields:
            continue  # a list index or a dict key: the model stays the element's
        model = _model_in(model.model_fields[part].annotation)
    return model


def _model_in(annotation) -> type[BaseModel] | None:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        found = _model_in(arg)
        if found is not None:
            return found
    return None


def _format_error(err: ErrorDetails) -> str:
    where = ".".join(str(part) for part in err["loc"]) or "(top level)"
    message = err["msg"]
    if err["type"] == "extra_forbidden":
        parent = _model_at(tuple(err["loc"][:-1]))
        valid = sorted(n for n in (parent.model_fields if parent else {}) if n != "path")
        message = "unknown field (check the spelling; see the spec reference in docs/reference/spec-fields.md)" + (
            f"; valid fields here: {', '.join(valid)}" if valid else ""
        )
    elif err["type"] == "missing":
        message = "required field is missing"
    return f"field '{where}': {message}"


def _rule_facts(rule: FileRule, context: set[str]) -> set[str]:
    facts = set(re.compile(rule.pattern).groupindex) | set(rule.facts) | context
    return facts | {"year"} if "yy" in facts else facts


def _pairing_problems(spec: SourceSpec) -> list[str]:
    """File rules that can never pair: a sheet and a key pair only when they agree on every fact of
    `pairing.on` that either carries, so a fact one rule gives and a rule of the other role lacks
    keeps their files apart for ever (a key's missing fact is a wildcard under `key_serves_many`)."""
    sections: list[list[tuple[str, FileRule, set[str]]]] = []
    if spec.download is not None:
        templates = spec.download.index_pages + spec.download.url_templates
        context = {"year"} if any("{year}" in t for t in templates) else set()  # the page's or template's year
        sections.append([(f"download.links.{i}", r, _rule_facts(r, context)) for i, r in enumerate(spec.download.links)])
    if spec.local is not None:
        sections.append([(f"local.files.{i}", r, _rule_facts(r, set())) for i, r in enumerate(spec.local.files)])
    wanted = spec.pairing.on
    problems = []
    for rules in sections:
        both_roles = {r.role for _, r, _ in rules} == {"sheet", "key"}
        for where, rule, facts in rules:
            lone = not any(f in facts for f in wanted)
            if both_roles and lone and not (rule.role == "key" and spec.pairing.key_serves_many):
                problems.append(
                    f"field '{where}.pattern': this {rule.role} rule gives none of the facts pairing.on pairs by "
                    f"{wanted}; add a named group such as (?P<{wanted[0]}>...) or a fixed `facts` entry: {rule.pattern!r}"
                )
                continue
            for other_where, other, other_facts in rules:
                if other.role == rule.role or (rule.role == "key" and spec.pairing.key_serves_many):
                    continue
                lacking = [f for f in wanted if f in other_facts and f not in facts]
                if lacking:
                    problems.append(
                        f"field '{where}.pattern': pairing.on pairs by {lacking}, which the {other.role} rule "
                        f"{other_where} gives but this {rule.role} rule does not (as a named group or in `facts`), "
                        f"so their files can never pair: {rule.pattern!r}"
                    )
    return problems


def _unquoted_on(data: dict) -> dict:
    """YAML 1.1 reads a bare `on:` key as the boolean true; a curator writing `pairing: {on: [year]}`
    means the field `on`, so it is read as such rather than rejected."""
    pairing = data.get("pairing")
    if isinstance(pairing, dict) and True in pairing and "on" not in pairing:
        pairing = {("on" if k is True else k): v for k, v in pairing.items()}
        return {**data, "pairing": pairing}
    return data


def parse_spec(data: object, path: Path | str) -> SourceSpec:
    if not isinstance(data, dict):
        raise SpecError(path, [f"the top level must be a mapping of fields, not {type(data).__name__}"])
    data = _unquoted_on(data)
    try:
        spec = SourceSpec.model_validate({**data, "path": str(path)})
    except ValidationError as exc:
        raise SpecError(path, [_format_error(e) for e in exc.errors()]) from None
    stem = Path(path).stem
    if spec.name != stem:
        raise SpecError(path, [f"field 'name': {spec.name!r} must match the file name {stem!r}"])
    problems = _pairing_problems(spec)
    if problems:
        raise SpecError(path, problems)
    return spec


def load_spec_file(path: Path | str) -> SourceSpec:
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = load_yaml(text)
    except FileNotFoundError:
        raise SpecError(path, ["file not found"]) from None
    except YamlDuplicateKeyError as exc:
        raise SpecError(path, exc.problems) from None
    except yaml.YAMLError as exc:
        raise SpecError(path, [f"not valid YAML: {exc}"]) from None
    return parse_spec(data, path)


def environment_problems(spec: SourceSpec) -> list[str]:
    """What would make this spec fail on this machine: an OCR language (or Tesseract) not installed."""
    from pipeline.extract.ocr import OcrUnavailable, installed_languages

    try:
        installed = installed_languages()
    except OcrUnavailable as exc:
        return [f"field 'ocr.languages': cannot check the OCR languages: {exc}"]
    return [
        f"field 'ocr.languages': Tesseract language {lang!r} is not installed on this machine: install the apt "
        f"package {tesseract_package(lang)} (installed: {', '.join(sorted(installed)) or 'none'})"
        for lang in spec.ocr.languages
        if lang not in installed
    ]


def spec_path(name: str) -> Path:
    return SOURCES_DIR / f"{name}.yaml"


def available_specs() -> list[str]:
    return sorted(p.stem for p in SOURCES_DIR.glob("*.yaml"))


def load_spec(name_or_path: str) -> SourceSpec:
    """A spec by name (pipeline/sources/NAME.yaml) or by path to a YAML file."""
    candidate = Path(name_or_path)
    if candidate.suffix in (".yaml", ".yml") and candidate.exists():
        return load_spec_file(candidate)
    path = spec_path(name_or_path)
    if not path.exists():
        raise SpecError(path, [f"no source spec named {name_or_path!r}; available: {available_specs()}"])
    return load_spec_file(path)
