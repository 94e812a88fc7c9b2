"""Any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, OpenRouter, a hosted API).

Plain HTTP (stdlib) to {base_url}/chat/completions: one independent request per call, no history,
no tools. Concurrency is bounded by the caller (eval.run.runner). The API key is read from an environment
variable at call time and only ever goes into the Authorization header: describe() names the
variable, never its value, and no request or response header is returned to the caller.
"""
from __future__ import annotations

import email.utils
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from eval.models.base import GenerationRequest, GenerationResponse, TechnicalFailure
from eval.models.errors import ConfigurationFailure, RequestRejected

RETRYABLE_STATUS = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))
FATAL_STATUS = frozenset({401, 403, 404})


def parse_retry_after(value: str | None) -> float | None:
    """Retry-After is either seconds or an HTTP date."""
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def public_url(url: str) -> str:
    """The URL without credentials or query string, safe to record."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    return urllib.parse.urlunsplit((parts.scheme, host, parts.path, "", ""))


@dataclass
class OpenAICompatBackend:
    model: str
    base_url: str = "http://127.0.0.1:8000/v1"
    api_key_env: str | None = "OPENAI_API_KEY"
    timeout_s: float = 120.0
    max_tokens_field: str = "max_tokens"  # OpenAI's own reasoning models accept only max_completion_tokens

    def describe(self) -> dict:
        return {
            "backend": "openai",
            "model": self.model,
            "base_url": public_url(self.base_url),
            "api_key_env": self.api_key_env,
            "timeout_s": self.timeout_s,
        }

    def generate(self, request: GenerationRequest) -> GenerationResponse:
        body: dict = {
            "model": self.model,
            "messages": list(request.messages),
            self.max_tokens_field: request.max_tokens,
            "temperature": request.temperature,
            "n": 1,
            "stream": False,
        }
        if request.reasoning_effort:
            body["reasoning_effort"] = request.reasoning_effort
        if request.seed is not None:
            body["seed"] = request.seed
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        http_request = urllib.request.Request(
            self.base_url.rstrip("/") + "/chat/completions",
            data=json.dumps(body, ensure_ascii=False).encode("utf-8"),
            headers=headers,
            method="POST",
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(http_request, timeout=self.timeout_s) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            self._raise_for_status(exc)
        except TimeoutError as exc:
            raise TechnicalFailure(f"timeout after {self.timeout_s}s ({exc})") from None
        except urllib.error.URLError as exc:
            if isinstance(exc.reason, TimeoutError):
                raise TechnicalFailure(f"timeout after {self.timeout_s}s") from None
            raise TechnicalFailure(f"connection error: {exc.reason}") from None
        except (ConnectionError, OSError) as exc:
            raise TechnicalFailure(f"connection error: {type(exc).__name__}: {exc}") from None
        latency = time.monotonic() - started
        try:
            payload = json.loads(raw)
            choice = payload["choices"][0]
            message = choice.get("message") or {}
        except (ValueError, KeyError, IndexError, TypeError):
            # A proxy's HTML error page or a cut connection: the service, not the model, failed.
            raise TechnicalFailure(f"malformed response body: {raw[:200]!r}") from None
        text = message.get("content")
        finish = choice.get("finish_reason")
        if message.get("refusal"):
            text, finish = message["refusal"], "refusal"
        usage = dict(payload.get("usage") or {})
        return GenerationResponse(
            text=text,
            finish_reason=finish,
            usage=usage,
            latency_s=latency,
            model_revision=payload.get("system_fingerprint") or payload.get("model"),
        )

    def _raise_for_status(self, exc: urllib.error.HTTPError):
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        raise http_failure(exc, self.base_url, key) from None


def http_failure(exc: urllib.error.HTTPError, base_url: str, key: str | None) -> Exception:
    """The failure an HTTP error status means for a run: retried (429, 5xx), fatal to the run (bad
    key, unknown model), or this one request rejected; the body's first 300 characters, key removed."""
    try:
        detail = exc.read(500).decode("utf-8", "replace")
    except Exception:
        detail = ""
    if key:
        detail = detail.replace(key, "[redacted]")  # some proxies echo the credentials they got
    message = f"HTTP {exc.code} from {public_url(base_url)}: {detail.strip()[:300]}"
    if exc.code in RETRYABLE_STATUS:
        return TechnicalFailure(message, retry_after=parse_retry_after(exc.headers.get("Retry-After")), status=exc.code)
    if exc.code in FATAL_STATUS:
        return ConfigurationFailure(message)
    return RequestRejected(message, status=exc.code)
