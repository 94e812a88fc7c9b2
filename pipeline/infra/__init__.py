"""Small infrastructure every stage shares: how files are written, cached and worked on in parallel.

Public functions:
- `write_bytes_atomic(path, data)`, `write_text_atomic(path, text)`: temp file + rename, so a reader or
  a re-run after kill -9 sees the old file or the new one, never half of one (`atomic`).
- `fingerprint(*parts)`, `StageCache(root, stage)`: per-file stage outputs stored under a hash of
  exactly their inputs (`stagecache`).
- `make_executor(kind, workers)`: inline, local process pool or Ray tasks for per-file work (`executors`).
- `progress(total=, desc=)`: the one progress-bar style of long steps (`progress`).
- `sha256_file(path)`: a file's SHA-256, read in chunks (`hashing`).
- `timed(stage)`, `take()`, `add_seconds(a, b)`: cheap per-stage timers for the run report (`clock`).
"""
from pipeline.infra.atomic import write_bytes_atomic, write_text_atomic
from pipeline.infra.clock import add_seconds, take, timed
from pipeline.infra.executors import make_executor
from pipeline.infra.hashing import sha256_file
from pipeline.infra.progress import progress
from pipeline.infra.stagecache import StageCache, fingerprint

__all__ = [
    "StageCache", "add_seconds", "fingerprint", "make_executor", "progress", "sha256_file", "take", "timed",
    "write_bytes_atomic", "write_text_atomic",
]
