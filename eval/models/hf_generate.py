"""Local Hugging Face causal LMs answering generatively (`--model hf-generate:PATH`), with transformers `generate`.

The answer text goes through the protocol's extraction rule and statuses exactly as an API backend's
does (eval.run.runner classifies every `GenerationResponse`): a reply that ends with the model's end token is
`finish_reason: "stop"`, one cut by the token limit `"length"` (truncated).

What the model is fed (`model_input`): the tokenizer's chat template over the messages, with the
generation prompt, when the tokenizer has one; otherwise the user text as it is. A system prompt, when
given, is the template's system message, or the text before the question (a blank line between).

Decoding: greedy unless the request has a temperature > 0; then plain temperature sampling (top-k,
top-p and repetition penalty off, whatever the model's generation_config says) from `torch.manual_seed(request.seed)`, one
request at a time, so that an attempt is drawn again from its recorded seed alone. `max_new_tokens` is
the request's `max_tokens`, bounded by what the context window leaves after the prompt; a prompt that
fills the window is rejected (a technical failure that is not retried).

Batching: eval.run.runner calls `generate` from `concurrency` threads at once; greedy requests that arrive
together are run as one left-padded batch (with its attention mask) of at most `batch_size` rows. With
left padding and the mask a row's greedy tokens are those it gets alone, up to float rounding.
"""
from __future__ import annotations

import functools
import os
import queue
import threading
import time
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from eval.models.base import GenerationRequest, GenerationResponse
from eval.models.errors import ConfigurationFailure, RequestRejected
from eval.models.hf import (DEFAULT_MAX_LENGTH, ModelLoadError, _default_threads, _dtype_keyword, model_revision,
                              resolve_model_location, weights_fingerprint)

# How long the batcher waits for more concurrent requests after the first one of a batch arrives.
BATCH_WAIT_S = 0.05


@dataclass(frozen=True)
class _Encoded:
    request: GenerationRequest
    ids: tuple[int, ...]
    max_new_tokens: int


def locate_model(name: str) -> tuple[Path, str | None]:
    """A local folder or .gguf file as it is; otherwise a Hub id, resolved to its cached snapshot
    (downloaded when missing), so the snapshot's commit is recorded as the revision."""
    if Path(name).expanduser().exists() or name.startswith((".", "/", "~")) or name.count("/") != 1:
        return resolve_model_location(name)
    from huggingface_hub import snapshot_download

    from pipeline.infra import bound_hub_client

    bound_hub_client()  # a mirror's gzip bomb refused as it decodes (`infra.boundedhttpx`)
    try:
        folder = snapshot_download(name)
    except Exception as exc:  # offline, unknown repo, gated: the run cannot start
        raise ModelLoadError(f"{name}: not a local path, and not downloadable from the Hub ({type(exc).__name__}: {exc})") from None
    return resolve_model_location(folder)


def _files_signature(folder: Path, gguf_file: str | None) -> tuple:
    """Name, size and mtime of the model's files: a model changed on disk is loaded again."""
    files = [folder / gguf_file] if gguf_file else sorted(p for p in folder.rglob("*") if p.is_file())
    return tuple((str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files)


def _load(folder: Path, gguf_file: str | None, dtype: str, device: str):
    return _load_cached(folder, gguf_file, dtype, device, _files_signature(folder, gguf_file))


@functools.lru_cache(maxsize=1)
def _load_cached(folder: Path, gguf_file: str | None, dtype: str, device: str, signature: tuple):
    """Tokenizer and model, kept for the next run in this process (a rerun or resume need not reload)."""
    import torch
    import transformers

    torch_dtype = "auto" if dtype == "auto" else getattr(torch, dtype, None)
    if torch_dtype is None:
        raise ValueError(f"unknown dtype {dtype!r} (use float32, bfloat16, float16 or auto)")
    kwargs: dict = {"local_files_only": True}
    if gguf_file is not None:
        kwargs["gguf_file"] = gguf_file
    try:
        tokenizer = transformers.AutoTokenizer.from_pretrained(folder, **kwargs)
        model = transformers.AutoModelForCausalLM.from_pretrained(folder, **{_dtype_keyword(transformers.__version__): torch_dtype}, **kwargs)
    except (OSError, ValueError, KeyError) as error:
        raise ModelLoadError(f"{folder / gguf_file if gguf_file else folder}: cannot load a causal language model: {error}") from error
    model.to(torch.device(device)).eval()
    return tokenizer, model


class HFGenerateBackend:
    """A local transformers causal LM as a `GenerativeBackend`; `model_path` is a model folder, a
    `.gguf` file (dequantised by transformers) or a Hub id."""

    def __init__(self, model_path: str | os.PathLike, *, dtype: str = "float32", batch_size: int = 8, device: str = "cpu",
                 system_prompt: str | None = None, num_threads: int | None = None):
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        import torch

        self._torch = torch
        self.model_path = str(model_path)
        self.folder, self.gguf_file = locate_model(self.model_path)
        self.batch_size = batch_size
        self.system_prompt = system_prompt
        self.num_threads = num_threads or _default_threads()
        torch.set_num_threads(self.num_threads)
        self.tokenizer, self.model = _load(self.folder, self.gguf_file, dtype, device)
        self.device = torch.device(device)
        self.window = _context_window(self.model, self.tokenizer)
        self.stop_ids = _stop_token_ids(self.model, self.tokenizer)
        if not self.stop_ids:
            raise ModelLoadError(f"{self.folder}: the model names no end-of-sequence token, so an answer could never stop")
        pad = self.tokenizer.pad_token_id
        self.pad_id = pad if pad is not None else self.stop_ids[0]
        self._fingerprint: dict | None = None
        self._queue: queue.Queue = queue.Queue()
        self._worker = threading.Thread(target=self._serve, name="hf-generate", daemon=True)
        self._worker.start()

    # -- what the model is fed ------------------------------------------------------------------

    @property
    def has_chat_template(self) -> bool:
        return bool(getattr(self.tokenizer, "chat_template", None))

    def model_input(self, messages: tuple[dict, ...] | list[dict]) -> str:
        """The exact text the model continues from, for the protocol's messages."""
        texts = []
        for message in messages:
            if not isinstance(message.get("content"), str):
                raise ConfigurationFailure("hf-generate reads text only: this protocol sends images (use mcq or mcq-figure-text)")
            texts.append(message)
        if self.has_chat_template:
            chat = ([{"role": "system", "content": self.system_prompt}] if self.system_prompt is not None else []) + texts
            return self.tokenizer.apply_chat_template(chat, tokenize=False, add_generation_prompt=True)
        user = "\n\n".join(m["content"] for m in texts)
        return user if self.system_prompt is None else f"{self.system_prompt}\n\n{user}"

    def encode(self, messages) -> list[int]:
        """Token ids of `model_input`: a chat template writes its own special tokens (BOS included);
        plain text gets the tokenizer's, as lm-eval's HFLM gives them."""
        text = self.model_input(messages)
        return list(self.tokenizer.encode(text, add_special_tokens=not self.has_chat_template))

    # -- the GenerativeBackend interface -------------------------------------------------------

    def describe(self) -> dict:
        import torch
        import transformers

        if self._fingerprint is None:
            self._fingerprint = weights_fingerprint(self.folder, self.gguf_file)
        template = getattr(self.tokenizer, "chat_template", None)
        return {
            "backend": "hf-generate",
            "model_path": self.model_path,
            "gguf_file": self.gguf_file,
            "model_type": getattr(self.model.config, "model_type", None),
            "revision": model_revision(self.folder),
            "weights_fingerprint": self._fingerprint,
            "dtype": str(self.model.dtype).removeprefix("torch."),
            "chat_template_sha256": _sha256_text(template) if template else None,
            "system_prompt": self.system_prompt,
            "context_window": self.window,
            "stop_token_ids": list(self.stop_ids),
            "batch_size": self.batch_size,
            "device": str(self.device),
            "num_threads": self.num_threads,
            "decoding": "greedy at temperature 0; else temperature sampling (top_k 0, top_p 1) from torch.manual_seed(seed), "
                        "one request at a time",
            "torch": torch.__version__,
            "transformers": transformers.__version__,
        }

    def generate(self, request: GenerationRequest) -> GenerationResponse:
        """Thread-safe: concurrent greedy calls are answered from one batch."""
        done: Future = Future()
        self._queue.put((request, done))
        return done.result()

    def generate_batch(self, requests: list[GenerationRequest]) -> list[GenerationResponse | Exception]:
        """Every request's response, or the exception that request alone failed with (in order)."""
        out: list[GenerationResponse | Exception | None] = [None] * len(requests)
        greedy: dict[int, list[tuple[int, _Encoded]]] = {}  # by max_new_tokens: one generate call each
        for i, request in enumerate(requests):
            try:
                encoded = self._encode_request(request)
            except (RequestRejected, ConfigurationFailure) as exc:
                out[i] = exc
                continue
            if request.temperature > 0:
                out[i] = self._run([encoded], sample_seed=request.seed)[0]
            else:
                greedy.setdefault(encoded.max_new_tokens, []).append((i, encoded))
        for rows in greedy.values():
            for start in range(0, len(rows), self.batch_size):
                chunk = rows[start : start + self.batch_size]
                for (i, _), response in zip(chunk, self._run([e for _, e in chunk], sample_seed=None)):
                    out[i] = response
        return out  # type: ignore[return-value]

    def close(self) -> None:
        self._queue.put(None)

    # -- internals ------------------------------------------------------------------------------

    def _serve(self) -> None:
        """One thread runs the model: it takes the first waiting request, gathers those that arrive
        within BATCH_WAIT_S (up to batch_size), answers them together, and hands each its result."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            deadline = time.monotonic() + BATCH_WAIT_S
            while len(batch) < self.batch_size:
                try:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)  # stop after this batch
                    break
                batch.append(item)
            try:
                results = self.generate_batch([request for request, _ in batch])
            except BaseException as exc:  # e.g. out of memory: every request of the batch failed with it
                for _, done in batch:
                    done.set_exception(exc)
                continue
            for (_, done), result in zip(batch, results):
                if isinstance(result, Exception):
                    done.set_exception(result)
                else:
                    done.set_result(result)

    def _encode_request(self, request: GenerationRequest) -> _Encoded:
        ids = self.encode(request.messages)
        room = self.window - len(ids)
        if room < 1:
            raise RequestRejected(f"{request.qid}: the prompt has {len(ids)} tokens, the model's context window {self.window}")
        return _Encoded(request, tuple(ids), min(request.max_tokens, room))

    def _run(self, rows: list[_Encoded], *, sample_seed: int | None) -> list[GenerationResponse]:
        """One left-padded `generate` call over rows of the same max_new_tokens."""
        torch = self._torch
        from transformers import GenerationConfig

        width = max(len(r.ids) for r in rows)
        input_ids = torch.tensor([[self.pad_id] * (width - len(r.ids)) + list(r.ids) for r in rows], device=self.device)
        mask = torch.tensor([[0] * (width - len(r.ids)) + [1] * len(r.ids) for r in rows], device=self.device)
        sampling = sample_seed is not None
        # Every setting that changes which tokens come out is given explicitly: transformers fills the
        # unset ones from the model's own generation_config (often sampling at 0.6, or a repetition penalty).
        config = GenerationConfig(
            max_new_tokens=rows[0].max_new_tokens, min_length=0, do_sample=sampling, num_beams=1,
            temperature=rows[0].request.temperature if sampling else 1.0, top_k=0, top_p=1.0,
            repetition_penalty=1.0, no_repeat_ngram_size=0, eos_token_id=list(self.stop_ids), pad_token_id=self.pad_id,
        )
        started = time.monotonic()
        with torch.inference_mode():
            if sampling:
                torch.manual_seed(sample_seed)
            output = self.model.generate(input_ids=input_ids, attention_mask=mask, generation_config=config)
        latency = (time.monotonic() - started) / len(rows)  # the batch's time, shared by its rows
        revision = model_revision(self.folder)
        responses = []
        for row, tokens in zip(rows, output[:, width:].tolist()):
            stop = next((n for n, t in enumerate(tokens) if t in self.stop_ids), None)
            kept = tokens if stop is None else tokens[:stop]
            responses.append(GenerationResponse(
                text=self.tokenizer.decode(kept, skip_special_tokens=True),
                finish_reason="length" if stop is None else "stop",
                usage={"prompt_tokens": len(row.ids), "completion_tokens": len(kept) + (stop is not None)},
                latency_s=latency, model_revision=revision,
            ))
        return responses


def _stop_token_ids(model, tokenizer) -> tuple[int, ...]:
    """The end tokens of the generation config (chat models often name several), then the tokenizer's."""
    ids: list[int] = []
    configured = getattr(model.generation_config, "eos_token_id", None)
    for value in ([configured] if isinstance(configured, int) else list(configured or [])) + [tokenizer.eos_token_id]:
        if value is not None and value not in ids:
            ids.append(int(value))
    return tuple(ids)


def _context_window(model, tokenizer) -> int:
    """As HFBackend (lm-eval's resolve_max_length): the config's positions, the tokenizer's limit, 2048."""
    config = model.config
    for candidate in (getattr(config, "text_config", None), config):
        for attribute in ("n_positions", "max_position_embeddings", "n_ctx"):
            value = getattr(candidate, attribute, None) if candidate is not None else None
            if isinstance(value, int) and value > 0:
                return value
    limit = getattr(tokenizer, "model_max_length", None)
    return limit if isinstance(limit, int) and 0 < limit < int(1e30) else DEFAULT_MAX_LENGTH


def _sha256_text(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()

