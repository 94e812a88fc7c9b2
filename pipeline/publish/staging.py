"""Staging folders of a local publish: made beside the target, held while in use, cleaned when stale.

A release is built in `.<target>.staging-<pid>` beside its target and renamed into place. A publish
killed on the way (kill -9, power loss) cannot remove its staging folder, and a hidden folder nobody
looks at would stay forever (and, holding a manifest, look like a release). So each staging folder has a
lock file beside it, `.<target>.staging-<pid>.lock`, that its publish holds (`flock`) while it runs; the
kernel lets go of the lock when the process dies, however it dies. The next publish into the same
parent folder removes every staging folder whose lock it can take; one whose lock is held belongs to a
publish still running and is left alone. A staging folder without a lock file (made by an older
version) is judged by whether the process its name names is alive.
"""
from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STAGING_MARK = ".staging-"
LOCK_SUFFIX = ".lock"


def staging_path(target: Path, pid: int | None = None) -> Path:
    return target.parent / f".{target.name}{STAGING_MARK}{pid if pid is not None else os.getpid()}"


def is_staging(path: Path) -> bool:
    return path.name.startswith(".") and STAGING_MARK in path.name and not path.name.endswith(LOCK_SUFFIX)


@contextmanager
def staging_folder(target: Path) -> Iterator[Path]:
    """A fresh, empty staging folder beside `target`, held for the block; removed if the block fails."""
    staging = staging_path(target)
    staging.parent.mkdir(parents=True, exist_ok=True)
    lock_path = staging.with_name(staging.name + LOCK_SUFFIX)
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)  # taken before the folder exists, so no cleaner sees it unheld
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir()
        try:
            yield staging
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise
    finally:
        lock_path.unlink(missing_ok=True)
        os.close(fd)


def clean_stale_staging(parent: Path) -> list[str]:
    """Remove the staging folders in `parent` left by publishes that are no longer running; one line
    for each folder removed or, when it belongs to a running publish, left alone."""
    notes: list[str] = []
    if not parent.is_dir():
        return notes
    for folder in sorted(p for p in parent.iterdir() if is_staging(p) and p.is_dir() and not p.is_symlink()):
        lock_path = folder.with_name(folder.name + LOCK_SUFFIX)
        if lock_path.exists():
            fd = os.open(lock_path, os.O_RDWR)
            try:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    notes.append(f"{folder}: staging folder of a publish still running; left alone")
                    continue
                shutil.rmtree(folder, ignore_errors=True)
                lock_path.unlink(missing_ok=True)
            finally:
                os.close(fd)
        elif _process_alive(folder.name.rsplit(STAGING_MARK, 1)[-1]):
            notes.append(f"{folder}: staging folder of a running process (no lock file); left alone")
            continue
        else:
            shutil.rmtree(folder, ignore_errors=True)
        notes.append(f"removed {folder}, the staging folder of an interrupted publish")
    return notes


def _process_alive(pid_text: str) -> bool:
    if not pid_text.isdecimal():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive
    return True


__all__ = ["clean_stale_staging", "is_staging", "staging_folder", "staging_path"]
