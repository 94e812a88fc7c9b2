"""What the review page works on: every generated annotation beside its curated question, its current
review state, and the audit log that every decision is appended to before it is acknowledged.

State is the annotation replayed through its decisions in `annotations/reviews.jsonl`; an item's
`version` is the number of decisions it has had. A decision names the version its author saw: when
another tab decided in between, it is refused as a conflict (nothing is overwritten).
"""
from __future__ import annotations

import heapq
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from functools import cached_property
from operator import attrgetter
from pathlib import Path, PurePosixPath

import pyarrow.parquet as pq

from pipeline.describe import STATUS_PENDING, Annotation, AppendLog, load_annotations, read_jsonl
from pipeline.records import Question, table_to_questions
from pipeline.review.names import signed_name
from pipeline.renames import DECISIONS_FILE, current_id, load_renames

ACCEPTED = "accepted"
REJECTED = "rejected"
REVIEWED_STATUSES = (ACCEPTED, REJECTED)
UNDO = "undo"
# A table column -> where a ReviewItem holds it.
SORTABLE_COLUMNS = {"item_id": "item_id", "record_id": "question.id", "number": "question.number", "exam": "question.exam",
                    "year": "question.year", "language": "question.language", "status": "status", "reviewed_by": "reviewed_by",
                    "reviewed_at": "reviewed_at"}


class ReviewInputError(ValueError):
    """A decision that cannot be taken as it stands (no annotator, no reason, unknown item...);
    `field` names the part of the request at fault, where one is."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class UnknownItem(ReviewInputError):
    """No review item has this id."""


class ConflictError(RuntimeError):
    """The item changed since the decision's author loaded it."""

    def __init__(self, item: "ReviewItem"):
        super().__init__(f"item {item.item_id} is at version {item.version}")
        self.item = item


@dataclass(frozen=True)
class ReviewItem:
    item_id: str
    annotation: Annotation
    question: Question
    image_index: int  # which of the question's figures
    status: str  # pending, blocked, empty, malformed (as generated) or accepted, rejected
    description: str | None
    transcription: str | None
    version: int = 0
    reviewed_by: str | None = None
    reviewed_at: str | None = None
    reason: str | None = None
    previous: dict | None = None  # the snapshot its latest decision replaced: what an undo restores

    def summary(self) -> dict:
        q = self.question
        return {"item_id": self.item_id, "record_id": q.id, "number": q.number, "exam": q.exam, "year": q.year,
                "language": q.language, "status": self.status, "reviewed_by": self.reviewed_by, "reviewed_at": self.reviewed_at,
                "figure": {"index": self.image_index + 1, "of": len(q.images)}}

    @cached_property
    def search_text(self) -> str:
        """The item's id, question id, sheet (name, code, SHA-256) and texts, casefolded, one per line:
        what a search looks in. Cached on this (immutable) state: a decision makes a new item."""
        q = self.question
        fields = (self.item_id, q.id, q.source, q.sheet_code or "", q.source_sha256 or "", q.question, q.context or "",
                  self.description or "", self.transcription or "", *q.choices)
        return "\n".join(fields).casefold()

    def matches(self, needle: str) -> bool:
        """Whether `needle` (casefolded, one line) is in the item's ids, sheet or texts."""
        return needle in self.search_text


    def detail(self) -> dict:
        q, a = self.question, self.annotation
        image = q.images[self.image_index]
        return {
            **self.summary(),
            "version": self.version, "description": self.description, "transcription": self.transcription,
            "generated": {"status": a.status, "description": a.description, "transcription": a.transcription, "raw_text": a.raw_text},
            "reviewed_by": self.reviewed_by, "reviewed_at": self.reviewed_at, "reason": self.reason, "can_undo": self.previous is not None,
            "model": a.model, "prompt_version": a.prompt_version, "figure": {"index": self.image_index + 1, "of": len(q.images),
                                                                             "page": image.page, "url": f"/figure/{self.item_id}"},
            "question": {"text": q.question, "context": q.context, "choices": q.choices, "labels": q.choice_labels,
                         "answer": q.answer, "subject": q.subject, "session": q.session, "source": q.source, "flags": q.flags},
        }

    def snapshot(self) -> dict:
        return {"status": self.status, "description": self.description, "transcription": self.transcription, "reason": self.reason,
                "reviewed_by": self.reviewed_by, "reviewed_at": self.reviewed_at}


def _load_curated(files: list[Path]) -> dict[str, Question]:
    questions = {}
    for path in files:
        try:
            table = pq.read_table(path)
        except Exception as exc:
            raise ReviewInputError(f"{path}: not a curated questions file ({type(exc).__name__}: {exc})") from None
        questions.update((q.id, q) for q in table_to_questions(table))
    return questions


@dataclass
class ReviewStore:
    root: Path
    items: dict[str, ReviewItem]
    order: list[str]  # stable review order: exam, year, question, figure
    log: AppendLog
    orphans: int = 0  # annotations whose question is no longer curated
    # Of those, the ones a curator's last decision left accepted, each with its question's id where it is still curated
    # (its figure changed): their descriptions are in no record (said by the merge).
    accepted_orphans: list[tuple[Annotation, str | None]] = field(default_factory=list)
    # Accepted descriptions whose figure now stands on another record (the one holding its very pixels), with that record's id.
    accepted_carried: list[tuple[Annotation, str]] = field(default_factory=list)
    questions: dict[str, Question] = field(default_factory=dict)  # every curated question, figures or not
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _question_facets: dict | None = field(default=None, repr=False)

    @classmethod
    def open(cls, root: Path, curated: list[Path], annotations: Path | None = None, decisions: Path | None = None) -> "ReviewStore":
        return cls.over(root, _load_curated(curated), annotations, decisions)

    @classmethod
    def over(cls, root: Path, questions: dict[str, Question], annotations: Path | None = None,
             decisions: Path | None = None, renames: dict[str, str] | None = None) -> "ReviewStore":
        """The review state of `questions` (id -> record) held in memory: what the season run applies
        before it writes curated data, so accepted descriptions are never wiped by a re-run."""
        root = Path(root)
        decisions = decisions or root / DECISIONS_FILE
        items, orphans = {}, 0
        orphaned: dict[str, tuple[Annotation, str | None]] = {}  # item id -> an annotation whose figure is not curated now
        orphan_status: dict[str, str] = {}  # item id -> the status its last decision left it in
        # An annotation made under an id since renamed stays with its question (`renames`: this run's, not yet recorded).
        renames = {**load_renames(root), **(renames or {})}
        holders: dict[str, list[Question]] | None = None  # figure SHA-256 -> the records holding it, built when needed
        carried: dict[str, str] = {}
        for annotation in load_annotations(annotations or root / "annotations" / "descriptions.jsonl"):
            question = questions.get(current_id(annotation.record_id, renames))
            shas = [img.sha256 for img in question.images] if question else []
            if annotation.image_sha256 not in shas:  # the question or its figure changed since describe
                if holders is None:
                    holders = {}
                    for record in questions.values():
                        for sha in dict.fromkeys(img.sha256 for img in record.images):
                            holders.setdefault(sha, []).append(record)
                # The very figure (its pixels) on one record now: a question added before it moved its number, or
                # the sheet was reissued or merged. Described pixels are the same description wherever they stand.
                holding = holders.get(annotation.image_sha256, [])
                if len(holding) == 1:
                    question, shas = holding[0], [img.sha256 for img in holding[0].images]
                    carried[annotation.item_id] = question.id
                else:
                    orphans += 1
                    orphaned[annotation.item_id] = (annotation, question.id if question else None)
                    continue
            items[annotation.item_id] = ReviewItem(
                item_id=annotation.item_id, annotation=annotation, question=question, image_index=shas.index(annotation.image_sha256),
                status=annotation.status, description=annotation.description, transcription=annotation.transcription,
            )
        for number, record in enumerate(read_jsonl(decisions), start=1):
            item = items.get(record.get("item_id", ""))
            if item is None:
                after = record.get("after")
                if record.get("item_id") in orphaned and isinstance(after, dict):
                    orphan_status[record["item_id"]] = after.get("status")
                continue
            try:
                after = record["after"]
                # An undo restores who decided the state it brings back; a decision is signed by its author.
                signed = (after.get("reviewed_by"), after.get("reviewed_at")) if record.get("action") == UNDO else (record["annotator"], record["at"])
                items[item.item_id] = replace(item, status=after["status"], description=after["description"],
                                              transcription=after["transcription"], reason=after.get("reason"),
                                              version=record["version"], reviewed_by=signed[0], reviewed_at=signed[1],
                                              previous=record.get("before"))
            except (KeyError, TypeError) as exc:
                raise ReviewInputError(f"{decisions}: record {number} is not a review decision (missing {exc})") from None
        order = sorted(items, key=lambda i: (items[i].question.exam, items[i].question.year, items[i].question.id, items[i].image_index,
                                             items[i].annotation.model, items[i].annotation.prompt_version))
        accepted_orphans = [orphaned[i] for i, status in orphan_status.items() if status == ACCEPTED]
        accepted_carried = [(items[i].annotation, record_id) for i, record_id in carried.items() if items[i].status == ACCEPTED]
        return cls(root=root, items=items, order=order, log=AppendLog(decisions), orphans=orphans, questions=questions,
                   accepted_orphans=accepted_orphans, accepted_carried=accepted_carried)

    def get(self, item_id: str) -> ReviewItem:
        try:
            return self.items[item_id]
        except KeyError:
            raise UnknownItem(f"no review item {item_id!r}") from None

    def figure_path(self, item_id: str) -> Path:
        item = self.get(item_id)
        relative = PurePosixPath(item.annotation.image_path)
        # Checked by name, not by resolving: raw/ may be a symlink to a shared store, which is fine.
        if relative.is_absolute() or ".." in relative.parts:
            raise ReviewInputError(f"figure path {item.annotation.image_path!r} leaves the project root")
        return self.root / relative

    def query(self, status: str | None = None, exam: str | None = None, year: int | None = None, language: str | None = None,
              text: str | None = None) -> list[str]:
        """Item ids in review order, filtered; `text` is searched for (case-insensitive) in ids, sheet and texts."""
        needle = " ".join((text or "").split()).casefold()
        if not (status or exam or year or language or needle):
            return list(self.order)
        out = []
        for item_id in self.order:
            item = self.items[item_id]
            q = item.question
            if (status and item.status != status) or (exam and q.exam != exam) or (year and q.year != year) or (language and q.language != language):
                continue
            if needle and not item.matches(needle):
                continue
            out.append(item_id)
        return out

    def table(self, ids: list[str], sort: str = "item_id", descending: bool = False, limit: int = 200) -> list[dict]:
        """The summaries of `ids` sorted by one column (missing values last), the first `limit` of them."""
        if sort not in SORTABLE_COLUMNS:
            raise ReviewInputError(f"cannot sort by {sort!r} (one of {', '.join(SORTABLE_COLUMNS)})", field="sort")
        # A printed number ("9", "10", "3.1") sorts by value; every other column holds one type throughout.
        get = attrgetter(SORTABLE_COLUMNS[sort])
        values = [(get(self.items[item_id]), item_id) for item_id in ids]
        keyed = [(_number_key(v), i) for v, i in values if v is not None] if sort == "number" else [t for t in values if t[0] is not None]
        missing = [i for v, i in values if v is None]
        # Only the first `limit` rows are shown: a partial selection, not a sort of every item.
        first = (heapq.nlargest if descending else heapq.nsmallest)(limit, keyed)
        return [self.items[item_id].summary() for item_id in [*(t[1] for t in first), *missing][:limit]]

    def progress(self) -> dict:
        by_status: dict[str, int] = {}
        for item in self.items.values():
            by_status[item.status] = by_status.get(item.status, 0) + 1
        reviewed = sum(by_status.get(s, 0) for s in REVIEWED_STATUSES)
        return {"reviewed": reviewed, "total": len(self.items), "by_status": by_status}

    def facets(self) -> dict:
        if self._question_facets is None:  # the questions never change while the page is served; statuses do
            qs = [i.question for i in self.items.values()]
            self._question_facets = {"exams": sorted({q.exam for q in qs}), "years": sorted({q.year for q in qs}),
                                     "languages": sorted({q.language for q in qs})}
        return {**self._question_facets,
                "statuses": sorted({i.status for i in self.items.values()} | {STATUS_PENDING, *REVIEWED_STATUSES})}

    def decide(self, item_id: str, *, action: str, annotator: str, version: int, description: str | None = None,
               transcription: str | None = None, reason: str | None = None) -> ReviewItem:
        """Accepts (with the texts as given: an edit is an accept with changed text) or rejects.
        The decision is in the audit log, fsync'ed, before this returns."""
        annotator = checked_annotator(annotator)
        if action not in ("accept", "reject"):
            raise ReviewInputError(f"unknown action {action!r} (accept or reject)", field="action")
        with self._lock:
            item = self.get(item_id)
            if version != item.version:
                raise ConflictError(item)
            if action == "accept":
                description = ((item.description if description is None else description) or "").strip()
                transcription = ((item.transcription if transcription is None else transcription) or "").strip()
                if not description:
                    raise ReviewInputError("an accepted figure needs a description", field="description")
                after = {"status": ACCEPTED, "description": description, "transcription": transcription, "reason": None}
            else:
                reason = (reason or "").strip()
                if not reason:
                    raise ReviewInputError("a rejection needs a reason", field="reason")
                after = {"status": REJECTED, "description": item.description, "transcription": item.transcription, "reason": reason}
            now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
            a = item.annotation
            edited = action == "accept" and (after["description"], after["transcription"]) != (a.description or "", a.transcription or "")
            self.log.append({
                "item_id": item_id, "record_id": a.record_id, "image_sha256": a.image_sha256, "model": a.model,
                "prompt_version": a.prompt_version, "action": action, "edited": edited, "annotator": annotator, "at": now,
                "version": item.version + 1, "before": item.snapshot(), "after": after,
            })
            updated = replace(item, status=after["status"], description=after["description"], transcription=after["transcription"],
                              reason=after["reason"], version=item.version + 1, reviewed_by=annotator, reviewed_at=now,
                              previous=item.snapshot())
            self.items[item_id] = updated
            return updated

    def undo(self, item_id: str, *, annotator: str, version: int) -> ReviewItem:
        """Puts back the state the item's latest decision replaced, as a new signed entry in the audit
        log (nothing is deleted from it); undoing an undo redoes. The same version check as `decide`."""
        annotator = checked_annotator(annotator)
        with self._lock:
            item = self.get(item_id)
            if version != item.version:
                raise ConflictError(item)
            if item.previous is None:
                raise ReviewInputError(f"item {item_id} has no decision to undo", field="version")
            after: dict = {"status": item.previous["status"], "description": item.previous.get("description"),
                     "transcription": item.previous.get("transcription"), "reason": item.previous.get("reason"),
                     "reviewed_by": item.previous.get("reviewed_by"), "reviewed_at": item.previous.get("reviewed_at")}
            a = item.annotation
            now = datetime.now(timezone.utc).isoformat(timespec="milliseconds")
            self.log.append({
                "item_id": item_id, "record_id": a.record_id, "image_sha256": a.image_sha256, "model": a.model,
                "prompt_version": a.prompt_version, "action": UNDO, "edited": False, "annotator": annotator, "at": now,
                "version": item.version + 1, "before": item.snapshot(), "after": after,
            })
            updated = replace(item, status=after["status"], description=after["description"], transcription=after["transcription"],
                              reason=after["reason"], version=item.version + 1, reviewed_by=after["reviewed_by"],
                              reviewed_at=after["reviewed_at"], previous=item.snapshot())
            self.items[item_id] = updated
            return updated


def checked_annotator(annotator: str | None) -> str:
    """The annotator's name as decisions are signed with it (`pipeline.review.names`)."""
    annotator, problem = signed_name(annotator)
    if problem:
        raise ReviewInputError(f"the annotator's name {problem}", field="annotator")
    return annotator


def _number_key(value) -> tuple:
    """Numbers before texts, numbers by value ("10" after "9"), texts casefolded."""
    text = str(value)
    return (0, float(text), "") if text.replace(".", "", 1).isdecimal() else (1, 0.0, text.casefold())
