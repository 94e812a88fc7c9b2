"""Curators' corrections of extracted questions: overrides keyed by question id and the SHA-256 of the
sheet they were made on, appended with their audit trail to `annotations/overrides.jsonl`.

`apply_overrides(questions, overrides)` is what the extract stage runs on its records before writing
them: a correction survives re-runs, and is dropped with a report line once the sheet's bytes
change (a corrected text for another file would be wrong). The latest override of a question wins.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from collections import Counter
from collections.abc import Collection

from pipeline.describe import AppendLog, read_jsonl
from pipeline.diagnostics import Code, diagnose, has_code
from pipeline.records import Question
from pipeline.review.keys import KeyMismatch, checked_key
from pipeline.review.names import signed_name
from pipeline.renames import OVERRIDES_FILE, current_id, load_renames

BROKEN_FLAG = diagnose(Code.BROKEN)  # its message "broken_by_curator" is what curated Parquet has always held
LETTERS = "ABCDEFGHIJ"


class OverrideError(ValueError):
    """A correction that cannot be taken as it stands; `field` names the part of the request at fault."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


class UnknownQuestion(OverrideError):
    """No curated question has this id."""


class OverrideConflict(RuntimeError):
    def __init__(self, current: "Override | None", version: int):
        super().__init__(f"question corrected by someone else meanwhile (now at version {version})")
        self.current = current
        self.version = version


@dataclass(frozen=True)
class Override:
    question_id: str
    sheet_sha256: str
    question: str
    choices: list[str]
    answer: str | None
    broken: bool
    annotator: str
    at: str
    version: int
    note: str = ""
    before: dict = field(default_factory=dict)
    # What extraction read before any correction of this question on this sheet (the first correction's `before`):
    # what a re-run compares with to find the question on a new revision of the sheet. Not stored; `load_overrides`.
    extracted: dict = field(default_factory=dict, compare=False)

    def to_dict(self) -> dict:
        return {"question_id": self.question_id, "sheet_sha256": self.sheet_sha256, "question": self.question, "choices": self.choices,
                "answer": self.answer, "broken": self.broken, "annotator": self.annotator, "at": self.at, "version": self.version,
                "note": self.note, "before": self.before}

    @classmethod
    def from_dict(cls, data: dict, where: str) -> "Override":
        try:
            return cls(**{k: data[k] for k in ("question_id", "sheet_sha256", "question", "choices", "answer", "broken", "annotator",
                                               "at", "version")}, note=data.get("note", ""), before=data.get("before", {}))
        except KeyError as exc:
            raise OverrideError(f"{where}: override lacks {exc.args[0]}") from None


def load_overrides(path: Path, renames: dict[str, str] | None = None) -> dict[str, Override]:
    """The latest override of each question in an overrides file (none when it does not exist), keyed
    by the question's current id (`renames`: old id -> new id, pipeline.renames)."""
    latest: dict[str, Override] = {}
    for number, record in enumerate(read_jsonl(path), start=1):
        override = Override.from_dict(record, where=f"{path}: record {number}")
        key = current_id(override.question_id, renames or {})
        earlier = latest.get(key)
        first_seen = earlier.extracted if earlier is not None and earlier.sheet_sha256 == override.sheet_sha256 else override.before
        latest[key] = replace(override, extracted=first_seen)
    return latest


def _reading(question: str, choices: list[str]) -> tuple[str, tuple[str, ...]]:
    """A question's text and options with their spacing evened: what makes two readings the same question."""
    return " ".join(question.split()), tuple(" ".join(c.split()) for c in choices)


def _known(seen: dict) -> bool:
    return isinstance(seen.get("question"), str) and isinstance(seen.get("choices"), list)


def _reads_as_corrected(q: Question, override: Override) -> bool:
    """Whether `q` reads as extraction read the question `override` corrected (true where that was not stored)."""
    seen = override.extracted
    return not _known(seen) or _reading(q.question, list(q.choices)) == _reading(seen["question"], [str(c) for c in seen["choices"]])


def moved_on_its_sheet(q: Question, override: Override) -> bool:
    """A correction made on these very bytes whose question this record no longer reads exactly: the sheet is
    unchanged, so either the spec read another question under this id (a spec change moved the numbers, or changed
    what is read) or the same question was read a little otherwise (`reread_alike`)."""
    return override.sheet_sha256 == q.source_sha256 and not _reads_as_corrected(q, override)


# How much of a record's printed box must cover the box the corrected question was printed in (intersection over
# union, page by page) for it to be the same question read again: a new OCR pass or cleaning rule changes a few
# characters of a question on unchanged bytes (a corrected scan is where curators' work matters most) but not where it
# is printed, while another question numbered under the id (a spec change) is printed elsewhere on the sheet. Text
# likeness cannot tell these apart: two questions of a series differ by one digit, an OCR change by one letter.
REREAD_OVERLAP = 0.5


def _where(q: Question) -> list[list[float]]:
    """Where a question is printed, as a correction stores it: [page, x0, top, x1, bottom] per region."""
    return [[float(r.page), *map(float, r.bbox)] for r in q.regions]


def _overlap(a: list[list[float]], b: list[list[float]]) -> float:
    """Intersection over union of two sets of page boxes [page, x0, top, x1, bottom] (boxes of one set do not
    overlap each other)."""
    def area(x0: float, top: float, x1: float, bottom: float) -> float:
        return max(0.0, x1 - x0) * max(0.0, bottom - top)

    shared = sum(area(max(x[1], y[1]), max(x[2], y[2]), min(x[3], y[3]), min(x[4], y[4]))
                 for x in a for y in b if x[0] == y[0])
    union = sum(area(*x[1:]) for x in a) + sum(area(*y[1:]) for y in b) - shared
    return shared / union if union > 0 else 0.0


def reread_alike(q: Question, override: Override) -> bool:
    """Whether `q`, on the very bytes `override` was made on and printed where the corrected question was printed, is
    that question read again (an OCR or cleaning change), though its text reads otherwise: where no record reads it
    exactly, the correction stays with it. False for a correction stored without where its question was printed."""
    where = override.extracted.get("where")
    if override.sheet_sha256 != q.source_sha256 or not isinstance(where, list) or not where or not q.regions:
        return False
    try:
        boxes = [[float(v) for v in box] for box in where if isinstance(box, list) and len(box) == 5]
    except (TypeError, ValueError):
        return False
    return _overlap(_where(q), boxes) >= REREAD_OVERLAP


def carried_by_text(questions: list[Question], overrides: dict[str, Override], said: Collection[str] = ()) -> dict[str, str]:
    """old id -> new id for each correction whose question this run no longer reads under its id, carried to the one
    record that extraction reads exactly as it read the corrected question (text and options, spacing aside) and that
    has no correction of its own that is its: a question moved by one added or removed before it on a new revision
    (other bytes), the same question on a reissued or merged sheet, or, on the very same bytes, a question a spec change
    numbered otherwise. A question read otherwise (a word changed) is not the one corrected."""
    by_id = {q.id: q for q in questions}
    by_reading: dict[tuple, list[Question]] = {}
    for q in questions:
        by_reading.setdefault(_reading(q.question, list(q.choices)), []).append(q)
    carried: dict[str, str] = {}
    for old_id, override in overrides.items():
        here = by_id.get(old_id)
        seen = override.extracted
        if old_id in said or not _known(seen):
            continue  # named elsewhere, or stored without what it corrected: nothing to know the question by
        if here is not None and here.source_sha256 == override.sheet_sha256 and not moved_on_its_sheet(here, override):
            continue  # its own question, where it was made
        # A record whose own correction is its (made on its bytes, on what it reads) keeps that one (never two on one).
        matches = [q for q in by_reading.get(_reading(seen["question"], [str(c) for c in seen["choices"]]), [])
                   if q.id == old_id or q.id not in overrides or overrides[q.id].sheet_sha256 != q.source_sha256
                   or (moved_on_its_sheet(q, overrides[q.id]) and not reread_alike(q, overrides[q.id]))]
        if len(matches) == 1:
            carried[old_id] = matches[0].id
    targets = Counter(carried.values())
    return {old: new for old, new in carried.items() if targets[new] == 1}  # two corrections for one record: neither


def _fields(q: Question) -> dict:
    return {"question": q.question, "choices": list(q.choices), "answer": q.answer, "broken": has_code(q.flags, Code.BROKEN)}


def apply_overrides(questions: list[Question], overrides: dict[str, Override],
                    said: Collection[str] = ()) -> tuple[list[Question], list[str]]:
    """Questions with their curators' corrections, and one report line per override applied, dropped
    (the sheet changed) or left over (the question is no longer extracted), but for the left-over ids in `said`:
    another line of the run names them with why they match no record (`renames.carried_ids`)."""
    out, report, seen = [], [], set()
    carried = carried_by_text(questions, overrides, said)
    carried_to = {new: old for old, new in carried.items()}
    for q in questions:
        mine = overrides.get(q.id)
        if q.id in carried_to:
            old = carried_to[q.id]
            override = replace(overrides[old], sheet_sha256=q.source_sha256)
            seen.update((old, q.id))
            moved = "" if old == q.id else f", now {q.id}"
            why = (f"the sheet changed ({overrides[old].sheet_sha256[:12]}… → {q.source_sha256[:12]}…{moved})"
                   if overrides[old].sheet_sha256 != q.source_sha256 else
                   f"the sheet is unchanged but its question is read as {q.id} now (the spec numbers it otherwise)")
            report.append(f"override of {old} by {override.annotator} ({override.at}) carried to {q.id}: {why} and this "
                          "record reads as the question corrected")
        elif mine is None or q.id in carried:
            out.append(q)
            continue
        else:
            override = mine
            seen.add(q.id)
        reread = moved_on_its_sheet(q, override) and reread_alike(q, override)
        if moved_on_its_sheet(q, override) and not reread:  # never onto the question that now bears the old number
            report.append(f"override of {q.id} by {override.annotator} ({override.at}) dropped: the sheet is unchanged but "
                          f"{q.id} reads another question now (a spec change moved the numbers or what is read), and no "
                          "record of this run reads as the question corrected; correct it again if needed")
            out.append(q)
            continue
        if override.sheet_sha256 != q.source_sha256:
            unread = ("; no record of this run reads as the question corrected (its text or options changed)"
                      if isinstance(override.extracted.get("question"), str) else "")
            report.append(f"override of {q.id} by {override.annotator} ({override.at}) dropped: the sheet changed "
                          f"({override.sheet_sha256[:12]}… → {q.source_sha256[:12]}…){unread}; correct it again if needed")
            out.append(q)
            continue
        labels = list(q.choice_labels) if len(q.choice_labels) == len(override.choices) else list(LETTERS[: len(override.choices)])
        answer_index = labels.index(override.answer) if override.answer in labels and override.choices else None
        flags = [f for f in q.flags if f.code is not Code.BROKEN] + ([BROKEN_FLAG] if override.broken else [])
        out.append(replace(q, question=override.question, choices=list(override.choices), choice_labels=labels,
                           answer=override.answer, answer_index=answer_index, flags=flags))
        if reread:
            report.append(f"override of {q.id} by {override.annotator} ({override.at}) applied: the sheet is unchanged and "
                          "this record reads the question corrected a little otherwise now (read again by a changed stage)")
        elif q.id not in carried_to:
            report.append(f"override of {q.id} by {override.annotator} ({override.at}) applied")
    for question_id in sorted(set(overrides) - seen - set(said)):
        report.append(f"override of {question_id} not applied: no such question in this run")
    return out, report


@dataclass
class CorrectionStore:
    """Curated questions for the extraction audit, with their corrections; the same version check as
    review decisions keeps two curators from overwriting each other."""

    root: Path
    questions: dict[str, Question]
    log: AppendLog
    overrides: dict[str, Override] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def open(cls, root: Path, questions: dict[str, Question], path: Path | None = None) -> "CorrectionStore":
        path = path or Path(root) / OVERRIDES_FILE
        return cls(root=Path(root), questions=questions, log=AppendLog(path),
                   overrides=load_overrides(path, load_renames(Path(root))))

    def queue(self, flagged_only: bool = True, code: str | None = None) -> list[str]:
        """Flagged questions first (the default queue), and among them first those read by OCR unsurely
        (`ocr.uncertain`), the least sure reading first; all of them with flagged_only=False; only those
        with a flag of `code` (a registered diagnostic code, "key.no_entry") when one is given."""
        if code is not None:
            try:
                Code.parse(code)
            except ValueError:
                raise OverrideError(f"no flag code {code!r}: the run report's table of codes lists them") from None
        ordered = sorted(self.questions.values(), key=_audit_order)
        return [q.id for q in ordered if (q.flags or not flagged_only) and (code is None or code in q.flag_codes)]

    def flag_code_counts(self) -> dict[str, int]:
        """How many questions carry a flag of each code, most common first (the audit page's filter)."""
        counted = Counter(code for q in self.questions.values() for code in set(q.flag_codes))
        return dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))

    def detail(self, question_id: str) -> dict:
        q = self._question(question_id)
        override = self.overrides.get(question_id)
        shown, _ = apply_overrides([q], {question_id: override} if override else {})
        current = shown[0]
        return {
            "id": q.id, "source": q.source, "exam": q.exam, "year": q.year, "number": q.number, "type": q.type, "flags": q.flags,
            "flag_codes": q.flag_codes, "reading_confidence": q.reading_confidence,
            "pages": q.pages, "sheet_sha256": q.source_sha256, "source_url": q.source_url, "labels": current.choice_labels,
            "extracted": _fields(q), "current": _fields(current), "version": override.version if override else 0,
            "corrected_by": override.annotator if override else None, "corrected_at": override.at if override else None,
            "page_urls": [_page_url(q, p) for p in q.pages], "page_text_urls": [_page_url(q, p, ".txt") for p in q.pages],
            "language": q.language, "type_labels": {"extracted": list(q.choice_labels), "fallback": list(LETTERS)},
            "regions": [{"page": r.page, "bbox": list(r.bbox)} for r in q.regions],
        }

    def _question(self, question_id: str) -> Question:
        try:
            return self.questions[question_id]
        except KeyError:
            raise UnknownQuestion(f"no curated question {question_id!r}") from None

    def correct(self, question_id: str, *, annotator: str, version: int, question: str, choices: list[str], answer: str | None,
                broken: bool, note: str = "") -> Override:
        annotator, problem = signed_name(annotator)
        if problem:
            raise OverrideError(f"the curator's name {problem}", field="annotator")
        if not isinstance(question, str) or not question.strip():
            raise OverrideError("the question text cannot be empty", field="question")
        if not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
            raise OverrideError("choices must be a list of texts", field="choices")
        with self._lock:
            q = self._question(question_id)
            current = self.overrides.get(question_id)
            now_version = current.version if current else 0
            if version != now_version:
                raise OverrideConflict(current, now_version)
            kept = [c for c in choices if c.strip()]
            if len(kept) > len(LETTERS) and len(kept) != len(q.choice_labels):  # apply_overrides could not label them
                raise OverrideError(f"{len(kept)} options: at most {len(LETTERS)}, or as many as the question's labels "
                                    f"({len(q.choice_labels)})", field="choices")
            labels = list(q.choice_labels) if len(q.choice_labels) == len(kept) else list(LETTERS[: len(kept)])
            try:
                answer = checked_key(q.type, labels, answer, broken=bool(broken))
            except KeyMismatch as exc:
                raise OverrideError(str(exc), field="answer") from None
            before = {**self.detail(question_id)["current"], "where": _where(q)}  # where: to know the question re-read
            override = Override(question_id=q.id, sheet_sha256=q.source_sha256, question=question.strip(),
                                choices=[c.strip() for c in choices if c.strip()], answer=(answer or "").strip() or None,
                                broken=bool(broken), annotator=annotator, at=datetime.now(timezone.utc).isoformat(timespec="milliseconds"),
                                version=now_version + 1, note=(note or "").strip(), before=before)
            self.log.append(override.to_dict())
            self.overrides[question_id] = override
            return override


def _page_url(q: Question, page: int, kind: str = ".png") -> str:
    """The page image (or with `kind` ".txt" its printed text), with the question's region on that page
    outlined (the text: within it) when the record has one."""
    url = f"/page/{q.source_sha256}/{page}{kind}"
    box = next((r.bbox for r in q.regions if r.page == page), None)
    return url + ("?box=" + ",".join(f"{v:g}" for v in box) if box else "")


def _audit_order(q: Question) -> tuple:
    """Unsure OCR readings first (the least confident first), then other flagged questions, then the rest."""
    unsure = Code.OCR_UNCERTAIN.code in q.flag_codes
    confidence = q.reading_confidence if q.reading_confidence is not None else 101.0
    return (not unsure, not q.flags, confidence if unsure else 0.0, q.source, q.year, q.id)
