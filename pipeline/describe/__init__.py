"""Describe: figure descriptions and transcriptions written by an LLM (Gemini), for human review.

Input: curated records with figure crops (`pipeline.records.Question.images`). Output: annotations in
`annotations/descriptions.jsonl` (one JSON object a line, keys sorted), one per question, image
SHA-256, model and prompt version, status `pending` (to review), `blocked` (safety block), `empty`
or `malformed`. An existing key is never sent again.

Public functions:
- `describe_curated(options, api_key=)`: the run (bounded concurrency, retries on 429/5xx/timeouts,
  progress bar); returns a `DescribeSummary`. `DescribeOptions` holds its settings.
- `api_key_from_env()`: the key from GEMINI_API_KEY / GOOGLE_API_KEY, or `MissingApiKey`.
- `gemini_usage(response)`, `retry_info_delay(details)`, `is_transport_error(exc)`: reading google-genai
  responses and errors (also used by eval's Gemini backend).
- `GeminiDescriber(model=, api_key=, base_url=)`: one figure → `Outcome`, the SDK call itself.
- `load_prompt(language, version)`: the versioned prompt files in `prompts/<version>/<lang>.txt`.
- `load_annotations(path)`, `Annotation`, `annotation_item_id(...)`: the output records.
- `AppendLog(path)`, `read_jsonl(path)`: append-only JSONL with whole-record writes (pipeline.infra; also used by review).
- `register(subparsers)`: the `examcorpus describe` subcommand.
The env var `EXAMCORPUS_GEMINI_BASE_URL` (BASE_URL_ENV) points the SDK at another endpoint.
"""
from pipeline.describe.annotations import (
    ANNOTATIONS_FILE,
    GENERATED_STATUSES,
    STATUS_BLOCKED,
    STATUS_EMPTY,
    STATUS_MALFORMED,
    STATUS_PENDING,
    Annotation,
    AnnotationError,
    annotation_item_id,
    load_annotations,
)
from pipeline.describe.command import register
from pipeline.describe.gemini import (
    BASE_URL_ENV,
    DEFAULT_MODEL,
    KEY_ENV_VARS,
    RESPONSE_SCHEMA,
    DescribeFailure,
    GeminiDescriber,
    MissingApiKey,
    Outcome,
    RetryPolicy,
    api_key_from_env,
    gemini_usage,
    is_transport_error,
    retry_info_delay,
)
from pipeline.infra import AppendLog, JsonlError, read_jsonl
from pipeline.describe.prompts import DEFAULT_PROMPT_VERSION, PromptError, load_prompt
from pipeline.describe.run import DescribeInputError, DescribeOptions, DescribeSummary, describe_curated, load_questions

__all__ = [
    "ANNOTATIONS_FILE", "BASE_URL_ENV", "DEFAULT_MODEL", "DEFAULT_PROMPT_VERSION", "GENERATED_STATUSES", "KEY_ENV_VARS",
    "RESPONSE_SCHEMA", "STATUS_BLOCKED", "STATUS_EMPTY", "STATUS_MALFORMED", "STATUS_PENDING", "Annotation", "AnnotationError",
    "AppendLog", "DescribeFailure", "DescribeInputError", "DescribeOptions", "DescribeSummary", "GeminiDescriber", "JsonlError",
    "MissingApiKey", "Outcome", "PromptError", "RetryPolicy", "annotation_item_id", "api_key_from_env", "describe_curated", "gemini_usage", "is_transport_error",
    "load_annotations", "load_prompt", "load_questions", "read_jsonl", "register", "retry_info_delay",
]
