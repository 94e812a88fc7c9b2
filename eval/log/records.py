"""The run folder's records as typed models, with one JSON schema for all of them.

    plan.json        PlanRecord       the resolved plan, the protocol and the backend's kind
    prompts.jsonl    PromptRecord     one per question: prompt, labels, key, metadata
    attempts.jsonl   AttemptRecord    one per try, appended as it happens
    sessions.jsonl   SessionRecord    one per invocation: environment, backend, operational settings
    scores.json      Scores           accuracy with intervals, per (config, language), breakdowns, totals
    run.json         RunState         complete or incomplete, publishable or why not

Every model keeps fields it does not name (`extra="allow"`): a folder written by an older or newer
version reads, and writes back, unchanged. `to_json` writes only the fields a record was given, so
a record read from an old folder dumps to the same bytes it was read from (rescoring compares bytes).
The schema (`run_folder_schema`) is committed beside this module as run_folder.schema.json.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

# A JSON number as written: an int stays an int, so re-dumping a stored file gives the same bytes.
Number = int | float
SCHEMA_FILE = Path(__file__).with_name("run_folder.schema.json")


class Record(BaseModel):
    model_config = ConfigDict(extra="allow")

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON object: the fields it was given (or read with), unknown ones included."""
        return self.model_dump(mode="json", exclude_unset=True)


class ProtocolRef(Record):
    name: str
    version: str
    extraction_rule: str | None = None


class PlanRecord(Record):
    """plan.json: `plan` is the RunPlan (eval.run.plan) as it was resolved when the run began."""
    plan: dict[str, Any]
    protocol: ProtocolRef
    backend_kind: Literal["generative", "loglikelihood"] = "generative"


class PromptRecord(Record):
    qid: str
    config: str | None = None
    language: str
    answer: str | None = None
    labels: list[str] = []
    meta: dict[str, Any] = {}


class AttemptRecord(Record):
    """One try at one (question, repeat). A technical failure carries `error`, `http_status` and
    `retryable`; an answer carries the response, what was extracted from it, and how."""
    qid: str
    repeat: int
    attempt: int
    time: str
    status: str
    response: str | None = None
    extracted: str | None = None
    extraction_method: str | None = None
    finish_reason: str | None = None
    latency_s: Number | None = None
    error: str | None = None
    http_status: int | None = None
    retryable: bool | None = None


class SessionRecord(Record):
    started_at: str
    environment: dict[str, Any]
    backend: dict[str, Any]
    repaired_partial_line_bytes: int = 0
    operational: dict[str, Any] | None = None


class RunState(Record):
    state: Literal["complete", "incomplete"]
    publishable: bool
    reasons: list[str] = []

    @property
    def complete(self) -> bool:
        return self.state == "complete"


class StatusCounts(Record):
    correct: int = 0
    wrong: int = 0
    refusal: int = 0
    extraction_failure: int = 0
    truncated: int = 0
    technical_failure: int = 0
    missing: int = 0


class ScoreCell(Record):
    """Accuracy over some questions with its bootstrap interval; the cloze and per-token
    normalisations only where the run has them."""
    n_questions: int
    repeats: int
    accuracy_pct: Number
    ci_low: Number
    ci_high: Number
    per_repeat_accuracy_pct: list[Number]
    counts: StatusCounts
    refusal_pct: Number
    extraction_failure_pct: Number
    truncated_pct: Number
    accuracy_norm_pct: Number | None = None
    norm_ci_low: Number | None = None
    norm_ci_high: Number | None = None
    accuracy_norm_tokens_pct: Number | None = None
    norm_tokens_ci_low: Number | None = None
    norm_tokens_ci_high: Number | None = None


class GroupScore(ScoreCell):
    config: str | None
    language: str


class BreakdownRow(Record):
    config: str | None
    language: str
    value: Any
    n_questions: int
    accuracy_pct: Number
    ci_low: Number
    ci_high: Number


class ModelRef(Record):
    backend: str
    name: str  # the model id: the name at the endpoint, or the local weights' path
    display_name: str | None = None  # what tables call it (eval.models.naming); absent in runs made before


class Bootstrap(Record):
    resamples: int
    seed: int
    confidence: Number
    unit: str


class Scores(Record):
    scores_version: int
    dataset_id: str
    protocol: ProtocolRef
    model: ModelRef
    repeats: int
    bootstrap: Bootstrap
    overall: ScoreCell
    groups: list[GroupScore]
    breakdowns: dict[str, list[BreakdownRow]] = {}
    totals: StatusCounts


RECORDS: dict[str, type[Record]] = {
    "plan.json": PlanRecord, "prompts.jsonl": PromptRecord, "attempts.jsonl": AttemptRecord,
    "sessions.jsonl": SessionRecord, "scores.json": Scores, "run.json": RunState,
}
R = TypeVar("R", bound=Record)


class RecordError(ValueError):
    """A run-folder file whose content is not the record it should hold; names the file and the field."""


def parse_record(model: type[R], data: Any, where: str) -> R:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(record)"
        raise RecordError(f"{where}: not a {model.__name__}: {field}: {first['msg']}") from None


def run_folder_schema() -> dict[str, Any]:
    """One JSON schema naming each run-folder file's record."""
    definitions = {name: model.model_json_schema(ref_template="#/$defs/{model}") for name, model in RECORDS.items()}
    shared: dict[str, Any] = {}
    files = {}
    for name, schema in definitions.items():
        shared.update(schema.pop("$defs", {}))
        title = schema["title"]
        shared[title] = schema
        files[name] = {"$ref": f"#/$defs/{title}"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "examcorpus run folder",
            "description": "Each file of an evaluation run folder and the record it holds (one per line for .jsonl).",
            "files": files, "$defs": dict(sorted(shared.items()))}


def schema_text() -> str:
    return json.dumps(run_folder_schema(), ensure_ascii=False, sort_keys=True, indent=2) + "\n"
