"""The bodies the review and audit pages POST, as strict schemas: a body with a wrong type, an unknown
field or an over-long text is refused with a 400 naming the field, before the store sees it.

Strict types because a lenient coercion hides a broken client: `"version": "1"` or `true` is not a
version, and a description sent as a list is not a description. The length caps are far above any
real text (the longest curated question is a few thousand characters) and keep one body from
filling the audit log; the body as a whole is capped by `pipeline.review.guard`.
"""
from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from flask import Request
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import ErrorDetails

from pipeline.review.names import MAX_NAME

MAX_TEXT = 20_000  # a description, a transcription, a question's text
MAX_OPTION = 5_000  # one answer option
MAX_OPTIONS = 26  # options of one question (A-Z)
MAX_NOTE = 2_000  # a rejection reason, a curator's note
MAX_ANSWER = 32  # a key: "B", "A,C", "PRAWDA"

Name = Annotated[str, Field(max_length=MAX_NAME)]
Text = Annotated[str, Field(max_length=MAX_TEXT)]
Note = Annotated[str, Field(max_length=MAX_NOTE)]
Version = Annotated[int, Field(ge=0)]

JSON_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", bool: "true/false", int: "a number", float: "a number",
                   type(None): "null"}


class ApiError(ValueError):
    """A request the API refuses, with its HTTP status and the field (or header) at fault."""

    def __init__(self, message: str, field: str | None = None, status: int = 400, problems: list[dict] | None = None):
        super().__init__(message)
        self.field = field
        self.status = status
        self.problems = problems or []

    def body(self) -> dict:
        return {"error": str(self), "field": self.field, **({"problems": self.problems} if self.problems else {})}


class StrictBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class DecisionBody(StrictBody):
    """POST /api/items/<item_id>/decision."""

    version: Version
    action: Literal["accept", "reject"]
    annotator: Name
    description: Text | None = None
    transcription: Text | None = None
    reason: Note | None = None


class VoteBody(StrictBody):
    """POST /api/items/<item_id>/vote: a blind judgement in double review (no version: judgements
    do not overwrite each other)."""

    action: Literal["accept", "reject"]
    annotator: Name
    description: Text | None = None
    transcription: Text | None = None
    reason: Note | None = None


class UndoBody(StrictBody):
    """POST /api/items/<item_id>/undo: the version the undo is meant for, as a decision names it."""

    version: Version
    annotator: Name


class CorrectionBody(StrictBody):
    """POST /api/audit/questions/<question_id>."""

    version: Version
    annotator: Name
    question: Text
    choices: Annotated[list[Annotated[str, Field(max_length=MAX_OPTION)]], Field(max_length=MAX_OPTIONS)] = []
    answer: Annotated[str, Field(max_length=MAX_ANSWER)] | None = None
    broken: bool = False
    note: Note = ""


Body = TypeVar("Body", bound=StrictBody)


def _field_name(location: tuple) -> str:
    return ".".join(str(part) for part in location) or "body"


def _problem(error: ErrorDetails) -> dict[str, Any]:
    field = _field_name(error["loc"])
    message = error["msg"]
    if error["type"].endswith("_type") or error["type"] == "literal_error":
        message += f" (got {JSON_TYPE_NAMES.get(type(error.get('input')), type(error.get('input')).__name__)})"
    if error["type"] == "extra_forbidden":
        message = "unknown field"
    if error["type"] == "missing":
        message = "required"
    return {"field": field, "message": message}


def read_body(req: Request, schema: type[Body]) -> Body:
    """The request's JSON body as `schema`; ApiError naming the field when it is not one."""
    if not req.is_json:
        raise ApiError(f"the body must be JSON (Content-Type: application/json), not {req.mimetype or 'untyped'}",
                       field="Content-Type", status=415)
    data = req.get_data(cache=False)
    # A chunked body is read only up to MAX_CONTENT_LENGTH, silently; reading on past it is what makes
    # werkzeug raise its 413, so a body cut at the cap is never parsed as if it were whole.
    if req.stream.read(1):
        raise ApiError("the request body is over the size limit", field="body", status=413)
    try:
        payload = json.loads(data)
    except ValueError as exc:  # not JSON, not UTF-8/16/32, or an integer past int()'s 4,300 digits
        raise ApiError(f"the body is not valid JSON ({str(exc)[:200]})", field="body") from None
    except RecursionError:
        raise ApiError("the body is nested too deeply to be a request", field="body") from None
    if not isinstance(payload, dict):
        raise ApiError(f"the body must be a JSON object, not {JSON_TYPE_NAMES.get(type(payload), 'that')}", field="body")
    try:
        return schema.model_validate(payload)
    except ValidationError as exc:
        problems = [_problem(e) for e in exc.errors(include_url=False)]
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ApiError(f"{first['field']}: {first['message']}{more}", field=first["field"], problems=problems) from None
