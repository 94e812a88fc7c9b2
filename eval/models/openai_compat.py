"""Any OpenAI-compatible chat-completions endpoint (vLLM, SGLang, OpenRouter, a hosted API).

Plain HTTP (stdlib) to {base_url}/chat/completions: one independent request per call, no history,
no tools. Concurrency is bounded by the caller (eval.run.runner). The API key is read from an environment
variable at call time and only ever goes into the Authorization header: describe() names the
variable, never its value, and no request or response header is returned to the caller.
"""
from __future__ import annotations

import email.utils
import http.client
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from eval.models.base import GenerationRequest, GenerationResponse, TechnicalFailure
from eval.models.bounded_http import BodyCutShort, BodyTooLarge, Deadline, opener, read_bounded
from eval.models.errors import ConfigurationFailure, RequestRejected

RETRYABLE_STATUS = frozenset({408, 409, 425, 429}) | frozenset(range(500, 600))
FATAL_STATUS = frozenset({401, 403, 404})
# A chat completion is kilobytes; an echo of a long prompt's log-probabilities a few megabytes.
MAX_RESPONSE_BYTES = 64 * 1024 * 1024


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
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        started = time.monotonic()
        raw = post_json(self.base_url.rstrip("/") + "/chat/completions", body, key=key, timeout_s=self.timeout_s)
        latency = time.monotonic() - started
        text, finish, usage, revision = read_chat_completion(raw)
        return GenerationResponse(
            text=text,
            finish_reason=finish,
            usage=usage,
            latency_s=latency,
            model_revision=revision,
        )


def read_chat_completion(raw: bytes) -> tuple[str | None, str | None, dict, str | None]:
    """(text, finish reason, usage, model revision) of a chat-completions body. Anything but the
    documented shape (a proxy's HTML page, a cut connection, `content` as a number or a list of
    things that are not text parts) is the service's failure, not the model's: TechnicalFailure."""
    try:
        payload = json.loads(raw)
    except ValueError:
        raise TechnicalFailure(f"malformed response body (not JSON): {body_excerpt(raw)}") from None
    choices = payload.get("choices") if isinstance(payload, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise TechnicalFailure(f"malformed response body (no choices[0] object): {body_excerpt(raw)}")
    choice = choices[0]
    message = choice.get("message") if choice.get("message") is not None else {}
    if not isinstance(message, dict):
        raise TechnicalFailure(f"malformed response body (message is {type(message).__name__}): {body_excerpt(raw)}")
    text = _content_text(message.get("content"), raw)
    finish = choice.get("finish_reason")
    if finish is not None and not isinstance(finish, str):
        raise TechnicalFailure(f"malformed response body (finish_reason is {type(finish).__name__}): {body_excerpt(raw)}")
    refusal = message.get("refusal")
    if refusal:
        if not isinstance(refusal, str):
            raise TechnicalFailure(f"malformed response body (refusal is {type(refusal).__name__}): {body_excerpt(raw)}")
        text, finish = refusal, "refusal"
    usage = payload.get("usage")
    usage = dict(usage) if isinstance(usage, dict) else {}
    revision = payload.get("system_fingerprint") or payload.get("model")
    return text, finish, usage, revision if isinstance(revision, str) else None


def _content_text(content, raw: bytes) -> str | None:
    """A message's content: a string, null, or a list of {"type": "text", "text": ...} parts (joined)."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list) and content and all(
        isinstance(p, dict) and p.get("type") == "text" and isinstance(p.get("text"), str) for p in content
    ):
        return "".join(p["text"] for p in content)
    raise TechnicalFailure(f"malformed response body (content is a {type(content).__name__}, not text): {body_excerpt(raw)}")


def body_excerpt(raw: bytes, limit: int = 200) -> str:
    return repr(raw[:limit].decode("utf-8", "replace"))


def origin(url: str) -> tuple[str, str, int | None]:
    """(scheme, host, port) with the scheme's default port filled in: what "same origin" compares."""
    parts = urllib.parse.urlsplit(url)
    port = parts.port or {"http": 80, "https": 443}.get(parts.scheme.lower())
    return parts.scheme.lower(), (parts.hostname or "").lower(), port


class _SameOriginRedirects(urllib.request.HTTPRedirectHandler):
    """Follows a redirect only within the origin the request was sent to: urllib would copy the
    Authorization header to wherever a 30x points, handing the key to another host."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        if origin(newurl) != origin(req.full_url):
            raise TechnicalFailure(
                f"HTTP {code} redirect to {public_url(newurl)} refused: another origin than {public_url(req.full_url)}, "
                "and the API key is never sent to another origin", status=code)
        if code in (307, 308):
            # These keep the method and body (RFC 9110 15.4.8); urllib would refuse them for a POST.
            headers = {**req.headers, **req.unredirected_hdrs}
            return urllib.request.Request(newurl, data=req.data, headers=headers, method=req.get_method())
        return super().redirect_request(req, fp, code, msg, headers, newurl)


def post_json(url: str, body: dict, *, key: str | None, timeout_s: float) -> bytes:
    """POST `body` as JSON with the key as a Bearer token; the whole response body, or the failure it means.

    Redirects are followed within the same origin only. `timeout_s` bounds the whole exchange (connect,
    headers, body), not each socket read, and at most MAX_RESPONSE_BYTES of a body are read. A body
    shorter than its Content-Length or over the bound, a reset or a timeout is a TechnicalFailure
    (retried); HTTP errors map through `http_failure`.
    """
    headers = {"Content-Type": "application/json", "Accept": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    http_request = urllib.request.Request(url, data=json.dumps(body, ensure_ascii=False).encode("utf-8"), headers=headers,
                                          method="POST")
    deadline = Deadline(timeout_s)
    try:
        with opener(deadline, _SameOriginRedirects).open(http_request, timeout=timeout_s) as response:
            return read_bounded(response, MAX_RESPONSE_BYTES)
    except urllib.error.HTTPError as exc:
        raise http_failure(exc, url, key) from None
    except BodyTooLarge as exc:
        raise TechnicalFailure(str(exc)) from None
    except (BodyCutShort, TimeoutError, urllib.error.URLError, http.client.HTTPException, ConnectionError, OSError) as exc:
        if deadline.expired:
            raise TechnicalFailure(f"no complete answer within {timeout_s:g}s (the request's timeout, for the whole "
                                   "exchange)") from None
        raise _transport_failure(exc, timeout_s) from None
    finally:
        deadline.cancel()


def _transport_failure(exc: Exception, timeout_s: float) -> TechnicalFailure:
    if isinstance(exc, BodyCutShort):
        return TechnicalFailure(str(exc))
    if isinstance(exc, TimeoutError) or isinstance(getattr(exc, "reason", None), TimeoutError):
        return TechnicalFailure(f"timeout after {timeout_s}s")
    if isinstance(exc, urllib.error.URLError):
        return TechnicalFailure(f"connection error: {exc.reason}")
    if isinstance(exc, http.client.IncompleteRead):
        return TechnicalFailure(f"body cut short: {len(exc.partial)} bytes received, "
                                f"{exc.expected if exc.expected is not None else 'more'} still expected (Content-Length)")
    return TechnicalFailure(f"connection error: {type(exc).__name__}: {exc}")


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
