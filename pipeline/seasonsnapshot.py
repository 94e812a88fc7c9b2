"""A season re-run with nothing new leaves the curated file as it is (issue 31, bar 3).

Each run that ends in a settled state records what its output came from: a digest of every input of its
records and report (the files' manifest entries and extraction results, each sheet's parse cache key,
which holds the spec, the stage versions and the passes), the SHA-256 of the curated Parquet it left,
and the curators' state under annotations/ (corrections, reviews, descriptions, id renames) as it left
it. The next run computes the same digest after download and extraction (both cached); when it is
equal, the curated file is byte for byte the one recorded and no curator changed anything, parsing and
merging would give that same file again: no sheet is parsed, the Parquet is not rewritten, and the
report (the recorded one, with this run's download statuses, notes and seconds) says `nothing new`.

A run is settled when a second run over its output would give the same records and report: no id
changed (renames), no record took another file's id, nothing failed for want of a tool (OCR
unavailable), and no spec pattern timed out. Any other run records nothing, so the next one does the
full work. The record lives in the stage cache (raw/cache/season/): deleting the cache deletes it.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field, fields
from pathlib import Path

from pipeline import PIPELINE_VERSION
from pipeline.diagnostics import Code, from_records, to_records
from pipeline.infra import StageCache, fingerprint
from pipeline.report import FileReport, RunReport

SNAPSHOT_VERSION = 1
STAGE = "season"
CURATOR_DIR = "annotations"  # every file a run applies to its records: corrections, reviews, descriptions, renames


def curator_state(root: Path) -> list[list]:
    """(path, size, modification time in ns) of every file under annotations/: a curator's edit, an
    appended review or a recorded rename changes it."""
    folder = root / CURATOR_DIR
    if not folder.is_dir():
        return []
    found = []
    for path in folder.rglob("*"):
        if path.is_file():
            stat = path.stat()
            found.append([path.relative_to(root).as_posix(), stat.st_size, stat.st_mtime_ns])
    return sorted(found)


def bytes_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclass
class Snapshot:
    inputs: str  # digest of the run's inputs (season_inputs)
    curated_sha256: str  # the curated Parquet the run left
    curator: list  # curator_state after the run
    curated_questions: int
    files: list[dict] = field(default_factory=list)  # each FileReport, stored
    notes: list[dict] = field(default_factory=list)  # the run's own notes after download's (curation's)
    overrides: list[str] = field(default_factory=list)
    descriptions_applied: int | None = None
    descriptions: list[str] = field(default_factory=list)

    def restore(self, report: RunReport, statuses: dict[str, str]) -> None:
        """The recorded run's per-file lines and curation notes into this run's report; each file's
        status is this run's (a file answered 304 Not Modified now was downloaded then)."""
        report.files = [_file_from_record(record) for record in self.files]
        for file_report in report.files:
            file_report.status = statuses.get(file_report.url, file_report.status)
        report.notes.extend(from_records(self.notes, Code.PROBLEM))
        report.overrides = list(self.overrides)
        report.descriptions_applied = self.descriptions_applied
        report.descriptions = list(self.descriptions)
        report.curated_questions = self.curated_questions
        report.nothing_new = True


def snapshot_of(report: RunReport, own_notes_from: int, inputs: str, curated_sha256: str, root: Path) -> Snapshot:
    """What to record of a run whose report is complete; `own_notes_from`: where its notes after
    download's begin."""
    return Snapshot(
        inputs=inputs, curated_sha256=curated_sha256, curator=curator_state(root),
        curated_questions=report.curated_questions or 0, files=[_file_record(f) for f in report.files],
        notes=to_records(report.notes[own_notes_from:], Code.PROBLEM), overrides=[str(x) for x in report.overrides],
        descriptions_applied=report.descriptions_applied, descriptions=[str(x) for x in report.descriptions],
    )


def _snapshot_key(source: str, curated_path: Path) -> str:
    return fingerprint(STAGE, SNAPSHOT_VERSION, source, str(curated_path))


def load_snapshot(cache_root: Path, source: str, curated_path: Path) -> Snapshot | None:
    text = StageCache(cache_root, STAGE).get(_snapshot_key(source, curated_path))
    if text is None:
        return None
    try:
        snapshot = Snapshot(**json.loads(text))
        for record in snapshot.files:  # each file's line must come back as this version's FileReport
            _file_from_record(record)
        return snapshot
    except (ValueError, TypeError, AttributeError):  # another version's, or torn: the run does the full work
        return None


def save_snapshot(cache_root: Path, source: str, curated_path: Path, snapshot: Snapshot | None) -> None:
    """Records the snapshot; None forgets the last one (this run was not settled)."""
    cache = StageCache(cache_root, STAGE)
    key = _snapshot_key(source, curated_path)
    if snapshot is None:
        cache.path(key).unlink(missing_ok=True)
        return
    cache.put(key, json.dumps(snapshot.__dict__, ensure_ascii=False, sort_keys=True))


def trusted_curated(path: Path, snapshot: Snapshot | None) -> bytes | None:
    """The curated file's bytes when they are the ones the last settled run left (so its records are
    this source's and need no reading yet); None otherwise."""
    if snapshot is None:
        return None
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    return data if bytes_sha256(data) == snapshot.curated_sha256 else None


def season_inputs(files: list[FileReport], jobs: list[tuple[str, str | None, int]]) -> str:
    """Digest of what a run's records and report come from: each file's report before parsing (entry,
    status category, extraction counts, problems and notes) and each sheet job (sheet URL, its parse
    cache key or None when it was not parsed, how many of its keys failed)."""
    before_parse = [
        [f.url, f.role, f.sha256, f.status if f.status in ("rejected", "failed", "quarantined") else "ok",
         f.pages, f.ocr_pages, [str(e) for e in f.errors], [str(n) for n in f.notes]]
        for f in files
    ]
    return fingerprint(STAGE, SNAPSHOT_VERSION, PIPELINE_VERSION, before_parse, jobs)


def _file_record(report: FileReport) -> dict:
    record = {f.name: getattr(report, f.name) for f in fields(report) if f.name not in ("errors", "notes")}
    record["errors"] = to_records(report.errors, Code.PROBLEM)
    record["notes"] = to_records(report.notes, Code.NOTE)
    return record


def _file_from_record(record: dict) -> FileReport:
    values = dict(record)
    values["errors"] = from_records(values.get("errors", []), Code.PROBLEM)
    values["notes"] = from_records(values.get("notes", []), Code.NOTE)
    return FileReport(**values)
