"""What produced a run, beyond the plan: the code's git commit and whole-file hashes of the weights.

`code_revision()` is the commit of the checkout this package runs from (None, with the reason, when
it is not a git checkout or git is absent), and whether tracked files differ from it. `sha256_cached`
hashes a whole file once and remembers it by resolved path, size and modification time, so a 16 GB
model is read in full on its first run and not again until it changes.

Public: `code_revision`, `sha256_cached`, `hash_cache_path`.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

from pipeline.infra import sha256_file, write_text_atomic

CACHE_ENV = "EXAMCORPUS_CACHE_DIR"
_lock = threading.Lock()


def _git(args: list[str], where: Path) -> str:
    done = subprocess.run(["git", "--no-optional-locks", "-C", str(where), *args],
                          capture_output=True, text=True, timeout=10, check=False)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout.strip()


def code_revision(where: str | Path | None = None) -> dict:
    """{"commit", "dirty", "reason"} of the git checkout holding `where` (default: this package)."""
    where = Path(where) if where is not None else Path(__file__).resolve().parent
    if shutil.which("git") is None:
        return {"commit": None, "dirty": None, "reason": "git is not installed, so the code's commit is unknown"}
    try:
        commit = _git(["rev-parse", "--verify", "HEAD"], where)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        return {"commit": None, "dirty": None, "reason": f"{where} is not in a git checkout with a commit ({exc})"}
    try:
        # Tracked files only: untracked scratch files do not change what the code does.
        dirty = bool(_git(["status", "--porcelain", "--untracked-files=no"], where))
    except (RuntimeError, OSError, subprocess.TimeoutExpired):
        dirty = None
    return {"commit": commit, "dirty": dirty, "reason": None}


def hash_cache_path() -> Path:
    root = os.environ.get(CACHE_ENV) or os.path.join(os.path.expanduser("~"), ".cache", "examcorpus")
    return Path(root) / "sha256-cache.json"


def _load_cache(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}  # no cache, or a damaged one: hashes are recomputed, never trusted blindly


def sha256_cached(path: str | Path) -> str:
    """The SHA-256 of the whole file, from the cache when path, size and mtime are unchanged."""
    path = Path(path).resolve()
    info = path.stat()
    key = f"{path}\0{info.st_size}\0{info.st_mtime_ns}"
    cache_file = hash_cache_path()
    with _lock:
        cached = _load_cache(cache_file).get(key)
    if isinstance(cached, str) and len(cached) == 64:
        return cached
    digest = sha256_file(path)
    with _lock:
        cache = _load_cache(cache_file)  # re-read: another process may have added entries meanwhile
        stale = [k for k in cache if k.split("\0", 1)[0] == str(path)]
        for k in stale:
            del cache[k]
        cache[key] = digest
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(cache_file, json.dumps(cache, sort_keys=True, indent=0) + "\n")
    return digest
