"""An LLM judge for open answers: versioned rubric prompts, strict structured verdicts, agreement
between judges or repeats, a score table with intervals (eval.scorers.judge_scores), and lexical and
optionally BERTScore similarity (eval.scorers.similarity) beside every grade.

Rubrics are files `eval/prompts/rubrics/<subject>.<language>.v<N>.md` (`default` when no subject has its
own): a persona, the rules, the scale 0, 0.25, 0.5, 0.75, 1.0 and the output format, with `$subject`,
`$question`, `$reference` and `$answer` filled in. The file's SHA-256 goes into every judgement, so
a changed rubric is a new version, never an edit in place.

The judge must answer with one JSON object `{"grade": G, "justification": "..."}` (a ```json fence
is tolerated). Anything else (malformed JSON, a grade off the scale, a string grade, extra fields,
an empty justification, a truncated or refused reply) is recorded as `unparseable` with the reason
and reported: it is never scored as 0. Any generative backend can judge (eval.models.base); only
technical failures are retried.

Public: `load_rubric`, `Rubric`, `OpenItem`, `Judge`, `Judgement`, `JudgeStatus`, `parse_verdict`,
`judge_items`, `quadratic_weighted_kappa`, `agreement`, `token_f1`, `chrf`, `spread_report`,
`read_items`, `judge_command` (token_f1, chrf and spread_report live in eval.scorers.similarity and
eval.scorers.judge_scores and are re-exported here).
"""
from __future__ import annotations

import json
import math
import re
import string
import time
import unicodedata
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, replace
from enum import Enum
from hashlib import sha256
from pathlib import Path

from eval.analysis import stats
from eval.models.base import GenerationRequest, GenerativeBackend, TechnicalFailure
from eval.models.errors import RequestRejected
from eval.models.redaction import redact_text, secret_values
from pipeline.infra import iter_jsonl
from eval.scorers.judge_scores import report_markdown, score_judges, scores_markdown, spread_report
from eval.scorers.similarity import chrf, token_f1

RUBRICS_DIR = Path(__file__).resolve().parents[1] / "prompts" / "rubrics"
SCALE = (0.0, 0.25, 0.5, 0.75, 1.0)
PLACEHOLDERS = ("question", "reference", "answer")
_RUBRIC_NAME = re.compile(r"(?P<subject>[\w-]+)\.(?P<language>[a-z]{2,3})\.v(?P<version>\d+)\.md")


class RubricError(ValueError):
    """A rubric file that is missing or cannot be used, named with its path."""


@dataclass(frozen=True)
class Rubric:
    subject: str
    language: str
    version: int
    path: Path
    text: str

    @property
    def name(self) -> str:
        return f"{self.subject}.{self.language}.v{self.version}"

    @property
    def sha256(self) -> str:
        return sha256(self.text.encode("utf-8")).hexdigest()

    def render(self, *, subject: str, question: str, reference: str, answer: str) -> str:
        try:
            return string.Template(self.text).substitute(subject=subject, question=question, reference=reference, answer=answer)
        except (KeyError, ValueError) as exc:
            raise RubricError(f"{self.path}: placeholder problem: {exc} (use $subject, $question, $reference, $answer)") from None


def _slug(subject: str) -> str:
    folded = unicodedata.normalize("NFKD", subject.casefold())
    return re.sub(r"[^a-z0-9]+", "-", "".join(c for c in folded if not unicodedata.combining(c))).strip("-")


def load_rubric(language: str, subject: str | None = None, *, version: int | None = None, folder: Path = RUBRICS_DIR) -> Rubric:
    """The subject's own rubric in the language, else `default`; the newest version unless one is named."""
    found = {}
    for path in sorted(Path(folder).glob("*.md")):
        match = _RUBRIC_NAME.fullmatch(path.name)
        if match and match["language"] == language:
            found.setdefault(match["subject"], {})[int(match["version"])] = path
    for name in ([_slug(subject)] if subject else []) + ["default"]:
        versions = found.get(name)
        if not versions:
            continue
        chosen = version if version is not None else max(versions)
        if chosen not in versions:
            raise RubricError(f"{folder}: rubric {name}.{language} has versions {sorted(versions)}, not v{chosen}")
        return _read_rubric(versions[chosen], name, language, chosen)
    raise RubricError(f"{folder}: no rubric for language {language!r} (looked for {_slug(subject or '') or 'default'}.{language}.vN.md "
                      f"and default.{language}.vN.md)")


def _read_rubric(path: Path, subject: str, language: str, version: int) -> Rubric:
    text = path.read_text(encoding="utf-8")
    missing = [p for p in PLACEHOLDERS if f"${p}" not in text]
    if missing:
        raise RubricError(f"{path}: rubric lacks the placeholder(s) {', '.join('$' + m for m in missing)}")
    absent = [g for g in ("0.25", "0.5", "0.75", "1.0") if g not in text]
    if absent:
        raise RubricError(f"{path}: rubric does not state the scale (missing {', '.join(absent)})")
    return Rubric(subject, language, version, path, text)


# --------------------------------------------------------------------------- verdicts


class JudgeStatus(str, Enum):
    GRADED = "graded"
    UNPARSEABLE = "unparseable"  # the judge answered, but not with a verdict on the scale
    TECHNICAL_FAILURE = "technical_failure"  # no answer from the judge after every retry


@dataclass(frozen=True)
class Verdict:
    grade: float | None
    justification: str | None
    problem: str | None  # why the reply is no verdict; None when it is one


_FENCE = re.compile(r"\A```(?:json)?\s*\n?(.*?)\n?```\Z", re.DOTALL)


def parse_verdict(text: str | None) -> Verdict:
    """The judge's reply as a verdict, strictly: one JSON object with exactly `grade` (a number on
    the scale) and `justification` (non-empty text)."""
    if not text or not text.strip():
        return Verdict(None, None, "empty reply")
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1).strip()
    try:
        data = json.loads(body)
    except ValueError as exc:
        return Verdict(None, None, f"not JSON ({exc.msg} at char {exc.pos}): {body[:80]!r}")
    if not isinstance(data, dict):
        return Verdict(None, None, f"JSON {type(data).__name__}, not an object")
    if set(data) != {"grade", "justification"}:
        return Verdict(None, None, f"fields {sorted(data)}; expected exactly ['grade', 'justification']")
    grade, justification = data["grade"], data["justification"]
    if isinstance(grade, bool) or not isinstance(grade, (int, float)):
        return Verdict(None, None, f"grade {grade!r} is not a number")
    on_scale = [s for s in SCALE if math.isclose(grade, s, abs_tol=1e-9)]
    if not on_scale:
        return Verdict(None, None, f"grade {grade!r} is off the scale {list(SCALE)}")
    if not isinstance(justification, str) or not justification.strip():
        return Verdict(None, None, "justification missing or empty")
    return Verdict(on_scale[0], justification.strip(), None)


# --------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class OpenItem:
    """One answer to grade: the task, its key (model answer) and the answer given."""

    qid: str
    language: str
    subject: str
    question: str
    reference: str
    answer: str
    group: str = ""  # who answered (a model, a run): the unit the spread report compares
    config: str = ""  # the dataset config the question comes from, when the answers file names it


@dataclass(frozen=True)
class Judgement:
    qid: str
    group: str
    judge: str  # the judge model as its backend describes it
    rubric: str
    rubric_sha256: str
    repeat: int
    status: str  # a JudgeStatus value
    grade: float | None
    justification: str | None
    problem: str | None
    reply: str | None  # the judge's raw text, for audit
    tries: int
    token_f1: float  # lexical similarity of answer and reference, beside the grade
    chrf: float
    bertscore_f1: float | None = None  # embedding similarity, when `eval judge --similarity-model` is given

    def to_dict(self) -> dict:
        return asdict(self)


class Judge:
    def __init__(self, backend: GenerativeBackend, *, rubrics: Path = RUBRICS_DIR, rubric_version: int | None = None,
                 max_tokens: int = 512, temperature: float = 0.0, seed: int | None = None, max_attempts: int = 3,
                 retry_delay_s: float = 0.5):
        self.backend = backend
        self.rubrics, self.rubric_version = Path(rubrics), rubric_version
        self.max_tokens, self.temperature, self.seed = max_tokens, temperature, seed
        self.max_attempts, self.retry_delay_s = max_attempts, retry_delay_s
        described = backend.describe()
        self.name = f"{described.get('backend', '?')}:{described.get('model', '?')}"

    def grade(self, item: OpenItem, repeat: int = 0) -> Judgement:
        rubric = load_rubric(item.language, item.subject, version=self.rubric_version, folder=self.rubrics)
        prompt = rubric.render(subject=item.subject, question=item.question, reference=item.reference, answer=item.answer)
        request = GenerationRequest(qid=item.qid, messages=({"role": "user", "content": prompt},), max_tokens=self.max_tokens,
                                    temperature=self.temperature, seed=None if self.seed is None else self.seed + repeat)
        status, verdict, reply, tries = self._ask(request)
        return Judgement(
            qid=item.qid, group=item.group, judge=self.name, rubric=rubric.name, rubric_sha256=rubric.sha256, repeat=repeat,
            status=status.value, grade=verdict.grade, justification=verdict.justification, problem=verdict.problem, reply=reply,
            tries=tries, token_f1=round(token_f1(item.answer, item.reference), 6), chrf=round(chrf(item.answer, item.reference), 6),
        )

    def _ask(self, request: GenerationRequest) -> tuple[JudgeStatus, Verdict, str | None, int]:
        for tries in range(1, self.max_attempts + 1):
            try:
                response = self.backend.generate(request)
            except RequestRejected as exc:  # the same request would be rejected again
                return JudgeStatus.TECHNICAL_FAILURE, Verdict(None, None, str(exc)), None, tries
            except TechnicalFailure as exc:
                if tries == self.max_attempts:
                    return JudgeStatus.TECHNICAL_FAILURE, Verdict(None, None, f"after {tries} tries: {exc}"), None, tries
                time.sleep(min(exc.retry_after or self.retry_delay_s * 2 ** (tries - 1), 30.0))
                continue
            if response.finish_reason == "length":
                return JudgeStatus.UNPARSEABLE, Verdict(None, None, "reply truncated at the token limit"), response.text, tries
            if response.finish_reason in ("refusal", "content_filter", "safety"):
                return JudgeStatus.UNPARSEABLE, Verdict(None, None, f"judge refused ({response.finish_reason})"), response.text, tries
            verdict = parse_verdict(response.text)
            return (JudgeStatus.GRADED if verdict.problem is None else JudgeStatus.UNPARSEABLE), verdict, response.text, tries
        raise AssertionError("max_attempts must be at least 1")


def judge_items(judge: Judge, items: list[OpenItem], *, repeats: int = 1, concurrency: int = 4) -> list[Judgement]:
    """Every item graded `repeats` times, in item then repeat order whatever the concurrency."""
    jobs = [(item, r) for item in items for r in range(repeats)]
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        return list(pool.map(lambda job: judge.grade(*job), jobs))


# --------------------------------------------------------------------------- agreement


def quadratic_weighted_kappa(first: list[float], second: list[float], categories: tuple[float, ...] = SCALE) -> float | None:
    """Cohen's kappa with quadratic weights over the ordered categories; None when it is undefined
    (no pairs, or both raters always gave one and the same grade, so chance agreement is total)."""
    if len(first) != len(second):
        raise ValueError(f"kappa needs paired grades: {len(first)} and {len(second)}")
    index = {c: i for i, c in enumerate(categories)}
    k, n = len(categories), len(first)
    if n == 0:
        return None
    observed = [[0.0] * k for _ in range(k)]
    for a, b in zip(first, second):
        observed[index[a]][index[b]] += 1
    rows = [sum(observed[i]) for i in range(k)]
    cols = [sum(observed[i][j] for i in range(k)) for j in range(k)]
    weight = lambda i, j: (i - j) ** 2 / (k - 1) ** 2  # noqa: E731
    disagreement = sum(weight(i, j) * observed[i][j] for i in range(k) for j in range(k))
    expected = sum(weight(i, j) * rows[i] * cols[j] / n for i in range(k) for j in range(k))
    return None if expected == 0 else 1.0 - disagreement / expected


@dataclass(frozen=True)
class Agreement:
    first: str
    second: str
    n: int  # pairs where both sides graded
    kappa: float | None
    exact_pct: float | None
    left_out: tuple[str, ...]  # "qid/group: reason" for pairs without two grades


def agreement(first: list[Judgement], second: list[Judgement], *, names: tuple[str, str] = ("first", "second")) -> Agreement:
    """Two judges, or two repeats of one, paired on (question, group)."""
    a = {(j.qid, j.group): j for j in first}
    b = {(j.qid, j.group): j for j in second}
    pairs, left_out = [], []
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key), b.get(key)
        problems = [f"{name} {j.status if j else 'missing'}" for name, j in zip(names, (x, y)) if j is None or j.grade is None]
        if problems:
            left_out.append(f"{key[0]}/{key[1] or '-'}: {', '.join(problems)}")
        else:
            pairs.append((x.grade, y.grade))
    kappa = quadratic_weighted_kappa([p[0] for p in pairs], [p[1] for p in pairs])
    exact = 100.0 * sum(p[0] == p[1] for p in pairs) / len(pairs) if pairs else None
    return Agreement(names[0], names[1], len(pairs), kappa, exact, tuple(left_out))


# --------------------------------------------------------------------------- the command


def read_items(path: Path) -> list[OpenItem]:
    """JSONL, one answer a line: qid, language, subject, question, reference, answer (, group, config)."""
    items, fields, optional, seen = [], {"qid", "language", "subject", "question", "reference", "answer"}, {"group", "config"}, {}
    for number, data in iter_jsonl(path, tail="parse"):
        missing = fields - set(data) if isinstance(data, dict) else fields
        unknown = set(data) - fields - optional if isinstance(data, dict) else set()
        if missing or unknown:
            raise ValueError(f"{path}:{number}: missing {sorted(missing)}, unknown {sorted(unknown)}")
        bad = [f for f in fields | optional if f in data and not isinstance(data[f], str)]
        if bad:
            raise ValueError(f"{path}:{number}: {', '.join(sorted(bad))} must be text")
        item = OpenItem(**data)
        key = (item.qid, item.group)
        if key in seen:  # grades, agreement and scores are all keyed by the answer
            raise ValueError(f"{path}:{number}: answer {item.qid} of group {item.group or '-'} already on line {seen[key]}")
        seen[key] = number
        items.append(item)
    if not items:
        raise ValueError(f"{path}: no answers to grade")
    return items


def make_backend(model: str, *, base_url: str | None, api_key_env: str | None, timeout_s: float) -> GenerativeBackend:
    """A judge backend from `BACKEND:NAME`, built by the same registry runs use."""
    from eval.models.registry import backend_entry, split_model
    from eval.run.plan import ModelSettings

    prefix, name = split_model(model)
    entry = backend_entry(prefix)
    if entry.kind != "generative":
        raise ValueError(f"{model}: a judge must generate text; {prefix}: scores by {entry.kind}")
    return entry.factory(ModelSettings(backend=prefix, name=name, base_url=base_url, api_key_env=api_key_env, timeout_s=timeout_s))


def judge_command(answers: Path, judges: list[GenerativeBackend], *, out: Path, repeats: int = 1, concurrency: int = 4,
                  max_tokens: int = 512, seed: int | None = None, retry_delay_s: float = 0.5, similarity_model: Path | None = None,
                  similarity_layer: int | None = None, resamples: int = stats.DEFAULT_RESAMPLES,
                  bootstrap_seed: int = stats.DEFAULT_SEED) -> tuple[int, str]:
    """Grade every answer with every judge; write judgements.jsonl, scores.json and scores.md (mean
    grades with intervals), judge_summary.json and judge_report.md. Exit code 0 when every answer got
    a grade, 2 when some did not (listed)."""
    from pipeline.infra import write_text_atomic

    items = read_items(answers)
    bertscore, similarity = {}, None
    if similarity_model is not None:  # loaded before any judge is asked, so a bad model costs no requests
        from eval.scorers.similarity import BertScorer, ContextualEmbedder

        embedder = ContextualEmbedder(similarity_model, layer=similarity_layer)
        scorer, similarity = BertScorer(embedder), embedder.describe()
        bertscore = {(i.qid, i.group): round(scorer.score(i.answer, i.reference).f1, 6) for i in items}
    records: list[Judgement] = []
    by_judge: dict[str, list[Judgement]] = {}
    described: dict[str, dict] = {}
    for backend in judges:
        judge = Judge(backend, max_tokens=max_tokens, seed=seed, retry_delay_s=retry_delay_s)
        got = judge_items(judge, items, repeats=repeats, concurrency=concurrency)
        if bertscore:
            got = [replace(j, bertscore_f1=bertscore[(j.qid, j.group)]) for j in got]
        by_judge.setdefault(judge.name, []).extend(got)
        described[judge.name] = {"backend": backend.describe(), "seed": seed, "temperature": judge.temperature,
                                 "max_tokens": judge.max_tokens, "rubric_version": judge.rubric_version}
        records.extend(got)
    comparisons = []
    for name, got in by_judge.items():
        if repeats > 1:
            comparisons.append(agreement([j for j in got if j.repeat == 0], [j for j in got if j.repeat == 1],
                                         names=(f"{name} repeat 0", f"{name} repeat 1")))
    names = list(by_judge)
    if len(names) > 1:
        comparisons.append(agreement([j for j in by_judge[names[0]] if j.repeat == 0], [j for j in by_judge[names[1]] if j.repeat == 0],
                                     names=(names[0], names[1])))
    ungraded = [j for j in records if j.grade is None]
    summary = {
        "answers": len(items), "judgements": len(records),
        "status": dict(sorted(Counter(j.status for j in records).items())),
        "ungraded": [f"{j.qid}/{j.group or '-'} {j.judge} repeat {j.repeat}: {j.status}: {j.problem}" for j in ungraded],
        "agreement": [asdict(a) | {"left_out": list(a.left_out)} for a in comparisons],
        "spread": {name: spread_report(got) for name, got in by_judge.items()},
        "similarity_model": similarity,
    }
    answers_file = {"file": Path(answers).name, "sha256": sha256(Path(answers).read_bytes()).hexdigest()}
    scores = score_judges(by_judge, items, judges=described, resamples=resamples, seed=bootstrap_seed,
                          settings={"answers": answers_file, "repeats": repeats, "similarity_model": similarity})
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    # A judge may echo the key it was sent (in a reply or an error): no written or printed text keeps it.
    secrets = secret_values([(d.get("backend") or {}).get("api_key_env") for d in described.values()])

    def write(name: str, text: str) -> str:
        text = redact_text(text, secrets)
        write_text_atomic(out / name, text)
        return text

    write("judgements.jsonl", "".join(json.dumps(j.to_dict(), ensure_ascii=False) + "\n" for j in records))
    write("scores.json", json.dumps(scores, ensure_ascii=False, indent=2) + "\n")
    write("scores.md", scores_markdown(scores))
    write("judge_summary.json", json.dumps(summary, ensure_ascii=False, indent=2) + "\n")
    report = write("judge_report.md", report_markdown(summary))
    return (2 if ungraded else 0), report


__all__ = ["Agreement", "Judge", "JudgeStatus", "Judgement", "OpenItem", "Rubric", "RubricError", "SCALE", "Verdict", "agreement",
           "chrf", "judge_command", "judge_items", "load_rubric", "make_backend", "parse_verdict", "quadratic_weighted_kappa",
           "read_items", "spread_report", "token_f1"]
