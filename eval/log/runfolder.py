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
import os
import stat
import threading
from pathlib import Path

from typing import Any, TypeVar

from eval.log.records import Record, RunState, parse_record
from pipeline.infra import write_text_atomic

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
    if not path.exists():
        return []
    raw = path.read_bytes()
    lines = raw.split(b"\n")
    tail = lines.pop()  # b"" when the file ends with a newline
    records = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise RunFolderError(f"{path}:{number}: corrupt line ({exc})") from None
    if tail.strip() and not allow_partial_tail:
        raise RunFolderError(f"{path}: last line is incomplete (an interrupted write); resume the run to repair it")
    return records


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
        path = self.file(ATTEMPTS)
        if not path.exists():
            return 0
        raw = path.read_bytes()
        keep = raw.rfind(b"\n") + 1
        if keep == len(raw):
            return 0
        with open(path, "r+b") as fh:
            fh.truncate(keep)
            os.fsync(fh.fileno())
        return len(raw) - keep

    def append(self, name: str, records: list[Record] | list[dict]) -> None:
        if not records:
            return
        data = "".join(json.dumps(_json_ready(r), ensure_ascii=False, sort_keys=True) + "\n" for r in records).encode("utf-8")
        with self._lock:
            fd = os.open(self.file(name), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                written = os.write(fd, data)
                if written != len(data):
                    raise OSError(f"{self.file(name)}: short write ({written} of {len(data)} bytes)")
                os.fsync(fd)
            finally:
                os.close(fd)

    def seal(self) -> None:
        """Make every file read-only: a finished run is a record, not a workspace."""
        for child in self.path.iterdir():
            if child.is_file():
                child.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
