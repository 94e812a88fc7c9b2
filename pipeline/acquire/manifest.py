"""The manifest of every file the pipeline has seen: where it came from and what its bytes are.

Stored as JSON Lines at raw/manifest.jsonl, one entry per URL (or local path), rewritten atomically.
"""
from __future__ import annotations

import dataclasses
import json
import threading
from dataclasses import dataclass
from pathlib import Path

from pipeline.infra import JsonlError, iter_jsonl, write_bytes_atomic
from typing import Iterable, Iterator, Literal

EntryStatus = Literal["downloaded", "not_modified", "local", "rejected", "failed"]


@dataclass
class ManifestEntry:
    url: str  # as found (index page link, URL template, or file:// URI for --from DIR)
    final_url: str  # after redirects
    spec: str  # source spec name
    role: Literal["sheet", "key"]
    facts: dict[str, str]  # pairing facts from the spec's file rule: year, session, sheet_code, ...
    status: EntryStatus
    sha256: str | None = None
    bytes: int | None = None
    content_type: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    fetched_at: str | None = None  # ISO 8601 UTC
    path: str | None = None  # content-addressed copy, relative to the project root: raw/<sha256>.pdf
    error: str | None = None  # why the file was rejected or failed, naming the problem

    @property
    def ok(self) -> bool:
        return self.status in ("downloaded", "not_modified", "local") and self.path is not None

    def to_dict(self) -> dict:
        # Field by field, not dataclasses.asdict (a deep copy through every value): a re-run turns each
        # entry into a dict twice (the manifest, the parse cache key), and asdict was most of that.
        data = {f.name: getattr(self, f.name) for f in _FIELDS}
        data["facts"] = dict(self.facts)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "ManifestEntry":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})


_FIELDS = dataclasses.fields(ManifestEntry)


class ManifestError(ValueError):
    """A manifest file that cannot be read; the message names the file and the line."""


class Manifest:
    """The entries of raw/manifest.jsonl, keyed by URL, safe to share between download threads.

    `save()` writes a temporary file next to the manifest and renames it over the old one, so a reader
    (or a re-run after kill -9) sees either the previous manifest or the new one, never half of one.
    """

    def __init__(self, path: Path, entries: Iterable[ManifestEntry] = ()):
        self.path = Path(path)
        self._entries: dict[str, ManifestEntry] = {}
        self._lock = threading.RLock()
        for entry in entries:
            self._entries[entry.url] = entry

    @classmethod
    def load(cls, path: Path | str) -> "Manifest":
        """The manifest at `path`; an empty one when the file does not exist yet."""
        path = Path(path)
        entries: list[ManifestEntry] = []
        try:
            records = list(iter_jsonl(path, tail="parse"))  # rewritten atomically: its last line is whole
        except JsonlError as exc:
            detail = f"not a JSON object ({exc.reason})" if exc.fault == "invalid_json" else exc.reason
            raise ManifestError(f"{exc.where}: {detail}") from None
        for number, data in records:
            try:
                entries.append(ManifestEntry.from_dict(data))
            except TypeError as exc:
                raise ManifestError(f"{path}:{number}: not a manifest entry ({exc})") from None
        return cls(path, entries)

    def get(self, url: str) -> ManifestEntry | None:
        with self._lock:
            return self._entries.get(url)

    def __contains__(self, url: object) -> bool:
        with self._lock:
            return url in self._entries

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def __iter__(self) -> Iterator[ManifestEntry]:
        return iter(self.entries())

    def entries(self, spec: str | None = None) -> list[ManifestEntry]:
        """All entries (of one spec when given), in insertion order."""
        with self._lock:
            return [e for e in self._entries.values() if spec is None or e.spec == spec]

    def upsert(self, entry: ManifestEntry) -> None:
        """Add the entry, or replace the one with the same URL (keeping its place in the file)."""
        with self._lock:
            self._entries[entry.url] = entry

    def save(self) -> None:
        # Held across the write: one writer at a time, so the last save always holds the newest entries.
        with self._lock:
            lines = [json.dumps(e.to_dict(), ensure_ascii=False, sort_keys=True) for e in self._entries.values()]
            payload = ("\n".join(lines) + "\n" if lines else "").encode("utf-8")
            write_bytes_atomic(self.path, payload)
