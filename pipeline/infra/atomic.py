"""Atomic file writes: a reader (or a re-run after kill -9) sees the old file or the new one, never half."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _default_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


# mkstemp creates files readable by their owner only; published data must read like any other file.
_FILE_MODE = _default_mode()


def write_bytes_atomic(path: Path, data: bytes, *, durable: bool = True) -> Path:
    """Temp file in the same folder, then os.replace. The rename alone makes the write all-or-nothing
    for other processes and after kill -9; `durable` adds an fsync so it also survives a power cut."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, _FILE_MODE)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text_atomic(path: Path, text: str, *, durable: bool = True) -> Path:
    return write_bytes_atomic(path, text.encode("utf-8"), durable=durable)
