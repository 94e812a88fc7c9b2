"""The describe stage's output record: one generated description of one figure of one question."""
from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from pipeline.infra import read_jsonl
from pipeline.renames import ANNOTATIONS_FILE as ANNOTATIONS_FILE  # where the descriptions are kept (named there)

STATUS_PENDING = "pending"  # a description to review
STATUS_BLOCKED = "blocked"  # the API refused (safety block): recorded so it is not retried forever
STATUS_EMPTY = "empty"  # the model answered nothing usable
STATUS_MALFORMED = "malformed"  # the answer was not the JSON object the response schema asks for
GENERATED_STATUSES = (STATUS_PENDING, STATUS_BLOCKED, STATUS_EMPTY, STATUS_MALFORMED)


class AnnotationError(ValueError):
    """An annotations file holds a record that is not an annotation."""


@dataclass(frozen=True)
class Annotation:
    record_id: str
    image_sha256: str
    image_path: str  # relative to the project root, as in Question.images
    model: str
    prompt_version: str
    status: str  # one of GENERATED_STATUSES
    description: str | None
    transcription: str | None
    created_at: str  # ISO 8601, UTC
    latency_s: float | None = None
    attempts: int = 1
    finish_reason: str | None = None
    model_version: str | None = None  # what the API says answered
    prompt_sha256: str | None = None  # of the rendered prompt, to tell edited prompt files apart
    raw_text: str | None = None  # kept only for a malformed answer, so a person can see what came back
    usage: dict = field(default_factory=dict)  # prompt_tokens, completion_tokens, total_tokens, ...

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What makes a request the same request: an existing key is not sent again."""
        return (self.record_id, self.image_sha256, self.model, self.prompt_version)

    @property
    def item_id(self) -> str:
        return annotation_item_id(*self.key)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict, where: str = "") -> "Annotation":
        known = {f.name for f in fields(cls)}
        missing = [n for n in ("record_id", "image_sha256", "model", "prompt_version", "status") if n not in data]
        if missing:
            raise AnnotationError(f"{where}: annotation lacks {', '.join(missing)}")
        if data["status"] not in GENERATED_STATUSES:
            raise AnnotationError(f"{where}: unknown annotation status {data['status']!r}")
        return cls(**{k: v for k, v in data.items() if k in known})


def annotation_item_id(record_id: str, image_sha256: str, model: str, prompt_version: str) -> str:
    """A short URL-safe name for one annotation (record ids hold ':' and non-ASCII letters)."""
    return hashlib.sha256("\x1f".join((record_id, image_sha256, model, prompt_version)).encode()).hexdigest()[:20]


def load_annotations(path: Path) -> list[Annotation]:
    """Annotations of a JSONL file in file order; for a key written twice the later one wins."""
    by_key: dict[tuple, Annotation] = {}
    for number, record in enumerate(read_jsonl(path), start=1):
        annotation = Annotation.from_dict(record, where=f"{path}: record {number}")
        by_key.pop(annotation.key, None)
        by_key[annotation.key] = annotation
    return list(by_key.values())
