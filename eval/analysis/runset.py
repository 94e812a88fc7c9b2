"""Finding run folders and reading what the analyses need from each: who, on what, when, and how well.

A run folder is a folder with plan.json (eval.log.runfolder). Only finished, publishable runs enter an
analysis; the others are listed with the reason, so a leaderboard never silently mixes in a run that
is still missing answers.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from eval.log.records import RunState
from eval.models.naming import model_label
from eval.log.runfolder import ATTEMPTS, PLAN, SCORES, SESSIONS, STATE, read_json, read_jsonl, read_record


@dataclass(frozen=True)
class GroupScore:
    config: str  # the dataset (a release's config, else the question's source)
    language: str
    n_questions: int
    accuracy_pct: float
    ci_low: float | None = None  # the run's 95 % bootstrap interval (scores.json), None in an older layout
    ci_high: float | None = None


@dataclass
class RunSummary:
    path: Path
    run_id: str
    model: str  # BACKEND:NAME, the model's id (a local model's weights path): what identifies it
    api: str  # the backend: openai, gemini, hf
    effort: str  # reasoning effort, "" when none was set
    dataset_id: str
    protocol: str  # NAME@VERSION, then every setting that changes the numbers and is not the default (`setup_text`)
    backend_kind: str  # generative | loglikelihood
    finished_at: str  # ISO time of the last recorded attempt (or session start)
    groups: list[GroupScore] = field(default_factory=list)
    split: str = "unknown"  # which questions of the data (eval.data): public, private, all; unknown before it was recorded
    name: str = ""  # what tables call the model (eval.models.naming.model_label), never a path


@dataclass
class Skipped:
    path: Path
    reason: str


def find_runs(paths: list[str | Path]) -> list[Path]:
    """Each path is a run folder, or a folder searched (recursively) for run folders."""
    found: list[Path] = []
    for path in map(Path, paths):
        if not path.exists():
            raise ValueError(f"{path}: no such run folder or directory")
        if (path / PLAN).exists():
            found.append(path)
            continue
        inside = sorted(p.parent for p in path.rglob(PLAN))
        if not inside:
            raise ValueError(f"{path}: no run folders (folders with {PLAN}) here")
        found += inside
    return sorted(set(found))


def _finished_at(run: Path) -> str:
    attempts = read_jsonl(run / ATTEMPTS, allow_partial_tail=True)
    times = [a["time"] for a in attempts if a.get("time")]
    if times:
        return max(times)
    sessions = read_jsonl(run / SESSIONS, allow_partial_tail=True)
    return max((s.get("started_at", "") for s in sessions), default="")


def summarise(run: Path) -> RunSummary | Skipped:
    state = read_record(run / STATE, RunState) if (run / STATE).exists() else None
    if not state or not state.complete:
        return Skipped(run, "not finished (no complete run.json): resume it with `eval run --out`")
    if not state.publishable:
        return Skipped(run, "finished but not publishable: " + "; ".join(state.reasons))
    if not (run / SCORES).exists():
        return Skipped(run, f"no {SCORES}")
    plan, scores = read_json(run / PLAN), read_json(run / SCORES)
    model = plan["plan"]["model"]
    try:
        groups = [GroupScore(g["config"], g["language"], int(g["n_questions"]), float(g["accuracy_pct"]),
                             _number(g.get("ci_low")), _number(g.get("ci_high"))) for g in scores["groups"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{run / SCORES}: unexpected layout ({exc!r})") from None
    return RunSummary(
        path=run, run_id=run.name, model=f"{model['backend']}:{model['name']}", api=model["backend"],
        effort=model.get("reasoning_effort") or "", dataset_id=plan["plan"]["data_pin"]["dataset_id"],
        protocol=" ".join(filter(None, (f"{plan['protocol']['name']}@{plan['protocol']['version']}", setup_text(run_setup(plan))))),
        backend_kind=plan.get("backend_kind", ""),
        finished_at=_finished_at(run), groups=groups, split=plan["plan"]["data_pin"].get("split") or "unknown",
        name=model_label(model),
    )


# What changes a run's numbers besides its data, split, model, effort and protocol name@version, with the
# value a plan has when it was not given: runs that differ in any of these never share a leaderboard
# slot or row, nor are compared (eval.analysis.compare), without it being said.
SETUP_DEFAULTS: dict[str, object] = {"shots": 0, "fewshot": 0, "fewshot_pool": None, "fewshot_seed": 0, "limit": None,
                                     "temperature": 0.0, "system_prompt": None}


def run_setup(plan: dict) -> dict[str, object]:
    """The number-changing settings of a run's stored plan.json (SETUP_DEFAULTS' keys)."""
    settings, model = plan["plan"], plan["plan"].get("model") or {}
    system = model.get("system_prompt")
    return {
        "shots": settings.get("shots", 0), "fewshot": settings.get("fewshot", 0),
        "fewshot_pool": settings.get("fewshot_pool") if settings.get("fewshot") else None,
        "fewshot_seed": settings.get("fewshot_seed", 0) if settings.get("fewshot") else 0,
        "limit": settings.get("limit"), "temperature": model.get("temperature", 0.0),
        "system_prompt": hashlib.sha256(system.encode()).hexdigest()[:12] if isinstance(system, str) else None,
    }


def setup_text(setup: dict[str, object]) -> str:
    """The settings that differ from their defaults, as `shots=5 temperature=0.7`; "" for none."""
    return " ".join(f"{key}={value}" for key, value in setup.items() if value != SETUP_DEFAULTS[key])


def _number(value) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None


def load_runs(paths: list[str | Path]) -> tuple[list[RunSummary], list[Skipped]]:
    runs, skipped = [], []
    for run in find_runs(paths):
        summary = summarise(run)
        (runs if isinstance(summary, RunSummary) else skipped).append(summary)
    return runs, skipped


def question_texts(run: Path) -> dict[str, tuple[str, list[str]]]:
    """Question text and options from the run's pinned data, when it is still there and unchanged."""
    from eval.dataset.loading import DataError, check_pin, load_data

    pin = read_json(run / PLAN)["plan"]["data_pin"]
    try:
        data = load_data(pin["location"])
        check_pin(data, pin)
    except (DataError, OSError):
        return {}
    return {q.id: (q.question or "", list(q.choices or [])) for q in data.questions}
