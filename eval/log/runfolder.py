"""The run folder: an append-only, then immutable, record of one evaluation run.

    plan.json        the resolved plan, with the data pin and protocol version (written once)
    prompts.jsonl    every question's prompt, answer key and metadata (written once)
    attempts.jsonl   every attempt, one JSON line each, appended as it happens
    sessions.jsonl   one line per invocation: environment (package versions, platform), backend
    scores.json      written when the run finishes (eval.log.scoring; `rescore` recomputes it)
    run.json         the final state; its presence with state "complete" seals the folder
    manifest.json    every other file's SHA-256, written last by each session (eval.log.integrity)

Each attempt line is written with one os.write on an O_APPEND descriptor and fsynced, so a killed
run leaves at most one partial last line, which the next session cuts off before resuming.
"""
from __future__ import annotations

import json
import stat
import threading
from pathlib import Path

from typing import Any, TypeVar

from eval.log.records import Record, RunState, parse_record
from pipeline.infra import AppendLog, JsonlError, cut_torn_tail, write_text_atomic
from pipeline.infra import read_jsonl as infra_read_jsonl

PLAN = "plan.json"
PROMPTS = "prompts.jsonl"
ATTEMPTS = "attempts.jsonl"
SESSIONS = "sessions.jsonl"
SCORES = "scores.json"
STATE = "run.json"


class RunFolderError(RuntimeError):
    pass


R = TypeVar("R", bound=Record)


def _json_ready(obj: Any) -> Any:
    return obj.to_json() if isinstance(obj, Record) else obj


def dumps(obj) -> str:
    """The one JSON spelling used in run folders, so rescoring reproduces files byte for byte."""
    return json.dumps(_json_ready(obj), ensure_ascii=False, sort_keys=True, indent=2) + "\n"




def read_json(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RunFolderError(f"{path}: unreadable ({exc})") from None


def read_jsonl(path: Path, *, allow_partial_tail: bool = False) -> list[dict]:
    """A run folder's JSONL file. A partial last line (a killed run) is an error unless allowed: only
    resuming repairs it, and scoring must not silently read around it."""
    try:
        return infra_read_jsonl(path, tail="skip" if allow_partial_tail else "error")
    except JsonlError as exc:
        hint = "; resume the run to repair it" if exc.fault == "incomplete_last_line" else ""
        raise RunFolderError(f"{exc}{hint}") from None


def _line(record: Record | dict) -> str:
    """Attempts and sessions keep the spelling they always had (keys sorted, default separators)."""
    return json.dumps(_json_ready(record), ensure_ascii=False, sort_keys=True) + "\n"


def read_record(path: Path, model: type[R]) -> R:
    """One JSON file of the run folder as its typed record (eval.log.records)."""
    try:
        return parse_record(model, read_json(path), str(path))
    except ValueError as exc:
        raise RunFolderError(str(exc)) from None


def read_records(path: Path, model: type[R], *, allow_partial_tail: bool = False) -> list[R]:
    """Every line of a JSONL file of the run folder as its typed record."""
    try:
        return [parse_record(model, line, f"{path}:{number}")
                for number, line in enumerate(read_jsonl(path, allow_partial_tail=allow_partial_tail), 1)]
    except ValueError as exc:
        raise RunFolderError(str(exc)) from None


class RunFolder:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._logs: dict[str, AppendLog] = {}

    def file(self, name: str) -> Path:
        return self.path / name

    @property
    def exists(self) -> bool:
        return self.file(PLAN).exists()

    def state(self) -> RunState | None:
        return read_record(self.file(STATE), RunState) if self.file(STATE).exists() else None

    @property
    def sealed(self) -> bool:
        state = self.state()
        return bool(state and state.complete)

    def create(self, plan: dict, prompts: list[dict]) -> None:
        if self.path.exists() and any(self.path.iterdir()):
            raise RunFolderError(f"{self.path}: folder exists and is not a run folder; choose an empty or new --out")
        self.path.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.file(PROMPTS), "".join(json.dumps(p, ensure_ascii=False, sort_keys=True) + "\n" for p in prompts))
        write_text_atomic(self.file(PLAN), dumps(plan))  # last: its presence means the folder is complete to start

    def repair_partial_tail(self) -> int:
        """Cut an incomplete last line left by a killed run; returns the bytes removed."""
        return cut_torn_tail(self.file(ATTEMPTS))

    def append(self, name: str, records: list[Record] | list[dict]) -> None:
        """One fsync'ed O_APPEND write per call (pipeline.infra.AppendLog)."""
        with self._lock:
            log = self._logs.setdefault(name, AppendLog(self.file(name), dumps=_line))
        log.append(list(records))

    def seal(self) -> None:
        """Make every file read-only: a finished run is a record, not a workspace."""
        for child in self.path.iterdir():
            if child.is_file():
                child.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
