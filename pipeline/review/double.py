"""Double review: each figure judged blind by two annotators, their agreement measured, and the
figures they disagree on queued for an adjudicator.

An annotator's queue holds the items they have not judged that have fewer than REVIEWERS_PER_ITEM
judgements: the first two annotators to judge an item are the ones it is assigned to. A judgement
(`vote`) is appended to `annotations/blind_reviews.jsonl` (fsync'ed before it is acknowledged) and
never shown to the other annotator: the page gets the item as generated, not the other's verdict.

When the second judgement has the same outcome as the first (the same action, and for an accept the
same texts), that outcome becomes the item's decision in `annotations/reviews.jsonl`, signed by both.
Otherwise the item goes to the disagreement queue, where an adjudicator sees both judgements and
decides with an ordinary decision (the version check applies as ever).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from pipeline.describe import AppendLog, read_jsonl
from pipeline.review.agreement import PairAgreement, pair_agreements
from pipeline.review.names import MAX_NAME
from pipeline.review.store import REVIEWED_STATUSES, ReviewInputError, ReviewStore, checked_annotator

BLIND_FILE = Path("annotations") / "blind_reviews.jsonl"
AGREEMENT_FILE = Path("annotations") / "agreement.json"
REVIEWERS_PER_ITEM = 2


class VoteRefused(ReviewInputError):
    """A judgement that cannot be counted: this annotator judged the item already, or two others have."""


@dataclass(frozen=True)
class Vote:
    item_id: str
    annotator: str
    action: str  # accept, reject
    edited: bool
    description: str | None
    transcription: str | None
    reason: str | None
    at: str

    @property
    def category(self) -> str:
        """accept, edit or reject: what agreement is measured on (pipeline.review.agreement)."""
        return "edit" if self.action == "accept" and self.edited else self.action

    def outcome(self) -> tuple:
        return (self.action, self.description, self.transcription) if self.action == "accept" else (self.action,)

    def to_dict(self) -> dict:
        return {"item_id": self.item_id, "annotator": self.annotator, "action": self.action, "edited": self.edited,
                "description": self.description, "transcription": self.transcription, "reason": self.reason, "at": self.at}


@dataclass
class DoubleReview:
    store: ReviewStore
    log: AppendLog
    votes: dict[str, dict[str, Vote]] = field(default_factory=dict)  # item id -> annotator -> vote
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def open(cls, store: ReviewStore, path: Path | None = None) -> "DoubleReview":
        path = path or store.root / BLIND_FILE
        votes: dict[str, dict[str, Vote]] = {}
        for number, record in enumerate(read_jsonl(path), start=1):
            try:
                vote = Vote(**{k: record[k] for k in ("item_id", "annotator", "action", "edited", "description", "transcription",
                                                       "reason", "at")})
            except KeyError as exc:
                raise ReviewInputError(f"{path}: record {number} is not a blind judgement (missing {exc})") from None
            if vote.item_id in store.items:
                votes.setdefault(vote.item_id, {})[vote.annotator] = vote
        return cls(store=store, log=AppendLog(path), votes=votes)

    def queue_for(self, annotator: str, ids: list[str]) -> list[str]:
        """Of `ids`, those still awaiting this annotator's blind judgement."""
        name = (annotator or "").strip()
        return [i for i in ids if name not in self.votes.get(i, {}) and len(self.votes.get(i, {})) < REVIEWERS_PER_ITEM
                and self.store.items[i].status not in REVIEWED_STATUSES]

    def disagreements(self, ids: list[str] | None = None) -> list[str]:
        """Items judged twice with different outcomes and not decided since: the adjudication queue."""
        return [i for i in (self.store.order if ids is None else ids)
                if len(self.votes.get(i, {})) >= REVIEWERS_PER_ITEM and len({v.outcome() for v in self.votes[i].values()}) > 1
                and self.store.items[i].status not in REVIEWED_STATUSES]

    def blind_detail(self, item_id: str) -> dict:
        """The item as the model generated it: nobody's verdict, so the second judgement is independent."""
        item = self.store.get(item_id)
        detail = item.detail()
        generated = detail["generated"]
        detail.update(status="pending", description=generated["description"], transcription=generated["transcription"],
                      reviewed_by=None, reviewed_at=None, reason=None, can_undo=False, judged_by=len(self.votes.get(item_id, {})))
        return detail

    def adjudication_detail(self, item_id: str) -> dict:
        return {**self.store.get(item_id).detail(), "votes": [v.to_dict() for v in self.votes.get(item_id, {}).values()]}

    def vote(self, item_id: str, *, annotator: str, action: str, description: str | None = None,
             transcription: str | None = None, reason: str | None = None) -> Vote:
        annotator = checked_annotator(annotator)
        item = self.store.get(item_id)
        a = item.annotation
        if action == "accept":
            description = ((a.description if description is None else description) or "").strip()
            transcription = ((a.transcription if transcription is None else transcription) or "").strip()
            if not description:
                raise ReviewInputError("an accepted figure needs a description", field="description")
            reason = None
        elif action == "reject":
            reason = (reason or "").strip()
            if not reason:
                raise ReviewInputError("a rejection needs a reason", field="reason")
            description = transcription = None
        else:
            raise ReviewInputError(f"unknown action {action!r} (accept or reject)", field="action")
        with self._lock:
            judged = self.votes.get(item_id, {})
            if annotator in judged:
                raise VoteRefused(f"{annotator} judged item {item_id} already (at {judged[annotator].at})", field="annotator")
            if len(judged) >= REVIEWERS_PER_ITEM:
                raise VoteRefused(f"item {item_id} has its {REVIEWERS_PER_ITEM} blind judgements already ({', '.join(judged)})",
                                  field="annotator")
            edited = action == "accept" and (description, transcription) != ((a.description or "").strip(), (a.transcription or "").strip())
            vote = Vote(item_id, annotator, action, edited, description, transcription, reason,
                        datetime.now(timezone.utc).isoformat(timespec="milliseconds"))
            self.log.append(vote.to_dict())
            self.votes.setdefault(item_id, {})[annotator] = vote
            both = list(self.votes[item_id].values())
        if len(both) == REVIEWERS_PER_ITEM and both[0].outcome() == both[1].outcome():
            self._settle(item_id, both)
        return vote

    def _settle(self, item_id: str, both: list[Vote]) -> None:
        """Two matching judgements decide the item, signed by both; one decided meanwhile is left alone."""
        item = self.store.get(item_id)
        if item.status in REVIEWED_STATUSES:
            return
        last = both[-1]
        signed = " & ".join(v.annotator[: MAX_NAME // 2 - 2] for v in both)  # both names within one name's limit
        self.store.decide(item_id, action=last.action, annotator=signed, version=item.version,
                          description=last.description, transcription=last.transcription, reason=last.reason)

    def agreement(self) -> list[PairAgreement]:
        judgements = {item: {name: vote.category for name, vote in by.items()} for item, by in self.votes.items()}
        return pair_agreements(judgements)

    def report(self) -> dict:
        """Kappa per annotator pair, and how many items wait for a second judgement or an adjudicator."""
        waiting = sum(1 for by in self.votes.values() if len(by) < REVIEWERS_PER_ITEM)
        return {"pairs": [p.to_dict() for p in self.agreement()], "judged_items": len(self.votes),
                "awaiting_second": waiting, "disagreements": len(self.disagreements())}
