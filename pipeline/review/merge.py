"""Puts accepted figure descriptions into curated records, and only accepted ones.

The merge recomputes the description fields of every record from the review state, so running it
twice changes nothing, and a record whose accepted description was later rejected loses it again.
A record gets descriptions only when every one of its figures is accepted: half a description of a
two-figure question would read as the whole of it.
"""
from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.infra import write_bytes_atomic
from pipeline.records import Question, questions_to_table
from pipeline.review.store import ACCEPTED, ReviewStore

DESCRIPTION_FIELDS = ("image_description", "image_transcription", "description_model", "reviewed_by", "reviewed_at")


@dataclass(frozen=True)
class AcceptedFigure:
    record_id: str
    image_sha256: str
    description: str
    transcription: str
    model: str
    reviewed_by: str
    reviewed_at: str


def accepted_figures(store: ReviewStore) -> dict[tuple[str, str], AcceptedFigure]:
    """(record id, image sha256) -> the accepted description; of several (models, prompt versions)
    the one accepted last wins."""
    out: dict[tuple[str, str], AcceptedFigure] = {}
    for item in store.items.values():
        if item.status != ACCEPTED:
            continue
        key = (item.question.id, item.annotation.image_sha256)  # the current id, should the record have been renamed
        if key in out and out[key].reviewed_at >= item.reviewed_at:
            continue
        out[key] = AcceptedFigure(key[0], key[1], item.description, item.transcription or "", item.annotation.model,
                                  item.reviewed_by, item.reviewed_at)
    return out


def _join(values: list[str]) -> str:
    if len(values) == 1:
        return values[0]
    return "\n\n".join(f"[{n}] {v}" for n, v in enumerate(values, start=1))


def merge_descriptions(rows: list[dict], accepted: dict[tuple[str, str], AcceptedFigure]) -> tuple[list[dict], list[str]]:
    """Rows (Question.to_row dicts) with the description fields set from `accepted` (None where a
    record has no figure or not all of its figures are accepted), and report lines."""
    merged, complete, partial = [], 0, []
    for row in rows:
        figures = [accepted.get((row["id"], img["sha256"])) for img in row.get("images") or []]
        values = dict.fromkeys(DESCRIPTION_FIELDS)
        if figures and all(figures):
            complete += 1
            values = {
                "image_description": _join([f.description for f in figures]),
                "image_transcription": _join([f.transcription for f in figures]),
                "description_model": ", ".join(dict.fromkeys(f.model for f in figures)),
                "reviewed_by": ", ".join(dict.fromkeys(f.reviewed_by for f in figures)),
                "reviewed_at": max(f.reviewed_at for f in figures),
            }
        elif any(figures):
            partial.append(f"{row['id']}: {sum(map(bool, figures))} of {len(figures)} figures accepted; left without descriptions")
        merged.append({**row, **values})
    return merged, [f"merged accepted descriptions into {complete} records", *partial]


@dataclass(frozen=True)
class AppliedDescriptions:
    questions: list[Question]
    applied: int  # records that carry accepted descriptions
    lines: list[str]  # records left without them because only some of their figures are accepted


def apply_accepted_descriptions(questions: list[Question], root: Path,
                                renames: dict[str, str] | None = None) -> AppliedDescriptions | None:
    """The accepted descriptions of the review state under `root` (annotations/descriptions.jsonl and
    the decisions in annotations/reviews.jsonl) on `questions`, recomputed like `merge_curated_file`
    does; None when the root has no review state at all (the records are left as they are).
    Raises ReviewInputError or AnnotationError (ValueError) on a review log that cannot be read."""
    from pipeline.describe import ANNOTATIONS_FILE
    from pipeline.review.store import DECISIONS_FILE

    if not (root / ANNOTATIONS_FILE).exists() and not (root / DECISIONS_FILE).exists():
        return None
    store = ReviewStore.over(root, {q.id: q for q in questions}, renames=renames)
    merged, lines = merge_descriptions([q.to_row() for q in questions], accepted_figures(store))
    applied = sum(1 for row in merged if row["image_description"] is not None)
    return AppliedDescriptions([Question.from_row(row) for row in merged], applied, lines[1:] + not_applied(store))


def not_applied(store: ReviewStore) -> list[str]:
    """A line for each accepted description no record carries: its question is no longer curated, or the question's
    figure is not the one described (a sheet reissued, a figure cropped otherwise). It stays in the review state.
    And a line for each carried to the one record that holds its figure now, not the record it was made on."""
    lines = [f"{annotation.record_id}: accepted description of figure {annotation.image_sha256[:12]}… carried to {record_id}, "
             "the one record holding that figure now" for annotation, record_id in store.accepted_carried]
    for annotation, curated_id in store.accepted_orphans:
        why = ("its figure changed since it was described (describe and review it again)" if curated_id is not None
               else "its question is not curated now")
        lines.append(f"{annotation.record_id}: accepted description of figure {annotation.image_sha256[:12]}… not applied: {why}")
    return lines


def merge_curated_file(path: Path, store: ReviewStore) -> list[str]:
    """Rewrites one curated Parquet file (atomically) with the accepted descriptions."""
    rows = pq.read_table(path).to_pylist()
    merged, report = merge_descriptions(rows, accepted_figures(store))
    buffer = io.BytesIO()
    pq.write_table(questions_to_table(Question.from_row(r) for r in merged), buffer)
    write_bytes_atomic(path, buffer.getvalue())
    return [f"{path}: {line}" for line in report]
