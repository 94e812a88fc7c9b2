"""JSON Lines files, one JSON object a line: read, appended crash-safely, rewritten atomically.

Reading (`read_jsonl`, `iter_jsonl`) names the file and line of anything that is not a JSON object.
What an unterminated last line means depends on how the file is written, so the caller says it:
- `tail="skip"`: an append log (annotations, review audit log, run attempts). A kill can leave one
  torn last line; it is not a record, and the next writer cuts it off.
- `tail="error"`: a log that must be repaired before it is read (a run folder being scored strictly).
- `tail="parse"`: a file written whole (by hand, or rewritten atomically): its last line is a record
  like any other, with or without a final newline.

Appending (`AppendLog`), not rewrite-and-rename: these files only grow, and rewriting a 10,000-line
log on every review click would cost more than the click. Each batch is written with one write() on
an O_APPEND descriptor and fsync'ed before the caller is told it is stored, after any torn tail left
by a kill is cut off, so a record is either wholly in the file or not. `rewrite_jsonl` replaces a
whole file atomically (temp file + rename, pipeline.infra.atomic).
"""
from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pipeline.infra.atomic import write_text_atomic

Tail = Literal["skip", "error", "parse"]
Fault = Literal["invalid_json", "not_an_object", "incomplete_last_line"]


class JsonlError(ValueError):
    """A line of a JSONL file is not a JSON object; `where` is "path:line", `fault` what is wrong
    with it and `reason` says it in words."""

    def __init__(self, where: str, fault: Fault, reason: str):
        super().__init__(f"{where}: {reason}")
        self.where, self.fault, self.reason = where, fault, reason


class JsonDuplicateKeyError(ValueError):
    """A JSON object gives a key twice: `json.loads` keeps the last value without a word."""


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise JsonDuplicateKeyError(f"key {key!r} given twice in one object; keep one")
        seen[key] = value
    return seen


def loads_unique_keys(text: str) -> Any:
    """`json.loads(text)` for a file a user gives (a plan, a truth file), refusing an object that gives a
    key twice (`JsonDuplicateKeyError`, a ValueError) where json would keep the last one silently."""
    return json.loads(text, object_pairs_hook=_unique_pairs)


def dumps_line(record: dict) -> str:
    """Keys sorted, no spaces: a diff of the file shows exactly the records added."""
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def iter_jsonl(path: Path | str, *, tail: Tail = "skip") -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) of each record of `path`, blank lines skipped; none when it does not exist."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    lines = text.split("\n")
    last = lines.pop()  # "" after a final newline, else an unterminated last line
    if last.strip():
        if tail == "parse":
            lines.append(last)
        elif tail == "error":
            raise JsonlError(f"{path}:{len(lines) + 1}", "incomplete_last_line", "last line is incomplete (an interrupted write)")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise JsonlError(f"{path}:{number}", "invalid_json", f"not valid JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise JsonlError(f"{path}:{number}", "not_an_object", f"expected a JSON object, found {type(record).__name__}")
        yield number, record


def read_jsonl(path: Path | str, *, tail: Tail = "skip") -> list[dict[str, Any]]:
    """All records of `path` (none when it does not exist); see the module's note on `tail`."""
    return [record for _, record in iter_jsonl(path, tail=tail)]


def rewrite_jsonl(path: Path | str, records: Iterable[dict], *, dumps: Callable[[dict], str] = dumps_line) -> None:
    """Replace the whole file atomically: a reader sees the old records or the new ones."""
    write_text_atomic(Path(path), "".join(dumps(r) for r in records))


def cut_torn_tail(path: Path | str) -> int:
    """Cut an unterminated last line (a write a kill interrupted) so it cannot glue itself to the
    next record; returns the bytes removed."""
    path = Path(path)
    if not path.exists():
        return 0
    with path.open("rb+") as handle:
        size = handle.seek(0, os.SEEK_END)
        if size == 0:
            return 0
        handle.seek(size - 1)
        if handle.read(1) == b"\n":
            return 0
        handle.seek(0)
        keep = handle.read().rfind(b"\n") + 1
        handle.truncate(keep)
        os.fsync(handle.fileno())
    return size - keep


class AppendLog:
    """Appends records to one JSONL file, safely from many threads of one process."""

    def __init__(self, path: Path | str, *, dumps: Callable[[Any], str] = dumps_line):
        self.path = Path(path)
        self._dumps = dumps
        self._lock = threading.Lock()
        self._repaired = False

    def append(self, records: list | dict) -> None:
        if isinstance(records, dict):
            records = [records]
        if not records:
            return
        data = "".join(self._dumps(r) for r in records).encode("utf-8")
        with self._lock:
            if not self._repaired:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                cut_torn_tail(self.path)
                self._repaired = True
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                written = os.write(fd, data)
                while written < len(data):  # a huge batch may need several writes; a kill between them tears only the last line
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            finally:
                os.close(fd)
