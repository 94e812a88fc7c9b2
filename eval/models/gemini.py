"""Gemini through the google-genai SDK (REST `models/{model}:generateContent`).

The SDK's own retries are left off (its default), so every attempt is seen and kept by eval.run.runner.
`base_url` points the SDK elsewhere (a proxy, or the local stand-in server in tests). Refusals are
what the API reports as such: `promptFeedback.blockReason`, or a candidate whose `finishReason` is a
safety-family reason; `MAX_TOKENS` becomes finish_reason "length" (truncated).
"""
from __future__ import annotations

import base64
import os
import time
from dataclasses import dataclass, field

from eval.models.base import GenerationRequest, GenerationResponse, TechnicalFailure
from eval.models.errors import ConfigurationFailure, RequestRejected
from eval.models.openai_compat import FATAL_STATUS, RETRYABLE_STATUS, parse_retry_after, public_url
from pipeline.describe import gemini_usage, is_transport_error, retry_info_delay
from pipeline.infra import MAX_RESPONSE_BYTES, ResponseTooLarge, UnreadableEncoding, bounded_transport

REFUSAL_REASONS = frozenset(
    {"SAFETY", "PROHIBITED_CONTENT", "BLOCKLIST", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT", "RECITATION", "IMAGE_RECITATION"}
)


def _reason_name(value) -> str | None:
    if value is None:
        return None
    return getattr(value, "value", None) or str(value)


@dataclass
class GeminiBackend:
    model: str
    base_url: str | None = None
    api_key_env: str = "GEMINI_API_KEY"
    api_version: str = "v1beta"
    timeout_s: float = 120.0
    _client: object = field(default=None, init=False, repr=False)

    def describe(self) -> dict:
        return {
            "backend": "gemini",
            "model": self.model,
            "base_url": public_url(self.base_url) if self.base_url else None,
            "api_version": self.api_version,
            "api_key_env": self.api_key_env,
            "timeout_s": self.timeout_s,
        }

    def _get_client(self):
        if self._client is None:
            from google import genai
            from google.genai import types

            key = os.environ.get(self.api_key_env)
            if not key:
                raise ConfigurationFailure(f"environment variable {self.api_key_env} (the Gemini API key) is not set")
            # The SDK follows redirects with the x-goog-api-key header, wherever they lead: not here.
            options = types.HttpOptions(api_version=self.api_version, timeout=int(self.timeout_s * 1000),
                                        client_args={"follow_redirects": False,
                                                     # the whole exchange within the timeout, the body bounded
                                                     "transport": bounded_transport(self.timeout_s, MAX_RESPONSE_BYTES)})
            if self.base_url:
                options.base_url = self.base_url
            self._client = genai.Client(api_key=key, vertexai=False, http_options=options)
        return self._client

    def generate(self, request: GenerationRequest) -> GenerationResponse:
        from google.genai import errors, types

        client = self._get_client()
        config = types.GenerateContentConfig(
            temperature=request.temperature,
            max_output_tokens=request.max_tokens,
            candidate_count=1,
            seed=request.seed,
        )
        if request.reasoning_effort:
            config.thinking_config = types.ThinkingConfig(thinking_level=request.reasoning_effort.upper())
        contents = _contents(request.messages)
        started = time.monotonic()
        try:
            response = client.models.generate_content(model=self.model, contents=contents, config=config)
        except errors.APIError as exc:
            code = int(exc.code or 0)
            message = f"HTTP {code} from Gemini: {exc.message or exc.status}"
            key = os.environ.get(self.api_key_env)
            if key:
                message = message.replace(key, "[redacted]")
            headers = getattr(getattr(exc, "response", None), "headers", None) or {}
            if 300 <= code < 400:
                target = public_url(headers.get("location") or "") or "nowhere"
                raise TechnicalFailure(f"HTTP {code} redirect to {target} refused: redirects are not followed with the API key",
                                       status=code) from None
            if code in RETRYABLE_STATUS:
                wait = parse_retry_after(headers.get("retry-after")) or retry_info_delay(exc.details)
                raise TechnicalFailure(message, retry_after=wait, status=code) from None
            if code in FATAL_STATUS:
                raise ConfigurationFailure(message) from None
            raise RequestRejected(message, status=code) from None
        except ValueError as exc:
            # A body that is not JSON, or not of the API's shape (the SDK's pydantic models refuse it):
            # the service failed, not the model. json's and pydantic's errors are both ValueErrors.
            raise TechnicalFailure(f"malformed response body: {type(exc).__name__}: {str(exc)[:300]}") from None
        except Exception as exc:
            # A body past the transport's bound, or in a coding it cannot count, fails this attempt as a transport
            # error does; raised on, it ended the whole run.
            if is_transport_error(exc) or isinstance(exc, ResponseTooLarge | UnreadableEncoding):
                raise TechnicalFailure(f"{type(exc).__name__}: {exc}") from None
            raise
        latency = time.monotonic() - started
        usage = gemini_usage(response)
        block = response.prompt_feedback.block_reason if response.prompt_feedback else None
        if block is not None or not response.candidates:
            return GenerationResponse(
                text=None, finish_reason="refusal" if block is not None else None, usage=usage,
                latency_s=latency, model_revision=response.model_version,
            )
        candidate = response.candidates[0]
        reason = _reason_name(candidate.finish_reason)
        parts = candidate.content.parts if candidate.content and candidate.content.parts else []
        text = "".join(p.text for p in parts if p.text and not p.thought) or None
        if reason == "MAX_TOKENS":
            finish = "length"
        elif reason in REFUSAL_REASONS:
            finish = "refusal"
        else:
            finish = (reason or "").lower() or None
        return GenerationResponse(text=text, finish_reason=finish, usage=usage, latency_s=latency, model_revision=response.model_version)


def _contents(messages: tuple[dict, ...]):
    from google.genai import types

    contents = []
    for message in messages:
        role = "model" if message["role"] == "assistant" else "user"
        content = message["content"]
        if isinstance(content, str):
            parts = [types.Part.from_text(text=content)]
        else:
            parts = []
            for part in content:
                if part["type"] == "text":
                    parts.append(types.Part.from_text(text=part["text"]))
                elif part["type"] == "image_url":
                    header, _, data = part["image_url"]["url"].partition(",")
                    mime = header.removeprefix("data:").split(";")[0] or "image/png"
                    parts.append(types.Part.from_bytes(data=base64.b64decode(data), mime_type=mime))
                else:
                    raise ValueError(f"unsupported message part type {part['type']!r}")
        contents.append(types.Content(role=role, parts=parts))
    return contents
