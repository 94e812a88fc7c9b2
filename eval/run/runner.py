"""Running a plan: pin the data, build prompts, send every request, keep every attempt, resume.

Each request is independent (no history, no tools). Only technical failures are retried, with
exponential backoff (or the server's Retry-After), and each try is its own attempt line. A run that
ends with answers still missing stays open: running it again sends only what is missing. A run with
every answer in is sealed (read-only); truncated answers still block publication.
"""
from __future__ import annotations

import contextlib
import datetime as dt
import importlib.metadata
import io
import json
import math
import os
import platform
import random
import re
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from eval.log import scoring
from eval.scorers.answers import Status, classify_generation, get_rule
from eval.models.base import ChoiceRequest, GenerationRequest, TechnicalFailure
from eval.models.errors import ConfigurationFailure, RequestRejected
from eval.models.redaction import redact, secret_values
from eval.models.naming import default_display_name, model_label
from eval.models.registry import backend_entry, kind_of
from eval.dataset.loading import check_pin, load_data
from eval.dataset.fewshot import build_fewshot_prompts, choose_fewshot, load_pool
from eval.run.plan import RunPlan
from pipeline.infra import JsonlError, iter_jsonl, write_text_atomic
from pipeline.infra import progress as show_progress
from eval.log.browse import write_report
from eval.log.integrity import write_manifest
from eval.prompts.protocols import Prompt, PromptBuilder, check_frozen, get_protocol, is_scorable, materialise_images
from eval.run.provenance import code_revision
from eval.log.records import AttemptRecord, RunState, SessionRecord
from eval.log.runfolder import ATTEMPTS, PLAN, PROMPTS, SCORES, SESSIONS, STATE, RunFolder, dumps, read_json, read_jsonl

PACKAGES = ("examcorpus", "numpy", "pyarrow", "pandas", "huggingface-hub", "google-genai", "torch", "transformers", "tqdm")


@dataclass(frozen=True)
class RetryWait:
    """How long to wait before the next try, and what the server asked for (Retry-After)."""

    seconds: float
    asked_s: float | None = None
    capped: bool = False

    def fields(self) -> dict:
        out: dict = {"retry_wait_s": round(self.seconds, 3)}
        if self.asked_s is not None:
            out["retry_after_s"] = self.asked_s if math.isfinite(self.asked_s) else str(self.asked_s)
            out["retry_after_capped"] = self.capped
        return out


class RunError(RuntimeError):
    """The run cannot start or continue; the message says why and what to do."""


@dataclass
class RunOutcome:
    path: Path
    state: str  # "complete" | "incomplete"
    publishable: bool
    reasons: list[str] = field(default_factory=list)
    sent: int = 0

    @property
    def exit_code(self) -> int:
        if self.state != "complete":
            return 2
        return 0 if self.publishable else 3


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def environment() -> dict:
    versions = {}
    for name in PACKAGES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return {"python": sys.version.split()[0], "platform": platform.platform(), "packages": versions, "code": code_revision()}


def load_descriptions(path: str | None) -> tuple[dict[str, str], str | None]:
    """Reviewed figure descriptions by image SHA-256, and the file's own SHA-256 for the pin."""
    if not path:
        return {}, None
    from eval.dataset.loading import sha256_file

    file = Path(path)
    if not file.is_file():
        raise RunError(f"{file}: figure descriptions file not found")
    texts: dict[str, str] = {}
    try:
        records = list(iter_jsonl(file, tail="parse"))
    except JsonlError as exc:
        raise RunError(str(exc)) from None
    for number, record in records:
        if record.get("status") not in (None, "accepted", "edited", "reviewed"):
            continue  # only reviewed text reaches a prompt
        key = record.get("image_sha256") or record.get("sha256")
        text = record.get("text") or record.get("description")
        if not key or not text:
            raise RunError(f"{file}:{number}: needs image_sha256 and text")
        texts[key] = text
    return texts, sha256_file(file)


def prepare(plan: RunPlan) -> tuple[dict, list[Prompt], dict]:
    """Load and pin the data, select questions, build prompts. Sends nothing."""
    protocol = get_protocol(plan.protocol, plan.protocol_version)
    try:
        prompt_sha256 = check_frozen(protocol)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    try:
        kind = kind_of(plan.model)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    if kind == "loglikelihood" and plan.repeats != 1:
        raise RunError("log-likelihood scoring is deterministic: --repeats must be 1 for a log-likelihood model")
    if kind != "loglikelihood" and protocol.formulation == "cloze":
        raise RunError(f"protocol {protocol.name} scores the options' text by log-likelihood; use an hf: model "
                       "or openai: with --scoring loglikelihood")
    if kind == "loglikelihood" and protocol.figures == "image":
        raise RunError(f"protocol {protocol.name} sends images; a log-likelihood model reads text only")
    data = load_data(plan.data, pin=plan.data_pin)
    if plan.data_pin:
        check_pin(data, plan.data_pin)
    descriptions, descriptions_sha = load_descriptions(plan.figure_descriptions)
    # A config or language asked for that the data has none of (a slip: `pl_tset`) would leave the run smaller unsaid.
    present = {"config": {data.config_of(q) for q in data.questions}, "language": {q.language for q in data.questions}}
    for facet, asked in (("config", plan.configs), ("language", plan.languages)):  # not `kind`: the backend's, read below
        absent = sorted(set(asked or ()) - present[facet])
        if absent:
            raise RunError(f"{plan.data}: {facet}(s) {', '.join(absent)} asked for, but no question of the data has it "
                           f"({facet}s here: {', '.join(sorted(present[facet]))})")
    selected, skipped, skipped_ids = [], {}, {}
    for q in sorted(data.questions, key=lambda q: q.id):
        if plan.configs and data.config_of(q) not in plan.configs:
            continue
        if plan.languages and q.language not in plan.languages:
            continue
        reason = is_scorable(q)
        if reason:
            skipped[reason] = skipped.get(reason, 0) + 1
            skipped_ids.setdefault(reason, []).append(q.id)
            continue
        selected.append(q)
    if plan.limit:
        selected = selected[: plan.limit]
    if not selected:
        raise RunError(f"{plan.data}: no scorable question matches configs={plan.configs} languages={plan.languages}")
    builder = PromptBuilder(protocol, shots=plan.shots, descriptions=descriptions)
    fewshot = None
    try:
        if plan.fewshot:
            # Examples from the declared pool only, never from `selected` (eval.dataset.fewshot).
            fewshot = choose_fewshot(load_pool(plan.fewshot_pool), selected, plan.fewshot, seed=plan.fewshot_seed)
            prompts = build_fewshot_prompts(builder, selected, data.config_of, fewshot)
        else:
            prompts = builder.build_all(selected, data.config_of)
    except ValueError as exc:
        raise RunError(str(exc)) from None
    if protocol.figures == "image":
        # Checked here, before the run folder exists and before anything is sent.
        for prompt in prompts:
            materialise_images(prompt.messages, Path(plan.images_root or "."))
    display_name = plan.model.display_name or default_display_name(plan.model.backend, plan.model.name)
    resolved = plan.model_copy(update={"data_pin": data.pin(), "protocol_version": protocol.version,
                                       "model": plan.model.model_copy(update={"display_name": display_name})})
    record = {
        "plan": resolved.model_dump(mode="json"),
        "protocol": {"name": protocol.name, "version": protocol.version, "figures": protocol.figures, "extraction_rule": protocol.extraction_rule,
                     "formulation": protocol.formulation, "prompt_sha256": prompt_sha256},
        "backend_kind": kind,
        "figure_descriptions_sha256": descriptions_sha,
        "questions": len(prompts),
        "skipped": skipped,
        # Each question left out before asking, by why: the scores name them (`scoring.left_out`), none is lost unsaid.
        "skipped_ids": skipped_ids,
    }
    added = protocol.added_language_sha256({q.language for q in selected})
    if added:  # the frozen hash of each language given its prompt after the version was published
        record["protocol"]["language_prompt_sha256"] = added
    if fewshot is not None:
        record["fewshot"] = fewshot.to_plan()
    meta = {q.id: {"exam": q.exam, "level": q.level, "subject": q.subject, "year": q.year, "session": q.session, "type": q.type,
                   "sheet_code": q.sheet_code, "number": q.number, "source": q.source} for q in selected}
    return record, prompts, {"meta": meta}


def run(plan: RunPlan | None, out: str | Path, *, progress: bool | None = None, operational: dict | None = None) -> RunOutcome:
    """Start or resume the run in `out`. `operational` (concurrency, timeouts, retry policy) may
    change on resume; every other setting must match the run folder's own plan."""
    folder = RunFolder(out)
    if folder.exists:
        if folder.sealed:
            raise RunError(f"{folder.path}: this run is finished and immutable; write a new run to another --out")
        stored = read_json(folder.file(PLAN))
        stored_plan = RunPlan.model_validate(stored["plan"])
        if plan is None:
            changes = operational or {}
            plan = stored_plan.model_copy(update={
                "model": stored_plan.model.model_copy(update=changes.get("model", {})),
                "retry": stored_plan.retry.model_copy(update=changes.get("retry", {})),
            })
        else:
            plan = _merge_for_resume(plan, stored_plan, folder.path)
        # Re-pin on every session: the data must still be byte-for-byte what was pinned (each file's
        # hash is checked before it is parsed, so a damaged file is named, not fed to pyarrow).
        data = load_data(plan.data, pin=stored_plan.data_pin)
        check_pin(data, stored_plan.data_pin or {})
        prompts = [Prompt.from_dict(p) for p in read_jsonl(folder.file(PROMPTS))]
        record = stored
    else:
        if plan is None:
            raise RunError(f"{folder.path}: not a run folder; give a plan or --data/--model/--protocol")
        record, prompts, extra = prepare(plan)
        meta = extra["meta"]
        plan = RunPlan.model_validate(record["plan"])
    # Before the folder is made: a model that cannot load leaves no run folder to block the next try.
    backend = _load_backend(plan, progress)
    if not folder.exists:
        folder.create(record, [dict(p.to_dict(), meta=meta[p.qid]) for p in prompts])
    cut = folder.repair_partial_tail()
    session = SessionRecord(started_at=_now(), environment=environment(), backend=backend.describe(),
                            repaired_partial_line_bytes=cut,
                            operational={"concurrency": plan.model.concurrency, "timeout_s": plan.model.timeout_s,
                                         "retry": plan.retry.model_dump()})
    folder.append(SESSIONS, [redact(session, secret_values([plan.model.api_key_env]))])
    attempts = read_jsonl(folder.file(ATTEMPTS))
    sender = _Sender(plan, folder, backend, attempts)
    try:
        remote = bool(getattr(backend, "remote", False))
        if record["backend_kind"] == "loglikelihood" and not remote:
            sent = sender.score_loglikelihood(prompts, progress)
        else:
            sent = sender.generate_all(prompts, progress, remote_loglikelihood=remote)
    finally:
        sender.close()
    return finish(folder, sent=sent)


def _load_backend(plan: RunPlan, progress: bool | None):
    """The plan's backend, saying so before and after (loading a local model takes minutes, silently)."""
    announce = progress is not False
    label = f"{model_label(plan.model.model_dump())} ({plan.model.backend})"
    if announce:
        print(f"eval: starting {label} ...", file=sys.stderr, flush=True)
    started = time.monotonic()
    # The libraries' own loading bars only where a terminal redraws them: in a log file they are noise.
    with _quiet_model_loading(progress is False or not sys.stderr.isatty()):
        backend = backend_entry(plan.model.backend).factory(plan.model)
    if announce:
        print(f"eval: {label} ready in {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)
    return backend


@contextlib.contextmanager
def _quiet_model_loading(quiet: bool):
    """--no-progress, or a stderr that is no terminal, silences the model libraries' own bars too (weights
    loading, GGUF conversion, Hub downloads), which draw with tqdm straight to stderr whatever their
    logging settings say.
    What they print is held back; anything but a progress bar is passed on afterwards."""
    if not quiet:
        yield
        return
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    held = io.StringIO()
    try:
        with contextlib.redirect_stderr(held):
            yield
    finally:
        lines = re.split(r"[\r\n]", held.getvalue())
        kept = [line for line in lines if line.strip() and not _PROGRESS_BAR.search(line)]
        if kept:
            print("\n".join(kept), file=sys.stderr)


_PROGRESS_BAR = re.compile(r"\d+%\|")


def finish(folder: RunFolder, *, sent: int = 0) -> RunOutcome:
    scores = scoring.score_folder(folder.path)
    reasons = scoring.blocking_reasons(scores)
    missing = scores.totals.missing
    if missing:
        write_text_atomic(folder.file(STATE), dumps(RunState(state="incomplete", publishable=False, reasons=reasons)))
        write_report(folder.path)  # the page to browse what this session left (eval.log.browse)
        write_manifest(folder.path)  # last: what this session left, for `eval verify`
        return RunOutcome(folder.path, "incomplete", False, reasons, sent)
    write_text_atomic(folder.file(SCORES), dumps(scores))
    write_text_atomic(folder.file(STATE), dumps(RunState(state="complete", publishable=not reasons, reasons=reasons)))
    write_report(folder.path)
    write_manifest(folder.path)  # the run's last write: every file's SHA-256, checked by `eval verify`
    folder.seal()
    return RunOutcome(folder.path, "complete", not reasons, reasons, sent)


def _merge_for_resume(plan: RunPlan, stored: RunPlan, where: Path) -> RunPlan:
    update = {}
    if plan.data_pin is None:
        update["data_pin"] = stored.data_pin
    if plan.protocol_version is None:
        update["protocol_version"] = stored.protocol_version
    plan = plan.model_copy(update=update)
    mine, theirs = plan.identity(), stored.identity()
    if mine != theirs:
        diffs = _diff(theirs, mine)
        raise RunError(f"{where}: the plan differs from the run's own plan, so this is a different run:\n"
                       + "\n".join(f"  - {d}" for d in diffs) + "\nwrite it to another --out, or resume with no new settings")
    return plan


def _diff(a: dict, b: dict, prefix: str = "") -> list[str]:
    out = []
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key), b.get(key)
        if isinstance(x, dict) and isinstance(y, dict):
            out += _diff(x, y, f"{prefix}{key}.")
        elif x != y:
            out.append(f"{prefix}{key}: run has {json.dumps(x, ensure_ascii=False)[:80]}, given {json.dumps(y, ensure_ascii=False)[:80]}")
    return out


class _Sender:
    def __init__(self, plan: RunPlan, folder: RunFolder, backend, attempts: list[dict]):
        self.plan = plan
        self.folder = folder
        self.backend = backend
        self.tries: dict[tuple[str, int], int] = {}
        self.last: dict[tuple[str, int], str] = {}
        for a in attempts:
            key = (a["qid"], a["repeat"])
            self.tries[key] = max(self.tries.get(key, 0), a["attempt"])
            if a["attempt"] == self.tries[key]:
                self.last[key] = a["status"]
        self.rule = get_rule(read_json(folder.file(PLAN))["protocol"]["extraction_rule"])
        self.stop = threading.Event()
        self.fatal: BaseException | None = None
        self.secrets = secret_values([plan.model.api_key_env, (backend.describe() or {}).get("api_key_env")])

    def _append(self, name: str, records: list[dict]) -> None:
        """Every record a run stores goes through here: a service that echoes the key (in an error
        page, or in a 200 body) must not get it into the run folder."""
        self.folder.append(name, redact(records, self.secrets))

    def pending(self, prompts: list[Prompt]) -> list[tuple[Prompt, int]]:
        return [
            (p, r)
            for r in range(self.plan.repeats)
            for p in prompts
            if self.last.get((p.qid, r)) in (None, Status.TECHNICAL_FAILURE.value)
        ]

    def close(self) -> None:
        close = getattr(self.backend, "close", None)
        if callable(close):
            close()

    def _record(self, prompt: Prompt, repeat: int, **fields) -> AttemptRecord:
        key = (prompt.qid, repeat)
        self.tries[key] = self.tries.get(key, 0) + 1
        record = AttemptRecord(qid=prompt.qid, repeat=repeat, attempt=self.tries[key], time=_now(), **fields)
        self.last[key] = record.status
        return record

    # generative ---------------------------------------------------------------------------------
    def generate_all(self, prompts: list[Prompt], progress: bool | None, *, remote_loglikelihood: bool = False) -> int:
        """Every pending (question, repeat), `concurrency` at a time: generations, or options scored
        by a log-likelihood server."""
        worker = self._score_remote if remote_loglikelihood else self._answer
        todo = self.pending(prompts)
        if not todo:
            return 0
        # Figure paths in the data are relative to the project root (pipeline.records.ImageRef).
        images_root = Path(self.plan.images_root or ".")
        bar = show_progress(total=len(todo), desc="eval", unit="answers", enabled=progress is not False)
        counts: dict[str, int] = {}
        sent = 0
        with ThreadPoolExecutor(max_workers=self.plan.model.concurrency, thread_name_prefix="eval") as pool:
            futures = set()
            queue = iter(todo)

            def refill():
                while len(futures) < self.plan.model.concurrency * 2 and not self.stop.is_set():
                    try:
                        prompt, repeat = next(queue)
                    except StopIteration:
                        return
                    futures.add(pool.submit(worker, prompt, repeat, images_root))

            try:
                refill()
                while futures:
                    done, _ = wait(futures, return_when=FIRST_COMPLETED)
                    for future in done:
                        futures.discard(future)
                        status, tries = future.result()
                        sent += tries
                        counts[status] = counts.get(status, 0) + 1
                        bar.update(1)
                        bar.set_postfix(dict(sorted(counts.items())), refresh=False)
                    if self.fatal is not None:
                        self.stop.set()
                    refill()
            except BaseException:
                self.stop.set()
                raise
            finally:
                bar.close()
        if self.fatal is not None:
            raise RunError(f"stopped: {self.fatal}") from self.fatal
        return sent

    def _answer(self, prompt: Prompt, repeat: int, images_root: Path) -> tuple[str, int]:
        plan = self.plan
        messages = materialise_images(prompt.messages, images_root)
        request = GenerationRequest(
            qid=prompt.qid, messages=messages, max_tokens=plan.model.max_tokens, temperature=plan.model.temperature,
            reasoning_effort=plan.model.reasoning_effort, seed=None if plan.model.seed is None else plan.model.seed + repeat,
        )

        def call() -> tuple[str, dict]:
            response = self.backend.generate(request)
            status, extraction = classify_generation(
                text=response.text, finish_reason=response.finish_reason, labels=list(prompt.labels),
                answer=prompt.answer, language=prompt.language, rule=self.rule,
            )
            return status.value, dict(response=response.text, finish_reason=response.finish_reason, extracted=extraction.label,
                                      extraction_method=extraction.method, usage=response.usage,
                                      latency_s=round(response.latency_s, 4), model_revision=response.model_revision,
                                      **({"seed": request.seed} if request.seed is not None else {}))

        return self._with_retries(prompt, repeat, call)

    def _score_remote(self, prompt: Prompt, repeat: int, images_root: Path) -> tuple[str, int]:
        """One question's options scored by a log-likelihood server, retried like a generation."""
        request = ChoiceRequest(prompt.qid, prompt.context, prompt.continuations)

        def call() -> tuple[str, dict]:
            started = time.monotonic()
            [result] = self.backend.score_choices([request])
            return _choice_fields(prompt, result, time.monotonic() - started)

        return self._with_retries(prompt, repeat, call)

    def _with_retries(self, prompt: Prompt, repeat: int, call) -> tuple[str, int]:
        """Call until an answer or a final failure; every try is its own attempt line."""
        tries = 0
        while True:
            if self.stop.is_set():
                return "not_sent", tries
            tries += 1
            started = time.monotonic()
            try:
                status, fields = call()
            except (TechnicalFailure, RequestRejected, ConfigurationFailure) as exc:
                retryable = isinstance(exc, TechnicalFailure)
                final = isinstance(exc, ConfigurationFailure) or not retryable or tries >= self.plan.retry.max_attempts
                wait = None if final else self._retry_wait(tries, getattr(exc, "retry_after", None))
                self._append(ATTEMPTS, [self._record(
                    prompt, repeat, status=Status.TECHNICAL_FAILURE.value, error=f"{type(exc).__name__}: {exc}",
                    http_status=getattr(exc, "status", None), retryable=retryable, latency_s=round(time.monotonic() - started, 4),
                    **(wait.fields() if wait else {}),
                )])
                if isinstance(exc, ConfigurationFailure):
                    self.fatal = exc
                    return Status.TECHNICAL_FAILURE.value, tries
                if final:
                    return Status.TECHNICAL_FAILURE.value, tries
                self.stop.wait(wait.seconds)
                continue
            self._append(ATTEMPTS, [self._record(prompt, repeat, status=status, **fields)])
            return status, tries

    def _retry_wait(self, tries: int, retry_after: float | None) -> RetryWait:
        policy = self.plan.retry
        if retry_after is None:
            backoff = min(policy.max_delay_s, policy.base_delay_s * 2 ** (tries - 1)) * (0.5 + random.random() / 2)
            return RetryWait(backoff)
        # The server said when; sooner would only be refused again. But a server may ask for a day (or
        # forever): never more than the plan's cap, and the attempt says the wait was cut.
        if not retry_after <= policy.max_retry_after_s:
            return RetryWait(policy.max_retry_after_s, asked_s=retry_after, capped=True)
        return RetryWait(retry_after, asked_s=retry_after)

    # log-likelihood -----------------------------------------------------------------------------
    def score_loglikelihood(self, prompts: list[Prompt], progress: bool | None) -> int:
        todo = [p for p, _ in self.pending(prompts)]
        if not todo:
            return 0
        # One batch (one forward pass) at a time: the bar moves, and the answers are stored, as each is scored.
        chunk = max(1, self.plan.model.batch_size)
        bar = show_progress(total=len(todo), desc="eval (log-likelihood)", unit="q", enabled=progress is not False)
        try:
            for start in range(0, len(todo), chunk):
                batch = todo[start : start + chunk]
                requests = [ChoiceRequest(p.qid, p.context, p.continuations) for p in batch]
                started = time.monotonic()
                results = self.backend.score_choices(requests)
                latency = (time.monotonic() - started) / len(batch)
                if [r.qid for r in results] != [p.qid for p in batch]:
                    raise RunError("log-likelihood backend returned results out of order or incomplete")
                records = []
                for prompt, result in zip(batch, results):
                    status, fields = _choice_fields(prompt, result, latency)
                    records.append(self._record(prompt, 0, status=status, **fields))
                self._append(ATTEMPTS, records)
                bar.update(len(batch))
        finally:
            bar.close()
        return len(todo)


def _choice_fields(prompt: Prompt, result, latency: float) -> tuple[str, dict]:
    """The status and attempt fields of one question scored by log-likelihood."""
    label = prompt.labels[result.chosen]
    status = Status.CORRECT if label == prompt.answer else Status.WRONG
    fields = dict(response=label, extracted=label, extraction_method="loglikelihood",
                  logprobs=list(result.logprobs), is_greedy=list(result.is_greedy), latency_s=round(latency, 4))
    if result.token_counts:
        fields["continuation_tokens"] = list(result.token_counts)
    return status.value, fields

