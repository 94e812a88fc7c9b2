"""A model's display name: what a researcher reads in tables, reports and plots, never a weights path.

`--name` (plan field `model.display_name`) says it. Without it, the model's own name is used: a GGUF
file's `general.name` with its quantisation (Q4_1, F16, ...), a Hugging Face folder's repository id
(from the Hub cache layout `models--ORG--NAME/snapshots/REV`, else `_name_or_path` in config.json when
it is a repository id, else the folder's name), or an API's model id as given. The model id
(`BACKEND:NAME`, the path for local models) stays in the plan as what identifies the weights.

Public: `default_display_name(backend, name)`, `model_label(model)`.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

LOCAL_BACKENDS = ("hf", "hf-generate")
_HUB_CACHE = re.compile(r"models--([^/\\]+?)--([^/\\]+)[/\\]snapshots[/\\]")
_REPO_ID = re.compile(r"[A-Za-z0-9][\w.-]*/[\w.-]+")


def _gguf_name(path: Path) -> str | None:
    """general.name and the file's quantisation from a GGUF header; None when the file says nothing."""
    try:
        import gguf

        reader = gguf.GGUFReader(str(path))
    except Exception:  # not a GGUF file, or no reader: the file name will do
        return None

    def value(key: str):
        field = reader.fields.get(key)
        if field is None or not field.data:
            return None
        part = field.parts[field.data[0]]
        if field.types and field.types[0] == gguf.GGUFValueType.STRING:
            return bytes(part).decode("utf-8", errors="replace").strip() or None
        return int(part[0]) if len(part) else None

    name = value("general.name")
    if not name:
        return None
    file_type = value("general.file_type")
    try:
        quantisation = gguf.LlamaFileType(file_type).name.removeprefix("MOSTLY_").removeprefix("ALL_") if file_type is not None else ""
    except ValueError:
        quantisation = ""
    return f"{name} {quantisation}".strip()


def _folder_name(folder: Path) -> str:
    cached = _HUB_CACHE.search(folder.as_posix() + "/")
    if cached:
        return f"{cached.group(1)}/{cached.group(2)}"
    try:
        declared = json.loads((folder / "config.json").read_text(encoding="utf-8")).get("_name_or_path")
    except (OSError, ValueError, AttributeError):
        declared = None
    if isinstance(declared, str) and _REPO_ID.fullmatch(declared) and not Path(declared).exists():
        return declared
    return folder.name


def _printable(text: str) -> str:
    """One line of at most 200 printable characters (a header or a config may hold anything)."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())[:200]


def default_display_name(backend: str, name: str) -> str:
    """The model's own name (see the module's docstring); cheap: reads a header, never the weights."""
    if backend not in LOCAL_BACKENDS:
        return _printable(name) or "model"
    path = Path(name).expanduser()
    if path.is_file():
        found = _gguf_name(path) or path.name.removesuffix(".gguf")
    elif path.is_dir():
        found = _folder_name(path.resolve())
    else:
        found = path.name or name
    return _printable(found) or "model"


def model_label(model: dict) -> str:
    """What to call a run's model: its display name, or for a run made before there was one, the
    name derived from its id (a local path shortened to its last part)."""
    given = model.get("display_name")
    if given:
        return str(given)
    backend, name = str(model.get("backend", "")), str(model.get("name", ""))
    if backend in LOCAL_BACKENDS:
        return Path(name).name.removesuffix(".gguf") or name
    return name
