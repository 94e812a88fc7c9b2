"""`examcorpus specs check`: what a spec means, beyond what its fields' types say.

Loading a spec (`pipeline.specs`) refuses unknown fields, wrong types and regexes without the named
groups the code reads. A spec can pass that and still be broken: a `drop_lines` pattern that matches
the empty text drops every line, a `question_start` that matches it opens a question on every line, a
pattern that backtracks without end hangs every run, a key section no sheet section carries keys
nothing, a key printed in the booklet with `pairing.key_required` fails every sheet. `spec_findings`
names each of these, with the field, as a problem (the spec cannot work as written) or a warning (it
likely does not do what was meant).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from pipeline.parse import canonical_label
from pipeline.patterns import PatternTimeout, SpecPattern, pattern_fields, pattern_warnings
from pipeline.specs import SourceSpec

# Lines a bounded pattern must finish on within `BOUND_S`: a line's worth of what spec patterns usually
# repeat (letters, digits, spaces, dots), each ending in a character that makes a match fail late. A
# pattern exponential in the line's length (catastrophic backtracking) takes years on them; a merely
# polynomial one (the `regex` module copes with `(\w+\s?)+$`) takes milliseconds.
HOSTILE_LINES = tuple(run * 60 + "\x00!" for run in ("a", "1", " ", "a ", "1. ", ". ", "-"))
BOUND_S = 0.25

# Fields whose pattern is tried on every line (or page) and acts wherever it matches: one that matches
# the empty text matches every line, so it acts on all of them.
EVERY_LINE_EFFECT = {
    "layout.drop_lines": "drops every line",
    "layout.drop_pages": "drops every page",
    "layout.stop_at": "stops parsing at the first line",
    "layout.question_start": "opens a question on every line",
    "layout.context_start": "opens a passage on every line",
    "layout.sections": "opens a section on every line",
    "key.stop_at": "stops reading the key at its first line",
    "key.in_sheet": "starts the key at the booklet's first line",
    "key.entry": "reads an entry from every position of a key line",
    "key.task_start": "opens a key task on every line",
    "key.sections": "opens a key section on every line",
}

# Ways a key list prints "question 1, answer X", to find which option labels `key.entry` can give.
ENTRY_SHAPES = ("1 {}", "1. {}", "1) {}", "1.{}", "1 - {}", "1: {}", "1\t{}", "1 – {}", "01 {}", "1 ({})")

MARKING_SCHEME_FIELDS = ("task_start", "answer_marker", "answer_end")


@dataclass
class Findings:
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def spec_findings(spec: SourceSpec) -> Findings:
    """Every problem and warning of what `spec` says, each naming its field."""
    found = Findings(warnings=pattern_warnings(spec))
    for where, pattern in pattern_fields(spec):
        _check_pattern(where, pattern, found)
    _check_groups(spec, found)
    _check_labels(spec, found)
    _check_key(spec, found)
    _check_languages(spec, found)
    return found


def _effect_of(where: str) -> str | None:
    bare = re.sub(r"\[\d+\]", "", where)
    return next((effect for prefix, effect in EVERY_LINE_EFFECT.items() if bare.startswith(prefix)), None)


def _check_pattern(where: str, pattern: str, found: Findings) -> None:
    try:
        compiled = SpecPattern(pattern)
    except Exception as exc:  # noqa: BLE001 - the regex module's own error kinds
        found.problems.append(f"field '{where}': the pattern does not compile as runs compile it ({exc}): {pattern!r}")
        return
    effect = _effect_of(where)
    try:
        if effect and compiled.search("") is not None:
            found.problems.append(f"field '{where}': the pattern matches the empty text, so it matches every line and "
                                  f"{effect}: {pattern!r}")
        for line in HOSTILE_LINES:
            _bounded_search(compiled, line)
    except PatternTimeout:
        found.problems.append(
            f"field '{where}': the pattern takes over {BOUND_S:g} s on a long line (catastrophic backtracking); "
            f"every run would stop on it: {pattern!r}")


def _bounded_search(compiled: SpecPattern, text: str) -> None:
    import regex

    try:
        compiled._compiled.search(text, timeout=BOUND_S)
    except TimeoutError:
        raise PatternTimeout(compiled.pattern, text, BOUND_S) from None
    except regex.error:
        return


def _needs(where: str, pattern: str | None, group: str, found: Findings) -> None:
    if pattern is not None and group not in re.compile(pattern).groupindex:
        found.problems.append(f"field '{where}': the code reads the named group (?P<{group}>...), which the pattern "
                              f"lacks: {pattern!r}")


def _check_groups(spec: SourceSpec, found: Findings) -> None:
    layout = spec.layout
    _needs("layout.points", layout.points, "points", found)
    _needs("layout.sheet_code", layout.sheet_code, "code", found)
    if layout.true_false is not None:
        _needs("layout.true_false.statement", layout.true_false.statement, "n", found)


def _check_labels(spec: SourceSpec, found: Findings) -> None:
    options = spec.layout.options
    labels = options.labels
    same: dict[str, list[str]] = {}
    for label in labels:
        same.setdefault(canonical_label(label, labels) or label, []).append(label)
    clashing = [group for group in same.values() if len(group) > 1]
    if clashing:
        found.problems.append(f"field 'layout.options.labels': labels {clashing} read alike (case and look-alike letters "
                              "of other scripts are folded), so options could not be told apart")
    if options.min_count > len(labels):
        found.problems.append(f"field 'layout.options.min_count': {options.min_count} is more than the {len(labels)} "
                              "labels, so no question could ever be a choice question")
    if spec.layout.true_false is not None:
        missing = sorted(set(spec.layout.true_false.labels) - set(spec.layout.true_false.choices))
        if missing:
            found.problems.append(f"field 'layout.true_false.choices': no choice text for {missing}")
    entry = spec.key.entry
    if entry and spec.key.kind == "list":
        compiled = re.compile(entry)
        given = {label for label in labels if _entry_gives(compiled, label)}
        if given and given != set(labels):
            never = [label for label in labels if label not in given]
            found.warnings.append(f"field 'key.entry': no usual key line ('1. {labels[0]}', '1 {labels[0]}', …) gives the "
                                  f"answer(s) {never}, though it gives {sorted(given)}: check the answer group against "
                                  f"layout.options.labels: {entry!r}")


def _entry_gives(compiled: re.Pattern, label: str) -> bool:
    for shape in ENTRY_SHAPES:
        match = compiled.search(shape.format(label))
        if match and (match.group("answer") or "").strip().casefold() == label.casefold():
            return True
    return False


def _prefixes(sections) -> set[str]:
    tops = [s.prefix for s in sections if not s.nested] or [""]
    nested = [s.prefix for s in sections if s.nested]
    return set(tops) | {top + inner for top in tops for inner in nested}


def _check_key(spec: SourceSpec, found: Findings) -> None:
    key, pairing = spec.key, spec.pairing
    if key.sections:
        sheet = _prefixes(spec.layout.sections)
        orphan = sorted(_prefixes(key.sections) - sheet)
        if orphan:
            found.problems.append(f"field 'key.sections': prefix(es) {orphan} number no question: the sheet's parts "
                                  f"(layout.sections) give {sorted(sheet) or ['no prefix']}, so those key entries key nothing")
    elif spec.layout.sections and key.kind != "highlight":
        prefixes = sorted(_prefixes(spec.layout.sections) - {""})
        found.warnings.append(f"field 'key.sections': empty, but the sheet's parts (layout.sections) number their "
                              f"questions {prefixes} + the printed number; declare the key's parts in key.sections so its "
                              "entries get the same prefixes")
    needs_no_file = key.in_sheet is not None or key.kind == "highlight"
    why = "key.in_sheet: the key is printed in the booklet" if key.in_sheet else "key.kind highlight: the answers are marked in the sheet"
    if needs_no_file and pairing.key_required:
        found.problems.append(f"field 'pairing.key_required': true, but {why}, so no key file pairs and every sheet "
                              "would be reported without its key; set key_required: false")
    rules = [*(spec.download.links if spec.download else []), *(spec.local.files if spec.local else [])]
    if pairing.key_required and not needs_no_file and rules and not any(r.role == "key" for r in rules):
        found.problems.append("field 'pairing.key_required': true, but no file rule (download.links, local.files) has "
                              "role key, so every sheet would be reported without its key")
    if key.kind != "marking_scheme":
        unused = [name for name in MARKING_SCHEME_FIELDS if getattr(key, name) is not None]
        if unused:
            found.warnings.append(f"field 'key': {unused} are read only by key.kind marking_scheme, not {key.kind!r}")
    if key.variant_header is None and key.variant_pattern is not None:
        found.warnings.append("field 'key.variant_pattern': read only with key.variant_header (the key's variant columns)")


def _check_languages(spec: SourceSpec, found: Findings) -> None:
    from pipeline.languages import language

    codes = language(spec.metadata.language).codes.tesseract
    if not set(codes) & set(spec.ocr.languages) and not any(lang.startswith("script/") for lang in spec.ocr.languages):
        found.warnings.append(f"field 'ocr.languages': {spec.ocr.languages} holds none of the OCR data of the sheet's "
                              f"language {spec.metadata.language!r} ({codes}): scanned pages would be read as another language")
