"""Model metadata from a small YAML: release date and size, for the contamination view and leaderboard plots.

    models:
      openai:Qwen/Qwen3-8B: {released: 2025-04-29, params_b: 8.2}
      gemini:gemini-2.5-flash: {released: 2025-06-17}

Names are the runs' BACKEND:NAME. Both fields are optional here; a view that needs one says so.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import yaml

from pipeline.infra import load_yaml


@dataclass(frozen=True)
class ModelMeta:
    released: dt.date | None = None
    params_b: float | None = None  # parameters, in billions


def load_model_metadata(path: str | Path) -> dict[str, ModelMeta]:
    path = Path(path)
    try:
        doc = load_yaml(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise ValueError(f"{path}: unreadable model metadata ({exc})") from None
    models = doc.get("models") if isinstance(doc, dict) else None
    if not isinstance(models, dict) or not models:
        raise ValueError(f"{path}: expected 'models: {{BACKEND:NAME: {{released: YYYY-MM-DD, params_b: 8}}}}'")
    out = {}
    for name, meta in models.items():
        if not isinstance(meta, dict) or not set(meta) <= {"released", "params_b"}:
            raise ValueError(f"{path}: model {name!r}: expected a mapping with released and/or params_b")
        released = meta.get("released")
        if isinstance(released, str):
            try:
                released = dt.date.fromisoformat(released)
            except ValueError:
                raise ValueError(f"{path}: model {name!r} needs 'released: YYYY-MM-DD', got {released!r}") from None
        if released is not None and not isinstance(released, dt.date):
            raise ValueError(f"{path}: model {name!r} needs 'released: YYYY-MM-DD', got {released!r}")
        size = meta.get("params_b")
        if size is not None and (isinstance(size, bool) or not isinstance(size, (int, float)) or size <= 0):
            raise ValueError(f"{path}: model {name!r}: params_b must be a positive number of billions, got {size!r}")
        out[str(name)] = ModelMeta(released, None if size is None else float(size))
    return out
