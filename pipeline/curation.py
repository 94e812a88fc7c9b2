"""What a season run does around its records besides parsing them: a bad file is quarantined and marked
`rejected` in the manifest; the curators' corrections and the accepted figure descriptions (the review
state under annotations/) are applied to every run's records, so curated data always carries them.
Split from pipeline.season, which runs these steps in order."""
from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

from pipeline.acquire import ManifestEntry
from pipeline.diagnostics import Code, has_code
from pipeline.infra import write_bytes_atomic
from pipeline.records import Question
from pipeline.renames import ANNOTATIONS_FILE, DECISIONS_FILE, OVERRIDES_FILE
from pipeline.report import RunReport
from pipeline.specs import SourceSpec


def quarantine(entry: ManifestEntry, reason: str, root: Path) -> None:
    """Keeps a copy of an unusable file beside its reason; the raw copy stays for provenance."""
    target_dir = root / "raw" / "quarantine"
    target = target_dir / f"{entry.sha256}.pdf"
    if not target.exists() and entry.path and (root / entry.path).exists():
        target_dir.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".tmp")
        shutil.copyfile(root / entry.path, tmp)
        tmp.replace(target)
    note = {"url": entry.url, "sha256": entry.sha256, "reason": reason}
    write_bytes_atomic(target_dir / f"{entry.sha256}.json", json.dumps(note, ensure_ascii=False, indent=1).encode())


def record_rejections(bad: dict[str, tuple[str, str]], raw_dir: Path) -> None:
    """Files extract found unusable (URL -> (SHA-256, why)) are marked `rejected`, with the reason, in
    raw/manifest.jsonl, so the manifest never presents a bad file as a good one."""
    from pipeline.acquire import Manifest

    path = raw_dir / "manifest.jsonl"
    if not bad or not path.exists():
        return
    manifest = Manifest.load(path)
    for url, (sha256, error) in bad.items():
        entry = manifest.get(url)
        if entry is not None and entry.sha256 == sha256:
            manifest.upsert(replace(entry, status="rejected", error=f"extract: {error}"))
    manifest.save()


def apply_accepted_descriptions(merged: list[Question], root: Path, report: RunReport,
                                renames: dict[str, str]) -> list[Question]:
    """Accepted figure descriptions (the review page's decisions) on every curated record, so a re-run
    never wipes them; recomputed from the review state, like `examcorpus review --merge` does."""
    if not (root / ANNOTATIONS_FILE).exists() and not (root / DECISIONS_FILE).exists():
        return merged  # no review state at all (what `apply` finds too), and the review package not imported
    from pipeline.review import apply_accepted_descriptions as apply

    try:
        applied = apply(merged, root, renames)
    except ValueError as exc:  # ReviewInputError, AnnotationError: a review log that cannot be read
        report.notes.append(f"accepted figure descriptions not applied: {exc}")
        return merged
    if applied is None:
        return merged
    report.descriptions_applied = applied.applied
    report.descriptions.extend(applied.lines)
    return applied.questions


def carry_stored_work(root: Path, spec_name: str, fresh: list[Question], present: set[str], renames: dict[str, str],
                      report: RunReport) -> dict[str, str]:
    """This run's renames with the ids of stored corrections and descriptions that name no record any more carried to
    the record they fold to (`renames.carried_ids`); each carried id and each left stored is a note of the report."""
    if not (root / OVERRIDES_FILE).exists() and not (root / ANNOTATIONS_FILE).exists():
        return renames
    from pipeline.renames import carried_ids, current_id, load_renames, stored_work

    known = {**load_renames(root), **renames}
    by_reading = _corrections_carried_by_reading(root, spec_name, fresh, known)
    # A correction that follows its question's reading to a new revision is said by `apply_curator_overrides`.
    work = [w for w in stored_work(root, spec_name) if not (w.kind == "correction" and current_id(w.record_id, known) in by_reading)]
    carried, lines = carried_ids(work, fresh, present, known)
    report.notes.extend(lines)
    return {**renames, **carried}


def _corrections_carried_by_reading(root: Path, spec_name: str, fresh: list[Question], renames: dict[str, str]) -> set[str]:
    """The ids of `spec_name`'s stored corrections that `review.overrides.carried_by_text` carries to a record of a new
    revision of their sheet (none where the corrections cannot be read: `apply_curator_overrides` says why)."""
    if not (root / OVERRIDES_FILE).exists():
        return set()
    from pipeline.review import OverrideError, load_overrides
    from pipeline.review.overrides import carried_by_text

    try:
        overrides = load_overrides(root / OVERRIDES_FILE, renames)
    except (OverrideError, ValueError):
        return set()
    return set(carried_by_text(fresh, {qid: o for qid, o in overrides.items() if qid.startswith(f"{spec_name}:")}))


def apply_curator_overrides(fresh: list[Question], spec: SourceSpec, root: Path, report: RunReport,
                            renames: dict[str, str]) -> list[Question]:
    """The extraction audit's corrections (pipeline.review) on this run's records: a correction keyed
    to the sheet's bytes survives re-runs and is dropped, with a report line, when the sheet changes."""
    path = root / OVERRIDES_FILE
    if not path.exists():
        return fresh
    from pipeline.review import OverrideError, apply_overrides, load_overrides, load_renames

    try:
        overrides = load_overrides(path, {**load_renames(root), **renames})
    except (OverrideError, ValueError) as exc:
        report.notes.append(f"{path}: curators' corrections not applied: {exc}")
        return fresh
    mine = {qid: o for qid, o in overrides.items() if qid.startswith(f"{spec.name}:")}
    # A correction stored under an id no record has is one line, `carry_stored_work`'s (who made it, why it matches none).
    said = {line.concerns.question_id for line in report.notes if has_code([line], Code.WORK_NOT_CARRIED)}
    corrected, lines = apply_overrides(fresh, mine, {qid for qid in said if qid})
    report.overrides.extend(lines)
    return corrected
