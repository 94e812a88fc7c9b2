"""The describe run: every figure of every curated question not yet described with this model and
prompt version is sent to Gemini, a bounded number at a time, and each outcome is appended to the
annotations file as soon as it arrives (a killed run keeps what it got; a re-run sends the rest)."""
from __future__ import annotations

import hashlib
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

import pyarrow.parquet as pq

from pipeline.describe.annotations import ANNOTATIONS_FILE, Annotation, load_annotations
from pipeline.describe.gemini import DEFAULT_MODEL, DescribeFailure, GeminiDescriber, RetryPolicy
from pipeline.infra import AppendLog
from pipeline.describe.prompts import DEFAULT_PROMPT_VERSION, PromptError, load_prompt, prompt_sha256
from pipeline.infra import progress
from pipeline.records import ImageRef, Question, table_to_questions
from pipeline.renames import current_id, load_renames


class DescribeInputError(ValueError):
    """Curated input that cannot be described (no files, unreadable Parquet, no prompt)."""


@dataclass(frozen=True)
class DescribeOptions:
    root: Path = Path(".")
    curated: tuple[Path, ...] = ()  # Parquet files or folders; default <root>/curated
    annotations: Path | None = None  # default <root>/annotations/descriptions.jsonl
    model: str = DEFAULT_MODEL
    prompt_version: str = DEFAULT_PROMPT_VERSION
    concurrency: int = 8
    timeout_s: float = 120.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    base_url: str | None = None
    limit: int | None = None  # at most this many requests (a trial run)
    show_progress: bool = True

    @property
    def annotations_path(self) -> Path:
        return self.annotations or self.root / ANNOTATIONS_FILE


@dataclass(frozen=True)
class Job:
    question: Question
    image: ImageRef
    prompt: str


@dataclass
class DescribeSummary:
    figures: int = 0  # figures in the curated input
    already_done: int = 0
    counts: dict[str, int] = field(default_factory=dict)  # outcome status -> number
    failures: list[str] = field(default_factory=list)
    wall_s: float = 0.0
    left_by_limit: int = 0  # figures not yet described that `--limit` left for a later run

    def lines(self) -> list[str]:
        done = ", ".join(f"{n} {status}" for status, n in sorted(self.counts.items())) or "nothing new"
        left = f", {self.left_by_limit} left for a later run (--limit)" if self.left_by_limit else ""
        out = [f"describe: {self.figures} figures, {self.already_done} already described, {done}, {len(self.failures)} failed{left}"]
        out += [f"  failed: {line}" for line in self.failures]
        return out


def curated_files(options: DescribeOptions) -> list[Path]:
    paths = options.curated or (options.root / "curated",)
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files += sorted(path.glob("*.parquet"))
        elif path.is_file():
            files.append(path)
        else:
            raise DescribeInputError(f"{path}: no such curated file or folder")
    if not files:
        raise DescribeInputError(f"no curated Parquet files in {', '.join(map(str, paths))} (run `make extract` first)")
    return files


def load_questions(files: list[Path]) -> list[Question]:
    questions = []
    for path in files:
        try:
            questions += table_to_questions(pq.read_table(path))
        except Exception as exc:  # a bad file is named, whatever pyarrow or the schema said
            raise DescribeInputError(f"{path}: not a curated questions file ({type(exc).__name__}: {exc})") from None
    return questions


def plan_jobs(questions: list[Question], done: set[tuple], model: str, prompt_version: str) -> tuple[list[Job], int, int]:
    """Jobs for figures not yet described; also the number of figures and of those already done.
    Raises PromptError before anything is sent when a language has no prompt."""
    jobs, figures, already = [], 0, 0
    templates = {}
    for question in questions:
        for image in question.images:
            figures += 1
            if (question.id, image.sha256, model, prompt_version) in done:
                already += 1
                continue
            if question.language not in templates:
                templates[question.language] = load_prompt(question.language, prompt_version)
            prompt = templates[question.language].render(question.question, question.choices, question.choice_labels, question.context)
            jobs.append(Job(question, image, prompt))
    return jobs, figures, already


def _read_image(root: Path, image: ImageRef) -> bytes:
    path = root / image.path
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DescribeFailure(f"figure {path} unreadable: {exc.strerror or exc}") from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != image.sha256:
        raise DescribeFailure(f"figure {path} changed since extraction (sha256 {actual[:12]}…, record says {image.sha256[:12]}…)")
    return data


def _mime_type(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return "image/png"
    if data.startswith(b"\xff\xd8"):
        return "image/jpeg"
    return "image/png"


def _run_job(job: Job, describer: GeminiDescriber, options: DescribeOptions) -> Annotation:
    image = _read_image(options.root, job.image)
    outcome = describer.describe(job.prompt, image, _mime_type(image))
    return Annotation(
        record_id=job.question.id, image_sha256=job.image.sha256, image_path=job.image.path, model=options.model,
        prompt_version=options.prompt_version, status=outcome.status, description=outcome.description,
        transcription=outcome.transcription, created_at=datetime.now(timezone.utc).isoformat(timespec="seconds"),
        latency_s=outcome.latency_s, attempts=outcome.attempts, finish_reason=outcome.finish_reason,
        model_version=outcome.model_version, prompt_sha256=prompt_sha256(job.prompt), raw_text=outcome.raw_text,
        usage=outcome.usage,
    )


def described_keys(options: DescribeOptions) -> set[tuple]:
    """The request keys already answered, each under its record's current id: a record renamed since
    it was described (pipeline.renames) is not sent, and paid for, a second time."""
    renames = load_renames(options.root)
    return {(current_id(a.record_id, renames), *a.key[1:]) for a in load_annotations(options.annotations_path)}


def describe_curated(options: DescribeOptions, *, api_key: str) -> DescribeSummary:
    """Describes every figure not yet described; raises DescribeInputError/PromptError before any
    request when the input is unusable."""
    started = time.monotonic()
    questions = load_questions(curated_files(options))
    done = described_keys(options)
    try:
        jobs, figures, already = plan_jobs(questions, done, options.model, options.prompt_version)
    except PromptError as exc:
        raise DescribeInputError(str(exc)) from None
    planned = len(jobs)
    if options.limit is not None:
        jobs = jobs[: options.limit]
    summary = DescribeSummary(figures=figures, already_done=already, left_by_limit=planned - len(jobs))
    describer = GeminiDescriber(model=options.model, api_key=api_key, base_url=options.base_url, timeout_s=options.timeout_s, retry=options.retry)
    log = AppendLog(options.annotations_path)
    bar = progress(total=len(jobs), desc="describe", unit="fig", enabled=options.show_progress)
    with bar, ThreadPoolExecutor(max_workers=max(1, options.concurrency), thread_name_prefix="describe") as pool:
        futures = {pool.submit(_run_job, job, describer, options): job for job in jobs}
        for future in as_completed(futures):
            job = futures[future]
            try:
                annotation = future.result()
            except DescribeFailure as exc:
                summary.failures.append(f"{job.question.id} {job.image.path}: {describer.redact(str(exc))}")
            else:
                log.append(annotation.to_dict())
                summary.counts[annotation.status] = summary.counts.get(annotation.status, 0) + 1
            bar.update(1)
    summary.wall_s = time.monotonic() - started
    return summary


def print_summary(summary: DescribeSummary, stream=None) -> None:
    for line in summary.lines():
        print(line, file=stream or sys.stderr)
