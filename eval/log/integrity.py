"""The run folder's manifest: every file's SHA-256, written as the run's last act, and its check.

Read-only permissions only say "do not write"; the manifest says what was written. `verify` names
every file that changed, disappeared or appeared since, and rescore and compare refuse a folder that
fails it. A finished run must match exactly. An unfinished run's manifest is what its last session
left; the next session (or one killed part-way) may append to attempts.jsonl and sessions.jsonl, so
for those two only the recorded prefix must be intact. The manifest is not a signature (whoever can edit a file can rewrite it too); that case is
caught by rescore, which recomputes every status from the attempts' own evidence.

To anchor a published result outside the folder, cite the manifest's own SHA-256 (`eval verify`
prints it): whoever rewrites a file and the manifest changes that hash.

Public: `MANIFEST`, `write_manifest(folder)`, `verify(folder) -> Verification`, `require_verified`,
`manifest_sha256`, `IntegrityError`.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from eval.log.runfolder import ATTEMPTS, SESSIONS, STATE, RunFolderError, dumps, read_json
from pipeline.infra import write_text_atomic

MANIFEST = "manifest.json"
MANIFEST_VERSION = 1
APPEND_ONLY = (ATTEMPTS, SESSIONS)


class IntegrityError(RunFolderError):
    """The run folder is not what its manifest says it was."""


def _sha256(path: Path, limit: int | None = None) -> str:
    """SHA-256 of the file, or of its first `limit` bytes."""
    digest = hashlib.sha256()
    left = limit
    with open(path, "rb") as fh:
        while left is None or left > 0:
            chunk = fh.read(1 << 20 if left is None else min(1 << 20, left))
            if not chunk:
                break
            digest.update(chunk)
            if left is not None:
                left -= len(chunk)
    return digest.hexdigest()


def _files(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file() and p.name != MANIFEST)


def write_manifest(folder: str | Path) -> Path:
    """Hash every file in the folder (but the manifest) into manifest.json; call it last."""
    folder = Path(folder)
    path = folder / MANIFEST
    if path.exists():
        path.chmod(0o644)  # an unfinished run's manifest from an earlier session is replaced
    state = read_json(folder / STATE).get("state") if (folder / STATE).exists() else None
    files = {name: {"sha256": _sha256(folder / name), "bytes": (folder / name).stat().st_size} for name in _files(folder)}
    write_text_atomic(path, dumps({"manifest_version": MANIFEST_VERSION, "algorithm": "sha256", "run_state": state, "files": files}))
    return path


@dataclass
class Verification:
    folder: Path
    changed: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    problem: str | None = None  # no manifest, or an unreadable one

    @property
    def ok(self) -> bool:
        return self.problem is None and not (self.changed or self.missing or self.extra)

    def reasons(self) -> list[str]:
        if self.problem:
            return [self.problem]
        return ([f"{self.folder / n}: changed since the manifest was written" for n in self.changed]
                + [f"{self.folder / n}: listed in the manifest but missing" for n in self.missing]
                + [f"{self.folder / n}: not in the manifest (added later)" for n in self.extra])


def verify(folder: str | Path) -> Verification:
    folder = Path(folder)
    result = Verification(folder)
    path = folder / MANIFEST
    if not path.is_file():
        result.problem = f"{path}: no manifest (a run folder gets one when a session ends); cannot verify {folder}"
        return result
    try:
        manifest = read_json(path)
        expected = {name: (entry["sha256"], int(entry["bytes"])) for name, entry in manifest["files"].items()}
    except (RunFolderError, KeyError, TypeError, AttributeError, ValueError) as exc:
        result.problem = f"{path}: not a valid manifest ({exc})"
        return result
    may_grow = manifest.get("run_state") != "complete"
    present = set(_files(folder))
    for name in sorted(expected):
        sha, size = expected[name]
        if name not in present:
            result.missing.append(name)
        elif may_grow and name in APPEND_ONLY and (folder / name).stat().st_size >= size:
            if _sha256(folder / name, size) != sha:  # appended to is fine; rewritten is not
                result.changed.append(name)
        elif _sha256(folder / name) != sha:
            result.changed.append(name)
    result.extra = sorted(present - set(expected))
    return result


def manifest_sha256(folder: str | Path) -> str:
    return _sha256(Path(folder) / MANIFEST)


def require_verified(folder: str | Path, action: str) -> None:
    """Raise IntegrityError, naming every problem, unless the folder matches its manifest."""
    result = verify(folder)
    if not result.ok:
        raise IntegrityError(f"{folder}: fails verification, {action} refused:\n" + "\n".join(f"  - {r}" for r in result.reasons()))
