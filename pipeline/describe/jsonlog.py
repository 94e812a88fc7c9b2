"""Append-only JSONL files (annotations, review audit log): one JSON object a line, keys sorted, so a
diff shows exactly the records added.

Why appending and not rewrite-and-rename (pipeline.infra): these files only grow, and rewriting a
10,000-line log on every review click would cost more than the click. Each record is instead one
complete line written with a single write() on an O_APPEND descriptor and fsync'ed before the caller
is told it is stored. A kill can at worst leave one torn last line (no newline): readers ignore it
and the next writer cuts it off before appending, so a record is either wholly in the file or not.
"""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path


class JsonlError(ValueError):
    """A line of a JSONL file is not a JSON object."""


def dumps_line(record: dict) -> str:
    return json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"


def read_jsonl(path: Path) -> list[dict]:
    """All complete records of `path` (none when it does not exist); a torn last line is skipped."""
    path = Path(path)
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    complete = lines[:-1]  # after the final "\n" there is "" or a torn line
    records = []
    for number, line in enumerate(complete, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise JsonlError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
        if not isinstance(record, dict):
            raise JsonlError(f"{path}:{number}: expected a JSON object, found {type(record).__name__}")
        records.append(record)
    return records


class AppendLog:
    """Appends records to one JSONL file, safely from many threads of one process."""

    def __init__(self, path: Path):
        self.path = Path(path)
        self._lock = threading.Lock()
        self._repaired = False

    def _cut_torn_tail(self) -> None:
        """A torn line left by a kill would glue itself to the next record: cut it off first."""
        if not self.path.exists():
            return
        with self.path.open("rb+") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size == 0:
                return
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return
            handle.seek(0)
            data = handle.read()
            handle.truncate(data.rfind(b"\n") + 1)

    def append(self, records: list[dict] | dict) -> None:
        if isinstance(records, dict):
            records = [records]
        if not records:
            return
        data = "".join(dumps_line(r) for r in records).encode("utf-8")
        with self._lock:
            if not self._repaired:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._cut_torn_tail()
                self._repaired = True
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                written = os.write(fd, data)
                while written < len(data):  # a huge batch may need several writes; a kill between them tears only the last line
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            finally:
                os.close(fd)
