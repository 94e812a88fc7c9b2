"""The two kinds of model backend the evaluation module talks to.

Log-likelihood backends score fixed continuations (the options) after a shared context; generative
backends answer a chat request and their text goes through the protocol's answer-extraction rule.
Every request is independent: no history, no tools.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


class TechnicalFailure(Exception):
    """A failure of the transport or the service (timeout, 429, 5xx, reset): the only kind retried."""

    def __init__(self, message: str, *, retry_after: float | None = None, status: int | None = None):
        super().__init__(message)
        self.retry_after = retry_after
        self.status = status


@dataclass(frozen=True)
class ChoiceRequest:
    qid: str
    context: str  # everything up to where the answer starts
    continuations: tuple[str, ...]  # e.g. (" A", " B", " C", " D")


@dataclass(frozen=True)
class ChoiceResult:
    qid: str
    logprobs: tuple[float, ...]  # sum of token log-probabilities of each continuation given the context
    is_greedy: tuple[bool, ...]
    chosen: int  # argmax of logprobs (first on ties, as lm-eval does)
    token_counts: tuple[int, ...] = ()  # tokens of each continuation (for acc_norm by tokens); () when unknown


@runtime_checkable
class LoglikelihoodBackend(Protocol):
    def describe(self) -> dict:
        """Model id, revision and settings, with no secrets: goes into the run folder."""

    def score_choices(self, requests: list[ChoiceRequest]) -> list[ChoiceResult]: ...


@dataclass(frozen=True)
class GenerationRequest:
    qid: str
    messages: tuple[dict, ...]  # OpenAI-style chat messages; content may be a list of text/image parts
    max_tokens: int
    temperature: float = 0.0
    reasoning_effort: str | None = None
    seed: int | None = None


@dataclass
class GenerationResponse:
    text: str | None
    finish_reason: str | None  # "stop", "length", "content_filter", ... as the service reports it
    usage: dict = field(default_factory=dict)  # prompt_tokens, completion_tokens, ...
    latency_s: float = 0.0
    model_revision: str | None = None


@runtime_checkable
class GenerativeBackend(Protocol):
    def describe(self) -> dict: ...

    def generate(self, request: GenerationRequest) -> GenerationResponse:
        """Raises TechnicalFailure for retryable failures; returns refusals and truncations as responses."""
