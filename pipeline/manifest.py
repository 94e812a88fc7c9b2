"""The manifest of every file the pipeline has seen: where it came from and what its bytes are.

Stored as JSON Lines at raw/manifest.jsonl, one entry per URL (or local path), rewritten atomically.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Literal

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
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "ManifestEntry":
        names = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})
