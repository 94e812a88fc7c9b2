"""`examcorpus specs check SPEC --try SHEET.pdf [--key KEY.pdf]`: the spec run on one sheet, and what it
found, before any season run: questions (numbers, types, options), keyed and voided, flags by code,
and every problem and note of the sheet, as the run's report would say them.

The sheet (and its keys) are extracted as the season run extracts them (`ExtractOptions.from_spec`) and
parsed by the parser itself (`pipeline.parse.parse_sheet`), so what the trial shows is what a run will
curate. The sheet's facts (year, session, …) come from the spec's file rules matched against its path,
as `--from DIR` matches them; OCR readings come from the run the sheet belongs to when there is one
(`inspect.run_ocr_cache`), so trying a spec on a scanned sheet a run has read never re-runs Tesseract.
"""
from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.acquire import ManifestEntry, match_rules
from pipeline.devkit.inspect import InspectError, _extract, ocr_cache_for
from pipeline.diagnostics import Severity
from pipeline.extract import ExtractedDocument, ExtractOptions
from pipeline.specs import SourceSpec

STEM_SHOWN = 60  # characters of each question's stem in the listing


@dataclass
class Trial:
    sheet: str
    spec: str
    pages: int
    ocr_pages: int
    facts: dict[str, str]
    rows: list[str] = field(default_factory=list)  # one line per question
    questions: int = 0
    keyed: int = 0
    voided: int = 0
    flagged: int = 0
    types: dict[str, int] = field(default_factory=dict)
    flags: dict[str, int] = field(default_factory=dict)  # flag code -> records carrying it
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        types = ", ".join(f"{kind} {count}" for kind, count in sorted(self.types.items())) or "none"
        flags = ", ".join(f"{code} {count}" for code, count in sorted(self.flags.items())) or "none"
        facts = ", ".join(f"{k}={v}" for k, v in sorted(self.facts.items())) or "none (the path matches no file rule)"
        lines = [
            f"try {self.spec} on {self.sheet}: {self.pages} page(s), {self.ocr_pages} by OCR; facts: {facts}",
            f"  questions {self.questions}, keyed {self.keyed}, voided {self.voided}, flagged {self.flagged}",
            f"  types: {types}",
            f"  flags: {flags}",
            *(f"  problem: {p}" for p in self.problems),
            *(f"  note: {n}" for n in self.notes),
        ]
        return "\n".join(lines)

    def format(self) -> str:
        header = f"{'number':>8} {'type':13} {'answer':>6} {'options':>7}  stem · flags"
        return "\n".join([header, *self.rows, "", self.summary()])


def _entry(path: Path, sha256: str, role: str, spec: SourceSpec) -> ManifestEntry:
    """The manifest entry a `--from DIR` run would give the file: its facts from the spec's file rules."""
    rules = [*(spec.local.files if spec.local else []), *(spec.download.links if spec.download else [])]
    found = match_rules(path.resolve().as_posix(), rules)
    facts = dict(found.facts) if found is not None else {}
    uri = path.resolve().as_uri()
    return ManifestEntry(url=uri, final_url=uri, spec=spec.name, role=role, facts=facts, status="local",
                         sha256=sha256, path=str(path))


def _read(path: Path, role: str, spec: SourceSpec, cache: Path) -> tuple[ExtractedDocument, ManifestEntry]:
    if not path.is_file():
        raise InspectError(f"{path}: file not found")
    sha256 = hashlib.sha256(path.read_bytes()).hexdigest()
    document = _extract(path, sha256, ExtractOptions.from_spec(spec, ocr_cache_dir=str(cache)))
    return document, _entry(path, sha256, role, spec)


def try_spec(spec: SourceSpec, sheet: Path | str, keys: list[Path] | tuple[Path, ...] = (), *,
             ocr_cache: Path | None = None, root: Path | None = None) -> Trial:
    """`spec` run on one sheet (and the key files given): what a season run would curate and report."""
    from pipeline.parse import parse_sheet

    sheet = Path(sheet)
    cache = ocr_cache_for(sheet, ocr_cache=ocr_cache, root=root)
    document, entry = _read(sheet, "sheet", spec, cache)
    key_files = [_read(Path(key), "key", spec, cache) for key in keys]
    result = parse_sheet(document, entry, key_files, spec)
    trial = Trial(str(sheet), spec.name, document.page_count, document.ocr_pages, entry.facts)
    trial.notes = [str(w) for w in document.warnings] + [str(n) for n in result.notes]
    trial.problems = [str(p) for p in result.problems]
    if not key_files and _needs_key_file(spec):
        trial.notes.append("no key file given: add --key KEY.pdf to try the key too")
    flags: Counter[str] = Counter()
    for q in result.questions:
        for code in dict.fromkeys(f.code.code for f in q.flags if f.severity is not Severity.INFO):
            flags[code] += 1
        stem = " ".join(q.question.split())
        stem = stem if len(stem) <= STEM_SHOWN else stem[: STEM_SHOWN - 1] + "…"
        flagged = f" · {'; '.join(q.flags)}" if q.flags else ""
        answer = "void" if q.voided else (q.answer or "-")
        trial.rows.append(f"{q.number:>8} {q.type:13} {answer:>6} {len(q.choices):>7}  {stem}{flagged}")
    trial.questions = len(result.questions)
    trial.keyed = sum(1 for q in result.questions if q.answer is not None)
    trial.voided = sum(1 for q in result.questions if q.voided)
    trial.flagged = sum(1 for q in result.questions if q.flags)
    trial.types = dict(Counter(q.type for q in result.questions))
    trial.flags = dict(flags)
    return trial


def _needs_key_file(spec: SourceSpec) -> bool:
    return spec.key.in_sheet is None and spec.key.kind != "highlight"
