"""Possible answer-key errors: questions on which several models doubt the key the same way.

Two signals, one per kind of run. A log-likelihood run gives each option a probability (softmax of
the option log-likelihoods, averaged over repeats); a model "doubts" the key when it gives the keyed
option less than `low_prob`. A generative run gives an answer; models "agree on another option" when
they pick the same option that is not the key. A question is a candidate when at least `min_models`
models doubt its key or agree on one other option; candidates are ranked by how many models do, then
by how little probability the key gets. This is a list for a curator to check, not a verdict: hard
questions produce the same pattern, which is why the report shows the question, options and votes.

A report is a file handed on (to a curator, a publisher, an issue), so the text of a question scored on the private
split is left out of it (its id, key, votes and audit link stay) unless asked for (`private_text`), and a report that
holds the text of questions not of the public split says so in its first lines and in a `split` column: the text of a
private question would otherwise stand, unmarked, in a file whose name says nothing of where its questions come from.
"""
from __future__ import annotations

import io
import math
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from eval.analysis.csvcells import csv_writer
from eval.analysis.runset import RunSummary, question_texts
from eval.log.runfolder import ATTEMPTS, PROMPTS, read_jsonl

DEFAULT_LOW_PROB = 0.05
DEFAULT_MIN_MODELS = 2
PUBLIC_SPLIT, PRIVATE_SPLIT = "public", "private"


@dataclass(frozen=True)
class Vote:
    model: str
    label: str | None  # the option the model picked (majority over repeats); None: no answer
    p_key: float | None  # log-likelihood runs only: probability of the keyed option


@dataclass
class Candidate:
    qid: str
    config: str
    language: str
    meta: dict
    key: str
    labels: list[str]
    votes: list[Vote]
    question: str = ""
    options: list[str] = field(default_factory=list)
    suggested: str | None = None  # the other option most models picked
    agreeing: int = 0  # models that picked `suggested`
    low_probability: int = 0  # models that gave the key < low_prob
    audit_url: str = ""
    split: str = "unknown"  # of the run its text comes from (eval.data): public, private, all (private included), unknown
    withheld: bool = False  # its text is a private question's, left out of the report

    @property
    def strength(self) -> int:
        return max(self.agreeing, self.low_probability)

    @property
    def mean_p_key(self) -> float | None:
        ps = [v.p_key for v in self.votes if v.p_key is not None]
        return sum(ps) / len(ps) if ps else None


def _softmax(logprobs: list[float]) -> list[float]:
    top = max(logprobs)
    weights = [math.exp(x - top) for x in logprobs]
    total = sum(weights)
    return [w / total for w in weights]


def run_votes(run: Path, model: str) -> tuple[list[dict], dict[str, Vote]]:
    """The run's prompts and each question's vote, from the final attempt of every repeat."""
    prompts = read_jsonl(run / PROMPTS)
    latest: dict[tuple[str, int], dict] = {}
    for a in read_jsonl(run / ATTEMPTS, allow_partial_tail=True):
        key = (a["qid"], a["repeat"])
        if key not in latest or a["attempt"] > latest[key]["attempt"]:
            latest[key] = a
    by_qid: dict[str, list[dict]] = {}
    for (qid, _), a in latest.items():
        by_qid.setdefault(qid, []).append(a)
    votes = {}
    for p in prompts:
        attempts = by_qid.get(p["qid"], [])
        labels = Counter(a.get("extracted") for a in attempts if a.get("extracted"))
        # ties go to the earliest label, so the vote does not depend on attempt order
        label = min(labels, key=lambda x: (-labels[x], p["labels"].index(x) if x in p["labels"] else 99)) if labels else None
        probs = [_softmax(a["logprobs"]) for a in attempts if a.get("logprobs")]
        p_key = None
        if probs and p["answer"] in p["labels"]:
            k = p["labels"].index(p["answer"])
            p_key = sum(pr[k] for pr in probs) / len(probs)
        votes[p["qid"]] = Vote(model, label, p_key)
    return prompts, votes


def find_candidates(runs: list[RunSummary], *, low_prob: float = DEFAULT_LOW_PROB, min_models: int = DEFAULT_MIN_MODELS,
                    audit_url: str | None = None, private_text: bool = False) -> list[Candidate]:
    """The questions several models doubt the key of, ranked; a private split's question without its text unless
    `private_text`."""
    if not 0 < low_prob < 1:
        raise ValueError(f"--low-prob must be between 0 and 1, got {low_prob}")
    newest: dict[str, RunSummary] = {}
    for r in sorted(runs, key=lambda r: (r.finished_at, r.run_id)):
        newest[r.model] = r  # one vote per model: its newest run
    per_question: dict[str, Candidate] = {}
    texts: dict[str, tuple[str, list[str]]] = {}
    splits: dict[str, str] = {}  # a question's text's split: private where any run holding it scored the private split
    for model, summary in sorted(newest.items()):
        prompts, votes = run_votes(summary.path, summary.name or model)  # a vote is shown under the model's name
        texts.update(question_texts(summary.path))
        for p in prompts:
            splits[p["qid"]] = max(splits.get(p["qid"], PUBLIC_SPLIT), summary.split, key=privacy_rank)
        for p in prompts:
            c = per_question.setdefault(p["qid"], Candidate(p["qid"], p["config"], p["language"], p.get("meta", {}), p["answer"],
                                                            list(p["labels"]), []))
            if (c.key, c.labels) != (p["answer"], list(p["labels"])):
                raise ValueError(f"{summary.path / PROMPTS}: {p['qid']} has key {p['answer']} over {p['labels']}, "
                                 f"another run has {c.key} over {c.labels}: runs on different data versions")
            c.votes.append(votes[p["qid"]])
    out = []
    for c in per_question.values():
        others = Counter(v.label for v in c.votes if v.label and v.label != c.key)
        if others:
            c.suggested, c.agreeing = min(others.items(), key=lambda kv: (-kv[1], c.labels.index(kv[0]) if kv[0] in c.labels else 99))
        c.low_probability = sum(1 for v in c.votes if v.p_key is not None and v.p_key < low_prob)
        if c.strength >= min_models:
            c.split = splits.get(c.qid, "unknown")
            c.withheld = c.split == PRIVATE_SPLIT and not private_text and c.qid in texts
            c.question, c.options = ("", []) if c.withheld else texts.get(c.qid, ("", []))
            c.audit_url = audit_url.format(qid=c.qid) if audit_url else ""
            out.append(c)
    out.sort(key=lambda c: (-c.strength, -(c.agreeing + c.low_probability), c.mean_p_key if c.mean_p_key is not None else 1.0, c.qid))
    return out


def privacy_rank(split: str) -> int:
    """How private a split's questions are: the public split's least, the private split's most, all and unknown
    between (they hold private questions, or may)."""
    return 0 if split == PUBLIC_SPLIT else 2 if split == PRIVATE_SPLIT else 1


def privacy_note(candidates: list[Candidate]) -> str:
    """What of the report is not public, in words; empty where every question shown is of the public split."""
    withheld = sum(c.withheld for c in candidates)
    private = [c for c in candidates if not c.withheld and c.question and c.split != PUBLIC_SPLIT]
    notes = []
    if private:
        splits = ", ".join(sorted({c.split for c in private}))
        notes.append(f"NOT PUBLIC: this report holds the text of {len(private)} question(s) not of the public split "
                     f"(split {splits}): keep it with the private data, do not publish it.")
    if withheld:
        notes.append(f"The text of {withheld} question(s) of the private split is left out (their ids, keys and votes "
                     f"stay; `--private-text` writes it, and the report then says so).")
    return " ".join(notes)


def _votes_text(c: Candidate) -> str:
    return "; ".join(f"{v.model}={v.label or '?'}" + (f" (p key {v.p_key:.3f})" if v.p_key is not None else "") for v in c.votes)


def to_csv(candidates: list[Candidate]) -> str:
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(["rank", "qid", "config", "language", "year", "sheet_code", "number", "key", "suggested", "agreeing",
                     "low_probability", "models", "mean_p_key", "votes", "question", "options", "audit_url", "split"])
    for rank, c in enumerate(candidates, 1):
        writer.writerow([rank, c.qid, c.config, c.language, c.meta.get("year"), c.meta.get("sheet_code"), c.meta.get("number"),
                         c.key, c.suggested or "", c.agreeing, c.low_probability, len(c.votes),
                         "" if c.mean_p_key is None else round(c.mean_p_key, 6), _votes_text(c), c.question,
                         " | ".join(f"{l}. {o}" for l, o in zip(c.labels, c.options)), c.audit_url,
                         c.split + (" (text left out)" if c.withheld else "")])
    return buffer.getvalue()


def to_markdown(candidates: list[Candidate], *, low_prob: float, min_models: int, models: list[str]) -> str:
    note = privacy_note(candidates)
    lines = ["# Possible answer-key errors", "", *([f"**{note}**", ""] if note else []),
             f"Models: {', '.join(models)}. A question is listed when at least {min_models} models give the keyed option "
             f"a probability below {low_prob:g} (log-likelihood runs) or pick the same other option (generative runs).", ""]
    if not candidates:
        return "\n".join(lines + ["No candidates."]) + "\n"
    for rank, c in enumerate(candidates, 1):
        where = " ".join(str(c.meta.get(k)) for k in ("year", "session", "sheet_code") if c.meta.get(k))
        lines += [f"## {rank}. {c.qid} ({c.config}, {where}, question {c.meta.get('number', '?')})", ""]
        if c.audit_url:
            lines += [f"[open in the extraction audit]({c.audit_url})", ""]
        if c.question:
            lines += [c.question.replace("\n", " "), ""]
        elif c.withheld:
            lines += ["*(a question of the private split: its text is left out)*", ""]
        for label, option in zip(c.labels, c.options):
            mark = " **(key)**" if label == c.key else (" *(models' choice)*" if label == c.suggested else "")
            lines.append(f"- {label}. {option}{mark}")
        if c.options:
            lines.append("")
        mean = f", mean probability of the key {c.mean_p_key:.3f}" if c.mean_p_key is not None else ""
        lines += [f"Key {c.key}; {c.agreeing} model(s) chose {c.suggested or '–'}; {c.low_probability} gave the key "
                  f"below {low_prob:g}{mean}.", "", "| model | answer | p(key) |", "|---|---|---:|"]
        lines += [f"| {v.model} | {v.label or '–'} | {'–' if v.p_key is None else f'{v.p_key:.3f}'} |" for v in c.votes]
        lines.append("")
    return "\n".join(lines)


def write_key_errors(candidates: list[Candidate], out: Path, *, low_prob: float, min_models: int, models: list[str]) -> list[Path]:
    from pipeline.infra import write_text_atomic

    out.mkdir(parents=True, exist_ok=True)
    written = [out / "key_errors.csv", out / "key_errors.md"]
    write_text_atomic(written[0], to_csv(candidates))
    write_text_atomic(written[1], to_markdown(candidates, low_prob=low_prob, min_models=min_models, models=models))
    return written
