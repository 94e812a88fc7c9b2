"""Record ids that changed: what keeps reviewed work attached to its question when an id rule changes.

A record id is stable across re-runs of one rule, but a rule can change (a sheet whose code the spec
does not find now takes the file's facts into its id, so two such sheets no longer collide). Review
decisions, accepted descriptions and curators' corrections are keyed by id; without a link from the old
id to the new one they would be orphaned silently. The season run finds such renames by content (the
same sheet's bytes, the same printed number, another id) and appends them to
`annotations/id_renames.jsonl`; the review store and the corrections resolve every id through it.

A question's printed number may change too: a Greek or Cyrillic sheet's `A1` read in Latin is written `Α1` in its
page's script (`parse.numberscript`), and the id with it. Work stored under an id no record has any more is carried
to the one record whose id is the same with look-alike letters folded (`scripts.yaml` `lookalikes`: `…:A1` and
`…:Α1`) and whose sheet is the one the work was made on (`carried_ids`); an entry that cannot be carried is a report
line and stays stored as it was.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pipeline.diagnostics import Code, Diagnostic, diagnose
from pipeline.infra import AppendLog, read_jsonl
from pipeline.languages import in_script
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


@dataclass(frozen=True)
class StoredWork:
    """A curator's entry under a record id: what it is ("correction", "figure description") and, where the entry
    says, the SHA-256 of the sheet it was made on and who made it when ("ana (2026-12-01T10:00:00Z)")."""
    kind: str
    record_id: str
    sheet_sha256: str | None = None
    by: str = ""


def stored_work(root: Path, spec_name: str) -> list[StoredWork]:
    """The corrections and figure descriptions stored under `root` for records of `spec_name`, read as plain lines
    (a file that cannot be read is reported by the step that applies it)."""
    found: list[StoredWork] = []
    for kind, path, id_field, sha_field, who in (("correction", OVERRIDES_FILE, "question_id", "sheet_sha256", "annotator"),
                                                 ("figure description", ANNOTATIONS_FILE, "record_id", None, None)):
        try:
            records = read_jsonl(Path(root) / path)
        except (OSError, ValueError):
            continue
        for record in records:
            record_id = record.get(id_field)
            if isinstance(record_id, str) and record_id.startswith(f"{spec_name}:"):
                sha = record.get(sha_field) if sha_field else None
                author, at = record.get(who) if who else None, record.get("at")
                by = f"{author} ({at})" if isinstance(author, str) and author and isinstance(at, str) else ""
                found.append(StoredWork(kind, record_id, sha if isinstance(sha, str) else None, by))
    return list(dict.fromkeys(found))


def folded_id(record_id: str) -> str:
    """`record_id` with every letter that has a Latin twin of the very same shape written as that twin: the ids of one
    question whose number was read in one script and then in another fold alike."""
    return in_script(record_id, "Latin")


def carried_ids(work: Iterable[StoredWork], questions: list[Question], present: set[str],
                renames: dict[str, str]) -> tuple[dict[str, str], list[Diagnostic]]:
    """(old id -> new id, report lines) for stored work whose id (followed through `renames`) names no record in
    `present`: carried where exactly one of `questions` has the same id once look-alikes are folded and was read from
    the sheet the work was made on (where the work names its sheet). Each carried id is a line; so is each id that
    could not be carried, its work left stored as it is."""
    by_fold: dict[str, list[Question]] = {}
    for question in questions:
        by_fold.setdefault(folded_id(question.id), []).append(question)
    kinds: dict[str, dict[str, str]] = {}  # record id -> {kind: who made its latest entry, where said}
    sheets: dict[str, set[str]] = {}
    for entry in work:
        kinds.setdefault(entry.record_id, {})[entry.kind] = entry.by  # the latest entry of a kind is the one applied
        if entry.sheet_sha256:
            sheets.setdefault(entry.record_id, set()).add(entry.sheet_sha256)
    carried: dict[str, str] = {}
    lines: list[Diagnostic] = []
    for record_id, what in kinds.items():
        now = current_id(record_id, renames)
        if now in present:
            continue
        said = " and ".join(f"{kind} by {by}" if by else kind for kind, by in what.items())
        made_on = sheets.get(record_id, set())
        matches = [q for q in by_fold.get(folded_id(now), []) if q.id != now and (not made_on or q.source_sha256 in made_on)]
        if len(matches) == 1:
            carried[record_id] = matches[0].id
            lines.append(diagnose(Code.WORK_CARRIED, kinds=said, old=record_id, new=matches[0].id))
        elif matches:
            why = f"not carried: {len(matches)} records fold to its id ({', '.join(sorted(q.id for q in matches))})"
            lines.append(diagnose(Code.WORK_NOT_CARRIED, kinds=said, old=record_id, why=why, question_id=now))
        else:
            lines.append(diagnose(Code.WORK_NOT_CARRIED, kinds=said, old=record_id, why="matches no curated record",
                                  question_id=now))
    return carried, lines
