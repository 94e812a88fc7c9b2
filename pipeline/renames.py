"""Record ids that changed: what keeps reviewed work attached to its question when an id rule changes.

A record id is stable across re-runs of one rule, but a rule can change (a sheet whose code the spec
does not find now takes the file's facts into its id, so two such sheets no longer collide). Review
decisions, accepted descriptions and curators' corrections are keyed by id; without a link from the old
id to the new one they would be orphaned silently. The season run finds such renames by content (the
same sheet's bytes, the same printed number, another id) and appends them to
`annotations/id_renames.jsonl`; the review store and the corrections resolve every id through it.
"""
from __future__ import annotations

from pathlib import Path

from pipeline.infra import AppendLog, read_jsonl
from pipeline.records import Question

RENAMES_FILE = "annotations/id_renames.jsonl"
# The rest of the reviewed work under a project root, named here so a season run that finds none of it never
# imports the review and describe packages (about 35 CPU ms a process): the generated descriptions
# (`describe.annotations`), the review decisions (`review.store`) and the curators' corrections (`review.overrides`).
ANNOTATIONS_FILE = Path("annotations") / "descriptions.jsonl"
DECISIONS_FILE = Path("annotations") / "reviews.jsonl"
OVERRIDES_FILE = Path("annotations") / "overrides.jsonl"


def renamed_ids(earlier: list[Question], fresh: list[Question]) -> dict[str, str]:
    """old id -> new id for every question curated earlier whose sheet (by SHA-256) and printed number
    come back under another id."""
    now = {(q.source, q.source_sha256, q.number): q.id for q in fresh}
    renames = {}
    for question in earlier:
        new_id = now.get((question.source, question.source_sha256, question.number))
        if new_id is not None and new_id != question.id:
            renames[question.id] = new_id
    return renames


def load_renames(root: Path) -> dict[str, str]:
    """old id -> new id, as recorded under `root` (the latest record of an old id wins)."""
    return {r["old_id"]: r["new_id"] for r in read_jsonl(Path(root) / RENAMES_FILE)
            if isinstance(r.get("old_id"), str) and isinstance(r.get("new_id"), str)}


def record_renames(root: Path, renames: dict[str, str]) -> int:
    """Appends the renames not yet recorded (idempotent); returns how many were new."""
    known = load_renames(root)
    new = {old: new for old, new in sorted(renames.items()) if known.get(old) != new}
    if new:
        log = AppendLog(Path(root) / RENAMES_FILE)
        for old, new_id in new.items():
            log.append({"old_id": old, "new_id": new_id})
    return len(new)


def current_id(record_id: str, renames: dict[str, str]) -> str:
    """The id a record has now: renames followed to their end (a cycle stops where it closes)."""
    seen = {record_id}
    while record_id in renames and renames[record_id] not in seen:
        record_id = renames[record_id]
        seen.add(record_id)
    return record_id
