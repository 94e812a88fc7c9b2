"""Log-likelihood of the options through an OpenAI-compatible /v1/completions endpoint (vLLM, SGLang).

For models too large for one machine: the engine serves them across GPUs and nodes, and each option
is scored from the log-probabilities the server echoes back for the prompt's own tokens
(`echo: true, logprobs: 1`, as lm-eval's `local-completions` model asks). One request per question
sends the context alone and the context followed by each option (a list of prompts). The client has
no tokenizer, so the context's token count is taken from the context-alone echo, and the tokens of
each option are the ones after it; the context's tokens must be the same in both echoes, otherwise
the option boundary would split a token and the request is refused with that reason.

`max_tokens: 1` (the generated token is ignored) because some engines reject 0. The score of an
option is the sum of its tokens' log-probabilities; it is greedy when each token is its position's
top-1; the choice is the first argmax, as in lm-eval's `acc`.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from eval.scorers.answers import first_argmax
from eval.models.base import ChoiceRequest, ChoiceResult, TechnicalFailure
from eval.models.errors import RequestRejected
from eval.models.openai_compat import body_excerpt, post_json, public_url


class MalformedLogprobs(RequestRejected):
    """The server answered, but not with per-token log-probabilities for the prompt (no echo support?)."""


@dataclass
class CompletionsLoglikelihoodBackend:
    model: str
    base_url: str
    api_key_env: str | None = None
    timeout_s: float = 120.0
    remote = True  # eval.run.runner sends one question per call, concurrently, with retries

    def describe(self) -> dict:
        return {"backend": "completions", "model": self.model, "base_url": public_url(self.base_url),
                "api_key_env": self.api_key_env,
                "scoring": "sum of echoed prompt-token log-probs after the context (echo, logprobs=1, max_tokens=1); "
                           "choice = first argmax"}

    def score_choices(self, requests: list[ChoiceRequest]) -> list[ChoiceResult]:
        return [self._score(request) for request in requests]

    def _score(self, request: ChoiceRequest) -> ChoiceResult:
        prompts = [request.context] + [request.context + c for c in request.continuations]
        payload = self._post({"model": self.model, "prompt": prompts, "max_tokens": 1, "temperature": 0,
                              "echo": True, "logprobs": 1})
        choices = payload.get("choices")
        if not isinstance(choices, list) or len(choices) != len(prompts):
            raise MalformedLogprobs(f"question {request.qid}: expected {len(prompts)} choices, got {_short(choices)}")
        by_index = sorted(choices, key=lambda c: c.get("index", 0))
        context_tokens = _prompt_tokens(by_index[0], request.context, request.qid)
        n_context = len(context_tokens)
        logprobs, greedy, counts = [], [], []
        for continuation, choice in zip(request.continuations, by_index[1:]):
            tokens = _prompt_tokens(choice, request.context + continuation, request.qid)
            if [t for t, _, _ in tokens[:n_context]] != [t for t, _, _ in context_tokens]:
                raise RequestRejected(f"question {request.qid}: the context tokenises differently when followed by "
                                      f"{continuation!r}; its log-likelihood cannot be separated from the context")
            own = tokens[n_context:]
            if not own:
                raise RequestRejected(f"question {request.qid}: continuation {continuation!r} has no tokens of its own")
            logprobs.append(sum(lp for _, lp, _ in own))
            greedy.append(all(top for _, _, top in own))
            counts.append(len(own))
        return ChoiceResult(qid=request.qid, logprobs=tuple(logprobs), is_greedy=tuple(greedy), chosen=first_argmax(logprobs),
                            token_counts=tuple(counts))

    def _post(self, body: dict) -> dict:
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        raw = post_json(self.base_url.rstrip("/") + "/completions", body, key=key, timeout_s=self.timeout_s)
        try:
            payload = json.loads(raw)
        except ValueError:
            raise TechnicalFailure(f"malformed response body: {body_excerpt(raw)}") from None
        if not isinstance(payload, dict):
            raise TechnicalFailure(f"malformed response body: {body_excerpt(raw)}")
        return payload


def _short(value) -> str:
    return json.dumps(value)[:120] if value is not None else "none"


def _prompt_tokens(choice: dict, prompt: str, qid: str) -> list[tuple[str, float, bool]]:
    """(token, log-prob, is top-1) for each echoed prompt token but the first (which has no context);
    the generated token at the end is dropped."""
    lp = choice.get("logprobs") or {}
    tokens, values, tops = lp.get("tokens"), lp.get("token_logprobs"), lp.get("top_logprobs")
    if not isinstance(tokens, list) or not isinstance(values, list) or len(tokens) != len(values) or len(tokens) < 2:
        raise MalformedLogprobs(f"question {qid}: no echoed prompt log-probabilities (does the server support echo?)")
    text = choice.get("text")
    if isinstance(text, str) and not text.startswith(prompt):
        raise MalformedLogprobs(f"question {qid}: the echoed text does not start with the prompt")
    out = []
    for i in range(1, len(tokens) - 1):  # first: no log-prob; last: the one generated token
        value = values[i]
        if not isinstance(value, (int, float)):
            raise MalformedLogprobs(f"question {qid}: token {i} {tokens[i]!r} has no log-probability")
        top = tops[i] if isinstance(tops, list) and i < len(tops) and isinstance(tops[i], dict) else {}
        best = max(top.values(), default=value)
        out.append((tokens[i], float(value), value >= best - 1e-6))
    return out
