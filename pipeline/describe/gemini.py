"""One figure, one Gemini `generateContent` call (google-genai SDK), with structured JSON output.

Retries are ours, not the SDK's, so that only what may succeed on a second try is retried: 429
(after the delay the server names in its google.rpc.RetryInfo, or a Retry-After header), 5xx and
timeouts/connection errors. A safety block, an empty answer or an answer that is not the asked-for
JSON are outcomes, recorded once. The API key never leaves this module in a message: any text that
echoes it is redacted.
"""
from __future__ import annotations

import json
import os
import random
import threading
import time
from dataclasses import dataclass, field

from pipeline.infra import MAX_RESPONSE_BYTES, bounded_transport

KEY_ENV_VARS = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
BASE_URL_ENV = "EXAMCORPUS_GEMINI_BASE_URL"
DEFAULT_MODEL = "gemini-2.5-pro"

# The response schema (OpenAPI subset that Gemini accepts): both fields always present.
RESPONSE_SCHEMA = {
    "type": "OBJECT",
    "properties": {
        "description": {"type": "STRING", "description": "detailed description of the figure"},
        "transcription": {"type": "STRING", "description": "verbatim transcription of all visible text"},
    },
    "required": ["description", "transcription"],
}

BLOCK_REASONS = frozenset(
    {"SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "RECITATION", "IMAGE_RECITATION"}
)
RETRYABLE_STATUS = frozenset({408, 429, 500, 502, 503, 504})


class MissingApiKey(RuntimeError):
    def __init__(self):
        super().__init__(f"no Gemini API key: set {' or '.join(KEY_ENV_VARS)} in the environment")


class DescribeFailure(RuntimeError):
    """A request that did not produce an outcome (retries spent, or a non-retryable HTTP error)."""


def api_key_from_env(environ=os.environ) -> str:
    for name in KEY_ENV_VARS:
        if environ.get(name):
            return environ[name]
    raise MissingApiKey()


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 5
    base_delay_s: float = 1.0
    max_delay_s: float = 60.0

    def delay(self, attempt: int, server_hint: float | None) -> float:
        """The server's delay when it names one; else exponential backoff with jitter."""
        if server_hint is not None:
            return min(server_hint, self.max_delay_s)
        backoff = self.base_delay_s * (2 ** (attempt - 1))
        return min(self.max_delay_s, backoff * (0.5 + random.random() / 2))


@dataclass(frozen=True)
class Outcome:
    status: str  # pending | blocked | empty | malformed (pipeline.describe.annotations)
    description: str | None
    transcription: str | None
    latency_s: float
    attempts: int
    finish_reason: str | None = None
    model_version: str | None = None
    raw_text: str | None = None
    usage: dict = field(default_factory=dict)


class _Retryable(Exception):
    def __init__(self, message: str, retry_after: float | None = None):
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class GeminiDescriber:
    model: str
    api_key: str
    base_url: str | None = None
    timeout_s: float = 120.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: object = time.sleep
    _client: object = field(default=None, init=False, repr=False)
    _client_lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    def _get_client(self):
        # One client for all threads: a second one made in a race would be collected and close the
        # connection pool under a request still using it.
        with self._client_lock:
            if self._client is not None:
                return self._client
            from google import genai
            from google.genai import types

            # The SDK would follow a redirect with the x-goog-api-key header wherever it leads: a 3xx
            # is answered below as a failure naming its target, and the key stays with its endpoint.
            options = types.HttpOptions(api_version="v1beta", timeout=int(self.timeout_s * 1000),
                                        client_args={"follow_redirects": False,
                                                     # the whole exchange within the timeout, the body bounded
                                                     "transport": bounded_transport(self.timeout_s, MAX_RESPONSE_BYTES)})
            if self.base_url:
                options.base_url = self.base_url
            self._client = genai.Client(api_key=self.api_key, vertexai=False, http_options=options)
        return self._client

    def redact(self, text: str) -> str:
        return text.replace(self.api_key, "[redacted]") if self.api_key else text

    def describe(self, prompt: str, image: bytes, mime_type: str = "image/png") -> Outcome:
        last_error = ""
        for attempt in range(1, self.retry.max_attempts + 1):
            try:
                return self._attempt(prompt, image, mime_type, attempt)
            except _Retryable as exc:
                last_error = str(exc)
                if attempt < self.retry.max_attempts:
                    self.sleep(self.retry.delay(attempt, exc.retry_after))
        raise DescribeFailure(f"gave up after {self.retry.max_attempts} attempts: {last_error}")

    def _attempt(self, prompt: str, image: bytes, mime_type: str, attempt: int) -> Outcome:
        from google.genai import errors, types

        config = types.GenerateContentConfig(
            temperature=0.0,
            candidate_count=1,
            response_mime_type="application/json",
            response_schema=RESPONSE_SCHEMA,
        )
        contents = [types.Content(role="user", parts=[types.Part.from_bytes(data=image, mime_type=mime_type), types.Part.from_text(text=prompt)])]
        started = time.monotonic()
        try:
            response = self._get_client().models.generate_content(model=self.model, contents=contents, config=config)
        except errors.APIError as exc:
            code = int(exc.code or 0)
            if 300 <= code < 400:
                target = _redirect_target(exc)
                raise DescribeFailure(self.redact(f"HTTP {code} redirect to {target} refused: redirects are not followed with the API key")) from None
            message = self.redact(f"HTTP {code} from Gemini: {exc.message or exc.status}")
            if code in RETRYABLE_STATUS or code >= 500:
                raise _Retryable(message, _retry_delay(exc)) from None
            raise DescribeFailure(message) from None
        except Exception as exc:
            if is_transport_error(exc):
                raise _Retryable(self.redact(f"{type(exc).__name__}: {exc}")) from None
            # A 200 whose body is not a generateContent response: the server is wrong, not the figure.
            raise DescribeFailure(self.redact(f"unreadable response from Gemini ({type(exc).__name__}: {exc})")) from None
        return _outcome(response, time.monotonic() - started, attempt)


def _redirect_target(exc) -> str:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    return str(headers.get("location") or headers.get("Location") or "(no Location header)")


def gemini_usage(response) -> dict[str, int]:
    """Token counts of a google-genai response under the names every run record uses."""
    meta = response.usage_metadata
    if meta is None:
        return {}
    usage = {
        "prompt_tokens": meta.prompt_token_count,
        "completion_tokens": meta.candidates_token_count,
        "reasoning_tokens": meta.thoughts_token_count,
        "total_tokens": meta.total_token_count,
    }
    return {k: v for k, v in usage.items() if v is not None}


def _outcome(response, latency: float, attempt: int) -> Outcome:
    common = dict(latency_s=round(latency, 4), attempts=attempt, model_version=response.model_version, usage=gemini_usage(response))
    block = response.prompt_feedback.block_reason if response.prompt_feedback else None
    if block is not None:
        return Outcome("blocked", None, None, finish_reason=_name(block), **common)
    if not response.candidates:
        return Outcome("empty", None, None, **common)
    candidate = response.candidates[0]
    reason = _name(candidate.finish_reason)
    if reason in BLOCK_REASONS:
        return Outcome("blocked", None, None, finish_reason=reason, **common)
    parts = candidate.content.parts if candidate.content and candidate.content.parts else []
    text = "".join(p.text for p in parts if p.text and not p.thought)
    if not text.strip():
        return Outcome("empty", None, None, finish_reason=reason, **common)
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = None
    if not isinstance(data, dict) or not all(isinstance(data.get(k), str) for k in ("description", "transcription")):
        return Outcome("malformed", None, None, finish_reason=reason, raw_text=text[:4000], **common)
    if not data["description"].strip() and not data["transcription"].strip():
        return Outcome("empty", None, None, finish_reason=reason, **common)
    return Outcome("pending", data["description"].strip(), data["transcription"].strip(), finish_reason=reason, **common)


def _name(value) -> str | None:
    if value is None:
        return None
    return getattr(value, "value", None) or str(value)


def _retry_delay(exc) -> float | None:
    """Google APIs name the wait in the error body (google.rpc.RetryInfo retryDelay "12s"); some
    proxies send Retry-After instead."""
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    header = headers.get("retry-after") if hasattr(headers, "get") else None
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            pass
    return retry_info_delay(getattr(exc, "details", None))


def retry_info_delay(details) -> float | None:
    """The wait a Google API error body names: a google.rpc.RetryInfo with retryDelay "12s"."""
    try:
        items = details.get("error", details).get("details") or []
    except AttributeError:
        return None
    for item in items:
        if isinstance(item, dict) and item.get("@type", "").endswith("google.rpc.RetryInfo"):
            try:
                return max(0.0, float(str(item.get("retryDelay", "")).removesuffix("s")))
            except ValueError:
                return None
    return None


def is_transport_error(exc: Exception) -> bool:
    """A timeout or connection failure of the SDK's HTTP stack (retried), not an answer from Gemini."""
    names = {cls.__name__ for cls in type(exc).__mro__}
    module = type(exc).__module__.split(".")[0]
    return bool(names & {"TimeoutException", "TransportError", "NetworkError", "TimeoutError", "ConnectionError"}) or (
        module in {"httpx", "httpx2", "httpcore", "httpcore2", "requests", "urllib3"}
    )
