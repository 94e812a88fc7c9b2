"""Content-addressed cache of per-file stage outputs.

A per-file stage is a pure function of (input bytes, options, stage version), so its output is
stored under a hash of exactly those; a season re-run with nothing new reads everything from here.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, is_dataclass
from pathlib import Path

from pipeline.infra.atomic import write_text_atomic


def fingerprint(*parts: object) -> str:
    def plain(value: object) -> object:
        if is_dataclass(value) and not isinstance(value, type):
            return asdict(value)
        if hasattr(value, "model_dump"):
            return value.model_dump(mode="json")
        return value

    blob = json.dumps([plain(p) for p in parts], sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class StageCache:
    def __init__(self, root: Path, stage: str):
        self.dir = Path(root) / stage

    def path(self, key: str) -> Path:
        return self.dir / key[:2] / f"{key}.json"

    def has(self, key: str) -> bool:
        return self.path(key).exists()

    def get(self, key: str) -> str | None:
        try:
            return self.path(key).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def put(self, key: str, text: str) -> None:
        write_text_atomic(self.path(key), text)
