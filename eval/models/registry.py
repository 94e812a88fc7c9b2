"""Backends by the prefix before ':' in `--model PREFIX:NAME` (hf:, hf-generate:, openai:, gemini:).

Each entry builds a backend from the plan's model settings and says which kind it is. Imports are
lazy: the HF backend needs torch (an optional extra), the Gemini one the google-genai SDK.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal

Kind = Literal["generative", "loglikelihood"]


@dataclass(frozen=True)
class BackendEntry:
    kind: Kind
    factory: Callable  # (model settings) -> backend
    help: str
    system_prompt: bool = False  # whether the backend can put `system_prompt` before the question


def _hf(model):
    from eval.models.hf import HFBackend

    # eval.run.runner draws the run's progress bar; the backend's own would duplicate it.
    kwargs = {"batch_size": model.batch_size, "device": model.device, "show_progress": False}
    if model.dtype:
        kwargs["dtype"] = model.dtype
    return HFBackend(model.name, **kwargs)


def _hf_generate(model):
    from eval.models.hf_generate import HFGenerateBackend

    if model.temperature > 0 and model.seed is None:
        # Without a seed a sampled answer could not be drawn again; repeat r uses seed + r.
        raise ValueError("hf-generate: sampling (--temperature > 0) needs --seed; repeat r is drawn with seed + r")
    kwargs = {"batch_size": model.batch_size, "device": model.device, "system_prompt": model.system_prompt}
    if model.dtype:
        kwargs["dtype"] = model.dtype
    return HFGenerateBackend(model.name, **kwargs)


def _openai(model):
    from eval.models.openai_compat import OpenAICompatBackend

    if not model.base_url:
        raise ValueError("openai: backend needs --base-url (e.g. http://127.0.0.1:8000/v1 for a local vLLM server)")
    if getattr(model, "scoring", None) == "loglikelihood":
        from eval.models.completions_ll import CompletionsLoglikelihoodBackend

        # The options' log-likelihood from the /completions endpoint (vLLM, SGLang), not a chat answer.
        return CompletionsLoglikelihoodBackend(model.name, base_url=model.base_url, api_key_env=model.api_key_env,
                                               timeout_s=model.timeout_s)
    return OpenAICompatBackend(model.name, base_url=model.base_url, api_key_env=model.api_key_env or "OPENAI_API_KEY", timeout_s=model.timeout_s,
                               max_tokens_field=model.max_tokens_field)


def _gemini(model):
    from eval.models.gemini import GeminiBackend

    return GeminiBackend(model.name, base_url=model.base_url, api_key_env=model.api_key_env or "GEMINI_API_KEY", timeout_s=model.timeout_s)


BACKENDS: dict[str, BackendEntry] = {
    "hf": BackendEntry("loglikelihood", _hf, "local transformers model, scored by log-likelihood over the options"),
    "hf-generate": BackendEntry("generative", _hf_generate, "local transformers model answering with generate (chat template "
                                "when it has one), through the protocol's extraction rule", system_prompt=True),
    "openai": BackendEntry("generative", _openai, "any OpenAI-compatible /v1/chat/completions endpoint"),
    "gemini": BackendEntry("generative", _gemini, "Gemini through google-genai"),
}


def register_backend(prefix: str, kind: Kind, factory: Callable, help: str = "") -> None:
    BACKENDS[prefix] = BackendEntry(kind, factory, help)


def kind_of(model) -> Kind:
    """How the plan's model is scored: its backend's own kind, unless `scoring` asks for another
    that the backend can do (openai: with `loglikelihood` uses the completions endpoint)."""
    entry = backend_entry(model.backend)
    scoring = getattr(model, "scoring", None)
    if scoring is None or scoring == entry.kind:
        return entry.kind
    if model.backend == "openai" and scoring == "loglikelihood":
        return "loglikelihood"
    raise ValueError(f"{model.backend}: backend cannot score by {scoring}; it is {entry.kind} only")


def backend_entry(prefix: str) -> BackendEntry:
    try:
        return BACKENDS[prefix]
    except KeyError:
        raise ValueError(f"unknown backend {prefix!r}; known: {', '.join(sorted(BACKENDS))}") from None


def split_model(text: str) -> tuple[str, str]:
    """'openai:Qwen/Qwen3-8B' -> ('openai', 'Qwen/Qwen3-8B'); the name may itself contain ':'."""
    prefix, sep, name = text.partition(":")
    if not sep or not name:
        raise ValueError(f"--model {text!r}: expected BACKEND:MODEL, e.g. hf:/path/to/model or openai:NAME")
    backend_entry(prefix)
    return prefix, name
