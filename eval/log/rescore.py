"""Auditing a run folder from its contents alone: `examcorpus eval rescore RUN`.

Four checks, all reported, none short-circuiting the others so that one run shows every problem:
1. the folder matches its manifest (eval.log.integrity): no file changed, missing or added;
2. every attempt's stored status and extracted label equal what its own evidence gives
   (eval.log.recompute): the response and finish reason, or the log-probabilities, with the key and
   the protocol's extraction rule;
3. scores.json is reproduced byte for byte from the recomputed statuses;
4. run.json's publishability is what the recomputed statuses give.
Scores always come from the recomputed statuses, so an edited status cannot move them.

Public: `audit(run) -> Audit`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from eval.log import scoring
from eval.log.integrity import Verification, verify
from eval.log.recompute import StatusMismatch
from eval.log.records import RunState, Scores
from eval.log.runfolder import ATTEMPTS, SCORES, STATE, dumps, read_json, read_record


@dataclass
class Audit:
    run: Path
    verification: Verification
    scores: Scores  # recomputed
    scores_text: str
    mismatches: list[StatusMismatch] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # everything that is wrong, one line each
    finished: bool = True  # scores.json exists

    @property
    def exit_code(self) -> int:
        if self.problems:
            return 1
        return 0 if self.finished else 2


def audit(run: str | Path) -> Audit:
    run = Path(run)
    verification = verify(run)
    matrix = scoring.load_matrix(run)
    scores = scoring.score_matrix(matrix)
    text = dumps(scores)
    result = Audit(run, verification, scores, text, list(matrix.mismatches))
    result.problems += verification.reasons()
    if matrix.mismatches:
        result.problems.append(f"{run / ATTEMPTS}: {len(matrix.mismatches)} attempt(s) whose stored status or label "
                               "differs from what their response and the key give:")
        result.problems += [f"  {m.describe()}" for m in matrix.mismatches]
        as_stored = scoring.score_matrix(matrix.with_statuses(matrix.stored_statuses))
        if dumps(as_stored) != text:
            result.problems.append(
                f"{run / ATTEMPTS}: scoring its stored statuses gives a result that differs from the recomputed scores "
                f"(overall accuracy {as_stored.overall.accuracy_pct:.2f}% as stored, "
                f"{scores.overall.accuracy_pct:.2f}% recomputed); the recomputed scores are the ones shown"
            )
    stored = run / SCORES
    if not stored.exists():
        result.finished = False
    elif stored.read_text(encoding="utf-8") != text:
        version = read_json(stored).get("scores_version")
        why = "" if version == scoring.SCORES_VERSION else f" (it is scores_version {version}, this code writes {scoring.SCORES_VERSION})"
        result.problems.append(f"{stored}: differs from the recomputed scores{why}")
    state_file = run / STATE
    if result.finished and state_file.exists():
        state = read_record(state_file, RunState)
        reasons = scoring.run_blocking_reasons(matrix)
        if state.publishable != (not reasons):
            result.problems.append(f"{state_file}: says publishable={state.publishable}, but the recomputed "
                                   f"statuses give publishable={not reasons}" + (f" ({'; '.join(reasons)})" if reasons else ""))
    return result
