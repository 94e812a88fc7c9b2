"""Every attempt's status recomputed from its raw evidence, never taken from the stored field.

The evidence is what the model produced: the response text and finish reason (generative), or the
options' log-probabilities (log-likelihood), together with the prompt's answer key and the
protocol's extraction rule. A stored status is only a cache of that computation; scoring uses the
recomputed one, and every attempt whose stored status (or extracted label) disagrees is reported,
so an edited attempts.jsonl cannot move a score.

Public: `recompute(attempt, prompt, rule, kind) -> Recomputed`, `StatusMismatch`.
"""
from __future__ import annotations

from dataclasses import dataclass

from eval.scorers.answers import ExtractionRule, Status, classify_generation, first_argmax


@dataclass(frozen=True)
class Recomputed:
    status: str
    extracted: str | None


@dataclass(frozen=True)
class StatusMismatch:
    """One attempt line whose stored status or extracted label is not what its evidence gives."""

    line: int  # 1-based line in attempts.jsonl
    qid: str
    repeat: int
    attempt: int
    stored_status: str | None
    recomputed_status: str
    stored_extracted: str | None
    recomputed_extracted: str | None

    def describe(self) -> str:
        what = f"attempts.jsonl:{self.line}: {self.qid} repeat {self.repeat} attempt {self.attempt}: "
        if self.stored_status != self.recomputed_status:
            what += f"stored status {self.stored_status!r}, recomputed {self.recomputed_status!r}"
        else:
            what += f"status {self.stored_status!r} agrees"
        if self.stored_extracted != self.recomputed_extracted:
            what += f"; stored extracted label {self.stored_extracted!r}, recomputed {self.recomputed_extracted!r}"
        return what


def recompute(attempt: dict, prompt: dict, rule: ExtractionRule, kind: str) -> Recomputed:
    """The status an attempt's own evidence gives. `kind` is the plan's backend kind."""
    if "error" in attempt:
        # A transport or service failure: there is no answer to score, whatever the line claims.
        return Recomputed(Status.TECHNICAL_FAILURE.value, None)
    labels = list(prompt["labels"])
    if kind == "loglikelihood":
        logprobs = attempt.get("logprobs")
        if not isinstance(logprobs, list) or len(logprobs) != len(labels):
            # No usable evidence: nothing can be credited.
            return Recomputed(Status.EXTRACTION_FAILURE.value, None)
        label = labels[first_argmax([float(x) for x in logprobs])]
        status = Status.CORRECT if label == prompt["answer"] else Status.WRONG
        return Recomputed(status.value, label)
    status, extraction = classify_generation(
        text=attempt.get("response"), finish_reason=attempt.get("finish_reason"), labels=labels,
        answer=prompt["answer"], language=prompt["language"], rule=rule,
    )
    return Recomputed(status.value, extraction.label)


def mismatch(line: int, attempt: dict, result: Recomputed) -> StatusMismatch | None:
    stored_extracted = attempt.get("extracted")
    if attempt.get("status") == result.status and stored_extracted == result.extracted:
        return None
    return StatusMismatch(
        line=line, qid=attempt["qid"], repeat=attempt["repeat"], attempt=attempt["attempt"],
        stored_status=attempt.get("status"), recomputed_status=result.status,
        stored_extracted=stored_extracted, recomputed_extracted=result.extracted,
    )
