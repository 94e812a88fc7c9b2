"""Few-shot examples from a declared pool, never from the questions being scored.

`--fewshot K --fewshot-pool POOL` shows K solved examples before every question. The pool is:
- `public-split`: the split stage's public part (`build/split/public.parquet`, checked against the
  SHA-256 its `split.json` records), or any split folder holding a `split.json`;
- a Parquet file of curated questions (pipeline.records' schema), or a JSONL file, one record a line.

Which pool questions may serve a scored question: the same family (its `source`, the unit the split
stage divides by year) and language, of another year than every scored question of that family, closed
and keyed (`is_scorable`), and neither a scored question's id nor its normalised text
(`pipeline.split.question_text`, since exams reuse questions across years). What the pool held that
was left out, and why, is recorded.

Which K are shown: for each family and language, the K candidates whose sha256(seed, id) is lowest,
in that order; so the choice is deterministic, the same for every question of the family, changes
with `--fewshot-seed`, and does not depend on Python's random module across versions. The chosen ids
go into `plan.json` (per family and language) and into each prompt's `shot_ids`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pyarrow as pa
import pyarrow.parquet as pq

from eval.prompts.protocols import is_scorable
from pipeline.infra import JsonlError, iter_jsonl
from pipeline.records import Question, conform_to_schema, table_to_questions
from pipeline.split import read_split, question_text

PUBLIC_SPLIT = "public-split"
DEFAULT_SPLIT_FOLDER = Path("build/split")


class FewshotError(ValueError):
    """An unusable pool, or too few examples in it; the message names the pool and the problem."""


@dataclass(frozen=True)
class Pool:
    location: str  # as declared: "public-split", a split folder, or a file
    path: Path  # the file the questions were read from
    sha256: str
    questions: tuple[Question, ...]


@dataclass
class FewshotChoice:
    k: int
    seed: int
    pool: Pool
    shots: dict[tuple[str, str], list[Question]]  # (source, language) -> the K examples, in order
    excluded: dict[str, list[str]] = field(default_factory=dict)  # reason -> pool ids left out

    def shots_for(self, q: Question) -> list[Question]:
        return self.shots[(q.source, q.language)]

    def to_plan(self) -> dict:
        """What plan.json records: the pool's pin, the rule, the ids used and the ids left out."""
        return {
            "k": self.k,
            "seed": self.seed,
            "pool": {"location": self.pool.location, "path": str(self.pool.path), "sha256": self.pool.sha256,
                     "questions": len(self.pool.questions)},
            "rule": "same source and language, another year than the scored questions, closed and keyed, not a scored "
                    "id or text; the k lowest sha256(seed:id)",
            "shot_ids": {f"{source}/{language}": [q.id for q in shots] for (source, language), shots in sorted(self.shots.items())},
            "excluded": {reason: sorted(ids) for reason, ids in sorted(self.excluded.items())},
        }


def load_pool(location: str, *, root: Path | None = None) -> Pool:
    """The pool's questions: `public-split` (build/split under `root`, default the working folder), a
    split folder, or a Parquet / JSONL file of question records."""
    base = Path(root) if root is not None else Path(".")
    path = base / DEFAULT_SPLIT_FOLDER if location == PUBLIC_SPLIT else Path(location)
    if path.is_dir():
        if not (path / "split.json").is_file():
            raise FewshotError(f"{path}: few-shot pool folder has no split.json (run `examcorpus split`, or give a Parquet/JSONL file)")
        try:
            questions = read_split(path).questions("public")  # refused if changed since its leakage guard
        except ValueError as exc:
            raise FewshotError(f"few-shot pool {location}: {exc}") from None
        file = path / "public.parquet"
        return Pool(location, file, _sha256(file), tuple(questions))
    if not path.is_file():
        raise FewshotError(f"{path}: few-shot pool not found (expected {PUBLIC_SPLIT}, a split folder, or a .parquet/.jsonl file)")
    if path.suffix == ".parquet":
        try:
            questions = table_to_questions(conform_to_schema(pq.read_table(path)))
        except (OSError, KeyError, pa.ArrowException) as exc:
            raise FewshotError(f"{path}: not a Parquet file of question records ({exc})") from None
    elif path.suffix == ".jsonl":
        questions = _read_jsonl(path)
    else:
        raise FewshotError(f"{path}: few-shot pool must be .parquet or .jsonl (or {PUBLIC_SPLIT})")
    return Pool(location, path, _sha256(path), tuple(questions))


def _read_jsonl(path: Path) -> list[Question]:
    questions = []
    try:
        for number, row in iter_jsonl(path, tail="parse"):
            try:
                questions.append(Question.from_row(row))
            except (TypeError, KeyError) as exc:
                raise FewshotError(f"{path}:{number}: not a question record ({type(exc).__name__}: {exc})") from None
    except JsonlError as exc:
        raise FewshotError(f"{exc.where}: not a question record ({exc.reason})") from None
    return questions


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _rank(seed: int, qid: str) -> str:
    return hashlib.sha256(f"{seed}:{qid}".encode()).hexdigest()


def choose_fewshot(pool: Pool, scored: list[Question], k: int, *, seed: int = 0) -> FewshotChoice:
    """The K examples for each family and language of the scored questions, from the pool alone."""
    if k < 1:
        raise FewshotError(f"few-shot pool {pool.location}: k must be at least 1, got {k}")
    scored_ids = {q.id for q in scored}
    scored_texts = {question_text(q) for q in scored}
    scored_years: dict[str, set[int]] = {}
    for q in scored:
        scored_years.setdefault(q.source, set()).add(q.year)
    excluded: dict[str, list[str]] = {}
    candidates: dict[tuple[str, str], list[Question]] = {}
    for p in pool.questions:
        reason = _exclusion(p, scored_ids, scored_texts, scored_years)
        if reason:
            excluded.setdefault(reason, []).append(p.id)
            continue
        candidates.setdefault((p.source, p.language), []).append(p)
    shots: dict[tuple[str, str], list[Question]] = {}
    for group in sorted({(q.source, q.language) for q in scored}):
        found = sorted(candidates.get(group, []), key=lambda p: _rank(seed, p.id))
        if len(found) < k:
            raise FewshotError(
                f"{pool.path}: {k}-shot needs {k} pool questions of source {group[0]} and language {group[1]} from "
                f"other years than the scored ones ({sorted(scored_years[group[0]])}); the pool has {len(found)}")
        shots[group] = found[:k]
    return FewshotChoice(k, seed, pool, shots, excluded)


def _exclusion(p: Question, scored_ids: set[str], scored_texts: set[str], scored_years: dict[str, set[int]]) -> str | None:
    """Why pool question p may not be shown, or None. Scored-question checks come first, so the plan
    names every scored question the pool held."""
    if p.id in scored_ids:
        return "scored question id"
    if question_text(p) in scored_texts:
        return "same text as a scored question"
    if p.year in scored_years.get(p.source, ()):
        return "same year as scored questions of its source"
    unusable = is_scorable(p)
    if unusable:
        return f"not usable as an example: {unusable}"
    return None


def build_fewshot_prompts(builder, questions: list[Question], config_of: Callable[[Question], str], choice: FewshotChoice) -> list:
    """Each question's prompt with its family's examples rendered before it (protocols.PromptBuilder)."""
    return [builder.build(q, config_of(q), choice.shots_for(q)) for q in questions]
